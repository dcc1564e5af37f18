//! Hints from comparing interpreters: a case right under one and wrong under the other names
//! the usual cause, with its evidence (`/` against `//`, a float loop bound, Python 2's
//! `input()`, dictionary order). A secret case's evidence is never quoted: the hint says "on a
//! hidden case" and names the cause.

use crate::judge::Verdict;
use crate::lab::Visibility;
use crate::report::{CaseReport, RunReport};
use std::sync::LazyLock;

/// What made one case fail under one interpreter and pass under another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cause {
    FloatLoopBound,
    Python2Input,
    HugeNumber,
    Float,
    Order,
}

/// The hints for `runs` (those that were not skipped): one per cause found, in the order of
/// the causes, or a general one where the runs differ and no cause is recognised.
pub fn cross_run_hints(runs: &[&RunReport]) -> Vec<String> {
    let passed: Vec<&RunReport> = runs
        .iter()
        .copied()
        .filter(|r| r.verdict == Verdict::Accepted)
        .collect();
    let failed: Vec<&RunReport> = runs
        .iter()
        .copied()
        .filter(|r| r.verdict != Verdict::Accepted)
        .collect();
    if passed.is_empty() || failed.is_empty() {
        return Vec::new();
    }
    let names = |runs: &[&RunReport]| {
        runs.iter()
            .map(|r| r.label())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let opening = format!(
        "Your program passes under {} but not under {}",
        names(&passed),
        names(&failed)
    );
    let mut found: Vec<(Cause, &RunReport, &CaseReport)> = Vec::new();
    for run in &failed {
        for case in &run.cases {
            let passes_elsewhere = passed.iter().any(|p| {
                p.cases
                    .iter()
                    .any(|c| c.name == case.name && c.verdict == Verdict::Accepted)
            });
            if case.verdict == Verdict::Accepted || !passes_elsewhere {
                continue;
            }
            if let Some(cause) = cause(run, case)
                && !found.iter().any(|(c, _, _)| *c == cause)
            {
                found.push((cause, run, case));
            }
        }
    }
    if found.is_empty() {
        return vec![format!(
            "{opening}. The lab needs both: keep `from __future__ import print_function, division` at the top, use // for whole-number division, and avoid features only one version has."
        )];
    }
    found.sort_by_key(|(cause, _, _)| *cause as u8);
    found
        .into_iter()
        .map(|(cause, run, case)| hint(&opening, cause, run, case))
        .collect()
}

fn cause(run: &RunReport, case: &CaseReport) -> Option<Cause> {
    let feedback = case.feedback.as_ref();
    let stderr = feedback.and_then(|f| f.stderr.as_deref()).unwrap_or("");
    let error = format!("{}\n{stderr}", case.message);
    if error.contains("'float' object cannot be interpreted as an integer") {
        return Some(Cause::FloatLoopBound);
    }
    let python2 = run.version.as_deref().is_some_and(|v| v.starts_with('2'));
    if python2 && crate::traceback::python2_input_hint(stderr).is_some() {
        return Some(Cause::Python2Input);
    }
    let feedback = feedback.filter(|_| case.verdict == Verdict::WrongAnswer)?;
    let (got, expected) = (feedback.got.as_str(), feedback.expected.as_str());
    if longest_digits(got) >= 2 * longest_digits(expected).max(10) {
        return Some(Cause::HugeNumber);
    }
    if has_float(got) && !has_float(expected) {
        return Some(Cause::Float);
    }
    if !feedback.one_of_many && same_lines_reordered(got, expected) {
        return Some(Cause::Order);
    }
    None
}

fn hint(opening: &str, cause: Cause, run: &RunReport, case: &CaseReport) -> String {
    let secret = case.visibility == Visibility::Secret;
    let label = run.label();
    let on = if secret {
        "on a hidden case".to_string()
    } else {
        format!("on case {}", case.name)
    };
    let got = case.feedback.as_ref().map_or("", |f| f.got.as_str());
    match cause {
        Cause::FloatLoopBound => format!(
            "{opening}: {on}, range() under {label} was given a float (`'float' object cannot be interpreted as an integer`). A loop bound computed with `/` is a float under Python 3 (and with `from __future__ import division`): compute it with `//`."
        ),
        Cause::Python2Input => format!(
            "{opening}: {on}, input() under {label} ran the line it read as Python code. Read the case with sys.stdin, as the stub's block does (or raw_input() on Python 2): that works on both."
        ),
        Cause::HugeNumber => {
            let evidence = if secret {
                "a number far longer than the answer".to_string()
            } else {
                format!("a number {} digits long", longest_digits(got))
            };
            format!(
                "{opening}: {on}, {label} printed {evidence} where a whole number was expected. That is `/` where `//` was meant: under Python 3 (and with `from __future__ import division`) `/` halves into floats, and a loop that halves until 0 runs a thousand times before they underflow. Use `//` for whole-number division."
            )
        }
        Cause::Float => {
            let evidence = match first_float(got).filter(|_| !secret) {
                Some(float) => format!("a decimal (`{float}`)"),
                None => "a decimal".to_string(),
            };
            format!(
                "{opening}: {on}, {label} printed {evidence} where a whole number was expected. Under Python 3 (and with `from __future__ import division`) `/` always gives a float, even 6 / 2: use `//` for whole-number division."
            )
        }
        Cause::Order => format!(
            "{opening}: {on}, {label} printed the right lines in another order. A set, and a dict before Python 3.7, has no order you can rely on: go through a list, or through sorted(...)."
        ),
    }
}

/// The length of the longest run of digits in `text`.
fn longest_digits(text: &str) -> usize {
    text.split(|c: char| !c.is_ascii_digit())
        .map(str::len)
        .max()
        .unwrap_or(0)
}

static FLOAT: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"\d\.\d|\d[eE][-+]?\d|\b(inf|nan|Infinity|NaN)\b").expect("a valid pattern")
});

fn has_float(text: &str) -> bool {
    FLOAT.is_match(text)
}

/// The first float written in `text` (`2.5`, `1e-300`, `inf`), shortened.
fn first_float(text: &str) -> Option<String> {
    static WHOLE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+|\b(?:inf|nan|Infinity|NaN)\b",
        )
        .expect("a valid pattern")
    });
    WHOLE
        .find(text)
        .map(|m| crate::judge::compare::Mismatch::shorten(m.as_str()))
}

/// Whether `got` has exactly `expected`'s lines, more than one, in another order.
fn same_lines_reordered(got: &str, expected: &str) -> bool {
    let lines = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.trim_end().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    };
    let (mut got, mut expected) = (lines(got), lines(expected));
    if expected.len() < 2 || got == expected {
        return false;
    }
    got.sort();
    expected.sort();
    got == expected
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::CaseFeedback;

    fn case(
        name: &str,
        visibility: Visibility,
        verdict: Verdict,
        got: &str,
        expected: &str,
    ) -> CaseReport {
        CaseReport {
            name: name.into(),
            visibility,
            weight: 1,
            verdict,
            time_ms: None,
            wall_ms: None,
            message: String::new(),
            feedback: (verdict != Verdict::Accepted).then(|| CaseFeedback {
                input: "5 3\n".into(),
                expected: expected.into(),
                one_of_many: false,
                got: got.into(),
                first_difference: None,
                stderr: None,
                hints: vec![],
                transcript: None,
                broken_rule: None,
            }),
        }
    }

    fn run(version: &str, cases: Vec<CaseReport>) -> RunReport {
        let verdict = Verdict::worst(cases.iter().map(|c| c.verdict));
        RunReport {
            interpreter: version.into(),
            version: Some(version.into()),
            path: None,
            verdict,
            score: 0,
            max_score: 1,
            message: None,
            syntax: None,
            cases,
            runner: "process".into(),
            runner_note: None,
        }
    }

    /// The hints for one case failing under Python 3 as `failing` says and passing under 2.7.
    fn hints_for(failing: CaseReport) -> Vec<String> {
        let passing = case(&failing.name, failing.visibility, Verdict::Accepted, "", "");
        let three = run("3.11.7", vec![failing]);
        let two = run("2.7.18", vec![passing]);
        cross_run_hints(&[&three, &two])
    }

    const SAMPLE: Visibility = Visibility::Sample;
    const SECRET: Visibility = Visibility::Secret;

    #[test]
    fn a_float_or_a_huge_number_names_slash_against_double_slash() {
        let hints = hints_for(case(
            "s1",
            SAMPLE,
            Verdict::WrongAnswer,
            "[1.0, 1.5]\n",
            "[1, 1]\n",
        ));
        assert_eq!(hints.len(), 1, "{hints:?}");
        assert!(
            hints[0].starts_with(
                "Your program passes under Python 2.7.18 but not under Python 3.11.7: on case s1"
            ),
            "{hints:?}"
        );
        assert!(
            hints[0].contains("a decimal (`1.0`)") && hints[0].contains("use `//`"),
            "{hints:?}"
        );
        let huge = "4".repeat(300);
        let hints = hints_for(case("s2", SAMPLE, Verdict::WrongAnswer, &huge, "6\n"));
        assert!(
            hints[0].contains("a number 300 digits long") && hints[0].contains("`//`"),
            "{hints:?}"
        );
        // A long right answer is not a huge number.
        let long = "7".repeat(30);
        let hints = hints_for(case(
            "s3",
            SAMPLE,
            Verdict::WrongAnswer,
            &format!("{long}1"),
            &long,
        ));
        assert!(hints[0].contains("The lab needs both"), "{hints:?}");
    }

    #[test]
    fn a_float_loop_bound_and_python2_input_are_named() {
        let mut crash = case("s1", SAMPLE, Verdict::RuntimeError, "", "");
        crash.message =
            "TypeError: 'float' object cannot be interpreted as an integer (line 13, in f)".into();
        let hints = hints_for(crash);
        assert!(
            hints[0].contains("range() under Python 3.11.7 was given a float"),
            "{hints:?}"
        );
        let mut crash = case("s1", SAMPLE, Verdict::RuntimeError, "", "");
        crash.feedback.as_mut().unwrap().stderr = Some("Traceback (most recent call last):\n  File \"x.py\", line 9, in <module>\n    a, b = input().split()\n  File \"<string>\", line 1\n    1 0\n      ^\nSyntaxError: invalid syntax\n".into());
        let two = run("2.7.18", vec![crash]);
        let three = run(
            "3.11.7",
            vec![case("s1", SAMPLE, Verdict::Accepted, "", "")],
        );
        let hints = cross_run_hints(&[&three, &two]);
        assert!(hints[0].starts_with("Your program passes under Python 3.11.7 but not under Python 2.7.18: on case s1, input() under Python 2.7.18 ran the line"), "{hints:?}");
        // The same traceback under Python 3 is not Python 2's input().
        let mut crash = case("s1", SAMPLE, Verdict::RuntimeError, "", "");
        crash.feedback.as_mut().unwrap().stderr =
            two.cases[0].feedback.as_ref().unwrap().stderr.clone();
        assert!(hints_for(crash)[0].contains("The lab needs both"));
    }

    #[test]
    fn lines_in_another_order_name_dictionary_order() {
        let hints = hints_for(case(
            "s1",
            SAMPLE,
            Verdict::WrongAnswer,
            "b 2\na 1\n",
            "a 1\nb 2\n",
        ));
        assert!(
            hints[0].contains("the right lines in another order") && hints[0].contains("sorted("),
            "{hints:?}"
        );
        let hints = hints_for(case(
            "s1",
            SAMPLE,
            Verdict::WrongAnswer,
            "b 2\na 2\n",
            "a 1\nb 2\n",
        ));
        assert!(hints[0].contains("The lab needs both"), "{hints:?}");
    }

    #[test]
    fn a_secret_case_is_named_but_never_quoted() {
        let got = format!("{}\n", "40480450661".repeat(30));
        let hints = hints_for(case("secret/02", SECRET, Verdict::WrongAnswer, &got, "7\n"));
        assert!(
            hints[0].contains("on a hidden case") && hints[0].contains("`//`"),
            "{hints:?}"
        );
        assert!(
            !hints[0].contains("40480") && !hints[0].contains("secret/02"),
            "{hints:?}"
        );
        let hints = hints_for(case(
            "secret/03",
            SECRET,
            Verdict::WrongAnswer,
            "[3.25]\n",
            "[7]\n",
        ));
        assert!(
            hints[0].contains("on a hidden case") && !hints[0].contains("3.25"),
            "{hints:?}"
        );
    }

    #[test]
    fn no_hint_when_the_runs_agree_and_one_per_cause() {
        let wrong = case("s1", SAMPLE, Verdict::WrongAnswer, "2.5\n", "2\n");
        let three = run(
            "3.11.7",
            vec![
                wrong.clone(),
                case("s2", SAMPLE, Verdict::WrongAnswer, "1.5\n", "1\n"),
            ],
        );
        let two = run("2.7.18", vec![wrong]);
        assert!(cross_run_hints(&[&three, &two]).is_empty());
        let two = run(
            "2.7.18",
            vec![
                case("s1", SAMPLE, Verdict::Accepted, "", ""),
                case("s2", SAMPLE, Verdict::Accepted, "", ""),
            ],
        );
        let hints = cross_run_hints(&[&three, &two]);
        assert_eq!(hints.len(), 1, "{hints:?}");
        assert!(
            hints[0].contains("on case s1") && hints[0].contains("`2.5`"),
            "{hints:?}"
        );
    }
}
