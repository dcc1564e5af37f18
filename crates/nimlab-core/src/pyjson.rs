//! JSON written the way Python's `json.dumps` writes it with default settings, so reference
//! answers read exactly like a correct student's output: `[[0, 2, 3], true]`.

use serde_json::Value;
use std::fmt::Write;

pub fn dumps(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_string(out, key);
                out.push_str(": ");
                write_value(out, item);
            }
            out.push('}');
        }
    }
}

/// Python escapes every non-ASCII character (`ensure_ascii=True`), as UTF-16 code units.
fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// A JSON integer value of any size.
pub fn int(n: &num_bigint::BigInt) -> Value {
    // With arbitrary precision enabled, a number keeps its decimal text exactly.
    Value::Number(
        n.to_string()
            .parse()
            .expect("a decimal integer is valid JSON"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn matches_python_separators() {
        assert_eq!(dumps(&json!([[0, 2, 3], true])), "[[0, 2, 3], true]");
        assert_eq!(
            dumps(&json!({"a": [1], "b": null})),
            "{\"a\": [1], \"b\": null}"
        );
        assert_eq!(dumps(&json!([])), "[]");
    }

    #[test]
    fn escapes_like_python() {
        assert_eq!(
            dumps(&json!("caf\u{e9} \"x\"\n")),
            "\"caf\\u00e9 \\\"x\\\"\\n\""
        );
        assert_eq!(dumps(&json!("\u{1F600}")), "\"\\ud83d\\ude00\"");
    }

    #[test]
    fn big_integers_keep_every_digit() {
        let n: num_bigint::BigInt = "123456789012345678901234567890".parse().unwrap();
        assert_eq!(dumps(&int(&n)), "123456789012345678901234567890");
    }
}
