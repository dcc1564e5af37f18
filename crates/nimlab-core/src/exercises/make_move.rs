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
        if let Some(hint) = board_alone(&input.board, &got) {
            hints.push(hint);
        }
        if let Some(flag) = got.get(1).and_then(Value::as_bool) {
            if flag && negative_index(&input.board, &input.mv).is_some_and(|b| got[0] == b) {
                hints.push("Rows are counted from 1, so row 0 and negative rows do not exist; but Python reads board[-1] as the last row and does not complain. Check 1 <= row yourself before using board[row - 1].".into());
            } else if !flag && legal && emptied(&input.board, &input.mv) {
                hints.push("Taking every element of a row is a legal move: the number of elements may equal the row's size (elements <= size, not elements < size).".into());
            } else if flag && !legal {
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

/// The board after a move on row 0 or below, as Python's board[row - 1] reads it (counting
/// from the end), where that index exists and the move fits the row it finds.
fn negative_index(board: &[BigInt], mv: &Move) -> Option<Value> {
    use num_traits::ToPrimitive;
    let row = mv.row.to_i64()?;
    let index = usize::try_from(board.len() as i64 + row - 1).ok()?;
    let mut after = board.to_vec();
    let size = after.get_mut(index)?;
    if row >= 1 || mv.elements < BigInt::from(1) || mv.elements > *size {
        return None;
    }
    *size -= &mv.elements;
    Some(int_list_value(&after))
}

/// The move takes all that its row holds.
fn emptied(board: &[BigInt], mv: &Move) -> bool {
    nim::row_index(board, &mv.row).is_some_and(|index| board[index] == mv.elements)
}

/// The board printed alone, without True or False after it.
fn board_alone(board: &[BigInt], got: &Value) -> Option<String> {
    let items = got.as_array()?;
    let numbers = items.len() == board.len() && items.iter().all(Value::is_number);
    numbers.then(|| "make_move returns two things, the board and whether the move was legal: return new_board, True (or new_board, False), which prints as [[...], true].".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hints_for(input: &str, got: &str) -> Vec<String> {
        MakeMove.hints(&HintCase {
            input,
            got,
            expected: "",
        })
    }

    #[test]
    fn the_usual_bounds_mistakes_are_named() {
        let case = r#"{"board": [1, 2, 3], "row": -1, "elements": 1}"#;
        let negative = hints_for(case, "[[1, 1, 3], true]");
        assert!(
            negative.iter().any(|h| h.contains("board[-1]")),
            "{negative:?}"
        );
        let case = r#"{"board": [1, 2, 3], "row": 2, "elements": 2}"#;
        let strict = hints_for(case, "[[1, 2, 3], false]");
        assert!(
            strict.iter().any(|h| h.contains("not elements < size")),
            "{strict:?}"
        );
        let alone = hints_for(case, "[1, 0, 3]");
        assert!(
            alone.iter().any(|h| h.contains("returns two things")),
            "{alone:?}"
        );
        assert!(hints_for(case, "[[1, 0, 3], true]").is_empty());
        // A legal move that does not empty its row, refused: the general hint only.
        let case = r#"{"board": [1, 2, 3], "row": 3, "elements": 2}"#;
        let refused = hints_for(case, "[[1, 2, 3], false]");
        assert_eq!(
            refused,
            vec!["This move is legal: take the elements and return True.".to_string()]
        );
    }
}
