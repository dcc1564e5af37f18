//! How an exercise says its runs are judged, and the traits of the judges it may bring: a
//! checker for outputs where many answers are right, a referee for a game.

use super::{Parsed, Settings};
use crate::error::BadInput;
use crate::runner::Session;

/// How a program's output is compared with the expected output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Comparison {
    /// CMS white-diff: whitespace runs and trailing blank lines don't matter; lines do.
    #[default]
    Lines,
    Exact,
    /// Only the sequence of whitespace-separated tokens matters.
    Tokens,
    /// Both sides parse as JSON and are equal as values.
    Json,
}

impl Comparison {
    pub fn label(self) -> &'static str {
        match self {
            Comparison::Lines => "lines",
            Comparison::Exact => "exact",
            Comparison::Tokens => "tokens",
            Comparison::Json => "json",
        }
    }
}

/// How an exercise's runs are judged: chosen by the exercise, not by its settings.
#[derive(Clone, Copy)]
pub enum Judging<'a> {
    /// The output is compared with the case's expected output.
    Expected(Comparison),
    /// Many outputs are right: the exercise's checker decides.
    Checker(&'a dyn Checker),
    /// The program is played against: nimlab types, reads and referees as it goes.
    Interactive(&'a dyn Interactive),
}

impl Judging<'_> {
    /// The word `nimlab list` shows.
    pub fn label(&self) -> &'static str {
        match self {
            Judging::Expected(comparison) => comparison.label(),
            Judging::Checker(_) => "checker",
            Judging::Interactive(interactive) => interactive.label(),
        }
    }
}

/// A checker's decision on one output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checked {
    Right,
    /// Wrong, and why, in words for the student.
    Wrong(String),
}

/// Judges outputs where many answers are right.
pub trait Checker: Sync {
    /// Decides one output. `Err` means the case's own input is bad (nimlab's fault).
    fn check(&self, input: &str, output: &str) -> Result<Checked, BadInput>;
}

/// Judges a program by talking with it: the exercise's referee.
pub trait Interactive: Sync {
    /// What `nimlab list` calls this kind of judging ("game").
    fn label(&self) -> &'static str;

    /// Reads one scenario fixture (a `.toml` file), once, when the lab is loaded.
    fn scenario(&self, text: &str, settings: &Settings) -> Result<Parsed, BadInput>;

    /// Plays one scenario against a running program, checking the rules as it goes.
    fn play(&self, scenario: &Parsed, program: &mut dyn Session) -> Played;

    /// Advice for a failed scenario, from how it went and what the program left behind.
    fn hints(&self, played: &Played, context: &HintContext) -> Vec<String>;

    /// The scenario to play again from the start, where the play left a reading of the
    /// program's words open and found the one it tried wrong (another menu key, another
    /// form of move); None when the play stands.
    fn replay(&self, _played: &Played) -> Option<Parsed> {
        None
    }
}

/// One line of an interactive run's transcript.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "text")]
pub enum TranscriptEntry {
    /// What the program printed.
    Program(String),
    /// What the judge typed.
    Typed(String),
    /// What the judge made of the program's questions, or tried, in its own words.
    Judge(String),
    /// Where a rule was broken, and how.
    Broken(String),
}

/// How one interactive scenario went.
#[derive(Debug, Clone)]
pub struct Played {
    pub verdict: crate::verdict::Verdict,
    /// Why, in one line.
    pub message: String,
    /// The first rule the program broke (its name, like `turn_order`).
    pub broken_rule: Option<String>,
    pub transcript: Vec<TranscriptEntry>,
    /// Moves made by either side.
    pub moves: usize,
    /// What else the exercise's referee noted, for its own hints.
    pub detail: Option<Parsed>,
}

/// What a failed interactive run left for its hints.
pub struct HintContext<'a> {
    /// The end of the program's stderr (its traceback).
    pub stderr: Option<&'a str>,
    /// The submission as it ran, and its source.
    pub file: &'a std::path::Path,
    pub source: &'a [u8],
    /// Every exercise of the lab, to recognise imports of sibling exercises.
    pub lab_names: &'a [&'a str],
}
