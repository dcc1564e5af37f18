//! One module per exercise, registered in one table. Adding an exercise means adding a module
//! and a line to `REGISTRY`.

mod bin_num;
mod bitwise_xor;
mod exclusive_or;
mod judging;
mod make_move;
mod misere_game;
mod misere_move;
mod nim_sum;
mod optimal_move;
mod present_board;
mod ui;
pub mod working_game;

pub use judging::{
    Checked, Checker, Comparison, HintContext, Interactive, Judging, Played, TranscriptEntry,
};

use crate::error::BadInput;
use num_bigint::BigInt;
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value};
use std::any::Any;
use std::sync::Arc;

/// What nimlab knows about an exercise beyond its files: how to answer it, how to judge it,
/// and what to tell a student who got it wrong. One module per exercise implements it.
pub trait Exercise: Sync + std::fmt::Debug {
    fn name(&self) -> &'static str;

    /// How a run is judged. `comparison` is what the lab's exercise.toml chose for exercises
    /// whose output is compared with an expected output; an exercise with a checker or a
    /// game decides for itself.
    fn judging(&self, comparison: Comparison) -> Judging<'_> {
        Judging::Expected(comparison)
    }

    /// Reads the settings only this exercise has: the keys of its exercise.toml beyond the
    /// common ones. An exercise with none refuses every such key.
    fn settings(&self, keys: &toml::Table) -> Result<Settings, BadInput> {
        no_settings(keys)
    }

    /// Which variant of the statement, stub and solution its settings ask for
    /// (`README.<variant>.md`), if any.
    fn variant(&self, _settings: &Settings) -> Option<&'static str> {
        None
    }

    /// The reference output for one stdin case, newline-terminated as `print` leaves it.
    fn reference(&self, input: &str, settings: &Settings) -> Result<String, BadInput>;

    /// The expected output under this lab's settings. Fixtures are stored as the default
    /// settings answer them; an exercise whose answers depend on a setting recomputes them.
    fn expected(
        &self,
        _input: &str,
        stored: &str,
        _settings: &Settings,
    ) -> Result<String, BadInput> {
        Ok(stored.to_string())
    }

    /// A random, valid stdin case (for `nimlab fixtures generate`); `None` where cases are
    /// not stdin (a game).
    fn generate(&self, rng: &mut ChaCha8Rng) -> Option<String>;

    /// A proof `fixtures verify` runs besides the cases: its judge checked against an
    /// exhaustive search over every small board. `None` for an exercise with none; otherwise
    /// what was proved, in a few words, or the first counterexample found.
    fn proof(&self) -> Option<Result<String, String>> {
        None
    }

    /// Advice for a wrong answer, from what a student's output looks like.
    fn hints(&self, _case: &HintCase) -> Vec<String> {
        Vec::new()
    }

    /// Once every case of a run is judged: takes back a hint of [`Exercise::hints`] on
    /// `run[at]` that the run's other cases rule out (a cause one case suggests and another
    /// contradicts), or names the cause more exactly where the run tells which it is. The
    /// other cases are only evidence: nothing of theirs may be quoted (some are secret).
    fn settle(&self, _run: &[RunCase], _at: usize, _hints: &mut Vec<String>) {}
}

/// Something an exercise parsed once (a scenario, its settings) and reads back by type;
/// only the exercise that made it knows what is inside.
#[derive(Clone)]
pub struct Parsed(Arc<dyn Any + Send + Sync>);

impl Parsed {
    pub fn new<T: Any + Send + Sync>(value: T) -> Self {
        Parsed(Arc::new(value))
    }

    /// The value, if it is a `T`.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.downcast_ref()
    }
}

impl std::fmt::Debug for Parsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Parsed(..)")
    }
}

/// An exercise's own settings, parsed once when the lab is loaded.
pub type Settings = Parsed;

/// The settings of an exercise that has none.
pub fn no_settings(keys: &toml::Table) -> Result<Settings, BadInput> {
    match keys.keys().next() {
        Some(key) => Err(BadInput::new(format!("unknown key `{key}`"))),
        None => Ok(Parsed::new(())),
    }
}

/// A failed case as the hint rules see it.
pub struct HintCase<'a> {
    pub input: &'a str,
    pub got: &'a str,
    pub expected: &'a str,
}

/// One case of a judged run, as [`Exercise::settle`] sees it.
pub struct RunCase<'a> {
    pub input: &'a str,
    pub expected: &'a str,
    pub passed: bool,
    /// What the program printed, where it gave a wrong answer.
    pub got: Option<&'a str>,
}

impl RunCase<'_> {
    pub fn input_json(&self) -> Option<Map<String, Value>> {
        match serde_json::from_str(self.input) {
            Ok(Value::Object(map)) => Some(map),
            _ => None,
        }
    }

    /// The `type` of a JSON case (`nim_sum`, `is_human`).
    pub fn kind(&self) -> Option<String> {
        let map = self.input_json()?;
        Some(map.get("type")?.as_str()?.to_string())
    }

    pub fn got_json(&self) -> Option<Value> {
        serde_json::from_str(self.got?.trim()).ok()
    }
}

impl HintCase<'_> {
    pub fn got_json(&self) -> Option<Value> {
        serde_json::from_str(self.got.trim()).ok()
    }

    pub fn input_json(&self) -> Option<Map<String, Value>> {
        match serde_json::from_str(self.input) {
            Ok(Value::Object(map)) => Some(map),
            _ => None,
        }
    }
}

static REGISTRY: &[&dyn Exercise] = &[
    &present_board::PresentBoard,
    &make_move::MakeMove,
    &exclusive_or::ExclusiveOr,
    &bin_num::BinNum,
    &bitwise_xor::BitwiseXor,
    &nim_sum::NimSum,
    &optimal_move::OptimalMove,
    &ui::Ui,
    &working_game::WorkingGame,
    // Further study, after the lab's nine.
    &misere_move::MisereMove,
    &misere_game::MisereGame,
];

pub fn find(name: &str) -> Option<&'static dyn Exercise> {
    REGISTRY.iter().copied().find(|e| e.name() == name)
}

pub fn all() -> &'static [&'static dyn Exercise] {
    REGISTRY
}

// ---- Reading stdin cases -------------------------------------------------------------------

/// present_board, exclusive_or and bitwise_xor keep the lab's contract: its starter block reads
/// one line (`input("")`), so a case is one line, with or without its line ending.
pub(crate) fn one_line(input: &str) -> Result<&str, BadInput> {
    let line = input.strip_suffix('\n').unwrap_or(input);
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.contains(['\n', '\r']) {
        return Err(BadInput::new(
            "a case must be one line: the lab's starter block reads a single line with input()",
        ));
    }
    Ok(line)
}

pub(crate) fn json_object(input: &str) -> Result<Map<String, Value>, BadInput> {
    match serde_json::from_str(input) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(BadInput::new("the input must be a JSON object")),
        Err(e) => Err(BadInput::new(format!("the input is not valid JSON: {e}"))),
    }
}

pub(crate) fn field<'a>(map: &'a Map<String, Value>, key: &str) -> Result<&'a Value, BadInput> {
    map.get(key)
        .ok_or_else(|| BadInput::new(format!("the input has no \"{key}\" field")))
}

pub(crate) fn as_int(value: &Value, what: &str) -> Result<BigInt, BadInput> {
    match value {
        Value::Number(n) => n
            .to_string()
            .parse()
            .map_err(|_| BadInput::new(format!("{what} must be an integer, not {n}"))),
        other => Err(BadInput::new(format!(
            "{what} must be an integer, not {other}"
        ))),
    }
}

pub(crate) fn as_int_list(value: &Value, what: &str) -> Result<Vec<BigInt>, BadInput> {
    match value {
        Value::Array(items) => items.iter().map(|item| as_int(item, what)).collect(),
        other => Err(BadInput::new(format!(
            "{what} must be a list of integers, not {other}"
        ))),
    }
}

pub(crate) fn as_board(value: &Value) -> Result<Vec<BigInt>, BadInput> {
    let board = as_int_list(value, "a row size")?;
    if board.iter().any(|row| row < &BigInt::ZERO) {
        return Err(BadInput::new("row sizes cannot be negative"));
    }
    Ok(board)
}

pub(crate) fn case_type<'a>(map: &'a Map<String, Value>, key: &str) -> Result<&'a str, BadInput> {
    field(map, key)?
        .as_str()
        .ok_or_else(|| BadInput::new(format!("\"{key}\" must be a string")))
}

pub(crate) fn json_line(value: &Value) -> String {
    format!("{}\n", crate::pyjson::dumps(value))
}

pub(crate) fn int_list_value(items: &[BigInt]) -> Value {
    Value::Array(items.iter().map(crate::pyjson::int).collect())
}

/// A random board of `rows` rows with up to `max` elements each.
pub(crate) fn random_board(rng: &mut ChaCha8Rng, rows: usize, max: u32) -> Vec<BigInt> {
    use rand::RngExt;
    (0..rows)
        .map(|_| BigInt::from(rng.random_range(0..=max)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names_are_unique_and_match_modules() {
        let mut names: Vec<&str> = all().iter().map(|e| e.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all().len());
        assert!(find("nim_sum").is_some());
        assert!(find("chess").is_none());
    }
}
