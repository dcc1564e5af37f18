//! The website's one database file (SQLite): accounts, sessions, login throttles and
//! submissions, which are also the judging queue. This module owns the schema, its
//! migrations and every query.
//!
//! The file is opened in WAL mode with `synchronous = FULL`, so a submission acknowledged to
//! a student has reached the disk: a crash or `kill -9` after the reply loses nothing.

use crate::store::migrate::{Migration, latest, migrate};
use crate::store::sql::{Conn, Dialect, Optional, Row, SqlError, SqlResult, Value, params};
use nimlab_core::deadline::{Policy, Timeliness};
use nimlab_core::error::{Error, Result};
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Milliseconds since the Unix epoch (by the test clock where one is set: see
/// [`nimlab_core::deadline::now_ms`]).
pub fn now_ms() -> i64 {
    nimlab_core::deadline::now_ms()
}

/// Where the database is: an SQLite file, or a PostgreSQL server.
#[derive(Clone)]
enum Location {
    File(PathBuf),
    Postgres(Box<crate::store::pg_connect::Target>),
}

/// Whether `--db`'s value is a PostgreSQL connection string (a URI in libpq's form) rather
/// than a file's path.
pub fn is_postgres(db: &Path) -> bool {
    let text = db.to_string_lossy();
    text.starts_with("postgres://") || text.starts_with("postgresql://")
}

/// A connection string as messages show it: without its password.
pub fn shown(db: &Path) -> String {
    let text = db.to_string_lossy();
    if !is_postgres(db) {
        return db.display().to_string();
    }
    // `scheme://user:password@host/...`: the part between the first `:` after `//` and the
    // last `@` before the path is the password.
    let (scheme, rest) = text.split_once("://").unwrap_or(("", &text));
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let authority = match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _)) => format!("{name}:***@{host}"),
            None => format!("{user}@{host}"),
        },
        None => authority.to_string(),
    };
    // A password may also come as a parameter (`?password=…`).
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let query: Vec<&str> = query
                .split('&')
                .map(|pair| {
                    if pair.starts_with("password=") {
                        "password=***"
                    } else {
                        pair
                    }
                })
                .collect();
            format!("{path}?{}", query.join("&"))
        }
        None => tail.to_string(),
    };
    format!("{scheme}://{authority}{tail}")
}

/// The database and a few open connections to it, shared by the web handlers and the
/// judging workers.
pub struct Db {
    path: PathBuf,
    location: Location,
    idle: Mutex<Vec<Conn>>,
}

impl Db {
    /// Opens (creating if needed) and migrates the database: an SQLite file, or the
    /// PostgreSQL database a `postgres://` or `postgresql://` URI names.
    pub fn open(path: &Path) -> Result<Db> {
        let location = if is_postgres(path) {
            let target =
                crate::store::pg_connect::Target::parse(&path.to_string_lossy()).map_err(|e| {
                    Error::usage(format!(
                        "--db {}: not a PostgreSQL connection string nimlab can use: {e}",
                        shown(path)
                    ))
                })?;
            Location::Postgres(Box::new(target))
        } else {
            if path.is_dir() {
                return Err(Error::input(
                    path,
                    "is a folder; --db names a database file",
                ));
            }
            // Created private before SQLite opens it: it holds password hashes and every
            // student's work, and SQLite gives its -wal and -shm files the same mode.
            create_private(path).map_err(|e| Error::unwritable(path, e))?;
            Location::File(path.to_path_buf())
        };
        let db = Db {
            path: path.to_path_buf(),
            location,
            idle: Mutex::new(Vec::new()),
        };
        let mut connection = db.connect()?;
        migrate(&mut connection).map_err(|e| match e {
            Migration::Newer(version) => Error::usage(format!(
                "{}: the database's schema is version {version}, newer than this nimlab knows ({}); use a newer nimlab",
                db.shown(),
                latest()
            )),
            Migration::Diverged(why) => Error::usage(format!(
                "{}: this nimlab cannot take the database's schema over: {why}",
                db.shown()
            )),
            Migration::Sql(e) => db.error(e),
        })?;
        db.idle
            .lock()
            .expect("no panics holding the pool")
            .push(connection);
        Ok(db)
    }

    /// Opens a database that must exist already: a file (not made by a mistyped name), or a
    /// PostgreSQL database (which its administrator creates).
    pub fn open_existing(path: &Path) -> Result<Db> {
        if !is_postgres(path) && !path.is_file() {
            return Err(Error::input(path, "no such database file"));
        }
        Db::open(path)
    }

    /// What `--db` said: a file's path, or a connection string (see [`Db::shown`] for
    /// messages).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The database as messages name it (a connection string without its password).
    pub fn shown(&self) -> String {
        shown(&self.path)
    }

    pub fn dialect(&self) -> Dialect {
        match self.location {
            Location::File(_) => Dialect::Sqlite,
            Location::Postgres(_) => Dialect::Postgres,
        }
    }

    fn connect(&self) -> Result<Conn> {
        match &self.location {
            Location::File(path) => self.connect_file(path),
            Location::Postgres(target) => {
                let client = self.connected(target)?;
                Ok(Conn::Postgres(crate::store::sql::Client::new(client)))
            }
        }
    }

    /// A new connection of its own, outside the pool (a PostgreSQL listener's).
    pub fn postgres_client(&self) -> Result<Option<crate::store::sql::Client>> {
        match &self.location {
            Location::File(_) => Ok(None),
            Location::Postgres(target) => self
                .connected(target)
                .map(|c| Some(crate::store::sql::Client::new(c))),
        }
    }

    fn connected(&self, target: &crate::store::pg_connect::Target) -> Result<postgres::Client> {
        target.connect().map_err(|e| match e {
            crate::store::pg_connect::ConnectError::Roots(why) => {
                Error::usage(format!("--db {}: {why}", self.shown()))
            }
            crate::store::pg_connect::ConnectError::Postgres(e) => {
                self.error(SqlError::Postgres(e))
            }
        })
    }

    fn connect_file(&self, path: &Path) -> Result<Conn> {
        let not_a_database = |e: &rusqlite::Error| {
            matches!(
                e.sqlite_error_code(),
                Some(rusqlite::ErrorCode::NotADatabase)
            )
        };
        let setup = |c: &Connection| -> rusqlite::Result<()> {
            c.busy_timeout(std::time::Duration::from_secs(30))?;
            c.pragma_update(None, "journal_mode", "WAL")?;
            c.pragma_update(None, "synchronous", "FULL")?;
            c.pragma_update(None, "foreign_keys", "ON")?;
            Ok(())
        };
        let connection = Connection::open(path).map_err(|e| self.error(e.into()))?;
        match setup(&connection) {
            Ok(()) => Ok(Conn::Sqlite(connection)),
            Err(e) if not_a_database(&e) => Err(Error::input(
                path,
                "is not a nimlab database (not an SQLite file)",
            )),
            Err(e) => Err(self.error(e.into())),
        }
    }

    fn error(&self, error: SqlError) -> Error {
        Error::internal(
            format!("{}: database", self.shown()),
            std::io::Error::other(error),
        )
    }

    /// Runs `f` on a connection from the pool (blocking: call it off the async threads).
    pub fn with<T>(&self, f: impl FnOnce(&mut Conn) -> SqlResult<T>) -> Result<T> {
        let pooled = self.idle.lock().expect("no panics holding the pool").pop();
        let mut connection = match pooled {
            Some(c) if c.is_usable() => c,
            _ => self.connect()?,
        };
        let result = f(&mut connection);
        if let Err(e) = &result
            && cannot_write(e)
        {
            UNWRITABLE.notify_one();
        }
        let result = result.map_err(|e| self.error(e));
        let mut idle = self.idle.lock().expect("no panics holding the pool");
        if idle.len() < 16 && connection.is_usable() {
            idle.push(connection);
        }
        result
    }

    /// A consistent copy of the whole database, taken while it is in use, readable by its
    /// owner only: an SQLite file, whichever store this one is.
    pub fn backup(&self, to: &Path) -> Result<()> {
        if to.exists() {
            return Err(Error::input(
                to,
                "already exists; nimlab does not overwrite a backup",
            ));
        }
        // SQLite writes into an empty file: made private first, before any data is in it.
        match create_private(to) {
            Ok(true) => {}
            Ok(false) => {
                return Err(Error::input(
                    to,
                    "already exists; nimlab does not overwrite a backup",
                ));
            }
            Err(e) => return Err(Error::unwritable(to, e)),
        }
        let copied = match self.location {
            Location::File(_) => {
                // Absolute, so that SQLite never reads the name as a URI (`file:copy.db?mode=rwc`
                // would write the database to `copy.db`, with the default mode).
                let target = std::path::absolute(to)
                    .map_err(|e| Error::unwritable(to, e))?
                    .to_string_lossy()
                    .into_owned();
                self.with(|c| c.execute("VACUUM INTO ?1", [target]).map(|_| ()))
            }
            Location::Postgres(_) => self.copy_into_file(to),
        };
        if copied.is_err() {
            let _ = std::fs::remove_file(to);
        }
        copied
    }

    /// Copies every table, as one snapshot of a PostgreSQL database, into a new SQLite
    /// file with the same schema (which `--db FILE` serves as it is).
    fn copy_into_file(&self, to: &Path) -> Result<()> {
        let target = Db::open(to)?;
        let rows = self.with(|c| {
            let mut tx = c.transaction()?;
            tx.batch("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")?;
            let mut tables = Vec::new();
            for table in TABLES {
                let rows = tx.query(&format!("SELECT * FROM {table}"), [], |r| {
                    Ok(r.values().to_vec())
                })?;
                let columns = tx.query(
                    "SELECT column_name::text AS column_name FROM information_schema.columns
                     WHERE table_schema = current_schema() AND table_name = ?1
                     ORDER BY ordinal_position",
                    [*table],
                    |r| r.get::<_, String>("column_name"),
                )?;
                tables.push((*table, columns, rows));
            }
            tx.commit()?;
            Ok(tables)
        })?;
        target.with(|c| {
            let mut tx = c.immediate()?;
            for (table, columns, rows) in rows {
                let marks: Vec<String> = (1..=columns.len()).map(|i| format!("?{i}")).collect();
                let insert = format!(
                    "INSERT INTO {table} ({}) VALUES ({})",
                    columns.join(", "),
                    marks.join(", ")
                );
                for row in rows {
                    tx.execute(&insert, row)?;
                }
            }
            tx.commit()
        })
    }
}

/// Every table, parents before the tables whose rows point at theirs.
const TABLES: &[&str] = &[
    "users",
    "sessions",
    "submissions",
    "login_throttles",
    "secrets",
    "lti_platforms",
    "lti_deployments",
    "lti_contexts",
    "lti_identities",
    "lti_launches",
    "lti_nonces",
    "lti_line_items",
    "lti_scores",
    "deadlines",
    "extensions",
    "lti_deep_links",
    "site",
];

/// Tables a backup leaves out: the live processes are not part of the course's record, and
/// the copy has its own history of the schema's steps (made when it is created).
#[cfg(test)]
const NOT_BACKED_UP: &[&str] = &["processes", "refinery_schema_history"];

/// Woken when a statement fails because the database can no longer be written (see
/// [`cannot_write`]): `nimlab serve` then stops with a message rather than answering every
/// request with an error. One for the process: a server has one database.
static UNWRITABLE: tokio::sync::Notify = tokio::sync::Notify::const_new();

/// Returns once a statement has failed because the database can no longer be written.
pub async fn unwritable() {
    UNWRITABLE.notified().await;
}

/// Whether `error` says the database file can no longer be written: made read-only or
/// immutable, or its disk failing. Unlike a full disk (`SQLITE_FULL`), waiting does not
/// mend it.
pub fn cannot_write(error: &SqlError) -> bool {
    use rusqlite::ffi;
    let SqlError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) = error else {
        return false;
    };
    e.code == rusqlite::ErrorCode::ReadOnly
        || matches!(
            e.extended_code,
            ffi::SQLITE_IOERR_WRITE | ffi::SQLITE_IOERR_SHMOPEN | ffi::SQLITE_IOERR_TRUNCATE
        )
}

/// Creates `path` empty and readable by its owner only (0600), unless it exists; whether
/// it was created.
pub fn create_private(path: &Path) -> std::io::Result<bool> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e),
    }
}

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

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Queued,
    Running,
    Done,
    Failed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Queued => "queued",
            Status::Running => "running",
            Status::Done => "done",
            Status::Failed => "failed",
        }
    }

    fn parse(text: &str) -> Status {
        match text {
            "running" => Status::Running,
            "done" => Status::Done,
            "failed" => Status::Failed,
            _ => Status::Queued,
        }
    }

    pub fn finished(self) -> bool {
        matches!(self, Status::Done | Status::Failed)
    }
}

/// A submission without its source and report (lists, the queue, the class matrix).
#[derive(Debug, Clone)]
pub struct Summary {
    pub id: i64,
    pub user_id: i64,
    pub username: String,
    pub exercise: String,
    pub filename: String,
    pub status: Status,
    pub submitted_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    /// The verdict's name as `--format json` writes it (`accepted`, `wrong_answer`, ...).
    pub verdict: Option<String>,
    pub score: Option<u32>,
    pub max_score: Option<u32>,
    pub error: Option<String>,
}

/// A submission in full.
#[derive(Debug, Clone)]
pub struct Submission {
    pub summary: Summary,
    pub source: Vec<u8>,
    /// The `nimlab check --format json` object, once judged.
    pub report: Option<String>,
}

const SUMMARY_COLUMNS: &str = "s.id, s.user_id, u.username, s.exercise, s.filename, s.status, s.submitted_at, s.started_at, s.finished_at, s.verdict, s.score, s.max_score, s.error";

fn summary_row(row: &Row) -> SqlResult<Summary> {
    Ok(Summary {
        id: row.get("id")?,
        user_id: row.get("user_id")?,
        username: row.get("username")?,
        exercise: row.get("exercise")?,
        filename: row.get("filename")?,
        status: Status::parse(&row.get::<_, String>("status")?),
        submitted_at: row.get("submitted_at")?,
        started_at: row.get("started_at")?,
        finished_at: row.get("finished_at")?,
        verdict: row.get("verdict")?,
        score: row.get("score")?,
        max_score: row.get("max_score")?,
        error: row.get("error")?,
    })
}

/// Why an upload was not accepted into the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The student already has this many submissions waiting.
    TooManyQueued(usize),
}

/// Adds an upload to the queue, committed before this returns; refused when the student
/// already has `max_queued` submissions waiting or running.
pub fn insert_submission(
    c: &mut Conn,
    user_id: i64,
    exercise: &str,
    filename: &str,
    source: &[u8],
    max_queued: usize,
) -> SqlResult<std::result::Result<i64, Refused>> {
    insert_submission_at(c, user_id, exercise, filename, source, max_queued, now_ms())
}

/// [`insert_submission`], submitted at `submitted_at` (the moment the deadline was checked
/// against).
pub fn insert_submission_at(
    c: &mut Conn,
    user_id: i64,
    exercise: &str,
    filename: &str,
    source: &[u8],
    max_queued: usize,
    submitted_at: i64,
) -> SqlResult<std::result::Result<i64, Refused>> {
    let mut tx = c.immediate()?;
    let waiting: i64 = tx.query_row(
        "SELECT COUNT(*) AS waiting FROM submissions WHERE user_id = ?1 AND priority = 0 AND status IN ('queued', 'running')",
        [user_id],
        |r| r.get("waiting"),
    )?;
    if waiting as usize >= max_queued {
        return Ok(Err(Refused::TooManyQueued(waiting as usize)));
    }
    let id: i64 = tx.query_row(
        "INSERT INTO submissions (user_id, exercise, filename, source, status, submitted_at)
         VALUES (?1, ?2, ?3, ?4, 'queued', ?5) RETURNING id",
        params![user_id, exercise, filename, source, submitted_at],
        |r| r.get("id"),
    )?;
    wake_judges(&mut tx)?;
    tx.commit()?;
    Ok(Ok(id))
}

pub fn submission(c: &mut Conn, id: i64) -> SqlResult<Option<Submission>> {
    c.query_row(
        &format!(
            "SELECT {SUMMARY_COLUMNS}, s.source, s.report FROM submissions s JOIN users u ON u.id = s.user_id WHERE s.id = ?1"
        ),
        [id],
        |row| {
            Ok(Submission {
                summary: summary_row(row)?,
                source: row.get("source")?,
                report: row.get("report")?,
            })
        },
    )
    .optional()
}

/// Which submissions a list shows, and which page of them.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub user_id: Option<i64>,
    pub username: Option<String>,
    pub exercise: Option<String>,
    /// A verdict's JSON name (`wrong_answer`), or a status (`queued`, `running`, `failed`).
    pub verdict: Option<String>,
    /// Submitted at or after this time, and before that one (ms since the epoch).
    pub from_ms: Option<i64>,
    pub until_ms: Option<i64>,
    pub limit: Option<usize>,
    pub offset: usize,
}

const FILTERED: &str = "FROM submissions s JOIN users u ON u.id = s.user_id
         WHERE (CAST(?1 AS BIGINT) IS NULL OR s.user_id = ?1) AND (CAST(?2 AS TEXT) IS NULL OR u.username = ?2)
           AND (CAST(?3 AS TEXT) IS NULL OR s.exercise = ?3)
           AND (CAST(?4 AS TEXT) IS NULL OR s.verdict = ?4 OR s.status = ?4)
           AND (CAST(?5 AS BIGINT) IS NULL OR s.submitted_at >= ?5) AND (CAST(?6 AS BIGINT) IS NULL OR s.submitted_at < ?6)";

impl Filter {
    fn params(&self) -> Vec<Value> {
        use crate::store::sql::ToValue;
        vec![
            self.user_id.to_value(),
            self.username.to_value(),
            self.exercise.to_value(),
            self.verdict.to_value(),
            self.from_ms.to_value(),
            self.until_ms.to_value(),
        ]
    }
}

/// Submissions, newest first: the page the filter asks for.
pub fn submissions(c: &mut Conn, filter: &Filter) -> SqlResult<Vec<Summary>> {
    // No limit is the largest one: PostgreSQL takes no negative LIMIT.
    let limit = filter.limit.map_or(i64::MAX, |l| l as i64);
    let mut values = filter.params();
    values.push(Value::Int(limit));
    values.push(Value::Int(filter.offset as i64));
    c.query(
        &format!("SELECT {SUMMARY_COLUMNS} {FILTERED} ORDER BY s.id DESC LIMIT ?7 OFFSET ?8"),
        values,
        summary_row,
    )
}

/// How many submissions the filter finds, on every page.
pub fn count_submissions(c: &mut Conn, filter: &Filter) -> SqlResult<usize> {
    c.query_row(
        &format!("SELECT COUNT(*) AS found {FILTERED}"),
        filter.params(),
        |r| r.get::<_, i64>("found"),
    )
    .map(|n| n as usize)
}

/// Every judged submission (for best scores and gradebooks), oldest first.
pub fn judged(c: &mut Conn, user_id: Option<i64>) -> SqlResult<Vec<Summary>> {
    c.query(
        &format!(
            "SELECT {SUMMARY_COLUMNS} FROM submissions s JOIN users u ON u.id = s.user_id
             WHERE s.status = 'done' AND (CAST(?1 AS BIGINT) IS NULL OR s.user_id = ?1) ORDER BY s.id"
        ),
        [user_id],
        summary_row,
    )
}

pub fn report(c: &mut Conn, id: i64) -> SqlResult<Option<String>> {
    c.query_row("SELECT report FROM submissions WHERE id = ?1", [id], |r| {
        r.get("report")
    })
    .optional()
    .map(Option::flatten)
}

/// The queue: running first, then queued in the order they were uploaded.
pub fn queue(c: &mut Conn) -> SqlResult<Vec<Summary>> {
    c.query(
        &format!(
            "SELECT {SUMMARY_COLUMNS} FROM submissions s JOIN users u ON u.id = s.user_id
             WHERE s.status IN ('queued', 'running')
             ORDER BY s.status = 'queued', s.priority, s.id"
        ),
        [],
        summary_row,
    )
}

/// How many queued submissions were uploaded before this one.
pub fn waiting_before(c: &mut Conn, id: i64) -> SqlResult<i64> {
    c.query_row(
        "SELECT COUNT(*) AS waiting FROM submissions WHERE status = 'queued' AND priority = 0 AND id < ?1",
        [id],
        |r| r.get("waiting"),
    )
}

/// A job a worker has claimed.
#[derive(Debug, Clone)]
pub struct Job {
    pub id: i64,
    pub attempt: i64,
    pub exercise: String,
    pub filename: String,
    pub source: Vec<u8>,
}

/// How far back a student's judging counts against them when the queue picks the next job.
const FAIRNESS_WINDOW_MS: i64 = 10 * 60 * 1000;

/// The test hook that sets this machine's clock off by that many milliseconds (negative:
/// behind), as on a machine whose clock is wrong: `NIMLAB_TEST_CLOCK_SKEW_MS=3600000`. For
/// tests only; leases on PostgreSQL must not depend on it ([`clock_ms`]).
pub const TEST_CLOCK_SKEW: &str = "NIMLAB_TEST_CLOCK_SKEW_MS";

/// Milliseconds since the Unix epoch by this machine's clock (never the test clock of
/// [`now_ms`], which may stand still), off by [`TEST_CLOCK_SKEW`] in tests.
fn wall_ms() -> i64 {
    static SKEW: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    let skew = *SKEW.get_or_init(|| {
        std::env::var(TEST_CLOCK_SKEW)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    });
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
        + skew
}

/// Milliseconds since the Unix epoch by the database's clock, which leases and the
/// processes' signs of life are measured with. On PostgreSQL that is the server's clock, one
/// for every machine judging on it, however far their own clocks are off; on an SQLite file
/// it is this process's, the one process that judges on it.
pub fn clock_ms(c: &mut Conn) -> SqlResult<i64> {
    match c.dialect() {
        Dialect::Sqlite => Ok(wall_ms()),
        Dialect::Postgres => c.query_row(
            "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT) AS clock_ms",
            [],
            |r| r.get("clock_ms"),
        ),
    }
}

/// Who claims a job and for how long: a process's unique name (see
/// [`crate::jobs::cluster`]) and its lease.
#[derive(Debug, Clone)]
pub struct Claimant {
    pub judge: String,
    pub lease: std::time::Duration,
}

impl Claimant {
    /// When a lease taken or renewed at `clock` (the database's, [`clock_ms`]) runs out.
    fn lease_until(&self, clock: i64) -> i64 {
        clock + self.lease.as_millis() as i64
    }
}

/// The order the queue is taken in (see [`claim`]); `?1` is the start of the fairness window.
const NEXT_JOB: &str = "SELECT q.id FROM submissions q WHERE q.status = 'queued'
             ORDER BY q.priority,
                 (SELECT COUNT(*) FROM submissions r
                  WHERE r.user_id = q.user_id AND r.started_at >= ?1),
                 q.id
             LIMIT 1";

/// Claims the next job, fairly: uploads before rejudges; among them, the student whose
/// submissions were started least in the last ten minutes (running ones included) goes
/// first, then the oldest upload. So one student's twenty uploads are taken in turn with
/// everyone else's, never all before them.
///
/// The job is leased to `who` until its lease runs out ([`renew`] extends it while judging;
/// [`expire`] queues it again after). On PostgreSQL, judges claiming at once each lock their
/// row and skip the others' (`FOR UPDATE SKIP LOCKED`) rather than wait on one lock.
pub fn claim(c: &mut Conn, who: &Claimant) -> SqlResult<Option<Job>> {
    // The database's clock, as for leases: a judge whose own clock is off must not make a
    // student look started in the future (and so served last) or long ago.
    let now = clock_ms(c)?;
    let window = now - FAIRNESS_WINDOW_MS;
    let job = |r: &Row| {
        Ok(Job {
            id: r.get("id")?,
            attempt: r.get("attempt")?,
            exercise: r.get("exercise")?,
            filename: r.get("filename")?,
            source: r.get("source")?,
        })
    };
    let until = who.lease_until(now);
    if c.dialect() == Dialect::Postgres {
        let claimed = c.query(
            &format!(
                "UPDATE submissions SET status = 'running', started_at = ?2, attempt = attempt + 1,
                     lease_until = ?3, judge = ?4
                 WHERE id = ({NEXT_JOB} FOR UPDATE SKIP LOCKED) AND status = 'queued'
                 RETURNING id, attempt, exercise, filename, source"
            ),
            params![window, now, until, who.judge],
            job,
        )?;
        return Ok(claimed.into_iter().next());
    }
    let mut tx = c.immediate()?;
    let next: Option<i64> = tx
        .query_row(NEXT_JOB, [window], |r| r.get("id"))
        .optional()?;
    let Some(id) = next else {
        return Ok(None);
    };
    tx.execute(
        "UPDATE submissions SET status = 'running', started_at = ?2, attempt = attempt + 1,
             lease_until = ?3, judge = ?4
         WHERE id = ?1",
        params![id, now, until, who.judge],
    )?;
    let job = tx.query_row(
        "SELECT id, attempt, exercise, filename, source FROM submissions WHERE id = ?1",
        [id],
        job,
    )?;
    tx.commit()?;
    Ok(Some(job))
}

/// Extends the leases of the jobs `who` is judging; returns how many.
pub fn renew(c: &mut Conn, who: &Claimant) -> SqlResult<usize> {
    let until = who.lease_until(clock_ms(c)?);
    c.execute(
        "UPDATE submissions SET lease_until = ?2 WHERE status = 'running' AND judge = ?1",
        params![who.judge, until],
    )
}

/// Leases lost in a row before a submission is given up on: one that keeps killing its
/// judges (or a machine that keeps failing) is not judged forever.
pub const LEASES_LOST_AT_MOST: i64 = 3;

/// What [`expire`] did with jobs whose lease ran out.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Expired {
    pub queued: usize,
    pub failed: usize,
}

/// Queues again the jobs whose judge stopped renewing their lease (killed, frozen, its
/// machine lost): a new attempt, so the old judge's result, if it ever comes, is refused.
/// A job that has lost [`LEASES_LOST_AT_MOST`] leases is marked failed instead.
pub fn expire(c: &mut Conn) -> SqlResult<Expired> {
    let now = clock_ms(c)?;
    let mut tx = c.transaction()?;
    let running_out = "status = 'running' AND (lease_until IS NULL OR lease_until < ?1)";
    let failed = tx.execute(
        &format!(
            "UPDATE submissions SET status = 'failed', attempt = attempt + 1, lost = lost + 1,
                 lease_until = NULL, finished_at = ?2, verdict = NULL, score = NULL,
                 max_score = NULL, report = NULL, error = ?3
             WHERE {running_out} AND lost + 1 >= ?4"
        ),
        params![
            now,
            now_ms(),
            format!(
                "nimlab lost the judge of this submission {LEASES_LOST_AT_MOST} times (the process or machine judging it stopped while it ran), so it is not judged again unless an instructor asks"
            ),
            LEASES_LOST_AT_MOST
        ],
    )?;
    let queued = tx.execute(
        &format!(
            "UPDATE submissions SET status = 'queued', attempt = attempt + 1, lost = lost + 1,
                 lease_until = NULL
             WHERE {running_out}"
        ),
        [now],
    )?;
    if queued > 0 {
        wake_judges(&mut tx)?;
    }
    tx.commit()?;
    Ok(Expired { queued, failed })
}

/// Gives back the jobs `judge` was judging (a process stopping cleanly), for others to take
/// now rather than when their lease runs out; returns how many.
pub fn release(c: &mut Conn, judge: &str) -> SqlResult<usize> {
    let mut tx = c.transaction()?;
    let count = tx.execute(
        "UPDATE submissions SET status = 'queued', attempt = attempt + 1, lease_until = NULL
         WHERE status = 'running' AND judge = ?1",
        [judge],
    )?;
    if count > 0 {
        wake_judges(&mut tx)?;
    }
    tx.commit()?;
    Ok(count)
}

/// Tells the judging processes there is work (PostgreSQL's NOTIFY, sent when the transaction
/// commits); nothing on SQLite, whose one process notifies its workers itself.
fn wake_judges(c: &mut Conn) -> SqlResult<()> {
    if c.dialect() == Dialect::Postgres {
        c.execute(&format!("SELECT pg_notify('{QUEUE_CHANNEL}', '')"), [])?;
    }
    Ok(())
}

/// The NOTIFY channel of new work (uploads, rejudges, jobs queued again).
pub const QUEUE_CHANNEL: &str = "nimlab_queue";
/// The NOTIFY channel of stored results (scores an LMS may be sent).
pub const RESULTS_CHANNEL: &str = "nimlab_results";

/// What judging a job came to.
pub enum Outcome {
    Judged {
        verdict: String,
        score: u32,
        max_score: u32,
        report: String,
    },
    /// nimlab could not judge it (its own failure, never the student's).
    Failed(String),
}

/// Records a job's result, unless it was rejudged (or re-queued) meanwhile; returns whether
/// it was kept.
pub fn finish(c: &mut Conn, job: &Job, outcome: &Outcome) -> SqlResult<bool> {
    let now = now_ms();
    let changed = match outcome {
        Outcome::Judged {
            verdict,
            score,
            max_score,
            report,
        } => c.execute(
            "UPDATE submissions SET status = 'done', finished_at = ?3, verdict = ?4, score = ?5,
                 max_score = ?6, report = ?7, error = NULL, lease_until = NULL
             WHERE id = ?1 AND attempt = ?2 AND status = 'running'",
            params![job.id, job.attempt, now, verdict, score, max_score, report],
        )?,
        Outcome::Failed(error) => c.execute(
            "UPDATE submissions SET status = 'failed', finished_at = ?3, verdict = NULL, score = NULL,
                 max_score = NULL, report = NULL, error = ?4, lease_until = NULL
             WHERE id = ?1 AND attempt = ?2 AND status = 'running'",
            params![job.id, job.attempt, now, error],
        )?,
    };
    if changed == 1 && c.dialect() == Dialect::Postgres {
        c.execute(&format!("SELECT pg_notify('{RESULTS_CHANNEL}', '')"), [])?;
    }
    Ok(changed == 1)
}

/// Puts the jobs a crash or kill left running back in the queue; returns how many. Only for
/// a server that is alone on its database (an SQLite file's): on PostgreSQL other processes
/// may be judging them, and a dead one's jobs come back when their lease runs out.
pub fn requeue_running(c: &mut Conn) -> SqlResult<usize> {
    c.execute(
        "UPDATE submissions SET status = 'queued', attempt = attempt + 1, lease_until = NULL
         WHERE status = 'running'",
        [],
    )
}

/// What to judge again.
#[derive(Debug, Clone)]
pub enum Rejudge {
    One(i64),
    Exercise(String),
    All,
}

/// Queues submissions to be judged again (behind students' uploads); their old results stay
/// visible until the new ones replace them. Returns how many.
pub fn rejudge(c: &mut Conn, what: &Rejudge) -> SqlResult<usize> {
    let mut tx = c.immediate()?;
    // An upload still waiting keeps its place ahead of the rejudges.
    let set = "UPDATE submissions SET status = 'queued', attempt = attempt + 1, lost = 0,
                   lease_until = NULL,
                   priority = CASE WHEN status = 'queued' THEN priority ELSE 1 END";
    let count = match what {
        Rejudge::One(id) => tx.execute(&format!("{set} WHERE id = ?1"), [id])?,
        Rejudge::Exercise(name) => tx.execute(&format!("{set} WHERE exercise = ?1"), [name])?,
        Rejudge::All => tx.execute(set, [])?,
    };
    if count > 0 {
        wake_judges(&mut tx)?;
    }
    tx.commit()?;
    Ok(count)
}

/// A process serving or judging on the database, as the queue page lists it.
#[derive(Debug, Clone)]
pub struct Process {
    /// `HOST:PID:NONCE` (see [`crate::jobs::cluster`]).
    pub name: String,
    /// `web`, `judge` or `both`.
    pub kind: String,
    pub workers: i64,
    /// The lab as its origin names it (a folder, or the built-in lab).
    pub lab: String,
    pub lab_digest: String,
    pub started_at: i64,
    pub seen_at: i64,
    /// Why it takes no jobs, if it does not.
    pub refusing: Option<String>,
}

/// A process not heard of for this long is not listed (it renews its row far more often).
pub const PROCESS_SILENT_MS: i64 = 60_000;
/// A process not heard of for this long is forgotten.
const PROCESS_FORGOTTEN_MS: i64 = 24 * 60 * 60 * 1000;

/// The test hook that stands for this machine's name and process id (`HOST:PID`), as two
/// containers both named `vm` whose nimlab is process 1 each: `NIMLAB_TEST_HOST_PID=vm:1`.
/// For tests only.
pub const TEST_HOST_PID: &str = "NIMLAB_TEST_HOST_PID";

/// The machine's name and this process's id, `HOST:PID` (or [`TEST_HOST_PID`]'s value):
/// the readable part of a process's name, which alone is not unique (containers).
pub fn host_and_pid() -> String {
    if let Some(named) = std::env::var(TEST_HOST_PID).ok().filter(|v| !v.is_empty()) {
        return named;
    }
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_string());
    format!("{host}:{}", std::process::id())
}

/// Adds (or replaces) the row of a process starting; its start and sign of life are the
/// database's clock ([`clock_ms`]), not the ones `process` carries.
pub fn register(c: &mut Conn, process: &Process) -> SqlResult<()> {
    let now = clock_ms(c)?;
    c.execute(
        "INSERT INTO processes (name, kind, workers, lab, lab_digest, started_at, seen_at, refusing)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)
         ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, workers = excluded.workers,
             lab = excluded.lab, lab_digest = excluded.lab_digest,
             started_at = excluded.started_at, seen_at = excluded.seen_at,
             refusing = excluded.refusing",
        params![
            process.name,
            process.kind,
            process.workers,
            process.lab,
            process.lab_digest,
            now,
            process.refusing
        ],
    )?;
    Ok(())
}

/// A live process's sign of life, with why it takes no jobs if it does not; forgets the
/// processes silent for a day. Returns false when its row was gone (forgotten after a long
/// pause): the caller registers again.
pub fn heartbeat(c: &mut Conn, name: &str, refusing: Option<&str>) -> SqlResult<bool> {
    let now = clock_ms(c)?;
    let found = c.execute(
        "UPDATE processes SET seen_at = ?2, refusing = ?3 WHERE name = ?1",
        params![name, now, refusing],
    )?;
    c.execute(
        "DELETE FROM processes WHERE seen_at < ?1",
        [now - PROCESS_FORGOTTEN_MS],
    )?;
    Ok(found == 1)
}

/// Removes a process's row (it stops cleanly).
pub fn unregister(c: &mut Conn, name: &str) -> SqlResult<()> {
    c.execute("DELETE FROM processes WHERE name = ?1", [name])?;
    Ok(())
}

/// The processes heard of lately, web ones first.
pub fn processes(c: &mut Conn) -> SqlResult<Vec<Process>> {
    let now = clock_ms(c)?;
    c.query(
        "SELECT name, kind, workers, lab, lab_digest, started_at, seen_at, refusing
         FROM processes WHERE seen_at >= ?1 ORDER BY kind DESC, started_at, name",
        [now - PROCESS_SILENT_MS],
        |r| {
            Ok(Process {
                name: r.get("name")?,
                kind: r.get("kind")?,
                workers: r.get("workers")?,
                lab: r.get("lab")?,
                lab_digest: r.get("lab_digest")?,
                started_at: r.get("started_at")?,
                seen_at: r.get("seen_at")?,
                refusing: r.get("refusing")?,
            })
        },
    )
}

/// The lab the website serves, as the last web process to start set it: judges take jobs
/// only when theirs is the same.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SiteLab {
    pub digest: String,
    /// The lab as its origin names it.
    pub lab: String,
    /// The nimlab version of the web process.
    pub nimlab: String,
    /// The web process that set it.
    pub by: String,
}

pub fn set_site_lab(c: &mut Conn, lab: &SiteLab) -> SqlResult<()> {
    let value = serde_json::to_string(lab).expect("a site lab serializes");
    c.execute(
        "INSERT INTO site (name, value) VALUES ('lab', ?1)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        [value],
    )?;
    Ok(())
}

/// None before any web process started (or if the row cannot be read as one).
pub fn site_lab(c: &mut Conn) -> SqlResult<Option<SiteLab>> {
    let value: Option<String> = c
        .query_row("SELECT value FROM site WHERE name = 'lab'", [], |r| {
            r.get("value")
        })
        .optional()?;
    Ok(value.and_then(|v| serde_json::from_str(&v).ok()))
}

/// Counts by status, for the queue page.
pub fn counts(c: &mut Conn) -> SqlResult<Vec<(Status, i64)>> {
    c.query(
        "SELECT status, COUNT(*) AS total FROM submissions GROUP BY status ORDER BY status",
        [],
        |r| {
            Ok((
                Status::parse(&r.get::<_, String>("status")?),
                r.get("total")?,
            ))
        },
    )
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn tester() -> Claimant {
        Claimant {
            judge: "tester:1".into(),
            lease: std::time::Duration::from_secs(60),
        }
    }

    fn open() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("class.db")).unwrap();
        (dir, db)
    }

    fn student(db: &Db, name: &str) -> i64 {
        db.with(|c| {
            upsert_user(
                c,
                &NewUser {
                    username: name.into(),
                    ..NewUser::default()
                },
                Role::Student,
                Some("x"),
            )?;
            Ok(find_user(c, name)?.unwrap().0.id)
        })
        .unwrap()
    }

    #[test]
    fn opening_twice_migrates_once() {
        let (dir, db) = open();
        drop(db);
        let db = Db::open(&dir.path().join("class.db")).unwrap();
        let version: i64 = db
            .with(|c| c.query_row("PRAGMA user_version", [], |r| r.get("user_version")))
            .unwrap();
        assert_eq!(version, crate::store::migrate::latest());
    }

    #[test]
    fn lti_links_by_issuer_become_identities_of_each_registration_of_that_issuer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            let old = Connection::open(&path).unwrap();
            old.execute_batch("PRAGMA foreign_keys = OFF").unwrap();
            for step in crate::store::migrate::sqlite_texts(8) {
                old.execute_batch(&step).unwrap();
            }
            old.execute_batch(
                "PRAGMA user_version = 8;
                INSERT INTO lti_platforms (id, issuer, client_id, auth_url, jwks_url, token_url, created_at)
                VALUES (1, 'https://a', 'c1', 'u', 'u', 'u', 0), (2, 'https://a', 'c2', 'u', 'u', 'u', 0),
                    (3, 'https://b', 'c1', 'u', 'u', 'u', 0);
                INSERT INTO users (id, username, role, password_hash, created_at)
                VALUES (1, 'lti-1', 'instructor', '', 0), (2, 'ada', 'student', 'hash', 0);
                INSERT INTO lti_accounts (issuer, subject, user_id)
                VALUES ('https://a', '5', 1), ('https://b', '5', 2);",
            )
            .unwrap();
        }
        let db = Db::open(&path).unwrap();
        let identities: Vec<(i64, String, i64)> = db
            .with(|c| {
                c.query(
                    "SELECT platform_id, subject, user_id FROM lti_identities ORDER BY platform_id",
                    [],
                    |r| Ok((r.get("platform_id")?, r.get("subject")?, r.get("user_id")?)),
                )
            })
            .unwrap();
        let five = || "5".to_string();
        assert_eq!(
            identities,
            vec![(1, five(), 1), (2, five(), 1), (3, five(), 2)]
        );
        // The account a launch made (no password) takes its role from launches; ada's
        // (a roster's, linked) keeps the one the roster gave.
        let from_launches: Vec<(String, bool)> = db
            .with(|c| {
                c.query(
                    "SELECT username, lti_role FROM users ORDER BY id",
                    [],
                    |r| Ok((r.get("username")?, r.get("lti_role")?)),
                )
            })
            .unwrap();
        assert_eq!(
            from_launches,
            vec![("lti-1".to_string(), true), ("ada".to_string(), false)]
        );
    }

    #[test]
    fn a_file_that_is_not_a_database_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.db");
        std::fs::write(&path, "these are my notes, not a database, and long enough").unwrap();
        let error = Db::open(&path).err().unwrap().to_string();
        assert!(
            error.contains("notes.db") && error.contains("not a nimlab database"),
            "{error}"
        );
    }

    #[test]
    fn the_queue_takes_students_in_turn() {
        let (_dir, db) = open();
        let eager = student(&db, "eager");
        let calm = student(&db, "calm");
        db.with(|c| {
            for _ in 0..5 {
                insert_submission(c, eager, "present_board", "a.py", b"", 10)?.unwrap();
            }
            insert_submission(c, calm, "present_board", "b.py", b"", 10)?.unwrap();
            Ok(())
        })
        .unwrap();
        let order: Vec<i64> = (0..3)
            .map(|_| db.with(|c| claim(c, &tester())).unwrap().unwrap().id)
            .collect();
        // eager's first, then calm's (uploaded last), then eager's second.
        assert_eq!(order, vec![1, 6, 2]);
    }

    #[test]
    fn a_backup_copies_every_table_but_the_live_processes() {
        let (_dir, db) = open();
        let mut tables: Vec<String> = db
            .with(|c| {
                c.query(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
                    [],
                    |r| r.get("name"),
                )
            })
            .unwrap();
        tables.sort();
        let mut listed: Vec<String> = TABLES
            .iter()
            .chain(NOT_BACKED_UP)
            .map(|t| t.to_string())
            .collect();
        listed.sort();
        assert_eq!(tables, listed);
    }

    /// A claimant whose lease has run out already.
    fn lapsed(judge: &str) -> Claimant {
        Claimant {
            judge: judge.into(),
            lease: std::time::Duration::ZERO,
        }
    }

    #[test]
    fn a_job_whose_lease_ran_out_is_judged_again_and_its_old_result_refused() {
        let (_dir, db) = open();
        let ada = student(&db, "ada");
        db.with(|c| insert_submission(c, ada, "ui", "ui.py", b"", 10).map(|r| r.unwrap()))
            .unwrap();
        // A lease still running is left alone; one renewed to nothing runs out.
        let held = db.with(|c| claim(c, &tester())).unwrap().unwrap();
        assert_eq!(db.with(expire).unwrap(), Expired::default());
        assert_eq!(db.with(|c| renew(c, &lapsed("tester:1"))).unwrap(), 1);
        std::thread::sleep(std::time::Duration::from_millis(5));
        let expired = db.with(expire).unwrap();
        assert_eq!(
            expired,
            Expired {
                queued: 1,
                failed: 0
            }
        );
        let other = Claimant {
            judge: "other:2".into(),
            lease: std::time::Duration::from_secs(60),
        };
        let again = db.with(|c| claim(c, &other)).unwrap().unwrap();
        assert_eq!(again.id, held.id);
        assert!(again.attempt > held.attempt);
        let late = Outcome::Failed("late".into());
        assert!(!db.with(|c| finish(c, &held, &late)).unwrap());
        assert!(db.with(|c| finish(c, &again, &late)).unwrap());
        let judge: String = db
            .with(|c| c.query_row("SELECT judge FROM submissions", [], |r| r.get("judge")))
            .unwrap();
        assert_eq!(judge, "other:2");
    }

    #[test]
    fn a_job_that_loses_its_judge_three_times_fails_and_a_clean_stop_gives_jobs_back() {
        let (_dir, db) = open();
        let ada = student(&db, "ada");
        for _ in 0..2 {
            db.with(|c| insert_submission(c, ada, "ui", "ui.py", b"", 10).map(|r| r.unwrap()))
                .unwrap();
        }
        let poison = db.with(|c| claim(c, &lapsed("a:1"))).unwrap().unwrap();
        for round in 1..=LEASES_LOST_AT_MOST {
            std::thread::sleep(std::time::Duration::from_millis(5));
            let expired = db.with(expire).unwrap();
            if round < LEASES_LOST_AT_MOST {
                assert_eq!(
                    expired,
                    Expired {
                        queued: 1,
                        failed: 0
                    }
                );
                // Fairness may pick the other upload first: claim until the poison is back.
                loop {
                    let job = db.with(|c| claim(c, &lapsed("a:1"))).unwrap().unwrap();
                    if job.id == poison.id {
                        break;
                    }
                    db.with(|c| finish(c, &job, &Outcome::Failed("x".into())))
                        .unwrap();
                }
            } else {
                assert_eq!(
                    expired,
                    Expired {
                        queued: 0,
                        failed: 1
                    }
                );
            }
        }
        let failed = db.with(|c| submission(c, poison.id)).unwrap().unwrap();
        assert_eq!(failed.summary.status, Status::Failed);
        assert!(failed.summary.error.unwrap_or_default().contains("3 times"));
        // A rejudge starts the count again; a clean stop gives its job back at once.
        db.with(|c| rejudge(c, &Rejudge::One(poison.id))).unwrap();
        let job = db.with(|c| claim(c, &tester())).unwrap().unwrap();
        assert_eq!(db.with(|c| release(c, "someone-else:9")).unwrap(), 0);
        assert_eq!(db.with(|c| release(c, "tester:1")).unwrap(), 1);
        let back = db.with(|c| claim(c, &tester())).unwrap().unwrap();
        assert_eq!(back.id, job.id);
        assert!(
            !db.with(|c| finish(c, &job, &Outcome::Failed("old".into())))
                .unwrap()
        );
    }

    #[test]
    fn a_result_of_a_rejudged_attempt_is_not_kept() {
        let (_dir, db) = open();
        let ada = student(&db, "ada");
        db.with(|c| insert_submission(c, ada, "ui", "ui.py", b"", 10).map(|r| r.unwrap()))
            .unwrap();
        let job = db.with(|c| claim(c, &tester())).unwrap().unwrap();
        db.with(|c| rejudge(c, &Rejudge::One(job.id))).unwrap();
        let kept = db
            .with(|c| finish(c, &job, &Outcome::Failed("x".into())))
            .unwrap();
        assert!(!kept);
        let again = db.with(|c| claim(c, &tester())).unwrap().unwrap();
        assert_eq!(again.id, job.id);
        assert!(
            db.with(|c| finish(c, &again, &Outcome::Failed("y".into())))
                .unwrap()
        );
    }

    #[test]
    fn the_queued_limit_counts_waiting_uploads_only() {
        let (_dir, db) = open();
        let ada = student(&db, "ada");
        let insert = |db: &Db| {
            db.with(|c| insert_submission(c, ada, "ui", "ui.py", b"", 2))
                .unwrap()
        };
        assert!(insert(&db).is_ok());
        assert!(insert(&db).is_ok());
        assert_eq!(insert(&db), Err(Refused::TooManyQueued(2)));
        let job = db.with(|c| claim(c, &tester())).unwrap().unwrap();
        db.with(|c| finish(c, &job, &Outcome::Failed("x".into())))
            .unwrap();
        assert!(insert(&db).is_ok());
    }
}
