//! Comparators: does a program's output match the expected output?

use crate::exercises::Comparison;
use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_difference: Option<LineDifference>,
}

/// The first line where expected and actual output part ways (1-based).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct LineDifference {
    pub line: usize,
    /// `None` where that side has no such line.
    pub expected: Option<String>,
    pub got: Option<String>,
}

impl Mismatch {
    fn at_line(line: usize, expected: Option<&str>, got: Option<&str>) -> Mismatch {
        let message = match (expected, got) {
            (Some(e), Some(g)) => {
                format!("line {line}: expected `{}`, got `{}`", short(e), short(g))
            }
            (Some(e), None) => {
                format!("line {line}: expected `{}`, but the output ended", short(e))
            }
            (None, Some(g)) => format!(
                "line {line}: expected the end of the output, got `{}`",
                short(g)
            ),
            (None, None) => format!("line {line} differs"),
        };
        Mismatch {
            message,
            first_difference: Some(LineDifference {
                line,
                expected: expected.map(str::to_string),
                got: got.map(str::to_string),
            }),
        }
    }
}

impl Mismatch {
    /// A line cut to a length that fits in a one-line message.
    pub fn shorten(line: &str) -> String {
        short(line)
    }
}

fn short(line: &str) -> String {
    const MAX: usize = 60;
    let line = line.trim_end_matches(['\n', '\r']);
    if line.chars().count() <= MAX {
        line.to_string()
    } else {
        format!("{}…", line.chars().take(MAX).collect::<String>())
    }
}

pub fn compare(mode: Comparison, expected: &str, got: &str) -> Result<(), Mismatch> {
    match mode {
        Comparison::Lines => white_diff(expected, got),
        Comparison::Exact => exact(expected, got),
        Comparison::Tokens => tokens(expected, got),
        Comparison::Json => json(expected, got),
    }
}

const WHITE: [char; 6] = [' ', '\t', '\n', '\x0b', '\x0c', '\r'];

/// CMS's white-diff: each line compares with runs of whitespace folded and its ends trimmed;
/// once one side runs out of lines, the other may only have blank lines left.
fn white_diff(expected: &str, got: &str) -> Result<(), Mismatch> {
    // Word by word, without collecting a line's words: a board line can hold a million.
    fn same_words(a: &str, b: &str) -> bool {
        let words = |line| str::split(line, WHITE).filter(|w: &&str| !w.is_empty());
        words(a).eq(words(b))
    }
    // Most outputs judged are right to the byte: compared as memory, not word by word (a
    // class's checks spent a quarter of the judge's own time here).
    if expected == got {
        return Ok(());
    }
    let mut e = expected.split_inclusive('\n');
    let mut g = got.split_inclusive('\n');
    let mut line = 0;
    loop {
        line += 1;
        match (e.next(), g.next()) {
            (None, None) => return Ok(()),
            (Some(el), Some(gl)) if el != gl && !same_words(el, gl) => {
                return Err(Mismatch::at_line(line, Some(el), Some(gl)));
            }
            (Some(el), None) if !el.trim_matches(WHITE).is_empty() => {
                return Err(Mismatch::at_line(line, Some(el), None));
            }
            (None, Some(gl)) if !gl.trim_matches(WHITE).is_empty() => {
                return Err(Mismatch::at_line(line, None, Some(gl)));
            }
            _ => {}
        }
    }
}

fn exact(expected: &str, got: &str) -> Result<(), Mismatch> {
    if expected == got {
        return Ok(());
    }
    let mut e = expected.split_inclusive('\n');
    let mut g = got.split_inclusive('\n');
    let mut line = 0;
    loop {
        line += 1;
        match (e.next(), g.next()) {
            (Some(el), Some(gl)) if el == gl => continue,
            (el, gl) => {
                let mut mismatch = Mismatch::at_line(line, el, gl);
                let content = |l: &str| l.trim_end_matches(['\n', '\r']).to_string();
                if el.map(content) == gl.map(content) {
                    mismatch.message = format!("line {line}: only the line ending differs");
                }
                return Err(mismatch);
            }
        }
    }
}

fn tokens(expected: &str, got: &str) -> Result<(), Mismatch> {
    let mut e = expected.split_whitespace();
    let mut g = got.split_whitespace();
    let mut index = 0;
    loop {
        index += 1;
        let message = match (e.next(), g.next()) {
            (None, None) => return Ok(()),
            (Some(a), Some(b)) if a == b => continue,
            (Some(a), Some(b)) => {
                format!("word {index}: expected `{}`, got `{}`", short(a), short(b))
            }
            (Some(a), None) => format!(
                "word {index}: expected `{}`, but the output ended",
                short(a)
            ),
            (None, Some(b)) => format!(
                "word {index}: expected the end of the output, got `{}`",
                short(b)
            ),
        };
        return Err(Mismatch {
            message,
            first_difference: None,
        });
    }
}

fn json(expected: &str, got: &str) -> Result<(), Mismatch> {
    let expected: Value = serde_json::from_str(expected).map_err(|e| Mismatch {
        message: format!("the expected output is not JSON ({e}): the fixture is broken"),
        first_difference: None,
    })?;
    if got.trim().is_empty() {
        return Err(Mismatch {
            message: "the program printed nothing".into(),
            first_difference: None,
        });
    }
    let got: Value = serde_json::from_str(got).map_err(|e| Mismatch {
        message: format!("the output is not valid JSON ({e})"),
        first_difference: None,
    })?;
    json_equal(&expected, &got, "result").map_err(|message| Mismatch {
        message,
        first_difference: None,
    })
}

enum Num {
    /// An integer's digits as written: JSON allows no leading zeros, so equal integers are
    /// equal texts (once `-0` is `0`). Comparing text, not big integers, keeps a
    /// million-digit answer linear to judge.
    Int(String),
    Float(f64),
}

fn number(n: &serde_json::Number) -> Num {
    let text = n.to_string();
    let digits = text.strip_prefix('-').unwrap_or(&text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        Num::Int(if digits == "0" {
            digits.to_string()
        } else {
            text
        })
    } else {
        Num::Float(text.parse().unwrap_or(f64::NAN))
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if matches!(number(n), Num::Int(_)) => "an integer",
        Value::Number(_) => "a decimal number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Equal as values: key order and spacing don't matter, but 6 and 6.0 differ (that is the
/// Python 3 `/` mistake the lab wants caught).
fn json_equal(expected: &Value, got: &Value, at: &str) -> Result<(), String> {
    // Places are written as Python indexing of the printed value: result[0][2].
    let place = |what: String| {
        if at == "result" {
            what
        } else {
            format!("{at}: {what}")
        }
    };
    match (expected, got) {
        (Value::Number(e), Value::Number(g)) => match (number(e), number(g)) {
            (Num::Int(a), Num::Int(b)) if a == b => Ok(()),
            (Num::Float(a), Num::Float(b)) if a == b => Ok(()),
            _ => Err(place(format!(
                "expected {}, got {}",
                short(&e.to_string()),
                short(&g.to_string())
            ))),
        },
        (Value::Array(e), Value::Array(g)) => {
            if e.len() != g.len() {
                return Err(place(format!(
                    "expected a list of {} item(s), got {} item(s)",
                    e.len(),
                    g.len()
                )));
            }
            for (i, (a, b)) in e.iter().zip(g).enumerate() {
                json_equal(a, b, &format!("{at}[{i}]"))?;
            }
            Ok(())
        }
        (Value::Object(e), Value::Object(g)) => {
            for (key, a) in e {
                let Some(b) = g.get(key) else {
                    return Err(place(format!("the key \"{key}\" is missing")));
                };
                json_equal(a, b, &format!("{at}[\"{key}\"]"))?;
            }
            match g.keys().find(|k| !e.contains_key(*k)) {
                Some(extra) => Err(place(format!("unexpected key \"{extra}\""))),
                None => Ok(()),
            }
        }
        (e, g) if e == g => Ok(()),
        (e, g) if kind(e) == kind(g) => Err(place(format!("expected {e}, got {g}"))),
        (e, g) => Err(place(format!(
            "expected {} ({e}), got {} ({g})",
            kind(e),
            kind(g)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_integers_compare_by_value_even_when_huge() {
        assert!(json("[3, 0]", "[3, -0]").is_ok());
        assert!(json("6", "6.0").is_err());
        assert!(json("1e2", "100.0").is_ok());
        let huge = "7".repeat(1_000_000);
        assert!(json(&huge, &huge).is_ok());
        let other = format!("{}8", "7".repeat(999_999));
        let message = json(&huge, &other).unwrap_err().message;
        assert!(message.len() < 200, "{} bytes", message.len());
        assert!(message.starts_with("expected 777"), "{message}");
    }

    #[test]
    fn white_diff_ignores_spacing_and_trailing_blank_lines() {
        assert!(white_diff("Nim:\n1: X X\n", "Nim:  \n1:   X\tX\r\n\n\n").is_ok());
        assert!(white_diff("6", "6\n").is_ok());
        assert!(white_diff("Nim:\n1:\n", "Nim:\n1:").is_ok());
    }

    #[test]
    fn white_diff_keeps_line_breaks_and_tokens() {
        let m = white_diff("Nim:\n1: X X\n", "Nim: 1: X X\n").unwrap_err();
        assert_eq!(m.first_difference.unwrap().line, 1);
        let m = white_diff("1: X X\n", "1: XX\n").unwrap_err();
        assert!(m.message.contains("line 1"), "{}", m.message);
        // A blank line in the middle counts.
        assert!(white_diff("a\nb\n", "a\n\nb\n").is_err());
        let m = white_diff("a\nb\n", "a\n").unwrap_err();
        assert!(m.message.contains("output ended"), "{}", m.message);
        let m = white_diff("a\n", "a\ndebug\n").unwrap_err();
        assert_eq!(m.first_difference.unwrap().got.as_deref(), Some("debug\n"));
    }

    #[test]
    fn exact_names_line_endings() {
        assert!(exact("a\n", "a\n").is_ok());
        assert!(
            exact("a\n", "a\r\n")
                .unwrap_err()
                .message
                .contains("line ending")
        );
        assert!(exact("a\n", "a \n").is_err());
    }

    #[test]
    fn tokens_ignore_layout() {
        assert!(tokens("1 2\n3", "1\n2 3").is_ok());
        assert!(tokens("1 2", "1 3").unwrap_err().message.contains("word 2"));
    }

    #[test]
    fn json_compares_values_not_text() {
        assert!(json("[[0, 2, 3], true]", "[[0,2,3],true]\n").is_ok());
        assert!(json("{\"a\": 1, \"b\": 2}", "{\"b\": 2, \"a\": 1}").is_ok());
        let m = json("6", "6.0").unwrap_err();
        assert_eq!(m.message, "expected 6, got 6.0");
        let m = json("[[1, 2], true]", "[[1, 2], false]").unwrap_err();
        assert_eq!(m.message, "result[1]: expected true, got false");
        let m = json("[[0, 2, 3], true]", "[[1, 2, 3], true]").unwrap_err();
        assert_eq!(m.message, "result[0][0]: expected 0, got 1");
        let m = json("{\"a\": [1]}", "{\"a\": [2]}").unwrap_err();
        assert_eq!(m.message, "result[\"a\"][0]: expected 1, got 2");
        let m = json("[1, 1, 0]", "[1, 1]").unwrap_err();
        assert!(m.message.contains("3 item(s), got 2"), "{}", m.message);
        let m = json("true", "True").unwrap_err();
        assert!(m.message.contains("not valid JSON"), "{}", m.message);
        let m = json("[1]", "[\"1\"]").unwrap_err();
        assert!(m.message.contains("a string"), "{}", m.message);
        assert!(
            json(
                "123456789012345678901234567890",
                "123456789012345678901234567890"
            )
            .is_ok()
        );
        assert!(
            json(
                "123456789012345678901234567890",
                "123456789012345678901234567891"
            )
            .is_err()
        );
    }
}
