//! The verdicts a run can get, in the order contest judges give them.

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
