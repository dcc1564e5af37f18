//! The verdicts a run can get, in the order contest judges give them.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Accepted,
    /// An interactive program nimlab could not find out how to drive: not judged either way.
    NotJudged,
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
            Verdict::NotJudged => 2,
            Verdict::WrongAnswer => 3,
            Verdict::RuntimeError => 4,
            Verdict::OutputLimit => 5,
            Verdict::MemoryLimit => 6,
            Verdict::TimeLimit => 7,
            Verdict::SyntaxError => 8,
            Verdict::JudgeError => 9,
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
            Verdict::NotJudged => "not judged",
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
