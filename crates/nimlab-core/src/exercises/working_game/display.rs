//! Reading what a game prints: boards (in present_board's format or another drawing nimlab
//! recognises), lines that announce a move, and everything else as plain lines.
//!
//! The lab leaves the game's look to the student, so a board is recognised in the shapes
//! students draw it: present_board's `Nim:` and `1: X X X`, a count per row (`Row 1: 3`), one
//! symbol repeated per row (`Heap 1: | | |`, `1: OOO (3 left)`), a printed Python list
//! (`[5, 4, 3]`), or the sizes after a word such as `Board:`. What does not read as a board is
//! a line: the referee then follows the game by the moves instead.

use regex::Regex;
use std::sync::LazyLock;

/// A piece of the program's output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// A board, row sizes in order; `lab_format` when drawn in present_board's format.
    Board { rows: Vec<u64>, lab_format: bool },
    /// Any other line; `complete` when it ended with a newline (else it is a prompt).
    Line { text: String, complete: bool },
}

/// One row as a line draws it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RowLine {
    number: usize,
    size: u64,
    /// In present_board's format.
    lab: bool,
    /// The size when the `|` after the number is a stick too: `1   | | |` is three sticks,
    /// unless another row of the board shows `|` as a border (`2 | ***`).
    sticks: Option<u64>,
    /// A `|` after the number, then something other than sticks `|`: a border.
    bordered: bool,
    /// The symbol of a row drawn as one symbol repeated.
    symbol: Option<String>,
    /// The mark of taken elements, drawn after the remaining ones (`O O x x`).
    taken: Option<String>,
}

/// One row as a line draws it: its number and size. The number may stand in brackets
/// (`(1) ##`), be a letter (`A: ***` is row 1), or open a table's row (`|  1  |   4   |`).
fn row_line(line: &str) -> Option<RowLine> {
    static ROW: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)^\s*(?:(?:row|heap|pile|line|stack)\s*#?\s*)?(\d{1,2})\s*([:.)|\]-]|=>|->)?\s*(.*?)\s*$",
        )
        .expect("valid pattern")
    });
    // `(1) ##`, `[2] ###`, `| 1 | 4 |`, `A: ***`: the number's own marks, then the drawing.
    static MARKED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^\s*(?:\((\d{1,2})\)|\[(\d{1,2})\]|\|\s*(\d{1,2})\s*\||([A-J])\s*[:)])\s*(.*?)\s*\|?\s*$",
        )
        .expect("valid pattern")
    });
    if let Some(marked) = MARKED.captures(line) {
        let number = match marked.get(4) {
            Some(letter) => usize::from(letter.as_str().as_bytes()[0] - b'A') + 1,
            None => (1..=3).find_map(|k| marked.get(k))?.as_str().parse().ok()?,
        };
        let size = row_size(marked.get(5).map_or("", |m| m.as_str()))?;
        return Some(RowLine {
            number,
            size,
            lab: false,
            sticks: None,
            bordered: false,
            symbol: None,
            taken: None,
        });
    }
    let captures = ROW.captures(line)?;
    let number: usize = captures[1].parse().ok()?;
    let rest = captures.get(3).map_or("", |m| m.as_str());
    // present_board's format exactly: "N:" then " X" per element.
    let lab = {
        let trimmed = line.trim();
        trimmed
            .split_once(':')
            .is_some_and(|(n, tail)| n == captures[1].to_string() && lab_row(tail))
    };
    let bar = captures.get(2).filter(|m| m.as_str() == "|");
    // Sticks `|` from the bar on: `1     | |` is two sticks, not a border and one stick.
    let sticks = bar.and_then(|m| {
        let from = line[m.start()..].trim_end();
        from.chars()
            .all(|c| c == '|' || c.is_whitespace())
            .then(|| symbol_run(from))
            .flatten()
    });
    let bordered = bar.is_some() && sticks.is_none() && !rest.is_empty();
    let symbol = symbol_run(rest).and(rest.split_whitespace().next().map(str::to_string));
    let (size, taken) = match row_size(rest) {
        Some(size) => (size, None),
        None => {
            let (kept, taken) = crossed_out(rest)?;
            (kept, Some(taken))
        }
    };
    Some(RowLine {
        number,
        size,
        lab,
        sticks,
        bordered,
        symbol: symbol.filter(|s| s.chars().count() == 1),
        taken,
    })
}

fn lab_row(tail: &str) -> bool {
    tail.split_whitespace().all(|t| t == "X")
}

/// The size a row's drawing shows: a count, a run of one symbol, or both when they agree.
fn row_size(drawing: &str) -> Option<u64> {
    static COUNT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^(.*?)[\s,:-]*[(\[]?\s*(\d{1,3})\s*(?:left|elements?|items?|sticks?|stones?|matches|coins?|objects?|pieces?|tokens?|counters?|remaining)?\s*[)\]]?\s*$")
            .expect("valid pattern")
    });
    // "Row 1 has 3": a verb before the count.
    static VERB: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^(?:has|have|holds|contains|with)\s+").expect("valid pattern")
    });
    let drawing = drawing.trim();
    let drawing = VERB
        .find(drawing)
        .map_or(drawing, |verb| &drawing[verb.end()..]);
    // The symbols between brackets: "[##]", "[]".
    let drawing = [('[', ']'), ('(', ')'), ('{', '}')]
        .iter()
        .find_map(|(open, close)| drawing.strip_prefix(*open)?.strip_suffix(*close))
        .filter(|inside| !inside.contains(',') && !inside.chars().any(|c| c.is_ascii_digit()))
        .map_or(drawing, str::trim);
    if drawing.is_empty() {
        return Some(0);
    }
    // The count with its binary beside it: "5 = 101", "5 (101)".
    static BINARY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(\d{1,3})\s*(?:=|:|\(|-)\s*([01]{1,8})\s*\)?$").expect("valid pattern")
    });
    if let Some(c) = BINARY.captures(drawing) {
        let count = c[1].parse::<u64>().ok()?;
        return (u64::from_str_radix(&c[2], 2).ok()? == count).then_some(count);
    }
    // The count first, in brackets: "(5): * * * * *".
    static LEADING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^[(\[]\s*(\d{1,3})\s*[)\]]\s*[:-]?\s*(.*)$").expect("valid pattern")
    });
    let (symbols, count) = if let Some(c) = LEADING.captures(drawing) {
        (c[2].trim().to_string(), c[1].parse::<u64>().ok())
    } else if let Some(c) = COUNT.captures(drawing) {
        (
            c.get(1).map_or("", |m| m.as_str()).trim().to_string(),
            c[2].parse::<u64>().ok(),
        )
    } else {
        (drawing.to_string(), None)
    };
    let run = symbol_run(&symbols);
    match (run, count) {
        (Some(n), Some(c)) if symbols.is_empty() || n == c => Some(c),
        (Some(_), Some(_)) => None,
        (Some(n), None) => Some(n),
        (None, Some(c)) if symbols.is_empty() => Some(c),
        _ => None,
    }
}

/// Elements left, then the taken ones marked with another symbol (`O O x x`): how many are
/// left, and the mark.
fn crossed_out(text: &str) -> Option<(u64, String)> {
    let symbols: Vec<&str> = text.split_whitespace().collect();
    let first = *symbols.first()?;
    let kept = symbols.iter().take_while(|s| **s == first).count();
    let mark = *symbols.get(kept)?;
    let single = |s: &str| s.chars().count() == 1 && !s.chars().any(|c| c.is_ascii_digit());
    let marks_only = symbols[kept..].iter().all(|s| *s == mark);
    (single(first) && single(mark) && marks_only).then(|| (kept as u64, mark.to_string()))
}

/// How many times one symbol is repeated (spaces between allowed); None if the text is not
/// one symbol repeated. An empty text is a run of none.
fn symbol_run(text: &str) -> Option<u64> {
    let symbols: Vec<&str> = if text.contains(char::is_whitespace) {
        text.split_whitespace().collect()
    } else {
        // Without spaces: a run of one character ("|||", "OOO", "🔴🔴").
        text.chars()
            .map(|c| &text[text.find(c).unwrap()..][..c.len_utf8()])
            .collect()
    };
    let first = symbols.first()?;
    let drawable = first.chars().count() == 1
        && first
            .chars()
            .all(|c| !c.is_ascii_digit() && (!c.is_alphanumeric() || "XxOoIi".contains(c)));
    if drawable && symbols.iter().all(|s| s == first) {
        Some(symbols.len() as u64)
    } else {
        None
    }
}

/// A board on one line: a Python list of sizes (`[5, 4, 3]`, possibly after a word), or
/// sizes after a word about the board (`Board: 5 4 3`).
fn one_line_board(line: &str) -> Option<Vec<u64>> {
    static LIST: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^\s*(?:[A-Za-z' ]{0,30}[:=]?\s*)?\[\s*(\d{1,3}(?:\s*,\s*\d{1,3})*)\s*,?\s*\]\s*$",
        )
        .expect("valid pattern")
    });
    static SIZES: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:the\s+)?(?:current\s+)?(?:board|heaps|piles|rows)(?:\s+is|\s+now)?\s*[:=]\s*(\d{1,3}(?:[\s,]+\d{1,3})*)\s*$")
            .expect("valid pattern")
    });
    // Sizes alone between bars: `3 | 5 | 7`.
    static BARRED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\s*\|?\s*(\d{1,3}(?:\s*\|\s*\d{1,3})+)\s*\|?\s*$").expect("valid pattern")
    });
    // Each size in its own brackets: `[ 3 ][ 4 ][ 5 ]`.
    static CELLS: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\s*(?:\[\s*\d{1,3}\s*\]\s*){2,}$").expect("valid pattern"));
    let lower = line.to_lowercase();
    if lower.contains("move") || lower.contains("took") || lower.contains("takes") {
        return None;
    }
    if CELLS.is_match(line) {
        return line
            .split(['[', ']'])
            .map(str::trim)
            .filter(|cell| !cell.is_empty())
            .map(|cell| cell.parse().ok())
            .collect();
    }
    if let Some(barred) = BARRED.captures(line) {
        return barred[1]
            .split('|')
            .map(|w| w.trim().parse().ok())
            .collect::<Option<Vec<u64>>>();
    }
    let numbers = LIST
        .captures(line)
        .or_else(|| SIZES.captures(line))?
        .get(1)?
        .as_str()
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().ok())
        .collect::<Option<Vec<u64>>>()?;
    Some(numbers)
}

/// Splits output into boards and lines. `rows` is how many rows a board has, once known.
#[cfg(test)]
pub fn parse_output(text: &str, rows: Option<usize>) -> Vec<Shown> {
    parse_output_marked(text, rows, None)
}

/// The mark a board in `text` draws for taken elements (`O O x x`), if one does.
pub fn taken_mark(text: &str) -> Option<String> {
    text.lines()
        .find_map(|line| row_line(line).and_then(|row| row.taken))
}

/// As [`parse_output`], knowing the mark earlier boards drew for taken elements: a row of
/// only that mark is empty even where no row of this board still has elements (the last
/// board, `x x x` in every row).
pub fn parse_output_marked(text: &str, rows: Option<usize>, taken: Option<&str>) -> Vec<Shown> {
    let lines: Vec<(&str, bool)> = text
        .split_inclusive('\n')
        .map(|l| (l.trim_end_matches(['\n', '\r']), l.ends_with('\n')))
        .collect();
    let mut shown = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (line, complete) = lines[i];
        // Rows numbered from 0 are not read: moves are typed with rows from 1, so such a
        // drawing cannot be trusted to mean what nimlab would read into it.
        if complete && row_line(line).is_some_and(|row| row.number == 0) {
            while i < lines.len() && lines[i].1 && row_line(lines[i].0).is_some() {
                shown.push(Shown::Line {
                    text: lines[i].0.to_string(),
                    complete: true,
                });
                i += 1;
            }
            continue;
        }
        // A heading ("Nim:", "Board:", "Current board") before the rows is part of the board.
        let heading = is_heading(line);
        let start = if heading { i + 1 } else { i };
        let (board, end) = numbered_rows(&lines, start, rows, heading, taken);
        if let Some((board, lab_format)) = board {
            let lab_format = lab_format && heading && line.trim() == "Nim:";
            if heading && line.trim() != "Nim:" {
                shown.push(Shown::Line {
                    text: line.to_string(),
                    complete,
                });
            }
            shown.push(Shown::Board {
                rows: board,
                lab_format,
            });
            i = end;
            continue;
        }
        if let Some(board) = sideways(&lines, i).filter(|b| rows.is_none_or(|r| b.len() == r)) {
            shown.push(Shown::Board {
                rows: board,
                lab_format: false,
            });
            i += 2;
            continue;
        }
        if complete && let Some(board) = columns(&mut shown, line, rows) {
            shown.push(Shown::Board {
                rows: board,
                lab_format: false,
            });
            i += 1;
            continue;
        }
        match one_line_board(line).filter(|b| complete && rows.is_none_or(|r| b.len() == r)) {
            Some(board) => shown.push(Shown::Board {
                rows: board,
                lab_format: false,
            }),
            None => shown.push(Shown::Line {
                text: line.to_string(),
                complete,
            }),
        }
        i += 1;
    }
    shown
}

/// A board drawn sideways on two lines: the rows' numbers from 1 after a word for rows
/// (`Row:   1  2  3`), then their sizes after a label (`Left:  3  4  5`).
fn sideways(lines: &[(&str, bool)], i: usize) -> Option<Vec<u64>> {
    static LABELLED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*([a-z][a-z ]{0,15}?)\s*[:|]?((?:\s+\d{1,3})+)\s*$")
            .expect("valid pattern")
    });
    let [(header, true), (sizes, true)] = lines.get(i..i + 2)? else {
        return None;
    };
    let numbers = |line: &str| -> Option<(String, Vec<u64>)> {
        let c = LABELLED.captures(line)?;
        let values: Option<Vec<u64>> = c[2].split_whitespace().map(|w| w.parse().ok()).collect();
        Some((c[1].to_lowercase(), values?))
    };
    let (label, numbering) = numbers(header)?;
    let (_, board) = numbers(sizes)?;
    let rows_word = ["row", "rows", "heap", "heaps", "pile", "piles"].contains(&label.trim());
    let counted = numbering
        .iter()
        .enumerate()
        .all(|(k, &n)| n == k as u64 + 1);
    (rows_word && counted && board.len() == numbering.len()).then_some(board)
}

/// Heaps drawn upright: lines of one symbol per element (`  * *`) standing on a line that
/// numbers the columns from 1 (`1 2 3`). `footer` is that line; the symbols' lines are the
/// complete lines just before it in `shown`, taken out of it.
fn columns(shown: &mut Vec<Shown>, footer: &str, rows: Option<usize>) -> Option<Vec<u64>> {
    static FOOTER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\s*1(?:\s+\d{1,2})+\s*$").expect("valid pattern"));
    static SYMBOLS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^ *[^\sA-Za-z0-9](?: +[^\sA-Za-z0-9])* *$").expect("valid pattern")
    });
    if !FOOTER.is_match(footer) {
        return None;
    }
    let mut places = Vec::new();
    for (k, number) in footer.split_whitespace().enumerate() {
        if number.parse::<usize>().ok()? != k + 1 {
            return None;
        }
        let from = places.last().map_or(0, |p: &usize| p + 1);
        places.push(from + footer[from..].find(number)?);
    }
    let standing = shown
        .iter()
        .rev()
        .take_while(
            |item| matches!(item, Shown::Line { text, complete: true } if SYMBOLS.is_match(text)),
        )
        .count();
    // Alone, the footer is the empty board where the board's size is known; never two
    // numbers alone, which may be a move echoed.
    if standing == 0 && (rows != Some(places.len()) || places.len() < 3) {
        return None;
    }
    let mut board = vec![0; places.len()];
    for item in shown.drain(shown.len() - standing..) {
        let Shown::Line { text, .. } = item else {
            continue;
        };
        for (column, &place) in places.iter().enumerate() {
            if text.chars().nth(place).is_some_and(|c| !c.is_whitespace()) {
                board[column] += 1;
            }
        }
    }
    Some(board)
}

fn is_heading(line: &str) -> bool {
    static HEADING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:nim|(?:the\s+)?(?:current\s+)?(?:board|heaps|piles|rows)(?:\s+is|\s+now)?)\s*:?\s*$")
            .expect("valid pattern")
    });
    HEADING.is_match(line)
}

/// Rows numbered from 1 starting at `start`: the board they draw, whether every row was in
/// present_board's format, and the index after the last row. Rows that are not drawn (a
/// program may leave out empty rows) count as empty where the board's size is known.
fn numbered_rows(
    lines: &[(&str, bool)],
    start: usize,
    rows: Option<usize>,
    heading: bool,
    known_taken: Option<&str>,
) -> (Option<(Vec<u64>, bool)>, usize) {
    let mut sizes: Vec<(usize, u64)> = Vec::new();
    let mut sticks: Vec<Option<u64>> = Vec::new();
    let mut bordered = false;
    let mut symbols: Vec<Option<String>> = Vec::new();
    let mut taken: Option<String> = known_taken.map(str::to_string);
    let mut lab_format = true;
    let mut j = start;
    while j < lines.len() && lines[j].1 {
        let Some(RowLine {
            number,
            size,
            lab,
            sticks: as_sticks,
            bordered: border,
            symbol,
            taken: mark,
        }) = row_line(lines[j].0)
        else {
            break;
        };
        let next_ok = match sizes.last() {
            None => number == 1 || rows.is_some_and(|r| number <= r),
            Some(&(last, _)) => number > last && rows.is_none_or(|r| number <= r),
        };
        if !next_ok || number == 0 {
            break;
        }
        lab_format &= lab;
        sizes.push((number, size));
        sticks.push(as_sticks);
        symbols.push(symbol);
        taken = taken.or(mark);
        bordered |= border;
        j += 1;
    }
    // No row shows its `|` as a border: every `|` is a stick. But a bar alone after every
    // number is a border round empty rows (`1 |`, `2 |`), not a stick in each.
    // A row of only the taken elements' mark has none left.
    for ((_, size), symbol) in sizes.iter_mut().zip(&symbols) {
        if taken.is_some() && *symbol == taken {
            *size = 0;
        }
    }
    let bars_alone = sticks.iter().all(|s| *s == Some(1));
    if !bordered && !bars_alone {
        for ((_, size), as_sticks) in sizes.iter_mut().zip(&sticks) {
            *size = as_sticks.unwrap_or(*size);
        }
    }
    let Some(&(last, _)) = sizes.last() else {
        return (None, start);
    };
    let length = match rows {
        Some(r) => r,
        // Before the board's size is known, rows must come one after another from 1.
        None if sizes.iter().enumerate().all(|(k, (n, _))| *n == k + 1) => last,
        None => return (None, start),
    };
    // One numbered line alone is a board only where a board of one row is expected.
    if sizes.len() == 1 && rows != Some(1) && !heading {
        return (None, start);
    }
    let mut board = vec![0; length];
    for (number, size) in sizes {
        board[number - 1] = size;
    }
    lab_format &= board.len() == j - start;
    (Some((board, lab_format)), j)
}

/// A move a line announces ("Computer takes 2 from row 3", "CPU plays 3, 2", "removed 2
/// elements from heap 3"): (row, elements). Row and elements in that order when the line does
/// not say which is which, as the lab writes moves.
pub fn announced_move(line: &str) -> Option<(u64, u64)> {
    static ROW_FIRST: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:row|heap|pile|line|stack|column)\s*#?\s*(\d{1,2})\b")
            .expect("valid pattern")
    });
    static NUMBER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\b\d{1,3}\b").expect("valid pattern"));
    let lower = line.to_lowercase();
    // An example of how to type a move ("e.g. \"take 3 from row 2\"", "type it like: ...").
    let example = ["e.g", "example", "like", "type", "format", "\"", "“"]
        .iter()
        .any(|w| lower.contains(w));
    // A history of the moves so far ("Moves: Ada 2@3, Robot 1@1") announces none.
    static HISTORY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\s*(?:moves|history|log|moves so far|previous moves)\s*:")
            .expect("valid pattern")
    });
    if example || HISTORY.is_match(&lower) {
        return None;
    }
    let verb = [
        "take", "took", "remove", "plays", "played", "move", "chose", "picks", "picked",
    ]
    .iter()
    .any(|v| lower.contains(v));
    if !verb {
        return None;
    }
    let numbers: Vec<(usize, u64)> = NUMBER
        .find_iter(line)
        .filter_map(|m| Some((m.start(), m.as_str().parse().ok()?)))
        .collect();
    if numbers.len() != 2 {
        return None;
    }
    if let Some(row) = ROW_FIRST.captures(line) {
        let at = row.get(1)?.start();
        let row_number: u64 = row[1].parse().ok()?;
        let other = numbers.iter().find(|(start, _)| *start != at)?.1;
        return Some((row_number, other));
    }
    Some((numbers[0].1, numbers[1].1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boards(text: &str, rows: Option<usize>) -> Vec<Vec<u64>> {
        parse_output(text, rows)
            .into_iter()
            .filter_map(|s| match s {
                Shown::Board { rows, .. } => Some(rows),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_taken_mark_learned_earlier_empties_rows_of_marks_alone() {
        let first = "1 | O O x\n2 | O x x x\n";
        assert_eq!(taken_mark(first).as_deref(), Some("x"));
        let last = "1 | x x x\n2 | x x x x\n";
        assert_eq!(
            boards(last, None),
            [[3, 4]],
            "alone, the marks are elements"
        );
        let read: Vec<Vec<u64>> = parse_output_marked(last, None, Some("x"))
            .into_iter()
            .filter_map(|s| match s {
                Shown::Board { rows, .. } => Some(rows),
                Shown::Line { .. } => None,
            })
            .collect();
        assert_eq!(read, [[0, 0]]);
    }

    #[test]
    fn present_boards_format_is_read_and_known_as_the_labs() {
        let shown = parse_output("Nim:\n1: X X\n2:\n3: X\nBob, your move: ", Some(3));
        assert_eq!(
            shown[0],
            Shown::Board {
                rows: vec![2, 0, 1],
                lab_format: true
            }
        );
        assert_eq!(
            shown[1],
            Shown::Line {
                text: "Bob, your move: ".into(),
                complete: false
            }
        );
        let shown = parse_output("Nim:\n1: XX\n2: X\n", None);
        assert_eq!(
            shown[0],
            Shown::Board {
                rows: vec![2, 1],
                lab_format: false
            }
        );
    }

    #[test]
    fn other_drawings_are_read() {
        assert_eq!(
            boards("Row 1: ||| (3 left)\nRow 2: | (1 left)\n", None),
            [[3, 1]]
        );
        assert_eq!(boards("Heap 1: * * *\nHeap 2: * *\n", None), [[3, 2]]);
        assert_eq!(boards("1: 5\n2: 4\n3: 0\n", None), [[5, 4, 0]]);
        assert_eq!(boards("Row 1: OOO\nRow 2: \n", None), [[3, 0]]);
        assert_eq!(boards("[5, 4, 3, 2, 1]\n", None), [[5, 4, 3, 2, 1]]);
        assert_eq!(boards("Board: [3, 0, 1]\n", Some(3)), [[3, 0, 1]]);
        assert_eq!(boards("Current board:\n1 - ||\n2 - |||\n", None), [[2, 3]]);
        assert_eq!(boards("(1) ##\n(2) \n(3) #####\n", None), [[2, 0, 5]]);
        assert_eq!(boards("A: ***\nB: \nC: *******\n", None), [[3, 0, 7]]);
        let table = "+-----+-------+\n| row | count |\n+-----+-------+\n|  1  |   4   |\n|  2  |   0   |\n+-----+-------+\n";
        assert_eq!(boards(table, None), [[4, 0]]);
        assert_eq!(boards("[ 3 ][ 0 ][ 5 ]\n", None), [[3, 0, 5]]);
        assert_eq!(boards("Row 1 has 3\nRow 2 has 0\n", None), [[3, 0]]);
        assert_eq!(boards("Row 1: [##]\nRow 2: []\n", None), [[2, 0]]);
        assert_eq!(boards("Row 1 (2): * *\nRow 2 (0): \n", None), [[2, 0]]);
        // Sticks `|` after a bare row number, not a border; a border where a row shows one.
        assert_eq!(
            boards("1     | |\n2   | | | |\n3 | | | | | |\n", None),
            [[2, 4, 6]]
        );
        assert_eq!(boards("1   |\n2\n3   | | |\n", None), [[1, 0, 3]]);
        assert_eq!(boards("1 | ***\n2 |\n3 | *\n", None), [[3, 0, 1]]);
        assert_eq!(boards("1 |\n2 |\n3 |\n", None), [[0, 0, 0]]);
        // Taken elements marked after the remaining ones.
        assert_eq!(
            boards("1 | O O x\n2 | x x x x\n3 | O O O O O\n", None),
            [[2, 0, 5]]
        );
        // Empty rows left out, once the board's size is known.
        assert_eq!(boards("Row 1: |||\nRow 3: |\n", Some(3)), [[3, 0, 1]]);
    }

    #[test]
    fn heaps_between_bars_and_standing_columns_are_read() {
        assert_eq!(boards("3 | 5 | 7\n", None), [vec![3, 5, 7]]);
        let upright = "    *\n  * *\n* * *\n1 2 3\n";
        assert_eq!(boards(upright, None), [vec![1, 2, 3]]);
        assert_eq!(boards("  *\n  *\n1 2 3\n", Some(3)), [vec![0, 2, 0]]);
        // The footer alone is the empty board only where the board's size is known.
        assert_eq!(boards("1 2 3\n", Some(3)), [vec![0, 0, 0]]);
        assert!(boards("1 2 3\n", None).is_empty());
        assert!(boards("1 2\n", Some(2)).is_empty());
    }

    #[test]
    fn menus_and_moves_are_not_boards() {
        assert!(boards("1) Human vs Human\n2) Human vs Computer\n", None).is_empty());
        assert!(boards("1. Play\n2. Quit\n", None).is_empty());
        assert!(boards("Computer's move: [3, 2]\n", Some(2)).is_empty());
        assert_eq!(
            boards("Row 1:  5 = 101\nRow 2:  4 = 100\nRow 3:  0 = 000\n", None),
            vec![vec![5, 4, 0]]
        );
        assert_eq!(
            boards(
                "Row:   1   2   3\nLeft:   3   0   5\nMoves: Ada 4@2\n",
                None
            ),
            vec![vec![3, 0, 5]]
        );
        assert!(boards("1: 5\n", None).is_empty(), "one numbered line alone");
        assert!(
            boards("Nim:\n0: X X\n1: X\n2: X X X\n", None).is_empty(),
            "rows numbered from 0"
        );
    }

    #[test]
    fn announced_moves_are_read() {
        assert_eq!(announced_move("Computer takes 2 from row 3"), Some((3, 2)));
        assert_eq!(announced_move("CPU plays 3, 2"), Some((3, 2)));
        assert_eq!(
            announced_move("The computer removed 4 elements from heap 1."),
            Some((1, 4))
        );
        assert_eq!(announced_move("Ada, it is your turn"), None);
        assert_eq!(announced_move("Computer takes 2"), None);
        assert_eq!(announced_move("Moves: Ada 2@3, Robot 1@1"), None);
        assert_eq!(
            announced_move("Illegal move. Type it like: take 3 from row 2"),
            None
        );
    }
}
