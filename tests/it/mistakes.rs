//! A corpus of wrong submissions (tests/submissions/<mistake>/<exercise>.py), each a mistake
//! students really make: the right verdict, and a hint that names the mistake.

use crate::common::{all_hints, case_in, check_json, lab_with, root};
use nimlab_core::grade::mistakes::hint_kinds;

struct Mistake {
    folder: &'static str,
    file: &'static str,
    /// Interpreters to run under: "3" where the mistake does not depend on the version, and
    /// then Python 2.7 runs it too, in the same check, and must give the same verdict and
    /// hint (the lab requires both); "3,2.7" where the versions differ, `runs` says how.
    python: &'static str,
    verdict: &'static str,
    /// Verdicts per run, in --python order.
    runs: &'static [&'static str],
    /// Part of a hint the report must give; empty where no hint is owed.
    hint: &'static str,
}

const CORPUS: &[Mistake] = &[
    Mistake {
        folder: "debug_print",
        file: "present_board.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "remove debug prints",
    },
    Mistake {
        folder: "python_repr",
        file: "make_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "json.dumps(result)",
    },
    Mistake {
        folder: "true_division",
        file: "bin_num.py",
        python: "3,2.7",
        verdict: "wrong_answer",
        runs: &["wrong_answer", "accepted"],
        hint: "use `//` for whole-number division",
    },
    Mistake {
        folder: "true_division",
        file: "bin_num.py",
        python: "3,2.7",
        verdict: "wrong_answer",
        runs: &["wrong_answer", "accepted"],
        hint: "passes under Python 2.7",
    },
    Mistake {
        folder: "true_division",
        file: "bin_num.py",
        python: "3,2.7",
        verdict: "wrong_answer",
        runs: &["wrong_answer", "accepted"],
        hint: "Python 3.11.7: on case sample/01-six-to-digits, Python 3.11.7 printed a decimal (`1.0`) where a whole number was expected",
    },
    Mistake {
        folder: "halves_with_slash",
        file: "bitwise_xor.py",
        python: "3,2.7",
        verdict: "wrong_answer",
        runs: &["wrong_answer", "accepted"],
        hint: "digits long where a whole number was expected. That is `/` where `//` was meant",
    },
    Mistake {
        folder: "halves_digits_with_slash",
        file: "bin_num.py",
        python: "3,2.7",
        verdict: "wrong_answer",
        runs: &["wrong_answer", "accepted"],
        hint: "Python 3.11.7 printed a decimal (`5e-324`) where a whole number was expected. Under Python 3 (and with `from __future__ import division`) `/` always gives a float",
    },
    Mistake {
        folder: "float_loop_bound",
        file: "bin_num.py",
        python: "3,2.7",
        verdict: "runtime_error",
        runs: &["runtime_error", "accepted"],
        hint: "range() under Python 3.11.7 was given a float",
    },
    Mistake {
        folder: "mutates_board",
        file: "make_move.py",
        python: "3",
        verdict: "runtime_error",
        runs: &["runtime_error"],
        hint: "make a copy first",
    },
    Mistake {
        folder: "zero_based_row",
        file: "make_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "Rows are numbered from 1, so row r is board[r - 1]",
    },
    Mistake {
        folder: "zero_based_row",
        file: "optimal_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "one row further down",
    },
    Mistake {
        folder: "target_size",
        file: "optimal_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "the size the row should be left with",
    },
    Mistake {
        folder: "misere_normal_strategy",
        file: "misere_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "This is the normal game's winning move",
    },
    Mistake {
        folder: "misere_counts_empty_rows",
        file: "misere_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "an empty row is not one",
    },
    Mistake {
        folder: "misere_normal_winner",
        file: "misere_game.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "announce the other player as the winner",
    },
    Mistake {
        folder: "misere_normal_computer",
        file: "misere_game.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "The computer must play the misère strategy (misere_move)",
    },
    Mistake {
        folder: "python3_print",
        file: "exclusive_or.py",
        python: "3,2.7",
        verdict: "syntax_error",
        runs: &["syntax_error", "accepted"],
        hint: "print is a function in Python 3",
    },
    Mistake {
        folder: "undeclared_encoding",
        file: "present_board.py",
        python: "3,2.7",
        verdict: "syntax_error",
        runs: &["accepted", "syntax_error"],
        hint: "coding: utf-8",
    },
    Mistake {
        folder: "memory_hog",
        file: "bitwise_xor.py",
        python: "3",
        verdict: "memory_limit",
        runs: &["memory_limit"],
        hint: "very large",
    },
    Mistake {
        folder: "output_flood",
        file: "ui.py",
        python: "3",
        verdict: "output_limit",
        runs: &["output_limit"],
        hint: "print inside a loop",
    },
    Mistake {
        folder: "crash",
        file: "nim_sum.py",
        python: "3",
        verdict: "runtime_error",
        runs: &["runtime_error"],
        hint: "",
    },
    Mistake {
        folder: "missing_return",
        file: "bitwise_xor.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "without a `return` statement",
    },
    Mistake {
        folder: "case_sensitive",
        file: "ui.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "name.lower()",
    },
    Mistake {
        folder: "reversed_digits",
        file: "bin_num.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "reverse order",
    },
    Mistake {
        folder: "swapped_naming",
        file: "nim_sum.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "N- and P-positions",
    },
    Mistake {
        folder: "missing_sibling",
        file: "bitwise_xor.py",
        python: "3",
        verdict: "runtime_error",
        runs: &["runtime_error"],
        hint: "put your exclusive_or.py in the same folder",
    },
    Mistake {
        folder: "with_sibling",
        file: "bitwise_xor.py",
        python: "3,2.7",
        verdict: "accepted",
        runs: &["accepted", "accepted"],
        hint: "",
    },
    Mistake {
        folder: "binary_output",
        file: "present_board.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "",
    },
    Mistake {
        folder: "python2_input",
        file: "exclusive_or.py",
        python: "3,2.7",
        verdict: "runtime_error",
        // Every case is one line, as the lab's own block reads it: Python 3 is fine.
        runs: &["accepted", "runtime_error"],
        hint: "input() runs the line it reads as Python code",
    },
    Mistake {
        folder: "python2_input",
        file: "exclusive_or.py",
        python: "3,2.7",
        verdict: "runtime_error",
        runs: &["accepted", "runtime_error"],
        hint: "input() under Python 2.7.18 ran the line it read as Python code",
    },
    Mistake {
        folder: "game_python2_input",
        file: "working_game.py",
        python: "3,2.7",
        verdict: "runtime_error",
        runs: &["accepted", "runtime_error"],
        hint: "raw_input() on Python 2",
    },
    Mistake {
        folder: "game_missing_siblings",
        file: "working_game.py",
        python: "3,2.7",
        verdict: "runtime_error",
        runs: &["runtime_error", "runtime_error"],
        hint: "Put every file it imports in the same folder as working_game.py: present_board.py, make_move.py, optimal_move.py and ui.py.",
    },
    Mistake {
        folder: "uses_xor_operator",
        file: "exclusive_or.py",
        python: "3",
        verdict: "accepted",
        runs: &["accepted"],
        hint: "",
    },
    // Issue 31: at least five wrong programs per exercise, each hinted at its cause.
    Mistake {
        folder: "zero_based_row",
        file: "present_board.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "Rows are numbered from 1, not 0",
    },
    Mistake {
        folder: "missing_header",
        file: "present_board.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "a line that says exactly `Nim:`",
    },
    Mistake {
        folder: "xs_without_spaces",
        file: "present_board.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "Put a space between the Xs",
    },
    Mistake {
        folder: "one_x_short",
        file: "present_board.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "Each row shows one X fewer than it holds",
    },
    Mistake {
        folder: "lines_not_joined",
        file: "present_board.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "returned a list of lines",
    },
    Mistake {
        folder: "cannot_empty_row",
        file: "make_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "elements <= size, not elements < size",
    },
    Mistake {
        folder: "negative_row",
        file: "make_move.py",
        python: "3",
        verdict: "runtime_error",
        runs: &["runtime_error"],
        hint: "Python reads board[-1] as the last row",
    },
    Mistake {
        folder: "board_only",
        file: "make_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "make_move returns two things",
    },
    Mistake {
        folder: "returns_bool",
        file: "exclusive_or.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "not True and False",
    },
    Mistake {
        folder: "or_instead",
        file: "exclusive_or.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "this is where it differs from `or`",
    },
    Mistake {
        folder: "and_instead",
        file: "exclusive_or.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "what `a and b` gives",
    },
    Mistake {
        folder: "and_instead",
        file: "exclusive_or.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        // On 1 1, where `or` gives 1 as well: the other cases tell it is `and`.
        hint: "yours gives 1 here and 0 when exactly one bit is 1, which is what `a and b` gives",
    },
    Mistake {
        folder: "answers_swapped",
        file: "exclusive_or.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "Swap the 1s and 0s it returns",
    },
    Mistake {
        folder: "missing_return",
        file: "exclusive_or.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "without a `return` statement",
    },
    Mistake {
        folder: "zero_has_a_digit",
        file: "bin_num.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "numeral_binary(0) gives []",
    },
    Mistake {
        folder: "digits_as_text",
        file: "bin_num.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "not strings",
    },
    Mistake {
        folder: "reads_digits_backwards",
        file: "bin_num.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "read the digits from the wrong end",
    },
    Mistake {
        folder: "powers_off_by_one",
        file: "bin_num.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "twice the right one",
    },
    Mistake {
        folder: "or_instead",
        file: "bitwise_xor.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "That is a OR b",
    },
    Mistake {
        folder: "and_instead",
        file: "bitwise_xor.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "That is a AND b",
    },
    Mistake {
        folder: "stops_at_shorter",
        file: "bitwise_xor.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "stopped when the shorter number ran out",
    },
    Mistake {
        folder: "adds_rows",
        file: "nim_sum.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "the ordinary sum of the rows",
    },
    Mistake {
        folder: "or_instead",
        file: "nim_sum.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "combined with or (|)",
    },
    Mistake {
        folder: "first_row_twice",
        file: "nim_sum.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "it was counted twice",
    },
    Mistake {
        folder: "return_in_loop",
        file: "nim_sum.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "its `return` is inside the loop",
    },
    Mistake {
        folder: "positions_as_numbers",
        file: "nim_sum.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "True or False (printed as true and false), not a number",
    },
    Mistake {
        folder: "no_move_when_losing",
        file: "optimal_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "No move wins there, but the player must still move",
    },
    Mistake {
        folder: "row_not_checked",
        file: "optimal_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "Not every row gives the winning move",
    },
    Mistake {
        folder: "python_repr",
        file: "optimal_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "json.dumps(result)",
    },
    Mistake {
        folder: "human_inverted",
        file: "ui.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "yours gives the opposite",
    },
    Mistake {
        folder: "zeros_not_empty",
        file: "ui.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "check that every row is 0",
    },
    Mistake {
        folder: "return_in_loop",
        file: "ui.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "`null` was printed",
    },
    Mistake {
        folder: "max_of_empty_board",
        file: "ui.py",
        python: "3",
        verdict: "runtime_error",
        runs: &["runtime_error"],
        hint: "max() or min() was given an empty list",
    },
    Mistake {
        folder: "zero_based_row",
        file: "misere_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "one row further down",
    },
    Mistake {
        folder: "python_repr",
        file: "misere_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "json.dumps(result)",
    },
    Mistake {
        folder: "ones_parity_swapped",
        file: "misere_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "leave an odd number of rows holding one element",
    },
    Mistake {
        folder: "no_move_when_losing",
        file: "misere_move.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "`null` was printed",
    },
    Mistake {
        folder: "game_crash_on_bad_input",
        file: "working_game.py",
        python: "3",
        verdict: "runtime_error",
        runs: &["runtime_error"],
        hint: "catch the ValueError from int()",
    },
    Mistake {
        folder: "game_announces_loser",
        file: "working_game.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "The player who takes the last element wins",
    },
    Mistake {
        folder: "game_random_computer",
        file: "working_game.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "The computer must play the winning strategy (optimal_move)",
    },
    Mistake {
        folder: "game_accepts_illegal",
        file: "working_game.py",
        python: "3",
        verdict: "runtime_error",
        runs: &["runtime_error"],
        hint: "a move that is not legal on this board",
    },
    Mistake {
        folder: "game_turn_passes_on_illegal",
        file: "working_game.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "ask the same player again",
    },
    Mistake {
        folder: "game_accepts_illegal",
        file: "misere_game.py",
        python: "3",
        verdict: "runtime_error",
        runs: &["runtime_error"],
        hint: "a move that is not legal on this board",
    },
    Mistake {
        folder: "game_crash_on_bad_input",
        file: "misere_game.py",
        python: "3",
        verdict: "runtime_error",
        runs: &["runtime_error"],
        hint: "catch the ValueError from int()",
    },
    Mistake {
        folder: "game_turn_passes_on_illegal",
        file: "misere_game.py",
        python: "3",
        verdict: "wrong_answer",
        runs: &["wrong_answer"],
        hint: "The turn passes to the other player after a legal move, and only then",
    },
];

/// Hints a mistake must not get: each names a cause the program's evidence rules out.
const NOT_HINTED: &[(&str, &str, &str)] = &[
    // `and` gives 1 on 1 1 as `or` does, but 0 where one bit is 1: not `or`.
    ("and_instead", "exclusive_or.py", "`or`"),
    ("or_instead", "exclusive_or.py", "`a and b`"),
    // A plainly wrong nim-sum flips some position answers: not the names swapped.
    ("adds_rows", "nim_sum.py", "N- and P-positions"),
    ("or_instead", "nim_sum.py", "N- and P-positions"),
    ("first_row_twice", "nim_sum.py", "N- and P-positions"),
    ("return_in_loop", "nim_sum.py", "N- and P-positions"),
    // is_human inverted takes "ComPuTer" for a human too, but it lowercases the name.
    ("human_inverted", "ui.py", "any letter case"),
    ("case_sensitive", "ui.py", "the opposite"),
];

/// Mistakes checked under Python 3 alone though they do not depend on the version: the
/// memory hog takes seconds to reach its limit, and under 2.7 would only double that.
const PYTHON_3_ONLY: &[&str] = &["memory_hog"];

/// Hints of the corpus checked under Python 3 and 2.7 that are owed only when both are: each
/// describes what Python 2.7 itself does, or compares the two ("passes under Python 2.7").
/// Every other hint of a mistake checked under both must be given with `--python 3` alone,
/// as most students have only Python 3.
const ABOUT_PYTHON_2_7: &[(&str, &str)] = &[
    ("true_division", "passes under Python 2.7"),
    (
        "true_division",
        "Python 3.11.7: on case sample/01-six-to-digits, Python 3.11.7 printed a decimal (`1.0`) where a whole number was expected",
    ),
    ("undeclared_encoding", "coding: utf-8"),
    (
        "python2_input",
        "input() runs the line it reads as Python code",
    ),
    (
        "python2_input",
        "input() under Python 2.7.18 ran the line it read as Python code",
    ),
    ("game_python2_input", "raw_input() on Python 2"),
];

/// The hints of one run: its cases' and its syntax error's.
fn run_hints(run: &serde_json::Value) -> Vec<String> {
    all_hints(&serde_json::json!({ "runs": [run] }))
}

#[test]
fn each_mistake_gets_its_verdict_and_hint() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    for (folder, file, _) in NOT_HINTED {
        assert!(
            CORPUS
                .iter()
                .any(|m| (m.folder, m.file) == (*folder, *file)),
            "{folder}/{file} is not in the corpus"
        );
    }
    for mistake in CORPUS {
        let file = root()
            .join("tests/submissions")
            .join(mistake.folder)
            .join(mistake.file);
        let both = mistake.python == "3" && !PYTHON_3_ONLY.contains(&mistake.folder);
        let (python, runs) = if both {
            ("3,2.7", vec![mistake.runs[0]; 2])
        } else {
            (mistake.python, mistake.runs.to_vec())
        };
        // The exercise is found from the file name, as for a student.
        let (report, code) = check_json(&[file.to_str().unwrap(), "--python", python]);
        let name = format!("{}/{}", mistake.folder, mistake.file);
        assert_eq!(report["verdict"], mistake.verdict, "{name}: {report:#}");
        let verdicts: Vec<&str> = report["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["verdict"].as_str().unwrap())
            .collect();
        assert_eq!(verdicts, runs, "{name}");
        assert_eq!(
            code,
            if mistake.verdict == "accepted" { 0 } else { 1 },
            "{name}"
        );
        let hints = all_hints(&report);
        let hinted = |hints: &[String]| {
            mistake.hint.is_empty() || hints.iter().any(|h| h.contains(mistake.hint))
        };
        assert!(
            hinted(&hints),
            "{name}: no hint containing {:?} in {hints:#?}",
            mistake.hint
        );
        // The class's mistakes group students by the cause a hint names: each hint of the
        // corpus is one the grouping knows by name, not only by its text.
        for hint in hints.iter().filter(|h| h.contains(mistake.hint)) {
            assert!(
                mistake.hint.is_empty() || hint_kinds::named(hint).is_some(),
                "{name}: no kind in grade/mistakes/hint_kinds.rs names {hint:?}"
            );
        }
        if both {
            // The same mistake, the same advice, under each version.
            for run in report["runs"].as_array().unwrap() {
                let hints = run_hints(run);
                assert!(
                    hinted(&hints),
                    "{name} under {}: no hint containing {:?} in {hints:#?}",
                    run["interpreter"],
                    mistake.hint
                );
            }
        }
        for (folder, file, wrong) in NOT_HINTED {
            if (*folder, *file) == (mistake.folder, mistake.file) {
                assert!(
                    !hints.iter().any(|h| h.contains(wrong)),
                    "{name}: a hint containing {wrong:?} in {hints:#?}"
                );
            }
        }
    }
}

#[test]
fn each_mistake_is_hinted_under_python_3_alone_unless_the_hint_is_about_python_2_7() {
    for (folder, hint) in ABOUT_PYTHON_2_7 {
        assert!(
            CORPUS
                .iter()
                .any(|m| (m.folder, m.hint) == (*folder, *hint) && m.python == "3,2.7"),
            "{folder}: {hint:?} is not a hint of the corpus checked under both"
        );
    }
    for mistake in CORPUS.iter().filter(|m| m.python == "3,2.7") {
        if ABOUT_PYTHON_2_7.contains(&(mistake.folder, mistake.hint)) {
            continue;
        }
        let file = root()
            .join("tests/submissions")
            .join(mistake.folder)
            .join(mistake.file);
        let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3"]);
        let name = format!("{}/{} under Python 3 alone", mistake.folder, mistake.file);
        assert_eq!(report["verdict"], mistake.runs[0], "{name}: {report:#}");
        let hints = all_hints(&report);
        assert!(
            mistake.hint.is_empty() || hints.iter().any(|h| h.contains(mistake.hint)),
            "{name}: no hint containing {:?} in {hints:#?}",
            mistake.hint
        );
    }
}

#[test]
fn slash_against_double_slash_is_named_once_with_python_2_7_or_without() {
    let file = root().join("tests/submissions/halves_with_slash/bitwise_xor.py");
    let naming = |python: &str| -> Vec<String> {
        let (report, _) = check_json(&[file.to_str().unwrap(), "--python", python]);
        all_hints(&report)
            .into_iter()
            .filter(|h| h.contains("`//`"))
            .collect()
    };
    let alone = naming("3");
    assert_eq!(alone.len(), 1, "{alone:#?}");
    assert!(
        alone[0].starts_with("On case sample/01-three-five, Python 3.11.7 printed a number 324 digits long where a whole number was expected. That is `/` where `//` was meant"),
        "{alone:#?}"
    );
    if crate::common::python_2_7_available() {
        // Compared with Python 2.7, which passes: the comparison's hint, and not also this one.
        let both = naming("3,2.7");
        assert_eq!(both.len(), 1, "{both:#?}");
        assert!(
            both[0].starts_with("Your program passes under Python 2.7.18 but not under Python 3.11.7: on case sample/01-three-five"),
            "{both:#?}"
        );
    }
}

#[test]
fn a_game_that_asks_its_questions_in_another_order_is_played_as_it_asks() {
    // The rows first ("How many rows?", then each row's size), the names after: nimlab reads
    // each question and answers it, so the order is the student's.
    let file = root().join("tests/submissions/game_asks_rows_first/working_game.py");
    let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3,2.7"]);
    assert_eq!(report["verdict"], "accepted", "{report:#}");
    // Told that a name is wanted where it asks for a number, it crashes, and the hint traces
    // the crash to the question nimlab read as asking for a name.
    let source = std::fs::read_to_string(&file).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let renamed = dir.path().join("working_game.py");
    std::fs::write(
        &renamed,
        source.replace("\"How many rows? \"", "\"Name a size: \""),
    )
    .unwrap();
    let (report, _) = check_json(&[renamed.to_str().unwrap(), "--python", "3"]);
    let case = &report["runs"][0]["cases"][0];
    assert!(
        case["message"]
            .as_str()
            .unwrap()
            .contains("invalid literal for int() with base 10: 'Ada'"),
        "{case:#}"
    );
    let hints = all_hints(&report);
    assert!(
        hints.iter().any(|h| h.starts_with(
            "The program crashed on `Ada`, which nimlab typed as the first player's name because the question `Name a size:`"
        )),
        "{hints:#?}"
    );
    assert!(
        !hints.iter().any(|h| h.contains("catch the ValueError")),
        "{hints:#?}"
    );
}

#[test]
fn a_game_hint_quotes_a_sample_scenarios_move_and_never_a_secret_ones() {
    // The crash hint quotes the move typed before the crash: `4, 1` is sample
    // 02-human-vs-human's scripted "4 1", typed the way the program asks for moves.
    let file = root().join("tests/submissions/game_accepts_illegal/working_game.py");
    let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3"]);
    let case = case_in(&report, "sample/02-human-vs-human")[0];
    assert_eq!(case["visibility"], "sample");
    let hints = case["feedback"]["hints"].as_array().unwrap();
    assert!(
        hints[0]
            .as_str()
            .unwrap()
            .starts_with("The program crashed after `4, 1`, a move that is not legal"),
        "{hints:#?}"
    );
    // The same scenario made secret: a student learns that it failed, nothing of its moves.
    // Hints are worked out for samples only; a secret case's message (which quotes a move)
    // is the instructor's.
    let lab = lab_with(&["working_game"], |_| {});
    let fixtures = lab.path().join("fixtures/working_game");
    std::fs::rename(
        fixtures.join("sample/02-human-vs-human.toml"),
        fixtures.join("secret/02-human-vs-human.toml"),
    )
    .unwrap();
    let args = [
        file.to_str().unwrap(),
        "--python",
        "3",
        "--lab",
        lab.path().to_str().unwrap(),
    ];
    let (student, _) = check_json(&args);
    let hints = all_hints(&student);
    assert!(!hints.iter().any(|h| h.contains("4, 1")), "{hints:#?}");
    let secret = case_in(&student, "secret/02-human-vs-human")[0];
    assert_eq!(secret["verdict"], "runtime_error");
    assert_eq!(secret["message"], "", "{secret:#}");
    assert!(secret.get("feedback").is_none(), "{secret:#}");
    let (instructor, _) = check_json(&[&args[..], &["--instructor"]].concat());
    let secret = case_in(&instructor, "secret/02-human-vs-human")[0];
    assert_eq!(
        secret["feedback"]["hints"],
        serde_json::json!([]),
        "{secret:#}"
    );
}

#[test]
fn a_crash_shows_the_error_and_the_students_own_path() {
    let file = root().join("tests/submissions/crash/nim_sum.py");
    let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3"]);
    let case = &report["runs"][0]["cases"][0];
    assert_eq!(
        case["message"],
        "ZeroDivisionError: integer division or modulo by zero (line 6, in nim_sum)"
    );
    let stderr = case["feedback"]["stderr"].as_str().unwrap();
    assert!(
        stderr.contains(file.to_str().unwrap()),
        "the traceback names the student's file: {stderr}"
    );
    assert!(
        !stderr.contains("nimlab-"),
        "no temporary path leaks: {stderr}"
    );
}

#[test]
fn secret_cases_say_only_their_verdict() {
    let file = root().join("tests/submissions/zero_based_row/make_move.py");
    let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3"]);
    let cases = report["runs"][0]["cases"].as_array().unwrap();
    let secret_failures: Vec<_> = cases
        .iter()
        .filter(|c| c["visibility"] == "secret" && c["verdict"] != "accepted")
        .collect();
    assert!(!secret_failures.is_empty());
    for case in secret_failures {
        assert_eq!(case["message"], "", "{case}");
        assert!(case.get("feedback").is_none(), "{case}");
    }
    let sample = cases
        .iter()
        .find(|c| c["visibility"] == "sample" && c["verdict"] != "accepted")
        .unwrap();
    assert!(
        sample["feedback"]["input"]
            .as_str()
            .unwrap()
            .contains("\"board\"")
    );
}

#[test]
fn a_cross_interpreter_hint_from_a_secret_case_does_not_quote_it() {
    if !crate::common::python_2_7_available() {
        return;
    }
    // Only the sample that halving with `/` gets right is kept: every failure is secret.
    let lab = lab_with(&["bitwise_xor"], |_| {});
    for entry in std::fs::read_dir(lab.path().join("fixtures/bitwise_xor/sample")).unwrap() {
        let path = entry.unwrap().path();
        if !path.to_string_lossy().contains("03-equal") {
            std::fs::remove_file(path).unwrap();
        }
    }
    let file = root().join("tests/submissions/halves_with_slash/bitwise_xor.py");
    let args = [
        file.to_str().unwrap(),
        "--python",
        "3,2.7",
        "--lab",
        lab.path().to_str().unwrap(),
    ];
    let (student, _) = check_json(&args);
    let mut hints = all_hints(&student);
    assert!(
        hints
            .iter()
            .any(|h| h.contains("on a hidden case")
                && h.contains("Use `//` for whole-number division")),
        "{hints:#?}"
    );
    // Under Python 3 alone, named from its own output, and as unquoted.
    let mut alone = args;
    alone[2] = "3";
    let (student, _) = check_json(&alone);
    let hints_alone = all_hints(&student);
    assert!(
        hints_alone.iter().any(|h| h.starts_with("On a hidden case")
            && h.contains("Use `//` for whole-number division")),
        "{hints_alone:#?}"
    );
    hints.extend(hints_alone);
    let (instructor, _) = check_json(&[&args[..], &["--instructor"]].concat());
    let secret: Vec<&serde_json::Value> = instructor["runs"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["visibility"] == "secret" && c["verdict"] != "accepted")
        .collect();
    assert!(!secret.is_empty(), "{instructor:#}");
    for case in secret {
        let feedback = &case["feedback"];
        for text in [
            &feedback["got"],
            &feedback["input"],
            &feedback["expected"],
            &case["name"],
        ] {
            // Short texts ("7") are in any hint's version numbers; a quote is longer.
            let text = text.as_str().unwrap().trim();
            let quoted = text.len() >= 6 && hints.iter().any(|h| h.contains(text));
            assert!(!quoted, "{text:?} is in {hints:#?}");
        }
    }
}

#[test]
fn invalid_utf8_output_is_shown_escaped() {
    let file = root().join("tests/submissions/binary_output/present_board.py");
    let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3"]);
    let case = &report["runs"][0]["cases"][0];
    assert_eq!(case["feedback"]["got"], "Nim:\\xff\\xfe\n");
    assert!(case["message"].as_str().unwrap().contains("\\xff\\xfe"));
}

#[test]
fn forbidden_constructs_are_warned_about_with_line_numbers() {
    let file = root().join("tests/submissions/uses_xor_operator/exclusive_or.py");
    let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3"]);
    let warnings = report["warnings"].as_array().unwrap();
    // Only the real use on line 7: not the comment, the string, or the harness block's `==`.
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    assert_eq!(warnings[0]["line"], 7);
    assert_eq!(warnings[0]["fails"], false);
}

#[test]
fn a_lab_can_make_a_forbidden_construct_fail() {
    let lab = lab_with(&["exclusive_or"], |config| {
        for rule in config["forbidden"].as_array_mut().unwrap() {
            rule.as_table_mut()
                .unwrap()
                .insert("fail".into(), true.into());
        }
    });
    let file = root().join("tests/submissions/uses_xor_operator/exclusive_or.py");
    let (report, code) = check_json(&[
        file.to_str().unwrap(),
        "--python",
        "3",
        "--lab",
        lab.path().to_str().unwrap(),
    ]);
    assert_eq!(report["runs"][0]["verdict"], "accepted");
    assert_eq!(report["verdict"], "wrong_answer");
    assert_eq!(report["score"], 0);
    assert_eq!(code, 1);
}

/// Limits short enough that stalling programs cost the test suite little.
fn quick_limits(config: &mut toml::Table) {
    let mut limits = toml::Table::new();
    limits.insert("cpu_ms".into(), 300.into());
    limits.insert("wall_ms".into(), 600.into());
    limits.insert("memory_mb".into(), 256.into());
    limits.insert("output_kb".into(), 64.into());
    config.insert("limits".into(), limits.into());
}

#[test]
fn stalling_programs_are_stopped_at_their_limits() {
    let lab = lab_with(&["exclusive_or"], quick_limits);
    for (folder, hint) in [("endless_loop", "busy the whole time"), ("sleeps", "idle")] {
        let file = root()
            .join("tests/submissions")
            .join(folder)
            .join("exclusive_or.py");
        let started = std::time::Instant::now();
        let (report, code) = check_json(&[
            file.to_str().unwrap(),
            "--python",
            "3",
            "--lab",
            lab.path().to_str().unwrap(),
        ]);
        assert_eq!(report["verdict"], "time_limit", "{folder}: {report:#}");
        assert_eq!(code, 1);
        let hints = all_hints(&report);
        assert!(
            hints.iter().any(|h| h.contains(hint)),
            "{folder}: {hints:?}"
        );
        // 12 cases at 0.6 s each on two jobs, with room for a loaded machine.
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "{folder}: {:?}",
            started.elapsed()
        );
    }
}

/// Strategies students write instead of the winning one, each the body of optimal_move with
/// `total` the board's nim-sum. The fixtures must catch every one.
const WRONG_STRATEGIES: &[(&str, &str)] = &[
    (
        "take one from the first row",
        "index = [i for i, r in enumerate(board) if r][0]\n    return (index + 1, 1)",
    ),
    (
        "empty the largest row",
        "index = board.index(max(board))\n    return (index + 1, board[index])",
    ),
    (
        "the rule on the largest row only",
        "index = board.index(max(board))\n    return (index + 1, board[index] - (total ^ board[index]))",
    ),
    (
        "take the nim-sum itself",
        "for index, size in enumerate(board):\n        if total and size >= total:\n            return (index + 1, total)\n    return ([i for i, r in enumerate(board) if r][0] + 1, 1)",
    ),
    (
        "the rule on the first non-empty row only",
        "index = [i for i, r in enumerate(board) if r][0]\n    size = board[index]\n    return (index + 1, size - (total ^ size) if total ^ size < size else 1)",
    ),
    (
        "leave one in the largest row",
        "index = board.index(max(board))\n    return (index + 1, max(1, board[index] - 1))",
    ),
];

#[test]
fn optimal_move_fixtures_catch_the_usual_wrong_strategies() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("optimal_move.py");
    for (name, body) in WRONG_STRATEGIES {
        let program = format!(
            "from __future__ import print_function, division\nimport json, sys\n\n\ndef optimal_move(board):\n    total = 0\n    for size in board:\n        total ^= size\n    {body}\n\n\nif __name__ == \"__main__\":\n    print(json.dumps(optimal_move(json.loads(sys.stdin.read())[\"board\"])))\n"
        );
        std::fs::write(&file, program).unwrap();
        let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3"]);
        assert_eq!(report["verdict"], "wrong_answer", "{name}: {report:#}");
        let failed = report["runs"][0]["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["verdict"] == "wrong_answer")
            .count();
        assert!(failed >= 3, "{name} fails only {failed} case(s)");
    }
}

/// Bytes an interpreter refuses to compile: (name, file, what the message says under Python
/// 3, under Python 2.7).
const UNCOMPILABLE: &[(&str, &[u8], &str, &str)] = &[
    (
        "nul",
        b"print(1)\x00\n",
        "NUL byte (character 0) on line 1, column 9",
        "NUL byte (character 0) on line 1, column 9",
    ),
    (
        "nul_on_line_3",
        b"x = 1\ny = 2\nprint(x + y)\x00\n",
        "NUL byte (character 0) on line 3, column 13",
        "NUL byte (character 0) on line 3, column 13",
    ),
    (
        "utf16",
        b"\xff\xfep\x00r\x00i\x00n\x00t\x00(\x001\x00)\x00\n\x00",
        "NUL byte (character 0) on line 1",
        "NUL byte (character 0) on line 1",
    ),
    (
        "unknown_encoding",
        b"# -*- coding: klingon -*-\nprint(1)\n",
        "unknown encoding: klingon",
        "unknown encoding: klingon",
    ),
    (
        "not_utf8",
        b"print('caf\xe9')\n",
        "codec can't decode byte 0xe9",
        "non-ASCII character '\\xe9' but no encoding declared",
    ),
];

/// The student's fault is the student's (issue 24): a file no interpreter compiles is a
/// syntax error (exit 1), never nimlab's judge error (exit 3), under every interpreter and
/// both runners, with a message that names the problem.
#[test]
fn files_an_interpreter_refuses_to_compile_are_syntax_errors_that_name_the_problem() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut deep = b"x = ".to_vec();
    deep.extend(std::iter::repeat_n(b'-', 100_000));
    deep.extend(b"1\n");
    let deep: (&str, &[u8], &str, &str) = (
        "deep_expression",
        &deep,
        "nests brackets or expressions too deeply for Python 3.",
        "nests brackets or expressions too deeply for Python 2.7",
    );
    let parentheses = [b"x = ".as_slice(), &[b'('; 300], b"1", &[b')'; 300], b"\n"].concat();
    let parentheses: (&str, &[u8], &str, &str) = (
        "nested_parentheses",
        &parentheses,
        "too many nested parentheses",
        "nests brackets or expressions too deeply for Python 2.7",
    );
    // Python 2.7's compiler overflows its stack on this one (Python 3 raises a RecursionError).
    let chain = [b"x = ".as_slice(), &b"1+".repeat(200_000), b"1\n"].concat();
    let chain: (&str, &[u8], &str, &str) = (
        "long_chain",
        &chain,
        "nests brackets or expressions too deeply for Python 3.",
        "nests brackets or expressions too deeply for Python 2.7",
    );
    let mut failures = Vec::new();
    for &(name, source, on_3, on_2) in UNCOMPILABLE.iter().chain([&deep, &parentheses, &chain]) {
        let file = dir.path().join(name).join("present_board.py");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, source).unwrap();
        for runner in ["fork", "process"] {
            let (report, code) = check_json(&[
                file.to_str().unwrap(),
                "--python",
                "3,2.7",
                "--runner",
                runner,
                "--jobs",
                "1",
            ]);
            let runs = report["runs"].as_array().unwrap();
            let said: Vec<(String, String)> = runs
                .iter()
                .map(|r| {
                    (
                        r["verdict"].as_str().unwrap_or("").to_string(),
                        r["message"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect();
            let right = code == 1
                && report["verdict"] == "syntax_error"
                && said.len() == 2
                && said[0].0 == "syntax_error"
                && said[1].0 == "syntax_error"
                && said[0].1.contains(on_3)
                && said[1].1.contains(on_2);
            if !right {
                failures.push(format!("{name} --runner {runner}: exit {code}, {said:?}"));
            }
            // The fork server compiled the file itself (but where compiling crashes it).
            if runner == "fork" && name != "long_chain" {
                for run in runs {
                    assert_eq!(run["runner"], "fork", "{name}: {run:#}");
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
