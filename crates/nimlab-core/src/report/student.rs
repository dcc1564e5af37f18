//! What a student may see of a report. A [`CheckReport`] keeps every detail, for the
//! instructor; every rendering a student sees (`nimlab check` unless `--instructor`, the
//! student's page of `nimlab grade`, the website's pages and API for a student) goes through
//! [`CheckReport::for_student`] or [`StudentView`], and nowhere else decides what to leave out.
//!
//! A student sees of a secret case only its verdict: no time (a program can spell a secret
//! input in CPU time), no message, no feedback. Of nimlab's own failures a student sees a
//! plain sentence, never their detail (tracebacks, temporary folders, the interpreters'
//! paths), which is nimlab's and the instructor's.

use super::{CaseReport, CheckReport, Event, Reporter, RunReport};
use crate::lab::Visibility;
use crate::verdict::Verdict;

/// A case nimlab could not judge, as a student is told it.
pub const JUDGE_ERROR: &str = "nimlab could not judge this case (its fault, not yours); the full report, for the instructor, says why";

/// A run nimlab could not start or judge at all (its interpreter failed), as a student is told it.
pub const RUN_JUDGE_ERROR: &str = "nimlab could not run this interpreter (not your program's fault); the full report, for the instructor, says why";

/// A run where nimlab's runner failed and some cases were run another way.
pub const RUNNER_NOTE: &str =
    "nimlab's runner failed on some cases and ran them another way; this is not your fault";

impl CheckReport {
    /// The report as a student may see it.
    pub fn for_student(&self) -> CheckReport {
        CheckReport {
            runs: self.runs.iter().map(RunReport::for_student).collect(),
            ..self.clone()
        }
    }
}

impl RunReport {
    /// The run as a student may see it: the interpreter's version but not where it is, and
    /// no detail of nimlab's own failures.
    pub fn for_student(&self) -> RunReport {
        let message = match self.verdict {
            Verdict::JudgeError => self.message.as_ref().map(|_| RUN_JUDGE_ERROR.to_string()),
            _ => self.message.clone(),
        };
        RunReport {
            interpreter: bare_interpreter(&self.interpreter).to_string(),
            path: None,
            message,
            cases: self.cases.iter().map(CaseReport::for_student).collect(),
            runner_note: self.runner_note.as_ref().map(|_| RUNNER_NOTE.to_string()),
            ..self.clone()
        }
    }
}

impl CaseReport {
    /// The case as a student may see it: a secret case's verdict alone, and a judge error
    /// said in a sentence of nimlab's, without its detail.
    pub fn for_student(&self) -> CaseReport {
        let mut case = self.clone();
        if case.verdict == Verdict::JudgeError {
            case.message = JUDGE_ERROR.into();
        }
        if case.visibility == Visibility::Secret {
            case.time_ms = None;
            case.wall_ms = None;
            case.feedback = None;
            // A skipped case's message is nimlab's own (it was interrupted), not the case's.
            if !matches!(case.verdict, Verdict::JudgeError | Verdict::Skipped) {
                case.message.clear();
            }
        }
        case
    }
}

/// An interpreter given as a path (on the machine that judged) by its file name alone.
fn bare_interpreter(interpreter: &str) -> &str {
    interpreter.rsplit('/').next().unwrap_or(interpreter)
}

/// Passes every event on to a reporter as a student may see it.
pub struct StudentView<R>(pub R);

impl<R: Reporter> Reporter for StudentView<R> {
    fn event(&mut self, event: &Event) -> std::io::Result<()> {
        match event {
            Event::Started { .. } => self.0.event(event),
            Event::CaseFinished { run, case } => self.0.event(&Event::CaseFinished {
                run,
                case: &case.for_student(),
            }),
            Event::RunFinished(run) => self.0.event(&Event::RunFinished(&run.for_student())),
            Event::Finished(report) => self.0.event(&Event::Finished(&report.for_student())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::CaseFeedback;

    fn case(visibility: Visibility, verdict: Verdict, message: &str) -> CaseReport {
        CaseReport {
            name: "a".into(),
            visibility,
            weight: 1,
            verdict,
            time_ms: Some(1234),
            wall_ms: Some(1500),
            message: message.into(),
            feedback: Some(CaseFeedback {
                input: "1 2\n".into(),
                expected: "3\n".into(),
                one_of_many: false,
                got: "4\n".into(),
                first_difference: None,
                stderr: None,
                hints: vec![],
                transcript: None,
                broken_rule: None,
            }),
        }
    }

    fn run(cases: Vec<CaseReport>) -> RunReport {
        RunReport {
            interpreter: "/opt/python/bin/python3.11".into(),
            version: Some("3.11.7".into()),
            path: Some("/opt/python/bin/python3.11".into()),
            verdict: Verdict::WrongAnswer,
            score: 0,
            max_score: 2,
            message: None,
            syntax: None,
            cases,
            runner: "fork and process".into(),
            runner_note: Some("1 of 2 runs were processes of their own, not forks: the fork server ended: Traceback (most recent call last):\n  File \"/tmp/nimlab-1-fork-x/forkserver.py\"".into()),
        }
    }

    #[test]
    fn a_secret_case_keeps_only_its_verdict_and_a_sample_case_keeps_everything() {
        let full = run(vec![
            case(
                Visibility::Sample,
                Verdict::TimeLimit,
                "used 1234 ms of CPU",
            ),
            case(
                Visibility::Secret,
                Verdict::TimeLimit,
                "used 1234 ms of CPU",
            ),
        ]);
        let seen = full.for_student();
        let (sample, secret) = (&seen.cases[0], &seen.cases[1]);
        assert_eq!(sample.time_ms, Some(1234));
        assert_eq!(sample.message, "used 1234 ms of CPU");
        assert!(sample.feedback.is_some());
        assert_eq!(secret.verdict, Verdict::TimeLimit);
        assert_eq!((secret.time_ms, secret.wall_ms), (None, None));
        assert_eq!(secret.message, "");
        assert!(secret.feedback.is_none());
        // The report itself keeps it all.
        assert_eq!(full.cases[1].time_ms, Some(1234));
        assert_eq!(full.cases[1].message, "used 1234 ms of CPU");
    }

    #[test]
    fn nimlabs_own_failures_are_a_sentence_without_their_detail() {
        let mut full = run(vec![
            case(
                Visibility::Sample,
                Verdict::JudgeError,
                "cannot create the run's working folder /tmp/nimlab-1/case-0: No space left",
            ),
            case(
                Visibility::Secret,
                Verdict::JudgeError,
                "the case's input is bad: the-secret-row",
            ),
        ]);
        let seen = full.for_student();
        for case in &seen.cases {
            assert_eq!(case.message, JUDGE_ERROR);
        }
        assert_eq!(seen.runner_note.as_deref(), Some(RUNNER_NOTE));
        assert_eq!(seen.path, None);
        assert_eq!(seen.interpreter, "python3.11");
        assert_eq!(seen.label(), "Python 3.11.7");
        full.verdict = Verdict::JudgeError;
        full.message = Some("cannot start /opt/python/bin/python3.11: denied".into());
        assert_eq!(full.for_student().message.as_deref(), Some(RUN_JUDGE_ERROR));
        // A run's message that is not nimlab's failure stays.
        full.verdict = Verdict::Skipped;
        full.message = Some("Python 2.7 is not installed here".into());
        assert_eq!(
            full.for_student().message.as_deref(),
            Some("Python 2.7 is not installed here")
        );
    }
}
