use super::Settings;
use super::{Exercise, HintCase, as_int_list, case_type, field, json_line, json_object};
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
        let name = map.get("input").and_then(Value::as_str).unwrap_or("");
        let mixed_case = map.get("type").and_then(Value::as_str) == Some("is_human")
            && name.to_lowercase().contains("computer")
            && !name.contains("computer");
        if mixed_case {
            vec![
                "\"computer\" counts in any letter case (\"ComPuTer\" too): compare name.lower()."
                    .into(),
            ]
        } else {
            Vec::new()
        }
    }
}
