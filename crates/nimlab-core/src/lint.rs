//! Finds the constructs a statement asks students not to use (`^`, `==`, `bin()`), by reading
//! Python source as tokens so strings and comments never count.

use crate::lab::config::{Forbidden, ForbiddenKind};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Warning {
    pub line: usize,
    pub message: String,
    /// Whether `exercise.toml` makes this use fail the submission.
    pub fails: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token<'a> {
    Name(&'a str),
    Op(&'a str),
}

/// Longest first, so `^=` is one token and `==` is not two `=`.
const OPERATORS: [&str; 47] = [
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "==", "!=", "<=", ">=", "<>", "**", "//", "<<",
    ">>", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "+", "-", "*", "/", "%", "@", "&",
    "|", "^", "~", "<", ">", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";",
];

fn tokenize(source: &str) -> Vec<(usize, Token<'_>)> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'\'' | b'"' => {
                i = skip_string(bytes, i, &mut line);
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => {
                let start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] >= 0x80)
                {
                    i += 1;
                }
                let word = &source[start..i];
                // A string prefix (r, b, u, f and pairs of them) glued to a quote.
                let is_prefix = word.len() <= 2
                    && word.chars().all(|ch| "rRbBuUfF".contains(ch))
                    && matches!(bytes.get(i), Some(b'\'' | b'"'));
                if is_prefix {
                    i = skip_string(bytes, i, &mut line);
                } else {
                    tokens.push((line, Token::Name(word)));
                }
            }
            c if c.is_ascii_digit() => {
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.' || bytes[i] == b'_')
                {
                    i += 1;
                }
            }
            c if c.is_ascii_whitespace() || c == b'\\' => i += 1,
            _ => {
                let rest = &source[i..];
                match OPERATORS.iter().find(|op| rest.starts_with(**op)) {
                    Some(op) => {
                        tokens.push((line, Token::Op(op)));
                        i += op.len();
                    }
                    None => i += 1,
                }
            }
        }
    }
    tokens
}

/// Index just past the string literal whose opening quote is at `start`.
fn skip_string(bytes: &[u8], start: usize, line: &mut usize) -> usize {
    let quote = bytes[start];
    let triple = bytes.get(start + 1) == Some(&quote) && bytes.get(start + 2) == Some(&quote);
    let mut i = start + if triple { 3 } else { 1 };
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                if bytes.get(i + 1) == Some(&b'\n') {
                    *line += 1;
                }
                i += 2;
                continue;
            }
            b'\n' => {
                *line += 1;
                if !triple {
                    return i; // an unterminated string ends at the line's end
                }
            }
            q if q == quote => {
                if !triple {
                    return i + 1;
                }
                if bytes.get(i + 1) == Some(&quote) && bytes.get(i + 2) == Some(&quote) {
                    return i + 3;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// The harness block at the bottom of every starter file is the lab's, not the student's:
/// its `if __name__ == "__main__":` must not count as a use of `==`.
fn student_part(source: &str) -> &str {
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        if line.starts_with("if __name__") {
            return &source[..offset];
        }
        offset += line.len();
    }
    source
}

/// `^` is also used by `^=`; `<` is not used by `<=`, which is an operator of its own.
fn is_operator_use(op: &str, forbidden: &str) -> bool {
    let augmented = op.len() > 1
        && op.strip_suffix('=') == Some(forbidden)
        && !matches!(op, "==" | "!=" | "<=" | ">=");
    op == forbidden || augmented
}

/// Every use of a forbidden construct, in source order.
pub fn lint(source: &str, rules: &[Forbidden]) -> Vec<Warning> {
    if rules.is_empty() {
        return Vec::new();
    }
    let tokens = tokenize(student_part(source));
    let mut warnings = Vec::new();
    for (index, (line, token)) in tokens.iter().enumerate() {
        let previous = index.checked_sub(1).map(|p| &tokens[p].1);
        let after_dot = previous == Some(&Token::Op("."));
        for rule in rules {
            let hit = match (rule.kind, token) {
                (ForbiddenKind::Operator, Token::Op(op)) => is_operator_use(op, &rule.token),
                (ForbiddenKind::Call, Token::Name(name)) => {
                    *name == rule.token
                        && !after_dot
                        && previous != Some(&Token::Name("def"))
                        && tokens.get(index + 1).map(|t| &t.1) == Some(&Token::Op("("))
                }
                (ForbiddenKind::Name, Token::Name(name)) => *name == rule.token && !after_dot,
                _ => false,
            };
            // One warning per rule and line: a line with two `==` is one thing to fix.
            let repeated = warnings
                .iter()
                .any(|w: &Warning| w.line == *line && w.message == rule.message);
            if hit && !repeated {
                warnings.push(Warning {
                    line: *line,
                    message: rule.message.clone(),
                    fails: rule.fail,
                });
            }
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(kind: ForbiddenKind, token: &str) -> Forbidden {
        Forbidden {
            kind,
            token: token.into(),
            message: format!("no {token}"),
            fail: false,
        }
    }

    fn lines(source: &str, rule: Forbidden) -> Vec<usize> {
        lint(source, &[rule]).into_iter().map(|w| w.line).collect()
    }

    #[test]
    fn operators_outside_strings_and_comments() {
        let source =
            "a = 1 ^ 2\ns = 'x ^ y'  # ^ here\nt = \"\"\"\n^\n\"\"\"\nb ^= 3\nc = r'\\'' ^ 1\n";
        assert_eq!(
            lines(source, rule(ForbiddenKind::Operator, "^")),
            vec![1, 6, 7]
        );
    }

    #[test]
    fn equality_is_not_assignment_or_comparison_neighbours() {
        let source = "x = 1\nif x == 1: pass\nif x <= 1 or x != 2: pass\n";
        assert_eq!(lines(source, rule(ForbiddenKind::Operator, "==")), vec![2]);
        assert_eq!(lines(source, rule(ForbiddenKind::Operator, "!=")), vec![3]);
    }

    #[test]
    fn calls_by_name_only() {
        let source = "def bin(x): pass\nbin(3)\nnumpy.bin(3)\nb = bin\nprint( bin (4))\n";
        assert_eq!(lines(source, rule(ForbiddenKind::Call, "bin")), vec![2, 5]);
        assert_eq!(
            lines(source, rule(ForbiddenKind::Name, "bin")),
            vec![1, 2, 4, 5]
        );
    }

    #[test]
    fn a_line_is_warned_about_once_per_rule() {
        let source = "if a == 0 and b == 1:\n    pass\nx = a == b\n";
        assert_eq!(
            lines(source, rule(ForbiddenKind::Operator, "==")),
            vec![1, 3]
        );
    }

    #[test]
    fn the_harness_block_at_the_bottom_is_not_linted() {
        let source = "def f(a, b):\n    return a == b\n\n\nif __name__ == \"__main__\":\n    print(1 == 1)\n";
        assert_eq!(lines(source, rule(ForbiddenKind::Operator, "==")), vec![2]);
    }

    #[test]
    fn prefixed_and_f_strings_are_skipped() {
        let source = "x = f'{a}^{b}'\ny = b\"^\"\nz = rb'^'\n";
        assert!(lines(source, rule(ForbiddenKind::Operator, "^")).is_empty());
    }
}
