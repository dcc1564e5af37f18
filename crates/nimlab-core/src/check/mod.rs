//! `nimlab check`: runs one submission on every case of its exercise, under each interpreter,
//! and announces the results as events. The submission is read once and copied into a
//! private folder ([`workspace`]); each interpreter's run probes the file ([`probe`]) and
//! sends every case through the exercise's grader ([`grader`]) on the pool ([`run`]).

mod cross;
mod grader;
mod probe;
mod request;
mod run;
mod side_by_side;
mod workspace;

pub use request::CheckRequest;
pub use workspace::{
    MAX_SIBLING_BYTES, MAX_SIBLINGS, MAX_SUBMISSION_BYTES, SharedWorkspace, clean_env,
};

use crate::error::Error;
use crate::judge::Verdict;
use crate::lint;
use crate::report::{CheckReport, Event, Reporter, RunReport};
use crate::runner::Runner;
use crate::runner::interpreter;
use cross::interpreter_hints;
use run::{RunContext, report_error};
use std::path::{Path, PathBuf};
use workspace::{Prepared, read_submission};

pub fn check(
    request: &CheckRequest,
    runner: &dyn Runner,
    reporter: &mut dyn Reporter,
) -> Result<CheckReport, Error> {
    let exercise = request.exercise;
    let display = request
        .shown_as
        .map_or_else(|| request.submission.display().to_string(), str::to_string);
    let source = read_submission(request.submission)?;
    reporter
        .event(&Event::Started {
            exercise: &exercise.name,
            title: &exercise.config.title,
            submission: &display,
        })
        .map_err(report_error)?;
    let text = String::from_utf8_lossy(&source);
    let warnings = lint::lint(&text, &exercise.config.forbidden);
    // A file meant for another exercise is said first, above what its judging shows.
    let wrong = crate::feedback::wrong_exercise(&text, exercise, request.lab_exercises);
    let prepared = Prepared::new(
        request.shared,
        runner.workspace_root(),
        request.submission,
        request.siblings,
        &exercise.name,
        &source,
    )?;
    let grader = grader::grader(exercise);
    let path_map = path_map(request, &prepared.snapshot_dir);
    let workspaces: Vec<PathBuf> = (0..request.interpreters.len())
        .map(|index| prepared.root.join(format!("run-{index}")))
        .collect();
    let mut contexts: Vec<RunContext> = workspaces
        .iter()
        .map(|workspace| RunContext {
            request,
            grader: grader.as_ref(),
            runner,
            program: &prepared.program,
            source: &source,
            workspace,
            path_map: path_map.clone(),
            expose: &prepared.expose,
            jobs: request.jobs,
        })
        .collect();
    // Every run's sample cases before any run's secret ones (see `RunContext::begin`).
    let runs = begin_then_finish(request, &mut contexts, reporter);
    if request.shared.is_none() {
        // The submission's interpreters are not needed any more, whatever happened.
        runner.finished_with(&prepared.expose);
    }
    let runs = runs?;

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
        hints: wrong
            .into_iter()
            .chain(interpreter_hints(&counted))
            .collect(),
        runs,
        warnings,
        isolation: runner.isolation().summary(),
    };
    reporter
        .event(&Event::Finished(&report))
        .map_err(report_error)?;
    Ok(report)
}

/// What tracebacks' paths to the private copy become: the student's own folder, or nothing
/// (the bare name) where the request names the file alone.
fn path_map(request: &CheckRequest, snapshot_dir: &Path) -> (String, String) {
    if request.shown_as.is_some() {
        return (format!("{}/", snapshot_dir.display()), String::new());
    }
    let original_dir = std::path::absolute(request.submission)
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    (
        snapshot_dir.display().to_string(),
        original_dir.display().to_string(),
    )
}

/// Each interpreter's run begun (its sample cases), then each finished (its secret cases),
/// each reported as it finishes: side by side where the request allows it and there are jobs
/// for more than one run.
fn begin_then_finish(
    request: &CheckRequest,
    contexts: &mut [RunContext],
    reporter: &mut dyn Reporter,
) -> Result<Vec<RunReport>, Error> {
    if request.runs_side_by_side && request.jobs >= 2 && contexts.len() >= 2 {
        let share = (request.jobs / contexts.len()).max(1);
        for context in contexts.iter_mut() {
            context.jobs = share;
        }
        return side_by_side::begin_then_finish(request.interpreters, contexts, reporter);
    }
    let mut begun = Vec::with_capacity(contexts.len());
    for (context, wanted) in contexts.iter().zip(request.interpreters) {
        let interpreter = interpreter::resolve(wanted);
        begun.push(context.begin(&interpreter, reporter)?);
    }
    let mut runs = Vec::with_capacity(contexts.len());
    for (context, begun) in contexts.iter().zip(begun) {
        let run = context.finish(begun, reporter)?;
        reporter
            .event(&Event::RunFinished(&run))
            .map_err(report_error)?;
        runs.push(run);
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    //! The check pipeline with a scripted runner: no Python, no processes.
    use super::*;
    use crate::lab::Lab;
    use crate::lab::Visibility;
    use crate::report::Silent;
    use crate::runner::scripted::{Conversation, outcome};
    use crate::runner::{RunSpec, ScriptedRunner, Termination};

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
            lab_exercises: &[],
            submission: &file,
            shown_as: None,
            interpreters: &["/bin/sh".to_string()],
            jobs: 2,
            siblings: false,
            shared: None,
            runs_side_by_side: false,
            stop: &crate::stop::Stop::new(),
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
    fn a_wrong_answer_is_explained_to_students_on_samples_only() {
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
                    // The report keeps the message and the feedback (without hints), for the
                    // instructor; a student's view shows the verdict alone.
                    let feedback = case.feedback.as_ref().expect("kept for the instructor");
                    assert!(feedback.got.contains("nothing like a board"));
                    assert!(feedback.hints.is_empty() && !case.message.is_empty());
                    let seen = case.for_student();
                    assert!(seen.message.is_empty() && seen.time_ms.is_none());
                    assert!(seen.feedback.is_none());
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

    /// Each case's run and name, and each run's end, in the order reported.
    struct Order(Vec<String>);

    impl Reporter for Order {
        fn event(&mut self, event: &Event) -> std::io::Result<()> {
            match event {
                Event::CaseFinished { run, case } => self.0.push(format!("{run} {}", case.name)),
                Event::RunFinished(run) => self.0.push(format!("{} ended", run.label())),
                _ => {}
            }
            Ok(())
        }
    }

    #[test]
    fn runs_side_by_side_are_reported_as_one_thread_reports_them() {
        // Two interpreters told apart by the version their probe answers.
        let runner = ScriptedRunner::new(|spec| {
            if spec.args.first().is_some_and(|a| a == "-S") {
                let version = if spec.program.to_string_lossy().contains("env") {
                    "2.7.18"
                } else {
                    "3.11.0"
                };
                let probe = format!(r#"{{"version": "{version}", "error": null}}"#);
                outcome(Termination::Exited(0), &probe, "")
            } else {
                outcome(Termination::Exited(0), "1\n", "")
            }
        });
        let lab = Lab::built_in().unwrap();
        let exercise = lab.exercise("exclusive_or").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("exclusive_or.py");
        std::fs::write(&file, "print(1)\n").unwrap();
        let interpreters = ["/bin/sh".to_string(), "/usr/bin/env".to_string()];
        let order = |side_by_side: bool| {
            let request = CheckRequest {
                exercise,
                lab_names: &[],
                lab_exercises: &[],
                submission: &file,
                shown_as: None,
                interpreters: &interpreters,
                jobs: 2,
                siblings: false,
                shared: None,
                runs_side_by_side: side_by_side,
                stop: &crate::stop::Stop::new(),
            };
            let mut order = Order(Vec::new());
            check(&request, &runner, &mut order).unwrap();
            order.0
        };
        let one_thread = order(false);
        assert_eq!(order(true), one_thread);
        // Every run's samples, then each run's secret cases and its end.
        let first_secret = one_thread.iter().position(|e| e.contains(" secret/"));
        let samples = &one_thread[..first_secret.unwrap()];
        assert!(
            samples
                .iter()
                .any(|e| e.starts_with("Python 2.7.18 sample/"))
        );
        assert!(
            samples.iter().all(|e| e.contains(" sample/")),
            "{one_thread:?}"
        );
        assert_eq!(one_thread.last().unwrap(), "Python 2.7.18 ended");
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
            lab_exercises: &[],
            submission: &file,
            shown_as: None,
            interpreters: &["/nowhere/python9".to_string()],
            jobs: 1,
            siblings: false,
            shared: None,
            runs_side_by_side: false,
            stop: &crate::stop::Stop::new(),
        };
        let runner = ScriptedRunner::new(|_| unreachable!("nothing runs"));
        let report = check(&request, &runner, &mut Silent).unwrap();
        assert_eq!(report.verdict, Verdict::Skipped);
    }
}
