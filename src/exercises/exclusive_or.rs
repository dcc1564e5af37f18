use super::Settings;
use super::{Exercise, HintCase};
use crate::error::BadInput;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

#[derive(Debug)]
pub struct ExclusiveOr;

fn bit(word: &str) -> Result<bool, BadInput> {
    match word {
        "0" => Ok(false),
        "1" => Ok(true),
        other => Err(BadInput::new(format!("`{other}` is not 0 or 1"))),
    }
}

impl Exercise for ExclusiveOr {
    fn name(&self) -> &'static str {
        "exclusive_or"
    }

    fn reference(&self, input: &str, _: &Settings) -> Result<String, BadInput> {
        let words: Vec<&str> = super::one_line(input)?.split_whitespace().collect();
        let [a, b] = words.as_slice() else {
            return Err(BadInput::new(
                "the input must be two bits on one line: `a b`",
            ));
        };
        Ok(if bit(a)? != bit(b)? { "1\n" } else { "0\n" }.to_string())
    }

    fn generate(&self, rng: &mut ChaCha8Rng) -> Option<String> {
        let a = rng.random_range(0..=1u8);
        let b = rng.random_range(0..=1u8);
        Some(format!("{a} {b}\n"))
    }

    fn hints(&self, case: &HintCase) -> Vec<String> {
        let words: Vec<&str> = case.input.split_whitespace().collect();
        let (Some(a), Some(b)) = (
            words.first().and_then(|w| bit(w).ok()),
            words.get(1).and_then(|w| bit(w).ok()),
        ) else {
            return Vec::new();
        };
        let hint = match (case.got.trim(), a, b) {
            ("True" | "False", _, _) => {
                "exclusive_or returns the numbers 1 and 0, not True and False: return 1 where you return True, 0 where you return False."
            }
            ("1", true, true) => {
                "When both bits are 1, exclusive or gives 0: this is where it differs from `or` (a or b is 1 here)."
            }
            ("0", true, false) | ("0", false, true) => {
                "When exactly one bit is 1, exclusive or gives 1; 0 here is what `a and b` gives (or a test that the bits are equal)."
            }
            ("1", false, false) => {
                "When both bits are 0, exclusive or gives 0: your function gives 1 when the bits are equal, the opposite of exclusive or. Swap the 1s and 0s it returns."
            }
            _ => return Vec::new(),
        };
        vec![hint.into()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hints_for(input: &str, got: &str) -> Vec<String> {
        ExclusiveOr.hints(&HintCase {
            input,
            got,
            expected: "",
        })
    }

    #[test]
    fn each_wrong_answer_names_the_operator_that_gives_it() {
        assert!(hints_for("1 1\n", "1\n")[0].contains("differs from `or`"));
        assert!(hints_for("0 1\n", "0\n")[0].contains("`a and b`"));
        assert!(hints_for("0 0\n", "1\n")[0].contains("Swap the 1s and 0s"));
        assert!(hints_for("1 0\n", "True\n")[0].contains("not True and False"));
        for (input, right) in [("0 0", "0"), ("0 1", "1"), ("1 0", "1"), ("1 1", "0")] {
            assert!(hints_for(input, right).is_empty(), "{input}");
        }
    }
}
