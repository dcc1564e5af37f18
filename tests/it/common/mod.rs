//! Helpers shared by the integration tests: the real binary, the repository's files, and
//! small lab folders made for one test.
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The built-in lab's exercises in its order, read from the lab itself.
pub fn exercises() -> Vec<String> {
    let lab = nimlab::lab::Lab::built_in().expect("the built-in lab loads");
    lab.names().into_iter().map(str::to_string).collect()
}

/// The exercises that answer one stdin case: all but the interactive ones.
pub fn stdin_exercises() -> Vec<String> {
    let lab = nimlab::lab::Lab::built_in().expect("the built-in lab loads");
    lab.exercises
        .iter()
        .filter(|e| e.has_reference())
        .map(|e| e.name.clone())
        .collect()
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The nimlab binary, without colour, as a script would run it.
pub fn nimlab() -> Command {
    let mut command = Command::cargo_bin("nimlab").expect("the nimlab binary is built");
    command.env("NO_COLOR", "1").env_remove("CLICOLOR_FORCE");
    command
}

/// `nimlab check ... --format json`: the report and the exit code.
pub fn check_json(args: &[&str]) -> (Value, i32) {
    let output = nimlab()
        .arg("check")
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("nimlab runs");
    let code = output.status.code().expect("nimlab exits");
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not a JSON report ({e}); exit {code}\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (report, code)
}

/// Every hint in a report: per case and overall.
pub fn all_hints(report: &Value) -> Vec<String> {
    let mut hints: Vec<String> = report["hints"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| h.as_str().map(str::to_string))
        .collect();
    for run in report["runs"].as_array().into_iter().flatten() {
        for case in run["cases"].as_array().into_iter().flatten() {
            for hint in case["feedback"]["hints"].as_array().into_iter().flatten() {
                hints.push(hint.as_str().unwrap_or_default().to_string());
            }
        }
        if let Some(hint) = run["syntax"]["hint"].as_str() {
            hints.push(hint.to_string());
        }
    }
    hints
}

pub fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A lab folder holding copies of some built-in exercises, with `edit` applied to each
/// exercise.toml (as a TOML table).
pub fn lab_with(exercises: &[&str], edit: impl Fn(&mut toml::Table)) -> tempfile::TempDir {
    let lab = tempfile::tempdir().unwrap();
    for name in exercises {
        let exercise_dir = lab.path().join("exercises").join(name);
        copy_dir(&root().join("exercises").join(name), &exercise_dir);
        let fixtures = root().join("fixtures").join(name);
        if fixtures.exists() {
            copy_dir(&fixtures, &lab.path().join("fixtures").join(name));
        }
        let config_path = exercise_dir.join("exercise.toml");
        let mut config: toml::Table = std::fs::read_to_string(&config_path)
            .unwrap()
            .parse()
            .unwrap();
        edit(&mut config);
        std::fs::write(&config_path, toml::to_string(&config).unwrap()).unwrap();
    }
    lab
}

pub fn python_2_7_available() -> bool {
    nimlab_interpreter_found("2.7")
}

fn nimlab_interpreter_found(version: &str) -> bool {
    let (report, _) = check_json(&[
        root()
            .join("exercises/exclusive_or/solution.py")
            .to_str()
            .unwrap(),
        "--exercise",
        "exclusive_or",
        "--python",
        version,
    ]);
    report["runs"][0]["verdict"] != "skipped"
}

/// Processes whose command line mentions `needle`, from /proc.
pub fn processes_mentioning(needle: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|cmdline| String::from_utf8_lossy(cmdline).contains(needle))
        .count()
}

/// The number that follows `label` on a line of `text`.
pub fn number_after(text: &str, label: &str) -> f64 {
    let line = text
        .lines()
        .find(|l| l.contains(label))
        .unwrap_or_else(|| panic!("no line with {label:?} in:\n{text}"));
    let rest = &line[line.find(label).unwrap() + label.len()..];
    rest.split_whitespace()
        .find_map(|word| word.trim_end_matches(['x', ',']).parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no number after {label:?} in {line:?}"))
}
