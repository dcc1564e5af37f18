//! `nimlab check`: runs one submission on every case of its exercise, under each interpreter,
//! and announces the results as events.

use crate::feedback;
use crate::judge::{self, Verdict, game};
use crate::lab::config::Comparison;
use crate::lab::{Case, LabExercise, Visibility};
use crate::lint;
use crate::report::{
    CaseFeedback, CaseReport, CheckReport, Event, Reporter, RunReport, SyntaxFeedback,
};
use crate::runner::interactive::{Launch, Session};
use crate::runner::interpreter::{self, Interpreter};
use crate::runner::{RunLimits, RunSpec, Runner, Termination};
use crate::syntax;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Sibling files copied next to a submission so it can import them; more or larger is not a
/// lab folder.
pub(crate) const MAX_SIBLINGS: usize = 200;
pub(crate) const MAX_SIBLING_BYTES: u64 = 2 * 1024 * 1024;
/// No answer to a lab exercise is this large; reading it whole would only cost memory.
pub(crate) const MAX_SUBMISSION_BYTES: u64 = 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("{file}: cannot read the submission: {source}")]
    Submission {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}: the submission is {size} bytes; nimlab checks files of at most 1 MiB")]
    TooLarge { file: String, size: u64 },
    #[error("cannot prepare a working folder: {0}")]
    Workspace(#[source] std::io::Error),
    #[error("cannot write the report: {0}")]
    Report(#[source] std::io::Error),
}

pub struct CheckRequest<'a> {
    pub exercise: &'a LabExercise,
    /// Every exercise name in the lab, to recognise imports of sibling exercises.
    pub lab_names: &'a [&'a str],
    pub submission: &'a Path,
    pub interpreters: &'a [String],
    pub jobs: usize,
    /// Whether the `.py` files beside the submission are its own (a student's folder) and may
    /// be imported; not where the folder holds other students' files.
    pub siblings: bool,
}

/// The environment a submission runs in: nothing of the user's, only what Python needs.
/// Scratch folders are `nimlab-PID-…` in the temporary folder.
const WORKSPACE_PREFIX: &str = "nimlab-";

/// Removes the scratch folders of nimlab processes that were killed before they could clean
/// up (their programs died with them), once per nimlab process. Only folders whose process is
/// gone and that have not changed for a minute, so a live nimlab in another PID namespace
/// sharing this /tmp is left alone.
fn remove_stale_workspaces() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
            return;
        };
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = name
                .strip_prefix(WORKSPACE_PREFIX)
                .and_then(|rest| rest.split('-').next())
                .and_then(|pid| pid.parse::<u32>().ok())
            else {
                continue;
            };
            let idle = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|at| at.elapsed().ok())
                .is_some_and(|idle| idle > std::time::Duration::from_secs(60));
            let ours = entry.file_type().is_ok_and(|t| t.is_dir());
            if ours && idle && !Path::new(&format!("/proc/{pid}")).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    });
}

/// A case that nimlab's interruption (Ctrl-C) kept from being judged.
fn interrupted(mut report: CaseReport) -> CaseReport {
    report.verdict = Verdict::Skipped;
    report.time_ms = 0;
    report.wall_ms = 0;
    report.message = "not judged: nimlab was interrupted".into();
    report.feedback = None;
    report
}

pub(crate) fn clean_env(home: &Path) -> Vec<(OsString, OsString)> {
    vec![
        ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
        ("HOME".into(), home.into()),
        ("TMPDIR".into(), home.into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("LC_ALL".into(), "C.UTF-8".into()),
        ("PYTHONIOENCODING".into(), "utf-8".into()),
        ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
        ("PYTHONHASHSEED".into(), "0".into()),
    ]
}

/// A game's program must print each prompt before it blocks for the answer.
fn game_env(home: &Path) -> Vec<(OsString, OsString)> {
    let mut env = clean_env(home);
    env.push(("PYTHONUNBUFFERED".into(), "1".into()));
    env
}

/// A private copy of the submission and the `.py` files beside it, so the program can import
/// its own modules and nothing it does touches the student's folder.
fn snapshot(submission: &Path, into: &Path, siblings: bool) -> Result<PathBuf, CheckError> {
    std::fs::create_dir_all(into).map_err(CheckError::Workspace)?;
    let name = submission
        .file_name()
        .unwrap_or_else(|| "submission.py".as_ref());
    let target = into.join(name);
    std::fs::copy(submission, &target).map_err(|source| CheckError::Submission {
        file: submission.display().to_string(),
        source,
    })?;
    let folder = submission
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let entries = if siblings {
        std::fs::read_dir(folder).ok()
    } else {
        None
    };
    if let Some(entries) = entries {
        let siblings = entries
            .filter_map(Result::ok)
            .filter(|e| {
                e.path().extension().is_some_and(|x| x == "py")
                    && e.file_name() != name
                    && e.metadata()
                        .is_ok_and(|m| m.is_file() && m.len() <= MAX_SIBLING_BYTES)
            })
            .take(MAX_SIBLINGS);
        for entry in siblings {
            // A sibling that cannot be copied only matters if imported: the run will say so.
            let _ = std::fs::copy(entry.path(), into.join(entry.file_name()));
        }
    }
    Ok(target)
}

pub fn check(
    request: &CheckRequest,
    runner: &dyn Runner,
    reporter: &mut dyn Reporter,
) -> Result<CheckReport, CheckError> {
    let exercise = request.exercise;
    let display = request.submission.display().to_string();
    let size = std::fs::metadata(request.submission)
        .map_err(|source| CheckError::Submission {
            file: display.clone(),
            source,
        })?
        .len();
    if size > MAX_SUBMISSION_BYTES {
        return Err(CheckError::TooLarge {
            file: display,
            size,
        });
    }
    let source = std::fs::read(request.submission).map_err(|source| CheckError::Submission {
        file: display.clone(),
        source,
    })?;
    reporter
        .event(&Event::Started {
            exercise: &exercise.name,
            title: &exercise.config.title,
            submission: &display,
        })
        .map_err(CheckError::Report)?;
    let warnings = lint::lint(
        &String::from_utf8_lossy(&source),
        &exercise.config.forbidden,
    );
    remove_stale_workspaces();
    let workspace = tempfile::Builder::new()
        .prefix(&format!("{WORKSPACE_PREFIX}{}-", std::process::id()))
        .tempdir()
        .map_err(CheckError::Workspace)?;
    let snapshot_dir = workspace.path().join("submission");
    let program = snapshot(request.submission, &snapshot_dir, request.siblings)?;
    let original_dir = std::path::absolute(request.submission)
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_default();

    let mut runs = Vec::new();
    for (index, wanted) in request.interpreters.iter().enumerate() {
        let interpreter = interpreter::resolve(wanted);
        let context = RunContext {
            request,
            runner,
            program: &program,
            source: &source,
            workspace: &workspace.path().join(format!("run-{index}")),
            path_map: (
                snapshot_dir.display().to_string(),
                original_dir.display().to_string(),
            ),
            expose: std::slice::from_ref(&snapshot_dir),
        };
        let run = context.run(&interpreter, reporter)?;
        reporter
            .event(&Event::RunFinished(&run))
            .map_err(CheckError::Report)?;
        runs.push(run);
    }

    let counted: Vec<&RunReport> = runs
        .iter()
        .filter(|r| r.verdict != Verdict::Skipped)
        .collect();
    let mut verdict = Verdict::worst(counted.iter().map(|r| r.verdict));
    let mut score = counted.iter().map(|r| r.score).min().unwrap_or(0);
    if warnings.iter().any(|w| w.fails) {
        // The lab forbids this construct outright: the answers don't count.
        verdict = Verdict::worst([verdict, Verdict::WrongAnswer]);
        score = 0;
    }
    let report = CheckReport {
        exercise: exercise.name.clone(),
        submission: display,
        verdict,
        score,
        max_score: exercise.max_score(),
        hints: cross_run_hints(&counted),
        runs,
        warnings,
        isolation: runner.isolation().summary(),
    };
    reporter
        .event(&Event::Finished(&report))
        .map_err(CheckError::Report)?;
    Ok(report)
}

fn cross_run_hints(runs: &[&RunReport]) -> Vec<String> {
    let passed: Vec<String> = runs
        .iter()
        .filter(|r| r.verdict == Verdict::Accepted)
        .map(|r| r.label())
        .collect();
    let failed: Vec<String> = runs
        .iter()
        .filter(|r| r.verdict != Verdict::Accepted)
        .map(|r| r.label())
        .collect();
    if passed.is_empty() || failed.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "Your program passes under {} but not under {}. The lab needs both: keep `from __future__ import print_function, division` at the top, use // for whole-number division, and avoid features only one version has.",
        passed.join(", "),
        failed.join(", ")
    )]
}

struct RunContext<'a> {
    request: &'a CheckRequest<'a>,
    runner: &'a dyn Runner,
    program: &'a Path,
    source: &'a [u8],
    workspace: &'a Path,
    /// Tracebacks name the private copy; students should see their own folder.
    path_map: (String, String),
    /// The private copy's folder: all a program may see of the machine's files, in a sandbox.
    expose: &'a [PathBuf],
}

impl RunContext<'_> {
    fn run(
        &self,
        interpreter: &Interpreter,
        reporter: &mut dyn Reporter,
    ) -> Result<RunReport, CheckError> {
        let exercise = self.request.exercise;
        let mut run = RunReport {
            interpreter: interpreter.request.clone(),
            version: None,
            path: interpreter.path.as_ref().map(|p| p.display().to_string()),
            verdict: Verdict::Skipped,
            score: 0,
            max_score: exercise.max_score(),
            message: None,
            syntax: None,
            cases: Vec::new(),
        };
        let Some(path) = &interpreter.path else {
            run.message = Some(format!(
                "Python {} is not installed here (looked on PATH and in pyenv's versions)",
                interpreter.request
            ));
            return Ok(run);
        };
        std::fs::create_dir_all(self.workspace).map_err(CheckError::Workspace)?;
        let probe_dir = self.workspace.join("probe");
        std::fs::create_dir_all(&probe_dir).map_err(CheckError::Workspace)?;
        let checked = syntax::check(
            self.runner,
            path,
            self.program,
            self.source,
            &probe_dir,
            clean_env(&probe_dir),
            self.expose,
        );
        let whole_run = |run: &mut RunReport, verdict: Verdict, message: String| {
            run.verdict = verdict;
            run.message = Some(message);
            run.cases = exercise
                .cases
                .iter()
                .map(|case| CaseReport {
                    name: case.name.clone(),
                    visibility: case.visibility,
                    weight: case.weight,
                    verdict,
                    time_ms: 0,
                    wall_ms: 0,
                    message: String::new(),
                    feedback: None,
                })
                .collect();
        };
        match checked {
            Err(why) => {
                whole_run(&mut run, Verdict::JudgeError, why);
                return Ok(run);
            }
            Ok(check) => {
                run.version = Some(check.version);
                if let Some(problem) = check.problem {
                    whole_run(&mut run, Verdict::SyntaxError, problem.message);
                    run.syntax = Some(SyntaxFeedback {
                        source_line: problem.source_line,
                        hint: problem.hint,
                    });
                    return Ok(run);
                }
            }
        }
        let label = run.label();
        run.cases = self.run_cases(path, &label, reporter)?;
        run.verdict = Verdict::worst(run.cases.iter().map(|c| c.verdict));
        run.score = run
            .cases
            .iter()
            .filter(|c| c.verdict == Verdict::Accepted)
            .map(|c| c.weight)
            .sum();
        Ok(run)
    }

    /// Runs the cases on `jobs` workers; reports each as it finishes, returns them in order.
    fn run_cases(
        &self,
        interpreter: &Path,
        label: &str,
        reporter: &mut dyn Reporter,
    ) -> Result<Vec<CaseReport>, CheckError> {
        let cases = &self.request.exercise.cases;
        let next = AtomicUsize::new(0);
        let (sender, receiver) = mpsc::channel();
        let mut results: Vec<Option<CaseReport>> = vec![None; cases.len()];
        let workers = self.request.jobs.clamp(1, cases.len().max(1));
        if workers == 1 {
            // On this thread: it has its sandbox cgroup already (joining one costs ~15 ms).
            let mut results = Vec::with_capacity(cases.len());
            for (index, case) in cases.iter().enumerate() {
                let report = self.run_case(interpreter, index, case);
                reporter
                    .event(&Event::CaseFinished {
                        run: label,
                        case: &report,
                    })
                    .map_err(CheckError::Report)?;
                results.push(report);
            }
            return Ok(results);
        }
        std::thread::scope(|scope| -> Result<(), CheckError> {
            for _ in 0..workers {
                let sender = sender.clone();
                let next = &next;
                scope.spawn(move || {
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(case) = cases.get(index) else { break };
                        let report = self.run_case(interpreter, index, case);
                        if sender.send((index, report)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(sender);
            for (index, report) in receiver {
                reporter
                    .event(&Event::CaseFinished {
                        run: label,
                        case: &report,
                    })
                    .map_err(CheckError::Report)?;
                results[index] = Some(report);
            }
            Ok(())
        })?;
        Ok(results
            .into_iter()
            .map(|r| r.expect("every case reports"))
            .collect())
    }

    fn run_case(&self, interpreter: &Path, index: usize, case: &Case) -> CaseReport {
        let exercise = self.request.exercise;
        let limits = RunLimits::from(&exercise.config.limits);
        let mut report = CaseReport {
            name: case.name.clone(),
            visibility: case.visibility,
            weight: case.weight,
            verdict: Verdict::JudgeError,
            time_ms: 0,
            wall_ms: 0,
            message: String::new(),
            feedback: None,
        };
        if crate::runner::stopping() {
            return interrupted(report);
        }
        let scratch = self.workspace.join(format!("case-{index}"));
        if let Err(e) = std::fs::create_dir_all(&scratch) {
            report.message = format!("cannot create a scratch folder: {e}");
            return report;
        }
        if exercise.config.comparison == Comparison::Game {
            let report = self.play_game(interpreter, case, &scratch, limits, report);
            let _ = std::fs::remove_dir_all(&scratch);
            if crate::runner::stopping() && report.verdict != Verdict::Accepted {
                return interrupted(report);
            }
            return report;
        }
        let spec = RunSpec {
            program: interpreter,
            args: vec![self.program.into()],
            stdin: case.input.as_bytes(),
            workdir: &scratch,
            env: clean_env(&scratch),
            limits,
            expose: self.expose,
        };
        let outcome = match self.runner.run(&spec) {
            Ok(outcome) => outcome,
            Err(e) => {
                report.message = e.to_string();
                return report;
            }
        };
        let _ = std::fs::remove_dir_all(&scratch);
        // Stopped because the user pressed Ctrl-C: not the program's fault.
        if crate::runner::stopping() && outcome.termination == Termination::WallTimeout {
            return interrupted(report);
        }
        let judgement = judge::judge_case(exercise, case, &outcome, &limits);
        report.verdict = judgement.verdict;
        report.time_ms = outcome.cpu.as_millis() as u64;
        report.wall_ms = outcome.wall.as_millis() as u64;
        let unmap = |text: String| self.unmap(&text);
        // Secret cases say only their verdict; nimlab's own faults are always explained.
        let explain =
            case.visibility == Visibility::Sample || judgement.verdict == Verdict::JudgeError;
        if explain {
            report.message = unmap(judgement.message.clone());
        }
        if case.visibility == Visibility::Sample && judgement.verdict != Verdict::Accepted {
            let expected = match exercise.config.comparison {
                Comparison::Checker => exercise
                    .module
                    .and_then(|m| m.reference(&case.input, &exercise.config).ok())
                    .unwrap_or_default(),
                _ => case.expected.clone(),
            };
            let stderr = (!outcome.stderr.is_empty())
                .then(|| unmap(feedback::stderr_tail(&outcome.stderr, 15)));
            report.feedback = Some(CaseFeedback {
                input: feedback::clip(&case.input, 20, 2_000),
                expected: feedback::clip(&expected, 40, 4_000),
                one_of_many: exercise.config.comparison == Comparison::Checker,
                got: feedback::clip(&feedback::printable(&outcome.stdout), 40, 4_000),
                first_difference: judgement.first_difference.clone(),
                stderr,
                hints: feedback::hints(
                    exercise,
                    self.request.lab_names,
                    case,
                    &judgement,
                    &outcome,
                ),
                transcript: None,
                broken_rule: None,
            });
        }
        report
    }

    fn unmap(&self, text: &str) -> String {
        text.replace(&self.path_map.0, &self.path_map.1)
    }

    /// Plays one scenario of the game against the program.
    fn play_game(
        &self,
        interpreter: &Path,
        case: &Case,
        scratch: &Path,
        limits: RunLimits,
        mut report: CaseReport,
    ) -> CaseReport {
        let scenario = match game::Scenario::parse(&case.input) {
            Ok(scenario) => scenario,
            Err(problem) => {
                report.message = format!("the scenario is bad: {problem}");
                return report;
            }
        };
        let args = [OsString::from(self.program)];
        let env = game_env(scratch);
        let launch = Launch {
            program: interpreter,
            args: &args,
            env: &env,
            workdir: scratch,
            expose: self.expose,
            limits,
        };
        let mut session = match Session::start(&launch, self.runner.isolation()) {
            Ok(session) => session,
            Err(e) => {
                report.message = e.to_string();
                return report;
            }
        };
        let result = game::play(&scenario, &mut session);
        let end = session.finish();
        report.verdict = result.verdict;
        if let Ok(end) = &end {
            report.time_ms = end.cpu.as_millis() as u64;
            report.wall_ms = end.wall.as_millis() as u64;
        }
        let sample = case.visibility == Visibility::Sample;
        if sample || result.verdict == Verdict::JudgeError {
            report.message = self.unmap(&result.message);
        }
        if sample && result.verdict != Verdict::Accepted {
            let stderr = end
                .ok()
                .filter(|e| !e.stderr.is_empty())
                .map(|e| self.unmap(&feedback::stderr_tail(&e.stderr, 15)));
            let mut hints = Vec::new();
            let bad_input_crash = result.verdict == Verdict::RuntimeError
                && stderr.as_deref().is_some_and(|s| s.contains("ValueError"));
            if bad_input_crash {
                hints.push("A player typed something that is not a move: catch the ValueError from int() and ask again instead of crashing.".into());
            }
            if result.verdict == Verdict::RuntimeError {
                hints.extend(stderr.as_deref().and_then(feedback::python2_input_hint));
            }
            report.feedback = Some(CaseFeedback {
                input: case.input.clone(),
                expected: String::new(),
                one_of_many: false,
                got: String::new(),
                first_difference: None,
                stderr,
                hints,
                transcript: Some(result.transcript),
                broken_rule: result.broken.map(|b| b.rule),
            });
        }
        report
    }
}
