use super::Settings;
use super::{Exercise, HintCase, as_int, case_type, field, json_line, json_object};
use crate::error::BadInput;
use crate::nim;
use num_bigint::BigInt;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

#[derive(Debug)]
pub struct BinNum;

fn digits(value: &Value) -> Result<Vec<u8>, BadInput> {
    let Value::Array(items) = value else {
        return Err(BadInput::new("\"value\" must be a list of binary digits"));
    };
    items
        .iter()
        .map(|item| match item.as_u64() {
            Some(d @ (0 | 1)) => Ok(d as u8),
            _ => Err(BadInput::new(format!("{item} is not a binary digit"))),
        })
        .collect()
}

impl Exercise for BinNum {
    fn name(&self) -> &'static str {
        "bin_num"
    }

    fn reference(&self, input: &str, _: &Settings) -> Result<String, BadInput> {
        let map = json_object(input)?;
        let value = field(&map, "value")?;
        let answer = match case_type(&map, "type")? {
            "num_bin" => {
                let n = as_int(value, "\"value\"")?;
                if n < BigInt::ZERO {
                    return Err(BadInput::new("num_bin takes a non-negative number"));
                }
                Value::Array(
                    nim::to_binary_digits(&n)
                        .into_iter()
                        .map(Value::from)
                        .collect(),
                )
            }
            "bin_num" => crate::pyjson::int(&nim::from_binary_digits(&digits(value)?)),
            other => {
                return Err(BadInput::new(format!(
                    "unknown type \"{other}\": expected \"num_bin\" or \"bin_num\""
                )));
            }
        };
        Ok(json_line(&answer))
    }

    fn generate(&self, rng: &mut ChaCha8Rng) -> Option<String> {
        let bits = rng.random_range(0..=72u32);
        let mut n = BigInt::ZERO;
        for _ in 0..bits {
            n = (n << 1u8) + BigInt::from(rng.random_range(0..=1u8));
        }
        let case = if rng.random_bool(0.5) {
            json!({"type": "num_bin", "value": crate::pyjson::int(&n)})
        } else {
            json!({"type": "bin_num", "value": nim::to_binary_digits(&n)})
        };
        Some(format!("{}\n", crate::pyjson::dumps(&case)))
    }

    fn hints(&self, case: &HintCase) -> Vec<String> {
        let mut hints = Vec::new();
        let (Some(got), Ok(expected)) = (
            case.got_json(),
            serde_json::from_str::<Value>(case.expected),
        ) else {
            return hints;
        };
        if let (Value::Array(g), Value::Array(e)) = (&got, &expected) {
            let reversed: Vec<Value> = e.iter().rev().cloned().collect();
            if g.len() > 1 && *g == reversed && g != e {
                hints.push("Your digits are in reverse order: the most significant digit comes first, as when you write the number.".into());
            }
            if e.is_empty() && g.len() == 1 && g[0] == 0 {
                hints.push(
                    "Zero is written with no digits at all here: numeral_binary(0) gives []."
                        .into(),
                );
            }
            if g.iter().any(Value::is_string) {
                hints.push("The digits must be numbers (1), not strings (\"1\").".into());
            }
        }
        hints.extend(number_hint(case.input, &got, &expected));
        hints
    }
}

/// binary_numeral's answer read with the digits' weights the wrong way round, or doubled.
fn number_hint(input: &str, got: &Value, expected: &Value) -> Option<String> {
    let map = super::json_object(input).ok()?;
    if case_type(&map, "type").ok()? != "bin_num" {
        return None;
    }
    let given = digits(map.get("value")?).ok()?;
    let got: BigInt = got.as_number()?.to_string().parse().ok()?;
    let expected: BigInt = expected.as_number()?.to_string().parse().ok()?;
    if got == expected {
        return None;
    }
    let reversed: Vec<u8> = given.iter().rev().copied().collect();
    if got == nim::from_binary_digits(&reversed) {
        Some("You read the digits from the wrong end: the first digit is the most significant (worth 2 ** (len(binary) - 1)) and the last is worth 1.".into())
    } else if got == &expected * 2 {
        Some("Your number is twice the right one: each digit's power of 2 is one too high. The last digit is worth 2 ** 0 = 1, so the digit at index i is worth 2 ** (len(binary) - 1 - i).".into())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hints_for(input: &str, got: &str, expected: &str) -> Vec<String> {
        BinNum.hints(&HintCase {
            input,
            got,
            expected,
        })
    }

    #[test]
    fn weights_read_the_wrong_way_are_named() {
        let case = r#"{"type": "bin_num", "value": [1, 1, 0]}"#;
        let backwards = hints_for(case, "3\n", "6\n");
        assert!(backwards[0].contains("wrong end"), "{backwards:?}");
        let doubled = hints_for(case, "12\n", "6\n");
        assert!(doubled[0].contains("twice the right one"), "{doubled:?}");
        assert!(hints_for(case, "6\n", "6\n").is_empty());
        assert!(hints_for(case, "5\n", "6\n").is_empty());
        // A palindrome reads the same both ways: right, and no hint.
        let palindrome = r#"{"type": "bin_num", "value": [1, 0, 1]}"#;
        assert!(hints_for(palindrome, "5\n", "5\n").is_empty());
    }
}
