//! One run of a check: the submission under one interpreter. The file is probed first (does it
//! compile, which version is this), then every case goes through the exercise's grader on the
//! pool, each reported as it finishes.

use super::grader::{CaseRun, Grader, INTERRUPTED, interrupted};
use super::probe::{Probe, ProbeResult, Probed};
use super::request::CheckRequest;
use super::workspace::{clean_env, workspace_error};
use crate::error::Error;
use crate::judge::Verdict;
use crate::lab::{Case, CaseInput, Visibility};
use crate::report::{CaseReport, Event, Reporter, RunReport, SyntaxFeedback};
use crate::runner::interpreter::Interpreter;
use crate::runner::{RunLimits, RunSpec, RunWay, Runner, seed};
use std::path::{Path, PathBuf};

pub(super) struct RunContext<'a> {
    pub request: &'a CheckRequest<'a>,
    pub grader: &'a dyn Grader,
    pub runner: &'a dyn Runner,
    pub program: &'a Path,
    pub source: &'a [u8],
    pub workspace: &'a Path,
    /// Tracebacks name the private copy; students should see their own folder.
    pub path_map: (String, String),
    /// The private copy's folder: all a program may see of the machine's files, in a sandbox.
    pub expose: &'a [PathBuf],
    /// The cases run at once: the check's jobs, or this run's share of them where the check's
    /// runs go side by side.
    pub jobs: usize,
}

/// A run whose sample cases are judged and whose secret cases wait (see [`RunContext::begin`]).
pub(super) struct Begun {
    run: RunReport,
    /// None when the run ended before its cases (no interpreter, a syntax error, a failed
    /// probe, stopped).
    cases: Option<CasesSoFar>,
}

struct CasesSoFar {
    interpreter: PathBuf,
    version: String,
    label: String,
    results: Vec<Option<CaseReport>>,
    ways: Vec<RunWay>,
}

impl RunContext<'_> {
    /// The run's first half: the file probed, then its sample cases (whose output a student
    /// sees) judged. Every run of a check begins before any finishes, so that no shown case
    /// runs beside or after a secret case of the same file, under any interpreter: what no
    /// sandbox closes (CPU, caches, timing) never carries a secret input into shown output.
    pub(super) fn begin(
        &self,
        interpreter: &Interpreter,
        reporter: &mut dyn Reporter,
    ) -> Result<Begun, Error> {
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
            return Ok(Begun { run, cases: None });
        };
        std::fs::create_dir_all(self.workspace).map_err(workspace_error)?;
        let probe = self.probe(path)?;
        if probe.in_server {
            run.runner = "fork".into();
        }
        let version = match probe.probed {
            Probed::Answered(check) => {
                run.version = Some(check.version.clone());
                if let Some(problem) = check.problem {
                    self.whole_run(&mut run, Verdict::SyntaxError, problem.message);
                    run.syntax = Some(SyntaxFeedback {
                        source_line: problem.source_line,
                        hint: problem.hint,
                    });
                    return Ok(Begun { run, cases: None });
                }
                check.version
            }
            // Stopped during the probe: nothing was judged, and nobody is to blame.
            Probed::Interrupted => {
                self.whole_run(&mut run, Verdict::Skipped, INTERRUPTED.into());
                for case in &mut run.cases {
                    case.message = INTERRUPTED.into();
                }
                return Ok(Begun { run, cases: None });
            }
            Probed::Failed(why) => {
                self.whole_run(&mut run, Verdict::JudgeError, why);
                return Ok(Begun { run, cases: None });
            }
        };
        let cases = &exercise.cases;
        let mut so_far = CasesSoFar {
            interpreter: path.clone(),
            version,
            label: run.label(),
            results: vec![None; cases.len()],
            ways: Vec::with_capacity(cases.len()),
        };
        self.run_phase(&mut so_far, Visibility::Sample, reporter)?;
        Ok(Begun {
            run,
            cases: Some(so_far),
        })
    }

    /// The run's second half: its secret cases, then its verdict and score.
    pub(super) fn finish(
        &self,
        begun: Begun,
        reporter: &mut dyn Reporter,
    ) -> Result<RunReport, Error> {
        let Begun { mut run, cases } = begun;
        let Some(mut so_far) = cases else {
            return Ok(run);
        };
        self.run_phase(&mut so_far, Visibility::Secret, reporter)?;
        // Cases never started because nimlab was stopped are reported as not judged.
        run.cases = so_far
            .results
            .into_iter()
            .zip(&self.request.exercise.cases)
            .map(|(report, case)| report.unwrap_or_else(|| interrupted(blank_report(case))))
            .collect();
        crate::feedback::settle(self.request.exercise, &mut run.cases);
        (run.runner, run.runner_note) = runner_summary(&so_far.ways);
        run.verdict = Verdict::worst(run.cases.iter().map(|c| c.verdict));
        run.score = run
            .cases
            .iter()
            .filter(|c| c.verdict == Verdict::Accepted)
            .map(|c| c.weight)
            .sum();
        Ok(run)
    }

    /// Compiles the file under the interpreter at `path`, in the runner's kept interpreter:
    /// the calling thread's, which runs the cases (helpers, added for slow cases only, keep
    /// their own; see `pool::run_growing`).
    fn probe(&self, path: &Path) -> Result<ProbeResult, Error> {
        let scratch = self.workspace.join("case-0");
        let first_case =
            (self.request.exercise.cases.first()).map(|case| self.spec(path, case, &scratch, None));
        Probe {
            runner: self.runner,
            program: self.program,
            source: self.source,
            expose: self.expose,
            stop: self.request.stop,
        }
        .run(path, self.workspace, first_case)
    }

    /// Every case of the run given one verdict and no time: the run never got to its cases.
    fn whole_run(&self, run: &mut RunReport, verdict: Verdict, message: String) {
        run.verdict = verdict;
        run.message = Some(message);
        run.cases = self
            .request
            .exercise
            .cases
            .iter()
            .map(|case| CaseReport {
                verdict,
                ..blank_report(case)
            })
            .collect();
    }

    /// Runs the cases of one visibility on the pool, each reported as it finishes and kept
    /// with how it was run.
    fn run_phase(
        &self,
        so_far: &mut CasesSoFar,
        visibility: Visibility,
        reporter: &mut dyn Reporter,
    ) -> Result<(), Error> {
        let cases = &self.request.exercise.cases;
        let phase: Vec<usize> = (0..cases.len())
            .filter(|&i| cases[i].visibility == visibility)
            .collect();
        let CasesSoFar {
            interpreter,
            version,
            label,
            results,
            ways,
        } = so_far;
        // Helpers only for slow cases: each worker thread starts fork servers of its own, and
        // a forked case takes a few milliseconds where a server's start takes tens.
        crate::pool::run_growing(
            &phase,
            self.jobs,
            self.request.stop,
            SLOW_CASE,
            |_, &index| self.run_case(interpreter, version, index, &cases[index]),
            |at, (report, way)| {
                reporter
                    .event(&Event::CaseFinished {
                        run: label,
                        case: &report,
                    })
                    .map_err(report_error)?;
                results[phase[at]] = Some(report);
                ways.extend(way);
                Ok::<(), Error>(())
            },
        )
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
        if matches!(case.input, CaseInput::Scenario { .. }) {
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
            stop: self.request.stop,
        }
    }

    /// One case through the grader, and how it was run (None where nothing ran).
    fn run_case(
        &self,
        interpreter: &Path,
        version: &str,
        index: usize,
        case: &Case,
    ) -> (CaseReport, Option<RunWay>) {
        let report = blank_report(case);
        if self.request.stop.requested() {
            return (interrupted(report), None);
        }
        // The runner makes the folder where the run needs one: a forked run's is in its
        // server's sandbox, and an empty folder made and removed here for each case costs
        // more than the run.
        let scratch = self.workspace.join(format!("case-{index}"));
        let spec = self.spec(interpreter, case, &scratch, Some(version));
        let graded = self.grader.grade(
            &CaseRun {
                exercise: self.request.exercise,
                lab_names: self.request.lab_names,
                case,
                runner: self.runner,
                spec: &spec,
                program: self.program,
                source: self.source,
                path_map: &self.path_map,
                stop: self.request.stop,
            },
            report,
        );
        let _ = std::fs::remove_dir_all(&scratch);
        graded
    }
}

/// How long a case runs before a check adds a worker thread for the rest of its phase:
/// longer than a fork server takes to start (a worker's setting up), so that a helper is
/// added only where it pays.
const SLOW_CASE: std::time::Duration = std::time::Duration::from_millis(150);

pub(super) fn report_error(source: std::io::Error) -> Error {
    Error::internal("cannot write the report", source)
}

/// A case's report before it is judged: a judge error, in case nothing can be run.
fn blank_report(case: &Case) -> CaseReport {
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
