//! Which submissions count, and the instructor's downloads: the files `nimlab grade` writes,
//! made from the database instead of a class folder, by the grade module's
//! [`GradebookBuilder`] ([`gradebook`]) and exporters ([`render`]).

use crate::store::accounts;
use crate::store::accounts::User;
use crate::store::calendar;
use crate::store::calendar::Deadlines;
use crate::store::db::Db;
use crate::store::sql::{Conn, SqlResult};
use crate::store::submissions;
use crate::store::submissions::Summary;
use nimlab_core::deadline::{self, ClassDeadlines, PolicyEntry, Timeliness};
use nimlab_core::error::{Error, Result};
use nimlab_core::grade::builder::{self, GradebookBuilder};
use nimlab_core::grade::{ExerciseResult, Gradebook, RosterEntry};
use nimlab_core::lab::{Lab, LabExercise};
use nimlab_core::report::CheckReport;
use std::collections::{BTreeMap, HashMap};

/// Which submission of a student's counts in the gradebook downloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GradesFrom {
    /// The highest score (the latest among equals).
    Best,
    /// The latest judged.
    Latest,
}

impl GradesFrom {
    pub fn parse(text: &str) -> Option<GradesFrom> {
        match text {
            "best" => Some(GradesFrom::Best),
            "latest" => Some(GradesFrom::Latest),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            GradesFrom::Best => "best",
            GradesFrom::Latest => "latest",
        }
    }
}

/// The files offered, and what each is.
pub const FILES: &[(&str, &str)] = &[
    (
        "gradebook.csv",
        "one row per student: a column per exercise, and the total",
    ),
    (
        "canvas.csv",
        "Canvas's gradebook import (Student, ID, SIS User ID, SIS Login ID, Section, a column per assignment)",
    ),
    (
        "moodle.csv",
        "Moodle's grade import (ID number or Username, a column per grade item)",
    ),
    (
        "results.json",
        "everything: per student, exercise, interpreter and case",
    ),
    (
        "junit.xml",
        "for CI dashboards: a suite per student, a test per exercise",
    ),
    (
        "mistakes.json",
        "each exercise's failing students grouped by cause (the hints they were given, else the same wrong output)",
    ),
];

pub fn content_type(file: &str) -> Option<&'static str> {
    FILES.iter().find(|(name, _)| *name == file)?;
    Some(match file.rsplit('.').next() {
        Some("csv") => "text/csv; charset=utf-8",
        Some("json") => "application/json",
        _ => "application/xml",
    })
}

/// What one judged submission is worth in the gradebook: the points it counts for (deadline
/// rule applied), out of the exercise's, and what it would count for on time. The one number
/// the submission page, the class matrix, the API and the downloads show.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Points {
    pub counted: f64,
    pub on_time: f64,
    pub max: u32,
    pub timeliness: Timeliness,
}

impl Points {
    pub fn of(exercise: &LabExercise, summary: &Summary, timeliness: Timeliness) -> Points {
        let scaled = |factor| {
            builder::scaled_points(
                exercise.config.points,
                summary.score.unwrap_or(0),
                summary.max_score.unwrap_or(0),
                factor,
            )
        };
        Points {
            counted: if timeliness.accepted {
                scaled(timeliness.factor)
            } else {
                0.0
            },
            on_time: scaled(1.0),
            max: exercise.config.points,
            timeliness,
        }
    }

    /// The percent of its score the deadline took: all of it after the last moment.
    pub fn taken_percent(&self) -> f64 {
        if self.timeliness.accepted {
            (100.0 - self.timeliness.factor * 100.0).round()
        } else {
            100.0
        }
    }

    /// Whether the deadline took anything (a late penalty, or the whole of it).
    pub fn reduced(&self) -> bool {
        !self.timeliness.accepted || self.counted < self.on_time
    }
}

/// A submission that counts, and what the deadline rule made of it.
#[derive(Debug, Clone, Copy)]
pub struct Counted<'a> {
    pub summary: &'a Summary,
    pub timeliness: Timeliness,
}

impl Counted<'_> {
    /// The share of its case weights passed, of which the rule's factor counts.
    fn share(&self) -> f64 {
        let (score, max) = (
            self.summary.score.unwrap_or(0),
            self.summary.max_score.unwrap_or(0).max(1),
        );
        f64::from(score) / f64::from(max) * self.timeliness.factor
    }

    /// Its score in case weights with the rule's factor applied, and the most it could be.
    pub fn score(&self) -> (f64, u32) {
        let score = f64::from(self.summary.score.unwrap_or(0)) * self.timeliness.factor;
        (score, self.summary.max_score.unwrap_or(0))
    }
}

/// The submission that counts per student and exercise, from the judged ones (oldest first),
/// with the deadlines applied ([`nimlab_core::deadline::timeliness`]): one sent after the student's last
/// moment never counts; of the others, the best (the highest score once the late penalty is
/// taken, the latest among equals) or the latest.
pub fn count<'a>(
    judged: &'a [Summary],
    from: GradesFrom,
    deadlines: &Deadlines,
) -> BTreeMap<(i64, &'a str), Counted<'a>> {
    let mut chosen: BTreeMap<(i64, &str), Counted> = BTreeMap::new();
    for summary in judged {
        let timeliness =
            deadlines.timeliness(summary.user_id, &summary.exercise, summary.submitted_at);
        if !timeliness.accepted {
            continue;
        }
        let candidate = Counted {
            summary,
            timeliness,
        };
        let key = (summary.user_id, summary.exercise.as_str());
        let replace = match (from, chosen.get(&key)) {
            (_, None) | (GradesFrom::Latest, Some(_)) => true,
            (GradesFrom::Best, Some(current)) => candidate.share() >= current.share(),
        };
        if replace {
            chosen.insert(key, candidate);
        }
    }
    chosen
}

/// Where each student's exercise stands, as the pages show it: the submission the gradebook
/// counts and what the deadline made of it ([`count`]), or, where none counts (every one sent
/// after the student's last moment), the best sent, which counts for nothing.
pub fn standing<'a>(
    judged: &'a [Summary],
    from: GradesFrom,
    deadlines: &Deadlines,
) -> BTreeMap<(i64, &'a str), Counted<'a>> {
    let mut standing = count(judged, from, deadlines);
    for (key, summary) in choose(judged, GradesFrom::Best) {
        standing.entry(key).or_insert_with(|| Counted {
            summary,
            timeliness: deadlines.timeliness(
                summary.user_id,
                &summary.exercise,
                summary.submitted_at,
            ),
        });
    }
    standing
}

/// The points the gradebook counts for one student's exercise, deadlines applied, once a
/// submission of it counts (what is sent to an LMS's gradebook): by the same [`count`] and
/// the gradebook's rule for points.
pub fn counted_points(
    c: &mut Conn,
    exercise: &LabExercise,
    user_id: i64,
    from: GradesFrom,
) -> SqlResult<Option<f64>> {
    let mut judged = submissions::judged(c, Some(user_id))?;
    judged.retain(|s| s.exercise == exercise.name);
    let deadlines = calendar::deadlines(c)?;
    Ok(count(&judged, from, &deadlines)
        .get(&(user_id, exercise.name.as_str()))
        .map(|counted| {
            builder::scaled_points(
                exercise.config.points,
                counted.summary.score.unwrap_or(0),
                counted.summary.max_score.unwrap_or(0),
                counted.timeliness.factor,
            )
        }))
}

/// The score the gradebooks count for one student's exercise, deadlines applied: the
/// counted submission's score in case weights times the rule's factor, and its maximum (the
/// gradebook gives the exercise's points times their ratio). None when nothing counts.
/// [`gradebook`] counts through the same [`count`].
pub fn counted_score(
    c: &mut Conn,
    user_id: i64,
    exercise: &str,
    from: GradesFrom,
) -> SqlResult<Option<(f64, u32)>> {
    let mut judged = submissions::judged(c, Some(user_id))?;
    judged.retain(|s| s.exercise == exercise);
    let deadlines = calendar::deadlines(c)?;
    Ok(count(&judged, from, &deadlines)
        .get(&(user_id, exercise))
        .map(Counted::score))
}

/// The submission that counts per student and exercise, from the judged ones (oldest first),
/// without deadlines: the best (the highest score, the latest among equals) or the latest.
/// For what a student has done (the exercise list, the class matrix), not for grades.
pub fn choose(judged: &[Summary], from: GradesFrom) -> BTreeMap<(i64, &str), &Summary> {
    count(judged, from, &Deadlines::default())
        .into_iter()
        .map(|(key, counted)| (key, counted.summary))
        .collect()
}

/// The best judged submission of each exercise, of one student's judged ones (oldest
/// first): the highest score, the latest among equals.
pub fn best_by_exercise(judged: &[Summary]) -> HashMap<&str, &Summary> {
    choose(judged, GradesFrom::Best)
        .into_iter()
        .map(|((_, exercise), summary)| (exercise, summary))
        .collect()
}

/// Writes the submissions that count (deadlines applied, see [`count`]) as a class folder
/// `nimlab grade` reads (`OUT/<student>/<exercise>.py`, `roster.csv` with every student
/// account (staff's uploads are left out), and `deadlines.json` with the deadlines, the extensions and each file's time, so
/// that `nimlab grade` applies the same rule), so a batch regrade can run anywhere, in
/// shards. Returns how many files were written.
pub fn export_submissions(
    lab: &Lab,
    db: &Db,
    from: GradesFrom,
    out: &std::path::Path,
) -> Result<usize> {
    let users = db.with(accounts::users)?;
    let judged = db.with(|c| submissions::judged(c, None))?;
    let deadlines = db.with(calendar::deadlines)?;
    let chosen = count(&judged, from, &deadlines);
    let mut files = Vec::new();
    let mut class_deadlines = class_deadlines(lab, &users, &deadlines);
    for ((user_id, exercise), counted) in &chosen {
        if lab.exercise(exercise).is_err() {
            continue; // an exercise the lab no longer has
        }
        // Staff's tries are not a student's work.
        let Some(user) = users.iter().find(|u| u.id == *user_id && !u.is_staff()) else {
            continue;
        };
        let id = counted.summary.id;
        let source = db
            .with(move |c| submissions::submission(c, id))?
            .map(|s| s.source)
            .unwrap_or_default();
        let file = format!(
            "{}/{exercise}.py",
            nimlab_core::grade::book::file_stem(&user.username)
        );
        class_deadlines.submitted.insert(
            file.clone(),
            deadline::rfc3339(counted.summary.submitted_at),
        );
        files.push((file, source));
    }
    let class_deadlines = serde_json::to_vec_pretty(&class_deadlines)
        .map_err(|e| Error::fault(format!("cannot write {}: {e}", deadline::CLASS_FILE)))?;
    let mut roster = csv::Writer::from_writer(Vec::new());
    let mut rows = vec![[
        "student".to_string(),
        "name".into(),
        "id".into(),
        "section".into(),
    ]];
    for user in users.iter().filter(|u| !u.is_staff()) {
        rows.push([
            nimlab_core::grade::book::file_stem(&user.username),
            nimlab_core::escape::csv_cell(&user.name).into_owned(),
            nimlab_core::escape::csv_cell(&user.student_id).into_owned(),
            nimlab_core::escape::csv_cell(&user.section).into_owned(),
        ]);
    }
    for row in rows {
        roster
            .write_record(row)
            .map_err(|e| Error::internal("cannot write roster.csv", std::io::Error::other(e)))?;
    }
    let roster = roster
        .into_inner()
        .map_err(|e| Error::internal("cannot write roster.csv", e.into_error()))?;
    let count = files.len();
    nimlab_core::fsutil::write_folder(out, |folder| {
        // Students' code and the roster: readable by the owner only.
        let write = |path: &std::path::Path, bytes: &[u8]| -> Result<()> {
            let folder = path.parent().expect("a file inside the folder");
            nimlab_core::fsutil::create_private_dirs(folder)
                .and_then(|()| nimlab_core::fsutil::write_private(path, bytes))
                .map_err(|e| Error::unwritable(path, e))
        };
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| Error::unwritable(folder, e))?;
        for (relative, bytes) in &files {
            write(&folder.join(relative), bytes.as_ref())?;
        }
        write(&folder.join("roster.csv"), &roster)?;
        write(&folder.join(deadline::CLASS_FILE), &class_deadlines)
    })?;
    Ok(count)
}

/// The deadlines and extensions as an export carries them (the files' times are added as
/// they are written).
fn class_deadlines(lab: &Lab, users: &[User], deadlines: &Deadlines) -> ClassDeadlines {
    let mut class = ClassDeadlines::default();
    for name in lab.names() {
        if let Some(policy) = deadlines.policy(name) {
            class
                .deadlines
                .insert(name.to_string(), PolicyEntry::new(policy));
        }
    }
    for ((user_id, exercise), until) in &deadlines.extensions {
        if let Some(user) = users.iter().find(|u| u.id == *user_id) {
            class
                .extensions
                .entry(nimlab_core::grade::book::file_stem(&user.username))
                .or_default()
                .insert(exercise.clone(), deadline::rfc3339(*until));
        }
    }
    class
}

/// The gradebook of every student account (by username), from each one's best (or latest)
/// judged submission per exercise.
pub fn gradebook(lab: &Lab, db: &Db, from: GradesFrom, isolation: &str) -> Result<Gradebook> {
    let mut students = db.with(accounts::users)?;
    // Staff (TAs and instructors) are not graded, whatever they uploaded to try the lab.
    students.retain(|u| !u.is_staff());
    students.sort_by(|a, b| a.username.cmp(&b.username));
    let judged = db.with(|c| submissions::judged(c, None))?;
    let deadlines = db.with(calendar::deadlines)?;
    let chosen = count(&judged, from, &deadlines);
    let mut book = GradebookBuilder::new(lab, isolation.to_string());
    for user in &students {
        let mut results = BTreeMap::new();
        for exercise in &lab.exercises {
            if let Some(counted) = chosen.get(&(user.id, exercise.name.as_str())) {
                results.insert(exercise.name.clone(), judged_result(db, exercise, counted)?);
            }
        }
        // The roster's id where the account has one; else the username, unique too.
        let student_id = if user.student_id.is_empty() {
            user.username.clone()
        } else {
            user.student_id.clone()
        };
        book.student(
            user.username.clone(),
            student_id,
            Some(roster_entry(user)),
            results,
        );
    }
    Ok(book.finish())
}

/// A judged submission's result, with its report (read from the database).
fn judged_result(db: &Db, exercise: &LabExercise, counted: &Counted) -> Result<ExerciseResult> {
    let summary = counted.summary;
    let id = summary.id;
    let report: Option<CheckReport> = db
        .with(move |c| submissions::report(c, id))?
        .and_then(|text| serde_json::from_str(&text).ok());
    Ok(builder::graded(
        exercise,
        format!("submission {}: {}", summary.id, summary.filename),
        (summary.score.unwrap_or(0), summary.max_score.unwrap_or(0)),
        counted.timeliness.factor,
        report,
    ))
}

fn roster_entry(user: &User) -> RosterEntry {
    RosterEntry {
        name: user.name.clone(),
        id: user.student_id.clone(),
        section: user.section.clone(),
        username: Some(user.username.clone()),
    }
}

/// One of [`FILES`], rendered by the grade module's exporters.
pub fn render(book: &Gradebook, file: &str) -> Result<Vec<u8>> {
    if !FILES.iter().any(|(name, _)| *name == file) {
        return Err(Error::usage(format!("no download named {file}")));
    }
    nimlab_core::grade::export::render_one(book, file)?
        .ok_or_else(|| Error::fault(format!("{file}: no exporter writes it")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{accounts, judging};
    use nimlab_core::deadline::Policy;

    const HOUR: i64 = 3_600_000;

    /// Ada's present_board, judged `score` of 10, sent `at`.
    fn judged_at(db: &Db, user_id: i64, at: i64, score: u32) {
        db.with(|c| {
            submissions::insert_submission_at(c, user_id, "present_board", "p.py", b"", 10, at)?
                .expect("queued");
            let job = judging::claim(
                c,
                &judging::Claimant {
                    judge: "tester:1".into(),
                    lease: std::time::Duration::from_secs(60),
                },
            )?
            .expect("a job");
            let outcome = judging::Outcome::Judged {
                verdict: "accepted".into(),
                score,
                max_score: 10,
                report: "{}".into(),
            };
            judging::finish(c, &job, &outcome).map(|_| ())
        })
        .unwrap();
    }

    #[test]
    fn counted_score_and_the_gradebook_count_the_best_score_after_its_penalty_or_the_latest_accepted()
     {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("class.db")).unwrap();
        let lab = Lab::built_in().unwrap();
        let ada = db
            .with(|c| {
                let user = accounts::NewUser {
                    username: "ada".into(),
                    ..accounts::NewUser::default()
                };
                accounts::upsert_user(c, &user, accounts::Role::Student, Some("x"))?;
                Ok(accounts::find_user(c, "ada")?.expect("ada").0.id)
            })
            .unwrap();
        let due = 1_000 * HOUR;
        // On time, 6 of 10; an hour late, 10 of 10 (5 at 50% a day); 30 hours late, 10 of 10
        // (0: two started days).
        for (at, score) in [(due - HOUR, 6), (due + HOUR, 10), (due + 30 * HOUR, 10)] {
            judged_at(&db, ada, at, score);
        }
        let policy = Policy {
            due_ms: due,
            late_until_ms: Some(due + 48 * HOUR),
            penalty_percent_per_day: 50.0,
        };
        let names = ["present_board".to_string()];
        db.with(|c| calendar::set_deadline(c, &names, &policy))
            .unwrap();
        let score = |from| {
            db.with(|c| counted_score(c, ada, "present_board", from))
                .unwrap()
        };
        let agree = |from| {
            let book = gradebook(&lab, &db, from, "test").unwrap();
            let points = book.students[0].exercises["present_board"].points;
            let (score, max) = score(from).unwrap();
            assert_eq!(points, 10.0 * score / f64::from(max), "{from:?}");
        };
        assert_eq!(score(GradesFrom::Best), Some((6.0, 10)));
        assert_eq!(score(GradesFrom::Latest), Some((0.0, 10)));
        agree(GradesFrom::Best);
        agree(GradesFrom::Latest);
        // The late period ending two hours after the due time: the last one is not counted.
        let shorter = Policy {
            late_until_ms: Some(due + 2 * HOUR),
            ..policy
        };
        db.with(|c| calendar::set_deadline(c, &names, &shorter))
            .unwrap();
        assert_eq!(score(GradesFrom::Latest), Some((5.0, 10)));
        agree(GradesFrom::Latest);
        // Without a deadline, the best as judged.
        db.with(|c| calendar::clear_deadline(c, &names)).unwrap();
        assert_eq!(score(GradesFrom::Best), Some((10.0, 10)));
        assert_eq!(score(GradesFrom::Latest), Some((10.0, 10)));
    }
}
