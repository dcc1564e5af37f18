//! One module per exercise, registered in one table. Adding an exercise means adding a module
//! and a line to `REGISTRY`.

mod bin_num;
mod bitwise_xor;
mod exclusive_or;
mod make_move;
mod nim_sum;
mod optimal_move;
mod present_board;
mod ui;
mod working_game;

use crate::error::BadInput;
use crate::lab::config::ExerciseConfig;
use num_bigint::BigInt;
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value};

/// What nimlab knows about an exercise beyond its files: how to answer it and how to judge it.
pub trait Exercise: Sync + std::fmt::Debug {
    fn name(&self) -> &'static str;

    /// Whether the exercise reads one stdin case and prints one answer (false for the game).
    fn has_reference(&self) -> bool {
        true
    }

    /// The reference output for one case's stdin, newline-terminated as `print` leaves it.
    fn reference(&self, input: &str, config: &ExerciseConfig) -> Result<String, BadInput>;

    fn has_checker(&self) -> bool {
        false
    }

    /// Judges an output where many answers are right. `Ok(Err(why))` is a wrong answer;
    /// `Err` means the case's own input is bad (nimlab's fault, not the student's).
    fn check(
        &self,
        _input: &str,
        _output: &str,
        _config: &ExerciseConfig,
    ) -> Result<Result<(), String>, BadInput> {
        Err(BadInput::new(format!("{} has no checker", self.name())))
    }

    /// The expected output under this lab's settings. Fixtures are stored in the lab's default
    /// naming; an exercise whose answers depend on a setting recomputes them.
    fn expected(
        &self,
        _input: &str,
        stored: &str,
        _config: &ExerciseConfig,
    ) -> Result<String, BadInput> {
        Ok(stored.to_string())
    }

    /// A random, valid stdin case (for `nimlab fixtures generate`); `None` where cases are not
    /// stdin (the game).
    fn generate(&self, rng: &mut ChaCha8Rng) -> Option<String>;

    /// Advice for a wrong answer, from what a student's output looks like.
    fn hints(&self, _case: &HintCase) -> Vec<String> {
        Vec::new()
    }
}

/// A failed case as the hint rules see it.
pub struct HintCase<'a> {
    pub input: &'a str,
    pub got: &'a str,
    pub expected: &'a str,
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
