//! Feedback that teaches: hints for the mistakes students really make, from a failed case's
//! output and traceback (read in [`crate::traceback`]).

use crate::exercises::{HintCase, RunCase};
use crate::judge::{Judgement, OutputJudge, Verdict};
use crate::lab::{Case, LabExercise};
use crate::runner::RunOutcome;
use crate::traceback::{error_line, import_hint, python2_input_hint};

/// The functions a Python file defines at its top level, in order.
fn defined_functions(source: &str) -> Vec<&str> {
    static DEF: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?m)^def[ \t]+([A-Za-z_][A-Za-z_0-9]*)[ \t]*\(")
            .expect("a valid pattern")
    });
    DEF.captures_iter(source)
        .filter_map(|c| c.get(1).map(|m| m.as_str()))
        .collect()
}

/// A file meant for another exercise of the lab (`make_move.py` handed to present_board):
/// it defines none of the functions this exercise's starter file asks for, and every one of
/// another exercise's. Said once, at the top of the report; the verdict is the judging's.
pub fn wrong_exercise(source: &str, exercise: &LabExercise, lab: &[LabExercise]) -> Option<String> {
    let defined = defined_functions(source);
    let wanted = defined_functions(&exercise.stub);
    if wanted.is_empty() || wanted.iter().any(|f| defined.contains(f)) {
        return None;
    }
    let other = lab.iter().find(|other| {
        let theirs = defined_functions(&other.stub);
        other.name != exercise.name
            && !theirs.is_empty()
            && theirs.iter().all(|f| defined.contains(f))
    })?;
    let list = |names: &[&str]| {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    Some(format!(
        "This file looks like {}'s, not {}'s: it defines {} and not {}. Check that you chose the right file.",
        other.name,
        exercise.name,
        list(&defined_functions(&other.stub)),
        list(&wanted)
    ))
}

/// Advice for one failed case, decided by `judge`.
pub fn hints(
    judge: &dyn OutputJudge,
    exercise: &LabExercise,
    lab_names: &[&str],
    case: &Case,
    judgement: &Judgement,
    outcome: &RunOutcome,
) -> Vec<String> {
    let mut hints = Vec::new();
    match judgement.verdict {
        Verdict::WrongAnswer => {
            let got = String::from_utf8_lossy(&outcome.stdout);
            wrong_answer_hints(judge, exercise, case, &got, &mut hints);
        }
        Verdict::RuntimeError => {
            runtime_error_hints(&String::from_utf8_lossy(&outcome.stderr), lab_names, &mut hints);
        }
        Verdict::TimeLimit => {
            // Stopped by the wall clock while asleep: it was waiting, not working. Where that
            // was not seen, little CPU time used says the same.
            let idle = match outcome.working_at_wall_limit {
                Some(working) => !working,
                None => {
                    outcome.termination == crate::runner::Termination::WallTimeout
                        && outcome.cpu * 4 < outcome.wall
                }
            };
            if idle {
                hints.push("The program spent most of its time idle: is it sleeping, or waiting for something? It gets one case on stdin and nothing more.".into());
            } else {
                hints.push("The program was busy the whole time: check that every loop ends (does each step of a while loop change what its condition tests?).".into());
            }
        }
        Verdict::MemoryLimit => hints.push(
            "Your program built something very large: look for lists or strings that grow without bound."
                .into(),
        ),
        Verdict::OutputLimit => hints.push(
            "Your program printed far more than any answer needs: look for a print inside a loop that does not end."
                .into(),
        ),
        _ => {}
    }
    hints
}

fn wrong_answer_hints(
    judge: &dyn OutputJudge,
    exercise: &LabExercise,
    case: &Case,
    got: &str,
    hints: &mut Vec<String>,
) {
    let trimmed = got.trim();
    if trimmed.is_empty() {
        hints.push("Your program printed nothing. Keep the block at the bottom of the stub: it reads the case and prints your function's result.".into());
        return;
    }
    let null = judge.answers_in_json() && trimmed == "null";
    if null {
        hints.push("`null` was printed: that is json.dumps(None), so your function returned nothing on this case. Check that every path through it ends with a `return` of an answer.".into());
    }
    if trimmed == "None" || trimmed.lines().last() == Some("None") {
        hints.push("`None` was printed: your function probably ends without a `return` statement (or prints instead of returning).".into());
    }
    if let Some(extra) = extra_lines(judge, case, got) {
        hints.push(format!(
            "Your answer is there, but so is `{extra}`: remove debug prints. The grader reads everything your program prints."
        ));
    }
    if judge.answers_in_json() && serde_json::from_str::<serde_json::Value>(trimmed).is_err() {
        let pythonic = ["True", "False", "None", "'", "("]
            .iter()
            .any(|token| trimmed.contains(token));
        if pythonic {
            hints.push("This is a Python value, not JSON (JSON writes true, false, null, double quotes and [ ]). Print it with json.dumps(result), as the stub does.".into());
        }
    }
    if let Some(fixed) = without_point_zero(got)
        && judge.judge(case, &fixed).verdict == Verdict::Accepted
    {
        hints.push("A whole number was printed as a decimal (6.0 instead of 6). In Python 3, and with `from __future__ import division`, `/` always gives a float: use `//` for whole-number division.".into());
    }
    if let Some(module) = exercise.module {
        hints.extend(module.hints(&HintCase {
            input: case.input.text(),
            got,
            expected: &case.expected,
        }));
    }
}

/// Hints of a run's cases weighed against the whole run, once every case is judged: the
/// exercise takes back a hint another case rules out (`Exercise::settle`). Hints exist on
/// failed samples only; every case of the run is evidence, none is quoted.
pub fn settle(exercise: &LabExercise, cases: &mut [crate::report::CaseReport]) {
    let Some(module) = exercise.module else {
        return;
    };
    if exercise.cases.len() != cases.len() {
        return;
    }
    let run: Vec<RunCase> = exercise
        .cases
        .iter()
        .zip(cases.iter())
        .map(|(case, report)| RunCase {
            input: case.input.text(),
            expected: &case.expected,
            passed: report.verdict == Verdict::Accepted,
            got: report
                .feedback
                .as_ref()
                .filter(|_| report.verdict == Verdict::WrongAnswer)
                .map(|f| f.got.as_str()),
        })
        .collect();
    let settled: Vec<Option<Vec<String>>> = cases
        .iter()
        .enumerate()
        .map(|(at, report)| {
            let hints = &report.feedback.as_ref()?.hints;
            if hints.is_empty() {
                return None;
            }
            let mut hints = hints.clone();
            module.settle(&run, at, &mut hints);
            Some(hints)
        })
        .collect();
    for (report, hints) in cases.iter_mut().zip(settled) {
        if let (Some(feedback), Some(hints)) = (report.feedback.as_mut(), hints) {
            feedback.hints = hints;
        }
    }
}

/// One line of the output that would not be there if the rest were the right answer.
fn extra_lines(judge: &dyn OutputJudge, case: &Case, got: &str) -> Option<String> {
    let lines: Vec<&str> = got.lines().filter(|l| !l.trim().is_empty()).collect();
    let wanted = case
        .expected
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count()
        .max(1);
    if lines.len() <= wanted || lines.len() > 200 {
        return None;
    }
    (0..=lines.len() - wanted).find_map(|start| {
        let window = lines[start..start + wanted].join("\n");
        let passes = judge.judge(case, &window).verdict == Verdict::Accepted;
        passes.then(|| {
            let extra = if start > 0 { lines[0] } else { lines[wanted] };
            crate::judge::compare::Mismatch::shorten(extra)
        })
    })
}

/// The output with `6.0` written as `6`, if it has any such number.
fn without_point_zero(got: &str) -> Option<String> {
    let bytes = got.as_bytes();
    let mut out = String::with_capacity(got.len());
    let mut changed = false;
    let mut i = 0;
    while i < bytes.len() {
        let after_digit = i > 0 && bytes[i - 1].is_ascii_digit();
        let is_point_zero = bytes[i] == b'.'
            && bytes.get(i + 1) == Some(&b'0')
            && !bytes.get(i + 2).is_some_and(u8::is_ascii_digit);
        if after_digit && is_point_zero {
            changed = true;
            i += 2;
            continue;
        }
        out.push(bytes[i] as char);
        i += 1;
    }
    // Only ASCII outputs are rewritten; anything else is left alone.
    (changed && got.is_ascii()).then_some(out)
}

fn runtime_error_hints(stderr: &str, lab_names: &[&str], hints: &mut Vec<String>) {
    let last = error_line(stderr);
    hints.extend(python2_input_hint(stderr));
    if last.starts_with("EOFError") {
        hints.push("The program read past the end of its input. The grader gives exactly one case on stdin: don't call input() or raw_input() for anything else.".into());
    }
    hints.extend(import_hint(stderr, lab_names, None));
    if last.starts_with("NameError") {
        for name in ["raw_input", "xrange", "unicode", "long", "basestring"] {
            if last.contains(&format!("'{name}'")) {
                hints.push(format!("`{name}` exists only in Python 2; the lab needs code that runs on Python 3 as well."));
            }
        }
    }
    if last.starts_with("AssertionError") && stderr.contains("changed the board") {
        hints.push("make_move must leave the list it was given as it was: make a copy first (new_board = list(board)) and change the copy.".into());
    }
    if last.starts_with("ValueError") && empty_sequence(last) {
        hints.push("max() or min() was given an empty list, which has no largest or smallest item: a board may have no rows at all, so handle an empty list before calling them (or loop over the rows instead).".into());
    }
    if last.starts_with("RecursionError") || last.contains("maximum recursion depth") {
        hints.push("Your recursion never stops: check that every recursive call gets closer to a case that returns without recursing.".into());
    }
    if last.starts_with("ValueError") && last.contains("invalid literal for int()") {
        hints.push("int() was given text that is not a whole number: did you change the block at the bottom that reads the input?".into());
    }
    // Python 3's PermissionError, Python 2's OSError/IOError/thread.error with errno 1, and
    // the thread module's refusal: what the sandbox's system call filter refuses.
    let refused = last.contains("[Errno 1] Operation not permitted")
        || last.contains("can't start new thread");
    if refused {
        hints.push("The grader's sandbox refused something your program asked of the system (a process or thread, a network connection, a signal, or a change to a file's permissions). Lab programs need none of these: read the input, compute, print.".into());
    }
    if last.starts_with("UnicodeEncodeError") || last.starts_with("UnicodeDecodeError") {
        hints.push("Python 2 and 3 treat text differently: keep your output to plain ASCII, or add `# -*- coding: utf-8 -*-` and `from __future__ import unicode_literals`.".into());
    }
}

/// Python's message for max() or min() of an empty sequence, in any of its versions.
fn empty_sequence(error: &str) -> bool {
    (error.contains("max()") || error.contains("min()"))
        && (error.contains("empty sequence") || error.contains("is empty"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_of_an_empty_list_is_explained_in_every_version() {
        for last in [
            "ValueError: max() arg is an empty sequence",
            "ValueError: max() iterable argument is empty",
            "ValueError: min() arg is an empty sequence",
        ] {
            let mut hints = Vec::new();
            runtime_error_hints(&format!("Traceback...\n{last}\n"), &[], &mut hints);
            assert!(
                hints.iter().any(|h| h.contains("an empty list")),
                "{last}: {hints:?}"
            );
        }
        let mut hints = Vec::new();
        runtime_error_hints(
            "Traceback...\nValueError: math domain error\n",
            &[],
            &mut hints,
        );
        assert!(hints.is_empty(), "{hints:?}");
    }

    #[test]
    fn a_file_for_another_exercise_is_recognised_by_the_functions_it_defines() {
        let lab = crate::lab::Lab::built_in().unwrap();
        let board = lab.exercise("present_board").unwrap();
        let game = lab.exercise("working_game").unwrap();
        let make_move = "def make_move(rows, row, take):\n    return rows\n";
        let hint = wrong_exercise(make_move, board, &lab.exercises).expect("a hint");
        assert!(
            hint.contains("looks like make_move's, not present_board's"),
            "{hint}"
        );
        // Its own function, even beside others, or an empty file: no hint.
        let both = format!("{make_move}def present_board(rows):\n    pass\n");
        assert_eq!(wrong_exercise(&both, board, &lab.exercises), None);
        assert_eq!(wrong_exercise("", board, &lab.exercises), None);
        // The whole game defines every earlier function: handed to present_board, it is fine.
        let solution = game.solution.as_deref().unwrap();
        assert_eq!(wrong_exercise(solution, board, &lab.exercises), None);
    }

    #[test]
    fn a_call_the_sandbox_refused_is_explained() {
        let mut hints = Vec::new();
        let stderr = "Traceback (most recent call last):\n  File \"x.py\", line 2, in <module>\n    os.fork()\nPermissionError: [Errno 1] Operation not permitted\n";
        runtime_error_hints(stderr, &[], &mut hints);
        assert!(
            hints.iter().any(|h| h.contains("sandbox refused")),
            "{hints:?}"
        );
        let mut hints = Vec::new();
        runtime_error_hints(
            "Traceback...\nthread.error: can't start new thread\n",
            &[],
            &mut hints,
        );
        assert!(
            hints.iter().any(|h| h.contains("sandbox refused")),
            "{hints:?}"
        );
        let mut hints = Vec::new();
        runtime_error_hints(
            "Traceback...\nZeroDivisionError: division by zero\n",
            &[],
            &mut hints,
        );
        assert!(hints.is_empty(), "{hints:?}");
    }

    #[test]
    fn point_zero_is_removed_only_after_digits() {
        assert_eq!(without_point_zero("6.0\n").as_deref(), Some("6\n"));
        assert_eq!(
            without_point_zero("[[1.0, 2.0], true]").as_deref(),
            Some("[[1, 2], true]")
        );
        assert_eq!(without_point_zero("6.05"), None);
        assert_eq!(without_point_zero("6"), None);
    }
}
