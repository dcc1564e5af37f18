//! The command line as users meet it: listing, statements, packs, references, fixtures, and
//! clear errors with the documented exit codes.

use crate::common;

use crate::common::{check_json, lab_with, nimlab, root};
use predicates::prelude::*;

/// `nimlab --lab LAB list` refuses the lab, with every `needles` in its message.
fn assert_lab_refused(lab: &std::path::Path, needles: &[&str]) {
    let output = nimlab().arg("--lab").arg(lab).arg("list").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    for needle in needles {
        assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
    }
}

#[test]
fn list_names_the_nine_exercises_in_the_labs_order() {
    let output = nimlab().arg("list").output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let names: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    // In the lab's order (the lab's own unit tests pin that order to the handout's).
    assert_eq!(names, common::exercises());
    assert!(text.contains("checker") && text.contains("game"));
}

#[test]
fn show_prints_the_statement() {
    nimlab()
        .args(["show", "optimal_move"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("# 7. optimal_move")
                .and(predicate::str::contains("[5, 4, 3, 2, 1]")),
        );
}

#[test]
fn an_unknown_exercise_is_a_usage_error_that_lists_the_known_ones() {
    nimlab().args(["show", "chess"]).assert().code(2).stderr(
        predicate::str::contains("unknown exercise `chess`")
            .and(predicate::str::contains("present_board, make_move")),
    );
}

#[test]
fn a_missing_submission_is_named() {
    nimlab()
        .args(["check", "no/such/present_board.py"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no/such/present_board.py: no such file",
        ));
}

#[test]
fn a_file_name_that_names_no_exercise_asks_for_exercise() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("homework.py");
    std::fs::write(&file, "print(1)\n").unwrap();
    nimlab()
        .arg("check")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("pass --exercise NAME"));
}

#[test]
fn platform_style_file_names_are_recognised() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ada_lovelace_12345_bitwise_xor.py");
    std::fs::copy(root().join("exercises/bitwise_xor/solution.py"), &file).unwrap();
    let (report, code) = check_json(&[file.to_str().unwrap(), "--python", "3"]);
    assert_eq!(report["exercise"], "bitwise_xor");
    assert_eq!(code, 0);
}

#[test]
fn reference_answers_one_case_and_rejects_bad_input() {
    nimlab()
        .args(["reference", "make_move"])
        .write_stdin("{\"board\": [1, 2, 3], \"row\": 1, \"elements\": 1}")
        .assert()
        .success()
        .stdout("[[0, 2, 3], true]\n");
    nimlab()
        .args(["reference", "bitwise_xor"])
        .write_stdin("3 five")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "stdin: `five` is not a non-negative integer",
        ));
    nimlab()
        .args(["reference", "working_game"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("interactive"));
}

#[test]
fn a_malformed_exercise_toml_is_refused_with_its_path_and_line() {
    let lab = lab_with(&["ui"], |_| {});
    let config = lab.path().join("exercises/ui/exercise.toml");
    std::fs::write(
        &config,
        "title = \"UI\"\norder = 8\ncomparison = \"fuzzy\"\n",
    )
    .unwrap();
    assert_lab_refused(lab.path(), &[config.to_str().unwrap(), "line 3", "fuzzy"]);
}

#[test]
fn an_input_without_its_expected_output_is_refused() {
    let lab = lab_with(&["ui"], |_| {});
    std::fs::remove_file(lab.path().join("fixtures/ui/secret/01-capitals.out")).unwrap();
    assert_lab_refused(
        lab.path(),
        &[
            "fixtures/ui/secret/01-capitals.in",
            "has no matching .out file",
        ],
    );
}

#[test]
fn a_folder_that_is_not_a_lab_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    assert_lab_refused(dir.path(), &["not a lab folder"]);
}

#[test]
fn init_writes_a_student_pack_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("pack");
    nimlab().arg("init").arg(&pack).assert().success();
    for exercise in common::exercises() {
        assert!(pack.join(format!("{exercise}.py")).is_file(), "{exercise}");
        assert!(
            pack.join(format!("statements/{exercise}.md")).is_file(),
            "{exercise}"
        );
    }
    assert!(pack.join("samples/present_board/01-four-rows.in").is_file());
    // Secret cases and model solutions stay with the instructor.
    let everything: Vec<String> = walkdir::WalkDir::new(&pack)
        .into_iter()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    assert!(
        everything
            .iter()
            .all(|p| !p.contains("secret") && !p.contains("solution")),
        "{everything:#?}"
    );
    // A stub from the pack is checked like any submission, siblings and all.
    let (report, _) = check_json(&[pack.join("ui.py").to_str().unwrap(), "--python", "3"]);
    assert_eq!(report["verdict"], "wrong_answer");

    std::fs::write(pack.join("present_board.py"), "# my work\n").unwrap();
    nimlab()
        .arg("init")
        .arg(&pack)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not empty"));
    assert_eq!(
        std::fs::read_to_string(pack.join("present_board.py")).unwrap(),
        "# my work\n"
    );
}

#[test]
fn generated_fixtures_are_reproducible_and_never_replace_files() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for out in [&a, &b] {
        nimlab()
            .args([
                "fixtures",
                "generate",
                "optimal_move",
                "--seed",
                "42",
                "--count",
                "5",
                "--out",
            ])
            .arg(out)
            .assert()
            .success();
    }
    let files = |d: &std::path::Path| {
        let mut names: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        names
            .iter()
            .map(|p| (p.file_name().unwrap().to_owned(), std::fs::read(p).unwrap()))
            .collect::<Vec<_>>()
    };
    assert_eq!(files(&a).len(), 10);
    assert_eq!(files(&a), files(&b));
    nimlab()
        .args([
            "fixtures",
            "generate",
            "optimal_move",
            "--seed",
            "42",
            "--count",
            "1",
            "--out",
        ])
        .arg(&a)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("gen-42-001.in"));
    // Generated cases pass verification in a lab that holds them.
    let lab = lab_with(&["optimal_move"], |_| {});
    common::copy_dir(&a, &lab.path().join("fixtures/optimal_move/secret"));
    nimlab()
        .arg("--lab")
        .arg(lab.path())
        .args(["fixtures", "verify"])
        .assert()
        .success();
}

#[test]
fn a_missing_interpreter_is_skipped_not_failed() {
    let file = root().join("exercises/ui/solution.py");
    let (report, code) = check_json(&[file.to_str().unwrap(), "--python", "3,3.0"]);
    assert_eq!(report["runs"][1]["verdict"], "skipped");
    assert!(
        report["runs"][1]["message"]
            .as_str()
            .unwrap()
            .contains("not installed")
    );
    assert_eq!(report["verdict"], "accepted");
    assert_eq!(code, 0);
    // With nothing to run under, it is a configuration error.
    let (_, code) = check_json(&[file.to_str().unwrap(), "--python", "3.0"]);
    assert_eq!(code, 2);
}

#[test]
fn a_bad_fixture_is_nimlabs_fault_and_its_detail_is_the_instructors() {
    let lab = lab_with(&["optimal_move"], |_| {});
    let secret = lab.path().join("fixtures/optimal_move/secret");
    for (stem, row) in [
        ("98-bad-sample", "the-sample-row"),
        ("99-bad-secret", "the-secret-row"),
    ] {
        let folder = if stem.contains("sample") {
            lab.path().join("fixtures/optimal_move/sample")
        } else {
            secret.clone()
        };
        std::fs::write(
            folder.join(format!("{stem}.in")),
            format!("{{\"board\": [1, 2, \"{row}\"]}}\n"),
        )
        .unwrap();
        std::fs::copy(
            secret.join("01-powers-of-two.out"),
            folder.join(format!("{stem}.out")),
        )
        .unwrap();
    }
    let folder = tempfile::tempdir().unwrap();
    let program = folder.path().join("optimal_move.py");
    std::fs::write(&program, "print('(1, 1)')\n").unwrap();
    let check = |extra: &[&str]| {
        let output = nimlab()
            .arg("--lab")
            .arg(lab.path())
            .arg("check")
            .arg(&program)
            .args(["--python", "3", "--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(3));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let case = |name: &str| {
            report["runs"][0]["cases"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["name"] == name)
                .unwrap()
                .clone()
        };
        let (sample, secret) = (case("sample/98-bad-sample"), case("secret/99-bad-secret"));
        assert_eq!(
            (&sample["verdict"], &secret["verdict"]),
            (&"judge_error".into(), &"judge_error".into())
        );
        let said = |case: &serde_json::Value| case["message"].as_str().unwrap().to_string();
        (
            said(&sample),
            said(&secret),
            String::from_utf8(output.stdout).unwrap(),
        )
    };
    // A student is told it is nimlab's fault, not what is wrong: a secret case's detail could
    // quote the case, and neither is the student's to fix.
    let (sample, secret, whole) = check(&[]);
    for said in [&sample, &secret] {
        assert!(said.contains("its fault, not yours"), "{said}");
    }
    assert!(!whole.contains("the-secret-row"), "{whole}");
    // The instructor is told what is wrong with each.
    let (sample, secret, _) = check(&["--instructor"]);
    assert!(sample.contains("the-sample-row"), "{sample}");
    assert!(secret.contains("the-secret-row"), "{secret}");
}

#[test]
fn a_broken_interpreter_is_nimlabs_problem_not_the_students() {
    let file = root().join("exercises/ui/solution.py");
    let (report, code) = check_json(&[file.to_str().unwrap(), "--python", "/bin/true"]);
    assert_eq!(report["verdict"], "judge_error");
    assert!(
        report["runs"][0]["message"]
            .as_str()
            .unwrap()
            .contains("not your program's fault")
    );
    assert_eq!(code, 3);
    let (report, code) = check_json(&[
        file.to_str().unwrap(),
        "--python",
        "/bin/true",
        "--instructor",
    ]);
    assert!(
        report["runs"][0]["message"]
            .as_str()
            .unwrap()
            .contains("did not answer like a Python interpreter")
    );
    assert_eq!(code, 3);
}

#[test]
fn textbook_naming_flips_the_statement_stub_solution_and_answers() {
    let lab = lab_with(&["nim_sum"], |config| {
        config.insert("positions".into(), "textbook".into());
    });
    let lab_arg = lab.path().to_str().unwrap();
    nimlab()
        .args(["--lab", lab_arg, "show", "nim_sum"])
        .assert()
        .stdout(predicate::str::contains(
            "**P-position**: the **previous** player",
        ));
    let textbook = root().join("exercises/nim_sum/solution.textbook.py");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("nim_sum.py");
    std::fs::copy(&textbook, &file).unwrap();
    let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3", "--lab", lab_arg]);
    assert_eq!(report["verdict"], "accepted", "{report:#}");
    let lab_naming = root().join("exercises/nim_sum/solution.py");
    let (report, _) = check_json(&[
        lab_naming.to_str().unwrap(),
        "--exercise",
        "nim_sum",
        "--python",
        "3",
        "--lab",
        lab_arg,
    ]);
    assert_eq!(report["verdict"], "wrong_answer");
    nimlab()
        .args(["--lab", lab_arg, "fixtures", "verify"])
        .assert()
        .success();
}

#[test]
fn case_weights_count_in_the_score() {
    let lab = lab_with(&["exclusive_or"], |config| {
        let mut weights = toml::Table::new();
        weights.insert("secret/04-one-one".into(), 5.into());
        config.insert("weights".into(), weights.into());
    });
    let file = root().join("exercises/exclusive_or/solution.py");
    let (report, _) = check_json(&[
        file.to_str().unwrap(),
        "--python",
        "3",
        "--lab",
        lab.path().to_str().unwrap(),
    ]);
    assert_eq!(report["max_score"], 16);
    assert_eq!(report["score"], 16);
    let bad = lab_with(&["exclusive_or"], |config| {
        let mut weights = toml::Table::new();
        weights.insert("secret/99-nothing".into(), 5.into());
        config.insert("weights".into(), weights.into());
    });
    assert_lab_refused(bad.path(), &["[weights] names case `secret/99-nothing`"]);
}

#[test]
fn the_text_report_has_no_colour_codes_off_a_terminal() {
    let file = root().join("tests/submissions/debug_print/present_board.py");
    let output = nimlab()
        .env_remove("NO_COLOR")
        .arg("check")
        .arg(&file)
        .args(["--python", "3"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains("Verdict: wrong answer"));
}

#[test]
fn jobs_must_be_positive() {
    nimlab()
        .arg("check")
        .arg(root().join("exercises/ui/solution.py"))
        .args(["--jobs", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--jobs must be at least 1"));
}

#[test]
fn the_readme_main_command_works() {
    // README: `cargo run --release -- check exercises/present_board/solution.py`
    nimlab()
        .current_dir(root())
        .args(["check", "exercises/present_board/solution.py"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Verdict: accepted"));
}

#[test]
fn an_oversized_submission_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ui.py");
    std::fs::write(&file, "#".repeat(2 * 1024 * 1024)).unwrap();
    nimlab()
        .arg("check")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 1 MiB"));
}

/// Killed while its programs start, nimlab leaves none running. Each round kills nimlab as
/// soon as a program of it appears, when bubblewrap is still starting it: there, the signal
/// the kernel sends a program on nimlab's death is not set yet (it left a program asleep
/// once in a few dozen rounds), and nimlab's reaper ends it.
#[test]
fn programs_die_with_nimlab_when_it_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("orphan_probe_exclusive_or.py");
    std::fs::copy(
        root().join("tests/submissions/sleeps/exclusive_or.py"),
        &file,
    )
    .unwrap();
    for round in 0..12 {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("nimlab"))
            .arg("check")
            .arg(&file)
            .args(["--python", "3", "--format", "json"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // nimlab's processes: a case's run is an interpreter below it (started itself, or
        // forked from a fork server, whose command line is the server's).
        let nimlab = i32::try_from(child.id()).unwrap();
        let started = std::time::Instant::now();
        let runs = loop {
            let below: Vec<i32> = crate::common::descendants(nimlab)
                .into_iter()
                .filter(|pid| {
                    std::fs::read(format!("/proc/{pid}/cmdline"))
                        .is_ok_and(|c| c.windows(6).any(|w| w == b"python"))
                })
                .collect();
            // A run in flight: an interpreter below an interpreter (a forked run), or one
            // running the submission itself.
            let running = below.iter().any(|pid| {
                std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| {
                    c.windows(b"orphan_probe".len())
                        .any(|w| w == b"orphan_probe")
                }) || crate::common::descendants(*pid)
                    .iter()
                    .any(|p| below.contains(p))
            });
            if running {
                break below;
            }
            assert!(
                started.elapsed().as_secs() < 10,
                "the submission never started"
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
        };
        child.kill().unwrap();
        child.wait().unwrap();
        // The kernel signals them at once; on a loaded machine dying can take a moment.
        let killed = std::time::Instant::now();
        while runs.iter().any(|pid| alive(*pid)) {
            assert!(
                killed.elapsed().as_secs() < 10,
                "round {round}: an interpreter outlived nimlab by 10 s"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

/// Whether a process still runs (a zombie waiting for its parent to read it has ended).
fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X")
    })
}

/// Runs nimlab with `args`; returns the exit code and stderr.
fn exit_and_stderr(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let output = nimlab().args(args).output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A folder holding a regular file `file`: a path below that file cannot be created, even by
/// root (the tests run as root, so a read-only folder would not do).
fn folder_with_a_file() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "a regular file\n").unwrap();
    (dir, file)
}

#[test]
fn grade_input_problems_exit_2_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-class");
    let out = dir.path().join("out");
    let (code, stderr) = exit_and_stderr(&[
        "grade".as_ref(),
        missing.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("{}: no such folder", missing.display())),
        "{stderr}"
    );
    // A roster whose second row has more cells than the header: malformed.
    let class = dir.path().join("class");
    std::fs::create_dir_all(class.join("ada")).unwrap();
    let roster = dir.path().join("roster.csv");
    std::fs::write(&roster, "student,name\nada,Ada Lovelace\nbob,Bob,extra\n").unwrap();
    let (code, stderr) = exit_and_stderr(&[
        "grade".as_ref(),
        class.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--roster".as_ref(),
        roster.as_os_str(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("{}: row 3 is malformed", roster.display())),
        "{stderr}"
    );
    assert!(!out.exists(), "a refused grade wrote {}", out.display());
}

#[test]
fn grade_into_an_out_that_cannot_be_created_exits_3_naming_it() {
    let (dir, file) = folder_with_a_file();
    let class = dir.path().join("class");
    std::fs::create_dir_all(class.join("ada")).unwrap();
    std::fs::copy(
        root().join("exercises/exclusive_or/solution.py"),
        class.join("ada/exclusive_or.py"),
    )
    .unwrap();
    let out = file.join("out");
    let (code, stderr) = exit_and_stderr(&[
        "grade".as_ref(),
        class.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(
        stderr.contains(&out.display().to_string()) && stderr.contains("cannot create"),
        "{stderr}"
    );
    // OUT itself a regular file: the user's mistake, and the file is left as it was.
    let (code, stderr) = exit_and_stderr(&[
        "grade".as_ref(),
        class.as_os_str(),
        "--out".as_ref(),
        file.as_os_str(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("{}: exists and is not a folder", file.display())),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "a regular file\n");
}

#[test]
fn export_kattis_exits_3_when_it_cannot_write_and_2_when_out_is_not_empty() {
    let (dir, file) = folder_with_a_file();
    let under_a_file = file.join("packages");
    let (code, stderr) = exit_and_stderr(&[
        "export".as_ref(),
        "kattis".as_ref(),
        "--out".as_ref(),
        under_a_file.as_os_str(),
    ]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(
        stderr.contains(&file.display().to_string()) && stderr.contains("cannot create"),
        "{stderr}"
    );
    // A folder with something in it: the user's to empty, nimlab does not overwrite it.
    let full = dir.path().join("full");
    std::fs::create_dir(&full).unwrap();
    std::fs::write(full.join("keep.txt"), "mine\n").unwrap();
    let (code, stderr) = exit_and_stderr(&[
        "export".as_ref(),
        "kattis".as_ref(),
        "--out".as_ref(),
        full.as_os_str(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}: the folder exists and is not empty",
            full.display()
        )),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(full.join("keep.txt")).unwrap(),
        "mine\n"
    );
    // A regular file where the folder should go is not overwritten either.
    let (code, stderr) = exit_and_stderr(&[
        "export".as_ref(),
        "kattis".as_ref(),
        "--out".as_ref(),
        file.as_os_str(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("{}: exists and is not a folder", file.display())),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "a regular file\n");
}

#[test]
fn init_into_a_path_under_a_file_exits_3() {
    let (_dir, file) = folder_with_a_file();
    let pack = file.join("pack");
    let (code, stderr) = exit_and_stderr(&["init".as_ref(), pack.as_os_str()]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains(&file.display().to_string()), "{stderr}");
}

#[test]
fn merge_exits_2_for_a_shard_that_is_not_results_json_and_3_when_out_cannot_be_written() {
    let (dir, file) = folder_with_a_file();
    // A real shard: a class whose one student (from the roster) handed in nothing, so no
    // program runs.
    let class = dir.path().join("class");
    std::fs::create_dir(&class).unwrap();
    let roster = dir.path().join("roster.csv");
    std::fs::write(&roster, "student\nada\n").unwrap();
    let shard = dir.path().join("shard");
    let (code, stderr) = exit_and_stderr(&[
        "grade".as_ref(),
        class.as_os_str(),
        "--out".as_ref(),
        shard.as_os_str(),
        "--roster".as_ref(),
        roster.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let broken = dir.path().join("broken");
    std::fs::create_dir(&broken).unwrap();
    std::fs::write(broken.join("results.json"), "Graded 3 of 4\n").unwrap();
    let out = dir.path().join("merged");
    let (code, stderr) = exit_and_stderr(&[
        "merge".as_ref(),
        shard.as_os_str(),
        broken.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    let named = broken.join("results.json");
    assert!(
        stderr.contains(&format!(
            "{}: not a results.json written by nimlab grade",
            named.display()
        )),
        "{stderr}"
    );
    assert!(!out.exists());
    // The same shard twice: its student is in two shards, named with the shard's file.
    let (code, stderr) = exit_and_stderr(&[
        "merge".as_ref(),
        shard.as_os_str(),
        shard.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}: student `ada` is in more than one shard",
            shard.join("results.json").display()
        )),
        "{stderr}"
    );
    assert!(!out.exists());
    let under_a_file = file.join("merged");
    let (code, stderr) = exit_and_stderr(&[
        "merge".as_ref(),
        shard.as_os_str(),
        "--out".as_ref(),
        under_a_file.as_os_str(),
    ]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(
        stderr.contains(&under_a_file.display().to_string()) && stderr.contains("cannot create"),
        "{stderr}"
    );
}

#[test]
fn a_fifo_or_a_folder_given_to_check_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("present_board.py");
    let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string; mkfifo only creates the node.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    let started = std::time::Instant::now();
    let output = nimlab()
        .arg("check")
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("present_board.py") && stderr.contains("not a regular file"),
        "{stderr}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

/// The reaper's command only ever sweeps nimlab's own cgroup folders.
#[test]
fn the_reaper_refuses_folders_that_are_not_nimlab_cgroups() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("nimlab");
    std::fs::create_dir(&fake).unwrap();
    for root in [std::path::Path::new("/etc"), fake.as_path()] {
        let (code, stderr) =
            exit_and_stderr(&["reap-cgroups".as_ref(), "1".as_ref(), root.as_os_str()]);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(&root.display().to_string()), "{stderr}");
        assert!(stderr.contains("not a cgroup folder"), "{stderr}");
    }
}

/// Output read by a reader that has gone (`nimlab list | head -1`, the reader closed before
/// the first line): the command stops quietly with status 0, as command-line tools do, not
/// with "nimlab's own failure" (3) or a panic.
#[test]
fn a_closed_output_stops_a_listing_quietly() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("class.db");
    nimlab()
        .args(["users", "add", "prof", "--instructor", "--random", "--db"])
        .arg(&db)
        .assert()
        .success();
    let db = db.to_str().unwrap();
    for args in [
        vec!["list"],
        vec!["show", "present_board"],
        vec!["users", "list", "--db", db],
        vec!["deadline", "list", "--db", db],
    ] {
        let mut fds = [0; 2];
        // SAFETY: pipe(2) into a local array; both ends are owned at once below.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        drop(read);
        let output = std::process::Command::new(assert_cmd::cargo::cargo_bin("nimlab"))
            .args(&args)
            .stdout(std::process::Stdio::from(write))
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            output.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
