//! The processes serving and judging on one database, as the queue page lists them.

use crate::store::judging::clock_ms;
use crate::store::sql::{Conn, SqlResult, params};

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
