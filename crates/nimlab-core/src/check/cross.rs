//! Hints about the interpreter: a case right under one and wrong under the other names the
//! usual cause, with its evidence (`/` against `//`, a float loop bound, Python 2's `input()`,
//! dictionary order). The causes one interpreter's output shows by itself (a float or a number
//! of hundreds of digits where a whole number is expected, a float loop bound) are named from
//! that run alone where no comparison named them, so a student with Python 3 only hears of
//! `//` too. A secret case's evidence is never quoted: the hint says "on a hidden case" and
//! names the cause.

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

/// The causes a single run's output shows by itself, whether or not another interpreter was
/// checked. Python 2's `input()` is left to the case's own hint (it describes 2.7 itself), and
/// lines in another order could be any mistake when nothing passed to compare with.
const SEEN_ALONE: [Cause; 3] = [Cause::FloatLoopBound, Cause::HugeNumber, Cause::Float];

/// A number this long where a short one is expected is a loop over floats halved with `/`
/// until they underflow: that takes over a thousand halvings, and what doubled alongside
/// reaches 2^1074, 324 digits. Far beyond what any wrong arithmetic on the lab's cases gives.
const UNDERFLOW_DIGITS: usize = 300;

/// The hints for `runs` (those that were not skipped): those of [`cross_run_hints`], then
/// those of [`one_run_hints`] for the causes the comparison did not name.
pub fn interpreter_hints(runs: &[&RunReport]) -> Vec<String> {
    let (mut hints, named) = cross_run_hints(runs);
    hints.extend(one_run_hints(runs, &named));
    hints
}

/// The hints for runs that differ: one per cause found, in the order of the causes, or a
/// general one where the runs differ and no cause is recognised; and the causes named.
fn cross_run_hints(runs: &[&RunReport]) -> (Vec<String>, Vec<Cause>) {
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
        return (Vec::new(), Vec::new());
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
        let general = format!(
            "{opening}. The lab needs both: keep `from __future__ import print_function, division` at the top, use // for whole-number division, and avoid features only one version has."
        );
        return (vec![general], Vec::new());
    }
    found.sort_by_key(|(cause, _, _)| *cause as u8);
    let named = found.iter().map(|(cause, _, _)| *cause).collect();
    let hints = found
        .into_iter()
        .map(|(cause, run, case)| hint(Some(&opening), cause, run, case))
        .collect();
    (hints, named)
}

/// The hints each failed run's output gives by itself, for the causes of [`SEEN_ALONE`] not in
/// `named`: one per cause, from the first run and case that shows it. A run whose cases already
/// have a hint naming `//` (a `6.0` that is `6`) gets nothing more: the advice is there.
fn one_run_hints(runs: &[&RunReport], named: &[Cause]) -> Vec<String> {
    let mut found: Vec<(Cause, &RunReport, &CaseReport)> = Vec::new();
    for run in runs.iter().copied() {
        if run.verdict == Verdict::Accepted || names_double_slash(run) {
            continue;
        }
        for case in run.cases.iter().filter(|c| c.verdict != Verdict::Accepted) {
            let Some(cause) = cause(run, case) else {
                continue;
            };
            if SEEN_ALONE.contains(&cause)
                && !named.contains(&cause)
                && shown_alone(cause, case)
                && !found.iter().any(|(c, _, _)| *c == cause)
            {
                found.push((cause, run, case));
            }
        }
    }
    found.sort_by_key(|(cause, _, _)| *cause as u8);
    found
        .into_iter()
        .map(|(cause, run, case)| hint(None, cause, run, case))
        .collect()
}

/// Whether a hint on one of `run`'s cases already says to use `//`.
fn names_double_slash(run: &RunReport) -> bool {
    run.cases.iter().any(|case| {
        case.feedback
            .as_ref()
            .is_some_and(|f| f.hints.iter().any(|h| h.contains("`//`")))
    })
}

/// Whether `case`'s output alone is evidence enough of `cause`, with no run that passed to
/// compare with: a whole number expected in a printed answer (not a game's transcript), and
/// for a long number, one only a float loop reaches.
fn shown_alone(cause: Cause, case: &CaseReport) -> bool {
    let Some(feedback) = case.feedback.as_ref() else {
        return cause == Cause::FloatLoopBound;
    };
    match cause {
        Cause::FloatLoopBound => true,
        Cause::HugeNumber | Cause::Float => {
            let whole_expected =
                feedback.transcript.is_none() && longest_digits(&feedback.expected) > 0;
            whole_expected
                && (cause == Cause::Float || longest_digits(&feedback.got) >= UNDERFLOW_DIGITS)
        }
        Cause::Python2Input | Cause::Order => false,
    }
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

/// The hint for `cause` seen on `case` of `run`: after `opening` where the runs were compared,
/// or on its own.
fn hint(opening: Option<&str>, cause: Cause, run: &RunReport, case: &CaseReport) -> String {
    let secret = case.visibility == Visibility::Secret;
    let label = run.label();
    let on = match (opening, secret) {
        (Some(opening), true) => format!("{opening}: on a hidden case"),
        (Some(opening), false) => format!("{opening}: on case {}", case.name),
        (None, true) => "On a hidden case".to_string(),
        (None, false) => format!("On case {}", case.name),
    };
    let got = case.feedback.as_ref().map_or("", |f| f.got.as_str());
    match cause {
        Cause::FloatLoopBound => format!(
            "{on}, range() under {label} was given a float (`'float' object cannot be interpreted as an integer`). A loop bound computed with `/` is a float under Python 3 (and with `from __future__ import division`): compute it with `//`."
        ),
        Cause::Python2Input => format!(
            "{on}, input() under {label} ran the line it read as Python code. Read the case with sys.stdin, as the stub's block does (or raw_input() on Python 2): that works on both."
        ),
        Cause::HugeNumber => {
            let evidence = if secret {
                "a number far longer than the answer".to_string()
            } else {
                format!("a number {} digits long", longest_digits(got))
            };
            format!(
                "{on}, {label} printed {evidence} where a whole number was expected. That is `/` where `//` was meant: under Python 3 (and with `from __future__ import division`) `/` halves into floats, and a loop that halves until 0 runs a thousand times before they underflow. Use `//` for whole-number division."
            )
        }
        Cause::Float => {
            let evidence = match first_float(got).filter(|_| !secret) {
                Some(float) => format!("a decimal (`{float}`)"),
                None => "a decimal".to_string(),
            };
            format!(
                "{on}, {label} printed {evidence} where a whole number was expected. Under Python 3 (and with `from __future__ import division`) `/` always gives a float, even 6 / 2: use `//` for whole-number division."
            )
        }
        Cause::Order => format!(
            "{on}, {label} printed the right lines in another order. A set, and a dict before Python 3.7, has no order you can rely on: go through a list, or through sorted(...)."
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
        interpreter_hints(&[&three, &two])
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
        let hints = interpreter_hints(&[&three, &two]);
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
        // Wrong under both: nothing compared, the decimal named from the first run alone.
        let hints = interpreter_hints(&[&three, &two]);
        assert_eq!(hints.len(), 1, "{hints:?}");
        assert!(
            hints[0].starts_with("On case s1, Python 3.11.7 printed a decimal (`2.5`)"),
            "{hints:?}"
        );
        let two = run(
            "2.7.18",
            vec![
                case("s1", SAMPLE, Verdict::Accepted, "", ""),
                case("s2", SAMPLE, Verdict::Accepted, "", ""),
            ],
        );
        let hints = interpreter_hints(&[&three, &two]);
        assert_eq!(hints.len(), 1, "{hints:?}");
        assert!(
            hints[0].contains("on case s1") && hints[0].contains("`2.5`"),
            "{hints:?}"
        );
    }

    #[test]
    fn python_3_alone_names_slash_against_double_slash() {
        let alone = |failing: CaseReport| interpreter_hints(&[&run("3.11.7", vec![failing])]);
        let huge = format!("{}\n", "4".repeat(324));
        let hints = alone(case("s2", SAMPLE, Verdict::WrongAnswer, &huge, "6\n"));
        assert_eq!(hints.len(), 1, "{hints:?}");
        assert!(
            hints[0].starts_with("On case s2, Python 3.11.7 printed a number 324 digits long where a whole number was expected. That is `/` where `//` was meant"),
            "{hints:?}"
        );
        let hints = alone(case(
            "s1",
            SAMPLE,
            Verdict::WrongAnswer,
            "[1e+308]\n",
            "[1]\n",
        ));
        assert!(
            hints[0].starts_with("On case s1, Python 3.11.7 printed a decimal (`1e+308`)")
                && hints[0].contains("use `//`"),
            "{hints:?}"
        );
        let hints = alone(case(
            "secret/02",
            SECRET,
            Verdict::WrongAnswer,
            "inf\n",
            "7\n",
        ));
        assert!(
            hints[0].starts_with("On a hidden case, Python 3.11.7 printed a decimal where"),
            "{hints:?}"
        );
        let mut crash = case("s1", SAMPLE, Verdict::RuntimeError, "", "");
        crash.message =
            "TypeError: 'float' object cannot be interpreted as an integer (line 13, in f)".into();
        let hints = alone(crash);
        assert!(
            hints[0].starts_with("On case s1, range() under Python 3.11.7 was given a float"),
            "{hints:?}"
        );
    }

    #[test]
    fn one_run_alone_needs_evidence_only_a_float_gives() {
        let alone = |failing: CaseReport| interpreter_hints(&[&run("3.11.7", vec![failing])]);
        // Twice the expected length, as wrong arithmetic gives, is not a float loop.
        let long = "1".repeat(64);
        assert!(
            alone(case(
                "s1",
                SAMPLE,
                Verdict::WrongAnswer,
                &long,
                &"9".repeat(20)
            ))
            .is_empty()
        );
        // Lines in another order, or a decimal where no number is expected: no guess.
        assert!(
            alone(case(
                "s1",
                SAMPLE,
                Verdict::WrongAnswer,
                "b 2\na 1\n",
                "a 1\nb 2\n"
            ))
            .is_empty()
        );
        assert!(alone(case("s1", SAMPLE, Verdict::WrongAnswer, "1.5\n", "yes\n")).is_empty());
        // A case's own hint already names `//`: not said twice.
        let mut point_zero = case("s1", SAMPLE, Verdict::WrongAnswer, "[1.0]\n", "[1]\n");
        point_zero.feedback.as_mut().unwrap().hints = vec![
            "A whole number was printed as a decimal: use `//` for whole-number division.".into(),
        ];
        assert!(alone(point_zero).is_empty());
        // Compared and named: once, in the comparison's words.
        let huge = "4".repeat(324);
        let hints = hints_for(case("s2", SAMPLE, Verdict::WrongAnswer, &huge, "6\n"));
        assert_eq!(hints.len(), 1, "{hints:?}");
        assert!(
            hints[0].starts_with("Your program passes under"),
            "{hints:?}"
        );
    }
}
