use super::{Exercise, HintCase, RunCase, as_board, case_type, field, json_line, json_object};
use super::{Parsed, Settings};
use crate::error::BadInput;
use crate::nim;
use num_bigint::BigInt;
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
        let mut hints = Vec::new();
        if is_position_case && flipped {
            hints.push(NAMING.into());
        }
        let number_for_bool = matches!(
            (
                case.got_json(),
                serde_json::from_str::<Value>(case.expected)
            ),
            (Some(Value::Number(_)), Ok(Value::Bool(_)))
        );
        if is_position_case && number_for_bool {
            hints.push("is_n_position and is_p_position answer True or False (printed as true and false), not a number: return the comparison itself, such as nim_sum(board) == 0.".into());
        }
        hints.extend(sum_hint(case));
        hints
    }

    fn settle(&self, run: &[RunCase], at: usize, hints: &mut Vec<String>) {
        // Names swapped flip every answer of that kind, from a right nim-sum. A wrong
        // nim-sum flips some answers too: where a nim_sum case got a wrong number, or a
        // case of this kind passed, the flip is not the names.
        let kind = run[at].kind();
        let wrong_sum = run
            .iter()
            .any(|c| c.kind().as_deref() == Some("nim_sum") && c.got.is_some());
        let kind_passed = run.iter().any(|c| c.passed && c.kind() == kind);
        if wrong_sum || kind_passed {
            hints.retain(|h| h != NAMING);
        }
    }
}

const NAMING: &str = "Check which name this lab gives a board with nim-sum 0: read the statement's definition of N- and P-positions again (`nimlab show nim_sum`).";

/// A nim-sum computed with another operation, or from only part of the board.
fn sum_hint(case: &HintCase) -> Option<String> {
    let map = case.input_json()?;
    if map.get("type")?.as_str()? != "nim_sum" {
        return None;
    }
    let board = as_board(map.get("input")?).ok()?;
    let got: BigInt = case.got_json()?.as_number()?.to_string().parse().ok()?;
    let right = nim::nim_sum(&board);
    if got == right || board.len() < 2 {
        return None;
    }
    let sum: BigInt = board.iter().sum();
    let or = board.iter().fold(BigInt::ZERO, |acc, row| acc | row);
    let text = if got == sum {
        "That is the ordinary sum of the rows: the nim-sum combines them with exclusive or (total ^= size), not +."
    } else if got == or {
        "That is the rows combined with or (|): the nim-sum combines them with exclusive or (^), where a bit set in two rows cancels."
    } else if got == board[0] && got == nim::nim_sum(&board[1..]) {
        // Either mistake gives this (the nim-sum is 0): not told apart, so not claimed.
        return None;
    } else if got == nim::nim_sum(&board[1..]) {
        "The first row is missing from your nim-sum: it was counted twice (starting from board[0], then XORing every row, board[0] included), and x ^ x is 0. Start from 0."
    } else if got == board[0] {
        "Your function returned the first row alone: its `return` is inside the loop, so it stops after one row. Move the return after the loop."
    } else {
        return None;
    };
    Some(text.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hints_for(input: &str, got: &str, expected: &str) -> Vec<String> {
        NimSum.hints(&HintCase {
            input,
            got,
            expected,
        })
    }

    #[test]
    fn a_nim_sum_computed_another_way_is_named() {
        let case = r#"{"type": "nim_sum", "input": [5, 4, 3, 2]}"#;
        for (got, said) in [("14", "ordinary sum"), ("7", "with or")] {
            let hints = hints_for(case, got, "0");
            assert!(hints.iter().any(|h| h.contains(said)), "{got}: {hints:?}");
        }
        // 5 is both the first row and the rest's nim-sum: neither is claimed.
        assert!(hints_for(case, "5", "0").is_empty());
        let case = r#"{"type": "nim_sum", "input": [6, 4, 3, 2]}"#;
        let twice = hints_for(case, "5", "3");
        assert!(
            twice.iter().any(|h| h.contains("counted twice")),
            "{twice:?}"
        );
        let first = hints_for(case, "6", "3");
        assert!(
            first.iter().any(|h| h.contains("inside the loop")),
            "{first:?}"
        );
        assert!(hints_for(case, "3", "3").is_empty());
    }

    #[test]
    fn the_names_hint_only_where_the_run_shows_the_names_swapped() {
        let handout = r#"{"type": "is_n_position", "input": [5, 4, 3, 2]}"#;
        let twelve = r#"{"type": "is_n_position", "input": [1, 2, 5, 8, 11, 3]}"#;
        let sum = r#"{"type": "nim_sum", "input": [5, 4, 3, 2]}"#;
        let case = |input, passed, got| RunCase {
            input,
            expected: "",
            passed,
            got,
        };
        let settled = |run: &[RunCase]| {
            let mut hints = hints_for(handout, "false", "true");
            NimSum.settle(run, 0, &mut hints);
            hints
        };
        assert_eq!(hints_for(handout, "false", "true"), [NAMING]);
        // Names swapped: every answer of the kind flipped, the nim-sums right.
        let swapped = [
            case(handout, false, Some("false")),
            case(twelve, false, Some("true")),
            case(sum, true, None),
        ];
        assert_eq!(settled(&swapped), [NAMING]);
        // A plainly wrong sum (the rows added: 14) flips the handout board alone.
        let added = [
            case(handout, false, Some("false")),
            case(twelve, true, None),
            case(sum, false, Some("14")),
        ];
        assert!(settled(&added).is_empty(), "{:?}", settled(&added));
        // With no nim_sum case in the run, a passed case of the kind is evidence enough.
        let added = [
            case(handout, false, Some("false")),
            case(twelve, true, None),
        ];
        assert!(settled(&added).is_empty());
    }

    #[test]
    fn a_number_for_a_position_is_named() {
        let case = r#"{"type": "is_n_position", "input": [5, 4, 3, 2]}"#;
        let hints = hints_for(case, "1", "true");
        assert!(
            hints.iter().any(|h| h.contains("not a number")),
            "{hints:?}"
        );
        assert!(hints_for(case, "true", "true").is_empty());
    }
}
