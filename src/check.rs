//! `nimlab check`: runs one submission on every case of its exercise, under each interpreter,
//! and announces the results as events.

use crate::error::Error;
use crate::exercises::{HintContext, Interactive, Judging};
use crate::feedback;
use crate::judge::{self, Verdict};
use crate::lab::{Case, LabExercise, Visibility};
use crate::lint;
use crate::report::{
    CaseFeedback, CaseReport, CheckReport, Event, Reporter, RunReport, SyntaxFeedback,
};
use crate::runner::interpreter::{self, Interpreter};
use crate::runner::{RunLimits, RunSpec, RunWay, Runner, Termination, seed};
use crate::syntax;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Sibling files copied next to a submission so it can import them; more or larger is not a
/// lab folder.
pub(crate) const MAX_SIBLINGS: usize = 200;
pub(crate) const MAX_SIBLING_BYTES: u64 = 2 * 1024 * 1024;
/// No answer to a lab exercise is this large; reading it whole would only cost memory.
pub(crate) const MAX_SUBMISSION_BYTES: u64 = 1024 * 1024;

fn unreadable_submission(file: &Path, source: std::io::Error) -> Error {
    Error::input(file, format!("cannot read the submission: {source}"))
}

/// The submission's bytes, read once: only from a regular file (a FIFO or a device put in
/// its place never blocks nimlab), and never more than a submission may hold.
fn read_submission(file: &Path) -> Result<Vec<u8>, Error> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(file)
        .map_err(|e| unreadable_submission(file, e))?;
    let metadata = opened
        .metadata()
        .map_err(|e| unreadable_submission(file, e))?;
    if !metadata.is_file() {
        return Err(Error::input(
            file,
            "is not a regular file (a folder, a FIFO or a device); nimlab checks Python files",
        ));
    }
    if metadata.len() > MAX_SUBMISSION_BYTES {
        return Err(Error::input(
            file,
            format!(
                "the submission is {} bytes; nimlab checks files of at most 1 MiB",
                metadata.len()
            ),
        ));
    }
    let mut source = Vec::new();
    opened
        .take(MAX_SUBMISSION_BYTES + 1)
        .read_to_end(&mut source)
        .map_err(|e| unreadable_submission(file, e))?;
    if source.len() as u64 > MAX_SUBMISSION_BYTES {
        return Err(Error::input(
            file,
            "the submission grew past 1 MiB while it was read",
        ));
    }
    Ok(source)
}

fn workspace_error(source: std::io::Error) -> Error {
    Error::internal("cannot prepare a working folder", source)
}

fn report_error(source: std::io::Error) -> Error {
    Error::internal("cannot write the report", source)
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
    /// A folder shared with the student's other checks (grade), so that the interpreters kept
    /// for one of them serve the others; None for a folder of the check's own.
    pub shared: Option<&'a SharedWorkspace>,
}

/// The scratch folder of several checks of one student, made one after another: each
/// snapshot in a folder of its own, all of them under the one folder the runs are shown, and
/// the same working folders, so a runner keeps its interpreters from one check to the next.
/// The checks' owner calls [`SharedWorkspace::finish`] after the last.
pub struct SharedWorkspace {
    dir: tempfile::TempDir,
    expose: Vec<PathBuf>,
    /// The student's folder whose `.py` files were copied into [`SHARED_FOLDER`], once for
    /// all the checks that take their siblings from it (each copy is a file made on disk).
    folder_copied: std::sync::Mutex<Option<PathBuf>>,
}

/// Where a shared workspace keeps its one copy of the student's folder (not an exercise
/// name: those have no capitals).
const SHARED_FOLDER: &str = "Folder";

impl SharedWorkspace {
    pub fn new() -> Result<SharedWorkspace, Error> {
        remove_stale_workspaces();
        let dir = new_workspace()?;
        let snapshots = dir.path().join("submissions");
        std::fs::create_dir_all(&snapshots).map_err(workspace_error)?;
        Ok(SharedWorkspace {
            dir,
            expose: vec![snapshots],
            folder_copied: std::sync::Mutex::new(None),
        })
    }

    /// The submission's snapshot: its folder and the program in it. Checks that take their
    /// siblings from the same student folder share one copy of it, in which each writes its
    /// own submission's bytes (what runs is what was read); the others get a folder each.
    fn snapshot(
        &self,
        request: &CheckRequest,
        exercise: &str,
        source: &[u8],
    ) -> Result<(PathBuf, PathBuf), Error> {
        let folder = std::path::absolute(request.submission)
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf));
        let mut copied = self
            .folder_copied
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let shared = self.expose[0].join(SHARED_FOLDER);
        if request.siblings && folder.is_some() && *copied == folder {
            // The siblings are there already: only the submission is written.
            let program = snapshot(request.submission, source, &shared, false)?;
            return Ok((shared, program));
        }
        let first_copy = request.siblings && folder.is_some() && copied.is_none();
        let dir = if first_copy {
            shared
        } else {
            self.expose[0].join(exercise)
        };
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(workspace_error)?;
        }
        let program = snapshot(request.submission, source, &dir, request.siblings)?;
        if first_copy {
            *copied = folder;
        }
        Ok((dir, program))
    }

    /// Lets go of what the runner kept for these checks.
    pub fn finish(self, runner: &dyn Runner) {
        runner.finished_with(&self.expose);
    }
}

fn new_workspace() -> Result<tempfile::TempDir, Error> {
    tempfile::Builder::new()
        .prefix(&format!("{WORKSPACE_PREFIX}{}-", std::process::id()))
        .tempdir()
        .map_err(workspace_error)
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

const INTERRUPTED: &str = "not judged: nimlab was interrupted";

/// A case that nimlab's interruption (Ctrl-C) kept from being judged.
fn interrupted(mut report: CaseReport) -> CaseReport {
    report.verdict = Verdict::Skipped;
    report.time_ms = Some(0);
    report.wall_ms = Some(0);
    report.message = INTERRUPTED.into();
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

/// A private copy of the submission and the `.py` files beside it, so the program can import
/// its own modules and nothing it does touches the student's folder.
fn snapshot(
    submission: &Path,
    source: &[u8],
    into: &Path,
    siblings: bool,
) -> Result<PathBuf, Error> {
    std::fs::create_dir_all(into).map_err(workspace_error)?;
    let name = submission
        .file_name()
        .unwrap_or_else(|| "submission.py".as_ref());
    let target = into.join(name);
    // The bytes already read: what runs is exactly what was linted and probed.
    std::fs::write(&target, source).map_err(workspace_error)?;
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
) -> Result<CheckReport, Error> {
    let exercise = request.exercise;
    let display = request.submission.display().to_string();
    let source = read_submission(request.submission)?;
    reporter
        .event(&Event::Started {
            exercise: &exercise.name,
            title: &exercise.config.title,
            submission: &display,
        })
        .map_err(report_error)?;
    let warnings = lint::lint(
        &String::from_utf8_lossy(&source),
        &exercise.config.forbidden,
    );
    remove_stale_workspaces();
    // The check's own folder, where it shares none.
    let own;
    let (root, snapshot_dir, expose, program) = match request.shared {
        Some(shared) => {
            let (dir, program) = shared.snapshot(request, &exercise.name, &source)?;
            (shared.dir.path(), dir, shared.expose.clone(), program)
        }
        None => {
            own = new_workspace()?;
            let dir = own.path().join("submission");
            let program = snapshot(request.submission, &source, &dir, request.siblings)?;
            (own.path(), dir.clone(), vec![dir], program)
        }
    };
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
            workspace: &root.join(format!("run-{index}")),
            path_map: (
                snapshot_dir.display().to_string(),
                original_dir.display().to_string(),
            ),
            expose: &expose,
        };
        let run = context.run(&interpreter, reporter);
        if request.shared.is_none() {
            // The submission's interpreters are not needed any more, whatever happened.
            runner.finished_with(context.expose);
        }
        let run = run?;
        reporter
            .event(&Event::RunFinished(&run))
            .map_err(report_error)?;
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
        .map_err(report_error)?;
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

/// How a run's cases were run, for its report: "fork", "process" or "fork and process", and
/// why some were processes where forks were asked for.
fn runner_summary(ways: &[RunWay]) -> (String, Option<String>) {
    let forked = ways.iter().filter(|w| **w == RunWay::Fork).count();
    let fallbacks: Vec<&str> = ways
        .iter()
        .filter_map(|w| match w {
            RunWay::Fallback(why) => Some(why.as_str()),
            _ => None,
        })
        .collect();
    let runner = match (forked, ways.len() - forked) {
        (0, _) => "process",
        (_, 0) => "fork",
        _ => "fork and process",
    };
    let note = fallbacks.first().map(|why| {
        format!(
            "{} of {} runs were processes of their own, not forks: {why}",
            fallbacks.len(),
            ways.len()
        )
    });
    (runner.into(), note)
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
    ) -> Result<RunReport, Error> {
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
            runner: "process".into(),
            runner_note: None,
        };
        let Some(path) = &interpreter.path else {
            run.message = Some(format!(
                "Python {} is not installed here (looked on PATH and in pyenv's versions)",
                interpreter.request
            ));
            return Ok(run);
        };
        std::fs::create_dir_all(self.workspace).map_err(workspace_error)?;
        let probe_dir = self.workspace.join("probe");
        std::fs::create_dir_all(&probe_dir).map_err(workspace_error)?;
        // A runner that keeps an interpreter for the cases compiles the file there, once;
        // with several jobs each worker keeps its own, so the probe is a run of its own.
        let first_case = exercise.cases.first().filter(|_| self.request.jobs == 1);
        let compiled = first_case.and_then(|case| {
            let scratch = self.workspace.join("case-0");
            self.runner.compile(&self.spec(path, case, &scratch, None))
        });
        if compiled.is_some() {
            run.runner = "fork".into();
        }
        let checked = match compiled {
            Some(answer) => syntax::interpret(path, &answer, b"", self.source),
            None => syntax::check(
                self.runner,
                path,
                self.program,
                self.source,
                &probe_dir,
                clean_env(&probe_dir),
                self.expose,
            ),
        };
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
                    time_ms: Some(0),
                    wall_ms: Some(0),
                    message: String::new(),
                    feedback: None,
                })
                .collect();
        };
        match checked {
            // Ctrl-C stopped the probe: nothing was judged, and nobody is to blame.
            Err(_) if crate::stop::requested() => {
                whole_run(&mut run, Verdict::Skipped, INTERRUPTED.into());
                for case in &mut run.cases {
                    case.message = INTERRUPTED.into();
                }
                return Ok(run);
            }
            Err(why) => {
                whole_run(&mut run, Verdict::JudgeError, why.to_string());
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
        let version = run.version.clone().unwrap_or_default();
        let (cases, ways) = self.run_cases(path, &version, &label, reporter)?;
        run.cases = cases;
        (run.runner, run.runner_note) = runner_summary(&ways);
        run.verdict = Verdict::worst(run.cases.iter().map(|c| c.verdict));
        run.score = run
            .cases
            .iter()
            .filter(|c| c.verdict == Verdict::Accepted)
            .map(|c| c.weight)
            .sum();
        Ok(run)
    }

    /// Runs the cases on the pool; reports each as it finishes, returns them in order, with
    /// how each was run.
    fn run_cases(
        &self,
        interpreter: &Path,
        version: &str,
        label: &str,
        reporter: &mut dyn Reporter,
    ) -> Result<(Vec<CaseReport>, Vec<RunWay>), Error> {
        let cases = &self.request.exercise.cases;
        let mut results: Vec<Option<CaseReport>> = vec![None; cases.len()];
        let mut ways = Vec::with_capacity(cases.len());
        crate::pool::run(
            cases,
            self.request.jobs,
            |index, case| self.run_case(interpreter, version, index, case),
            |index, (report, way)| {
                reporter
                    .event(&Event::CaseFinished {
                        run: label,
                        case: &report,
                    })
                    .map_err(report_error)?;
                results[index] = Some(report);
                ways.extend(way);
                Ok::<(), Error>(())
            },
        )?;
        // Cases never started because nimlab was interrupted are reported as not judged.
        let reports = results
            .into_iter()
            .zip(cases)
            .map(|(report, case)| report.unwrap_or_else(|| interrupted(self.blank_report(case))))
            .collect();
        Ok((reports, ways))
    }

    fn blank_report(&self, case: &Case) -> CaseReport {
        CaseReport {
            name: case.name.clone(),
            visibility: case.visibility,
            weight: case.weight,
            verdict: Verdict::JudgeError,
            time_ms: Some(0),
            wall_ms: Some(0),
            message: String::new(),
            feedback: None,
        }
    }

    /// The run of a case; `version`, the interpreter's, seeds its `random` (None where the
    /// spec only says which program and server to compile it in).
    fn spec<'s>(
        &'s self,
        interpreter: &'s Path,
        case: &'s Case,
        scratch: &'s Path,
        version: Option<&str>,
    ) -> RunSpec<'s> {
        let mut env = clean_env(scratch);
        if matches!(case.input, crate::lab::CaseInput::Scenario { .. }) {
            // A conversation's program must print each prompt before it blocks for the answer.
            env.push(("PYTHONUNBUFFERED".into(), "1".into()));
        }
        RunSpec {
            program: interpreter,
            args: vec![self.program.into()],
            stdin: case.input.stdin(),
            workdir: scratch,
            env,
            limits: RunLimits::from(&self.request.exercise.config.limits),
            expose: self.expose,
            seed: version.map(|version| {
                seed::for_case(
                    &self.request.exercise.name,
                    &case.name,
                    case.input.text().as_bytes(),
                    version,
                )
            }),
        }
    }

    /// One case, and how it was run (None where nothing ran).
    fn run_case(
        &self,
        interpreter: &Path,
        version: &str,
        index: usize,
        case: &Case,
    ) -> (CaseReport, Option<RunWay>) {
        let report = self.blank_report(case);
        if crate::stop::requested() {
            return (interrupted(report), None);
        }
        // The runner makes the folder where the run needs one: a forked run's is in its
        // server's sandbox, and an empty folder made and removed here for each case costs
        // more than the run.
        let scratch = self.workspace.join(format!("case-{index}"));
        let spec = self.spec(interpreter, case, &scratch, Some(version));
        let ran = match self.request.exercise.judging() {
            Judging::Interactive(interactive) => self.play(interactive, case, &spec, report),
            judging => self.run_batch(judging, case, &spec, report),
        };
        let _ = std::fs::remove_dir_all(&scratch);
        ran
    }

    /// One run on the case's stdin, judged against its expected output or by the checker.
    fn run_batch(
        &self,
        judging: Judging,
        case: &Case,
        spec: &RunSpec,
        mut report: CaseReport,
    ) -> (CaseReport, Option<RunWay>) {
        let exercise = self.request.exercise;
        let outcome = match self.runner.run(spec) {
            Ok(outcome) => outcome,
            Err(e) => {
                report.message = e.to_string();
                return (report, None);
            }
        };
        let way = Some(outcome.way.clone());
        // Stopped because the user pressed Ctrl-C: not the program's fault.
        if crate::stop::requested() && outcome.termination == Termination::WallTimeout {
            return (interrupted(report), way);
        }
        let judgement = judge::judge_case(exercise, case, &outcome, &spec.limits);
        report.verdict = judgement.verdict;
        report.time_ms = Some(outcome.cpu.as_millis() as u64);
        report.wall_ms = Some(outcome.wall.as_millis() as u64);
        // Every case's message is kept, for the instructor; a student's view of a secret
        // case leaves it out (`report::student`).
        report.message = self.unmap(&judgement.message);
        if case.visibility == Visibility::Sample && judgement.verdict != Verdict::Accepted {
            let one_of_many = matches!(judging, Judging::Checker(_));
            let expected = if one_of_many {
                exercise.reference(case.input.text()).unwrap_or_default()
            } else {
                case.expected.clone()
            };
            let stderr = (!outcome.stderr.is_empty())
                .then(|| self.unmap(&feedback::traceback::stderr_tail(&outcome.stderr, 15)));
            report.feedback = Some(CaseFeedback {
                input: feedback::text::clip(case.input.text(), 20, 2_000),
                expected: feedback::text::clip(&expected, 40, 4_000),
                one_of_many,
                got: feedback::text::clip(&feedback::text::printable(&outcome.stdout), 40, 4_000),
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
        (report, way)
    }

    fn unmap(&self, text: &str) -> String {
        text.replace(&self.path_map.0, &self.path_map.1)
    }

    /// Plays one scenario against the program, with the exercise's referee.
    fn play(
        &self,
        interactive: &dyn Interactive,
        case: &Case,
        spec: &RunSpec,
        mut report: CaseReport,
    ) -> (CaseReport, Option<RunWay>) {
        let crate::lab::CaseInput::Scenario { parsed, .. } = &case.input else {
            report.message = "an interactive exercise's case has no scenario".into();
            return (report, None);
        };
        let mut session = match self.runner.start(spec) {
            Ok(session) => session,
            Err(e) => {
                report.message = e.to_string();
                return (report, None);
            }
        };
        let mut played = interactive.play(parsed, session.as_mut());
        let end = session.finish();
        drop(session);
        // The kernel stopped it for the run's memory: that, not the crash it looked like.
        if end.as_ref().is_ok_and(|e| e.out_of_memory) && played.verdict != Verdict::Accepted {
            played.verdict = Verdict::MemoryLimit;
            played.message = format!(
                "ran out of memory: the limit is {} MB",
                spec.limits.memory_bytes / (1024 * 1024)
            );
        }
        report.verdict = played.verdict;
        let way = end.as_ref().ok().map(|end| end.way.clone());
        if let Ok(end) = &end {
            report.time_ms = Some(end.cpu.as_millis() as u64);
            report.wall_ms = Some(end.wall.as_millis() as u64);
        }
        if crate::stop::requested() && report.verdict != Verdict::Accepted {
            return (interrupted(report), way);
        }
        let sample = case.visibility == Visibility::Sample;
        report.message = self.unmap(&played.message);
        if sample && played.verdict != Verdict::Accepted {
            let stderr = end
                .ok()
                .filter(|e| !e.stderr.is_empty())
                .map(|e| self.unmap(&feedback::traceback::stderr_tail(&e.stderr, 15)));
            let hints = interactive.hints(
                &played,
                &HintContext {
                    stderr: stderr.as_deref(),
                    file: self.program,
                    source: self.source,
                    lab_names: self.request.lab_names,
                },
            );
            report.feedback = Some(CaseFeedback {
                input: case.input.text().to_string(),
                expected: String::new(),
                one_of_many: false,
                got: String::new(),
                first_difference: None,
                stderr,
                hints,
                transcript: Some(played.transcript),
                broken_rule: played.broken_rule,
            });
        }
        (report, way)
    }
}

#[cfg(test)]
mod tests {
    //! The check pipeline with a scripted runner: no Python, no processes.
    use super::*;
    use crate::lab::Lab;
    use crate::report::Silent;
    use crate::runner::ScriptedRunner;
    use crate::runner::scripted::{Conversation, outcome};

    /// Answers the syntax probe as Python 3.11 would for a file that compiles.
    fn probe_or(
        run: impl Fn(&RunSpec) -> crate::runner::RunOutcome + Sync + 'static,
    ) -> ScriptedRunner {
        ScriptedRunner::new(move |spec| {
            if spec.args.first().is_some_and(|a| a == "-S") {
                outcome(
                    Termination::Exited(0),
                    r#"{"version": "3.11.0", "error": null}"#,
                    "",
                )
            } else {
                run(spec)
            }
        })
    }

    fn check_with(exercise: &str, runner: &ScriptedRunner) -> CheckReport {
        let lab = Lab::built_in().unwrap();
        let exercise = lab.exercise(exercise).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(format!("{}.py", exercise.name));
        std::fs::write(&file, "print('scripted')\n").unwrap();
        let request = CheckRequest {
            exercise,
            lab_names: &[],
            submission: &file,
            interpreters: &["/bin/sh".to_string()],
            jobs: 2,
            siblings: false,
            shared: None,
        };
        check(&request, runner, &mut Silent).unwrap()
    }

    /// The right answer for every case, from the reference.
    fn reference_answers(exercise: &'static str) -> impl Fn(&RunSpec) -> crate::runner::RunOutcome {
        let lab = Lab::built_in().unwrap();
        let exercise = lab.exercise(exercise).unwrap();
        let answers: Vec<(Vec<u8>, String)> = exercise
            .cases
            .iter()
            .map(|c| {
                (
                    c.input.stdin().to_vec(),
                    exercise.reference(c.input.text()).unwrap(),
                )
            })
            .collect();
        move |spec| {
            let answer = answers
                .iter()
                .find(|(stdin, _)| stdin == spec.stdin)
                .map(|(_, a)| a.as_str())
                .unwrap_or("?");
            outcome(Termination::Exited(0), answer, "")
        }
    }

    #[test]
    fn right_answers_are_accepted_with_full_score() {
        let report = check_with("make_move", &probe_or(reference_answers("make_move")));
        assert_eq!(report.verdict, Verdict::Accepted);
        assert_eq!(report.score, report.max_score);
        assert_eq!(report.runs[0].version.as_deref(), Some("3.11.0"));
    }

    #[test]
    fn a_checker_exercise_accepts_any_winning_move() {
        let report = check_with("optimal_move", &probe_or(reference_answers("optimal_move")));
        assert_eq!(report.verdict, Verdict::Accepted);
    }

    #[test]
    fn a_wrong_answer_is_explained_on_samples_only() {
        let report = check_with(
            "present_board",
            &probe_or(|_| outcome(Termination::Exited(0), "nothing like a board\n", "")),
        );
        assert_eq!(report.verdict, Verdict::WrongAnswer);
        assert_eq!(report.score, 0);
        for case in &report.runs[0].cases {
            assert_eq!(case.verdict, Verdict::WrongAnswer);
            match case.visibility {
                Visibility::Sample => {
                    let feedback = case.feedback.as_ref().expect("samples explain");
                    assert!(!feedback.expected.is_empty());
                    assert!(feedback.got.contains("nothing like a board"));
                }
                Visibility::Secret => {
                    // The report keeps the message; a student's view shows the verdict alone.
                    assert!(case.feedback.is_none() && !case.message.is_empty());
                    let seen = case.for_student();
                    assert!(seen.message.is_empty() && seen.time_ms.is_none());
                }
            }
        }
    }

    #[test]
    fn a_crash_is_a_runtime_error_named_by_its_traceback() {
        let traceback = "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\nZeroDivisionError: division by zero\n";
        let report = check_with(
            "exclusive_or",
            &probe_or(move |_| outcome(Termination::Exited(1), "", traceback)),
        );
        assert_eq!(report.verdict, Verdict::RuntimeError);
        let sample = &report.runs[0].cases[0];
        assert!(
            sample.message.contains("ZeroDivisionError"),
            "{}",
            sample.message
        );
    }

    #[test]
    fn a_runner_failure_is_nimlabs_fault_not_the_students() {
        let runner = ScriptedRunner::new(|_| outcome(Termination::Exited(0), "not json", ""));
        let report = check_with("exclusive_or", &runner);
        assert_eq!(report.verdict, Verdict::JudgeError);
        assert!(
            report.runs[0]
                .message
                .as_deref()
                .unwrap()
                .contains("did not answer like a Python")
        );
    }

    #[test]
    fn a_game_that_crashes_at_once_is_a_runtime_error() {
        let runner = probe_or(|_| outcome(Termination::Exited(0), "", ""))
            .with_sessions(|_| Box::new(Conversation::new("Who plays first? ", |_| None)));
        let report = check_with("working_game", &runner);
        assert_ne!(report.verdict, Verdict::Accepted);
        assert_ne!(report.verdict, Verdict::JudgeError);
        let sample = &report.runs[0].cases[0];
        let transcript = sample
            .feedback
            .as_ref()
            .unwrap()
            .transcript
            .as_ref()
            .unwrap();
        assert!(!transcript.is_empty());
    }

    #[test]
    fn a_missing_interpreter_skips_the_run() {
        let lab = Lab::built_in().unwrap();
        let exercise = lab.exercise("ui").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("ui.py");
        std::fs::write(&file, "").unwrap();
        let request = CheckRequest {
            exercise,
            lab_names: &[],
            submission: &file,
            interpreters: &["/nowhere/python9".to_string()],
            jobs: 1,
            siblings: false,
            shared: None,
        };
        let runner = ScriptedRunner::new(|_| unreachable!("nothing runs"));
        let report = check(&request, &runner, &mut Silent).unwrap();
        assert_eq!(report.verdict, Verdict::Skipped);
    }

    #[test]
    fn a_students_checks_share_one_copy_of_their_folder_each_running_its_own_bytes() {
        let lab = Lab::built_in().unwrap();
        let class = tempfile::tempdir().unwrap();
        let ada = class.path().join("ada");
        std::fs::create_dir_all(&ada).unwrap();
        for name in ["ui", "make_move", "helper"] {
            std::fs::write(ada.join(format!("{name}.py")), format!("# {name} 1\n")).unwrap();
        }
        let flat = class.path().join("bo_make_move.py");
        std::fs::write(&flat, "# bo\n").unwrap();
        let shared = SharedWorkspace::new().unwrap();
        let snap = |exercise: &str, file: &Path, siblings: bool| {
            let request = CheckRequest {
                exercise: lab.exercise(exercise).unwrap(),
                lab_names: &[],
                submission: file,
                interpreters: &[],
                jobs: 1,
                siblings,
                shared: Some(&shared),
            };
            let source = std::fs::read(file).unwrap();
            shared.snapshot(&request, exercise, &source).unwrap()
        };
        let (first_dir, first) = snap("ui", &ada.join("ui.py"), true);
        assert_eq!(std::fs::read_to_string(&first).unwrap(), "# ui 1\n");
        assert_eq!(
            std::fs::read_to_string(first_dir.join("helper.py")).unwrap(),
            "# helper 1\n"
        );
        // Changed after the copy was made: the check of make_move runs what it read.
        std::fs::write(ada.join("make_move.py"), "# make_move 2\n").unwrap();
        std::fs::write(ada.join("helper.py"), "# helper 2\n").unwrap();
        let (second_dir, second) = snap("make_move", &ada.join("make_move.py"), true);
        assert_eq!(second_dir, first_dir);
        assert_eq!(std::fs::read_to_string(&second).unwrap(), "# make_move 2\n");
        // A file beside other students' files gets a folder of its own, with nothing else.
        let (flat_dir, flat_program) = snap("make_move", &flat, false);
        assert_ne!(flat_dir, first_dir);
        assert_eq!(std::fs::read_to_string(&flat_program).unwrap(), "# bo\n");
        let names: Vec<_> = std::fs::read_dir(&flat_dir).unwrap().collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }
}
