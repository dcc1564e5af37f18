//! Which submissions count, and the instructor's downloads: the files `nimlab grade` writes,
//! made from the database instead of a class folder, by the grade module's
//! [`GradebookBuilder`] ([`gradebook`]) and exporters ([`render`]).

use super::db::{self, Db, Summary, User};
use crate::error::{Error, Result};
use crate::grade::builder::{self, GradebookBuilder};
use crate::grade::{ExerciseResult, Gradebook, RosterEntry};
use crate::lab::{Lab, LabExercise};
use crate::report::CheckReport;
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
        "Canvas's gradebook import (Student, ID, Section, a column per assignment)",
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
];

pub fn content_type(file: &str) -> Option<&'static str> {
    FILES.iter().find(|(name, _)| *name == file)?;
    Some(match file.rsplit('.').next() {
        Some("csv") => "text/csv; charset=utf-8",
        Some("json") => "application/json",
        _ => "application/xml",
    })
}

/// An exercise's points for a judged submission, by the gradebook's one rule
/// ([`builder::points`]).
pub fn points(exercise: &LabExercise, summary: &Summary) -> f64 {
    builder::points(
        exercise.config.points,
        summary.score.unwrap_or(0),
        summary.max_score.unwrap_or(0),
    )
}

/// Whether `candidate` is at least as good as `current`: the share of its case weights
/// passed is as high, or higher.
fn at_least_as_good(candidate: &Summary, current: &Summary) -> bool {
    let share = |s: &Summary| {
        let (score, max) = (s.score.unwrap_or(0), s.max_score.unwrap_or(0).max(1));
        f64::from(score) / f64::from(max)
    };
    share(candidate) >= share(current)
}

/// The submission that counts per student and exercise, from the judged ones (oldest first):
/// the best (the highest score, the latest among equals) or the latest.
pub fn choose(judged: &[Summary], from: GradesFrom) -> BTreeMap<(i64, &str), &Summary> {
    let mut chosen: BTreeMap<(i64, &str), &Summary> = BTreeMap::new();
    for summary in judged {
        let key = (summary.user_id, summary.exercise.as_str());
        let replace = match (from, chosen.get(&key)) {
            (_, None) | (GradesFrom::Latest, Some(_)) => true,
            (GradesFrom::Best, Some(current)) => at_least_as_good(summary, current),
        };
        if replace {
            chosen.insert(key, summary);
        }
    }
    chosen
}

/// The points the gradebook counts for one student's exercise, once a submission of it is
/// judged (what is sent to an LMS's gradebook).
pub fn counted_points(
    c: &rusqlite::Connection,
    exercise: &LabExercise,
    user_id: i64,
    from: GradesFrom,
) -> rusqlite::Result<Option<f64>> {
    let judged: Vec<Summary> = db::judged(c, Some(user_id))?
        .into_iter()
        .filter(|s| s.exercise == exercise.name)
        .collect();
    let chosen = choose(&judged, from);
    Ok(chosen
        .get(&(user_id, exercise.name.as_str()))
        .map(|summary| points(exercise, summary)))
}

/// The best judged submission of each exercise, of one student's judged ones (oldest
/// first): the highest score, the latest among equals.
pub fn best_by_exercise(judged: &[Summary]) -> HashMap<&str, &Summary> {
    choose(judged, GradesFrom::Best)
        .into_iter()
        .map(|((_, exercise), summary)| (exercise, summary))
        .collect()
}

/// Writes the submissions that count as a class folder `nimlab grade` reads
/// (`OUT/<student>/<exercise>.py`, and `roster.csv` with every student account; staff's
/// uploads are left out), so a batch
/// regrade can run anywhere, in shards. Returns how many files were written.
pub fn export_submissions(
    lab: &Lab,
    db: &Db,
    from: GradesFrom,
    out: &std::path::Path,
) -> Result<usize> {
    let users = db.with(|c| db::users(c))?;
    let judged = db.with(|c| db::judged(c, None))?;
    let chosen = choose(&judged, from);
    let mut files = Vec::new();
    for ((user_id, exercise), summary) in &chosen {
        if lab.exercise(exercise).is_err() {
            continue; // an exercise the lab no longer has
        }
        // Staff's tries are not a student's work.
        let Some(user) = users.iter().find(|u| u.id == *user_id && !u.is_staff()) else {
            continue;
        };
        let id = summary.id;
        let source = db
            .with(move |c| db::submission(c, id))?
            .map(|s| s.source)
            .unwrap_or_default();
        files.push((
            format!(
                "{}/{exercise}.py",
                crate::grade::book::file_stem(&user.username)
            ),
            source,
        ));
    }
    let mut roster = csv::Writer::from_writer(Vec::new());
    let mut rows = vec![[
        "student".to_string(),
        "name".into(),
        "id".into(),
        "section".into(),
    ]];
    for user in users.iter().filter(|u| !u.is_staff()) {
        rows.push([
            crate::grade::book::file_stem(&user.username),
            crate::escape::csv_cell(&user.name).into_owned(),
            crate::escape::csv_cell(&user.student_id).into_owned(),
            crate::escape::csv_cell(&user.section).into_owned(),
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
    crate::fsutil::write_folder(out, |folder| {
        // Students' code and the roster: readable by the owner only.
        let write = |path: &std::path::Path, bytes: &[u8]| -> Result<()> {
            let folder = path.parent().expect("a file inside the folder");
            crate::fsutil::create_private_dirs(folder)
                .and_then(|()| crate::fsutil::write_private(path, bytes))
                .map_err(|e| Error::unwritable(path, e))
        };
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| Error::unwritable(folder, e))?;
        for (relative, bytes) in &files {
            write(&folder.join(relative), bytes.as_ref())?;
        }
        write(&folder.join("roster.csv"), &roster)
    })?;
    Ok(count)
}

/// The gradebook of every student account (by username), from each one's best (or latest)
/// judged submission per exercise.
pub fn gradebook(lab: &Lab, db: &Db, from: GradesFrom, isolation: &str) -> Result<Gradebook> {
    let mut students = db.with(|c| db::users(c))?;
    // Staff (TAs and instructors) are not graded, whatever they uploaded to try the lab.
    students.retain(|u| !u.is_staff());
    students.sort_by(|a, b| a.username.cmp(&b.username));
    let judged = db.with(|c| db::judged(c, None))?;
    let chosen = choose(&judged, from);
    let mut book = GradebookBuilder::new(lab, isolation.to_string());
    for user in &students {
        let mut results = BTreeMap::new();
        for exercise in &lab.exercises {
            if let Some(summary) = chosen.get(&(user.id, exercise.name.as_str())) {
                results.insert(exercise.name.clone(), judged_result(db, exercise, summary)?);
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
fn judged_result(db: &Db, exercise: &LabExercise, summary: &Summary) -> Result<ExerciseResult> {
    let id = summary.id;
    let report: Option<CheckReport> = db
        .with(move |c| db::report(c, id))?
        .and_then(|text| serde_json::from_str(&text).ok());
    Ok(builder::graded(
        exercise,
        format!("submission {}: {}", summary.id, summary.filename),
        summary.score.unwrap_or(0),
        summary.max_score.unwrap_or(0),
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
    crate::grade::export::render_one(book, file)?
        .ok_or_else(|| Error::fault(format!("{file}: no exporter writes it")))
}
