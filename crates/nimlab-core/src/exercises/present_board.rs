use super::Settings;
use super::{Exercise, HintCase};
use crate::error::BadInput;
use num_bigint::BigInt;
use num_traits::ToPrimitive;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

#[derive(Debug)]
pub struct PresentBoard;

/// A board larger than this would print gigabytes; no fixture needs it.
const MAX_ELEMENTS: u64 = 20_000_000;

pub fn parse_rows(input: &str) -> Result<Vec<BigInt>, BadInput> {
    let rows = super::one_line(input)?
        .split_whitespace()
        .map(|word| {
            word.parse::<BigInt>()
                .ok()
                .filter(|n| n >= &BigInt::ZERO)
                .ok_or_else(|| BadInput::new(format!("`{word}` is not a non-negative integer")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if rows.is_empty() {
        return Err(BadInput::new("the input has no row sizes"));
    }
    Ok(rows)
}

/// The board as the lab draws it: `Nim:` then `N: X X X` per row.
pub fn draw(board: &[u64]) -> String {
    let mut out = String::from("Nim:\n");
    for (i, &row) in board.iter().enumerate() {
        out.push_str(&(i + 1).to_string());
        out.push(':');
        for _ in 0..row {
            out.push_str(" X");
        }
        out.push('\n');
    }
    out
}

impl Exercise for PresentBoard {
    fn name(&self) -> &'static str {
        "present_board"
    }

    fn reference(&self, input: &str, _: &Settings) -> Result<String, BadInput> {
        let rows = parse_rows(input)?;
        let sizes: Option<Vec<u64>> = rows.iter().map(ToPrimitive::to_u64).collect();
        match sizes {
            Some(sizes) if sizes.iter().sum::<u64>() <= MAX_ELEMENTS => Ok(draw(&sizes)),
            _ => Err(BadInput::new("the board is too large to draw")),
        }
    }

    fn generate(&self, rng: &mut ChaCha8Rng) -> Option<String> {
        let rows = rng.random_range(1..=12);
        let words: Vec<String> = (0..rows)
            .map(|_| rng.random_range(0..=15u32).to_string())
            .collect();
        Some(format!("{}\n", words.join(" ")))
    }

    fn hints(&self, case: &HintCase) -> Vec<String> {
        let mut hints = Vec::new();
        let got: Vec<&str> = case.got.lines().map(str::trim).collect();
        if !got.is_empty() && !got.contains(&"Nim:") {
            hints.push("The board starts with a line that says exactly `Nim:`.".into());
        }
        if got.iter().any(|line| line.starts_with("0:")) {
            hints.push(
                "Rows are numbered from 1, not 0: the first row is `1:`. Python's enumerate(board, 1) counts from 1."
                    .into(),
            );
        }
        if got.iter().any(|line| line.contains("XX")) {
            hints.push("Put a space between the Xs: `3: X X X`.".into());
        }
        hints.extend(lines_as_list(case.got));
        if let Ok(rows) = parse_rows(case.input) {
            hints.extend(x_count_off_by_one(&rows, &got));
        }
        hints
    }
}

/// A list of lines printed as Python shows a list: `['Nim:', '1: X']`.
fn lines_as_list(got: &str) -> Option<String> {
    let got = got.trim();
    (got.starts_with('[') && got.contains("'Nim:'")).then(|| {
        "Your function returned a list of lines, which print shows with brackets and quotes: join them into one text with \"\\n\".join(lines) and return that.".into()
    })
}

/// Every row drawn with one X fewer (or more) than its size: a loop bound off by one.
fn x_count_off_by_one(rows: &[BigInt], got: &[&str]) -> Option<String> {
    let drawn: Vec<&str> = got.iter().copied().filter(|l| *l != "Nim:").collect();
    if drawn.len() != rows.len() {
        return None;
    }
    let mut differences = Vec::new();
    for (line, size) in drawn.iter().zip(rows) {
        let (_, xs) = line.split_once(':')?;
        let words: Vec<&str> = xs.split_whitespace().collect();
        if words.iter().any(|w| *w != "X") {
            return None;
        }
        let size = size.to_i64()?;
        differences.push(words.len() as i64 - size);
    }
    let nonempty: Vec<i64> = rows
        .iter()
        .zip(&differences)
        .filter(|(size, _)| **size > BigInt::ZERO)
        .map(|(_, d)| *d)
        .collect();
    match nonempty.first().copied() {
        Some(-1) if nonempty.iter().all(|d| *d == -1) => Some("Each row shows one X fewer than it holds: a loop such as range(1, size) runs size - 1 times. range(size), or \" X\" * size, gives one X per element.".into()),
        Some(1) if nonempty.iter().all(|d| *d == 1) => Some("Each row shows one X more than it holds: a loop such as range(size + 1) runs once too often. range(size), or \" X\" * size, gives one X per element.".into()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_is_one_line_as_the_labs_block_reads_it() {
        assert_eq!(parse_rows("3\t1  2 \r\n").unwrap().len(), 3);
        assert_eq!(parse_rows("2 2").unwrap().len(), 2);
        let err = parse_rows("3\n1\n2\n").unwrap_err().to_string();
        assert!(err.contains("one line"), "{err}");
    }

    fn hints_for(input: &str, got: &str) -> Vec<String> {
        PresentBoard.hints(&HintCase {
            input,
            got,
            expected: "",
        })
    }

    #[test]
    fn a_row_drawn_one_x_short_or_long_is_explained() {
        let short = hints_for("2 0 3", "Nim:\n1: X\n2:\n3: X X\n");
        assert!(short.iter().any(|h| h.contains("one X fewer")), "{short:?}");
        let long = hints_for("2 1", "Nim:\n1: X X X\n2: X X\n");
        assert!(long.iter().any(|h| h.contains("one X more")), "{long:?}");
        // One row wrong, the rest right: not a loop bound.
        let mixed = hints_for("2 1", "Nim:\n1: X\n2: X\n");
        assert!(!mixed.iter().any(|h| h.contains("one X")), "{mixed:?}");
        assert!(hints_for("2 1", &draw(&[2, 1])).is_empty());
    }

    #[test]
    fn a_list_of_lines_is_explained() {
        let hints = hints_for("1", "['Nim:', '1: X']\n");
        assert!(
            hints.iter().any(|h| h.contains(".join(lines)")),
            "{hints:?}"
        );
    }
}
