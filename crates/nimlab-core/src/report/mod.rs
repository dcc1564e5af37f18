//! Results of a check, the events that announce them, and the reporters that write them.
//! The checker only emits events; adding a format never touches it. A report keeps every
//! detail; what a student sees of it is made in one place, `student.rs`.

mod json;
mod student;
mod text;

pub use json::JsonReporter;
pub use student::StudentView;
pub use text::TextReporter;

pub use crate::exercises::TranscriptEntry;
use crate::judge::compare::LineDifference;
use crate::lab::Visibility;
use crate::lint::Warning;
use crate::verdict::Verdict;
use serde::Serialize;

/// Everything `nimlab check` found; `--format json --instructor` prints exactly this, and
/// `--format json` its [`for_student`](CheckReport::for_student) view.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct CheckReport {
    pub exercise: String,
    pub submission: String,
    /// The worst verdict over all runs that were not skipped.
    pub verdict: Verdict,
    /// The lowest score over the runs that were not skipped: the lab needs every interpreter.
    pub score: u32,
    pub max_score: u32,
    pub runs: Vec<RunReport>,
    pub warnings: Vec<Warning>,
    /// Advice drawn from comparing the runs (works on Python 3 but not 2.7, ...).
    pub hints: Vec<String>,
    /// How the submission was contained ("isolated with bubblewrap: ..." or "not isolated").
    pub isolation: String,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct RunReport {
    /// As requested: "3", "2.7" or a path.
    pub interpreter: String,
    /// "3.11.7", once the interpreter has been asked.
    pub version: Option<String>,
    pub path: Option<String>,
    pub verdict: Verdict,
    pub score: u32,
    pub max_score: u32,
    /// Why the run was skipped, or what stopped it before its cases (a syntax error).
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax: Option<SyntaxFeedback>,
    pub cases: Vec<CaseReport>,
    /// How the cases were run: "fork" (forked from an interpreter started once for the
    /// submission), "process" (one interpreter each), or "fork and process". Reports written
    /// before nimlab had a fork path were all "process".
    #[serde(default = "process")]
    pub runner: String,
    /// Why some runs were processes where forks were asked for (a fork server died, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner_note: Option<String>,
}

fn process() -> String {
    "process".into()
}

impl RunReport {
    pub fn label(&self) -> String {
        match &self.version {
            Some(version) => format!("Python {version}"),
            None if self.interpreter.contains('/') => self.interpreter.clone(),
            None => format!("Python {}", self.interpreter),
        }
    }
}

#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct SyntaxFeedback {
    pub source_line: Option<String>,
    pub hint: Option<String>,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct CaseReport {
    pub name: String,
    pub visibility: Visibility,
    pub weight: u32,
    pub verdict: Verdict,
    /// CPU time. Always there in a report; left out of a student's view of a secret case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_ms: Option<u64>,
    /// What went wrong. A student's view of a secret case has none: only its verdict.
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feedback: Option<CaseFeedback>,
}

/// The full story of a failed sample case.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct CaseFeedback {
    pub input: String,
    /// The expected output, or (for a checker) one right answer of many.
    pub expected: String,
    /// Whether `expected` is only one of many right answers (a checker judged the case).
    pub one_of_many: bool,
    pub got: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_difference: Option<LineDifference>,
    /// The end of what the program wrote to stderr (its traceback).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    pub hints: Vec<String>,
    /// For a game: everything said, the judge's typing apart from the program's output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript: Option<Vec<TranscriptEntry>>,
    /// For a game: the first rule the program broke (its name, like `turn_order`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub broken_rule: Option<String>,
}

/// What the checker announces as it goes.
#[derive(Debug)]
pub enum Event<'a> {
    Started {
        exercise: &'a str,
        title: &'a str,
        submission: &'a str,
    },
    CaseFinished {
        run: &'a str,
        case: &'a CaseReport,
    },
    RunFinished(&'a RunReport),
    Finished(&'a CheckReport),
}

pub trait Reporter {
    fn event(&mut self, event: &Event) -> std::io::Result<()>;
}

impl<R: Reporter + ?Sized> Reporter for Box<R> {
    fn event(&mut self, event: &Event) -> std::io::Result<()> {
        (**self).event(event)
    }
}

/// Reports nothing: for callers that only want the finished report.
pub struct Silent;

impl Reporter for Silent {
    fn event(&mut self, _: &Event) -> std::io::Result<()> {
        Ok(())
    }
}
