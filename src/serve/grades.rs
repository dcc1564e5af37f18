//! Which submissions count, and the instructor's downloads: the files `nimlab grade` writes,
//! made from the database instead of a class folder. The glue to the grade module is
//! [`gradebook`] and [`render`].

use super::db::{self, Db, Summary};
use crate::error::{Error, Result};
use crate::grade::{ExerciseInfo, ExerciseResult, Gradebook, RosterEntry, Status, StudentResult};
use crate::lab::Lab;
use crate::report::CheckReport;
use std::collections::BTreeMap;

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

/// An exercise's points for a judged submission: the case weights passed, scaled to the
/// exercise's points (as `nimlab grade` scores).
pub fn scaled(points: u32, summary: &Summary) -> f64 {
    match (summary.score, summary.max_score) {
        (Some(score), Some(max)) if max > 0 => {
            let value = f64::from(points) * f64::from(score) / f64::from(max);
            (value * 100.0).round() / 100.0
        }
        _ => 0.0,
    }
}

/// The submission that counts per student and exercise, from the judged ones (oldest first).
fn choose(judged: &[Summary], from: GradesFrom) -> BTreeMap<(i64, &str), &Summary> {
    let mut chosen: BTreeMap<(i64, &str), &Summary> = BTreeMap::new();
    for summary in judged {
        let key = (summary.user_id, summary.exercise.as_str());
        let replace = match (from, chosen.get(&key)) {
            (_, None) | (GradesFrom::Latest, Some(_)) => true,
            (GradesFrom::Best, Some(current)) => scaled(100, summary) >= scaled(100, current),
        };
        if replace {
            chosen.insert(key, summary);
        }
    }
    chosen
}

/// The best judged submission of each exercise: highest score, the latest among equals.
pub fn best_by_exercise(judged: &[Summary]) -> std::collections::HashMap<&str, &Summary> {
    let mut best: std::collections::HashMap<&str, &Summary> = std::collections::HashMap::new();
    for summary in judged {
        let fraction = |s: &Summary| {
            let (score, max) = (s.score.unwrap_or(0), s.max_score.unwrap_or(0).max(1));
            f64::from(score) / f64::from(max)
        };
        let better = best
            .get(summary.exercise.as_str())
            .is_none_or(|current| fraction(summary) >= fraction(current));
        if better {
            best.insert(&summary.exercise, summary);
        }
    }
    best
}

/// Writes the submissions that count as a class folder `nimlab grade` reads
/// (`OUT/<student>/<exercise>.py`, and `roster.csv` with every student account), so a batch
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
        let Some(user) = users.iter().find(|u| u.id == *user_id) else {
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
    for user in users.iter().filter(|u| !u.is_instructor()) {
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
        let write = |path: &std::path::Path, bytes: &[u8]| -> Result<()> {
            std::fs::create_dir_all(path.parent().expect("a file inside the folder"))
                .and_then(|()| std::fs::write(path, bytes))
                .map_err(|e| Error::unwritable(path, e))
        };
        for (relative, bytes) in &files {
            write(&folder.join(relative), bytes.as_ref())?;
        }
        write(&folder.join("roster.csv"), &roster)
    })?;
    Ok(count)
}

/// The gradebook of every student account, from each one's best (or latest) judged
/// submission per exercise.
pub fn gradebook(lab: &Lab, db: &Db, from: GradesFrom, isolation: &str) -> Result<Gradebook> {
    let users = db.with(|c| db::users(c))?;
    let judged = db.with(|c| db::judged(c, None))?;
    let chosen = choose(&judged, from);
    let mut students = Vec::new();
    for user in users.iter().filter(|u| !u.is_instructor()) {
        let mut exercises = BTreeMap::new();
        for exercise in &lab.exercises {
            let result = match chosen.get(&(user.id, exercise.name.as_str())) {
                Some(summary) => {
                    let id = summary.id;
                    let report: Option<CheckReport> = db
                        .with(move |c| db::report(c, id))?
                        .and_then(|text| serde_json::from_str(&text).ok());
                    ExerciseResult {
                        status: Status::Graded,
                        file: Some(format!("submission {}: {}", summary.id, summary.filename)),
                        points: scaled(exercise.config.points, summary),
                        error: None,
                        report,
                    }
                }
                None => ExerciseResult {
                    status: Status::Missing,
                    file: None,
                    points: 0.0,
                    error: None,
                    report: None,
                },
            };
            exercises.insert(exercise.name.clone(), result);
        }
        let total = (exercises.values().map(|r| r.points).sum::<f64>() * 100.0).round() / 100.0;
        // The roster's id where the account has one; else the username, unique too.
        let student_id = if user.student_id.is_empty() {
            user.username.clone()
        } else {
            user.student_id.clone()
        };
        students.push(StudentResult {
            student: user.username.clone(),
            student_id,
            roster: Some(RosterEntry {
                name: user.name.clone(),
                id: user.student_id.clone(),
                section: user.section.clone(),
            }),
            exercises,
            total,
        });
    }
    students.sort_by(|a, b| a.student.cmp(&b.student));
    Ok(Gradebook {
        nimlab_version: env!("CARGO_PKG_VERSION").to_string(),
        lab: lab.origin.to_string(),
        exercises: ExerciseInfo::of_lab(lab),
        students,
        unattributed: Vec::new(),
        superseded: Vec::new(),
        skipped: Vec::new(),
        isolation: isolation.to_string(),
    })
}

/// One of [`FILES`], rendered by the grade module's exporters.
pub fn render(book: &Gradebook, file: &str) -> Result<Vec<u8>> {
    if !FILES.iter().any(|(name, _)| *name == file) {
        return Err(Error::usage(format!("no download named {file}")));
    }
    crate::grade::export::render_one(book, file)?
        .ok_or_else(|| Error::fault(format!("{file}: no exporter writes it")))
}
