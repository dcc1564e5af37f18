//! Judges: turn a finished run into a verdict, by comparing, checking, or classifying how it
//! ended.

pub mod compare;
pub mod game;

use crate::feedback::traceback_summary;
use crate::lab::config::Comparison;
use crate::lab::{Case, LabExercise};
use crate::runner::{RunLimits, RunOutcome, Termination};
use compare::LineDifference;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Accepted,
    WrongAnswer,
    TimeLimit,
    MemoryLimit,
    OutputLimit,
    RuntimeError,
    SyntaxError,
    /// nimlab's own failure: never blamed on the student.
    JudgeError,
    /// Not run: the interpreter is not installed.
    Skipped,
}

impl Verdict {
    /// Higher is worse. When a run meets several conditions the first that applies in
    /// `judge_case` wins; across cases and runs the worst verdict stands for the whole.
    pub fn severity(self) -> u8 {
        match self {
            Verdict::Skipped => 0,
            Verdict::Accepted => 1,
            Verdict::WrongAnswer => 2,
            Verdict::RuntimeError => 3,
            Verdict::OutputLimit => 4,
            Verdict::MemoryLimit => 5,
            Verdict::TimeLimit => 6,
            Verdict::SyntaxError => 7,
            Verdict::JudgeError => 8,
        }
    }

    /// The worst verdict of several; `Skipped` when there are none.
    pub fn worst(verdicts: impl IntoIterator<Item = Verdict>) -> Verdict {
        verdicts
            .into_iter()
            .max_by_key(|v| v.severity())
            .unwrap_or(Verdict::Skipped)
    }

    pub fn label(self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::WrongAnswer => "wrong answer",
            Verdict::TimeLimit => "time limit exceeded",
            Verdict::MemoryLimit => "memory limit exceeded",
            Verdict::OutputLimit => "output limit exceeded",
            Verdict::RuntimeError => "runtime error",
            Verdict::SyntaxError => "syntax error",
            Verdict::JudgeError => "judge error (nimlab's fault, not yours)",
            Verdict::Skipped => "skipped",
        }
    }
}

/// A case's verdict with what explains it.
#[derive(Debug, Clone)]
pub struct Judgement {
    pub verdict: Verdict,
    pub message: String,
    pub first_difference: Option<LineDifference>,
}

impl Judgement {
    fn new(verdict: Verdict, message: impl Into<String>) -> Judgement {
        Judgement {
            verdict,
            message: message.into(),
            first_difference: None,
        }
    }
}

fn looks_out_of_memory(outcome: &RunOutcome, limits: &RunLimits) -> bool {
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    last.starts_with("MemoryError")
        || stderr.contains("Cannot allocate memory")
        || stderr.contains("std::bad_alloc")
        || (matches!(outcome.termination, Termination::Signaled(_))
            && outcome.max_rss_bytes * 10 >= limits.memory_bytes * 9)
}

/// Decides one case. The order is fixed, as in contest judges: time, memory, output, crash,
/// then the answer itself.
pub fn judge_case(
    exercise: &LabExercise,
    case: &Case,
    outcome: &RunOutcome,
    limits: &RunLimits,
) -> Judgement {
    let cpu_ms = outcome.cpu.as_millis();
    if outcome.termination == Termination::WallTimeout {
        return Judgement::new(
            Verdict::TimeLimit,
            format!(
                "stopped at the wall-clock limit of {} ms, having used {cpu_ms} ms of CPU time",
                limits.wall.as_millis()
            ),
        );
    }
    if outcome.cpu > limits.cpu
        || outcome.termination == Termination::CpuTimeout
        || outcome.termination == Termination::Signaled(libc::SIGXCPU)
    {
        let used = if outcome.cpu > limits.cpu {
            format!("used {cpu_ms} ms of CPU time")
        } else {
            "was stopped when it had used all its CPU time".to_string()
        };
        return Judgement::new(
            Verdict::TimeLimit,
            format!("{used}; the limit is {} ms", limits.cpu.as_millis()),
        );
    }
    if outcome.out_of_memory || (!outcome.success() && looks_out_of_memory(outcome, limits)) {
        return Judgement::new(
            Verdict::MemoryLimit,
            format!(
                "ran out of memory: the limit is {} MB",
                limits.memory_bytes / (1024 * 1024)
            ),
        );
    }
    if outcome.termination == Termination::OutputLimit {
        return Judgement::new(
            Verdict::OutputLimit,
            format!(
                "printed more than {} KB, the output limit",
                limits.output_bytes / 1024
            ),
        );
    }
    match outcome.termination {
        Termination::Exited(0) => {}
        Termination::Exited(code) => {
            let summary = traceback_summary(&outcome.stderr)
                .unwrap_or_else(|| format!("the program exited with status {code}"));
            return Judgement::new(Verdict::RuntimeError, summary);
        }
        Termination::Signaled(signal) => {
            return Judgement::new(
                Verdict::RuntimeError,
                format!("the program was killed by {}", signal_name(signal)),
            );
        }
        Termination::WallTimeout | Termination::CpuTimeout | Termination::OutputLimit => {
            unreachable!("handled above")
        }
    }
    // Invalid UTF-8 can never match; escaped, it at least shows what was printed.
    let got = match std::str::from_utf8(&outcome.stdout) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => std::borrow::Cow::Owned(crate::feedback::printable(&outcome.stdout)),
    };
    judge_output(exercise, case, &got)
}

/// Compares or checks an output that the program printed and exited cleanly with.
pub fn judge_output(exercise: &LabExercise, case: &Case, got: &str) -> Judgement {
    if exercise.config.comparison == Comparison::Checker {
        let module = exercise
            .module
            .expect("the loader ensures checker exercises have a module");
        return match module.check(&case.input, got, &exercise.config) {
            Ok(Ok(())) => Judgement::new(Verdict::Accepted, ""),
            Ok(Err(why)) => Judgement::new(Verdict::WrongAnswer, why),
            Err(bad) => Judgement::new(
                Verdict::JudgeError,
                format!("the case's input is bad: {bad}"),
            ),
        };
    }
    match compare::compare(exercise.config.comparison, &case.expected, got) {
        Ok(()) => Judgement::new(Verdict::Accepted, ""),
        Err(mismatch) => Judgement {
            verdict: Verdict::WrongAnswer,
            message: mismatch.message,
            first_difference: mismatch.first_difference,
        },
    }
}

fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGSEGV => "SIGSEGV (segmentation fault)",
        libc::SIGBUS => "SIGBUS (bus error)",
        libc::SIGILL => "SIGILL (illegal instruction)",
        libc::SIGABRT => "SIGABRT (the interpreter aborted)",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXFSZ => "SIGXFSZ (it wrote a file larger than allowed)",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGFPE => "SIGFPE",
        _ => return format!("signal {signal}"),
    };
    name.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worst_follows_severity() {
        assert_eq!(
            Verdict::worst([Verdict::Accepted, Verdict::WrongAnswer, Verdict::Skipped]),
            Verdict::WrongAnswer
        );
        assert_eq!(
            Verdict::worst([Verdict::TimeLimit, Verdict::RuntimeError]),
            Verdict::TimeLimit
        );
        assert_eq!(Verdict::worst([]), Verdict::Skipped);
    }
}
