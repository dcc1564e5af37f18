//! The schema's steps and the runner that applies them, on both stores.

use super::sql::{Conn, Optional, SqlError};
use rusqlite::Connection;

/// A step of the schema, in each store's own words: the same file name in `migrations/sqlite/`
/// and `migrations/postgres/` (numbered as refinery and Flyway name them, `V{n}__{what}.sql`),
/// carried in the binary.
pub(crate) struct Step {
    pub(crate) sqlite: &'static str,
    pub(crate) postgres: &'static str,
}

macro_rules! step {
    ($file:literal) => {
        Step {
            sqlite: include_str!(concat!("../migrations/sqlite/", $file)),
            postgres: include_str!(concat!("../migrations/postgres/", $file)),
        }
    };
}

/// Each step takes the schema from version `index` to `index + 1`; applied in order, once.
pub(crate) const MIGRATIONS: &[Step] = &[
    step!("V1__accounts_sessions_submissions.sql"),
    step!("V2__login_throttles_and_secrets.sql"),
    step!("V3__disabled_and_removed_accounts.sql"),
    step!("V4__teaching_assistants.sql"),
    step!("V5__lti.sql"),
    step!("V6__deadlines.sql"),
    step!("V7__lti_frame_origins.sql"),
    step!("V8__processes_and_leases.sql"),
    step!("V9__lti_identities.sql"),
    step!("V10__roster_registrations.sql"),
];

pub enum Migration {
    Newer(usize),
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

/// The advisory lock PostgreSQL's migrations run under, so that servers started at once
/// migrate one after the other (the later ones find nothing left to do).
const MIGRATION_LOCK: i64 = 0x6e69_6d6c_6162_0002;

/// Applies the migrations the database has not had, each in a transaction of its own.
pub fn migrate(connection: &mut Conn) -> std::result::Result<(), Migration> {
    match connection {
        Conn::Sqlite(c) => migrate_sqlite(c),
        Conn::Postgres(_) => {
            connection.execute("SELECT pg_advisory_lock(?1)", [MIGRATION_LOCK])?;
            let migrated = migrate_postgres(connection);
            connection.execute("SELECT pg_advisory_unlock(?1)", [MIGRATION_LOCK])?;
            migrated
        }
    }
}

/// Foreign keys are off while a step runs (SQLite ignores the pragma inside a transaction, so
/// it is set around it), as SQLite's "making other kinds of table schema changes" asks: a step
/// that rebuilds a table drops the old one, which with foreign keys on would delete the
/// sessions that reference it (`ON DELETE CASCADE`) or fail for its submissions. Before each
/// step commits, `foreign_key_check` must find nothing broken, or the step is rolled back.
fn migrate_sqlite(connection: &mut Connection) -> std::result::Result<(), Migration> {
    let version: usize =
        connection.pragma_query_value(None, "user_version", |row| row.get::<_, i64>(0))? as usize;
    if version > MIGRATIONS.len() {
        return Err(Migration::Newer(version));
    }
    if version == MIGRATIONS.len() {
        return Ok(());
    }
    connection.pragma_update(None, "foreign_keys", "OFF")?;
    let migrated = apply_sqlite(connection, version);
    connection.pragma_update(None, "foreign_keys", "ON")?;
    migrated
}

fn apply_sqlite(connection: &mut Connection, from: usize) -> std::result::Result<(), Migration> {
    for (index, step) in MIGRATIONS.iter().enumerate().skip(from) {
        let tx = connection.transaction_with_behavior(rusqlite::TransactionBehavior::Exclusive)?;
        tx.execute_batch(step.sqlite)?;
        let broken: Option<String> = rusqlite::OptionalExtension::optional(tx.query_row(
            "PRAGMA foreign_key_check",
            [],
            |row| row.get(0),
        ))?;
        if let Some(table) = broken {
            return Err(Migration::Sql(SqlError::Other(format!(
                "migration {} would break a foreign key of table {table}",
                index + 1
            ))));
        }
        tx.pragma_update(None, "user_version", (index + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
}

/// PostgreSQL keeps the schema's version in a table of its own (SQLite's is the file's
/// `user_version`).
fn migrate_postgres(connection: &mut Conn) -> std::result::Result<(), Migration> {
    connection.batch("CREATE TABLE IF NOT EXISTS nimlab_schema (version BIGINT NOT NULL)")?;
    let version: Option<i64> = connection
        .query_row("SELECT version FROM nimlab_schema", [], |r| r.get(0))
        .optional()?;
    let version = match version {
        Some(version) => version as usize,
        None => {
            connection.execute("INSERT INTO nimlab_schema (version) VALUES (0)", [])?;
            0
        }
    };
    if version > MIGRATIONS.len() {
        return Err(Migration::Newer(version));
    }
    for (index, step) in MIGRATIONS.iter().enumerate().skip(version) {
        let mut tx = connection.transaction()?;
        tx.batch(step.postgres)?;
        tx.execute(
            "UPDATE nimlab_schema SET version = ?1",
            [(index + 1) as i64],
        )?;
        tx.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Every file of both migration folders is a step, in its place, for both stores.
    #[test]
    fn every_migration_file_is_a_step_for_both_stores() {
        for (store, text_of) in [
            (
                "sqlite",
                (|s: &super::Step| s.sqlite) as fn(&super::Step) -> &'static str,
            ),
            ("postgres", |s: &super::Step| s.postgres),
        ] {
            let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("migrations")
                .join(store);
            let mut files: Vec<(usize, String)> = std::fs::read_dir(&folder)
                .unwrap()
                .map(|entry| {
                    let name = entry.unwrap().file_name().to_string_lossy().into_owned();
                    let version = name
                        .strip_prefix('V')
                        .and_then(|rest| rest.split_once("__"))
                        .and_then(|(n, _)| n.parse().ok())
                        .unwrap_or_else(|| panic!("{store}/{name} is not named V<n>__<what>.sql"));
                    (version, name)
                })
                .collect();
            files.sort();
            let versions: Vec<usize> = files.iter().map(|(v, _)| *v).collect();
            assert_eq!(
                versions,
                (1..=super::MIGRATIONS.len()).collect::<Vec<_>>(),
                "{store}"
            );
            for (version, name) in &files {
                let text = std::fs::read_to_string(folder.join(name)).unwrap();
                assert_eq!(
                    text,
                    text_of(&super::MIGRATIONS[version - 1]),
                    "{store}/{name}"
                );
            }
        }
    }
}
