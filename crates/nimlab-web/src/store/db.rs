//! Opening the store: an SQLite file or a PostgreSQL database, migrated on opening, with a
//! few open connections to lend ([`Db::with`]), its backup, and the stop when a file can no
//! longer be written. The questions asked of it are in the rooms beside this one, by area:
//! accounts, submissions, judging, processes, site, calendar (and LTI's in `crate::lti::store`).
//!
//! The file is opened in WAL mode with `synchronous = FULL`, so a submission acknowledged to
//! a student has reached the disk: a crash or `kill -9` after the reply loses nothing.

use crate::store::migrate::{FileLock, Migration, latest, migrate};
use crate::store::sql::{Conn, Dialect, SqlError, SqlResult, Value};
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
        let _opening = match &db.location {
            Location::File(path) => Some(FileLock::exclusive(path).map_err(|e| {
                Error::internal(format!("{}: cannot lock it to open it", path.display()), e)
            })?),
            Location::Postgres(_) => None,
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
            crate::store::pg_connect::ConnectError::Postgres(e) => match what_to_check(&e) {
                // Not nimlab's failure: the server, the address or the account, told with
                // where to look.
                Some(advice) => Error::input(
                    self.shown(),
                    format!(
                        "cannot connect to PostgreSQL: {}; {advice}",
                        SqlError::Postgres(e)
                    ),
                ),
                None => self.error(SqlError::Postgres(e)),
            },
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
                insert_rows(&mut tx, table, &columns, rows)?;
            }
            tx.commit()
        })
    }
}

impl Db {
    /// Fills this PostgreSQL database, which must hold no course yet, with the course in
    /// `backup` (an SQLite file `nimlab backup` wrote, or a server's own file): every table's
    /// rows as they are, in one transaction, ids kept and the next ids set after them. The
    /// backup is read from a copy (brought to this build's schema first) and never changed.
    /// Returns how many rows were written.
    pub fn restore(&self, backup: &Path) -> Result<usize> {
        if let Location::File(_) = &self.location {
            return Err(Error::usage("restore fills a PostgreSQL database"));
        }
        let rows = read_backup(backup)?;
        let held = self.with(|c| {
            for table in COURSE_TABLES {
                let count: i64 =
                    c.query_row(&format!("SELECT COUNT(*) AS n FROM {table}"), [], |r| {
                        r.get("n")
                    })?;
                if count > 0 {
                    return Ok(Some((table, count)));
                }
            }
            Ok(None)
        })?;
        if let Some((table, count)) = held {
            return Err(Error::input(
                self.shown(),
                format!(
                    "holds a course already ({count} row(s) in {table}): restore writes only \
                     into a new database; nothing was written"
                ),
            ));
        }
        self.with(|c| {
            let mut tx = c.transaction()?;
            // What a new database makes for itself (its keys, its site's settings) gives way
            // to the backup's, so that sessions and LMS keys go on as before.
            for table in TABLES.iter().rev() {
                tx.execute(&format!("DELETE FROM {table}"), [])?;
            }
            let mut written = 0;
            for (table, columns, rows) in rows {
                written += insert_rows(&mut tx, table, &columns, rows)?;
            }
            let identities = tx.query(
                "SELECT table_name::text AS table_name FROM information_schema.columns
                 WHERE table_schema = current_schema() AND column_name = 'id'
                   AND is_identity = 'YES'",
                [],
                |r| r.get::<_, String>("table_name"),
            )?;
            for table in identities {
                tx.query(
                    &format!(
                        "SELECT setval(pg_get_serial_sequence('{table}', 'id'),
                                       (SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)
                                AS next"
                    ),
                    [],
                    |_| Ok(()),
                )?;
            }
            tx.commit()?;
            Ok(written)
        })
    }
}

/// Writes `rows` (values in the order of `columns`) into `table`; how many.
fn insert_rows(
    c: &mut Conn,
    table: &str,
    columns: &[String],
    rows: Vec<Vec<Value>>,
) -> SqlResult<usize> {
    let marks: Vec<String> = (1..=columns.len()).map(|i| format!("?{i}")).collect();
    let insert = format!(
        "INSERT INTO {table} ({}) VALUES ({})",
        columns.join(", "),
        marks.join(", ")
    );
    let count = rows.len();
    for row in rows {
        c.execute(&insert, row)?;
    }
    Ok(count)
}

/// A table's name, its columns, and its rows.
type TableRows = (&'static str, Vec<String>, Vec<Vec<Value>>);

/// Every table of an SQLite backup, read from a copy brought to this build's schema.
fn read_backup(backup: &Path) -> Result<Vec<TableRows>> {
    let mut head = [0u8; 16];
    let read =
        std::fs::File::open(backup).and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head));
    match read {
        Err(e) if e.kind() != std::io::ErrorKind::UnexpectedEof => {
            return Err(Error::unreadable(backup, &e));
        }
        _ => {}
    }
    if &head != b"SQLite format 3\0" {
        return Err(Error::input(
            backup,
            "not an SQLite database (nimlab backup writes one)",
        ));
    }
    let scratch = tempfile::tempdir()
        .map_err(|e| Error::internal("cannot make a scratch folder for the backup", e))?;
    let copy = scratch.path().join("backup.db");
    std::fs::copy(backup, &copy).map_err(|e| Error::unreadable(backup, &e))?;
    let source = Db::open(&copy).map_err(|e| Error::input(backup, e.to_string()))?;
    source.with(|c| {
        let mut tables = Vec::new();
        for table in TABLES {
            let columns = c.query(
                "SELECT name FROM pragma_table_info(?1) ORDER BY cid",
                [*table],
                |r| r.get::<_, String>("name"),
            )?;
            let rows = c.query(&format!("SELECT * FROM {table}"), [], |r| {
                Ok(r.values().to_vec())
            })?;
            tables.push((*table, columns, rows));
        }
        Ok(tables)
    })
}

/// The tables that hold a course: a database with a row in any is not new.
const COURSE_TABLES: &[&str] = &["users", "submissions", "lti_platforms", "deadlines"];

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

/// What to check when PostgreSQL could not be reached or refused the connection, by its cause;
/// None when the cause says nothing the user can act on.
fn what_to_check(e: &postgres::Error) -> Option<&'static str> {
    use postgres::error::SqlState;
    if let Some(db) = e.as_db_error() {
        let code = db.code();
        return if *code == SqlState::INVALID_PASSWORD {
            Some(
                "check the user's password (give the connection string in NIMLAB_DB to keep it \
                 out of the process list) and the method pg_hba.conf sets for this user",
            )
        } else if *code == SqlState::INVALID_AUTHORIZATION_SPECIFICATION {
            Some(
                "pg_hba.conf has no line that lets this user reach this database from this \
                 machine (or the user does not exist): add one and reload PostgreSQL",
            )
        } else if *code == SqlState::INVALID_CATALOG_NAME {
            Some("the database does not exist: create it first (createdb -O USER NAME)")
        } else if *code == SqlState::TOO_MANY_CONNECTIONS {
            Some("the server has no connection left: raise max_connections, or run fewer judges")
        } else {
            None
        };
    }
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            let text = io.to_string();
            return match io.kind() {
                std::io::ErrorKind::ConnectionRefused => Some(
                    "is PostgreSQL running there, and listening on that address and port \
                     (listen_addresses and port in postgresql.conf)?",
                ),
                std::io::ErrorKind::NotFound => Some(
                    "no server socket in that folder: is PostgreSQL running, and is host= the \
                     folder of its socket (often /run/postgresql)?",
                ),
                std::io::ErrorKind::TimedOut => Some(
                    "no answer: is the host up, and does a firewall let port 5432 (or the one \
                     given) through?",
                ),
                std::io::ErrorKind::PermissionDenied => Some(
                    "this user may not open the server's socket: check the socket folder's \
                     permissions",
                ),
                _ if text.contains("lookup address") => {
                    Some("the host name is unknown: check the host in the connection string")
                }
                _ => None,
            };
        }
        let text = cause.to_string();
        if text.contains("certificate") || text.contains("Certificate") {
            return Some(
                "the server's certificate is not trusted: name its authority with sslrootcert=, \
                 or check the host name the certificate was made for",
            );
        }
        source = cause.source();
    }
    let text = e.to_string();
    if text.contains("lookup address") {
        return Some("the host name is unknown: check the host in the connection string");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::accounts::*;
    use crate::store::judging::*;
    use crate::store::submissions::*;

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
