//! Deadlines and extensions as stored.

use crate::store::sql::{Conn, SqlResult, params};
use nimlab_core::deadline::{Policy, Timeliness};

/// Every deadline and extension, as the rule ([`nimlab_core::deadline::timeliness`]) takes them.
#[derive(Debug, Clone, Default)]
pub struct Deadlines {
    /// By exercise name.
    pub policies: std::collections::BTreeMap<String, Policy>,
    /// By (account id, exercise name): the student's new due time.
    pub extensions: std::collections::BTreeMap<(i64, String), i64>,
}

impl Deadlines {
    pub fn policy(&self, exercise: &str) -> Option<&Policy> {
        self.policies.get(exercise)
    }

    pub fn extension(&self, user_id: i64, exercise: &str) -> Option<i64> {
        self.extensions
            .get(&(user_id, exercise.to_string()))
            .copied()
    }

    /// The deadline of `exercise` for one student, their extension applied.
    pub fn personal(&self, user_id: i64, exercise: &str) -> Option<Policy> {
        nimlab_core::deadline::personal(self.policy(exercise), self.extension(user_id, exercise))
    }

    /// The rule for a submission of `exercise` by `user_id` at `submitted_ms`.
    pub fn timeliness(&self, user_id: i64, exercise: &str, submitted_ms: i64) -> Timeliness {
        nimlab_core::deadline::timeliness(
            self.policy(exercise),
            self.extension(user_id, exercise),
            submitted_ms,
        )
    }
}

pub fn deadlines(c: &mut Conn) -> SqlResult<Deadlines> {
    let mut deadlines = Deadlines::default();
    let policies = c.query(
        "SELECT exercise, due_at, late_until, late_penalty FROM deadlines",
        [],
        |r| {
            Ok((
                r.get::<_, String>("exercise")?,
                Policy {
                    due_ms: r.get("due_at")?,
                    late_until_ms: r.get("late_until")?,
                    penalty_percent_per_day: r.get("late_penalty")?,
                },
            ))
        },
    )?;
    deadlines.policies.extend(policies);
    let extensions = c.query("SELECT user_id, exercise, until FROM extensions", [], |r| {
        Ok((
            (r.get::<_, i64>("user_id")?, r.get::<_, String>("exercise")?),
            r.get("until")?,
        ))
    })?;
    deadlines.extensions.extend(extensions);
    Ok(deadlines)
}

/// Sets the deadline of each of `exercises`, in one transaction.
pub fn set_deadline(c: &mut Conn, exercises: &[String], policy: &Policy) -> SqlResult<()> {
    let mut tx = c.immediate()?;
    for exercise in exercises {
        tx.execute(
            "INSERT INTO deadlines (exercise, due_at, late_until, late_penalty) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (exercise) DO UPDATE SET due_at = ?2, late_until = ?3, late_penalty = ?4",
            params![
                exercise,
                policy.due_ms,
                policy.late_until_ms,
                policy.penalty_percent_per_day
            ],
        )?;
    }
    tx.commit()
}

/// Removes the deadlines of `exercises`; returns how many there were.
pub fn clear_deadline(c: &mut Conn, exercises: &[String]) -> SqlResult<usize> {
    let mut tx = c.immediate()?;
    let mut count = 0;
    for exercise in exercises {
        count += tx.execute("DELETE FROM deadlines WHERE exercise = ?1", [exercise])?;
    }
    tx.commit()?;
    Ok(count)
}

/// Gives a student a new due time (`until`) for each of `exercises`, in one transaction.
pub fn set_extension(
    c: &mut Conn,
    user_id: i64,
    exercises: &[String],
    until: i64,
) -> SqlResult<()> {
    let mut tx = c.immediate()?;
    for exercise in exercises {
        tx.execute(
            "INSERT INTO extensions (user_id, exercise, until) VALUES (?1, ?2, ?3)
             ON CONFLICT (user_id, exercise) DO UPDATE SET until = ?3",
            params![user_id, exercise, until],
        )?;
    }
    tx.commit()
}

/// Removes a student's extensions of `exercises`; returns how many there were.
pub fn clear_extension(c: &mut Conn, user_id: i64, exercises: &[String]) -> SqlResult<usize> {
    let mut tx = c.immediate()?;
    let mut count = 0;
    for exercise in exercises {
        count += tx.execute(
            "DELETE FROM extensions WHERE user_id = ?1 AND exercise = ?2",
            params![user_id, exercise],
        )?;
    }
    tx.commit()?;
    Ok(count)
}

/// Every extension of an account not removed: (username, exercise, new due time), by
/// username and exercise.
pub fn extension_list(c: &mut Conn) -> SqlResult<Vec<(String, String, i64)>> {
    c.query(
        "SELECT u.username, e.exercise, e.until FROM extensions e JOIN users u ON u.id = e.user_id
         WHERE u.removed_at IS NULL ORDER BY u.username, e.exercise",
        [],
        |r| Ok((r.get("username")?, r.get("exercise")?, r.get("until")?)),
    )
}
