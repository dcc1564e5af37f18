//! Accounts and what keeps them: users and their roles, passwords, sessions, login throttles, and the site's secrets.

use crate::store::db::now_ms;
use crate::store::sql::{Conn, Optional, Row, SqlResult, params};

/// What an account may do. Staff (TAs and instructors) see the class, every submission in
/// full, the queue and the downloads, and may judge again; only instructors manage accounts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Student,
    /// A teaching assistant.
    Ta,
    Instructor,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Student => "student",
            Role::Ta => "ta",
            Role::Instructor => "instructor",
        }
    }

    /// The role named `text` as the database (and a roster's `role` column) writes it.
    pub fn from_name(text: &str) -> Option<Role> {
        match text {
            "student" => Some(Role::Student),
            "ta" => Some(Role::Ta),
            "instructor" => Some(Role::Instructor),
            _ => None,
        }
    }

    fn parse(text: &str) -> Role {
        Role::from_name(text).unwrap_or(Role::Student)
    }

    /// A TA or an instructor.
    pub fn is_staff(self) -> bool {
        matches!(self, Role::Ta | Role::Instructor)
    }
}

#[derive(Debug, Clone)]
pub struct User {
    pub id: i64,
    pub username: String,
    pub name: String,
    pub student_id: String,
    pub section: String,
    pub role: Role,
    /// Disabled accounts cannot log in; they stay in the class matrix and gradebooks.
    pub disabled: bool,
}

impl User {
    pub fn is_instructor(&self) -> bool {
        self.role == Role::Instructor
    }

    /// A TA or an instructor: not a row of the class matrix or the gradebooks.
    pub fn is_staff(&self) -> bool {
        self.role.is_staff()
    }

    /// The name to show: the full name, or the username.
    pub fn display(&self) -> &str {
        if self.name.is_empty() {
            &self.username
        } else {
            &self.name
        }
    }
}

const USER_COLUMNS: &str =
    "id, username, name, student_id, section, role, disabled_at IS NOT NULL AS disabled";

fn user_row(row: &Row) -> SqlResult<User> {
    Ok(User {
        id: row.get("id")?,
        username: row.get("username")?,
        name: row.get("name")?,
        student_id: row.get("student_id")?,
        section: row.get("section")?,
        role: Role::parse(&row.get::<_, String>("role")?),
        disabled: row.get("disabled")?,
    })
}

/// An account by id, removed or not.
pub fn user_by_id(c: &mut Conn, id: i64) -> SqlResult<Option<User>> {
    c.query_row(
        &format!("SELECT {USER_COLUMNS} FROM users WHERE id = ?1"),
        [id],
        user_row,
    )
    .optional()
}

/// An account to create or update.
#[derive(Debug, Clone, Default)]
pub struct NewUser {
    pub username: String,
    pub name: String,
    pub student_id: String,
    pub section: String,
    /// The LMS's user id (its `sub`) and the issuer of the platform that id belongs to, and
    /// the email: what may link an LTI launch to this account, where its platform allows.
    pub lms_id: String,
    pub lms_issuer: String,
    /// The registration (client id) of `lms_issuer` that `lms_id` belongs to; empty where
    /// the issuer has one registration here.
    pub lms_client_id: String,
    pub email: String,
}

pub fn find_user(c: &mut Conn, username: &str) -> SqlResult<Option<(User, String)>> {
    c.query_row(
        &format!(
            "SELECT {USER_COLUMNS}, password_hash FROM users WHERE username = ?1 AND removed_at IS NULL"
        ),
        [username],
        |row| Ok((user_row(row)?, row.get("password_hash")?)),
    )
    .optional()
}

/// An account with everything a roster can say of it but its password: what `users list
/// --roster` prints and `users import` reads back.
#[derive(Debug, Clone)]
pub struct RosterEntry {
    pub user: User,
    pub email: String,
    pub lms_id: String,
    pub lms_issuer: String,
    pub lms_client_id: String,
}

/// Every account (not removed), as [`users`] orders them, with its roster columns.
pub fn roster(c: &mut Conn) -> SqlResult<Vec<RosterEntry>> {
    c.query(
        &format!(
            "SELECT {USER_COLUMNS}, email, lms_id, lms_issuer, lms_client_id FROM users
             WHERE removed_at IS NULL
             ORDER BY CASE role WHEN 'student' THEN 0 WHEN 'ta' THEN 1 ELSE 2 END, username"
        ),
        [],
        |row| {
            Ok(RosterEntry {
                user: user_row(row)?,
                email: row.get("email")?,
                lms_id: row.get("lms_id")?,
                lms_issuer: row.get("lms_issuer")?,
                lms_client_id: row.get("lms_client_id")?,
            })
        },
    )
}

pub fn users(c: &mut Conn) -> SqlResult<Vec<User>> {
    c.query(
        &format!(
            "SELECT {USER_COLUMNS} FROM users WHERE removed_at IS NULL
             ORDER BY CASE role WHEN 'student' THEN 0 WHEN 'ta' THEN 1 ELSE 2 END, username"
        ),
        [],
        user_row,
    )
}

/// Creates an account, or updates its name, id, section and role; sets the password when one
/// is given (a new account needs one). Returns whether the account is new.
pub fn upsert_user(
    c: &mut Conn,
    user: &NewUser,
    role: Role,
    password_hash: Option<&str>,
) -> SqlResult<bool> {
    let existing: Option<i64> = c
        .query_row(
            "SELECT id FROM users WHERE username = ?1",
            [&user.username],
            |r| r.get("id"),
        )
        .optional()?;
    match existing {
        Some(id) => {
            // A removed account's name given again is a new person's: the LMS user it was
            // linked to must not sign in to it, nor its scores go to that user's gradebook.
            for table in ["lti_identities", "lti_scores", "lti_line_items"] {
                c.execute(
                    &format!(
                        "DELETE FROM {table} WHERE user_id = ?1
                           AND EXISTS (SELECT 1 FROM users WHERE id = ?1 AND removed_at IS NOT NULL)"
                    ),
                    [id],
                )?;
            }
            c.execute(
                // An empty cell (or a column the roster lacks) keeps what the account has. The
                // role is the command's from now on, not the launches'.
                "UPDATE users SET name = COALESCE(NULLIF(?2, ''), name),
                    student_id = COALESCE(NULLIF(?3, ''), student_id),
                    section = COALESCE(NULLIF(?4, ''), section), role = ?5,
                    lms_issuer = CASE WHEN ?6 = '' THEN lms_issuer ELSE ?8 END,
                    lms_client_id = CASE WHEN ?6 = '' THEN lms_client_id ELSE ?9 END,
                    lms_id = COALESCE(NULLIF(?6, ''), lms_id), email = COALESCE(NULLIF(?7, ''), email),
                    lti_role = 0, removed_at = NULL WHERE id = ?1",
                params![
                    id,
                    user.name,
                    user.student_id,
                    user.section,
                    role.as_str(),
                    user.lms_id,
                    user.email,
                    user.lms_issuer,
                    user.lms_client_id
                ],
            )?;
            if let Some(hash) = password_hash {
                set_password(c, id, hash)?;
            }
            Ok(false)
        }
        None => {
            c.execute(
                "INSERT INTO users (username, name, student_id, section, role, password_hash, created_at,
                     lms_id, email, lms_issuer, lms_client_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    user.username,
                    user.name,
                    user.student_id,
                    user.section,
                    role.as_str(),
                    password_hash.unwrap_or(""),
                    now_ms(),
                    user.lms_id,
                    user.email,
                    user.lms_issuer,
                    user.lms_client_id
                ],
            )?;
            Ok(true)
        }
    }
}

/// Why `username` may not be raised to `role` from the command line, if it may not: it is an
/// account an LMS launch made (no password, its role from launches), and so whoever launched
/// with that name (their email) owns it; a staff role given to the name would be theirs.
pub fn launched_account_refusal(
    c: &mut Conn,
    username: &str,
    role: Role,
) -> SqlResult<Option<String>> {
    let found: Option<(String, String)> = c
        .query_row(
            "SELECT u.role, p.issuer FROM users u
               JOIN lti_identities i ON i.user_id = u.id
               JOIN lti_platforms p ON p.id = i.platform_id
             WHERE u.username = ?1 AND u.lti_role = 1 AND u.removed_at IS NULL LIMIT 1",
            [username],
            |r| Ok((r.get("role")?, r.get("issuer")?)),
        )
        .optional()?;
    let rank = |role: Role| match role {
        Role::Student => 0,
        Role::Ta => 1,
        Role::Instructor => 2,
    };
    Ok(found.and_then(|(current, issuer)| {
        let current = Role::from_name(&current).unwrap_or(Role::Student);
        (rank(role) > rank(current)).then(|| {
            format!(
                "`{username}` is an account an LMS launch made (from {}): whoever launched owns it, so nimlab does not make it {} from the command line; give the staff member another username, or remove this account first (nimlab users remove)",
                nimlab_core::escape::quoted(&issuer, 200),
                role.as_str()
            )
        })
    }))
}

/// Sets a password and ends the account's sessions (a changed password logs everyone out).
pub fn set_password(c: &mut Conn, user_id: i64, password_hash: &str) -> SqlResult<()> {
    set_password_keeping(c, user_id, password_hash, None)
}

/// Sets a password and ends the account's sessions but `keep` (the session, by its token's
/// hash, of an owner who changed their own password), and lifts its login throttles.
pub fn set_password_keeping(
    c: &mut Conn,
    user_id: i64,
    password_hash: &str,
    keep: Option<&str>,
) -> SqlResult<()> {
    c.execute(
        "UPDATE users SET password_hash = ?2 WHERE id = ?1",
        params![user_id, password_hash],
    )?;
    c.execute(
        "DELETE FROM sessions WHERE user_id = ?1 AND (CAST(?2 AS TEXT) IS NULL OR token_hash <> ?2)",
        params![user_id, keep],
    )?;
    // A new password lifts the login throttles: the owner, or whoever reset it, may log in.
    c.execute(
        "DELETE FROM login_throttles WHERE username = (SELECT username FROM users WHERE id = ?1)",
        [user_id],
    )?;
    Ok(())
}

/// Disables or enables an account by name; a disabled account's sessions end. Returns
/// whether there was such an account.
pub fn set_disabled(c: &mut Conn, username: &str, disabled: bool) -> SqlResult<bool> {
    let changed = c.execute(
        "UPDATE users SET disabled_at = CASE WHEN ?2 THEN COALESCE(disabled_at, ?3) END
         WHERE username = ?1 AND removed_at IS NULL",
        params![username, disabled, now_ms()],
    )?;
    if disabled {
        c.execute(
            "DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE username = ?1)",
            [username],
        )?;
    }
    Ok(changed == 1)
}

/// Removes an account: its sessions and throttles go, and it can no longer log in nor be
/// launched into from an LMS. Its row stays as a tombstone (no password) so that its
/// submissions keep their username, unless `with_submissions`, which deletes them and every
/// row that names the account (a tombstone's too). Returns how many submissions were
/// deleted, or None when there is no such account.
pub fn remove_user(
    c: &mut Conn,
    username: &str,
    with_submissions: bool,
) -> SqlResult<Option<usize>> {
    let mut tx = c.immediate()?;
    let id: Option<i64> = tx
        .query_row(
            "SELECT id FROM users WHERE username = ?1 AND (removed_at IS NULL OR ?2)",
            params![username, with_submissions],
            |r| r.get("id"),
        )
        .optional()?;
    let Some(id) = id else {
        return Ok(None);
    };
    tx.execute("DELETE FROM sessions WHERE user_id = ?1", [id])?;
    tx.execute(
        "DELETE FROM login_throttles WHERE username = ?1",
        [username],
    )?;
    let deleted = if with_submissions {
        let deleted = tx.execute("DELETE FROM submissions WHERE user_id = ?1", [id])?;
        // Every row that names the account: its LMS identities, where its scores went, and
        // the scores (sessions, extensions and Deep Linking requests go with the row).
        for table in ["lti_identities", "lti_scores", "lti_line_items"] {
            tx.execute(&format!("DELETE FROM {table} WHERE user_id = ?1"), [id])?;
        }
        tx.execute("DELETE FROM users WHERE id = ?1", [id])?;
        deleted
    } else {
        tx.execute(
            "UPDATE users SET removed_at = ?2, password_hash = '' WHERE id = ?1",
            params![id, now_ms()],
        )?;
        0
    };
    tx.commit()?;
    Ok(Some(deleted))
}

/// Failed logins counted against one key (`account:NAME` or `device:NONCE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Throttle {
    pub failures: u32,
    pub last_failure_at: i64,
    pub blocked_until: i64,
}

pub fn throttle(c: &mut Conn, key: &str) -> SqlResult<Option<Throttle>> {
    c.query_row(
        "SELECT failures, last_failure_at, blocked_until FROM login_throttles WHERE key = ?1",
        [key],
        |row| {
            Ok(Throttle {
                failures: row.get("failures")?,
                last_failure_at: row.get("last_failure_at")?,
                blocked_until: row.get("blocked_until")?,
            })
        },
    )
    .optional()
}

/// Counts one more failure against `key`, as `next` says from what was counted before (read
/// and written in one transaction, so failures settled at once all count).
pub fn record_failure(
    c: &mut Conn,
    key: &str,
    username: &str,
    forget_after_ms: i64,
    next: impl FnOnce(Option<Throttle>) -> Throttle,
) -> SqlResult<Throttle> {
    let mut tx = c.immediate()?;
    let updated = next(throttle(&mut tx, key)?);
    // Throttles whose last failure is long past count for nothing: dropped as others come.
    tx.execute(
        "DELETE FROM login_throttles WHERE last_failure_at < ?1",
        [updated.last_failure_at - forget_after_ms],
    )?;
    tx.execute(
        "INSERT INTO login_throttles (key, username, failures, last_failure_at, blocked_until)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (key) DO UPDATE SET failures = ?3, last_failure_at = ?4, blocked_until = ?5",
        params![
            key,
            username,
            updated.failures,
            updated.last_failure_at,
            updated.blocked_until
        ],
    )?;
    tx.commit()?;
    Ok(updated)
}

/// Forgets the failures counted against `key` (after a successful login).
pub fn clear_throttle(c: &mut Conn, key: &str) -> SqlResult<()> {
    c.execute("DELETE FROM login_throttles WHERE key = ?1", [key])?;
    Ok(())
}

/// A secret of this server by name, made by `fresh` the first time it is asked for.
pub fn secret(c: &mut Conn, name: &str, fresh: impl FnOnce() -> Vec<u8>) -> SqlResult<Vec<u8>> {
    c.execute(
        "INSERT INTO secrets (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING",
        params![name, fresh()],
    )?;
    c.query_row("SELECT value FROM secrets WHERE name = ?1", [name], |row| {
        row.get("value")
    })
}

pub fn create_session(
    c: &mut Conn,
    token_hash: &str,
    user_id: i64,
    csrf: &str,
    lifetime_ms: i64,
) -> SqlResult<()> {
    let now = now_ms();
    c.execute("DELETE FROM sessions WHERE expires_at < ?1", [now])?;
    c.execute(
        "INSERT INTO sessions (token_hash, user_id, csrf, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![token_hash, user_id, csrf, now, now + lifetime_ms],
    )?;
    Ok(())
}

/// The user of a live session, and its CSRF token.
pub fn session_user(c: &mut Conn, token_hash: &str) -> SqlResult<Option<(User, String)>> {
    c.query_row(
        "SELECT u.id, u.username, u.name, u.student_id, u.section, u.role,
             u.disabled_at IS NOT NULL AS disabled, s.csrf
         FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.token_hash = ?1 AND s.expires_at > ?2
           AND u.disabled_at IS NULL AND u.removed_at IS NULL",
        params![token_hash, now_ms()],
        |row| Ok((user_row(row)?, row.get("csrf")?)),
    )
    .optional()
}

pub fn delete_session(c: &mut Conn, token_hash: &str) -> SqlResult<()> {
    c.execute("DELETE FROM sessions WHERE token_hash = ?1", [token_hash])?;
    Ok(())
}
