//! How one case is run and judged: the one call every case goes through ([`Grader::grade`]),
//! and the one place that chooses the grader from the exercise's judging ([`grader`]). A
//! batch grader runs the program once on the case's stdin and decides its output; a game
//! grader differs only in how it talks to the program: it plays.

use crate::exercises::{HintContext, Interactive};
use crate::feedback;
use crate::judge::{self, OutputJudge, Verdict};
use crate::lab::{Case, CaseInput, LabExercise, Visibility};
use crate::printed::{clip, printable};
use crate::report::{CaseFeedback, CaseReport};
use crate::runner::{RunSpec, RunWay, Runner, Termination};
use crate::stop::Stop;
use crate::traceback::stderr_tail;
use std::path::Path;

/// Everything a grader may use for one case: the program, how to run it, and the case.
pub(super) struct CaseRun<'a> {
    pub exercise: &'a LabExercise,
    /// Every exercise name in the lab, to recognise imports of sibling exercises.
    pub lab_names: &'a [&'a str],
    pub case: &'a Case,
    pub runner: &'a dyn Runner,
    pub spec: &'a RunSpec<'a>,
    /// The submission as it runs (its private copy), and its bytes.
    pub program: &'a Path,
    pub source: &'a [u8],
    /// Tracebacks name the private copy; students should see their own folder.
    pub path_map: &'a (String, String),
    pub stop: &'a Stop,
}

impl CaseRun<'_> {
    fn unmap(&self, text: &str) -> String {
        text.replace(&self.path_map.0, &self.path_map.1)
    }

    /// The feedback's stderr: its last lines, naming the student's own folder.
    fn stderr(&self, stderr: &[u8]) -> Option<String> {
        (!stderr.is_empty()).then(|| self.unmap(&stderr_tail(stderr, 15)))
    }

    /// Every failed case keeps its feedback (input, expected, output) for the instructor;
    /// a student's view leaves out a secret case's (`report::student`).
    fn shows_feedback(&self, verdict: Verdict) -> bool {
        verdict != Verdict::Accepted
    }

    /// Hints are for the student, who sees only the samples' feedback.
    fn hints_wanted(&self) -> bool {
        self.case.visibility == Visibility::Sample
    }
}

/// Runs one case and judges it. `report` arrives blank (a judge error, in case nothing is
/// run) and leaves with the verdict, the times, the message and, for a failed sample, the
/// feedback; with how the case was run (None where nothing ran).
pub(super) trait Grader: Sync {
    fn grade(&self, run: &CaseRun, report: CaseReport) -> (CaseReport, Option<RunWay>);
}

/// The grader of an exercise's cases: the one place where the kind of judging is looked at.
pub(super) fn grader(exercise: &LabExercise) -> Box<dyn Grader + '_> {
    match judge::output_judge(exercise.judging()) {
        Ok(judge) => Box::new(Batch(judge)),
        Err(referee) => Box::new(Game(referee)),
    }
}

pub(super) const INTERRUPTED: &str = "not judged: nimlab was interrupted";

/// A case that nimlab's interruption (Ctrl-C, a server stopping) kept from being judged.
pub(super) fn interrupted(mut report: CaseReport) -> CaseReport {
    report.verdict = Verdict::Skipped;
    report.time_ms = Some(0);
    report.wall_ms = Some(0);
    report.message = INTERRUPTED.into();
    report.feedback = None;
    report
}

/// One run on the case's stdin, its output decided by the exercise's judge.
struct Batch<'a>(Box<dyn OutputJudge + 'a>);

impl Grader for Batch<'_> {
    fn grade(&self, run: &CaseRun, mut report: CaseReport) -> (CaseReport, Option<RunWay>) {
        let case = run.case;
        let outcome = match run.runner.run(run.spec) {
            Ok(outcome) => outcome,
            Err(e) => {
                report.message = e.to_string();
                return (report, None);
            }
        };
        let way = Some(outcome.way.clone());
        // Stopped because nimlab was asked to stop: not the program's fault.
        if run.stop.requested() && outcome.termination == Termination::WallTimeout {
            return (interrupted(report), way);
        }
        let judgement = judge::judge_case(self.0.as_ref(), case, &outcome, &run.spec.limits);
        report.verdict = judgement.verdict;
        report.time_ms = Some(outcome.cpu.as_millis() as u64);
        report.wall_ms = Some(outcome.wall.as_millis() as u64);
        // Every case's message is kept, for the instructor; a student's view of a secret
        // case leaves it out (`report::student`).
        report.message = run.unmap(&judgement.message);
        if run.shows_feedback(judgement.verdict) {
            let one_of_many = self.0.one_of_many();
            let expected = if one_of_many {
                run.exercise
                    .reference(case.input.text())
                    .unwrap_or_default()
            } else {
                case.expected.clone()
            };
            report.feedback = Some(CaseFeedback {
                input: clip(case.input.text(), 20, 2_000),
                expected: clip(&expected, 40, 4_000),
                one_of_many,
                got: clip(&printable(&outcome.stdout), 40, 4_000),
                first_difference: judgement.first_difference.clone(),
                stderr: run.stderr(&outcome.stderr),
                hints: if run.hints_wanted() {
                    feedback::hints(
                        self.0.as_ref(),
                        run.exercise,
                        run.lab_names,
                        case,
                        &judgement,
                        &outcome,
                    )
                } else {
                    Vec::new()
                },
                transcript: None,
                broken_rule: None,
            });
        }
        (report, way)
    }
}

/// The most times one scenario is played from the start while the referee tries the readings
/// a program's words leave open.
const MOST_PLAYS: usize = 6;

/// A scenario played against the program by the exercise's referee.
struct Game<'a>(&'a dyn Interactive);

impl Grader for Game<'_> {
    fn grade(&self, run: &CaseRun, mut report: CaseReport) -> (CaseReport, Option<RunWay>) {
        let case = run.case;
        let CaseInput::Scenario { parsed, .. } = &case.input else {
            report.message = "an interactive exercise's case has no scenario".into();
            return (report, None);
        };
        let mut scenario = parsed.clone();
        let mut plays = 0;
        let (mut played, mut session) = loop {
            let mut session = match run.runner.start(run.spec) {
                Ok(session) => session,
                Err(e) => {
                    report.message = e.to_string();
                    return (report, None);
                }
            };
            let played = self.0.play(&scenario, session.as_mut());
            plays += 1;
            // A reading of the program's words was found wrong: the game again, from the start.
            match self.0.replay(&played) {
                Some(next) if plays < MOST_PLAYS && !run.stop.requested() => {
                    let _ = session.finish();
                    scenario = next;
                }
                _ => break (played, session),
            }
        };
        let end = session.finish().ok();
        drop(session);
        judge::judge_game(&mut played, end.as_ref(), &run.spec.limits);
        report.verdict = played.verdict;
        let way = end.as_ref().map(|end| end.way.clone());
        if let Some(end) = &end {
            report.time_ms = Some(end.cpu.as_millis() as u64);
            report.wall_ms = Some(end.wall.as_millis() as u64);
        }
        if run.stop.requested() && report.verdict != Verdict::Accepted {
            return (interrupted(report), way);
        }
        report.message = run.unmap(&played.message);
        if run.shows_feedback(played.verdict) {
            let stderr = end.and_then(|e| run.stderr(&e.stderr));
            let hints = if !run.hints_wanted() {
                Vec::new()
            } else {
                self.0.hints(
                    &played,
                    &HintContext {
                        stderr: stderr.as_deref(),
                        file: run.program,
                        source: run.source,
                        lab_names: run.lab_names,
                    },
                )
            };
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
