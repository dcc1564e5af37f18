use super::Settings;
use super::{Exercise, HintCase, RunCase};
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
        let Some((a, b)) = bits(case.input) else {
            return Vec::new();
        };
        let hint = match (case.got.trim(), a, b) {
            ("True" | "False", _, _) => {
                "exclusive_or returns the numbers 1 and 0, not True and False: return 1 where you return True, 0 where you return False."
            }
            // `or`, `and` and a test that the bits are equal all give 1 here: which one, the
            // run's other cases tell (`settle`).
            ("1", true, true) => BOTH_ONES,
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

    fn settle(&self, run: &[RunCase], _at: usize, hints: &mut Vec<String>) {
        let Some(position) = hints.iter().position(|h| h == BOTH_ONES) else {
            return;
        };
        let named = match like(run) {
            Some(Like::Or) => {
                "When both bits are 1, exclusive or gives 0: this is where it differs from `or` (a or b is 1 here, and your function gives what `a or b` gives)."
            }
            Some(Like::And) => {
                "When both bits are 1, exclusive or gives 0: yours gives 1 here and 0 when exactly one bit is 1, which is what `a and b` gives. Exclusive or is 1 when exactly one bit is 1."
            }
            Some(Like::Equal) => {
                "When both bits are 1, exclusive or gives 0: your function gives 1 when the bits are equal, the opposite of exclusive or. Swap the 1s and 0s it returns."
            }
            None => return,
        };
        hints[position] = named.into();
    }
}

/// The hint for 1 on `1 1` where the run does not tell which operator gave it.
const BOTH_ONES: &str = "When both bits are 1, exclusive or gives 0, and yours gives 1: so does `a or b`, and so does `a and b`. Exclusive or is 1 only when exactly one bit is 1.";

/// The two bits of a case, `a b`.
fn bits(input: &str) -> Option<(bool, bool)> {
    let words: Vec<&str> = input.split_whitespace().collect();
    match words.as_slice() {
        [a, b] => Some((bit(a).ok()?, bit(b).ok()?)),
        _ => None,
    }
}

/// What students write instead of exclusive or.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Like {
    Or,
    And,
    Equal,
}

impl Like {
    fn gives(self, a: bool, b: bool) -> bool {
        match self {
            Like::Or => a || b,
            Like::And => a && b,
            Like::Equal => a == b,
        }
    }
}

/// The one operator a run's answers fit, where exactly one does: each case passed (its
/// answer is exclusive or's) or printed 0 or 1.
fn like(run: &[RunCase]) -> Option<Like> {
    let answers: Vec<(bool, bool, bool)> = run
        .iter()
        .filter_map(|case| {
            let (a, b) = bits(case.input)?;
            let answer = if case.passed {
                a != b
            } else {
                match case.got?.trim() {
                    "0" => false,
                    "1" => true,
                    _ => return None,
                }
            };
            Some((a, b, answer))
        })
        .collect();
    let fits: Vec<Like> = [Like::Or, Like::And, Like::Equal]
        .into_iter()
        .filter(|like| answers.iter().all(|&(a, b, v)| like.gives(a, b) == v))
        .collect();
    match fits.as_slice() {
        [one] => Some(*one),
        _ => None,
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
        // `or`, `and` and `==` all give 1 on 1 1: the case alone names no one of them.
        assert_eq!(hints_for("1 1\n", "1\n"), [BOTH_ONES]);
        assert!(hints_for("0 1\n", "0\n")[0].contains("`a and b`"));
        assert!(hints_for("0 0\n", "1\n")[0].contains("Swap the 1s and 0s"));
        assert!(hints_for("1 0\n", "True\n")[0].contains("not True and False"));
        for (input, right) in [("0 0", "0"), ("0 1", "1"), ("1 0", "1"), ("1 1", "0")] {
            assert!(hints_for(input, right).is_empty(), "{input}");
        }
    }

    /// The four cases' answers under `program`, as a judged run sees them.
    fn settled(program: impl Fn(bool, bool) -> bool) -> Vec<String> {
        let inputs = ["0 0\n", "0 1\n", "1 0\n", "1 1\n"];
        let answers: Vec<&str> = inputs
            .iter()
            .map(|input| {
                let (a, b) = bits(input).unwrap();
                if program(a, b) { "1\n" } else { "0\n" }
            })
            .collect();
        let run: Vec<RunCase> = inputs
            .iter()
            .zip(&answers)
            .map(|(input, got)| {
                let (a, b) = bits(input).unwrap();
                let passed = program(a, b) == (a != b);
                RunCase {
                    input,
                    expected: "",
                    passed,
                    got: (!passed).then_some(*got),
                }
            })
            .collect();
        let mut hints = hints_for("1 1\n", "1\n");
        ExclusiveOr.settle(&run, 3, &mut hints);
        hints
    }

    #[test]
    fn one_one_names_the_operator_the_other_cases_point_to() {
        let or = settled(|a, b| a || b);
        assert!(or[0].contains("differs from `or`"), "{or:?}");
        assert!(!or[0].contains("and b"), "{or:?}");
        let and = settled(|a, b| a && b);
        assert!(and[0].contains("what `a and b` gives"), "{and:?}");
        assert!(
            !and[0].contains("`or`") && !and[0].contains("a or b"),
            "{and:?}"
        );
        let equal = settled(|a, b| a == b);
        assert!(equal[0].contains("Swap the 1s and 0s"), "{equal:?}");
        // Only 1 1 known: every operator fits, and the hint names them all.
        let mut alone = hints_for("1 1\n", "1\n");
        let run = [RunCase {
            input: "1 1\n",
            expected: "0\n",
            passed: false,
            got: Some("1\n"),
        }];
        ExclusiveOr.settle(&run, 0, &mut alone);
        assert_eq!(alone, [BOTH_ONES]);
    }
}
