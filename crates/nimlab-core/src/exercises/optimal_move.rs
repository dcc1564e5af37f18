use super::{Checked, Checker, Judging, Settings};
use super::{Exercise, HintCase, as_board, field, json_line, json_object};
use crate::error::BadInput;
use crate::exercises::Comparison;
use crate::nim::{self, Move};
use num_bigint::BigInt;
use num_traits::Zero;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

#[derive(Debug)]
pub struct OptimalMove;

pub(super) fn parse(input: &str) -> Result<Vec<BigInt>, BadInput> {
    let board = as_board(field(&json_object(input)?, "board")?)?;
    if nim::is_empty(&board) {
        return Err(BadInput::new(
            "the board is empty: there is no move to make",
        ));
    }
    Ok(board)
}

pub(super) fn board_text(board: &[BigInt]) -> String {
    crate::pyjson::dumps(&super::int_list_value(board))
}

/// The most digits an answer's number may have (Python 3's default limit for printing one).
const MAX_DIGITS: usize = 4300;

/// Reads a student's answer: a JSON list of two integers.
pub(super) fn parse_move(output: &str) -> Result<Move, String> {
    if output.trim().is_empty() {
        return Err("the program printed nothing; a move is printed as [row, elements]".into());
    }
    let value: Value = serde_json::from_str(output.trim())
        .map_err(|_| "the output is not a JSON list [row, elements]".to_string())?;
    let shown = |v: &Value| {
        let text = v.to_string();
        match text.char_indices().nth(60) {
            Some((cut, _)) => format!("{}…", &text[..cut]),
            None => text,
        }
    };
    let Value::Array(items) = &value else {
        return Err(format!(
            "the output is {}, not a list [row, elements]",
            shown(&value)
        ));
    };
    let [row, elements] = items.as_slice() else {
        return Err(format!(
            "the output has {} item(s); a move is exactly two: [row, elements]",
            items.len()
        ));
    };
    let int = |v: &Value, what: &str| match v {
        // Python 3 refuses to print an int of more digits (sys.set_int_max_str_digits), and
        // no board of the lab comes near it; reading one as a big integer is quadratic.
        Value::Number(n) if n.to_string().len() > MAX_DIGITS => Err(format!(
            "{what} has {} digits; no row of a board is that big",
            n.to_string().trim_start_matches('-').len()
        )),
        Value::Number(n) => n
            .to_string()
            .parse::<BigInt>()
            .map_err(|_| format!("{what} must be a whole number, not {}", shown(v))),
        other => Err(format!(
            "{what} must be a whole number, not {}",
            shown(other)
        )),
    };
    Ok(Move {
        row: int(row, "the row")?,
        elements: int(elements, "the number of elements")?,
    })
}

fn check_move(board: &[BigInt], mv: &Move) -> Result<(), String> {
    let after = nim::play(board, mv).map_err(|why| {
        format!(
            "the move [{}, {}] is illegal on {}: {why}",
            mv.row,
            mv.elements,
            board_text(board)
        )
    })?;
    let sum_before = nim::nim_sum(board);
    let sum_after = nim::nim_sum(&after);
    if !sum_before.is_zero() && !sum_after.is_zero() {
        return Err(format!(
            "the board {} has nim-sum {sum_before}, so a winning move exists, but after [{}, {}] the board is {} with nim-sum {sum_after}: the opponent can now win",
            board_text(board),
            mv.row,
            mv.elements,
            board_text(&after)
        ));
    }
    Ok(())
}

impl Exercise for OptimalMove {
    fn name(&self) -> &'static str {
        "optimal_move"
    }

    fn reference(&self, input: &str, _: &Settings) -> Result<String, BadInput> {
        let board = parse(input)?;
        let mv = nim::optimal_move(&board).expect("a non-empty board has a move");
        Ok(json_line(&json!([
            crate::pyjson::int(&mv.row),
            crate::pyjson::int(&mv.elements)
        ])))
    }

    fn judging(&self, _: Comparison) -> Judging<'_> {
        Judging::Checker(self)
    }

    fn generate(&self, rng: &mut ChaCha8Rng) -> Option<String> {
        let rows = rng.random_range(1..=7);
        let mut board = super::random_board(rng, rows, 31);
        if nim::is_empty(&board) {
            board[0] = BigInt::from(1);
        }
        Some(format!(
            "{}\n",
            crate::pyjson::dumps(&json!({"board": super::int_list_value(&board)}))
        ))
    }

    fn hints(&self, case: &HintCase) -> Vec<String> {
        let mut hints = Vec::new();
        let Ok(board) = parse(case.input) else {
            return hints;
        };
        if case.got.trim() == "null" && nim::nim_sum(&board).is_zero() {
            hints.push("optimal_move returned nothing (None, printed as null) on a board of nim-sum 0. No move wins there, but the player must still move: return any legal move, such as one element from a row that is not empty.".into());
        }
        let Ok(mv) = parse_move(case.got) else {
            return hints;
        };
        if check_move(&board, &mv).is_ok() {
            return hints;
        }
        if check_move(&board, &Move::new(&mv.row + 1, mv.elements.clone())).is_ok() {
            hints.push("Your move would be right one row further down: rows are numbered from 1, so return index + 1.".into());
            return hints;
        }
        let Some(index) = nim::row_index(&board, &mv.row) else {
            return hints;
        };
        let sum = nim::nim_sum(&board);
        let row = &board[index];
        let target = row ^ &sum;
        if mv.elements == row - &target && target >= *row {
            hints.push(format!("Not every row gives the winning move: row {} holds {row}, and {row} ^ {sum} = {target} is not less than {row}, so the move would take {} elements. Look for a row r where r ^ nim_sum < r.", mv.row, mv.elements));
        } else if mv.elements == target && target < *row {
            hints.push("You returned the size the row should be left with (row ^ nim_sum). The move says how many elements to take: row - (row ^ nim_sum).".into());
        } else if mv.elements == sum && !sum.is_zero() && nim::validate(&board, &mv).is_ok() {
            hints.push("Taking nim-sum elements is not the rule: find a row r where r ^ nim_sum < r, and take r - (r ^ nim_sum) from it.".into());
        }
        hints
    }
}

impl Checker for OptimalMove {
    fn check(&self, input: &str, output: &str) -> Result<Checked, BadInput> {
        let board = parse(input)?;
        Ok(
            match parse_move(output).and_then(|mv| check_move(&board, &mv)) {
                Ok(()) => Checked::Right,
                Err(why) => Checked::Wrong(why),
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checker_accepts_every_winning_move_and_only_those() {
        let board: Vec<BigInt> = [5, 4, 3, 2, 1].into_iter().map(BigInt::from).collect();
        for row in 1..=5 {
            for elements in 1..=5 {
                let mv = Move::new(row, elements);
                let winning = nim::winning_moves(&board).contains(&mv);
                assert_eq!(check_move(&board, &mv).is_ok(), winning, "{mv:?}");
            }
        }
    }

    #[test]
    fn any_legal_move_passes_when_no_move_wins() {
        let board: Vec<BigInt> = [5, 4, 3, 2].into_iter().map(BigInt::from).collect();
        assert!(check_move(&board, &Move::new(4, 2)).is_ok());
        assert!(check_move(&board, &Move::new(4, 3)).is_err());
    }

    fn hints_for(input: &str, got: &str) -> Vec<String> {
        OptimalMove.hints(&HintCase {
            input,
            got,
            expected: "",
        })
    }

    #[test]
    fn a_missing_move_and_an_unchecked_row_are_named() {
        let losing = hints_for(r#"{"board": [5, 4, 3, 2]}"#, "null\n");
        assert!(losing[0].contains("must still move"), "{losing:?}");
        // null on a board with a winning move is not that mistake.
        assert!(hints_for(r#"{"board": [3, 5]}"#, "null").is_empty());
        let unchecked = hints_for(r#"{"board": [3, 5]}"#, "[1, -2]");
        assert!(
            unchecked[0].contains("3 ^ 6 = 5 is not less than 3"),
            "{unchecked:?}"
        );
        assert!(hints_for(r#"{"board": [3, 5]}"#, "[2, 2]").is_empty());
    }

    #[test]
    fn output_shapes_are_explained() {
        assert!(
            parse_move("(1, 1)")
                .unwrap_err()
                .contains("not a JSON list")
        );
        assert!(parse_move("[1]").unwrap_err().contains("1 item"));
        let nothing = parse_move(" \n").unwrap_err();
        assert!(nothing.contains("printed nothing") && !nothing.contains("not a JSON"));
        assert!(
            parse_move("[true, 1]")
                .unwrap_err()
                .contains("whole number")
        );
        assert!(parse_move("[1.0, 1]").unwrap_err().contains("whole number"));
        assert_eq!(parse_move(" [3, 1]\n").unwrap(), Move::new(3, 1));
        let huge = format!("[1, {}]", "9".repeat(1_000_000));
        let refused = parse_move(&huge).unwrap_err();
        assert!(refused.contains("1000000 digits"), "{refused}");
        let long_list = format!("{{\"a\": \"{}\"}}", "x".repeat(10_000));
        assert!(parse_move(&long_list).unwrap_err().len() < 200);
    }
}
