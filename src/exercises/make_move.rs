use super::Settings;
use super::{Exercise, HintCase, as_board, as_int, field, int_list_value, json_line, json_object};
use crate::error::BadInput;
use crate::nim::{self, Move};
use num_bigint::BigInt;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

#[derive(Debug)]
pub struct MakeMove;

struct Case {
    board: Vec<BigInt>,
    mv: Move,
}

fn parse(input: &str) -> Result<Case, BadInput> {
    let map = json_object(input)?;
    Ok(Case {
        board: as_board(field(&map, "board")?)?,
        mv: Move {
            row: as_int(field(&map, "row")?, "\"row\"")?,
            elements: as_int(field(&map, "elements")?, "\"elements\"")?,
        },
    })
}

fn answer(board: &[BigInt], mv: &Move) -> Value {
    match nim::play(board, mv) {
        Ok(next) => json!([int_list_value(&next), true]),
        Err(_) => json!([int_list_value(board), false]),
    }
}

impl Exercise for MakeMove {
    fn name(&self) -> &'static str {
        "make_move"
    }

    fn reference(&self, input: &str, _: &Settings) -> Result<String, BadInput> {
        let case = parse(input)?;
        Ok(json_line(&answer(&case.board, &case.mv)))
    }

    fn generate(&self, rng: &mut ChaCha8Rng) -> Option<String> {
        let rows = rng.random_range(1..=6);
        let board = super::random_board(rng, rows, 9);
        let row = rng.random_range(-1..=rows as i64 + 1);
        let elements = rng.random_range(-1..=10i64);
        let case = json!({"board": int_list_value(&board), "row": row, "elements": elements});
        Some(format!("{}\n", crate::pyjson::dumps(&case)))
    }

    fn hints(&self, case: &HintCase) -> Vec<String> {
        let mut hints = Vec::new();
        let (Ok(input), Some(got)) = (parse(case.input), case.got_json()) else {
            return hints;
        };
        // The move applied to the 0-based row `row` instead of `row - 1`.
        let zero_based = Move::new(&input.mv.row + 1, input.mv.elements.clone());
        if got == answer(&input.board, &zero_based) && nim::play(&input.board, &zero_based).is_ok()
        {
            hints.push(
                "It looks like you used `row` as a list index. Rows are numbered from 1, so row r is board[r - 1]."
                    .into(),
            );
        }
        let legal = nim::play(&input.board, &input.mv).is_ok();
        if let Some(flag) = got.get(1).and_then(Value::as_bool) {
            if flag && !legal {
                hints.push(format!(
                    "This move is illegal ({}), so make_move must return an unchanged copy of the board and False.",
                    nim::validate(&input.board, &input.mv).unwrap_err()
                ));
            }
            if !flag && legal {
                hints.push("This move is legal: take the elements and return True.".into());
            }
        }
        hints
    }
}
