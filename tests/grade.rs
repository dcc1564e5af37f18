//! `nimlab grade` and `nimlab merge` on the demo class (tests/demo-class): full, partial,
//! missing and crashing submissions, every report, the cache, and shards.

mod common;

use common::{nimlab, root};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn demo() -> PathBuf {
    root().join("tests/demo-class")
}

fn grade(out: &Path, extra: &[&str]) -> (std::process::Output, Duration) {
    let started = Instant::now();
    let output = nimlab()
        .arg("grade")
        .arg(demo())
        .arg("--out")
        .arg(out)
        .arg("--roster")
        .arg(demo().join("roster.csv"))
        .args(["--python", "3"])
        .args(extra)
        .output()
        .unwrap();
    (output, started.elapsed())
}

/// `nimlab grade CLASS --out OUT ARGS...`, for classes made by a test.
fn grade_class(class: &Path, out: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut command = nimlab();
    command
        .arg("grade")
        .arg(class)
        .arg("--out")
        .arg(out)
        .args(args);
    command
}

/// One student's entry for one exercise in results.json.
fn entry<'a>(results: &'a Value, student: &str, exercise: &str) -> &'a Value {
    &results["students"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["student"] == student)
        .unwrap_or_else(|| panic!("{student} is not in results.json"))["exercises"][exercise]
}

fn read(out: &Path, file: &str) -> String {
    std::fs::read_to_string(out.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// results.json without what may differ between runs (timings).
fn results_without_timings(out: &Path) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.remove("time_ms");
                map.remove("wall_ms");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut value: Value = serde_json::from_str(&read(out, "results.json")).unwrap();
    strip(&mut value);
    value
}

fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

#[test]
fn the_demo_class_is_graded_into_every_report() {
    let out = tempfile::tempdir().unwrap();
    let (output, _) = grade(out.path(), &[]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("Graded 10 submission(s) of 5 student(s)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("not attributed to a student's exercise: notes.txt"),
        "{stdout}"
    );

    let book = csv_rows(&read(out.path(), "gradebook.csv"));
    let header = &book[0];
    assert_eq!(header.first().map(String::as_str), Some("student"));
    assert_eq!(header.last().map(String::as_str), Some("total"));
    let row = |student: &str| {
        book.iter()
            .find(|r| r[0] == student)
            .unwrap_or_else(|| panic!("{student} missing"))
    };
    let cell = |student: &str, column: &str| -> f64 {
        let i = header.iter().position(|h| h == column).unwrap();
        row(student)[i].parse().unwrap()
    };
    // Full marks where Ada handed in model solutions; nothing where she handed in nothing.
    for exercise in ["present_board", "make_move", "bitwise_xor", "optimal_move"] {
        assert_eq!(cell("ada", exercise), 10.0, "{exercise}");
    }
    assert_eq!(cell("ada", "total"), 40.0);
    // Partial credit: the secret and sample cases Bob's 0-based make_move still passes.
    let partial = cell("bob", "make_move");
    assert!(partial > 0.0 && partial < 10.0, "{partial}");
    assert_eq!(
        cell("bob", "present_board"),
        0.0,
        "debug prints fail every case"
    );
    // Carol's crash and syntax error score nothing; Dave handed in nothing at all.
    assert_eq!(cell("carol", "total"), 0.0);
    assert_eq!(cell("dave", "total"), 0.0);
    let erin = cell("erin", "bin_num");
    assert!(
        erin > 0.0 && erin < 10.0,
        "the flat platform-style file is Erin's: {erin}"
    );
    for student in ["ada", "bob", "carol", "dave", "erin"] {
        let sum: f64 = header[1..header.len() - 1]
            .iter()
            .map(|e| cell(student, e))
            .sum();
        assert!((sum - cell(student, "total")).abs() < 0.02, "{student}");
    }

    let results: Value = serde_json::from_str(&read(out.path(), "results.json")).unwrap();
    let exercise = |student: &str, name: &str| -> Value { entry(&results, student, name).clone() };
    assert_eq!(
        exercise("carol", "nim_sum")["report"]["verdict"],
        "runtime_error"
    );
    assert_eq!(
        exercise("carol", "exclusive_or")["report"]["verdict"],
        "syntax_error"
    );
    assert_eq!(exercise("dave", "ui")["status"], "missing");
    assert_eq!(exercise("bob", "make_move")["file"], "bob/make_move.py");
    assert!(
        exercise("bob", "make_move")["report"]["runs"][0]["cases"]
            .as_array()
            .unwrap()
            .len()
            > 12
    );

    let canvas = csv_rows(&read(out.path(), "canvas.csv"));
    assert_eq!(&canvas[0][..3], ["Student", "ID", "Section"]);
    assert_eq!(canvas[1][0], "Points Possible");
    assert!(
        canvas
            .iter()
            .any(|r| r[0] == "Ada Lovelace" && r[1] == "1001" && r[2] == "A")
    );
    let moodle = csv_rows(&read(out.path(), "moodle.csv"));
    assert_eq!(moodle[0][0], "ID number");
    assert!(moodle.iter().any(|r| r[0] == "1004"));

    let junit = read(out.path(), "junit.xml");
    assert_eq!(junit.matches("<testsuite ").count(), 5);
    assert_eq!(junit.matches("<testcase ").count(), 5 * 9);
    assert!(junit.contains("runtime error: 0 of 10 points"), "{junit}");

    let gradescope: Value =
        serde_json::from_str(&read(out.path(), "gradescope/ada/results.json")).unwrap();
    assert_eq!(gradescope["score"], 40.0);
    assert_eq!(gradescope["tests"].as_array().unwrap().len(), 9);
    assert!(out.path().join("gradescope/dave/results.json").exists());
}

#[test]
fn a_rerun_uses_the_cache_and_force_grades_again() {
    let out = tempfile::tempdir().unwrap();
    let (first, first_time) = grade(out.path(), &[]);
    assert!(first.status.success());
    let before = results_without_timings(out.path());
    let (second, second_time) = grade(out.path(), &[]);
    assert!(second.status.success());
    assert_eq!(
        results_without_timings(out.path()),
        before,
        "a re-run gives the same results"
    );
    assert!(
        second_time * 4 < first_time,
        "cached: {second_time:?} against {first_time:?}"
    );
    let (forced, forced_time) = grade(out.path(), &["--force"]);
    assert!(forced.status.success());
    assert!(
        forced_time > second_time * 2,
        "--force grades again: {forced_time:?}"
    );
    assert_eq!(results_without_timings(out.path()), before);
}

#[test]
fn shards_merged_give_exactly_the_reports_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    assert!(grade(&whole, &[]).0.status.success());
    let mut parts = Vec::new();
    for k in 1..=3 {
        let part = dir.path().join(format!("part{k}"));
        assert!(
            grade(&part, &["--shard", &format!("{k}/3")])
                .0
                .status
                .success()
        );
        parts.push(part);
    }
    let merged = dir.path().join("merged");
    nimlab()
        .arg("merge")
        .args(&parts)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    for file in [
        "gradebook.csv",
        "canvas.csv",
        "moodle.csv",
        "junit.xml",
        "gradescope/bob/results.json",
    ] {
        assert_eq!(read(&merged, file), read(&whole, file), "{file}");
    }
    assert_eq!(
        results_without_timings(&merged),
        results_without_timings(&whole)
    );
    // Every student is in exactly one shard.
    let students: usize = parts
        .iter()
        .map(|p| csv_rows(&read(p, "gradebook.csv")).len() - 1)
        .sum();
    assert_eq!(students, 5);
    // A student in two shards is refused.
    let twice = dir.path().join("twice");
    nimlab()
        .arg("merge")
        .arg(&parts[0])
        .arg(&parts[0])
        .arg("--out")
        .arg(&twice)
        .assert()
        .code(2);
}

#[test]
fn both_interpreters_are_recorded() {
    let class = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(class.path().join("ada")).unwrap();
    std::fs::copy(
        root().join("exercises/ui/solution.py"),
        class.path().join("ada/ui.py"),
    )
    .unwrap();
    let out = class.path().join("out");
    grade_class(class.path(), &out, &["--python", "3,2.7"])
        .assert()
        .success();
    let results: Value = serde_json::from_str(&read(&out, "results.json")).unwrap();
    let runs = results["students"][0]["exercises"]["ui"]["report"]["runs"]
        .as_array()
        .unwrap()
        .clone();
    let versions: Vec<&str> = runs
        .iter()
        .map(|r| r["version"].as_str().unwrap())
        .collect();
    assert!(
        versions[0].starts_with("3.") && versions[1].starts_with("2.7"),
        "{versions:?}"
    );
}

#[test]
fn a_flat_file_cannot_import_another_students_file() {
    let class = tempfile::tempdir().unwrap();
    // Frank's bitwise_xor imports exclusive_or; Grace's exclusive_or lies beside it, flat.
    std::fs::copy(
        root().join("tests/submissions/missing_sibling/bitwise_xor.py"),
        class.path().join("frank_1_bitwise_xor.py"),
    )
    .unwrap();
    std::fs::copy(
        root().join("exercises/exclusive_or/solution.py"),
        class.path().join("exclusive_or.py"),
    )
    .unwrap();
    let out = class.path().join("out");
    grade_class(class.path(), &out, &["--python", "3"])
        .assert()
        .success();
    let results: Value = serde_json::from_str(&read(&out, "results.json")).unwrap();
    assert_eq!(
        entry(&results, "frank", "bitwise_xor")["report"]["verdict"],
        "runtime_error"
    );
    assert!(
        results["unattributed"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == "exclusive_or.py")
    );
}

#[test]
fn bad_input_is_refused_naming_the_file() {
    let out = tempfile::tempdir().unwrap();
    nimlab()
        .args(["grade", "no/such/class", "--out"])
        .arg(out.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no/such/class: no such folder"));
    let roster = out.path().join("roster.csv");
    std::fs::write(&roster, "name,id\nAda,1\n").unwrap();
    nimlab()
        .arg("grade")
        .arg(demo())
        .arg("--out")
        .arg(out.path().join("o"))
        .arg("--roster")
        .arg(&roster)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "roster.csv: the roster needs a `student` column",
        ));
    nimlab()
        .args(["grade", "x", "--out", "y", "--shard", "3/2"])
        .assert()
        .code(2);
}

/// Loads a page in headless Chromium (Debian's package); returns the rendered DOM and what
/// Chromium logged, or None where Chromium is not installed (CI installs it).
fn chromium(page: &Path, screenshot: &Path) -> Option<(String, String)> {
    let binary = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|b| Path::new(b).exists());
    let Some(binary) = binary else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install chromium for the HTML report test"
        );
        eprintln!("chromium is not installed: the HTML report was not loaded in a browser");
        return None;
    };
    let profile = tempfile::tempdir().unwrap();
    let flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--enable-logging=stderr",
        "--v=0",
        "--window-size=1100,1400",
    ];
    let url = format!("file://{}", page.display());
    let run = |extra: &str| {
        std::process::Command::new(binary)
            .args(flags)
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(extra)
            .arg(&url)
            .output()
            .unwrap()
    };
    let dom = run("--dump-dom");
    let shot = run(&format!("--screenshot={}", screenshot.display()));
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&dom.stderr),
        String::from_utf8_lossy(&shot.stderr)
    );
    Some((String::from_utf8_lossy(&dom.stdout).into_owned(), log))
}

#[test]
fn the_html_report_loads_in_a_browser_with_its_charts() {
    let out = tempfile::tempdir().unwrap();
    assert!(grade(out.path(), &[]).0.status.success());
    let index = out.path().join("report/index.html");
    let html = read(out.path(), "report/index.html");
    // Self-contained: nothing fetched from anywhere, no scripts.
    for outside in ["http://", "https://", "<script", "<link"] {
        assert!(!html.contains(outside), "{outside}");
    }
    for student in ["ada", "bob", "carol", "dave", "erin"] {
        let page = read(out.path(), &format!("report/students/{student}.html"));
        assert!(page.contains("Class report"), "{student}");
    }
    let bob = read(out.path(), "report/students/bob.html");
    assert!(
        bob.contains("It looks like you used `row` as a list index"),
        "the same feedback as nimlab check"
    );
    let screenshot = out.path().join("report.png");
    let Some((dom, log)) = chromium(&index, &screenshot) else {
        return;
    };
    for line in log.lines() {
        let console_error =
            line.contains("CONSOLE") && (line.contains("error") || line.contains("Uncaught"));
        assert!(!console_error, "console error: {line}");
    }
    assert!(
        dom.contains("id=\"histogram\"") && dom.contains("id=\"exercises\""),
        "charts in the rendered DOM"
    );
    assert!(dom.matches("<rect").count() > 20, "the charts have bars");
    let bars_with_width = dom
        .split("<rect")
        .skip(1)
        .filter(|r| r.contains("fill=\"#2f8f4e\"") && !r.contains("width=\"0\""))
        .count();
    assert!(bars_with_width > 5, "some pass-rate bars are drawn");
    let size = std::fs::metadata(&screenshot).map(|m| m.len()).unwrap_or(0);
    assert!(
        size > 20_000,
        "the screenshot shows a rendered page ({size} bytes)"
    );
    let (student_dom, _) = chromium(
        &out.path().join("report/students/bob.html"),
        &out.path().join("bob.png"),
    )
    .unwrap();
    assert!(student_dom.contains("make_move") || student_dom.contains("Make a move"));
}

#[test]
fn a_second_file_for_the_same_exercise_is_listed_not_graded() {
    let class = tempfile::tempdir().unwrap();
    let solution = root().join("exercises/exclusive_or/solution.py");
    // Two attempts, flat as a platform names them: the last by name counts.
    std::fs::write(
        class.path().join("hana_1_attempt1_exclusive_or.py"),
        "print(0)\n",
    )
    .unwrap();
    std::fs::copy(
        &solution,
        class.path().join("hana_1_attempt2_exclusive_or.py"),
    )
    .unwrap();
    std::fs::create_dir(class.path().join("ivan")).unwrap();
    std::fs::copy(&solution, class.path().join("ivan/exclusive_or.py")).unwrap();
    let grade_into = |out: &Path, extra: &[&str]| {
        grade_class(class.path(), out, &[&["--python", "3"], extra].concat())
            .output()
            .unwrap()
    };
    let work = tempfile::tempdir().unwrap();
    let whole = work.path().join("whole");
    let output = grade_into(&whole, &[]);
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "not graded, another file counts: hana_1_attempt1_exclusive_or.py (graded instead: hana_1_attempt2_exclusive_or.py)"
        ),
        "{stdout}"
    );
    let results: Value = serde_json::from_str(&read(&whole, "results.json")).unwrap();
    assert_eq!(
        results["superseded"],
        serde_json::json!([{
            "file": "hana_1_attempt1_exclusive_or.py",
            "graded": "hana_1_attempt2_exclusive_or.py"
        }])
    );
    let hana = entry(&results, "hana", "exclusive_or");
    assert_eq!(hana["file"], "hana_1_attempt2_exclusive_or.py");
    assert_eq!(hana["report"]["verdict"], "accepted");
    let index = read(&whole, "report/index.html");
    assert!(index.contains("Files not graded because another counts"));
    assert!(index.contains("hana_1_attempt1_exclusive_or.py"));

    // Shards list only their own students' files; merged, the list is the one run's.
    let parts: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let part = work.path().join(format!("part{k}"));
            assert!(
                grade_into(&part, &["--shard", &format!("{k}/2")])
                    .status
                    .success()
            );
            part
        })
        .collect();
    let listed: usize = parts
        .iter()
        .map(|p| {
            let r: Value = serde_json::from_str(&read(p, "results.json")).unwrap();
            r["superseded"].as_array().unwrap().len()
        })
        .sum();
    assert_eq!(listed, 1);
    let merged = work.path().join("merged");
    nimlab()
        .arg("merge")
        .args(&parts)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    assert_eq!(
        results_without_timings(&merged),
        results_without_timings(&whole)
    );
}

#[test]
fn identical_submissions_of_two_students_each_get_their_own_report() {
    let class = tempfile::tempdir().unwrap();
    // The same crashing file from two students: a traceback names the file that ran.
    let crash = "a, b = input().split()\nraise ValueError('no idea yet')\n";
    for name in ["ann_1_exclusive_or.py", "ben_2_exclusive_or.py"] {
        std::fs::write(class.path().join(name), crash).unwrap();
    }
    let out = class.path().join("out");
    for round in ["first run", "cached run"] {
        grade_class(class.path(), &out, &["--python", "3", "--jobs", "1"])
            .assert()
            .code(0);
        let results: Value = serde_json::from_str(&read(&out, "results.json")).unwrap();
        for (student, file, other) in [
            ("ann", "ann_1_exclusive_or.py", "ben_2"),
            ("ben", "ben_2_exclusive_or.py", "ann_1"),
        ] {
            let report = &entry(&results, student, "exclusive_or")["report"];
            assert_eq!(report["submission"], file, "{round}");
            assert_eq!(report["verdict"], "runtime_error", "{round}");
            let text = report.to_string();
            assert!(text.contains(file), "{round}: {text}");
            assert!(
                !text.contains(other),
                "{round}: {student} sees {other}: {text}"
            );
        }
    }
    // Ann hands in a new version: her old result leaves the cache, Ben's stays.
    let cached = || {
        let mut names: Vec<String> = std::fs::read_dir(out.join(".cache"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let before = cached();
    assert_eq!(before.len(), 2, "{before:?}");
    std::fs::copy(
        root().join("exercises/exclusive_or/solution.py"),
        class.path().join("ann_1_exclusive_or.py"),
    )
    .unwrap();
    grade_class(class.path(), &out, &["--python", "3"])
        .assert()
        .code(0);
    let after = cached();
    assert_eq!(after.len(), 2, "{after:?}");
    assert_eq!(
        before.iter().filter(|name| after.contains(name)).count(),
        1,
        "{before:?} then {after:?}"
    );
}
