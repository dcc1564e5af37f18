use super::Exercise;
use super::Settings;
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
}
