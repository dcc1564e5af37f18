//! misere_move (further study): optimal_move under misère rules, where the player who takes
//! the last element loses. Many moves can be right, so a checker judges; `proof` checks that
//! checker against a search of the whole game tree on every small board.

use super::optimal_move::{board_text, parse, parse_move};
use super::{Checked, Checker, Comparison, Exercise, HintCase, Judging, Settings, json_line};
use crate::error::BadInput;
use crate::nim::{self, Ending, Move};
use num_bigint::BigInt;
use num_traits::{One, Zero};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde_json::json;

#[derive(Debug)]
pub struct MisereMove;

/// Rows of two or more elements, rows of exactly one, and empty rows.
fn counts(board: &[BigInt]) -> (usize, usize, usize) {
    let one = BigInt::one();
    let big = board.iter().filter(|r| **r > one).count();
    let single = board.iter().filter(|r| **r == one).count();
    (big, single, board.len() - big - single)
}

/// Why the board a move leaves lets the opponent win, in words.
fn why_it_loses(after: &[BigInt]) -> String {
    let (big, single, _) = counts(after);
    if nim::is_empty(after) {
        return "it takes the last element, and under misère rules whoever takes the last element loses".into();
    }
    if big == 0 {
        return format!(
            "only rows of 0 and 1 are left and {single} of them hold one element, an even number: the opponent takes one, and in the end you take the last"
        );
    }
    format!(
        "it leaves nim-sum {} with a row of two or more: the opponent can now win",
        nim::nim_sum(after)
    )
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
    if nim::misere_mover_wins(board) && nim::misere_mover_wins(&after) {
        let example = nim::misere_move(board).expect("a winning board has a move");
        return Err(format!(
            "the board {} can be won under misère rules (for example with [{}, {}]), but after [{}, {}] it is {}: {}",
            board_text(board),
            example.row,
            example.elements,
            mv.row,
            mv.elements,
            board_text(&after),
            why_it_loses(&after)
        ));
    }
    Ok(())
}

const NORMAL_AT_THE_END: &str = "This is the normal game's winning move (it leaves nim-sum 0), but under misère the strategy turns around at the end: when your move leaves no row of two or more, leave an odd number of rows holding one element, not an even number.";
const MISCOUNTED_ONES: &str = "After your move only rows of 0 and 1 are left and an even number of them hold one element, so your opponent can leave you the last one. Count only the rows that hold exactly 1 element (an empty row is not one, nor is the row you are taking from) and leave an odd number of them.";

impl Exercise for MisereMove {
    fn name(&self) -> &'static str {
        "misere_move"
    }

    fn reference(&self, input: &str, _: &Settings) -> Result<String, BadInput> {
        let board = parse(input)?;
        let mv = nim::misere_move(&board).expect("a non-empty board has a move");
        Ok(json_line(&json!([
            crate::pyjson::int(&mv.row),
            crate::pyjson::int(&mv.elements)
        ])))
    }

    fn judging(&self, _: Comparison) -> Judging<'_> {
        Judging::Checker(self)
    }

    /// Half the boards are endgames: one row of two or more among rows of 0 and 1, where the
    /// misère strategy differs from the normal one.
    fn generate(&self, rng: &mut ChaCha8Rng) -> Option<String> {
        let rows = rng.random_range(1..=7);
        let mut board = if rng.random_bool(0.5) {
            let mut board = super::random_board(rng, rows, 1);
            let big = rng.random_range(0..rows);
            board[big] = BigInt::from(rng.random_range(2..=31));
            board
        } else {
            super::random_board(rng, rows, 31)
        };
        if nim::is_empty(&board) {
            board[0] = BigInt::from(1);
        }
        Some(format!(
            "{}\n",
            crate::pyjson::dumps(&json!({"board": super::int_list_value(&board)}))
        ))
    }

    fn hints(&self, case: &HintCase) -> Vec<String> {
        let (Ok(board), Ok(mv)) = (parse(case.input), parse_move(case.got)) else {
            return Vec::new();
        };
        if check_move(&board, &mv).is_ok() {
            return Vec::new();
        }
        if check_move(&board, &Move::new(&mv.row + 1, mv.elements.clone())).is_ok() {
            return vec!["Your move would be right one row further down: rows are numbered from 1, so return index + 1.".into()];
        }
        let Ok(after) = nim::play(&board, &mv) else {
            return Vec::new();
        };
        let (big, _, empty) = counts(&board);
        let (big_after, single_after, _) = counts(&after);
        if big != 1 || big_after != 0 || single_after % 2 != 0 {
            return Vec::new();
        }
        // One row of two or more, brought down to 0 or 1 leaving an even number of rows of
        // one: the normal game's move. Counting the empty rows among the rows of one gives
        // the same move where there is an odd number of them.
        debug_assert!(nim::nim_sum(&after).is_zero());
        if empty % 2 == 1 {
            vec![MISCOUNTED_ONES.into()]
        } else {
            vec![NORMAL_AT_THE_END.into()]
        }
    }

    /// Every legal move on every board of up to 4 rows of up to 5 elements: the checker
    /// accepts it exactly when it wins, or when nothing wins, by a search of the game tree; and
    /// the reference's move is accepted.
    fn proof(&self) -> Option<Result<String, String>> {
        Some(prove(4, 5))
    }
}

fn prove(rows: usize, max: u8) -> Result<String, String> {
    let mut memo = std::collections::HashMap::new();
    let mut boards = 0;
    let mut moves = 0;
    for n in 1..=rows {
        for small in nim::every_small_board(n, max) {
            if small.iter().all(|&r| r == 0) {
                continue;
            }
            boards += 1;
            let board: Vec<BigInt> = small.iter().map(|&r| BigInt::from(r)).collect();
            let mover_wins = nim::searched_mover_wins(&small, Ending::Misere, &mut memo);
            for index in 0..small.len() {
                for take in 1..=small[index] {
                    moves += 1;
                    let mut after = small.clone();
                    after[index] -= take;
                    let wins = !nim::searched_mover_wins(&after, Ending::Misere, &mut memo);
                    let right = wins || !mover_wins;
                    let mv = Move::new(index + 1, take);
                    if check_move(&board, &mv).is_ok() != right {
                        return Err(format!(
                            "the checker {} [{}, {take}] on {small:?}, but a search of the game tree finds it {}",
                            if right { "rejects" } else { "accepts" },
                            index + 1,
                            if right { "right" } else { "wrong" }
                        ));
                    }
                }
            }
            let reference = nim::misere_move(&board).expect("a non-empty board has a move");
            if let Err(why) = check_move(&board, &reference) {
                return Err(format!(
                    "the reference's move on {small:?} is rejected: {why}"
                ));
            }
        }
    }
    Ok(format!(
        "the checker agrees with a search of the game tree on all {moves} moves of the {boards} boards of up to {rows} rows of up to {max}"
    ))
}

impl Checker for MisereMove {
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

    fn board(rows: &[i64]) -> Vec<BigInt> {
        rows.iter().map(|&r| BigInt::from(r)).collect()
    }

    fn hints_for(input: &str, got: &str) -> Vec<String> {
        MisereMove.hints(&HintCase {
            input,
            got,
            expected: "",
        })
    }

    #[test]
    fn the_proof_holds_on_every_small_board() {
        let proved = prove(3, 4).unwrap();
        assert!(
            proved.contains("boards of up to 3 rows of up to 4"),
            "{proved}"
        );
    }

    #[test]
    fn the_normal_move_at_the_end_is_refused_and_explained() {
        let b = board(&[4, 1, 1]);
        assert!(check_move(&b, &Move::new(1, 3)).is_ok());
        let why = check_move(&b, &Move::new(1, 4)).unwrap_err();
        assert!(why.contains("an even number"), "{why}");
        assert!(
            check_move(&board(&[3]), &Move::new(1, 3))
                .unwrap_err()
                .contains("takes the last element")
        );
        // Before the end, the normal move is the misère one.
        assert!(check_move(&board(&[3, 2]), &Move::new(1, 1)).is_ok());
        // A losing board allows any legal move, and no illegal one.
        assert!(check_move(&board(&[1, 0, 1, 1]), &Move::new(3, 1)).is_ok());
        assert!(check_move(&board(&[1, 0, 1, 1]), &Move::new(2, 1)).is_err());
    }

    #[test]
    fn hints_tell_the_normal_strategy_from_a_miscount() {
        let normal = hints_for("{\"board\": [4, 1, 1]}", "[1, 4]");
        assert_eq!(normal, vec![NORMAL_AT_THE_END.to_string()]);
        let miscount = hints_for("{\"board\": [0, 5, 0, 1, 0]}", "[2, 4]");
        assert_eq!(miscount, vec![MISCOUNTED_ONES.to_string()]);
        assert!(hints_for("{\"board\": [0, 5, 0, 1, 0]}", "[2, 5]").is_empty());
        let shifted = hints_for("{\"board\": [4, 1, 1]}", "[0, 3]");
        assert!(shifted[0].contains("one row further down"), "{shifted:?}");
    }
}
