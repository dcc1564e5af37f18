//! `nimlab grade`: a whole class folder into a gradebook and reports.
//!
//! The path of a class through it: [`discovery`] surveys the folder (who handed in what,
//! which file counts, what is not read and why); each submission is graded by the same check
//! a student runs, in a small worker pool, unless the [`cache`] holds its report; grading
//! announces [`events`] that reporters show (the progress bar, the summary); the results are
//! gathered in a [`Gradebook`] ([`book`]), assembled by the [`GradebookBuilder`] the website
//! uses too ([`builder`], with the one rule that scales a score to points), which
//! `results.json` holds in full; every other report is rendered from it by one
//! [`export::Exporter`] per format, so shards merged give exactly what one run gives. The
//! class's [`mistakes`] (failing students grouped by cause) are worked out from it too.
//! Imports run one way: book ← builder; book ← discovery ← cache, events; book ← mistakes ←
//! export; this module uses them all.

pub mod book;
pub mod builder;
pub mod cache;
pub mod discovery;
pub mod events;
pub mod export;
pub mod mistakes;

use crate::check::{self, CheckRequest};
use crate::error::{Error, Result};
use crate::lab::Lab;
use crate::report::Silent;
use crate::runner::Runner;
pub use book::{
    ExerciseInfo, ExerciseResult, Gradebook, MergeError, RosterEntry, Skipped, Status,
    StudentResult, Superseded, merge,
};
pub use builder::GradebookBuilder;
use cache::Cache;
use discovery::{Class, Found};
use events::{GradeEvent, GradeReporter};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub struct GradeOptions<'a> {
    pub dir: &'a Path,
    pub out: &'a Path,
    pub interpreters: Option<Vec<String>>,
    pub jobs: usize,
    pub roster: Option<&'a Path>,
    /// (k, n): grade the k-th of n shards (1-based).
    pub shard: Option<(usize, usize)>,
    pub force: bool,
    /// What runs the submissions' programs.
    pub runner: Box<dyn Runner>,
    /// Set when nimlab is interrupted (Ctrl-C): no new submission starts, running programs
    /// are stopped, and what they leave is not kept.
    pub stop: crate::stop::Stop,
}

/// How many students are graded at once unless `--jobs` says: one per core, and with the fork
/// runner one more. A forked run is handed from nimlab to its server to its child and back,
/// each waiting for the next to be scheduled, and a spare worker keeps the cores busy
/// meanwhile (12 students, 2 cores: 8.9 s with 3 workers against 11.1 s with 2). While games
/// waited a millisecond after each prompt, 4 workers did better than 3; since they do not,
/// 3 did better than 4 (30 students: 13.9 s against 14.4 s on average over seven alternating
/// pairs; `bench --class 300`: 127.3 s against 141.1 s).
pub fn default_jobs(forked: bool) -> usize {
    let cores = crate::pool::default_jobs();
    if forked { cores + 1 } else { cores }
}

/// `nimlab grade`: grades the class, writes every report, shows progress on a terminal and
/// prints the summary to `out`.
pub fn run(
    lab: &Lab,
    options: &GradeOptions,
    out: &mut (dyn std::io::Write + Send),
) -> Result<Gradebook> {
    let progress = events::Progress::on_stderr();
    let summary = events::Summary::new(out);
    grade(lab, options, &events::Reporters(vec![&progress, &summary]))
}

/// Grades the class and writes every report into `options.out`; returns the gradebook.
pub fn grade(lab: &Lab, options: &GradeOptions, reporter: &dyn GradeReporter) -> Result<Gradebook> {
    refuse_file_as_out(options.out)?;
    let mut class = discovery::survey(lab, options.dir, options.roster, Some(options.out))?;
    if let Some(shard) = options.shard {
        class.retain_shard(shard);
    }
    let deadlines = read_deadlines(options.dir)?;
    let cache = Cache::open(options.out, options.force)?;
    let runner = options.runner.as_ref();
    let names = lab.names();
    let gradable: Vec<&Found> = class
        .submissions
        .iter()
        .filter(|f| f.unreadable.is_none())
        .collect();
    let _ = reporter.event(&GradeEvent::Surveyed {
        submissions: gradable.len(),
    });
    // A student's submissions are graded one after another by one worker, in a scratch
    // folder they share, so that the interpreters started for the first serve the rest.
    let mut students: Vec<Vec<usize>> = Vec::new();
    let mut group_of: BTreeMap<&str, usize> = BTreeMap::new();
    for (index, found) in gradable.iter().enumerate() {
        let group = *group_of
            .entry(found.student.id.as_str())
            .or_insert_with(|| {
                students.push(Vec::new());
                students.len() - 1
            });
        students[group].push(index);
    }
    // Jobs go to students first; with fewer students than jobs, the rest go to cases.
    let workers = options.jobs.max(1).min(students.len().max(1));
    let case_jobs = (options.jobs.max(1) / workers).max(1);
    let mut results: BTreeMap<(String, String), ExerciseResult> = BTreeMap::new();
    let grader = Grader {
        lab,
        names: &names,
        options,
        case_jobs,
        cache: &cache,
        runner,
        deadlines: deadlines.as_ref(),
    };
    crate::pool::run(
        &students,
        workers,
        &options.stop,
        |_, group| grader.grade_student(group, &gradable, reporter),
        |_, graded| {
            for (index, result) in graded {
                if options.stop.requested() {
                    return Ok(()); // finished after Ctrl-C: possibly cut short, so not kept
                }
                let item = gradable[index];
                let _ = reporter.event(&GradeEvent::Finished {
                    submission: item,
                    result: &result,
                });
                results.insert((item.student.id.clone(), item.exercise.clone()), result);
            }
            Ok::<(), Error>(())
        },
    )?;
    let book = gradebook(lab, class, results, runner.isolation().summary());
    export::write_all(&book, options.out)?;
    let whole = options.shard.is_none() && !options.stop.requested();
    if whole {
        cache.prune();
    }
    reporter
        .event(&GradeEvent::Done {
            book: &book,
            out: options.out,
            interrupted: options.stop.requested(),
        })
        .map_err(|e| Error::internal("cannot write the summary", e))?;
    Ok(book)
}

/// OUT may be a folder (a re-run updates it) or new; a file there is the user's mistake, and
/// nimlab does not overwrite it. Any other failure to write into OUT is nimlab's.
fn refuse_file_as_out(out: &Path) -> Result<()> {
    if std::fs::symlink_metadata(out).is_ok() && !out.is_dir() {
        return Err(Error::input(
            out,
            "exists and is not a folder; nimlab does not overwrite it",
        ));
    }
    Ok(())
}

/// The gradebook of a surveyed class from its submissions' results: every student with an
/// entry for every exercise.
fn gradebook(
    lab: &Lab,
    class: Class,
    mut results: BTreeMap<(String, String), ExerciseResult>,
    isolation: String,
) -> Gradebook {
    // Handed in but without a result: not read, or (only an interruption leaves that) not
    // graded yet.
    for found in &class.submissions {
        let key = (found.student.id.clone(), found.exercise.clone());
        results.entry(key).or_insert_with(|| {
            let error = match &found.unreadable {
                Some(reason) => format!("not graded: {} is {reason}", found.relative),
                None => "not graded: nimlab was interrupted".into(),
            };
            builder::not_graded(found.relative.clone(), error)
        });
    }
    let mut book = GradebookBuilder::new(lab, isolation);
    for student in &class.students {
        let theirs: BTreeMap<String, ExerciseResult> = lab
            .exercises
            .iter()
            .filter_map(|exercise| {
                let key = (student.id.clone(), exercise.name.clone());
                Some((exercise.name.clone(), results.remove(&key)?))
            })
            .collect();
        book.student(
            student.name.clone(),
            student.id.clone(),
            class.roster.get(&student.id).cloned(),
            theirs,
        );
    }
    let mut superseded: Vec<Superseded> = class.superseded.into_iter().map(|(_, s)| s).collect();
    superseded.sort();
    book.files_not_graded(class.unattributed, superseded, class.skipped);
    book.finish()
}

/// The deadlines a class folder exported from the website carries (`deadlines.json`), if
/// it has them.
fn read_deadlines(dir: &Path) -> Result<Option<crate::deadline::ClassDeadlines>> {
    let path = dir.join(crate::deadline::CLASS_FILE);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::unreadable(&path, &e)),
    };
    serde_json::from_slice(&bytes).map(Some).map_err(|e| {
        Error::input(
            &path,
            format!("not the deadlines file `nimlab export submissions` writes: {e}"),
        )
    })
}

/// What every submission is graded with.
struct Grader<'a> {
    lab: &'a Lab,
    names: &'a [&'a str],
    options: &'a GradeOptions<'a>,
    case_jobs: usize,
    cache: &'a Cache,
    runner: &'a dyn Runner,
    /// The deadlines of a class exported from the website, applied by the one rule.
    deadlines: Option<&'a crate::deadline::ClassDeadlines>,
}

impl Grader<'_> {
    /// One student's submissions (indexes into `gradable`), in order, until nimlab is
    /// interrupted.
    fn grade_student(
        &self,
        group: &[usize],
        gradable: &[&Found],
        reporter: &dyn GradeReporter,
    ) -> Vec<(usize, ExerciseResult)> {
        let shared = check::SharedWorkspace::new(self.runner);
        let mut graded = Vec::with_capacity(group.len());
        for &index in group {
            if self.options.stop.requested() {
                break;
            }
            let item = gradable[index];
            let _ = reporter.event(&GradeEvent::Started(item));
            let result = match &shared {
                Ok(shared) => self.grade_one(item, shared),
                Err(e) => self.failed(item, e.to_string()),
            };
            graded.push((index, result));
        }
        if let Ok(shared) = shared {
            shared.finish(self.runner);
        }
        graded
    }

    fn failed(&self, item: &Found, error: String) -> ExerciseResult {
        builder::not_graded(item.relative.clone(), error)
    }

    fn grade_one(&self, item: &Found, shared: &check::SharedWorkspace) -> ExerciseResult {
        let exercise = self
            .lab
            .exercise(&item.exercise)
            .expect("discovered exercises are in the lab");
        let interpreters = self
            .options
            .interpreters
            .clone()
            .unwrap_or_else(|| exercise.config.interpreters.clone());
        let failed = |error: String| self.failed(item, error);
        let key = match cache::key(exercise, &interpreters, item) {
            Ok(key) => key,
            Err(e) => return failed(e.to_string()),
        };
        let report = match self.cache.load(&key) {
            Some(report) => report,
            None => {
                let request = CheckRequest {
                    exercise,
                    lab_names: self.names,
                    lab_exercises: &self.lab.exercises,
                    submission: &item.file,
                    shown_as: None,
                    interpreters: &interpreters,
                    jobs: self.case_jobs,
                    siblings: item.own_folder,
                    shared: Some(shared),
                    runs_side_by_side: false,
                    stop: &self.options.stop,
                };
                match check::check(&request, self.runner, &mut Silent) {
                    Ok(mut report) => {
                        report.submission = item.relative.clone();
                        let judged_by_nimlab_fault =
                            report.verdict == crate::judge::Verdict::JudgeError;
                        if !judged_by_nimlab_fault && !self.options.stop.requested() {
                            self.cache.store(&key, &report);
                        }
                        report
                    }
                    Err(e) => return failed(e.to_string()),
                }
            }
        };
        let timeliness = match self.timeliness(item) {
            Ok(timeliness) => timeliness,
            Err(e) => return failed(e),
        };
        builder::graded(
            exercise,
            item.relative.clone(),
            (report.score, report.max_score),
            timeliness.factor,
            Some(report),
        )
    }

    /// What the deadline rule says of a submission, where the class folder carries the
    /// deadlines and the file's time (an export of the website's submissions); on time
    /// otherwise.
    fn timeliness(&self, item: &Found) -> std::result::Result<crate::deadline::Timeliness, String> {
        let on_time = crate::deadline::Timeliness::ON_TIME;
        let Some(deadlines) = self.deadlines else {
            return Ok(on_time);
        };
        let student = item.relative.split('/').next().unwrap_or_default();
        deadlines
            .timeliness(&item.relative, student, &item.exercise)
            .map(|timeliness| timeliness.unwrap_or(on_time))
            .map_err(|e| format!("{}: {e}", crate::deadline::CLASS_FILE))
    }
}

/// `nimlab merge`: reads the shards' results.json, writes the reports one run gives into
/// `out_dir`, and says so on `out`. A shard's results.json that is missing, malformed or
/// does not fit the others is the user's error, named with its file.
pub fn merge_folders(
    parts: &[PathBuf],
    out_dir: &Path,
    out: &mut dyn std::io::Write,
) -> Result<Gradebook> {
    refuse_file_as_out(out_dir)?;
    let files: Vec<PathBuf> = parts.iter().map(|p| p.join("results.json")).collect();
    let mut books = Vec::new();
    for file in &files {
        let bytes =
            std::fs::read(file).map_err(|e| Error::input(file, format!("cannot read: {e}")))?;
        books.push(serde_json::from_slice(&bytes).map_err(|e| {
            Error::input(
                file,
                format!("not a results.json written by nimlab grade: {e}"),
            )
        })?);
    }
    let merged = merge(&books).map_err(|error| match &error {
        MergeError::Nothing => Error::usage(error.to_string()),
        MergeError::Mismatch { part } | MergeError::Duplicate { part, .. } => {
            Error::input(&files[*part], error.to_string())
        }
    })?;
    export::write_all(&merged, out_dir)?;
    writeln!(
        out,
        "Merged {} shard(s), {} student(s), into {}",
        parts.len(),
        merged.students.len(),
        out_dir.display()
    )
    .map_err(|e| Error::internal("cannot write the summary", e))?;
    Ok(merged)
}
