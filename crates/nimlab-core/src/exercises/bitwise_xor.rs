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
        let shorter = a.bits().min(b.bits());
        let mask = (BigInt::from(1) << shorter) - 1;
        let truncated = &xor & &mask;
        let (or, and) = (&a | &b, &a & &b);
        if got == truncated && got != and {
            vec!["Your loop stopped when the shorter number ran out of digits, but the longer one's remaining digits belong in the answer too (each against a 0): loop while a > 0 or b > 0.".into()]
        } else if got == or && or != and {
            vec![
                "That is a OR b: in an exclusive or, a bit that is 1 in both numbers gives 0."
                    .into(),
            ]
        } else if got == and && or != and && got != truncated {
            vec!["That is a AND b: in an exclusive or, a bit is 1 when exactly one of the two bits is 1.".into()]
        } else if a.bits().max(b.bits()) > 63 {
            vec!["This case has numbers wider than 64 bits: make sure your digit lists of a and b are padded to the same length before you combine them.".into()]
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hints_for(input: &str, got: &str) -> Vec<String> {
        BitwiseXor.hints(&HintCase {
            input,
            got,
            expected: "",
        })
    }

    #[test]
    fn each_wrong_combination_is_named() {
        assert!(hints_for("3 5", "7")[0].contains("a OR b"));
        assert!(hints_for("3 5", "1")[0].contains("a AND b"));
        let short = hints_for("1234567890 121212121212", "1901605550");
        assert!(short[0].contains("shorter number ran out"), "{short:?}");
        // 0 AND 4 is 0 too: a stop at the shorter number is not told apart, so not claimed.
        assert!(!hints_for("0 4", "0").iter().any(|h| h.contains("shorter")));
        assert!(!hints_for("0 4", "0").iter().any(|h| h.contains("AND")));
        // 5 OR 5 and 5 AND 5 are both 5: neither is claimed.
        assert!(hints_for("5 5", "5").is_empty());
        assert!(hints_for("3 5", "6").is_empty());
    }
}
