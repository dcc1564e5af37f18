//! Feedback that teaches: readable program output, traceback summaries and hints for the
//! mistakes students really make.

use crate::exercises::HintCase;
use crate::exercises::Judging;
use crate::judge::{Judgement, Verdict, judge_output};
use crate::lab::config::Comparison;
use crate::lab::{Case, LabExercise};
use crate::runner::RunOutcome;

/// Bytes shown as text: invalid UTF-8 as `\xNN`, control characters escaped, nothing lost.
pub fn printable(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\n' | '\t' => out.push(c),
                '\r' => out.push_str("\\r"),
                c if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// At most `lines` lines and `chars` characters of a text, saying what was cut.
pub fn clip(text: &str, lines: usize, chars: usize) -> String {
    let mut out = String::new();
    let total_lines = text.lines().count();
    for (i, line) in text.lines().enumerate() {
        if i == lines || out.len() + line.len() > chars {
            let shown = i;
            out.push_str(&format!(
                "… ({} more line(s) not shown)\n",
                total_lines - shown
            ));
            return out;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The last lines of stderr, where a Python traceback ends.
pub fn stderr_tail(stderr: &[u8], lines: usize) -> String {
    let text = printable(stderr);
    let all: Vec<&str> = text.lines().collect();
    let start = all.len().saturating_sub(lines);
    all[start..].join("\n")
}

/// "ZeroDivisionError: division by zero (line 12, in make_move)" from a traceback.
pub fn traceback_summary(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let error = lines.last()?.trim();
    let place = lines.iter().rev().find_map(|line| {
        let rest = line.trim().strip_prefix("File \"")?;
        let (_, rest) = rest.split_once("\", line ")?;
        let (number, function) = match rest.split_once(", in ") {
            Some((n, f)) => (n, Some(f)),
            None => (rest, None),
        };
        Some(match function {
            Some(f) if f != "<module>" => format!("line {number}, in {f}"),
            _ => format!("line {number}"),
        })
    });
    Some(match place {
        Some(place) => format!("{error} ({place})"),
        None => error.to_string(),
    })
}

/// Advice for one failed case.
pub fn hints(
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
            wrong_answer_hints(exercise, case, &got, &mut hints);
        }
        Verdict::RuntimeError => {
            runtime_error_hints(&String::from_utf8_lossy(&outcome.stderr), lab_names, &mut hints);
        }
        Verdict::TimeLimit => {
            // Stopped by the wall clock with little CPU used: it was waiting, not working.
            if outcome.termination == crate::runner::Termination::WallTimeout && outcome.cpu * 4 < outcome.wall {
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

fn wrong_answer_hints(exercise: &LabExercise, case: &Case, got: &str, hints: &mut Vec<String>) {
    let trimmed = got.trim();
    if trimmed.is_empty() {
        hints.push("Your program printed nothing. Keep the block at the bottom of the stub: it reads the case and prints your function's result.".into());
        return;
    }
    if trimmed == "None" || trimmed.lines().last() == Some("None") {
        hints.push("`None` was printed: your function probably ends without a `return` statement (or prints instead of returning).".into());
    }
    if let Some(extra) = extra_lines(exercise, case, got) {
        hints.push(format!(
            "Your answer is there, but so is `{extra}`: remove debug prints. The grader reads everything your program prints."
        ));
    }
    let json_like = matches!(
        exercise.judging(),
        Judging::Expected(Comparison::Json) | Judging::Checker(_)
    );
    if json_like && serde_json::from_str::<serde_json::Value>(trimmed).is_err() {
        let pythonic = ["True", "False", "None", "'", "("]
            .iter()
            .any(|token| trimmed.contains(token));
        if pythonic {
            hints.push("This is a Python value, not JSON (JSON writes true, false, null, double quotes and [ ]). Print it with json.dumps(result), as the stub does.".into());
        }
    }
    if let Some(fixed) = without_point_zero(got)
        && judge_output(exercise, case, &fixed).verdict == Verdict::Accepted
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

/// One line of the output that would not be there if the rest were the right answer.
fn extra_lines(exercise: &LabExercise, case: &Case, got: &str) -> Option<String> {
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
        let passes = judge_output(exercise, case, &window).verdict == Verdict::Accepted;
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

/// Python 2's input() runs the line it reads as Python code. It shows in a traceback as code
/// from `<string>` (the line typed) right below a line that is no eval() or exec, or as text
/// methods called on the number or tuple that running a line made.
pub fn python2_input_hint(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr.lines().collect();
    let runs_typed_line = lines.iter().enumerate().any(|(at, line)| {
        let caller = at.checked_sub(1).map_or("", |before| lines[before]);
        line.trim_start().starts_with("File \"<string>\"")
            && !caller.contains("eval(")
            && !caller.contains("exec")
    });
    let calls_input = lines
        .iter()
        .any(|line| line.replace("raw_input(", "").contains("input("));
    let last = lines.iter().rev().find(|l| !l.trim().is_empty())?.trim();
    let used_as_text = calls_input
        && last.starts_with("AttributeError")
        && [
            "'int' object",
            "'tuple' object",
            "'float' object",
            "'long' object",
        ]
        .iter()
        .any(|kind| last.contains(kind));
    (runs_typed_line || used_as_text).then(|| {
        "On Python 2, input() runs the line it reads as Python code: `1 3` is a syntax error, `Ada` a name to look up, `5` a number. Read text with raw_input() on Python 2 and input() on Python 3, or with sys.stdin as the stub's block does; both work on either.".into()
    })
}

/// The lab's exercises a program imports (`import ui`, `from make_move import *`), in the order
/// of its source, each once.
fn lab_imports<'a>(source: &str, lab_names: &[&'a str]) -> Vec<&'a str> {
    let mut found: Vec<&str> = Vec::new();
    for line in source.lines().map(str::trim) {
        let modules: Vec<&str> = if let Some(rest) = line.strip_prefix("from ") {
            rest.split_whitespace().next().into_iter().collect()
        } else if let Some(rest) = line.strip_prefix("import ") {
            rest.split(',')
                .filter_map(|part| part.split_whitespace().next())
                .collect()
        } else {
            continue;
        };
        for module in modules {
            if let Some(name) = lab_names.iter().find(|n| **n == module)
                && !found.contains(name)
            {
                found.push(name);
            }
        }
    }
    found
}

/// "a.py, b.py and c.py"
fn file_list(modules: &[&str]) -> String {
    let files: Vec<String> = modules.iter().map(|m| format!("{m}.py")).collect();
    match files.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// A failed import, explained. `importer` is the program's file name and source, where the
/// hint can name every exercise file the program needs beside it (working_game imports four).
pub fn import_hint(
    stderr: &str,
    lab_names: &[&str],
    importer: Option<(&str, &str)>,
) -> Option<String> {
    let last = stderr.lines().rev().find(|l| !l.trim().is_empty())?.trim();
    if !(last.starts_with("ModuleNotFoundError") || last.starts_with("ImportError")) {
        return None;
    }
    let quoted: Vec<&str> = last.split(['\'', '"']).skip(1).step_by(2).collect();
    if last.contains("cannot import name") {
        let name = quoted
            .first()
            .copied()
            .or_else(|| last.rsplit(' ').next())
            .unwrap_or("");
        let from = quoted.get(1).map(|m| format!(" `{m}`")).unwrap_or_default();
        return Some(format!(
            "The module{from} was found, but it has no `{name}`: check that the file beside yours is your finished exercise and spells `{name}` as the statement does."
        ));
    }
    let module = quoted
        .first()
        .copied()
        .or_else(|| last.rsplit(' ').next())
        .unwrap_or("");
    if !lab_names.contains(&module) {
        return Some(format!(
            "`{module}` cannot be imported here: only Python's standard library and your own files next to this one are available."
        ));
    }
    let needed = importer
        .map(|(_, source)| lab_imports(source, lab_names))
        .filter(|needed| needed.len() > 1);
    match (importer, needed) {
        (Some((file, _)), Some(needed)) => Some(format!(
            "{file} imports `{module}`, but there is no {module}.py beside it. Put every file it imports in the same folder as {file}: {}.",
            file_list(&needed)
        )),
        _ => Some(format!(
            "Your file imports `{module}`: put your {module}.py in the same folder as this file."
        )),
    }
}

fn runtime_error_hints(stderr: &str, lab_names: &[&str], hints: &mut Vec<String>) {
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
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
    if last.starts_with("RecursionError") || last.contains("maximum recursion depth") {
        hints.push("Your recursion never stops: check that every recursive call gets closer to a case that returns without recursing.".into());
    }
    if last.starts_with("ValueError") && last.contains("invalid literal for int()") {
        hints.push("int() was given text that is not a whole number: did you change the block at the bottom that reads the input?".into());
    }
    if last.starts_with("UnicodeEncodeError") || last.starts_with("UnicodeDecodeError") {
        hints.push("Python 2 and 3 treat text differently: keep your output to plain ASCII, or add `# -*- coding: utf-8 -*-` and `from __future__ import unicode_literals`.".into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_2_input_is_recognised_from_its_tracebacks_only() {
        let typed_name = "Traceback (most recent call last):\n  File \"g.py\", line 84, in <module>\n    first = read_line(\"Name: \")\n  File \"<string>\", line 1, in <module>\nNameError: name 'Ada' is not defined\n";
        let typed_numbers = "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n    a, b = input().split()\n  File \"<string>\", line 1\n    0 1\n      ^\nSyntaxError: unexpected EOF while parsing\n";
        let made_a_number = "Traceback (most recent call last):\n  File \"p.py\", line 7, in <module>\n    board = [int(x) for x in input().split()]\nAttributeError: 'int' object has no attribute 'split'\n";
        for stderr in [typed_name, typed_numbers, made_a_number] {
            assert!(python2_input_hint(stderr).is_some(), "{stderr}");
        }
        let own_eval = "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n    value = eval(text)\n  File \"<string>\", line 1\nSyntaxError: invalid syntax\n";
        let raw_input_then_int = "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n    n = raw_input().count\nAttributeError: 'int' object has no attribute 'split'\n";
        let plain_name_error = "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n    print(boad)\nNameError: name 'boad' is not defined\n";
        for stderr in [own_eval, raw_input_then_int, plain_name_error, ""] {
            assert!(python2_input_hint(stderr).is_none(), "{stderr}");
        }
    }

    #[test]
    fn a_missing_sibling_names_every_file_the_program_imports() {
        let names = [
            "present_board",
            "make_move",
            "optimal_move",
            "ui",
            "working_game",
        ];
        let source = "from present_board import *\nfrom ui import *\nimport random, optimal_move\nfrom make_move import make_move\n";
        let py3 = "Traceback (most recent call last):\n  File \"w.py\", line 1, in <module>\nModuleNotFoundError: No module named 'present_board'\n";
        let py2 = "Traceback (most recent call last):\n  File \"w.py\", line 1, in <module>\nImportError: No module named present_board\n";
        for stderr in [py3, py2] {
            let hint = import_hint(stderr, &names, Some(("working_game.py", source))).unwrap();
            assert!(
                hint.contains("present_board.py, ui.py, optimal_move.py and make_move.py")
                    && hint.contains("beside it"),
                "{hint}"
            );
        }
        let alone = import_hint(py3, &names, None).unwrap();
        assert!(
            alone.contains("put your present_board.py in the same folder"),
            "{alone}"
        );
        let numpy = "ModuleNotFoundError: No module named 'numpy'\n";
        assert!(
            import_hint(numpy, &names, None)
                .unwrap()
                .contains("standard library")
        );
        let name = "ImportError: cannot import name 'present' from 'present_board' (/x/present_board.py)\n";
        let hint = import_hint(name, &names, None).unwrap();
        assert!(
            hint.contains("has no `present`") && hint.contains("`present_board`"),
            "{hint}"
        );
    }

    #[test]
    fn printable_escapes_what_a_terminal_should_not_see() {
        assert_eq!(printable(b"ok\n"), "ok\n");
        assert_eq!(printable(b"a\xffb"), "a\\xffb");
        assert_eq!(printable(b"\x1b[31mred"), "\\u{1b}[31mred");
        assert_eq!(printable("caf\u{e9}".as_bytes()), "caf\u{e9}");
    }

    #[test]
    fn traceback_summary_names_the_error_and_place() {
        let stderr = b"Traceback (most recent call last):\n  File \"/tmp/x/make_move.py\", line 30, in <module>\n    main()\n  File \"/tmp/x/make_move.py\", line 12, in make_move\n    return 1 / 0\nZeroDivisionError: division by zero\n";
        assert_eq!(
            traceback_summary(stderr).unwrap(),
            "ZeroDivisionError: division by zero (line 12, in make_move)"
        );
        assert_eq!(traceback_summary(b""), None);
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
