//! Deadlines, late work and extensions: the one rule that says whether a submission made at
//! some moment is accepted, late, and what share of its score counts ([`judge`]). The
//! website (uploads, its pages and gradebooks) and `nimlab grade` (on exported submissions)
//! both ask it; nothing else decides lateness.
//!
//! The rule:
//! - Without a deadline, everything is accepted, on time, at full score.
//! - A deadline has a due time, and optionally a late period (until `late_until`) with a
//!   penalty in percent of the score per started day late. A submission at or before the due
//!   time is on time; after it and at or before `late_until` it is late and keeps
//!   `max(0, 100 - days × penalty)` percent of its score, `days` counting every started
//!   24 hours after the due time; after the last moment (`late_until`, else the due time) it
//!   is refused: uploads are closed and the gradebooks do not count it.
//! - An extension gives one student a new due time; the late period keeps its length, so
//!   `late_until` moves by as much as the due time did. An extension never shortens: the due
//!   time is the later of the two. Without a deadline an extension does nothing.
//!
//! Times are milliseconds since the Unix epoch. [`parse_time`] reads what people type (RFC
//! 3339, or `YYYY-MM-DD HH:MM` in the server's local time zone) and [`rfc3339`] writes it.

use jiff::tz::TimeZone;
use jiff::{Timestamp, civil::DateTime};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// An exercise's deadline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Policy {
    pub due_ms: i64,
    /// The end of the late period, after `due_ms`; none: nothing is accepted after the due time.
    pub late_until_ms: Option<i64>,
    /// Percent of the score taken per started day late (100: late work scores nothing).
    pub penalty_percent_per_day: f64,
}

/// What the rule says of one submission.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timeliness {
    /// Sent by the last moment: uploads are open, and the gradebooks count it.
    pub accepted: bool,
    /// Sent after the student's due time.
    pub late: bool,
    /// The share of its score that counts: 1 on time, less when late, 0 when refused.
    pub factor: f64,
    /// How long after the student's due time it was sent (0 when on time).
    pub late_ms: i64,
    /// The percent of the score taken per started day late, by the student's deadline.
    pub percent_per_day: f64,
}

impl Timeliness {
    pub const ON_TIME: Timeliness = Timeliness {
        accepted: true,
        late: false,
        factor: 1.0,
        late_ms: 0,
        percent_per_day: 0.0,
    };

    /// The started days late the penalty counts.
    pub fn started_days(&self) -> i64 {
        (self.late_ms + DAY_MS - 1) / DAY_MS
    }
}

/// The deadline as it applies to one student: the due time and late period moved by their
/// extension (`extension_ms`, a new due time), if any.
pub fn personal(policy: Option<&Policy>, extension_ms: Option<i64>) -> Option<Policy> {
    let policy = *policy?;
    let Some(extension) = extension_ms else {
        return Some(policy);
    };
    let shift = (extension - policy.due_ms).max(0);
    Some(Policy {
        due_ms: policy.due_ms + shift,
        late_until_ms: policy.late_until_ms.map(|until| until + shift),
        ..policy
    })
}

/// The last moment a student may send (the end of the late period, else the due time).
pub fn last_moment(policy: &Policy) -> i64 {
    policy
        .late_until_ms
        .unwrap_or(policy.due_ms)
        .max(policy.due_ms)
}

/// The rule: a submission sent at `submitted_ms` under `policy` (the exercise's deadline,
/// none if it has none) and the student's `extension_ms` (their new due time, if any).
pub fn timeliness(
    policy: Option<&Policy>,
    extension_ms: Option<i64>,
    submitted_ms: i64,
) -> Timeliness {
    let Some(policy) = personal(policy, extension_ms) else {
        return Timeliness::ON_TIME;
    };
    if submitted_ms <= policy.due_ms {
        return Timeliness::ON_TIME;
    }
    let late_ms = submitted_ms - policy.due_ms;
    if submitted_ms > last_moment(&policy) {
        return Timeliness {
            accepted: false,
            late: true,
            factor: 0.0,
            late_ms,
            percent_per_day: policy.penalty_percent_per_day,
        };
    }
    let started_days = (late_ms + DAY_MS - 1) / DAY_MS;
    let kept = 100.0 - started_days as f64 * policy.penalty_percent_per_day;
    Timeliness {
        accepted: true,
        late: true,
        factor: (kept / 100.0).clamp(0.0, 1.0),
        late_ms,
        percent_per_day: policy.penalty_percent_per_day,
    }
}

/// A time as typed: RFC 3339 (`2030-03-01T23:59:00+01:00`, `2030-03-01T22:59:00Z`), or
/// `YYYY-MM-DD HH:MM` (also with a `T`, as a browser's date-and-time field sends it, and
/// optionally `:SS`) in the server's local time zone. The message says what is wrong.
pub fn parse_time(text: &str) -> Result<i64, String> {
    let text = text.trim();
    if let Ok(timestamp) = text.parse::<Timestamp>() {
        return Ok(timestamp.as_millisecond());
    }
    let civil = [
        "%Y-%m-%d %H:%M",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%dT%H:%M:%S",
    ]
    .iter()
    .find_map(|format| DateTime::strptime(format, text).ok());
    let Some(civil) = civil else {
        return Err(format!(
            "`{text}` is not a time: write it as RFC 3339 (2030-03-01T23:59:00+01:00) or as YYYY-MM-DD HH:MM in the server's time zone"
        ));
    };
    civil
        .to_zoned_datetime(TimeZone::system())
        .map(|zoned| zoned.timestamp().as_millisecond())
        .map_err(|e| format!("`{text}` is not a time in the server's time zone: {e}"))
}

/// A time as RFC 3339 in UTC (with milliseconds where it has them): `2030-03-01T22:59:00Z`.
pub fn rfc3339(ms: i64) -> String {
    Timestamp::from_millisecond(ms).map_or_else(|_| ms.to_string(), |t| t.to_string())
}

/// A time for people, in the server's local time zone: `2030-03-01 23:59 CET`.
pub fn display(ms: i64) -> String {
    match Timestamp::from_millisecond(ms) {
        Ok(timestamp) => timestamp
            .to_zoned_datetime(TimeZone::system())
            .strftime("%Y-%m-%d %H:%M %Z")
            .to_string(),
        Err(_) => ms.to_string(),
    }
}

/// A time as a browser's date-and-time field shows it (`2030-03-01T23:59`), in the server's
/// local time zone.
pub fn form_value(ms: i64) -> String {
    match Timestamp::from_millisecond(ms) {
        Ok(timestamp) => timestamp
            .to_zoned_datetime(TimeZone::system())
            .strftime("%Y-%m-%dT%H:%M")
            .to_string(),
        Err(_) => String::new(),
    }
}

/// The name of the file an export of the website's submissions carries beside them (see
/// [`ClassDeadlines`]).
pub const CLASS_FILE: &str = "deadlines.json";

/// `deadlines.json` in a class folder exported from the website: the deadlines, the
/// extensions and when each file was submitted, so that `nimlab grade` applies the same rule
/// ([`judge`]) as the website. Times are RFC 3339.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClassDeadlines {
    /// By exercise.
    #[serde(default)]
    pub deadlines: std::collections::BTreeMap<String, PolicyEntry>,
    /// By student (their folder) and exercise: the student's new due time.
    #[serde(default)]
    pub extensions: std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>,
    /// By file, as its path in the class folder (`ada/present_board.py`): when it was sent.
    #[serde(default)]
    pub submitted: std::collections::BTreeMap<String, String>,
}

/// One exercise's deadline in `deadlines.json`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PolicyEntry {
    pub due: String,
    #[serde(default)]
    pub late_until: Option<String>,
    /// Percent of the score per started day late.
    #[serde(default)]
    pub late_penalty: f64,
}

impl PolicyEntry {
    pub fn new(policy: &Policy) -> Self {
        PolicyEntry {
            due: rfc3339(policy.due_ms),
            late_until: policy.late_until_ms.map(rfc3339),
            late_penalty: policy.penalty_percent_per_day,
        }
    }

    pub fn policy(&self) -> Result<Policy, String> {
        Ok(Policy {
            due_ms: parse_time(&self.due)?,
            late_until_ms: self.late_until.as_deref().map(parse_time).transpose()?,
            penalty_percent_per_day: self.late_penalty,
        })
    }
}

impl ClassDeadlines {
    /// The rule for `file` (its path in the class folder), by `student` (their folder), of
    /// `exercise`; none when the file's time is not known.
    pub fn timeliness(
        &self,
        file: &str,
        student: &str,
        exercise: &str,
    ) -> Result<Option<Timeliness>, String> {
        let Some(submitted) = self.submitted.get(file) else {
            return Ok(None);
        };
        let submitted = parse_time(submitted)?;
        let policy = self
            .deadlines
            .get(exercise)
            .map(PolicyEntry::policy)
            .transpose()?;
        let extension = self
            .extensions
            .get(student)
            .and_then(|theirs| theirs.get(exercise))
            .map(|until| parse_time(until))
            .transpose()?;
        Ok(Some(timeliness(policy.as_ref(), extension, submitted)))
    }
}

/// The test clock's variable: `NIMLAB_TEST_NOW=2030-03-01T12:00:00Z` makes nimlab's clock
/// start at that moment (read once, at the first look at the clock) and run on from there.
/// For tests only.
pub const TEST_NOW: &str = "NIMLAB_TEST_NOW";

/// Milliseconds since the Unix epoch, by the system clock, or by the test clock
/// ([`TEST_NOW`]) where it is set.
pub fn now_ms() -> i64 {
    static OFFSET: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    let system = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    let offset = *OFFSET.get_or_init(|| {
        std::env::var(TEST_NOW)
            .ok()
            .and_then(|text| text.parse::<Timestamp>().ok())
            .map_or(0, |start| start.as_millisecond() - system)
    });
    system + offset
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 60 * 60 * 1000;

    fn policy(late_hours: Option<i64>, penalty: f64) -> Policy {
        Policy {
            due_ms: 100 * DAY_MS,
            late_until_ms: late_hours.map(|h| 100 * DAY_MS + h * HOUR),
            penalty_percent_per_day: penalty,
        }
    }

    #[test]
    fn without_a_deadline_everything_counts_in_full() {
        assert_eq!(timeliness(None, Some(0), i64::MAX / 2), Timeliness::ON_TIME);
    }

    #[test]
    fn the_due_moment_itself_is_on_time_and_the_next_is_refused_without_a_late_period() {
        let p = policy(None, 0.0);
        assert_eq!(timeliness(Some(&p), None, p.due_ms), Timeliness::ON_TIME);
        let after = timeliness(Some(&p), None, p.due_ms + 1);
        assert!(!after.accepted && after.late && after.factor == 0.0);
    }

    #[test]
    fn every_started_day_late_costs_the_penalty() {
        let p = policy(Some(72), 10.0);
        let at = |ms: i64| timeliness(Some(&p), None, p.due_ms + ms);
        assert_eq!(at(1).factor, 0.9);
        assert_eq!(at(24 * HOUR).factor, 0.9);
        assert_eq!(at(24 * HOUR + 1).factor, 0.8);
        assert!(at(72 * HOUR).accepted && (at(72 * HOUR).factor - 0.7).abs() < 1e-9);
        assert!(!at(72 * HOUR + 1).accepted);
        let none = policy(Some(72), 100.0);
        let late = timeliness(Some(&none), None, none.due_ms + 1);
        assert!(late.accepted && late.late && late.factor == 0.0);
        let steep = policy(Some(240), 40.0);
        assert_eq!(
            timeliness(Some(&steep), None, steep.due_ms + 5 * DAY_MS).factor,
            0.0
        );
    }

    #[test]
    fn an_extension_moves_the_due_time_and_the_late_period_with_it() {
        let p = policy(Some(48), 50.0);
        let extension = p.due_ms + 3 * DAY_MS;
        let moved = personal(Some(&p), Some(extension)).unwrap();
        assert_eq!(moved.due_ms, extension);
        assert_eq!(moved.late_until_ms, Some(extension + 48 * HOUR));
        assert_eq!(
            timeliness(Some(&p), Some(extension), extension),
            Timeliness::ON_TIME
        );
        assert_eq!(
            timeliness(Some(&p), Some(extension), extension + 1).factor,
            0.5
        );
        // An extension to before the due time does not shorten it.
        assert_eq!(personal(Some(&p), Some(0)).unwrap(), p);
    }

    #[test]
    fn times_are_read_as_rfc_3339_or_as_local_wall_clock() {
        assert_eq!(parse_time("1970-01-01T00:00:01Z"), Ok(1000));
        assert_eq!(parse_time("1970-01-01T01:00:00+01:00"), Ok(0));
        assert!(parse_time("2030-03-01 23:59").is_ok());
        assert!(parse_time("2030-03-01T23:59").is_ok());
        let error = parse_time("next friday").unwrap_err();
        assert!(
            error.contains("next friday") && error.contains("RFC 3339"),
            "{error}"
        );
        assert!(parse_time("2030-02-30 10:00").is_err());
        assert_eq!(rfc3339(1000), "1970-01-01T00:00:01Z");
        assert_eq!(rfc3339(1500), "1970-01-01T00:00:01.5Z");
        assert_eq!(parse_time(&rfc3339(1500)), Ok(1500));
    }
}
