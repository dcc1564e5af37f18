//! The mistakes of a class (issue 44): `grade` groups each exercise's failing students by
//! the causes their hints name, then by the same wrong output, in mistakes.json and in the
//! HTML report's mistakes page, names and output escaped.

use super::{grade_class, read, write};
use crate::common::root;
use serde_json::Value;
use std::path::Path;

/// A student whose folder name is markup and a terminal escape.
const HOSTILE: &str = "<img src=x onerror=alert(1)>\x1b[2J";

/// Output that would close the example's `<pre>` and run a script.
const MARKUP: &str = "</pre><script>alert(1)</script>";

/// A class that handed in present_board: the model solution, mistakes of the corpus
/// (tests/submissions), and two programs that print markup and crash on different lines,
/// which no hint explains.
fn class(dir: &Path) {
    let read_root = |path: &str| std::fs::read_to_string(root().join(path)).unwrap();
    let corpus =
        |mistake: &str| read_root(&format!("tests/submissions/{mistake}/present_board.py"));
    let crash = |blank_lines: &str| format!("print({MARKUP:?})\n{blank_lines}print(1 // 0)\n");
    let students = [
        ("ada", read_root("exercises/present_board/solution.py")),
        ("bob", corpus("debug_print")),
        ("cy", corpus("debug_print")),
        (HOSTILE, corpus("debug_print")),
        ("dee", corpus("zero_based_row")),
        ("eve", corpus("missing_header")),
        // Two hints: no `Nim:` line, and a list of lines printed.
        ("gus", corpus("lines_not_joined")),
        ("hal", crash("")),
        ("ivy", crash("\n\n\n")),
    ];
    for (student, source) in students {
        write(&dir.join(student).join("present_board.py"), &source);
    }
}

/// Each group of an exercise's mistakes: its hint's id (or `same_output`) and its students.
fn groups(exercise: &Value) -> Vec<(String, Vec<String>)> {
    let text = |v: &Value| v.as_str().unwrap().to_string();
    exercise["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|group| {
            let students: Vec<String> = group["students"]
                .as_array()
                .unwrap()
                .iter()
                .map(text)
                .collect();
            assert_eq!(group["count"], students.len(), "{group:#}");
            let cause = match group["cause"]["kind"].as_str().unwrap() {
                "hint" => text(&group["cause"]["id"]),
                other => other.to_string(),
            };
            (cause, students)
        })
        .collect()
}

fn group<'a>(exercise: &'a Value, cause: &str) -> &'a Value {
    exercise["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["cause"]["id"] == cause || g["cause"]["kind"] == cause)
        .unwrap_or_else(|| panic!("no group {cause}: {exercise:#}"))
}

#[test]
fn grade_groups_a_classs_mistakes_by_the_hints_that_name_them() {
    let dir = tempfile::tempdir().unwrap();
    let class_dir = dir.path().join("class");
    class(&class_dir);
    let out = dir.path().join("out");
    grade_class(&class_dir, &out, &["--python", "3"])
        .assert()
        .success();
    let mistakes: Value = serde_json::from_str(&read(&out, "mistakes.json")).unwrap();
    let exercises = mistakes["exercises"].as_array().unwrap();
    // Every exercise of the lab, in its order; nothing handed in, nothing failed.
    assert_eq!(exercises.len(), 11);
    assert_eq!(exercises[1]["exercise"], "make_move");
    assert!(exercises[1]["groups"].as_array().unwrap().is_empty());
    let board = &exercises[0];
    assert_eq!(board["exercise"], "present_board");
    assert_eq!(
        (&board["graded"], &board["failing"]),
        (&9.into(), &8.into())
    );
    let owned = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        groups(board),
        vec![
            ("debug_print".to_string(), owned(&[HOSTILE, "bob", "cy"])),
            ("missing_header".to_string(), owned(&["eve", "gus"])),
            ("same_output".to_string(), owned(&["hal", "ivy"])),
            ("lines_as_list".to_string(), owned(&["gus"])),
            ("zero_based_row".to_string(), owned(&["dee"])),
        ]
    );
    let debug = group(board, "debug_print");
    assert_eq!(debug["cause"]["title"], "Debug prints in the output");
    let example = &debug["example"];
    assert_eq!(example["student"], HOSTILE);
    assert_eq!(example["case"], "sample/01-four-rows");
    assert_eq!(example["interpreter"], "3");
    assert!(
        example["got"]
            .as_str()
            .unwrap()
            .starts_with("DEBUG board = [1, 3, 5, 2]\nNim:")
    );
    assert!(
        example["hint"]
            .as_str()
            .unwrap()
            .contains("remove debug prints")
    );
    // The crashes: every case failed the same way, whatever line each crashed on.
    let crashed = group(board, "same_output");
    let cases = crashed["cause"]["cases"].as_array().unwrap();
    assert!(
        cases.len() > 10 && cases[0] == "sample/01-four-rows",
        "{cases:?}"
    );
    assert_eq!(crashed["example"]["verdict"], "runtime_error");
    assert_eq!(crashed["example"]["got"], format!("{MARKUP}\n"));
    assert!(crashed["example"].get("hint").is_none());

    // The HTML report's page, linked from its index, with every student's string escaped.
    let index = read(&out, "report/index.html");
    assert!(index.contains("<a href=\"mistakes.html\">"), "{index}");
    let page = read(&out, "report/mistakes.html");
    assert!(
        !page.contains("<img") && !page.contains("<script"),
        "{page}"
    );
    assert!(!page.contains('\x1b'), "{page}");
    assert!(
        page.contains("&lt;img src=x onerror=alert(1)&gt;\\x1b[2J"),
        "{page}"
    );
    assert!(
        page.contains("&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{page}"
    );
    assert!(
        page.contains("3 student(s): hint: Debug prints in the output"),
        "{page}"
    );
    assert!(
        page.contains("<a href=\"students/bob.html\">bob</a>"),
        "{page}"
    );
}
