//! `nimlab classroom [DIR]`: a student's repository graded for GitHub Classroom's
//! autograding reporter, and `nimlab init --ci github`: the workflow that runs it on push.

use super::stdout_error;
use crate::cli::{CiSystem, ClassroomArgs};
use nimlab_core::check::{self, CheckRequest};
use nimlab_core::error::{Error, Result};
use nimlab_core::escape;
use nimlab_core::exit;
use nimlab_core::grade::ExerciseResult;
use nimlab_core::grade::builder::{self, GradebookBuilder};
use nimlab_core::grade::export::classroom::Results;
use nimlab_core::lab::Lab;
use nimlab_core::report::Silent;
use nimlab_core::stop::Stop;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

pub fn classroom(lab: &Lab, args: &ClassroomArgs) -> Result<u8> {
    let dir = &args.dir;
    if !dir.is_dir() {
        return Err(Error::input(
            dir,
            "no such folder (the student's repository)",
        ));
    }
    if let Some(list) = &args.python
        && list.iter().any(|i| i.trim().is_empty())
    {
        return Err(Error::usage(
            "--python: an empty interpreter name in the list",
        ));
    }
    let (files, notes) = exercise_files(lab, dir)?;
    let mut out = anstream::stdout();
    for note in &notes {
        writeln!(out, "{}", escape::terminal(note)).map_err(stdout_error)?;
    }
    let runner = super::runner(args.runner);
    let stop = Stop::on_ctrl_c();
    let results = grade_files(lab, &files, args, runner.as_ref(), &stop)?;
    if stop.requested() {
        eprintln!("interrupted: no results written");
        return Ok(exit::INTERRUPTED);
    }
    let mut book = GradebookBuilder::new(lab, runner.isolation().summary());
    book.student("student".into(), "student".into(), None, results);
    let book = book.finish();
    let results = Results::of(&book, &book.students[0]);
    for test in &results.tests {
        writeln!(
            out,
            "{:<5} {:>6}  {}: {}",
            test.status,
            nimlab_points(test.score),
            escape::terminal(&test.name),
            escape::terminal(&test.message)
        )
        .map_err(stdout_error)?;
    }
    writeln!(
        out,
        "Total points: {}/{} ({})",
        nimlab_points(results.total()),
        results.max_score,
        results.status
    )
    .map_err(stdout_error)?;
    write_results(&results.encoded(), args.output.as_deref())?;
    Ok(exit::SUCCESS)
}

/// Appends `result=<encoded>` to the file $GITHUB_OUTPUT names, when set, and writes the
/// encoded results to `output`, when given.
fn write_results(encoded: &str, output: Option<&Path>) -> Result<()> {
    if let Some(path) = std::env::var_os("GITHUB_OUTPUT").filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&path)
            .map_err(|e| Error::unwritable(&path, e))?;
        writeln!(file, "result={encoded}").map_err(|e| Error::unwritable(&path, e))?;
    }
    if let Some(path) = output {
        std::fs::write(path, format!("{encoded}\n")).map_err(|e| Error::unwritable(path, e))?;
    }
    Ok(())
}

/// Checks each exercise's file, as a student's check does (a student's view is made from
/// the reports later); until Ctrl-C, after which what is returned is not to be used.
fn grade_files(
    lab: &Lab,
    files: &BTreeMap<String, PathBuf>,
    args: &ClassroomArgs,
    runner: &dyn nimlab_core::runner::Runner,
    stop: &Stop,
) -> Result<BTreeMap<String, ExerciseResult>> {
    let names = lab.names();
    let shared = check::SharedWorkspace::new(runner);
    let mut results: BTreeMap<String, ExerciseResult> = BTreeMap::new();
    for (name, file) in files {
        if stop.requested() {
            break;
        }
        let exercise = lab.exercise(name)?;
        let shown = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let interpreters = args
            .python
            .clone()
            .unwrap_or_else(|| exercise.config.interpreters.clone());
        let result = match &shared {
            Err(e) => builder::not_graded(shown.clone(), e.to_string()),
            Ok(shared) => {
                let request = CheckRequest {
                    exercise,
                    lab_names: &names,
                    lab_exercises: &lab.exercises,
                    submission: file,
                    shown_as: None,
                    interpreters: &interpreters,
                    jobs: nimlab_core::pool::default_jobs(),
                    siblings: true,
                    shared: Some(shared),
                    runs_side_by_side: false,
                    stop,
                };
                match check::check(&request, runner, &mut Silent) {
                    Ok(report) => builder::graded(
                        exercise,
                        shown.clone(),
                        (report.score, report.max_score),
                        1.0,
                        Some(report),
                    ),
                    Err(e) => builder::not_graded(shown.clone(), e.to_string()),
                }
            }
        };
        results.insert(name.clone(), result);
    }
    if let Ok(shared) = shared {
        shared.finish(runner);
    }
    Ok(results)
}

/// Points without trailing zeros.
fn nimlab_points(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The exercise files at the top of `dir`, by exercise, named by their own file name; where
/// several name one exercise, `<exercise>.py` itself, else the first by name. Also what the
/// student should know: the files set aside and the entries not read.
fn exercise_files(lab: &Lab, dir: &Path) -> Result<(BTreeMap<String, PathBuf>, Vec<String>)> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::unreadable(dir, &e))?;
    let mut names: Vec<(String, std::fs::FileType)> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::unreadable(dir, &e))?;
        let file_type = entry
            .file_type()
            .map_err(|e| Error::unreadable(entry.path(), &e))?;
        names.push((entry.file_name().to_string_lossy().into_owned(), file_type));
    }
    names.sort_by(|a, b| a.0.cmp(&b.0));
    let mut by_exercise: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut notes = Vec::new();
    for (name, file_type) in names {
        if !name.to_lowercase().ends_with(".py") {
            continue;
        }
        let Some(exercise) = lab.exercise_named_by_file(&name) else {
            continue;
        };
        if !file_type.is_file() {
            notes.push(format!(
                "{name}: not graded: not a regular file (nimlab does not follow links)"
            ));
            continue;
        }
        by_exercise
            .entry(exercise.name.clone())
            .or_default()
            .push(name);
    }
    let mut files = BTreeMap::new();
    for (exercise, mut candidates) in by_exercise {
        let exact = format!("{exercise}.py");
        let chosen = candidates
            .iter()
            .position(|c| c.eq_ignore_ascii_case(&exact))
            .unwrap_or(0);
        let chosen = candidates.remove(chosen);
        for other in candidates {
            notes.push(format!(
                "{other}: not graded: {chosen} is graded for {exercise}"
            ));
        }
        files.insert(exercise, dir.join(chosen));
    }
    Ok((files, notes))
}

/// The GitHub Actions workflow `nimlab init --ci github` writes.
pub const GITHUB_WORKFLOW: &str = include_str!("classroom.yml");

/// Where `nimlab init --ci github` writes it, in the repository.
pub const GITHUB_WORKFLOW_PATH: &str = ".github/workflows/classroom.yml";

/// The workflow with its install step installing `wheel`, a URL or a path in the repository
/// of a `.whl` file (a URL may end in `#sha256=<hex>`, which pip checks). Only the
/// characters of URLs and paths are taken: the step is a shell line in YAML, and a quote, a
/// space or a `$` there would be code; and a bare name would be a package on PyPI, where
/// nimlab is not published and the name could be anyone's.
fn installing(template: &str, wheel: &str) -> Result<String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-._~:/?=&%+@,#".contains(c);
    let (file, fragment) = wheel.split_once('#').unwrap_or((wheel, ""));
    let pinned = fragment.is_empty()
        || fragment
            .strip_prefix("sha256=")
            .is_some_and(|hex| hex.len() == 64 && hex.chars().all(|c| c.is_ascii_hexdigit()));
    // pip names the file by the URL's path, before any query: a wheel's name.
    let named = file.split('?').next().unwrap_or(file).ends_with(".whl");
    if !wheel.chars().all(plain) || wheel.starts_with('-') || !named || !pinned {
        return Err(Error::usage(format!(
            "--wheel {}: the address or path of a nimlab wheel (a .whl file, optionally followed by #sha256=<hex>), in letters, digits and -._~:/?=&%+@, only",
            escape::terminal(wheel)
        )));
    }
    Ok(template.replace("@WHEEL@", wheel))
}

/// `nimlab init --ci SYSTEM --wheel URL|PATH [DIR]`: writes the workflow into the repository
/// `dir`, never over an existing file.
pub fn init_ci(system: CiSystem, dir: &Path, wheel: Option<&str>) -> Result<u8> {
    let (relative, template) = match system {
        CiSystem::Github => (GITHUB_WORKFLOW_PATH, GITHUB_WORKFLOW),
    };
    let Some(wheel) = wheel else {
        return Err(Error::usage(
            "--ci github needs --wheel URL|PATH: the nimlab wheel the workflow installs (nimlab is not published on PyPI, and a package named nimlab there could be anyone's)",
        ));
    };
    let contents = installing(template, wheel)?;
    if !dir.is_dir() {
        return Err(Error::input(dir, "no such folder (the repository)"));
    }
    let path = dir.join(relative);
    if std::fs::symlink_metadata(&path).is_ok() {
        return Err(Error::input(
            &path,
            "already exists; nimlab does not overwrite it (remove it to write nimlab's)",
        ));
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::unwritable(parent, e))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => Error::input(
                &path,
                "already exists; nimlab does not overwrite it (remove it to write nimlab's)",
            ),
            _ => Error::unwritable(&path, e),
        })?;
    file.write_all(contents.as_bytes())
        .map_err(|e| Error::unwritable(&path, e))?;
    writeln!(
        anstream::stdout(),
        "Wrote {}. Commit and push it: each push is graded by `nimlab classroom`.",
        path.display()
    )
    .map_err(stdout_error)?;
    Ok(exit::SUCCESS)
}
