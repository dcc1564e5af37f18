//! The website's one database file (SQLite): accounts, sessions, login throttles and
//! submissions, which are also the judging queue. This module owns the schema, its
//! migrations and every query.
//!
//! The file is opened in WAL mode with `synchronous = FULL`, so a submission acknowledged to
//! a student has reached the disk: a crash or `kill -9` after the reply loses nothing.

use crate::deadline::{Judgement, Policy};
use crate::error::{Error, Result};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Each step takes the schema from version `index` to `index + 1`; applied in order, once.
const MIGRATIONS: &[&str] = &[
    // 1: accounts, sessions, submissions (the queue).
    "CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        username TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL DEFAULT '',
        student_id TEXT NOT NULL DEFAULT '',
        section TEXT NOT NULL DEFAULT '',
        role TEXT NOT NULL CHECK (role IN ('student', 'instructor')),
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        csrf TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
    );
    CREATE INDEX sessions_user ON sessions(user_id);
    CREATE TABLE submissions (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id),
        exercise TEXT NOT NULL,
        filename TEXT NOT NULL,
        source BLOB NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
        -- 0: a student's upload; 1: a rejudge, which waits behind uploads.
        priority INTEGER NOT NULL DEFAULT 0,
        -- Bumped at every claim and rejudge: a result is kept only for the attempt it judged.
        attempt INTEGER NOT NULL DEFAULT 0,
        submitted_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER,
        verdict TEXT,
        score INTEGER,
        max_score INTEGER,
        report TEXT,
        error TEXT
    );
    CREATE INDEX submissions_queue ON submissions(status, priority, id);
    CREATE INDEX submissions_user ON submissions(user_id, exercise, id);
    CREATE INDEX submissions_started ON submissions(user_id, started_at);",
    // 2: login throttles (per account for new clients, per device cookie) and the server's
    // own secrets (the key that signs device cookies).
    "CREATE TABLE login_throttles (
        -- `account:USERNAME` or `device:NONCE`.
        key TEXT PRIMARY KEY,
        -- Whose: a password reset lifts every throttle of the account.
        username TEXT NOT NULL,
        failures INTEGER NOT NULL,
        last_failure_at INTEGER NOT NULL,
        blocked_until INTEGER NOT NULL
    );
    CREATE INDEX login_throttles_user ON login_throttles(username);
    CREATE INDEX login_throttles_last ON login_throttles(last_failure_at);
    CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        value BLOB NOT NULL
    );",
    // 3: accounts disabled (cannot log in, kept in the class) and removed (gone, but the row
    // stays as a tombstone so their submissions keep their username for the record).
    "ALTER TABLE users ADD COLUMN disabled_at INTEGER;
    ALTER TABLE users ADD COLUMN removed_at INTEGER;",
    // 4: teaching assistants: the role's CHECK admits `ta`. SQLite cannot change a CHECK in
    // place, so the table is rebuilt (new table, copy, drop, rename; see `migrate` for the
    // foreign keys of sessions and submissions, which keep pointing at `users`).
    "CREATE TABLE users_with_ta (
        id INTEGER PRIMARY KEY,
        username TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL DEFAULT '',
        student_id TEXT NOT NULL DEFAULT '',
        section TEXT NOT NULL DEFAULT '',
        role TEXT NOT NULL CHECK (role IN ('student', 'ta', 'instructor')),
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        disabled_at INTEGER,
        removed_at INTEGER
    );
    INSERT INTO users_with_ta (id, username, name, student_id, section, role, password_hash,
            created_at, disabled_at, removed_at)
        SELECT id, username, name, student_id, section, role, password_hash, created_at,
            disabled_at, removed_at FROM users;
    DROP TABLE users;
    ALTER TABLE users_with_ta RENAME TO users;",
    // 5: LTI 1.3: the platforms (LMSs) registered and their deployments, the accounts launches
    // made or linked (by the LMS's user id or email, which a roster may carry), launches under
    // way, nonces seen, the line items a student's exercise reports to, and the outbox of
    // scores sent to them.
    "ALTER TABLE users ADD COLUMN email TEXT NOT NULL DEFAULT '';
    ALTER TABLE users ADD COLUMN lms_id TEXT NOT NULL DEFAULT '';
    CREATE TABLE lti_platforms (
        id INTEGER PRIMARY KEY,
        issuer TEXT NOT NULL,
        client_id TEXT NOT NULL,
        auth_url TEXT NOT NULL,
        jwks_url TEXT NOT NULL,
        token_url TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        UNIQUE (issuer, client_id)
    );
    CREATE TABLE lti_deployments (
        platform_id INTEGER NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
        deployment_id TEXT NOT NULL,
        PRIMARY KEY (platform_id, deployment_id)
    );
    CREATE TABLE lti_accounts (
        issuer TEXT NOT NULL,
        subject TEXT NOT NULL,
        user_id INTEGER NOT NULL REFERENCES users(id),
        PRIMARY KEY (issuer, subject)
    );
    CREATE TABLE lti_launches (
        state TEXT PRIMARY KEY,
        nonce TEXT NOT NULL,
        platform_id INTEGER NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE lti_nonces (
        nonce TEXT PRIMARY KEY,
        seen_at INTEGER NOT NULL
    );
    CREATE TABLE lti_line_items (
        user_id INTEGER NOT NULL REFERENCES users(id),
        exercise TEXT NOT NULL,
        platform_id INTEGER NOT NULL REFERENCES lti_platforms(id),
        line_item TEXT NOT NULL,
        subject TEXT NOT NULL,
        PRIMARY KEY (user_id, exercise, line_item)
    );
    CREATE TABLE lti_scores (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id),
        exercise TEXT NOT NULL,
        platform_id INTEGER NOT NULL,
        line_item TEXT NOT NULL,
        subject TEXT NOT NULL,
        score REAL NOT NULL,
        max_score REAL NOT NULL,
        -- When the score changed: the timestamp the platform orders scores by.
        created_at INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'superseded')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_try_at INTEGER NOT NULL,
        sent_at INTEGER,
        last_error TEXT
    );
    CREATE INDEX lti_scores_due ON lti_scores(status, next_try_at);
    CREATE INDEX lti_scores_link ON lti_scores(user_id, exercise, line_item, id);",
    // 6: deadlines per exercise (a due time, a late period with its penalty per started day)
    // and extensions per student and exercise (a new due time); see `crate::deadline`.
    "CREATE TABLE deadlines (
        exercise TEXT PRIMARY KEY,
        due_at INTEGER NOT NULL,
        late_until INTEGER,
        late_penalty REAL NOT NULL DEFAULT 0
    );
    CREATE TABLE extensions (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        exercise TEXT NOT NULL,
        until INTEGER NOT NULL,
        PRIMARY KEY (user_id, exercise)
    );",
    // 7: LTI: the origins a platform's pages frame the site from (besides its issuer's), and
    // Deep Linking requests waiting for an instructor's choice of exercises.
    "ALTER TABLE lti_platforms ADD COLUMN frame_origins TEXT NOT NULL DEFAULT '';
    CREATE TABLE lti_deep_links (
        id TEXT PRIMARY KEY,
        platform_id INTEGER NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        deployment_id TEXT NOT NULL,
        return_url TEXT NOT NULL,
        data TEXT,
        accept_multiple INTEGER NOT NULL,
        created_at INTEGER NOT NULL
    );",
];

/// Milliseconds since the Unix epoch (by the test clock where one is set: see
/// [`crate::deadline::now_ms`]).
pub fn now_ms() -> i64 {
    crate::deadline::now_ms()
}

fn db_error(path: &Path, error: rusqlite::Error) -> Error {
    Error::internal(
        format!("{}: database", path.display()),
        std::io::Error::other(error),
    )
}

/// The database file and a few open connections to it, shared by the web handlers and the
/// judging workers.
pub struct Db {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
}

impl Db {
    /// Opens (creating if needed) and migrates the database.
    pub fn open(path: &Path) -> Result<Db> {
        if path.is_dir() {
            return Err(Error::input(
                path,
                "is a folder; --db names a database file",
            ));
        }
        // Created private before SQLite opens it: it holds password hashes and every
        // student's work, and SQLite gives its -wal and -shm files the same mode.
        create_private(path).map_err(|e| Error::unwritable(path, e))?;
        let db = Db {
            path: path.to_path_buf(),
            idle: Mutex::new(Vec::new()),
        };
        let mut connection = db.connect()?;
        migrate(&mut connection).map_err(|e| match e {
            Migration::Newer(version) => Error::input(
                path,
                format!(
                    "the database's schema is version {version}, newer than this nimlab knows ({}); use a newer nimlab",
                    MIGRATIONS.len()
                ),
            ),
            Migration::Sql(e) => db.error(e),
        })?;
        db.idle
            .lock()
            .expect("no panics holding the pool")
            .push(connection);
        Ok(db)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn connect(&self) -> Result<Connection> {
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
        let connection = Connection::open(&self.path).map_err(|e| self.error(e))?;
        match setup(&connection) {
            Ok(()) => Ok(connection),
            Err(e) if not_a_database(&e) => Err(Error::input(
                &self.path,
                "is not a nimlab database (not an SQLite file)",
            )),
            Err(e) => Err(self.error(e)),
        }
    }

    fn error(&self, error: rusqlite::Error) -> Error {
        db_error(&self.path, error)
    }

    /// Runs `f` on a connection from the pool (blocking: call it off the async threads).
    pub fn with<T>(&self, f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>) -> Result<T> {
        let pooled = self.idle.lock().expect("no panics holding the pool").pop();
        let mut connection = match pooled {
            Some(c) => c,
            None => self.connect()?,
        };
        let result = f(&mut connection);
        if let Err(e) = &result
            && cannot_write(e)
        {
            UNWRITABLE.notify_one();
        }
        let result = result.map_err(|e| self.error(e));
        let mut idle = self.idle.lock().expect("no panics holding the pool");
        if idle.len() < 16 {
            idle.push(connection);
        }
        result
    }

    /// A consistent copy of the whole database, taken while it is in use, readable by its
    /// owner only.
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
        // Absolute, so that SQLite never reads the name as a URI (`file:copy.db?mode=rwc`
        // would write the database to `copy.db`, with the default mode).
        let target = std::path::absolute(to)
            .map_err(|e| Error::unwritable(to, e))?
            .to_string_lossy()
            .into_owned();
        let copied = self.with(|c| c.execute("VACUUM INTO ?1", [target]).map(|_| ()));
        if copied.is_err() {
            let _ = std::fs::remove_file(to);
        }
        copied
    }
}

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
pub fn cannot_write(error: &rusqlite::Error) -> bool {
    use rusqlite::ffi;
    let rusqlite::Error::SqliteFailure(e, _) = error else {
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

enum Migration {
    Newer(usize),
    Sql(rusqlite::Error),
}

impl From<rusqlite::Error> for Migration {
    fn from(e: rusqlite::Error) -> Self {
        Migration::Sql(e)
    }
}

/// Applies the migrations the database has not had, each in a transaction of its own.
///
/// Foreign keys are off while a step runs (SQLite ignores the pragma inside a transaction, so
/// it is set around it), as SQLite's "making other kinds of table schema changes" asks: a step
/// that rebuilds a table drops the old one, which with foreign keys on would delete the
/// sessions that reference it (`ON DELETE CASCADE`) or fail for its submissions. Before each
/// step commits, `foreign_key_check` must find nothing broken, or the step is rolled back.
fn migrate(connection: &mut Connection) -> std::result::Result<(), Migration> {
    let version: usize =
        connection.pragma_query_value(None, "user_version", |row| row.get::<_, i64>(0))? as usize;
    if version > MIGRATIONS.len() {
        return Err(Migration::Newer(version));
    }
    if version == MIGRATIONS.len() {
        return Ok(());
    }
    connection.pragma_update(None, "foreign_keys", "OFF")?;
    let migrated = apply(connection, version);
    connection.pragma_update(None, "foreign_keys", "ON")?;
    migrated
}

fn apply(connection: &mut Connection, from: usize) -> std::result::Result<(), Migration> {
    for (index, step) in MIGRATIONS.iter().enumerate().skip(from) {
        let tx = connection.transaction_with_behavior(TransactionBehavior::Exclusive)?;
        tx.execute_batch(step)?;
        let broken: Option<String> = tx
            .query_row("PRAGMA foreign_key_check", [], |row| row.get(0))
            .optional()?;
        if let Some(table) = broken {
            return Err(Migration::Sql(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY),
                Some(format!(
                    "migration {} would break a foreign key of table {table}",
                    index + 1
                )),
            )));
        }
        tx.pragma_update(None, "user_version", (index + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
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

const USER_COLUMNS: &str = "id, username, name, student_id, section, role, disabled_at IS NOT NULL";

fn user_row(row: &rusqlite::Row) -> rusqlite::Result<User> {
    Ok(User {
        id: row.get(0)?,
        username: row.get(1)?,
        name: row.get(2)?,
        student_id: row.get(3)?,
        section: row.get(4)?,
        role: Role::parse(&row.get::<_, String>(5)?),
        disabled: row.get(6)?,
    })
}

/// An account by id, removed or not.
pub fn user_by_id(c: &Connection, id: i64) -> rusqlite::Result<Option<User>> {
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
    /// The LMS's user id and the email that link LTI launches to this account.
    pub lms_id: String,
    pub email: String,
}

pub fn find_user(c: &Connection, username: &str) -> rusqlite::Result<Option<(User, String)>> {
    c.query_row(
        &format!(
            "SELECT {USER_COLUMNS}, password_hash FROM users WHERE username = ?1 AND removed_at IS NULL"
        ),
        [username],
        |row| Ok((user_row(row)?, row.get(7)?)),
    )
    .optional()
}

pub fn users(c: &Connection) -> rusqlite::Result<Vec<User>> {
    let mut statement = c.prepare(&format!(
        "SELECT {USER_COLUMNS} FROM users WHERE removed_at IS NULL
         ORDER BY CASE role WHEN 'student' THEN 0 WHEN 'ta' THEN 1 ELSE 2 END, username"
    ))?;
    statement.query_map([], user_row)?.collect()
}

/// Creates an account, or updates its name, id, section and role; sets the password when one
/// is given (a new account needs one). Returns whether the account is new.
pub fn upsert_user(
    c: &Connection,
    user: &NewUser,
    role: Role,
    password_hash: Option<&str>,
) -> rusqlite::Result<bool> {
    let existing: Option<i64> = c
        .query_row(
            "SELECT id FROM users WHERE username = ?1",
            [&user.username],
            |r| r.get(0),
        )
        .optional()?;
    match existing {
        Some(id) => {
            c.execute(
                // An empty cell (or a column the roster lacks) keeps what the account has.
                "UPDATE users SET name = COALESCE(NULLIF(?2, ''), name),
                    student_id = COALESCE(NULLIF(?3, ''), student_id),
                    section = COALESCE(NULLIF(?4, ''), section), role = ?5,
                    lms_id = COALESCE(NULLIF(?6, ''), lms_id), email = COALESCE(NULLIF(?7, ''), email),
                    removed_at = NULL WHERE id = ?1",
                params![
                    id,
                    user.name,
                    user.student_id,
                    user.section,
                    role.as_str(),
                    user.lms_id,
                    user.email
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
                     lms_id, email)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    user.username,
                    user.name,
                    user.student_id,
                    user.section,
                    role.as_str(),
                    password_hash.unwrap_or(""),
                    now_ms(),
                    user.lms_id,
                    user.email
                ],
            )?;
            Ok(true)
        }
    }
}

/// Sets a password and ends the account's sessions (a changed password logs everyone out).
pub fn set_password(c: &Connection, user_id: i64, password_hash: &str) -> rusqlite::Result<()> {
    set_password_keeping(c, user_id, password_hash, None)
}

/// Sets a password and ends the account's sessions but `keep` (the session, by its token's
/// hash, of an owner who changed their own password), and lifts its login throttles.
pub fn set_password_keeping(
    c: &Connection,
    user_id: i64,
    password_hash: &str,
    keep: Option<&str>,
) -> rusqlite::Result<()> {
    c.execute(
        "UPDATE users SET password_hash = ?2 WHERE id = ?1",
        params![user_id, password_hash],
    )?;
    c.execute(
        "DELETE FROM sessions WHERE user_id = ?1 AND (?2 IS NULL OR token_hash <> ?2)",
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
pub fn set_disabled(c: &Connection, username: &str, disabled: bool) -> rusqlite::Result<bool> {
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

/// Removes an account: its sessions and throttles go, and it can no longer log in. Its row
/// stays as a tombstone (no password) so that its submissions keep their username, unless
/// `with_submissions`, which deletes them and the row. Returns how many submissions were
/// deleted, or None when there is no such account.
pub fn remove_user(
    c: &mut Connection,
    username: &str,
    with_submissions: bool,
) -> rusqlite::Result<Option<usize>> {
    let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let id: Option<i64> = tx
        .query_row(
            "SELECT id FROM users WHERE username = ?1 AND removed_at IS NULL",
            [username],
            |r| r.get(0),
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

pub fn throttle(c: &Connection, key: &str) -> rusqlite::Result<Option<Throttle>> {
    c.query_row(
        "SELECT failures, last_failure_at, blocked_until FROM login_throttles WHERE key = ?1",
        [key],
        |row| {
            Ok(Throttle {
                failures: row.get(0)?,
                last_failure_at: row.get(1)?,
                blocked_until: row.get(2)?,
            })
        },
    )
    .optional()
}

/// Counts one more failure against `key`, as `next` says from what was counted before (read
/// and written in one transaction, so failures settled at once all count).
pub fn record_failure(
    c: &mut Connection,
    key: &str,
    username: &str,
    forget_after_ms: i64,
    next: impl FnOnce(Option<Throttle>) -> Throttle,
) -> rusqlite::Result<Throttle> {
    let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let updated = next(throttle(&tx, key)?);
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
pub fn clear_throttle(c: &Connection, key: &str) -> rusqlite::Result<()> {
    c.execute("DELETE FROM login_throttles WHERE key = ?1", [key])?;
    Ok(())
}

/// A secret of this server by name, made by `fresh` the first time it is asked for.
pub fn secret(
    c: &Connection,
    name: &str,
    fresh: impl FnOnce() -> Vec<u8>,
) -> rusqlite::Result<Vec<u8>> {
    c.execute(
        "INSERT INTO secrets (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING",
        params![name, fresh()],
    )?;
    c.query_row("SELECT value FROM secrets WHERE name = ?1", [name], |row| {
        row.get(0)
    })
}

pub fn create_session(
    c: &Connection,
    token_hash: &str,
    user_id: i64,
    csrf: &str,
    lifetime_ms: i64,
) -> rusqlite::Result<()> {
    let now = now_ms();
    c.execute("DELETE FROM sessions WHERE expires_at < ?1", [now])?;
    c.execute(
        "INSERT INTO sessions (token_hash, user_id, csrf, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![token_hash, user_id, csrf, now, now + lifetime_ms],
    )?;
    Ok(())
}

/// The user of a live session, and its CSRF token.
pub fn session_user(c: &Connection, token_hash: &str) -> rusqlite::Result<Option<(User, String)>> {
    c.query_row(
        "SELECT u.id, u.username, u.name, u.student_id, u.section, u.role,
             u.disabled_at IS NOT NULL, s.csrf
         FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.token_hash = ?1 AND s.expires_at > ?2
           AND u.disabled_at IS NULL AND u.removed_at IS NULL",
        params![token_hash, now_ms()],
        |row| Ok((user_row(row)?, row.get(7)?)),
    )
    .optional()
}

pub fn delete_session(c: &Connection, token_hash: &str) -> rusqlite::Result<()> {
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

fn summary_row(row: &rusqlite::Row) -> rusqlite::Result<Summary> {
    Ok(Summary {
        id: row.get(0)?,
        user_id: row.get(1)?,
        username: row.get(2)?,
        exercise: row.get(3)?,
        filename: row.get(4)?,
        status: Status::parse(&row.get::<_, String>(5)?),
        submitted_at: row.get(6)?,
        started_at: row.get(7)?,
        finished_at: row.get(8)?,
        verdict: row.get(9)?,
        score: row.get(10)?,
        max_score: row.get(11)?,
        error: row.get(12)?,
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
    c: &mut Connection,
    user_id: i64,
    exercise: &str,
    filename: &str,
    source: &[u8],
    max_queued: usize,
) -> rusqlite::Result<std::result::Result<i64, Refused>> {
    insert_submission_at(c, user_id, exercise, filename, source, max_queued, now_ms())
}

/// [`insert_submission`], submitted at `submitted_at` (the moment the deadline was checked
/// against).
pub fn insert_submission_at(
    c: &mut Connection,
    user_id: i64,
    exercise: &str,
    filename: &str,
    source: &[u8],
    max_queued: usize,
    submitted_at: i64,
) -> rusqlite::Result<std::result::Result<i64, Refused>> {
    let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let waiting: i64 = tx.query_row(
        "SELECT COUNT(*) FROM submissions WHERE user_id = ?1 AND priority = 0 AND status IN ('queued', 'running')",
        [user_id],
        |r| r.get(0),
    )?;
    if waiting as usize >= max_queued {
        return Ok(Err(Refused::TooManyQueued(waiting as usize)));
    }
    tx.execute(
        "INSERT INTO submissions (user_id, exercise, filename, source, status, submitted_at)
         VALUES (?1, ?2, ?3, ?4, 'queued', ?5)",
        params![user_id, exercise, filename, source, submitted_at],
    )?;
    let id = tx.last_insert_rowid();
    tx.commit()?;
    Ok(Ok(id))
}

pub fn submission(c: &Connection, id: i64) -> rusqlite::Result<Option<Submission>> {
    c.query_row(
        &format!(
            "SELECT {SUMMARY_COLUMNS}, s.source, s.report FROM submissions s JOIN users u ON u.id = s.user_id WHERE s.id = ?1"
        ),
        [id],
        |row| {
            Ok(Submission {
                summary: summary_row(row)?,
                source: row.get(13)?,
                report: row.get(14)?,
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
         WHERE (?1 IS NULL OR s.user_id = ?1) AND (?2 IS NULL OR u.username = ?2)
           AND (?3 IS NULL OR s.exercise = ?3)
           AND (?4 IS NULL OR s.verdict = ?4 OR s.status = ?4)
           AND (?5 IS NULL OR s.submitted_at >= ?5) AND (?6 IS NULL OR s.submitted_at < ?6)";

impl Filter {
    fn params(&self) -> [&dyn rusqlite::ToSql; 6] {
        [
            &self.user_id,
            &self.username,
            &self.exercise,
            &self.verdict,
            &self.from_ms,
            &self.until_ms,
        ]
    }
}

/// Submissions, newest first: the page the filter asks for.
pub fn submissions(c: &Connection, filter: &Filter) -> rusqlite::Result<Vec<Summary>> {
    let mut statement = c.prepare(&format!(
        "SELECT {SUMMARY_COLUMNS} {FILTERED} ORDER BY s.id DESC LIMIT ?7 OFFSET ?8"
    ))?;
    let limit = filter.limit.map_or(-1, |l| l as i64);
    let offset = filter.offset as i64;
    let mut values: Vec<&dyn rusqlite::ToSql> = filter.params().to_vec();
    values.push(&limit);
    values.push(&offset);
    statement
        .query_map(values.as_slice(), summary_row)?
        .collect()
}

/// How many submissions the filter finds, on every page.
pub fn count_submissions(c: &Connection, filter: &Filter) -> rusqlite::Result<usize> {
    c.query_row(
        &format!("SELECT COUNT(*) {FILTERED}"),
        filter.params().as_slice(),
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n as usize)
}

/// Every judged submission (for best scores and gradebooks), oldest first.
pub fn judged(c: &Connection, user_id: Option<i64>) -> rusqlite::Result<Vec<Summary>> {
    let mut statement = c.prepare(&format!(
        "SELECT {SUMMARY_COLUMNS} FROM submissions s JOIN users u ON u.id = s.user_id
         WHERE s.status = 'done' AND (?1 IS NULL OR s.user_id = ?1) ORDER BY s.id"
    ))?;
    statement.query_map([user_id], summary_row)?.collect()
}

pub fn report(c: &Connection, id: i64) -> rusqlite::Result<Option<String>> {
    c.query_row("SELECT report FROM submissions WHERE id = ?1", [id], |r| {
        r.get(0)
    })
    .optional()
    .map(Option::flatten)
}

/// The queue: running first, then queued in the order they were uploaded.
pub fn queue(c: &Connection) -> rusqlite::Result<Vec<Summary>> {
    let mut statement = c.prepare(&format!(
        "SELECT {SUMMARY_COLUMNS} FROM submissions s JOIN users u ON u.id = s.user_id
         WHERE s.status IN ('queued', 'running')
         ORDER BY s.status = 'queued', s.priority, s.id"
    ))?;
    statement.query_map([], summary_row)?.collect()
}

/// How many queued submissions were uploaded before this one.
pub fn waiting_before(c: &Connection, id: i64) -> rusqlite::Result<i64> {
    c.query_row(
        "SELECT COUNT(*) FROM submissions WHERE status = 'queued' AND priority = 0 AND id < ?1",
        [id],
        |r| r.get(0),
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

/// Claims the next job, fairly: uploads before rejudges; among them, the student whose
/// submissions were started least in the last ten minutes (running ones included) goes
/// first, then the oldest upload. So one student's twenty uploads are taken in turn with
/// everyone else's, never all before them.
pub fn claim(c: &mut Connection) -> rusqlite::Result<Option<Job>> {
    let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let now = now_ms();
    let next: Option<i64> = tx
        .query_row(
            "SELECT q.id FROM submissions q WHERE q.status = 'queued'
             ORDER BY q.priority,
                 (SELECT COUNT(*) FROM submissions r
                  WHERE r.user_id = q.user_id AND r.started_at >= ?1),
                 q.id
             LIMIT 1",
            [now - FAIRNESS_WINDOW_MS],
            |r| r.get(0),
        )
        .optional()?;
    let Some(id) = next else {
        return Ok(None);
    };
    tx.execute(
        "UPDATE submissions SET status = 'running', started_at = ?2, attempt = attempt + 1 WHERE id = ?1",
        params![id, now],
    )?;
    let job = tx.query_row(
        "SELECT id, attempt, exercise, filename, source FROM submissions WHERE id = ?1",
        [id],
        |r| {
            Ok(Job {
                id: r.get(0)?,
                attempt: r.get(1)?,
                exercise: r.get(2)?,
                filename: r.get(3)?,
                source: r.get(4)?,
            })
        },
    )?;
    tx.commit()?;
    Ok(Some(job))
}

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
pub fn finish(c: &Connection, job: &Job, outcome: &Outcome) -> rusqlite::Result<bool> {
    let now = now_ms();
    let changed = match outcome {
        Outcome::Judged {
            verdict,
            score,
            max_score,
            report,
        } => c.execute(
            "UPDATE submissions SET status = 'done', finished_at = ?3, verdict = ?4, score = ?5,
                 max_score = ?6, report = ?7, error = NULL
             WHERE id = ?1 AND attempt = ?2 AND status = 'running'",
            params![job.id, job.attempt, now, verdict, score, max_score, report],
        )?,
        Outcome::Failed(error) => c.execute(
            "UPDATE submissions SET status = 'failed', finished_at = ?3, verdict = NULL, score = NULL,
                 max_score = NULL, report = NULL, error = ?4
             WHERE id = ?1 AND attempt = ?2 AND status = 'running'",
            params![job.id, job.attempt, now, error],
        )?,
    };
    Ok(changed == 1)
}

/// Puts the jobs a crash or kill left running back in the queue; returns how many.
pub fn requeue_running(c: &Connection) -> rusqlite::Result<usize> {
    c.execute(
        "UPDATE submissions SET status = 'queued', attempt = attempt + 1 WHERE status = 'running'",
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
pub fn rejudge(c: &mut Connection, what: &Rejudge) -> rusqlite::Result<usize> {
    let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
    // An upload still waiting keeps its place ahead of the rejudges.
    let set = "UPDATE submissions SET status = 'queued', attempt = attempt + 1,
                   priority = CASE WHEN status = 'queued' THEN priority ELSE 1 END";
    let count = match what {
        Rejudge::One(id) => tx.execute(&format!("{set} WHERE id = ?1"), [id])?,
        Rejudge::Exercise(name) => tx.execute(&format!("{set} WHERE exercise = ?1"), [name])?,
        Rejudge::All => tx.execute(set, [])?,
    };
    tx.commit()?;
    Ok(count)
}

/// Counts by status, for the queue page.
pub fn counts(c: &Connection) -> rusqlite::Result<Vec<(Status, i64)>> {
    let mut statement =
        c.prepare("SELECT status, COUNT(*) FROM submissions GROUP BY status ORDER BY status")?;
    statement
        .query_map([], |r| {
            Ok((Status::parse(&r.get::<_, String>(0)?), r.get(1)?))
        })?
        .collect()
}

/// Every deadline and extension, as the rule ([`crate::deadline::judge`]) takes them.
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
        crate::deadline::personal(self.policy(exercise), self.extension(user_id, exercise))
    }

    /// The rule for a submission of `exercise` by `user_id` at `submitted_ms`.
    pub fn judge(&self, user_id: i64, exercise: &str, submitted_ms: i64) -> Judgement {
        crate::deadline::judge(
            self.policy(exercise),
            self.extension(user_id, exercise),
            submitted_ms,
        )
    }
}

pub fn deadlines(c: &Connection) -> rusqlite::Result<Deadlines> {
    let mut deadlines = Deadlines::default();
    let mut statement =
        c.prepare("SELECT exercise, due_at, late_until, late_penalty FROM deadlines")?;
    for row in statement.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            Policy {
                due_ms: r.get(1)?,
                late_until_ms: r.get(2)?,
                penalty_percent_per_day: r.get(3)?,
            },
        ))
    })? {
        let (exercise, policy) = row?;
        deadlines.policies.insert(exercise, policy);
    }
    let mut statement = c.prepare("SELECT user_id, exercise, until FROM extensions")?;
    for row in statement.query_map([], |r| {
        Ok(((r.get::<_, i64>(0)?, r.get::<_, String>(1)?), r.get(2)?))
    })? {
        let (key, until) = row?;
        deadlines.extensions.insert(key, until);
    }
    Ok(deadlines)
}

/// Sets the deadline of each of `exercises`, in one transaction.
pub fn set_deadline(
    c: &mut Connection,
    exercises: &[String],
    policy: &Policy,
) -> rusqlite::Result<()> {
    let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
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
pub fn clear_deadline(c: &mut Connection, exercises: &[String]) -> rusqlite::Result<usize> {
    let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let mut count = 0;
    for exercise in exercises {
        count += tx.execute("DELETE FROM deadlines WHERE exercise = ?1", [exercise])?;
    }
    tx.commit()?;
    Ok(count)
}

/// Gives a student a new due time (`until`) for each of `exercises`, in one transaction.
pub fn set_extension(
    c: &mut Connection,
    user_id: i64,
    exercises: &[String],
    until: i64,
) -> rusqlite::Result<()> {
    let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
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
pub fn clear_extension(
    c: &mut Connection,
    user_id: i64,
    exercises: &[String],
) -> rusqlite::Result<usize> {
    let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
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
pub fn extension_list(c: &Connection) -> rusqlite::Result<Vec<(String, String, i64)>> {
    let mut statement = c.prepare(
        "SELECT u.username, e.exercise, e.until FROM extensions e JOIN users u ON u.id = e.user_id
         WHERE u.removed_at IS NULL ORDER BY u.username, e.exercise",
    )?;
    statement
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
            .with(|c| c.pragma_query_value(None, "user_version", |r| r.get(0)))
            .unwrap();
        assert_eq!(version, MIGRATIONS.len() as i64);
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
            .map(|_| db.with(claim).unwrap().unwrap().id)
            .collect();
        // eager's first, then calm's (uploaded last), then eager's second.
        assert_eq!(order, vec![1, 6, 2]);
    }

    #[test]
    fn a_result_of_a_rejudged_attempt_is_not_kept() {
        let (_dir, db) = open();
        let ada = student(&db, "ada");
        db.with(|c| insert_submission(c, ada, "ui", "ui.py", b"", 10).map(|r| r.unwrap()))
            .unwrap();
        let job = db.with(claim).unwrap().unwrap();
        db.with(|c| rejudge(c, &Rejudge::One(job.id))).unwrap();
        let kept = db
            .with(|c| finish(c, &job, &Outcome::Failed("x".into())))
            .unwrap();
        assert!(!kept);
        let again = db.with(claim).unwrap().unwrap();
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
        let job = db.with(claim).unwrap().unwrap();
        db.with(|c| finish(c, &job, &Outcome::Failed("x".into())))
            .unwrap();
        assert!(insert(&db).is_ok());
    }
}
