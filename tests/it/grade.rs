//! `nimlab grade` and `nimlab merge` on the demo class (tests/demo-class): full, partial,
//! missing and crashing submissions, every report, the cache, and shards.

use crate::common;

mod class_mistakes;

use crate::common::{nimlab, root};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn demo() -> PathBuf {
    root().join("tests/demo-class")
}

fn grade(out: &Path, extra: &[&str]) -> std::process::Output {
    nimlab()
        .arg("grade")
        .arg(demo())
        .arg("--out")
        .arg(out)
        .arg("--roster")
        .arg(demo().join("roster.csv"))
        .args(["--python", "3"])
        .args(extra)
        .output()
        .unwrap()
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
// A story told in order: one grading run, and each of the reports it writes checked in turn.
#[allow(clippy::too_many_lines)]
fn the_demo_class_is_graded_into_every_report() {
    let out = tempfile::tempdir().unwrap();
    let output = grade(out.path(), &[]);
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
    assert_eq!(&header[..2], ["student", "student_id"]);
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
        let sum: f64 = header[2..header.len() - 1]
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

    // Canvas's importer reads its student columns so: `Student`, `ID` (its own user id),
    // then `SIS User ID` only where `SIS Login ID` follows, and `Section` last; the roster's id
    // is the SIS id, and the name finds a student without one.
    let canvas = csv_rows(&read(out.path(), "canvas.csv"));
    assert_eq!(
        &canvas[0][..5],
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    );
    assert_eq!(canvas[0][5], "nimlab: Present the board");
    assert_eq!(canvas[1][..6], ["Points Possible", "", "", "", "", "10"]);
    assert!(
        canvas
            .iter()
            .any(|r| r[..5] == ["Ada Lovelace", "", "1001", "", "A"]),
        "{canvas:?}"
    );
    let moodle = csv_rows(&read(out.path(), "moodle.csv"));
    assert_eq!(moodle[0][0], "ID number");
    assert!(moodle.iter().any(|r| r[0] == "1004"));

    let junit = read(out.path(), "junit.xml");
    assert_eq!(junit.matches("<testsuite ").count(), 5);
    // Every exercise of the lab, the two of further study included (not counted in the total).
    assert_eq!(junit.matches("<testcase ").count(), 5 * 11);
    assert!(junit.contains("runtime error: 0 of 10 points"), "{junit}");

    let gradescope: Value =
        serde_json::from_str(&read(out.path(), "gradescope/ada/results.json")).unwrap();
    assert_eq!(gradescope["score"], 40.0);
    assert_eq!(gradescope["tests"].as_array().unwrap().len(), 11);
    assert!(out.path().join("gradescope/dave/results.json").exists());
    // Erin's flat file carries the platform's participant ID: her id, and her files' name.
    assert_eq!(row("erin")[1], "erin_51234");
    assert!(
        out.path()
            .join("gradescope/erin_51234/results.json")
            .exists()
    );
}

/// Every case's measured times in results.json, in order.
fn timings(out: &Path) -> Vec<Value> {
    fn collect(value: &Value, into: &mut Vec<Value>) {
        match value {
            Value::Object(map) => {
                for (key, value) in map {
                    if key == "time_ms" || key == "wall_ms" {
                        into.push(value.clone());
                    } else {
                        collect(value, into);
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| collect(item, into)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    collect(
        &serde_json::from_str(&read(out, "results.json")).unwrap(),
        &mut found,
    );
    found
}

/// A cached report is the stored one, times included; a report judged again has times of its
/// own (each case's wall time, in milliseconds, over dozens of runs). Told apart that way, not
/// by how long the re-run took, which depends on the machine's load.
#[test]
fn a_rerun_uses_the_cache_and_force_grades_again() {
    let out = tempfile::tempdir().unwrap();
    let first = grade(out.path(), &[]);
    assert!(first.status.success());
    let before = results_without_timings(out.path());
    let first_timings = timings(out.path());
    assert!(
        first_timings
            .iter()
            .filter(|t| t.as_u64() > Some(0))
            .count()
            > 20,
        "the first run measured its cases: {first_timings:?}"
    );
    let second = grade(out.path(), &[]);
    assert!(second.status.success());
    assert_eq!(
        results_without_timings(out.path()),
        before,
        "a re-run gives the same results"
    );
    assert_eq!(
        timings(out.path()),
        first_timings,
        "a re-run takes every report from the cache"
    );
    let forced = grade(out.path(), &["--force"]);
    assert!(forced.status.success());
    assert_eq!(results_without_timings(out.path()), before);
    assert_ne!(
        timings(out.path()),
        first_timings,
        "--force judges every submission again"
    );
}

#[test]
fn shards_merged_give_exactly_the_reports_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    assert!(grade(&whole, &[]).status.success());
    let mut parts = Vec::new();
    for k in 1..=3 {
        let part = dir.path().join(format!("part{k}"));
        assert!(
            grade(&part, &["--shard", &format!("{k}/3")])
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
        "mistakes.json",
        "report/mistakes.html",
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
    let some = parts
        .iter()
        .find(|p| csv_rows(&read(p, "gradebook.csv")).len() > 1)
        .unwrap();
    nimlab()
        .arg("merge")
        .arg(some)
        .arg(some)
        .arg("--out")
        .arg(&twice)
        .assert()
        .code(2);
}

#[test]
fn both_interpreters_are_recorded() {
    if !crate::common::needs_python_2_7() {
        return;
    }
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
/// Chromium logged, or None where Chromium is not installed and such tests are skipped on
/// purpose (see `common::tool_missing`).
fn chromium(page: &Path, screenshot: &Path) -> Option<(String, String)> {
    let binary = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|b| Path::new(b).exists());
    let Some(binary) = binary else {
        crate::common::tool_missing(
            "Chromium",
            "apt-get install chromium",
            "the HTML report was not loaded in a browser",
        );
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
    assert!(grade(out.path(), &[]).status.success());
    let index = out.path().join("report/index.html");
    let html = read(out.path(), "report/index.html");
    // Self-contained: nothing fetched from anywhere, no scripts.
    for outside in ["http://", "https://", "<script", "<link"] {
        assert!(!html.contains(outside), "{outside}");
    }
    for student in ["ada", "bob", "carol", "dave", "erin_51234"] {
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

// Hardening (issue 11): every student keyed and filed apart, every entry of the class folder
// read only if it is a regular file, every name shown escaped for its medium.

/// The exclusive_or exercise with its 4 sample cases only: the model solution scores 10,
/// `print(0)` scores 5.
fn quick_lab() -> tempfile::TempDir {
    let lab = common::lab_with(&["exclusive_or"], |_| {});
    std::fs::remove_dir_all(lab.path().join("fixtures/exclusive_or/secret")).unwrap();
    lab
}

const HALF_RIGHT: &str = "print(0)\n";

fn solution() -> String {
    std::fs::read_to_string(root().join("exercises/exclusive_or/solution.py")).unwrap()
}

/// `nimlab --lab LAB grade CLASS --out OUT --python 3 ARGS...`
fn grade_quick(lab: &Path, class: &Path, out: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut command = grade_class(class, out, &[&["--python", "3"], args].concat());
    command.arg("--lab").arg(lab);
    command
}

fn mkfifo(path: &Path) {
    let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid, NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0, "{path:?}");
}

fn write(path: &Path, contents: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, contents).unwrap();
}

/// Every student in results.json: (name, id, total).
fn students(results: &Value) -> Vec<(String, String, f64)> {
    results["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["student"].as_str().unwrap().to_string(),
                s["student_id"].as_str().unwrap().to_string(),
                s["total"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// The links of report/index.html's student table: (file stem, the cell's HTML).
fn student_links(index: &str) -> Vec<(String, String)> {
    index
        .split("<a href=\"students/")
        .skip(1)
        .map(|rest| {
            let (stem, rest) = rest.split_once(".html\">").unwrap();
            let (label, _) = rest.split_once("</a>").unwrap();
            (stem.to_string(), label.to_string())
        })
        .collect()
}

#[test]
fn students_whose_names_look_alike_each_get_their_own_files() {
    let lab = quick_lab();
    let class = tempfile::tempdir().unwrap();
    // Pairs that one character mapping would merge: the first of each scores 10, the second 5.
    let pairs = [
        ("Möller", "Müller"),
        ("张伟", "李娜"),
        ("Zoé", "Zoë"),
        ("a b", "a+b"),
        ("Ada", "ada"),
    ];
    for (full, half) in pairs {
        write(
            &class.path().join(full).join("exclusive_or.py"),
            &solution(),
        );
        write(&class.path().join(half).join("exclusive_or.py"), HALF_RIGHT);
    }
    let out = class.path().join("out");
    grade_quick(lab.path(), class.path(), &out, &["--jobs", "2"])
        .assert()
        .success();
    let results: Value = serde_json::from_str(&read(&out, "results.json")).unwrap();
    let students = students(&results);
    assert_eq!(students.len(), 10, "{students:?}");
    let links = student_links(&read(&out, "report/index.html"));
    assert_eq!(links.len(), 10);
    let stems: std::collections::BTreeSet<String> =
        links.iter().map(|(stem, _)| stem.to_lowercase()).collect();
    assert_eq!(stems.len(), 10, "no two students share a file: {links:?}");
    for (full, half) in pairs {
        for (name, score) in [(full, 10.0), (half, 5.0)] {
            let (_, id, total) = students.iter().find(|s| s.0 == name).unwrap();
            assert_eq!(*total, score, "{name}");
            // The index links the student to their own page and Gradescope result.
            let (stem, _) = links
                .iter()
                .find(|(_, label)| label == name)
                .unwrap_or_else(|| panic!("{name} has no link: {links:?}"));
            let gradescope: Value =
                serde_json::from_str(&read(&out, &format!("gradescope/{stem}/results.json")))
                    .unwrap();
            assert_eq!(
                gradescope["score"], score,
                "{name} ({id}) gets their own score"
            );
            let page = read(&out, &format!("report/students/{stem}.html"));
            assert!(page.contains(&format!("<h1>{name}")), "{name}: {page}");
            assert!(
                page.contains(&format!("{name}/exclusive_or.py")),
                "{name}'s page shows their own file"
            );
        }
    }
    let written: usize = std::fs::read_dir(out.join("gradescope")).unwrap().count();
    assert_eq!(written, 10);
}

#[test]
fn folders_named_with_underscores_are_each_a_student_of_their_own() {
    let lab = quick_lab();
    let class = tempfile::tempdir().unwrap();
    write(
        &class.path().join("maria_silva/exclusive_or.py"),
        &solution(),
    );
    write(
        &class.path().join("maria_souza/exclusive_or.py"),
        HALF_RIGHT,
    );
    let out = tempfile::tempdir().unwrap();
    let whole = out.path().join("whole");
    let output = grade_quick(lab.path(), class.path(), &whole, &[])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("Graded 2 submission(s) of 2 student(s)")
            && !stdout.contains("another file counts"),
        "{stdout}"
    );
    let results: Value = serde_json::from_str(&read(&whole, "results.json")).unwrap();
    assert_eq!(
        students(&results),
        [
            ("maria_silva".to_string(), "maria_silva".to_string(), 10.0),
            ("maria_souza".to_string(), "maria_souza".to_string(), 5.0),
        ]
    );
}

#[test]
// A story told in order: one class with namesakes, checked in every report it reaches.
#[allow(clippy::too_many_lines)]
fn namesakes_on_a_platform_are_two_students() {
    let lab = quick_lab();
    let class = tempfile::tempdir().unwrap();
    // Moodle's bulk download: name, participant ID, then the file.
    write(
        &class
            .path()
            .join("Wei Zhang_1001_assignsubmission_file_exclusive_or.py"),
        &solution(),
    );
    write(
        &class
            .path()
            .join("Wei Zhang_1002_assignsubmission_file_/exclusive_or.py"),
        HALF_RIGHT,
    );
    let work = tempfile::tempdir().unwrap();
    let whole = work.path().join("whole");
    let output = grade_quick(lab.path(), class.path(), &whole, &[])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("Graded 2 submission(s) of 2 student(s)"),
        "{stdout}"
    );
    assert!(!stdout.contains("another file counts"), "{stdout}");
    let results: Value = serde_json::from_str(&read(&whole, "results.json")).unwrap();
    assert_eq!(results["superseded"], serde_json::json!([]));
    assert_eq!(
        students(&results),
        [
            ("Wei Zhang".to_string(), "Wei Zhang_1001".to_string(), 10.0),
            ("Wei Zhang".to_string(), "Wei Zhang_1002".to_string(), 5.0),
        ]
    );
    let book = csv_rows(&read(&whole, "gradebook.csv"));
    assert_eq!(book[1][..2], ["Wei Zhang", "Wei Zhang_1001"]);
    assert_eq!(book[2][..2], ["Wei Zhang", "Wei Zhang_1002"]);
    let moodle = csv_rows(&read(&whole, "moodle.csv"));
    assert_eq!(moodle[1][0], "Wei Zhang_1001");
    assert_eq!(moodle[2][0], "Wei Zhang_1002");

    // A roster that names only "Wei Zhang" cannot say which: refused, naming both.
    let roster = work.path().join("roster.csv");
    std::fs::write(&roster, "student,name,id\nWei Zhang,Wei Zhang,1\n").unwrap();
    grade_quick(
        lab.path(),
        class.path(),
        &work.path().join("refused"),
        &["--roster", roster.to_str().unwrap()],
    )
    .assert()
    .code(2)
    .stderr(predicates::str::contains(
        "roster.csv: `Wei Zhang` is the name of 2 students (`Wei Zhang_1001`, `Wei Zhang_1002`)",
    ));
    // Named by their ids, each gets their own roster entry.
    std::fs::write(
        &roster,
        "student,name,id\nWei Zhang_1001,Wei Zhang (Physics),2001\nWei Zhang_1002,Wei Zhang (Maths),2002\n",
    )
    .unwrap();
    let with_roster = work.path().join("roster-out");
    grade_quick(
        lab.path(),
        class.path(),
        &with_roster,
        &["--roster", roster.to_str().unwrap()],
    )
    .assert()
    .success();
    let canvas = csv_rows(&read(&with_roster, "canvas.csv"));
    let row = |id: &str| canvas.iter().find(|r| r[2] == id).unwrap().clone();
    assert_eq!(row("2001")[0], "Wei Zhang (Physics)");
    assert_eq!(row("2001")[5], "10");
    assert_eq!(row("2002")[5], "5");

    // Sharded by id, merged: exactly one run.
    let parts: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let part = work.path().join(format!("part{k}"));
            grade_quick(
                lab.path(),
                class.path(),
                &part,
                &["--shard", &format!("{k}/2")],
            )
            .assert()
            .success();
            part
        })
        .collect();
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
    for file in [
        "gradebook.csv",
        "moodle.csv",
        "junit.xml",
        "report/index.html",
    ] {
        assert_eq!(read(&merged, file), read(&whole, file), "{file}");
    }
}

/// Runs nimlab with an address-space cap (so a regression fails instead of exhausting the
/// machine) and a deadline; returns its output and the largest resident size (MiB) of any
/// process this test binary has waited for.
fn run_bounded(args: &[&std::ffi::OsStr], deadline: Duration) -> (std::process::Output, i64) {
    use std::os::unix::process::CommandExt;
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_nimlab"));
    command
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    // SAFETY: only setrlimit, async-signal-safe, between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 4 << 30,
                rlim_max: 4 << 30,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > deadline {
            let _ = child.kill();
            let output = child.wait_with_output().unwrap();
            panic!(
                "nimlab still ran after {deadline:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage), 0);
        usage
    };
    (output, usage.ru_maxrss / 1024)
}

#[test]
fn a_fifo_a_link_to_dev_zero_or_a_huge_file_beside_a_submission_neither_hangs_nor_floods() {
    let lab = quick_lab();
    let class = tempfile::tempdir().unwrap();
    let ada = class.path().join("ada");
    write(&ada.join("exclusive_or.py"), &solution());
    // Beside Ada's file, where the cache key and the check look for modules to import.
    mkfifo(&ada.join("helper.py"));
    std::os::unix::fs::symlink("/dev/zero", ada.join("zero.py")).unwrap();
    std::fs::File::create(ada.join("huge.py"))
        .unwrap()
        .set_len(3 << 30)
        .unwrap();
    // Bob's submission itself is a 3 GB sparse file.
    let bob = class.path().join("bob");
    std::fs::create_dir(&bob).unwrap();
    std::fs::File::create(bob.join("exclusive_or.py"))
        .unwrap()
        .set_len(3 << 30)
        .unwrap();
    let out = class.path().join("out");
    let args: Vec<&std::ffi::OsStr> = vec![
        "--lab".as_ref(),
        lab.path().as_os_str(),
        "grade".as_ref(),
        class.path().as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--python".as_ref(),
        "3".as_ref(),
    ];
    for round in ["first run", "cached run"] {
        let (output, max_rss_mib) = run_bounded(&args, Duration::from_secs(120));
        assert!(
            output.status.success(),
            "{round}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            max_rss_mib < 512,
            "{round}: a process used {max_rss_mib} MiB"
        );
        let results: Value = serde_json::from_str(&read(&out, "results.json")).unwrap();
        let ada = entry(&results, "ada", "exclusive_or");
        assert_eq!(ada["report"]["verdict"], "accepted", "{round}: {ada:#}");
        let bob = entry(&results, "bob", "exclusive_or");
        assert_eq!(bob["status"], "error", "{round}: {bob:#}");
        assert!(
            bob["error"]
                .as_str()
                .unwrap()
                .contains("bob/exclusive_or.py: the submission is 3221225472 bytes"),
            "{round}: {bob:#}"
        );
        // The FIFO and the link are listed as not read, with the reason.
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains("not read: ada/helper.py: a named pipe (FIFO)"),
            "{round}: {stdout}"
        );
        assert!(
            stdout.contains("not read: ada/zero.py: a symbolic link"),
            "{round}: {stdout}"
        );
    }
}

#[test]
fn a_submission_that_is_a_link_or_a_fifo_is_listed_with_the_reason() {
    let lab = quick_lab();
    let class = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    write(&class.path().join("ada/exclusive_or.py"), &solution());
    std::fs::create_dir(class.path().join("bob")).unwrap();
    mkfifo(&class.path().join("bob/exclusive_or.py"));
    std::fs::create_dir(class.path().join("carol")).unwrap();
    // A link inside the class folder, and one out of it.
    std::os::unix::fs::symlink(
        "../ada/exclusive_or.py",
        class.path().join("carol/exclusive_or.py"),
    )
    .unwrap();
    write(&outside.path().join("exclusive_or.py"), &solution());
    std::fs::create_dir(class.path().join("dan")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("exclusive_or.py"),
        class.path().join("dan/exclusive_or.py"),
    )
    .unwrap();
    // A student folder that is a link out of the class folder.
    std::os::unix::fs::symlink(outside.path(), class.path().join("erin")).unwrap();
    // Flat, as a platform names it: a FIFO.
    mkfifo(&class.path().join("fay_7_exclusive_or.py"));
    let roster = class.path().join("roster.csv");
    std::fs::write(&roster, "student\nada\nbob\ncarol\ndan\nerin\nfay\n").unwrap();
    let out = tempfile::tempdir().unwrap();
    let output = grade_quick(
        lab.path(),
        class.path(),
        out.path(),
        &["--roster", roster.to_str().unwrap()],
    )
    .timeout(Duration::from_secs(120))
    .output()
    .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let results: Value = serde_json::from_str(&read(out.path(), "results.json")).unwrap();
    for (student, file, reason) in [
        ("bob", "bob/exclusive_or.py", "a named pipe (FIFO)"),
        ("carol", "carol/exclusive_or.py", "a symbolic link"),
        ("dan", "dan/exclusive_or.py", "a symbolic link"),
        ("fay", "fay_7_exclusive_or.py", "a named pipe (FIFO)"),
    ] {
        assert!(
            stdout.contains(&format!("not read: {file}: {reason}")),
            "{stdout}"
        );
        let result = entry(&results, student, "exclusive_or");
        assert_eq!(
            result["status"], "error",
            "{student} is not missing: {result:#}"
        );
        assert_eq!(result["file"], file);
        let error = result["error"].as_str().unwrap();
        assert!(
            error.starts_with(&format!("not graded: {file} is {reason}")),
            "{error}"
        );
        assert_eq!(result["points"], 0.0);
    }
    assert!(
        stdout.contains("not read: erin: a symbolic link"),
        "{stdout}"
    );
    assert_eq!(entry(&results, "erin", "exclusive_or")["status"], "missing");
    assert_eq!(
        entry(&results, "ada", "exclusive_or")["report"]["verdict"],
        "accepted"
    );
    let skipped = results["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 5, "{skipped:#?}");
    let index = read(out.path(), "report/index.html");
    assert!(index.contains("Files not read"));
    assert!(index.contains("fay_7_exclusive_or.py: a named pipe"));
}

#[test]
fn names_that_start_a_formula_stay_text_in_every_csv() {
    let lab = quick_lab();
    let class = tempfile::tempdir().unwrap();
    let hostile = [
        "=HYPERLINK(\"http:\\\\evil\",\"x\")",
        "+cmd",
        "-2+3",
        "@SUM(A1)",
    ];
    for name in hostile {
        write(&class.path().join(name).join("exclusive_or.py"), HALF_RIGHT);
    }
    let work = tempfile::tempdir().unwrap();
    let roster = work.path().join("roster.csv");
    let mut rows = String::from("student,name,id,section\n");
    for (i, name) in hostile.iter().enumerate() {
        let quoted = name.replace('"', "\"\"");
        rows.push_str(&format!("\"{quoted}\",\"=1+{i}\",@{i},-{i}\n"));
    }
    std::fs::write(&roster, rows).unwrap();
    let assert_text_cells = |out: &Path, file: &str| {
        let rows = csv_rows(&read(out, file));
        assert!(rows.len() > hostile.len(), "{file}");
        for cell in rows.iter().flatten() {
            assert!(
                !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "{file}: a cell starts a formula: {cell:?}"
            );
        }
        rows
    };
    for (out, args) in [
        (
            work.path().join("with-roster"),
            vec!["--roster", roster.to_str().unwrap()],
        ),
        (work.path().join("plain"), vec![]),
    ] {
        grade_quick(lab.path(), class.path(), &out, &args)
            .assert()
            .success();
        let book = assert_text_cells(&out, "gradebook.csv");
        assert!(
            book.iter()
                .any(|r| r[0] == "'=HYPERLINK(\"http:\\\\evil\",\"x\")"),
            "shown as text, not dropped: {book:?}"
        );
        assert!(book.iter().any(|r| r[0] == "'-2+3" && r[1] == "'-2+3"));
        let canvas = assert_text_cells(&out, "canvas.csv");
        let moodle = assert_text_cells(&out, "moodle.csv");
        if args.is_empty() {
            assert!(moodle.iter().any(|r| r[0] == "'@SUM(A1)"), "{moodle:?}");
            assert!(canvas.iter().any(|r| r[0] == "'+cmd"), "{canvas:?}");
        } else {
            assert!(
                canvas
                    .iter()
                    .any(|r| r[0] == "'=1+0" && r[2] == "'@0" && r[4] == "'-0")
            );
            assert!(moodle.iter().any(|r| r[0] == "'@3"), "{moodle:?}");
        }
    }
}

#[test]
fn names_reach_the_terminal_escaped_even_when_piped() {
    let lab = quick_lab();
    let class = tempfile::tempdir().unwrap();
    // A stray file whose name sets the window title; two attempts whose names clear the screen.
    write(&class.path().join("\x1b]0;owned\x07.txt"), "x");
    write(
        &class.path().join("mal\x1b[2J_1_attempt1_exclusive_or.py"),
        HALF_RIGHT,
    );
    write(
        &class.path().join("mal\x1b[2J_1_attempt2_exclusive_or.py"),
        HALF_RIGHT,
    );
    mkfifo(&class.path().join("eve_2_wrong\raccepted_exclusive_or.py"));
    let out = class.path().join("out");
    let output = grade_quick(lab.path(), class.path(), &out, &[])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    for raw in ['\x1b', '\x07', '\r'] {
        assert!(
            !stdout.contains(raw),
            "{raw:?} reached the terminal: {stdout:?}"
        );
    }
    for shown in [
        "not attributed to a student's exercise: \\x1b]0;owned\\x07.txt",
        "not graded, another file counts: mal\\x1b[2J_1_attempt1_exclusive_or.py (graded instead: mal\\x1b[2J_1_attempt2_exclusive_or.py)",
        "not read: eve_2_wrong\\raccepted_exclusive_or.py: a named pipe",
    ] {
        assert!(stdout.contains(shown), "{shown}\n{stdout}");
    }
}

#[test]
fn the_progress_bar_shows_names_escaped() {
    let script = Path::new("/usr/bin/script");
    if !script.exists() {
        crate::common::tool_missing(
            "`script` (util-linux)",
            "apt-get install util-linux",
            "the progress bar was not seen on a terminal",
        );
        return;
    }
    let lab = quick_lab();
    let class = tempfile::tempdir().unwrap();
    // Slow enough for the bar to be drawn with the student's name beside it.
    write(
        &class.path().join("own\x1b]0;owned\x07/exclusive_or.py"),
        "import time\ntime.sleep(0.4)\nprint(0)\n",
    );
    let out = class.path().join("out");
    let command = format!(
        "'{}' --lab '{}' grade '{}' --out '{}' --python 3 --jobs 1",
        env!("CARGO_BIN_EXE_nimlab"),
        lab.path().display(),
        class.path().display(),
        out.display()
    );
    // `script` gives nimlab a terminal, as a person running it has.
    let output = std::process::Command::new(script)
        .args(["-qefc", &command, "/dev/null"])
        .env_remove("CI")
        // A terminal that draws, whatever the caller's environment says (none, under env -i).
        .env("TERM", "xterm")
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(
        shown.contains("submissions"),
        "the bar was drawn: {shown:?}"
    );
    assert!(
        shown.contains("own\\x1b]0;owned\\x07 exclusive_or"),
        "{shown:?}"
    );
    assert!(!shown.contains("\x1b]0;owned"), "{shown:?}");
}

#[test]
fn html_and_junit_show_hostile_names_and_output_escaped() {
    let lab = quick_lab();
    let class = tempfile::tempdir().unwrap();
    let tag = "<img src=x onerror=alert(1)>";
    let controls = "ctl\x01\x0c\u{fffe}\u{85}x";
    write(&class.path().join(tag).join("exclusive_or.py"), HALF_RIGHT);
    write(
        &class.path().join(controls).join("exclusive_or.py"),
        HALF_RIGHT,
    );
    // Output that would close the <pre> and run a script, and restyle a terminal.
    write(
        &class.path().join("pat/exclusive_or.py"),
        "print('</pre><script>alert(1)</script>\\x1b[2J\\x07')\n",
    );
    let out = class.path().join("out");
    grade_quick(lab.path(), class.path(), &out, &[])
        .assert()
        .success();
    let index = read(&out, "report/index.html");
    assert!(!index.contains("<img"), "{index}");
    assert!(index.contains("&lt;img src=x onerror=alert(1)&gt;"));
    assert!(index.contains("ctl\\x01\\x0c\\u{fffe}\\x85x"), "{index}");
    let links = student_links(&index);
    for (stem, _) in &links {
        let page = read(&out, &format!("report/students/{stem}.html"));
        assert!(
            !page.contains("<img") && !page.contains("<script"),
            "{page}"
        );
        for raw in ['\x01', '\x0c', '\u{fffe}', '\x1b', '\x07'] {
            assert!(!page.contains(raw), "{raw:?} in {stem}.html");
        }
    }
    let (pat, _) = links.iter().find(|(_, label)| label == "pat").unwrap();
    let page = read(&out, &format!("report/students/{pat}.html"));
    assert!(page.contains("&lt;/pre&gt;&lt;script&gt;"), "{page}");

    // junit.xml parses with a strict XML 1.0 parser (Python's expat) and shows the names.
    let junit = out.join("junit.xml");
    let parsed = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as E\n\
             for s in E.parse(sys.argv[1]).getroot(): print(s.get('name'))",
        ])
        .arg(&junit)
        .output()
        .unwrap();
    assert!(
        parsed.status.success(),
        "junit.xml is not well-formed: {}",
        String::from_utf8_lossy(&parsed.stderr)
    );
    let names = String::from_utf8_lossy(&parsed.stdout);
    assert!(names.contains(tag), "{names}");
    assert!(names.contains("ctl\\x01\\x0c\\u{fffe}\\x85x"), "{names}");
}

/// What every run of a real fork runner was shown, and what it was told to let go of.
#[derive(Default)]
struct Seen {
    /// (the student a run's program names in its first line, the folders it was shown)
    runs: std::sync::Mutex<Vec<(String, Vec<PathBuf>)>>,
    finished: std::sync::Mutex<Vec<Vec<PathBuf>>>,
}

struct Recording {
    inner: nimlab_core::runner::ForkRunner,
    seen: std::sync::Arc<Seen>,
}

impl Recording {
    fn record(&self, spec: &nimlab_core::runner::RunSpec) {
        let program = spec.args.first().expect("a program");
        let source = std::fs::read_to_string(program).unwrap_or_default();
        let student = source.lines().next().unwrap_or_default().to_string();
        let mut runs = self.seen.runs.lock().unwrap();
        runs.push((student, spec.expose.to_vec()));
    }
}

impl nimlab_core::runner::Runner for Recording {
    fn run(
        &self,
        spec: &nimlab_core::runner::RunSpec,
    ) -> Result<nimlab_core::runner::RunOutcome, nimlab_core::error::RunnerError> {
        self.record(spec);
        self.inner.run(spec)
    }

    fn start(
        &self,
        spec: &nimlab_core::runner::RunSpec,
    ) -> Result<Box<dyn nimlab_core::runner::Session>, nimlab_core::error::RunnerError> {
        self.record(spec);
        self.inner.start(spec)
    }

    fn isolation(&self) -> &nimlab_core::runner::sandbox::Isolation {
        self.inner.isolation()
    }

    fn compile(&self, spec: &nimlab_core::runner::RunSpec) -> Option<Vec<u8>> {
        self.inner.compile(spec)
    }

    fn finished_with(&self, expose: &[PathBuf]) {
        self.seen.finished.lock().unwrap().push(expose.to_vec());
        self.inner.finished_with(expose);
    }
}

#[test]
fn a_students_submissions_share_one_scratch_folder_so_their_interpreters_serve_them_all() {
    let lab = nimlab_core::lab::Lab::built_in().unwrap();
    let class = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let exercises = ["present_board", "make_move", "working_game"];
    for student in ["ada", "bo", "cy"] {
        let folder = class.path().join(student);
        std::fs::create_dir_all(&folder).unwrap();
        for exercise in exercises {
            let solution =
                std::fs::read_to_string(root().join(format!("exercises/{exercise}/solution.py")))
                    .unwrap();
            std::fs::write(
                folder.join(format!("{exercise}.py")),
                format!("# {student}\n{solution}"),
            )
            .unwrap();
        }
    }
    let seen = std::sync::Arc::new(Seen::default());
    let options = nimlab_core::grade::GradeOptions {
        dir: class.path(),
        out: out.path(),
        interpreters: Some(vec!["3".into()]),
        jobs: 2,
        roster: None,
        shard: None,
        force: false,
        runner: Box::new(Recording {
            inner: nimlab_core::runner::ForkRunner::detect(),
            seen: std::sync::Arc::clone(&seen),
        }),
        stop: nimlab_core::stop::Stop::new(),
    };
    let book =
        nimlab_core::grade::grade(&lab, &options, &nimlab_core::grade::events::Quiet).unwrap();

    // Every submission was graded, in full, on the fast path.
    for student in &book.students {
        for exercise in exercises {
            let result = &student.exercises[exercise];
            let report = result
                .report
                .as_ref()
                .unwrap_or_else(|| panic!("{result:?}"));
            assert_eq!(report.score, report.max_score, "{exercise}");
            assert!(report.runs.iter().all(|r| r.runner == "fork"), "{report:?}");
        }
    }
    // Each student's runs, of all three exercises, were shown one folder, and no other
    // student's; each folder was let go of once, after its student's last run.
    let runs = seen.runs.lock().unwrap();
    let finished = seen.finished.lock().unwrap();
    let mut folders: std::collections::BTreeMap<&str, Vec<&Vec<PathBuf>>> = Default::default();
    for (student, expose) in runs.iter() {
        folders.entry(student.as_str()).or_default().push(expose);
    }
    assert_eq!(folders.len(), 3, "{:?}", folders.keys());
    let mut shown = Vec::new();
    for (student, exposes) in &folders {
        assert!(
            exposes.iter().all(|e| e == &exposes[0]),
            "{student}: {exposes:?}"
        );
        assert!(!shown.contains(&exposes[0]), "{student} shares a folder");
        shown.push(exposes[0]);
        let let_go = finished.iter().filter(|f| f == &exposes[0]).count();
        assert_eq!(let_go, 1, "{student}: {finished:?}");
    }
    assert_eq!(finished.len(), 3, "{finished:?}");
}

#[test]
fn a_students_page_and_gradescope_show_a_secret_case_by_its_verdict_alone() {
    use common::{CPU_SPELLER, SECRET_FIRST, SPELLED_CASE, case_in};
    let lab = common::cpu_speller_lab();
    let class = tempfile::tempdir().unwrap();
    write(&class.path().join("ada/present_board.py"), CPU_SPELLER);
    let out = tempfile::tempdir().unwrap();
    grade_quick(lab.path(), class.path(), out.path(), &[])
        .assert()
        .success();
    // results.json is the instructor's: the secret case's time spells its input's first
    // number, and its message says what was wrong.
    let results: Value = serde_json::from_str(&read(out.path(), "results.json")).unwrap();
    let case = case_in(&results, SPELLED_CASE)[0];
    assert_eq!(case["verdict"], "wrong_answer", "{case}");
    let spent = case["time_ms"].as_u64().unwrap();
    assert!(spent >= SECRET_FIRST * 10, "{case}");
    let message = case["message"].as_str().unwrap().to_string();
    assert!(!message.is_empty(), "{case}");
    // The student's page: the verdict alone, where the sample cases show their times.
    let page = read(out.path(), "report/students/ada.html");
    let line = page
        .lines()
        .find(|l| l.contains(SPELLED_CASE))
        .unwrap_or_else(|| panic!("{page}"));
    assert!(
        line.trim_end().ends_with("wrong answer") && !line.contains("ms"),
        "{line}"
    );
    assert!(
        page.lines()
            .any(|l| l.contains("sample/01-four-rows") && l.contains(" ms")),
        "{page}"
    );
    let message_words = message.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!page.contains(&message_words), "{page}");
    // Gradescope's, which the student sees: no more.
    let gradescope = read(out.path(), "gradescope/ada/results.json");
    assert!(!gradescope.contains(SPELLED_CASE), "{gradescope}");
    assert!(!gradescope.contains(&spent.to_string()), "{gradescope}");
    assert!(!gradescope.contains(&message_words), "{gradescope}");
}

/// Every file of a grade's output folder but its cache, with timings taken out: the times of
/// results.json, and the "4 ms" columns of the students' pages.
fn outputs_without_timings(out: &Path) -> Vec<(String, String)> {
    /// Each run of digits followed by " ms", and the spaces before it, as " _ ms".
    fn without_ms(text: &str) -> String {
        let mut kept = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find(" ms") {
            let (before, after) = rest.split_at(at);
            let digits = before.len() - before.trim_end_matches(|c: char| c.is_ascii_digit()).len();
            if digits > 0 {
                kept.push_str(before[..before.len() - digits].trim_end());
                kept.push_str(" _");
            } else {
                kept.push_str(before);
            }
            kept.push_str(" ms");
            rest = &after[3..];
        }
        kept.push_str(rest);
        kept
    }
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(out).sort_by_file_name() {
        let entry = entry.unwrap();
        let name = entry
            .path()
            .strip_prefix(out)
            .unwrap()
            .display()
            .to_string();
        if !entry.file_type().is_file() || name.starts_with(".cache") {
            continue;
        }
        let text = if name == "results.json" {
            results_without_timings(out).to_string()
        } else {
            without_ms(&read(out, &name))
        };
        files.push((name, text));
    }
    files
}

/// Same file, same grade (issue 24): six students hand in the same optimal_move, which returns
/// a random legal move. Each case's runs start `random` from the case's seed under each
/// interpreter, so all six get one grade, and two grades of the class and the merge of its
/// shards give the same files, timings apart. (Before, the six scored 1.67 to 3.33 and no two
/// gradebooks agreed.)
#[test]
fn identical_submissions_drawing_random_numbers_get_one_grade_in_every_run_and_shard() {
    let class = tempfile::tempdir().unwrap();
    let random_move =
        std::fs::read_to_string(root().join("tests/submissions/random_move/optimal_move.py"))
            .unwrap();
    let names = ["ann", "ben", "cai", "dee", "eve", "fay"];
    for name in names {
        write(
            &class.path().join(name).join("optimal_move.py"),
            &random_move,
        );
    }
    let work = tempfile::tempdir().unwrap();
    let grade_into = |out: &Path, args: &[&str]| {
        grade_class(class.path(), out, &[&["--python", "3,2.7"], args].concat())
            .assert()
            .success();
    };
    let (first, second) = (work.path().join("first"), work.path().join("second"));
    grade_into(&first, &[]);
    grade_into(&second, &[]);
    let mut parts = Vec::new();
    for k in 1..=2 {
        let part = work.path().join(format!("part{k}"));
        grade_into(&part, &["--shard", &format!("{k}/2")]);
        parts.push(part);
    }
    let merged = work.path().join("merged");
    nimlab()
        .arg("merge")
        .args(&parts)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    let results: Value = serde_json::from_str(&read(&first, "results.json")).unwrap();
    let totals: Vec<(String, String, f64)> = students(&results);
    assert_eq!(totals.len(), names.len(), "{totals:?}");
    assert!(
        totals.iter().all(|(_, _, total)| *total == totals[0].2),
        "the same file, graded differently: {totals:?}"
    );
    let expected = outputs_without_timings(&first);
    assert!(expected.len() > 10, "{expected:?}");
    for (what, out) in [("a second grade", &second), ("the merged shards", &merged)] {
        let got = outputs_without_timings(out);
        let names: Vec<&String> = got.iter().map(|(name, _)| name).collect();
        assert_eq!(
            names,
            expected.iter().map(|(name, _)| name).collect::<Vec<_>>(),
            "{what}"
        );
        for ((name, text), (_, want)) in got.iter().zip(&expected) {
            assert!(text == want, "{what}: {name} differs:\n{text}\n---\n{want}");
        }
    }
}

/// Every file under `folder` is 0600 and every folder 0700 (`folder` included); how many
/// files there are.
#[cfg(unix)]
fn assert_private(folder: &Path) -> usize {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(folder), 0o700, "{}", folder.display());
    let mut files = 0;
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files += assert_private(&path);
        } else {
            assert_eq!(mode(&path), 0o600, "{}", path.display());
            files += 1;
        }
    }
    files
}

#[cfg(unix)]
#[test]
fn grades_reports_shards_and_their_merge_are_private_to_their_owner() {
    let dir = tempfile::tempdir().unwrap();
    // A folder nimlab makes, parents included, with the caller's usual umask (022).
    let whole = dir.path().join("term").join("whole");
    assert!(grade(&whole, &[]).status.success());
    // The gradebooks, every per-student report, results.json and the cache.
    assert!(assert_private(&dir.path().join("term")) > 10);
    let mut parts = Vec::new();
    for k in 1..=2 {
        let part = dir.path().join(format!("part{k}"));
        assert!(
            grade(&part, &["--shard", &format!("{k}/2")])
                .status
                .success()
        );
        assert_private(&part);
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
    assert!(assert_private(&merged) > 5);
}
