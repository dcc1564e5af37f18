//! Judges: turn a finished run into a verdict, by classifying how it ended and then deciding
//! its output (compared with the expected output, or checked where many answers are right).
//! [`output_judge`] is the one place that says, from an exercise's judging, whether its
//! cases are decided on their output or played.

pub mod compare;

pub use crate::verdict::Verdict;

use crate::exercises::{Checked, Checker, Comparison, Interactive, Judging, Played};
use crate::lab::Case;
use crate::runner::{RunLimits, RunOutcome, Termination};
use crate::traceback::traceback_summary;
use compare::LineDifference;

/// Decides an output that a program printed and exited cleanly with.
pub trait OutputJudge: Sync {
    fn judge(&self, case: &Case, got: &str) -> Judgement;
    /// Whether many outputs are right: the expected output a student is shown is one of them.
    fn one_of_many(&self) -> bool;
    /// Whether answers are JSON values (a Python value printed instead is worth a hint).
    fn answers_in_json(&self) -> bool;
}

/// How an exercise's cases are decided: on the output of one run (`Ok`), or by playing
/// against the program (`Err`, with the exercise's referee).
pub fn output_judge(judging: Judging<'_>) -> Result<Box<dyn OutputJudge + '_>, &dyn Interactive> {
    match judging {
        Judging::Expected(comparison) => Ok(Box::new(comparison)),
        Judging::Checker(checker) => Ok(Box::new(Checking(checker))),
        Judging::Interactive(referee) => Err(referee),
    }
}

impl OutputJudge for Comparison {
    fn judge(&self, case: &Case, got: &str) -> Judgement {
        match compare::compare(*self, &case.expected, got) {
            Ok(()) => Judgement::new(Verdict::Accepted, ""),
            Err(mismatch) => Judgement {
                verdict: Verdict::WrongAnswer,
                message: mismatch.message,
                first_difference: mismatch.first_difference,
            },
        }
    }

    fn one_of_many(&self) -> bool {
        false
    }

    fn answers_in_json(&self) -> bool {
        *self == Comparison::Json
    }
}

/// An exercise's checker, deciding outputs where many are right.
struct Checking<'a>(&'a dyn Checker);

impl OutputJudge for Checking<'_> {
    fn judge(&self, case: &Case, got: &str) -> Judgement {
        match self.0.check(case.input.text(), got) {
            Ok(Checked::Right) => Judgement::new(Verdict::Accepted, ""),
            Ok(Checked::Wrong(why)) => Judgement::new(Verdict::WrongAnswer, why),
            Err(bad) => Judgement::new(
                Verdict::JudgeError,
                format!("the case's input is bad: {bad}"),
            ),
        }
    }

    fn one_of_many(&self) -> bool {
        true
    }

    fn answers_in_json(&self) -> bool {
        true
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
    pub fn new(verdict: Verdict, message: impl Into<String>) -> Judgement {
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
    output: &dyn OutputJudge,
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
        Err(_) => std::borrow::Cow::Owned(crate::printed::printable(&outcome.stdout)),
    };
    output.judge(case, &got)
}

/// A played game's verdict, with how its program ended: a program the kernel stopped for its
/// memory ran out of memory, whatever the crash looked like from the game's side.
pub fn judge_game(played: &mut Played, end: Option<&RunOutcome>, limits: &RunLimits) {
    if end.is_some_and(|end| end.out_of_memory) && played.verdict != Verdict::Accepted {
        played.verdict = Verdict::MemoryLimit;
        played.message = format!(
            "ran out of memory: the limit is {} MB",
            limits.memory_bytes / (1024 * 1024)
        );
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
