//! Deadlines and extensions as the instructor sets them, from the command line
//! (`nimlab deadline`) and from the deadlines page: what is typed checked (a known exercise or
//! `all`, a known student, well-formed times) before anything is written. The rule itself is
//! [`nimlab_core::deadline`].

use crate::store::accounts;
use crate::store::calendar;
use crate::store::db::Db;
use nimlab_core::deadline::{self, Policy};
use nimlab_core::error::{Error, Result};
use nimlab_core::lab::Lab;

/// The exercises `name` stands for: one of the lab's, or every one for `all`.
pub fn exercises(lab: &Lab, name: &str) -> Result<Vec<String>> {
    let name = name.trim();
    if name == "all" {
        return Ok(lab.names().iter().map(|n| n.to_string()).collect());
    }
    lab.exercise(name)
        .map(|e| vec![e.name.clone()])
        .map_err(|_| {
            Error::usage(format!(
                "no exercise `{name}` in the lab: name one of {}, or `all`",
                lab.names().join(", ")
            ))
        })
}

fn time(what: &str, text: &str) -> Result<i64> {
    deadline::parse_time(text).map_err(|e| Error::usage(format!("{what}: {e}")))
}

/// A deadline from what was typed: the due time, and the late period's end and penalty
/// (percent of the score per started day late).
pub fn policy(due: &str, late_until: Option<&str>, penalty: Option<f64>) -> Result<Policy> {
    let due_ms = time("the due time", due)?;
    let late_until_ms = match late_until {
        Some(text) => Some(time("--late-until", text)?),
        None => None,
    };
    if let Some(until) = late_until_ms
        && until <= due_ms
    {
        return Err(Error::usage(format!(
            "the late period must end after the due time ({}), not at {}",
            deadline::display(due_ms),
            deadline::display(until)
        )));
    }
    let penalty = penalty.unwrap_or(0.0);
    if !(0.0..=100.0).contains(&penalty) {
        return Err(Error::usage(format!(
            "the late penalty is a percent of the score per day late, from 0 to 100, not {penalty}"
        )));
    }
    if penalty > 0.0 && late_until_ms.is_none() {
        return Err(Error::usage(
            "a late penalty needs a late period: say until when late work is taken (--late-until)",
        ));
    }
    Ok(Policy {
        due_ms,
        late_until_ms,
        penalty_percent_per_day: penalty,
    })
}

/// Sets the deadline of `exercise` (or `all`); returns the exercises set.
pub fn set(db: &Db, lab: &Lab, exercise: &str, policy: &Policy) -> Result<Vec<String>> {
    let names = exercises(lab, exercise)?;
    db.with(|c| calendar::set_deadline(c, &names, policy))?;
    Ok(names)
}

/// The account of a student, by username.
fn student(db: &Db, username: &str) -> Result<accounts::User> {
    let username = username.trim();
    match db.with(|c| accounts::find_user(c, username))? {
        Some((user, _)) if !user.is_instructor() => Ok(user),
        Some(_) => Err(Error::usage(format!(
            "`{username}` is an instructor: extensions are for students"
        ))),
        None => Err(Error::usage(format!("no account `{username}`"))),
    }
}

/// Gives `username` a new due time for `exercise` (or `all`); returns the exercises and the
/// time.
pub fn extend(
    db: &Db,
    lab: &Lab,
    username: &str,
    exercise: &str,
    until: &str,
) -> Result<(Vec<String>, i64)> {
    let names = exercises(lab, exercise)?;
    let until = time("the extension", until)?;
    let user = student(db, username)?;
    db.with(|c| calendar::set_extension(c, user.id, &names, until))?;
    Ok((names, until))
}

/// Removes the deadline of `exercise` (or `all`), or with `username` that student's
/// extension of it; returns how many were removed.
pub fn clear(db: &Db, lab: &Lab, exercise: &str, username: Option<&str>) -> Result<usize> {
    let names = exercises(lab, exercise)?;
    match username {
        Some(username) => {
            let user = student(db, username)?;
            db.with(|c| calendar::clear_extension(c, user.id, &names))
        }
        None => db.with(|c| calendar::clear_deadline(c, &names)),
    }
}

/// A deadline in words: `due 2030-03-01 23:59 UTC; late until ... at 10% per day`.
pub fn describe(policy: &Policy) -> String {
    let mut text = format!("due {}", deadline::display(policy.due_ms));
    if let Some(until) = policy.late_until_ms {
        text.push_str(&format!(
            "; late work until {}, {}",
            deadline::display(until),
            penalty(policy.penalty_percent_per_day)
        ));
    }
    text
}

/// A late penalty in words.
pub fn penalty(percent_per_day: f64) -> String {
    if percent_per_day >= 100.0 {
        "for no credit".to_string()
    } else if percent_per_day <= 0.0 {
        "without penalty".to_string()
    } else {
        format!(
            "less {}% of the score per day late",
            number(percent_per_day)
        )
    }
}

fn number(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `nimlab deadline list`: each exercise's deadline, then each extension, a line each.
pub fn list(db: &Db, lab: &Lab) -> Result<Vec<String>> {
    let deadlines = db.with(calendar::deadlines)?;
    let extensions = db.with(calendar::extension_list)?;
    let mut lines = Vec::new();
    for name in lab.names() {
        match deadlines.policy(name) {
            Some(policy) => lines.push(format!("{name}\t{}", describe(policy))),
            None => lines.push(format!("{name}\tno deadline")),
        }
    }
    for (username, exercise, until) in extensions {
        lines.push(format!(
            "{exercise}\textension for {} until {}",
            nimlab_core::escape::one_line(&username),
            deadline::display(until)
        ));
    }
    Ok(lines)
}

/// What a refused upload is told: when the deadline was, and the late period's end.
pub fn closed_message(exercise: &str, policy: &Policy) -> String {
    match policy.late_until_ms {
        Some(until) => format!(
            "uploads for {exercise} are closed: it was due {}, and late work was taken until {}",
            deadline::display(policy.due_ms),
            deadline::display(until)
        ),
        None => format!(
            "uploads for {exercise} are closed: the deadline was {}",
            deadline::display(policy.due_ms)
        ),
    }
}
