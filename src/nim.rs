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
    fn binary_digits_round_trip() {
        assert!(to_binary_digits(&BigInt::zero()).is_empty());
        assert_eq!(to_binary_digits(&BigInt::from(6)), vec![1, 1, 0]);
        assert_eq!(
            from_binary_digits(&[1, 1, 0, 1, 0, 1, 1, 1, 1]),
            BigInt::from(431)
        );
    }
}
