use super::Settings;
use super::{Exercise, HintCase};
use crate::error::BadInput;
use num_bigint::BigInt;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

#[derive(Debug)]
pub struct BitwiseXor;

fn parse(input: &str) -> Result<(BigInt, BigInt), BadInput> {
    let words: Vec<&str> = super::one_line(input)?.split_whitespace().collect();
    let [a, b] = words.as_slice() else {
        return Err(BadInput::new(
            "the input must be two numbers on one line: `a b`",
        ));
    };
    let number = |word: &str| {
        word.parse::<BigInt>()
            .ok()
            .filter(|n| n >= &BigInt::ZERO)
            .ok_or_else(|| BadInput::new(format!("`{word}` is not a non-negative integer")))
    };
    Ok((number(a)?, number(b)?))
}

fn random_number(rng: &mut ChaCha8Rng) -> BigInt {
    let bits = rng.random_range(0..=100u32);
    (0..bits).fold(BigInt::ZERO, |n, _| {
        (n << 1u8) + BigInt::from(rng.random_range(0..=1u8))
    })
}

impl Exercise for BitwiseXor {
    fn name(&self) -> &'static str {
        "bitwise_xor"
    }

    fn reference(&self, input: &str, _: &Settings) -> Result<String, BadInput> {
        let (a, b) = parse(input)?;
        Ok(format!("{}\n", a ^ b))
    }

    fn generate(&self, rng: &mut ChaCha8Rng) -> Option<String> {
        let a = random_number(rng);
        let b = random_number(rng);
        Some(format!("{a} {b}\n"))
    }

    fn hints(&self, case: &HintCase) -> Vec<String> {
        let (Ok((a, b)), Ok(got)) = (parse(case.input), case.got.trim().parse::<BigInt>()) else {
            return Vec::new();
        };
        let xor = &a ^ &b;
        if got == xor {
            return Vec::new();
        }
        if got == (&a | &b) {
            vec![
                "That is a OR b: in an exclusive or, a bit that is 1 in both numbers gives 0."
                    .into(),
            ]
        } else if got == (&a & &b) {
            vec!["That is a AND b: in an exclusive or, a bit is 1 when exactly one of the two bits is 1.".into()]
        } else if a.bits().max(b.bits()) > 63 {
            vec!["This case has numbers wider than 64 bits: make sure your digit lists of a and b are padded to the same length before you combine them.".into()]
        } else {
            Vec::new()
        }
    }
}
