//! Snapshots of what students see: the text report and the JSON report for each kind of
//! failure. Timings, paths and the interpreter's exact version are redacted.

mod common;

use common::{nimlab, root};

fn report(folder: &str, file: &str, format: &str) -> String {
    let path = root().join("tests/submissions").join(folder).join(file);
    let output = nimlab()
        .current_dir(root())
        .arg("check")
        .arg(path.strip_prefix(root()).unwrap())
        .args(["--python", "3", "--jobs", "1", "--format", format])
        .output()
        .unwrap();
    String::from_utf8(output.stdout).unwrap()
}

fn settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(r"\d+ ms", "[T] ms");
    settings.add_filter(r#""(time_ms|wall_ms)": \d+"#, r#""$1": "[T]""#);
    settings.add_filter(r"Python 3\.\d+\.\d+", "Python 3.x");
    settings.add_filter(r#""version": "3\.\d+\.\d+""#, r#""version": "3.x""#);
    settings.add_filter(r#"  \(/[^)]*python[^)]*\)"#, "  ([PYTHON])");
    settings.add_filter(r#""path": "/[^"]*""#, r#""path": "[PYTHON]""#);
    settings.add_filter(&regex_escape(&root().display().to_string()), "[ROOT]");
    // Whether this machine can isolate is not part of what a report says about a submission.
    settings.add_filter(r"(?m)^(isolated|not isolated).*$", "[ISOLATION]");
    settings.add_filter(r#""isolation": "[^"]*""#, r#""isolation": "[ISOLATION]""#);
    settings
}

fn regex_escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if "\\.+*?()|[]{}^$".contains(c) {
                vec!['\\', c]
            } else {
                vec![c]
            }
        })
        .collect()
}

#[test]
fn text_report_of_a_wrong_answer() {
    settings().bind(|| insta::assert_snapshot!(report("zero_based_row", "make_move.py", "text")));
}

#[test]
fn text_report_of_a_runtime_error() {
    settings().bind(|| insta::assert_snapshot!(report("crash", "nim_sum.py", "text")));
}

#[test]
fn text_report_of_a_syntax_error() {
    settings().bind(|| insta::assert_snapshot!(report("python3_print", "exclusive_or.py", "text")));
}

#[test]
fn text_report_of_a_checker_rejection() {
    settings().bind(|| insta::assert_snapshot!(report("target_size", "optimal_move.py", "text")));
}

#[test]
fn json_report_of_a_wrong_answer() {
    settings().bind(|| insta::assert_snapshot!(report("reversed_digits", "bin_num.py", "json")));
}

#[test]
fn text_report_of_a_game_that_crashes() {
    settings().bind(|| {
        insta::assert_snapshot!(report("game_crash_on_bad_input", "working_game.py", "text"))
    });
}
