//! `nimlab grade`: a whole class folder into a gradebook and reports.
//!
//! Submissions are found, graded in parallel (each with the same check a student runs), and
//! gathered in a [`Gradebook`], which `results.json` holds in full; every other report is
//! rendered from it, so shards merged give exactly what one run gives.

pub mod export;
mod html;

use crate::check::{self, CheckRequest};
use crate::lab::{Lab, LabExercise};
use crate::report::{CheckReport, Silent};
use crate::runner::{ProcessRunner, Runner};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Whether nimlab was interrupted (Ctrl-C): no new submission starts, running programs are
/// stopped, and what they leave is not kept.
fn interrupted() -> bool {
    crate::stop::requested()
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Gradebook {
    pub nimlab_version: String,
    pub lab: String,
    pub exercises: Vec<ExerciseInfo>,
    /// Sorted by student.
    pub students: Vec<StudentResult>,
    /// Files under the class folder that name no student's exercise, relative to it.
    pub unattributed: Vec<String>,
    /// Files not graded because another file of the same student and exercise was.
    #[serde(default)]
    pub superseded: Vec<Superseded>,
    pub isolation: String,
}

/// A second file for one student's exercise, and the one graded instead.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Superseded {
    pub file: String,
    pub graded: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ExerciseInfo {
    pub name: String,
    pub title: String,
    pub points: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StudentResult {
    pub student: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roster: Option<RosterEntry>,
    /// By exercise name; every exercise of the lab has an entry.
    pub exercises: BTreeMap<String, ExerciseResult>,
    pub total: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Default)]
pub struct RosterEntry {
    pub name: String,
    pub id: String,
    pub section: String,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Graded,
    Missing,
    /// nimlab could not grade it (an unreadable file, say): never scored as the student's.
    Error,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExerciseResult {
    pub status: Status,
    /// Relative to the class folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The case weights passed, scaled to the exercise's points.
    pub points: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<CheckReport>,
}

impl ExerciseResult {
    pub fn verdict_label(&self) -> String {
        match (&self.status, &self.report) {
            (Status::Graded, Some(report)) => report.verdict.label().to_string(),
            (Status::Missing, _) => "missing".into(),
            _ => "not graded".into(),
        }
    }
}

pub struct GradeOptions<'a> {
    pub dir: &'a Path,
    pub out: &'a Path,
    pub interpreters: Option<Vec<String>>,
    pub jobs: usize,
    pub roster: Option<&'a Path>,
    /// (k, n): grade the k-th of n shards (1-based).
    pub shard: Option<(usize, usize)>,
    pub force: bool,
    pub progress: bool,
}

/// One file found for one student's exercise.
#[derive(Debug, Clone)]
pub struct Found {
    pub student: String,
    pub exercise: String,
    pub file: PathBuf,
    pub relative: String,
    /// Whether the file's folder is the student's own (so its siblings may be imported).
    pub own_folder: bool,
}

/// The student a folder or file name stands for: learning platforms add `_ID_...` after it.
fn student_of(name: &str) -> String {
    name.split('_').next().unwrap_or(name).trim().to_string()
}

/// Finds submissions: `DIR/<student>/<exercise>.py`, or flat `DIR/<student>_<...>_<exercise>.py`
/// as platforms' bulk downloads name them.
pub fn discover(lab: &Lab, dir: &Path) -> Result<(Vec<Found>, Vec<String>)> {
    if !dir.is_dir() {
        bail!("{}: no such folder", dir.display());
    }
    let mut found = Vec::new();
    let mut unattributed = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .min_depth(1)
        .max_depth(4)
        .sort_by_file_name()
    {
        let entry =
            entry.with_context(|| format!("{}: cannot read the class folder", dir.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry
            .path()
            .strip_prefix(dir)
            .expect("below the root")
            .to_path_buf();
        let relative_text = relative.display().to_string();
        if relative.extension().is_none_or(|x| x != "py") {
            // A roster or a platform's index file is no submission; anything else is listed.
            if !relative_text.ends_with(".csv") && !relative_text.ends_with(".md") {
                unattributed.push(relative_text);
            }
            continue;
        }
        let parts: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let stem = relative
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let (student, named, own_folder) = if parts.len() >= 2 {
            (student_of(&parts[0]), stem.clone(), true)
        } else {
            let (student, rest) = stem.split_once('_').unwrap_or(("", ""));
            (student.to_string(), rest.to_string(), false)
        };
        let exercise = lab
            .detect_exercise(Path::new(&format!("{named}.py")))
            .filter(|_| !student.is_empty())
            .map(|e| e.name.clone());
        match exercise {
            Some(exercise) => found.push(Found {
                student,
                exercise,
                file: entry.path().to_path_buf(),
                relative: relative_text,
                own_folder,
            }),
            // Helper modules beside a student's exercises are theirs to import, not stray.
            None if own_folder => {}
            None => unattributed.push(relative_text),
        }
    }
    Ok((found, unattributed))
}

/// Reads a roster CSV: a header with `student` (required) and optionally `name`, `id`, `section`.
pub fn read_roster(path: &Path) -> Result<BTreeMap<String, RosterEntry>> {
    let mut reader = csv::Reader::from_path(path)
        .with_context(|| format!("{}: cannot read the roster", path.display()))?;
    let headers: Vec<String> = reader
        .headers()
        .with_context(|| format!("{}: the roster has no header row", path.display()))?
        .iter()
        .map(|h| h.trim().to_lowercase())
        .collect();
    let column = |name: &str| headers.iter().position(|h| h == name);
    let student = column("student")
        .with_context(|| format!("{}: the roster needs a `student` column", path.display()))?;
    let mut roster = BTreeMap::new();
    for (line, record) in reader.records().enumerate() {
        let record =
            record.with_context(|| format!("{}: row {} is malformed", path.display(), line + 2))?;
        let get = |i: Option<usize>| {
            i.and_then(|i| record.get(i))
                .unwrap_or("")
                .trim()
                .to_string()
        };
        let key = get(Some(student));
        if key.is_empty() {
            bail!("{}: row {} has no student", path.display(), line + 2);
        }
        roster.insert(
            key,
            RosterEntry {
                name: get(column("name")),
                id: get(column("id")),
                section: get(column("section")),
            },
        );
    }
    Ok(roster)
}

/// Whether `student` falls in shard `k` of `n`: by a hash of the name, so a student's shard
/// does not depend on who else is in the class.
pub fn in_shard(student: &str, (k, n): (usize, usize)) -> bool {
    let digest = Sha256::digest(student.as_bytes());
    let value = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
    (value % n as u64) as usize == k - 1
}

/// What a cached result depends on: nimlab, the exercise (settings and cases), the
/// interpreters, the file's name and every file the program can read.
fn cache_key(exercise: &LabExercise, interpreters: &[String], found: &Found) -> Result<String> {
    let mut hash = Sha256::new();
    hash.update(env!("CARGO_PKG_VERSION"));
    hash.update(format!("{:?}", exercise.config));
    for case in &exercise.cases {
        hash.update(&case.name);
        hash.update(case.input.text());
        hash.update(&case.expected);
    }
    hash.update(interpreters.join(","));
    // The file's own name too: two students' identical files give different reports (a
    // traceback names the file that ran), and one must never see the other's.
    hash.update(found.relative.as_bytes());
    hash.update([u8::from(found.own_folder)]);
    hash.update(
        std::fs::read(&found.file)
            .with_context(|| format!("{}: cannot read", found.file.display()))?,
    );
    if found.own_folder
        && let Some(folder) = found.file.parent()
    {
        let mut siblings: Vec<PathBuf> = std::fs::read_dir(folder)
            .map(|d| {
                d.filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "py"))
                    .collect()
            })
            .unwrap_or_default();
        siblings.sort();
        for sibling in siblings {
            hash.update(sibling.to_string_lossy().as_bytes());
            hash.update(std::fs::read(&sibling).unwrap_or_default());
        }
    }
    Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

fn scaled(exercise: &LabExercise, report: &CheckReport) -> f64 {
    if report.max_score == 0 {
        return 0.0;
    }
    let points =
        f64::from(exercise.config.points) * f64::from(report.score) / f64::from(report.max_score);
    (points * 100.0).round() / 100.0
}

/// Grades the class and writes every report into `out`; returns the gradebook.
pub fn grade(lab: &Lab, options: &GradeOptions) -> Result<Gradebook> {
    let (mut found, unattributed) = discover(lab, options.dir)?;
    let roster = options.roster.map(read_roster).transpose()?;
    // One file per student and exercise: where there are several, the last by name counts
    // and the others are listed.
    found.sort_by(|a, b| {
        (&a.student, &a.exercise, &a.relative).cmp(&(&b.student, &b.exercise, &b.relative))
    });
    let mut set_aside = Vec::new();
    found.dedup_by(|later, earlier| {
        let same = later.student == earlier.student && later.exercise == earlier.exercise;
        if same {
            std::mem::swap(later, earlier);
            set_aside.push((
                later.student.clone(),
                later.relative.clone(),
                earlier.exercise.clone(),
            ));
        }
        same
    });
    let graded_file = |student: &str, exercise: &str| {
        found
            .iter()
            .find(|f| f.student == student && f.exercise == exercise)
            .map(|f| f.relative.clone())
            .unwrap_or_default()
    };
    let mut superseded: Vec<(String, Superseded)> = set_aside
        .into_iter()
        .map(|(student, file, exercise)| {
            let graded = graded_file(&student, &exercise);
            (student, Superseded { file, graded })
        })
        .collect();
    let mut students: Vec<String> = found.iter().map(|f| f.student.clone()).collect();
    if let Some(roster) = &roster {
        students.extend(roster.keys().cloned());
    }
    students.sort();
    students.dedup();
    if let Some(shard) = options.shard {
        students.retain(|s| in_shard(s, shard));
        found.retain(|f| in_shard(&f.student, shard));
        superseded.retain(|(student, _)| in_shard(student, shard));
    }
    let gradable = found;

    let cache_dir = options.out.join(".cache");
    std::fs::create_dir_all(&cache_dir)
        .with_context(|| format!("{}: cannot create", cache_dir.display()))?;
    let results: Mutex<BTreeMap<(String, String), ExerciseResult>> = Mutex::new(BTreeMap::new());
    let next = AtomicUsize::new(0);
    let cache_in_use: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let progress = indicatif::ProgressBar::with_draw_target(
        Some(gradable.len() as u64),
        if options.progress {
            indicatif::ProgressDrawTarget::stderr()
        } else {
            indicatif::ProgressDrawTarget::hidden()
        },
    );
    progress.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} submissions, {elapsed} ({msg})",
        )
        .expect("a valid template"),
    );
    let runner = Arc::new(ProcessRunner::detect());
    let names = lab.names();
    // Jobs go to submissions first; with fewer submissions than jobs, the rest go to cases.
    let workers = options.jobs.max(1).min(gradable.len().max(1));
    let case_jobs = (options.jobs.max(1) / workers).max(1);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    if interrupted() {
                        break;
                    }
                    let Some(item) = gradable.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    progress.set_message(format!("{} {}", item.student, item.exercise));
                    let (result, key) = grade_one(
                        lab,
                        &names,
                        item,
                        options,
                        case_jobs,
                        &cache_dir,
                        runner.as_ref(),
                    );
                    cache_in_use.lock().expect("no worker panics").extend(key);
                    if interrupted() {
                        break; // finished after Ctrl-C: possibly cut short, so not kept
                    }
                    results
                        .lock()
                        .expect("no worker panics")
                        .insert((item.student.clone(), item.exercise.clone()), result);
                    progress.inc(1);
                }
            });
        }
    });
    progress.finish_and_clear();
    let results = results.into_inner().expect("no worker panics");
    let handed_in: BTreeMap<(String, String), &String> = gradable
        .iter()
        .map(|item| {
            (
                (item.student.clone(), item.exercise.clone()),
                &item.relative,
            )
        })
        .collect();

    let gradebook = Gradebook {
        nimlab_version: env!("CARGO_PKG_VERSION").to_string(),
        lab: lab.origin.to_string(),
        exercises: lab
            .exercises
            .iter()
            .map(|e| ExerciseInfo {
                name: e.name.clone(),
                title: e.config.title.clone(),
                points: e.config.points,
            })
            .collect(),
        students: students
            .iter()
            .map(|student| {
                let exercises: BTreeMap<String, ExerciseResult> = lab
                    .exercises
                    .iter()
                    .map(|exercise| {
                        let key = (student.clone(), exercise.name.clone());
                        let result = results.get(&key).cloned().unwrap_or_else(|| {
                            // Handed in but not graded: only an interruption leaves that.
                            match handed_in.get(&key) {
                                Some(file) => ExerciseResult {
                                    status: Status::Error,
                                    file: Some((*file).clone()),
                                    points: 0.0,
                                    error: Some("not graded: nimlab was interrupted".into()),
                                    report: None,
                                },
                                None => ExerciseResult {
                                    status: Status::Missing,
                                    file: None,
                                    points: 0.0,
                                    error: None,
                                    report: None,
                                },
                            }
                        });
                        (exercise.name.clone(), result)
                    })
                    .collect();
                let total =
                    (exercises.values().map(|r| r.points).sum::<f64>() * 100.0).round() / 100.0;
                StudentResult {
                    student: student.clone(),
                    roster: roster.as_ref().and_then(|r| r.get(student).cloned()),
                    exercises,
                    total,
                }
            })
            .collect(),
        unattributed,
        superseded: {
            let mut files: Vec<Superseded> = superseded.into_iter().map(|(_, s)| s).collect();
            files.sort();
            files
        },
        isolation: runner.isolation().summary(),
    };
    export::write_all(&gradebook, options.out)?;
    if options.shard.is_none() && !interrupted() {
        let in_use = cache_in_use.into_inner().expect("no worker panics");
        prune_cache(&cache_dir, &in_use);
    }
    Ok(gradebook)
}

/// Removes the cached results (files named by their keys) that no submission of this run
/// used: earlier versions of files, students gone from the folder, so OUT/.cache does not
/// grow without end. Only after a whole run: a shard or an interrupted run has not seen every
/// submission.
fn prune_cache(cache_dir: &Path, in_use: &BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(cache_dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let key = name.strip_suffix(".json");
        if key.is_some_and(|key| !in_use.contains(key)) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn grade_one(
    lab: &Lab,
    names: &[&str],
    item: &Found,
    options: &GradeOptions,
    case_jobs: usize,
    cache_dir: &Path,
    runner: &ProcessRunner,
) -> (ExerciseResult, Option<String>) {
    let exercise = lab
        .exercise(&item.exercise)
        .expect("discovered exercises are in the lab");
    let interpreters = options
        .interpreters
        .clone()
        .unwrap_or_else(|| exercise.config.interpreters.clone());
    let failed = |error: String| ExerciseResult {
        status: Status::Error,
        file: Some(item.relative.clone()),
        points: 0.0,
        error: Some(error),
        report: None,
    };
    let key = match cache_key(exercise, &interpreters, item) {
        Ok(key) => key,
        Err(e) => return (failed(format!("{e:#}")), None),
    };
    let cached = cache_dir.join(format!("{key}.json"));
    let report = match std::fs::read(&cached)
        .ok()
        .filter(|_| !options.force)
        .and_then(|b| serde_json::from_slice::<CheckReport>(&b).ok())
    {
        Some(report) => report,
        None => {
            let request = CheckRequest {
                exercise,
                lab_names: names,
                submission: &item.file,
                interpreters: &interpreters,
                jobs: case_jobs,
                siblings: item.own_folder,
            };
            match check::check(&request, runner, &mut Silent) {
                Ok(mut report) => {
                    report.submission = item.relative.clone();
                    let judged_by_nimlab_fault =
                        report.verdict == crate::judge::Verdict::JudgeError;
                    if !judged_by_nimlab_fault && !interrupted() {
                        let _ = crate::fsutil::write_atomic(
                            &cached,
                            &serde_json::to_vec(&report).unwrap_or_default(),
                        );
                    }
                    report
                }
                Err(e) => return (failed(e.to_string()), Some(key)),
            }
        }
    };
    let result = ExerciseResult {
        status: Status::Graded,
        file: Some(item.relative.clone()),
        points: scaled(exercise, &report),
        error: None,
        report: Some(report),
    };
    (result, Some(key))
}

/// Combines the results of shards into one gradebook (as one run over the whole class).
pub fn merge(parts: &[Gradebook]) -> Result<Gradebook> {
    let Some(first) = parts.first() else {
        bail!("nothing to merge");
    };
    let mut merged = first.clone();
    merged.students.clear();
    merged.unattributed.clear();
    merged.superseded.clear();
    let mut seen = BTreeMap::new();
    for part in parts {
        if part.exercises != first.exercises || part.nimlab_version != first.nimlab_version {
            bail!(
                "the results were made with different labs or nimlab versions and cannot be merged"
            );
        }
        for student in &part.students {
            if seen.insert(student.student.clone(), ()).is_some() {
                bail!("student `{}` is in more than one shard", student.student);
            }
            merged.students.push(student.clone());
        }
        merged
            .unattributed
            .extend(part.unattributed.iter().cloned());
        merged.superseded.extend(part.superseded.iter().cloned());
    }
    merged.superseded.sort();
    merged.superseded.dedup();
    merged.students.sort_by(|a, b| a.student.cmp(&b.student));
    merged.unattributed.sort();
    merged.unattributed.dedup();
    Ok(merged)
}
