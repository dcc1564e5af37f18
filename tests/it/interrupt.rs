//! Ctrl-C (SIGINT) during `nimlab check` and `nimlab grade`: the running programs stop at
//! once, nimlab exits 130, nothing is blamed on the student, and nothing is left behind: no
//! process, no scratch folder, no half-written report.

use crate::common::{lab_with, processes_mentioning, root};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The exclusive_or exercise with limits long enough that only the interrupt can stop a
/// sleeping program.
fn patient_lab() -> tempfile::TempDir {
    lab_with(&["exclusive_or"], |config| {
        let mut limits = toml::Table::new();
        limits.insert("cpu_ms".into(), 20_000.into());
        limits.insert("wall_ms".into(), 60_000.into());
        config.insert("limits".into(), limits.into());
        config.remove("forbidden");
    })
}

/// Starts nimlab with its own TMPDIR, so that what it leaves there can be seen.
fn start(args: &[&str], tmp: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(args)
        .env("TMPDIR", tmp)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until a process whose command line mentions `needle` runs (the program was started).
fn wait_for_process(needle: &str) {
    let until = Instant::now() + Duration::from_secs(20);
    while processes_mentioning(needle) == 0 {
        assert!(Instant::now() < until, "{needle} never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Let nimlab settle into watching it.
    std::thread::sleep(Duration::from_millis(200));
}

/// No program with `marker` in its command line runs, and `tmp` (nimlab's TMPDIR) is empty.
fn assert_nothing_left(marker: &str, tmp: &Path) {
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(processes_mentioning(marker), 0, "a program outlived nimlab");
    let left: Vec<_> = std::fs::read_dir(tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "scratch left behind: {left:?}");
}

/// Sends SIGINT and waits (at most 10 s) for nimlab to end.
fn interrupt(child: Child) -> std::process::Output {
    let pid = child.id() as libc::pid_t;
    let sent = Instant::now();
    // SAFETY: signals our own child, still unreaped.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let output = child.wait_with_output().unwrap();
    assert!(
        sent.elapsed() < Duration::from_secs(10),
        "nimlab took {:?} to stop after Ctrl-C",
        sent.elapsed()
    );
    output
}

#[test]
fn ctrl_c_stops_a_check_without_blaming_the_student() {
    let lab = patient_lab();
    let tmp = tempfile::tempdir().unwrap();
    let folder = tempfile::tempdir().unwrap();
    let marker = format!("check_sleeper_{}", std::process::id());
    // The marker is on the sleeping program's command line only: not on nimlab's (its
    // file's path), which would let the test interrupt nimlab before it set up Ctrl-C.
    let file = folder.path().join("exclusive_or.py");
    std::fs::write(
        &file,
        format!(
            "import os, sys\nos.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(600)', '{marker}'])\n"
        ),
    )
    .unwrap();
    let child = start(
        &[
            "--lab",
            lab.path().to_str().unwrap(),
            "check",
            file.to_str().unwrap(),
            "--python",
            "3",
            "--jobs",
            "2",
            "--format",
            "json",
        ],
        tmp.path(),
    );
    wait_for_process(&marker);
    let output = interrupt(child);
    assert_eq!(output.status.code(), Some(130));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("interrupted"), "{stderr}");

    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let cases = report["runs"][0]["cases"].as_array().unwrap();
    assert!(!cases.is_empty());
    for case in cases {
        assert_eq!(case["verdict"], "skipped", "{case:#}");
        assert_eq!(case["message"], "not judged: nimlab was interrupted");
    }
    assert_ne!(report["verdict"], "time_limit");

    assert_nothing_left(&marker, tmp.path());
}

#[test]
// A story told in order: one interrupted grading run, and each report it leaves checked in turn.
#[allow(clippy::too_many_lines)]
fn ctrl_c_during_grading_keeps_finished_work_and_whole_reports() {
    let lab = patient_lab();
    let tmp = tempfile::tempdir().unwrap();
    let class = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let marker = format!("grade_sleeper_{}", std::process::id());
    let solution = root().join("exercises/exclusive_or/solution.py");
    for student in ["ada", "bob", "carol"] {
        std::fs::create_dir(class.path().join(student)).unwrap();
    }
    // FIFOs, which block whoever opens one to read: beside Bob's file, and as Carol's.
    for fifo in ["bob/helper.py", "carol/exclusive_or.py"] {
        let name = std::ffi::CString::new(
            class
                .path()
                .join(fifo)
                .as_os_str()
                .as_encoded_bytes()
                .to_vec(),
        )
        .unwrap();
        // SAFETY: a valid, NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
    }
    std::fs::copy(&solution, class.path().join("ada/exclusive_or.py")).unwrap();
    // Bob's program sleeps, under a command line that carries the marker.
    std::fs::write(
        class.path().join("bob/exclusive_or.py"),
        format!(
            "import os, sys\nos.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(600)', '{marker}'])\n"
        ),
    )
    .unwrap();
    let child = start(
        &[
            "--lab",
            lab.path().to_str().unwrap(),
            "grade",
            class.path().to_str().unwrap(),
            "--out",
            out.path().to_str().unwrap(),
            "--python",
            "3",
            "--jobs",
            "1",
        ],
        tmp.path(),
    );
    wait_for_process(&marker);
    let output = interrupt(child);
    assert_eq!(
        output.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The reports exist and are whole: ada graded in full, bob not graded (not zero for a
    // sleeping program he was never judged on).
    let gradebook = std::fs::read_to_string(out.path().join("gradebook.csv")).unwrap();
    let rows: Vec<&str> = gradebook.lines().collect();
    assert_eq!(
        rows[0], "student,student_id,exclusive_or,total",
        "{gradebook}"
    );
    assert!(rows.iter().any(|r| r.starts_with("ada,")), "{gradebook}");
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("results.json")).unwrap()).unwrap();
    let students = results["students"].as_array().unwrap();
    let ada = students.iter().find(|s| s["student"] == "ada").unwrap();
    assert_eq!(
        ada["exercises"]["exclusive_or"]["status"], "graded",
        "{ada:#}"
    );
    assert!(ada["total"].as_f64().unwrap() > 0.0, "{ada:#}");
    let bob =
        &students.iter().find(|s| s["student"] == "bob").unwrap()["exercises"]["exclusive_or"];
    assert_eq!(bob["status"], "error", "{bob:#}");
    assert_eq!(bob["error"], "not graded: nimlab was interrupted");
    assert_eq!(bob["file"], "bob/exclusive_or.py");
    let carol =
        &students.iter().find(|s| s["student"] == "carol").unwrap()["exercises"]["exclusive_or"];
    assert_eq!(carol["status"], "error", "{carol:#}");
    assert!(
        carol["error"]
            .as_str()
            .unwrap()
            .contains("a named pipe (FIFO)"),
        "{carol:#}"
    );
    assert_nothing_left(&marker, tmp.path());
    // No temporary report files next to the real ones.
    for entry in walkdir::WalkDir::new(out.path()).min_depth(1) {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.contains(".tmp"), "half-written file left: {name}");
    }
}

/// Every report and cache file in `out` that has its real name is whole: JSON parses, CSV
/// rows have the header's width, XML and HTML end properly. Temporary files being written
/// when nimlab died may remain under a `.tmp` name, never under a real one.
fn assert_every_file_whole(out: &Path) {
    for entry in walkdir::WalkDir::new(out).min_depth(1) {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(".tmp") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let path = entry.path().display();
        match entry.path().extension().and_then(|x| x.to_str()) {
            Some("json") => {
                serde_json::from_str::<serde_json::Value>(&text)
                    .unwrap_or_else(|e| panic!("{path}: {e}"));
            }
            Some("csv") => {
                let mut reader = csv::Reader::from_reader(text.as_bytes());
                let width = reader.headers().unwrap().len();
                for record in reader.records() {
                    assert_eq!(record.unwrap().len(), width, "{path}");
                }
            }
            Some("xml") => assert!(text.trim_end().ends_with("</testsuites>"), "{path}"),
            Some("html") => assert!(text.trim_end().ends_with("</html>"), "{path}"),
            _ => {}
        }
    }
}

#[test]
fn killing_nimlab_at_any_moment_leaves_no_truncated_report() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let class = root().join("tests/demo-class");
    // Killed earlier and later in successive runs into the same folder: each run finds the
    // last one's files and cache, and replaces them as it goes.
    for after_ms in [150, 400, 800, 1500, 2500, 4000] {
        let child = start(
            &[
                "grade",
                class.to_str().unwrap(),
                "--out",
                out.path().to_str().unwrap(),
                "--python",
                "3",
                "--force",
            ],
            tmp.path(),
        );
        std::thread::sleep(Duration::from_millis(after_ms));
        let mut child = child;
        let _ = child.kill();
        child.wait().unwrap();
        assert_every_file_whole(out.path());
    }
    // A last run to the end: it completes over whatever the killed ones left.
    let output = start(
        &[
            "grade",
            class.to_str().unwrap(),
            "--out",
            out.path().to_str().unwrap(),
            "--python",
            "3",
        ],
        tmp.path(),
    )
    .wait_with_output()
    .unwrap();
    assert!(output.status.success());
    assert_every_file_whole(out.path());
    assert!(out.path().join("report/index.html").is_file());
}

#[test]
fn the_scratch_a_killed_nimlab_left_is_removed_by_the_next_one() {
    let tmp = tempfile::tempdir().unwrap();
    let an_hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    let make = |name: &str, old: bool| {
        let dir = tmp.path().join(name);
        std::fs::create_dir_all(dir.join("submission")).unwrap();
        std::fs::write(dir.join("submission/exclusive_or.py"), "print(1)\n").unwrap();
        if old {
            std::fs::File::open(&dir)
                .unwrap()
                .set_modified(an_hour_ago)
                .unwrap();
        }
        dir
    };
    // Beyond the kernel's largest PID: its process cannot be alive.
    let stale = make("nimlab-999999999-abc123", true);
    // A live process's (this test's), and a dead one's touched just now: both kept.
    let alive = make(&format!("nimlab-{}-def456", std::process::id()), true);
    let recent = make("nimlab-999999998-ghi789", false);
    let unrelated = make("nimlabish-999999999-x", true);
    let output = start(
        &[
            "check",
            root()
                .join("exercises/exclusive_or/solution.py")
                .to_str()
                .unwrap(),
            "--python",
            "3",
        ],
        tmp.path(),
    )
    .wait_with_output()
    .unwrap();
    assert!(output.status.success());
    assert!(!stale.exists());
    assert!(alive.exists() && recent.exists() && unrelated.exists());
}
