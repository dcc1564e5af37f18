//! The mathematics of Nim that every exercise's reference builds on.
//!
//! Row sizes are arbitrary-precision integers because the lab's stdin contracts use Python
//! integers, which are unbounded.

use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// A move as the lab writes it: a 1-based row and how many elements to take from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    pub row: BigInt,
    pub elements: BigInt,
}

impl Move {
    pub fn new(row: impl Into<BigInt>, elements: impl Into<BigInt>) -> Self {
        Move {
            row: row.into(),
            elements: elements.into(),
        }
    }
}

/// Why a move cannot be played on a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IllegalMove {
    NoSuchRow { rows: usize },
    NothingTaken,
    TooMany { available: BigInt },
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IllegalMove::NoSuchRow { rows } => {
                write!(f, "there is no such row: rows are numbered 1 to {rows}")
            }
            IllegalMove::NothingTaken => write!(f, "a move must take at least one element"),
            IllegalMove::TooMany { available } => {
                write!(f, "the row holds only {available} element(s)")
            }
        }
    }
}

/// The cumulative exclusive-or of all row sizes.
pub fn nim_sum(board: &[BigInt]) -> BigInt {
    board.iter().fold(BigInt::zero(), |acc, row| acc ^ row)
}

/// The 0-based index of the row a 1-based row number names, if it exists.
pub fn row_index(board: &[BigInt], row: &BigInt) -> Option<usize> {
    if row < &BigInt::one() {
        return None;
    }
    let index: usize = (row - 1u8).try_into().ok()?;
    (index < board.len()).then_some(index)
}

/// Checks a move against the board without playing it.
pub fn validate(board: &[BigInt], mv: &Move) -> Result<usize, IllegalMove> {
    let index = row_index(board, &mv.row).ok_or(IllegalMove::NoSuchRow { rows: board.len() })?;
    if !mv.elements.is_positive() {
        return Err(IllegalMove::NothingTaken);
    }
    if mv.elements > board[index] {
        return Err(IllegalMove::TooMany {
            available: board[index].clone(),
        });
    }
    Ok(index)
}

/// The board after a move, or why the move is illegal. The given board is never changed.
pub fn play(board: &[BigInt], mv: &Move) -> Result<Vec<BigInt>, IllegalMove> {
    let index = validate(board, mv)?;
    let mut next = board.to_vec();
    next[index] -= &mv.elements;
    Ok(next)
}

pub fn is_empty(board: &[BigInt]) -> bool {
    board.iter().all(Zero::is_zero)
}

/// Every move that leaves a nim-sum of zero, in row order. Empty when the nim-sum is already
/// zero: then no move wins against perfect play.
pub fn winning_moves(board: &[BigInt]) -> Vec<Move> {
    let sum = nim_sum(board);
    if sum.is_zero() {
        return Vec::new();
    }
    board
        .iter()
        .enumerate()
        .filter_map(|(index, row)| {
            let target = row ^ &sum;
            (&target < row).then(|| Move::new(index + 1, row - target))
        })
        .collect()
}

/// The reference's choice: the first winning move, or (when none exists) one element from the
/// first non-empty row. `None` only for an empty board, where no move exists.
pub fn optimal_move(board: &[BigInt]) -> Option<Move> {
    if let Some(first) = winning_moves(board).into_iter().next() {
        return Some(first);
    }
    let index = board.iter().position(|row| row.is_positive())?;
    Some(Move::new(index + 1, 1))
}

/// Who wins the game: under the normal rule the player who takes the last element, under
/// misère the player who does not (taking the last element loses).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    #[default]
    Normal,
    Misere,
}

impl Ending {
    /// Every move that wins against perfect play, in row order; empty when none does.
    pub fn winning_moves(self, board: &[BigInt]) -> Vec<Move> {
        match self {
            Ending::Normal => winning_moves(board),
            Ending::Misere => misere_winning_moves(board),
        }
    }

    /// Does the player to move win with perfect play? (False on an empty board under the
    /// normal rule, where the previous player took the last element; true under misère.)
    pub fn mover_wins(self, board: &[BigInt]) -> bool {
        match self {
            Ending::Normal => !nim_sum(board).is_zero(),
            Ending::Misere => misere_mover_wins(board),
        }
    }

    /// The reference's choice: the first winning move, or one element from the first
    /// non-empty row. `None` only for an empty board.
    pub fn best_move(self, board: &[BigInt]) -> Option<Move> {
        if let Some(first) = self.winning_moves(board).into_iter().next() {
            return Some(first);
        }
        let index = board.iter().position(|row| row.is_positive())?;
        Some(Move::new(index + 1, 1))
    }
}

/// Rows of two or more elements, and rows of exactly one.
fn big_and_single_rows(board: &[BigInt]) -> (usize, usize) {
    let one = BigInt::one();
    let big = board.iter().filter(|row| **row > one).count();
    let single = board.iter().filter(|row| **row == one).count();
    (big, single)
}

/// Under misère, does the player to move win? With every row at 0 or 1 the moves are forced,
/// so it is the parity of the rows of one: an even number (zero included) wins, because the
/// opponent is left to take the last. With a row of two or more, the normal rule's test holds.
pub fn misere_mover_wins(board: &[BigInt]) -> bool {
    let (big, single) = big_and_single_rows(board);
    if big == 0 {
        single % 2 == 0
    } else {
        !nim_sum(board).is_zero()
    }
}

/// Every winning move under misère, in row order. The normal rule's moves, except when one row
/// of two or more is left: then that row goes down to 0 or 1, whichever leaves an odd number
/// of rows of one (the normal move would leave an even number).
pub fn misere_winning_moves(board: &[BigInt]) -> Vec<Move> {
    let (big, single) = big_and_single_rows(board);
    match big {
        0 if single % 2 == 0 => board
            .iter()
            .enumerate()
            .filter(|(_, row)| row.is_one())
            .map(|(index, _)| Move::new(index + 1, 1))
            .collect(),
        0 => Vec::new(),
        1 => {
            let index = board
                .iter()
                .position(|row| *row > BigInt::one())
                .expect("one big row");
            let keep = if single % 2 == 0 { 1 } else { 0 };
            vec![Move::new(index + 1, &board[index] - keep)]
        }
        _ => winning_moves(board),
    }
}

/// The misère reference's choice (see [`Ending::best_move`]).
pub fn misere_move(board: &[BigInt]) -> Option<Move> {
    Ending::Misere.best_move(board)
}

/// Does the player to move win, by searching the whole game tree? For small boards only (the
/// proofs and tests that check the formulas above); `memo` keeps what was already found.
pub fn searched_mover_wins(
    board: &[u8],
    ending: Ending,
    memo: &mut std::collections::HashMap<Vec<u8>, bool>,
) -> bool {
    if board.iter().all(|&r| r == 0) {
        // The previous player took the last element.
        return ending == Ending::Misere;
    }
    let mut key = board.to_vec();
    key.sort_unstable();
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let mut after = board.to_vec();
    let mut wins = false;
    'search: for index in 0..board.len() {
        for take in 1..=board[index] {
            after[index] = board[index] - take;
            if !searched_mover_wins(&after, ending, memo) {
                wins = true;
                break 'search;
            }
        }
        after[index] = board[index];
    }
    memo.insert(key, wins);
    wins
}

/// Every board of `rows` rows holding 0 to `max` elements each.
pub fn every_small_board(rows: usize, max: u8) -> Vec<Vec<u8>> {
    let mut boards = vec![Vec::new()];
    for _ in 0..rows {
        boards = boards
            .into_iter()
            .flat_map(|b: Vec<u8>| {
                (0..=max).map(move |r| {
                    let mut next = b.clone();
                    next.push(r);
                    next
                })
            })
            .collect();
    }
    boards
}

/// Binary digits, most significant first; no digits for zero.
pub fn to_binary_digits(n: &BigInt) -> Vec<u8> {
    if n.is_zero() {
        return Vec::new();
    }
    n.to_str_radix(2).bytes().map(|b| b - b'0').collect()
}

/// The number that binary digits (most significant first) spell; zero for no digits.
pub fn from_binary_digits(digits: &[u8]) -> BigInt {
    digits
        .iter()
        .fold(BigInt::zero(), |acc, &d| (acc << 1u8) + BigInt::from(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[i64]) -> Vec<BigInt> {
        rows.iter().map(|&r| BigInt::from(r)).collect()
    }

    #[test]
    fn handout_example_has_three_winning_moves() {
        // The handout's worked example: [5, 4, 3, 2, 1] has nim-sum 1 and good rows 1, 3 and 5.
        let b = board(&[5, 4, 3, 2, 1]);
        assert_eq!(nim_sum(&b), BigInt::from(1));
        assert_eq!(
            winning_moves(&b),
            vec![Move::new(1, 1), Move::new(3, 1), Move::new(5, 1)]
        );
    }

    #[test]
    fn illegal_moves_are_named() {
        let b = board(&[1, 2, 3]);
        assert_eq!(
            play(&b, &Move::new(4, 1)),
            Err(IllegalMove::NoSuchRow { rows: 3 })
        );
        assert_eq!(
            play(&b, &Move::new(0, 1)),
            Err(IllegalMove::NoSuchRow { rows: 3 })
        );
        assert_eq!(play(&b, &Move::new(1, 0)), Err(IllegalMove::NothingTaken));
        assert_eq!(
            play(&b, &Move::new(2, 3)),
            Err(IllegalMove::TooMany {
                available: BigInt::from(2)
            })
        );
        assert_eq!(play(&b, &Move::new(2, 2)), Ok(board(&[1, 0, 3])));
    }

    #[test]
    fn both_endings_match_a_game_tree_search_on_every_small_board() {
        for ending in [Ending::Normal, Ending::Misere] {
            let mut memo = std::collections::HashMap::new();
            for rows in 1..=4 {
                for small in every_small_board(rows, 5) {
                    let b: Vec<BigInt> = small.iter().map(|&r| BigInt::from(r)).collect();
                    let scratch = small.clone();
                    let wins = searched_mover_wins(&scratch, ending, &mut memo);
                    assert_eq!(ending.mover_wins(&b), wins, "{ending:?} {small:?}");
                    let mut searched = Vec::new();
                    for index in 0..small.len() {
                        for take in 1..=small[index] {
                            let mut after = small.clone();
                            after[index] -= take;
                            if !searched_mover_wins(&after, ending, &mut memo) {
                                searched.push(Move::new(index + 1, take));
                            }
                        }
                    }
                    assert_eq!(ending.winning_moves(&b), searched, "{ending:?} {small:?}");
                }
            }
        }
    }

    #[test]
    fn misere_turns_the_strategy_around_only_at_the_end() {
        // Two rows of two or more: the normal move.
        assert_eq!(misere_winning_moves(&board(&[3, 2])), vec![Move::new(1, 1)]);
        // One row of two or more: leave an odd number of rows of one.
        assert_eq!(misere_winning_moves(&board(&[5, 1])), vec![Move::new(1, 5)]);
        assert_eq!(
            misere_winning_moves(&board(&[5, 1, 1])),
            vec![Move::new(1, 4)]
        );
        assert_eq!(winning_moves(&board(&[5, 1])), vec![Move::new(1, 4)]);
        // Only rows of one: an odd number loses, an even number wins by taking any.
        assert!(misere_winning_moves(&board(&[1, 0, 1, 1])).is_empty());
        assert_eq!(misere_move(&board(&[0, 1, 1])), Some(Move::new(2, 1)));
        assert_eq!(misere_move(&board(&[0, 0])), None);
    }

    #[test]
    fn binary_digits_round_trip() {
        assert!(to_binary_digits(&BigInt::zero()).is_empty());
        assert_eq!(to_binary_digits(&BigInt::from(6)), vec![1, 1, 0]);
        assert_eq!(
            from_binary_digits(&[1, 1, 0, 1, 0, 1, 1, 1, 1]),
            BigInt::from(431)
        );
    }
}
