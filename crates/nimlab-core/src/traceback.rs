//! What a Python program's stderr says: the error and where, and the causes students meet
//! most (Python 2's input(), a sibling module that is not there).

use crate::printed::printable;

/// The error a traceback ends with: its last line that is not blank ("" if none).
pub fn error_line(stderr: &str) -> &str {
    stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
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
    fn traceback_summary_names_the_error_and_place() {
        let stderr = b"Traceback (most recent call last):\n  File \"/tmp/x/make_move.py\", line 30, in <module>\n    main()\n  File \"/tmp/x/make_move.py\", line 12, in make_move\n    return 1 / 0\nZeroDivisionError: division by zero\n";
        assert_eq!(
            traceback_summary(stderr).unwrap(),
            "ZeroDivisionError: division by zero (line 12, in make_move)"
        );
        assert_eq!(traceback_summary(b""), None);
    }
}
