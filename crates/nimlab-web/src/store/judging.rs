//! The queue as the judges work it: claiming a job fairly, its lease by the database's clock, results, and judging again.

use crate::store::db::now_ms;
use crate::store::sql::{Conn, Dialect, Optional, Row, SqlResult, params};

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
pub(crate) fn wake_judges(c: &mut Conn) -> SqlResult<()> {
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
