use super::Settings;
use super::{Exercise, HintCase, RunCase, as_int_list, case_type, field, json_line, json_object};
use crate::error::BadInput;
use num_traits::Zero;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

#[derive(Debug)]
pub struct Ui;

/// A player is a computer when its name contains "computer" in any letter case.
pub fn is_human(name: &str) -> bool {
    !name.to_lowercase().contains("computer")
}

impl Exercise for Ui {
    fn name(&self) -> &'static str {
        "ui"
    }

    fn reference(&self, input: &str, _: &Settings) -> Result<String, BadInput> {
        let map = json_object(input)?;
        let value = field(&map, "input")?;
        let answer = match case_type(&map, "type")? {
            "is_human" => {
                let name = value
                    .as_str()
                    .ok_or_else(|| BadInput::new("is_human takes a name (a string)"))?;
                is_human(name)
            }
            "is_board_empty" => as_int_list(value, "a row size")?.iter().all(Zero::is_zero),
            other => {
                return Err(BadInput::new(format!(
                    "unknown type \"{other}\": expected \"is_human\" or \"is_board_empty\""
                )));
            }
        };
        Ok(json_line(&Value::Bool(answer)))
    }

    fn generate(&self, rng: &mut ChaCha8Rng) -> Option<String> {
        let case = if rng.random_bool(0.5) {
            let words = [
                "Alice", "Bob", "computer", "COMPUTER", "CoMpUtEr", "compute", "Player", "2",
            ];
            let count = rng.random_range(1..=3);
            let name: Vec<&str> = (0..count)
                .map(|_| words[rng.random_range(0..words.len())])
                .collect();
            json!({"type": "is_human", "input": name.join(" ")})
        } else {
            let rows = rng.random_range(0..=5);
            let board: Vec<u32> = (0..rows)
                .map(|_| {
                    if rng.random_bool(0.7) {
                        0
                    } else {
                        rng.random_range(1..=5)
                    }
                })
                .collect();
            json!({"type": "is_board_empty", "input": board})
        };
        Some(format!("{}\n", crate::pyjson::dumps(&case)))
    }

    fn hints(&self, case: &HintCase) -> Vec<String> {
        let Some(map) = case.input_json() else {
            return Vec::new();
        };
        let kind = map.get("type").and_then(Value::as_str);
        let got = case.got_json();
        let mut hints = Vec::new();
        if kind == Some("is_board_empty") {
            let zeros = map
                .get("input")
                .and_then(|v| as_int_list(v, "a row size").ok())
                .is_some_and(|rows| !rows.is_empty() && rows.iter().all(Zero::is_zero));
            if zeros && got == Some(Value::Bool(false)) {
                hints.push("A board whose rows all hold 0 elements is empty too, though the list has rows: check that every row is 0, not that the list is empty.".into());
            }
            return hints;
        }
        let name = map.get("input").and_then(Value::as_str).unwrap_or("");
        let said = |answer: bool| kind == Some("is_human") && got == Some(Value::Bool(answer));
        // A computer whose name has "computer" in capitals, taken for a human.
        if said(true) && mixed_case(name) {
            hints.push(MIXED_CASE.into());
        }
        if said(false) && is_human(name) {
            hints.push(INVERTED.into());
        }
        hints
    }

    fn settle(&self, run: &[RunCase], _at: usize, hints: &mut Vec<String>) {
        // Comparing in one letter case only never takes a human for a computer: a program
        // that does has is_human the wrong way round, and "ComPuTer" taken for a human is
        // that mistake too, not the letter case.
        let inverted = run.iter().any(|case| {
            let name = case.input_json().and_then(|map| match map.get("input") {
                Some(Value::String(name)) => Some(name.clone()),
                _ => None,
            });
            case.kind().as_deref() == Some("is_human")
                && name.is_some_and(|name| is_human(&name))
                && case.got_json() == Some(Value::Bool(false))
        });
        if inverted && hints.iter().any(|h| h == MIXED_CASE) {
            hints.retain(|h| h != MIXED_CASE);
            if !hints.iter().any(|h| h == INVERTED) {
                hints.push(INVERTED.into());
            }
        }
    }
}

const MIXED_CASE: &str =
    "\"computer\" counts in any letter case (\"ComPuTer\" too): compare name.lower().";

const INVERTED: &str = "is_human answers True for a player whose name does not contain \"computer\", and False for a computer: yours gives the opposite (`not in` where you wrote `in`?).";

/// A name with "computer" in it in another letter case only ("ComPuTer", "Computer 1").
fn mixed_case(name: &str) -> bool {
    name.to_lowercase().contains("computer") && !name.contains("computer")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hints_for(input: &str, got: &str) -> Vec<String> {
        Ui.hints(&HintCase {
            input,
            got,
            expected: "",
        })
    }

    #[test]
    fn inverted_answers_and_boards_of_zeros_are_named() {
        let person = r#"{"type": "is_human", "input": "Ada"}"#;
        assert!(hints_for(person, "false")[0].contains("the opposite"));
        assert!(hints_for(person, "true").is_empty());
        let zeros = r#"{"type": "is_board_empty", "input": [0, 0]}"#;
        assert!(hints_for(zeros, "false")[0].contains("every row is 0"));
        assert!(hints_for(zeros, "true").is_empty());
        let no_rows = r#"{"type": "is_board_empty", "input": []}"#;
        assert!(hints_for(no_rows, "false").is_empty());
    }

    #[test]
    fn the_letter_case_hint_only_where_no_human_was_taken_for_a_computer() {
        let mixed = r#"{"type": "is_human", "input": "Human is not a ComPuTer"}"#;
        let person = r#"{"type": "is_human", "input": "I think therefore I am"}"#;
        assert_eq!(hints_for(mixed, "true"), [MIXED_CASE]);
        // A wrong answer of another kind is not the letter case.
        assert!(hints_for(mixed, "null").is_empty());
        let case = |input, passed, got| RunCase {
            input,
            expected: "",
            passed,
            got,
        };
        let settled = |run: &[RunCase]| {
            let mut hints = hints_for(mixed, "true");
            Ui.settle(run, 0, &mut hints);
            hints
        };
        // Case-sensitive: the human is a human.
        let sensitive = [case(mixed, false, Some("true")), case(person, true, None)];
        assert_eq!(settled(&sensitive), [MIXED_CASE]);
        // Inverted: the human taken for a computer; "ComPuTer" is that mistake, not the case.
        let inverted = [
            case(mixed, false, Some("true")),
            case(person, false, Some("false")),
        ];
        assert_eq!(settled(&inverted), [INVERTED]);
    }
}
