//! The schema's steps and how they are applied, on both stores.
//!
//! Each step is one file per store, `migrations/{sqlite,postgres}/V{n}__{what}.sql`, carried
//! in the binary. refinery applies them: it keeps the history of applied steps, with each
//! step's checksum, in `refinery_schema_history`, refuses a database whose history holds a
//! step this build lacks or a step whose text changed, and applies every missing step in one
//! transaction. nimlab supplies the transaction for each store (below), so that:
//!
//! - on SQLite the transaction is exclusive and foreign keys are off while it runs (a step
//!   that rebuilds a table drops the old one, which with foreign keys on would delete the
//!   rows that point at it), and `foreign_key_check` must find nothing broken before it
//!   commits;
//! - one process migrates at a time (an advisory lock on PostgreSQL, a lock on the file on
//!   SQLite), so the others find nothing left to do;
//! - the schema's version is also written where builds before refinery kept it (SQLite's
//!   `user_version`, PostgreSQL's `nimlab_schema`), so one of them refuses a newer database
//!   rather than serve it; a database they made is taken over from there.

use crate::store::sql::{Conn, Optional, SqlError};
use refinery::{Migration as Step, Runner, Target};
use refinery_core::Migrate;
use refinery_core::error::Kind;
use refinery_core::traits::sync::{Query, Transaction};
use rusqlite::Connection;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

mod sqlite_steps {
    refinery::embed_migrations!("migrations/sqlite");
}

mod postgres_steps {
    refinery::embed_migrations!("migrations/postgres");
}

/// Where refinery keeps the history of applied steps (its own default name).
const HISTORY: &str = "refinery_schema_history";

/// Why a database could not be brought to this build's schema.
pub enum Migration {
    /// The database has had a step this build does not know: a newer nimlab made it.
    Newer(i64),
    /// The database's history disagrees with this build's steps (a step's text changed, or
    /// one is missing between applied ones).
    Diverged(String),
    Sql(SqlError),
}

impl From<SqlError> for Migration {
    fn from(e: SqlError) -> Self {
        Migration::Sql(e)
    }
}

impl From<rusqlite::Error> for Migration {
    fn from(e: rusqlite::Error) -> Self {
        Migration::Sql(e.into())
    }
}

impl From<refinery::Error> for Migration {
    fn from(e: refinery::Error) -> Self {
        match e.kind() {
            Kind::MissingVersion(step) if i64::from(step.version()) > latest() => {
                Migration::Newer(step.version().into())
            }
            Kind::MissingVersion(step) => Migration::Diverged(format!(
                "its history and this nimlab's steps disagree at step {} ({})",
                step.version(),
                step.name()
            )),
            Kind::DivergentVersion(applied, ours) => Migration::Diverged(format!(
                "step {} was applied as {} with a text other than this nimlab's {}",
                applied.version(),
                applied.name(),
                ours.name()
            )),
            Kind::Connection(_, source) => Migration::Sql(SqlError::Other(source.to_string())),
            _ => Migration::Sql(SqlError::Other(e.to_string())),
        }
    }
}

/// The schema's version this build brings a database to: its last step's number.
pub fn latest() -> i64 {
    sqlite_steps::migrations::runner()
        .get_migrations()
        .iter()
        .map(|step| i64::from(step.version()))
        .max()
        .unwrap_or(0)
}

/// The advisory lock PostgreSQL's migrations run under.
const MIGRATION_LOCK: i64 = 0x6e69_6d6c_6162_0002;

/// Applies the steps the database has not had.
pub fn migrate(connection: &mut Conn) -> Result<(), Migration> {
    match connection {
        // One process at a time: on a file, the caller holds its [`FileLock`] from before
        // its first connection (setting up WAL races too).
        Conn::Sqlite(c) => {
            c.pragma_update(None, "foreign_keys", "OFF")?;
            let migrated = migrate_sqlite(c);
            c.pragma_update(None, "foreign_keys", "ON")?;
            migrated
        }
        Conn::Postgres(_) => {
            connection.execute("SELECT pg_advisory_lock(?1)", [MIGRATION_LOCK])?;
            let migrated = migrate_postgres(connection);
            connection.execute("SELECT pg_advisory_unlock(?1)", [MIGRATION_LOCK])?;
            migrated
        }
    }
}

fn migrate_sqlite(connection: &mut Connection) -> Result<(), Migration> {
    let before: i64 = connection.pragma_query_value(None, "user_version", |row| row.get(0))?;
    let has_history = connection
        .query_row(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1",
            [HISTORY],
            |_| Ok(()),
        )
        .is_ok();
    let mut steps = SqliteSteps(connection);
    run(
        sqlite_steps::migrations::runner,
        &mut steps,
        before,
        has_history,
    )
}

fn migrate_postgres(connection: &mut Conn) -> Result<(), Migration> {
    connection.batch("CREATE TABLE IF NOT EXISTS nimlab_schema (version BIGINT NOT NULL)")?;
    let before: i64 = connection
        .query_row("SELECT version FROM nimlab_schema", [], |r| {
            r.get("version")
        })
        .optional()?
        .unwrap_or(0);
    let has_history: bool = connection.query_row(
        "SELECT to_regclass(?1) IS NOT NULL AS present",
        [HISTORY],
        |r| r.get("present"),
    )?;
    let mut steps = PostgresSteps(connection);
    run(
        postgres_steps::migrations::runner,
        &mut steps,
        before,
        has_history,
    )
}

/// `before` is the version builds before refinery recorded; their database has no history
/// yet, so its steps up to there are recorded as applied (refinery's "fake" target) before
/// the rest are applied.
fn run<S: Migrate>(
    runner: fn() -> Runner,
    steps: &mut S,
    before: i64,
    has_history: bool,
) -> Result<(), Migration> {
    if before > latest() {
        return Err(Migration::Newer(before));
    }
    if !has_history && before > 0 {
        let version = i32::try_from(before).expect("at most latest()");
        runner()
            .set_target(Target::FakeVersion(version))
            .set_grouped(true)
            .run(steps)?;
    }
    runner().set_grouped(true).run(steps)?;
    Ok(())
}

/// An SQLite connection as refinery sees it.
struct SqliteSteps<'a>(&'a mut Connection);

impl Transaction for SqliteSteps<'_> {
    type Error = SqlError;

    fn execute<'a, T: Iterator<Item = &'a str>>(&mut self, queries: T) -> Result<usize, SqlError> {
        let tx = self
            .0
            .transaction_with_behavior(rusqlite::TransactionBehavior::Exclusive)?;
        let mut count = 0;
        for query in queries {
            tx.execute_batch(query)?;
            count += 1;
        }
        let broken: Option<String> = rusqlite::OptionalExtension::optional(tx.query_row(
            "PRAGMA foreign_key_check",
            [],
            |row| row.get(0),
        ))?;
        if let Some(table) = broken {
            return Err(SqlError::Other(format!(
                "the schema's steps would break a foreign key of table {table}"
            )));
        }
        let top: Option<i64> =
            tx.query_row(&format!("SELECT MAX(version) FROM {HISTORY}"), [], |row| {
                row.get(0)
            })?;
        if let Some(top) = top {
            tx.pragma_update(None, "user_version", top)?;
        }
        tx.commit()?;
        Ok(count)
    }
}

impl Query<Vec<Step>> for SqliteSteps<'_> {
    fn query(&mut self, query: &str) -> Result<Vec<Step>, SqlError> {
        let mut statement = self.0.prepare(query)?;
        let rows = statement.query_map([], |row| {
            Ok((
                row.get::<_, i32>("version")?,
                row.get::<_, String>("name")?,
                row.get::<_, String>("applied_on")?,
                row.get::<_, String>("checksum")?,
            ))
        })?;
        rows.map(|row| applied(row?))
            .collect::<Result<Vec<_>, SqlError>>()
    }
}

impl Migrate for SqliteSteps<'_> {}

/// A PostgreSQL connection as refinery sees it.
struct PostgresSteps<'a>(&'a mut Conn);

impl Transaction for PostgresSteps<'_> {
    type Error = SqlError;

    fn execute<'a, T: Iterator<Item = &'a str>>(&mut self, queries: T) -> Result<usize, SqlError> {
        let mut tx = self.0.transaction()?;
        let mut count = 0;
        for query in queries {
            tx.batch(query)?;
            count += 1;
        }
        let top: Option<i64> = tx.query_row(
            &format!("SELECT MAX(version)::bigint AS top FROM {HISTORY}"),
            [],
            |row| row.get("top"),
        )?;
        if let Some(top) = top {
            tx.execute("UPDATE nimlab_schema SET version = ?1", [top])?;
            tx.execute(
                "INSERT INTO nimlab_schema (version) SELECT ?1 WHERE NOT EXISTS (SELECT 1 FROM nimlab_schema)",
                [top],
            )?;
        }
        tx.commit()?;
        Ok(count)
    }
}

impl Query<Vec<Step>> for PostgresSteps<'_> {
    fn query(&mut self, query: &str) -> Result<Vec<Step>, SqlError> {
        self.0.query(
            &query.replace(
                "SELECT version, name, applied_on, checksum",
                "SELECT version::bigint AS version, name::text AS name, applied_on::text AS applied_on, checksum::text AS checksum",
            ),
            [],
            |row| {
                applied((
                    row.get::<_, i64>("version")? as i32,
                    row.get("name")?,
                    row.get("applied_on")?,
                    row.get("checksum")?,
                ))
            },
        )
    }
}

impl Migrate for PostgresSteps<'_> {}

/// A history row as refinery's applied step.
fn applied(
    (version, name, applied_on, checksum): (i32, String, String, String),
) -> Result<Step, SqlError> {
    let applied_on = OffsetDateTime::parse(&applied_on, &Rfc3339).map_err(|e| {
        SqlError::Other(format!(
            "{HISTORY}: step {version} has applied_on {applied_on:?}, not a time ({e})"
        ))
    })?;
    let checksum = checksum.parse::<u64>().map_err(|_| {
        SqlError::Other(format!(
            "{HISTORY}: step {version} has checksum {checksum:?}, not a number"
        ))
    })?;
    Ok(Step::applied(version, name, applied_on, checksum))
}

/// An exclusive `flock` on a database file while it is opened and migrated, held until
/// dropped: processes opening one new file at once would otherwise race to make it a WAL
/// database (SQLite answers "database is locked" at once, past its busy timeout) and then to
/// apply the same steps. SQLite's own locks are fcntl's, which flock's leave alone.
pub(crate) struct FileLock(std::fs::File);

impl FileLock {
    pub(crate) fn exclusive(path: &std::path::Path) -> std::io::Result<FileLock> {
        let file = std::fs::File::open(path)?;
        file.lock()?;
        Ok(FileLock(file))
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// The SQLite steps' texts up to `version`, in order (for tests that make an old database).
#[cfg(test)]
pub(crate) fn sqlite_texts(version: i32) -> Vec<String> {
    let runner = sqlite_steps::migrations::runner();
    let mut steps: Vec<&Step> = runner.get_migrations().iter().collect();
    steps.sort_by_key(|step| step.version());
    steps
        .into_iter()
        .filter(|step| step.version() <= version)
        .map(|step| step.sql().unwrap_or_default().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    /// Both stores have the same steps, numbered 1, 2, 3… with the same names, and every
    /// file of the folders is one of them.
    #[test]
    fn both_stores_have_the_same_steps_numbered_from_one() {
        let listed = |runner: refinery::Runner| {
            let mut steps: Vec<(i32, String)> = runner
                .get_migrations()
                .iter()
                .map(|step| (step.version(), step.name().to_string()))
                .collect();
            steps.sort();
            steps
        };
        let sqlite = listed(super::sqlite_steps::migrations::runner());
        let postgres = listed(super::postgres_steps::migrations::runner());
        assert_eq!(sqlite, postgres);
        let numbers: Vec<i32> = sqlite.iter().map(|(version, _)| *version).collect();
        assert_eq!(numbers, (1..=super::latest() as i32).collect::<Vec<_>>());
        for store in ["sqlite", "postgres"] {
            let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("migrations")
                .join(store);
            let mut files: Vec<String> = std::fs::read_dir(&folder)
                .unwrap()
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            files.sort();
            let mut expected: Vec<String> = sqlite
                .iter()
                .map(|(version, name)| format!("V{version}__{name}.sql"))
                .collect();
            expected.sort();
            assert_eq!(files, expected, "{store}");
        }
    }

    fn refusal(path: &std::path::Path) -> String {
        match crate::store::db::Db::open(path) {
            Ok(_) => panic!("{} opened", path.display()),
            Err(e) => e.to_string(),
        }
    }

    /// A database whose history has a step this build lacks is a newer nimlab's; one whose
    /// step's text differs from this build's is not taken over. Neither is changed.
    #[test]
    fn a_newer_or_diverged_history_is_refused_with_its_reason() {
        let dir = tempfile::tempdir().unwrap();
        let newer = dir.path().join("newer.db");
        drop(crate::store::db::Db::open(&newer).unwrap());
        let next = super::latest() + 1;
        {
            let c = rusqlite::Connection::open(&newer).unwrap();
            c.execute(
                "INSERT INTO refinery_schema_history (version, name, applied_on, checksum)
                 VALUES (?1, 'from_the_future', '2027-01-01T00:00:00Z', '1')",
                [next],
            )
            .unwrap();
        }
        let message = refusal(&newer);
        assert!(
            message.contains(&format!("schema is version {next}, newer than this nimlab")),
            "{message}"
        );

        let diverged = dir.path().join("diverged.db");
        drop(crate::store::db::Db::open(&diverged).unwrap());
        {
            let c = rusqlite::Connection::open(&diverged).unwrap();
            c.execute(
                "UPDATE refinery_schema_history SET checksum = '12345' WHERE version = 3",
                [],
            )
            .unwrap();
        }
        let message = refusal(&diverged);
        assert!(
            message.contains("cannot take the database's schema over: step 3"),
            "{message}"
        );

        // A build before refinery recorded its version in user_version alone.
        let older_builds_newer = dir.path().join("user_version.db");
        {
            let c = rusqlite::Connection::open(&older_builds_newer).unwrap();
            c.pragma_update(None, "user_version", next).unwrap();
        }
        let message = refusal(&older_builds_newer);
        assert!(message.contains("newer than this nimlab"), "{message}");
    }

    /// Processes opening a new database file at once make its schema once (the others wait
    /// on the file's lock and find nothing left to do).
    #[test]
    fn many_opening_a_new_file_at_once_migrate_it_once() {
        let dir = tempfile::tempdir().unwrap();
        // Rounds: without the lock, about one in two failed on the steps ("table users already
        // exists"); with it held only around the steps, two runs of these 40 rounds in three
        // still failed on setting up WAL ("database is locked").
        for round in 0..40 {
            let path = dir.path().join(format!("class{round}.db"));
            std::thread::scope(|scope| {
                let opened: Vec<_> = (0..8)
                    .map(|_| scope.spawn(|| crate::store::db::Db::open(&path).map(drop)))
                    .collect();
                for one in opened {
                    one.join().unwrap().unwrap();
                }
            });
            let c = rusqlite::Connection::open(&path).unwrap();
            let recorded: i64 = c
                .query_row("SELECT COUNT(*) FROM refinery_schema_history", [], |r| {
                    r.get(0)
                })
                .unwrap();
            assert_eq!(recorded, super::latest());
            let version: i64 = c
                .pragma_query_value(None, "user_version", |r| r.get(0))
                .unwrap();
            assert_eq!(version, super::latest());
        }
    }
}
