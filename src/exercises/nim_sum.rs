use super::{Exercise, HintCase, as_board, case_type, field, json_line, json_object};
use super::{Parsed, Settings};
use crate::error::BadInput;
use crate::nim;
use num_traits::Zero;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Debug)]
pub struct NimSum;

/// Which name the lab gives a board with nim-sum zero: exercise.toml's `positions`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionNaming {
    /// The lab's own naming: nim-sum zero is an "N-position".
    #[default]
    Lab,
    /// The textbook naming: nim-sum zero is a "P-position" (previous player wins).
    Textbook,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NimSumSettings {
    #[serde(default)]
    positions: PositionNaming,
}

fn naming(settings: &Settings) -> PositionNaming {
    settings
        .get::<PositionNaming>()
        .copied()
        .unwrap_or_default()
}

fn answer(input: &str, naming: PositionNaming) -> Result<Value, BadInput> {
    let map = json_object(input)?;
    let board = as_board(field(&map, "input")?)?;
    let sum = nim::nim_sum(&board);
    // The lab calls a nim-sum of zero an N-position; textbooks call it a P-position.
    let zero_name = match naming {
        PositionNaming::Lab => "is_n_position",
        PositionNaming::Textbook => "is_p_position",
    };
    Ok(match case_type(&map, "type")? {
        "nim_sum" => crate::pyjson::int(&sum),
        kind @ ("is_n_position" | "is_p_position") => {
            Value::Bool(sum.is_zero() == (kind == zero_name))
        }
        other => {
            return Err(BadInput::new(format!(
                "unknown type \"{other}\": expected \"nim_sum\", \"is_n_position\" or \"is_p_position\""
            )));
        }
    })
}

impl Exercise for NimSum {
    fn name(&self) -> &'static str {
        "nim_sum"
    }

    fn settings(&self, keys: &toml::Table) -> Result<Settings, BadInput> {
        let parsed = NimSumSettings::deserialize(keys.clone())
            .map_err(|e| BadInput::new(e.to_string().trim_end().to_string()))?;
        Ok(Parsed::new(parsed.positions))
    }

    fn variant(&self, settings: &Settings) -> Option<&'static str> {
        (naming(settings) == PositionNaming::Textbook).then_some("textbook")
    }

    fn reference(&self, input: &str, settings: &Settings) -> Result<String, BadInput> {
        answer(input, naming(settings)).map(|v| json_line(&v))
    }

    fn expected(&self, input: &str, stored: &str, settings: &Settings) -> Result<String, BadInput> {
        // Fixtures are written in the lab's naming; textbook naming flips the position answers.
        match naming(settings) {
            PositionNaming::Lab => Ok(stored.to_string()),
            PositionNaming::Textbook => self.reference(input, settings),
        }
    }

    fn generate(&self, rng: &mut ChaCha8Rng) -> Option<String> {
        let rows = rng.random_range(0..=10);
        let mut board = super::random_board(rng, rows, 40);
        // Half the boards get a nim-sum of zero, so both answers are common.
        if rows > 0 && rng.random_bool(0.5) {
            let rest = nim::nim_sum(&board[1..]);
            board[0] = rest;
        }
        let kind = ["nim_sum", "is_n_position", "is_p_position"][rng.random_range(0..3)];
        let case = json!({"type": kind, "input": super::int_list_value(&board)});
        Some(format!("{}\n", crate::pyjson::dumps(&case)))
    }

    fn hints(&self, case: &HintCase) -> Vec<String> {
        let is_position_case = case
            .input_json()
            .and_then(|map| map.get("type").and_then(Value::as_str).map(str::to_string))
            .is_some_and(|kind| kind.starts_with("is_"));
        let flipped = matches!(
            (case.got_json(), serde_json::from_str::<Value>(case.expected)),
            (Some(Value::Bool(g)), Ok(Value::Bool(e))) if g != e
        );
        if is_position_case && flipped {
            vec!["Check which name this lab gives a board with nim-sum 0: read the statement's definition of N- and P-positions again (`nimlab show nim_sum`).".into()]
        } else {
            Vec::new()
        }
    }
}
