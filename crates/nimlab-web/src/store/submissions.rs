//! Submissions as students and staff see them: stored, listed, filtered, counted, and their reports.

use crate::store::db::now_ms;
use crate::store::judging::wake_judges;
use crate::store::sql::{Conn, Optional, Row, SqlResult, Value, params};

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

    pub(crate) fn parse(text: &str) -> Status {
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

/// A student's latest upload: their username, its source, its report once judged.
pub type LatestUpload = (String, Vec<u8>, Option<String>);

/// Each student's latest upload of `exercise` (staff's and removed accounts' left out), by
/// username, with its report once judged: what the class's similarity compares.
pub fn latest_sources(c: &mut Conn, exercise: &str) -> SqlResult<Vec<LatestUpload>> {
    c.query(
        "SELECT u.username, s.source, s.report FROM submissions s JOIN users u ON u.id = s.user_id
         WHERE s.exercise = ?1 AND u.role = 'student' AND u.removed_at IS NULL
           AND s.id = (SELECT MAX(t.id) FROM submissions t WHERE t.user_id = s.user_id AND t.exercise = ?1)
         ORDER BY u.username",
        [exercise],
        |row| Ok((row.get("username")?, row.get("source")?, row.get("report")?)),
    )
}
