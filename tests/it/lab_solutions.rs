//! The built-in lab holds together: model solutions pass everywhere, stubs never do, and the
//! fixtures are many and right.

use crate::common;

use crate::common::{check_json, nimlab, root, stdin_exercises};

#[test]
fn every_model_solution_is_accepted_on_python_3_and_2_7() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    for exercise in &stdin_exercises() {
        let file = root().join(format!("exercises/{exercise}/solution.py"));
        let (report, code) = check_json(&[file.to_str().unwrap(), "--exercise", exercise]);
        assert_eq!(report["verdict"], "accepted", "{exercise}: {report:#}");
        assert_eq!(code, 0);
        assert_eq!(report["score"], report["max_score"]);
        let runs = report["runs"].as_array().unwrap();
        let versions: Vec<&str> = runs
            .iter()
            .map(|r| r["version"].as_str().unwrap_or("none"))
            .collect();
        assert_eq!(runs.len(), 2, "{exercise}");
        assert!(versions[0].starts_with("3."), "{exercise}: {versions:?}");
        assert!(
            versions[1].starts_with("2.7"),
            "{exercise}: Python 2.7 must be installed: {versions:?}"
        );
        assert!(
            runs.iter().all(|r| r["verdict"] == "accepted"),
            "{exercise}: {report:#}"
        );
    }
}

#[test]
fn no_starter_file_is_accepted_and_each_runs_on_both_pythons() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    for exercise in &stdin_exercises() {
        let file = root().join(format!("exercises/{exercise}/stub.py"));
        let (report, code) = check_json(&[file.to_str().unwrap(), "--exercise", exercise]);
        let runs: Vec<&str> = report["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["verdict"].as_str().unwrap())
            .collect();
        // Wrong, but it runs: no syntax or runtime error on either interpreter.
        assert_eq!(runs, ["wrong_answer", "wrong_answer"], "{exercise}");
        assert_ne!(report["verdict"], "accepted", "{exercise}");
        assert_eq!(report["verdict"], "wrong_answer", "{exercise}: {report:#}");
        assert_eq!(code, 1);
    }
}

#[test]
fn every_stdin_exercise_has_at_least_twelve_cases_both_sample_and_secret() {
    for exercise in &stdin_exercises() {
        let count = |folder: &str| {
            std::fs::read_dir(root().join(format!("fixtures/{exercise}/{folder}")))
                .map(|d| {
                    d.filter_map(Result::ok)
                        .filter(|e| e.path().extension().is_some_and(|x| x == "in"))
                        .count()
                })
                .unwrap_or(0)
        };
        let (samples, secrets) = (count("sample"), count("secret"));
        assert!(
            samples > 0 && secrets > 0,
            "{exercise}: {samples} sample, {secrets} secret"
        );
        assert!(
            samples + secrets >= 12,
            "{exercise}: only {} cases",
            samples + secrets
        );
    }
}

#[test]
fn fixtures_verify_passes_on_the_built_in_lab() {
    let output = nimlab().args(["fixtures", "verify"]).output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout);
    for exercise in &stdin_exercises() {
        assert!(text.contains(&format!("{exercise:<14} ")), "{text}");
    }
    assert!(text.contains("agree with the reference"), "{text}");
}

#[test]
fn fixtures_verify_catches_a_wrong_expected_output() {
    let lab = common::lab_with(&["bitwise_xor"], |_| {});
    let out = lab
        .path()
        .join("fixtures/bitwise_xor/sample/01-three-five.out");
    std::fs::write(&out, "7\n").unwrap();
    let output = nimlab()
        .arg("--lab")
        .arg(lab.path())
        .args(["fixtures", "verify"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("sample/01-three-five") && stderr.contains("reference: 6"),
        "{stderr}"
    );
}

#[test]
fn the_checker_fixtures_are_verified_by_the_checker() {
    let lab = common::lab_with(&["optimal_move"], |_| {});
    // [5, 4, 3, 2, 1]: taking 2 from row 1 leaves nim-sum 3, not a winning move.
    let out = lab
        .path()
        .join("fixtures/optimal_move/sample/01-handout-board.out");
    std::fs::write(&out, "[1, 2]\n").unwrap();
    let output = nimlab()
        .arg("--lab")
        .arg(lab.path())
        .args(["fixtures", "verify", "optimal_move"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the checker rejects the stored .out"),
        "{stderr}"
    );
}

/// The exercises whose lab file ends in a block that reads stdin (optimal_move had none, the
/// game is played).
const LAB_BLOCKS: [&str; 7] = [
    "present_board",
    "make_move",
    "exclusive_or",
    "bin_num",
    "bitwise_xor",
    "nim_sum",
    "ui",
];

fn lab_data(file: &str) -> String {
    std::fs::read_to_string(root().join("tests/data/lab").join(file)).unwrap()
}

/// A submission as a student of the lab hands it in: correct functions under the lab's names,
/// then the lab's own input block, unchanged.
fn lab_submission(dir: &std::path::Path, exercise: &str, between: &str) -> std::path::PathBuf {
    let file = dir.join(format!("{exercise}.py"));
    let source = format!(
        "{}{between}\n\n{}",
        lab_data(&format!("functions/{exercise}.py")),
        lab_data(&format!("blocks/{exercise}.py"))
    );
    std::fs::write(&file, source).unwrap();
    file
}

#[test]
fn the_labs_own_input_blocks_pass_every_case_on_python_3_and_2_7() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for exercise in LAB_BLOCKS {
        let file = lab_submission(dir.path(), exercise, "");
        let (report, code) = check_json(&[file.to_str().unwrap(), "--python", "3,2.7"]);
        assert_eq!(report["verdict"], "accepted", "{exercise}: {report:#}");
        assert_eq!(code, 0, "{exercise}");
        let runs = report["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 2, "{exercise}");
        for run in runs {
            assert!(
                run["version"].as_str().is_some(),
                "{exercise}: both interpreters must be installed: {run:#}"
            );
            let cases = run["cases"].as_array().unwrap();
            assert!(cases.len() >= 12, "{exercise}");
            assert!(
                cases.iter().all(|c| c["verdict"] == "accepted"),
                "{exercise}: {run:#}"
            );
        }
    }
}

#[test]
fn a_lab_file_with_a_non_ascii_comment_and_no_coding_line_fails_only_on_python_2_7() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = lab_submission(
        dir.path(),
        "bitwise_xor",
        "\n# 1 + (2 ^ 3) \u{2190} the brackets matter\n",
    );
    let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3,2.7"]);
    let runs: Vec<&str> = report["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(runs, ["accepted", "syntax_error"], "{report:#}");
    assert!(
        common::all_hints(&report)
            .iter()
            .any(|h| h.contains("coding: utf-8")),
        "{report:#}"
    );
}

#[test]
fn one_line_exercises_have_one_line_cases() {
    for exercise in ["present_board", "exclusive_or", "bitwise_xor"] {
        for folder in ["sample", "secret"] {
            let dir = root().join(format!("fixtures/{exercise}/{folder}"));
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_none_or(|x| x != "in") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let body = text.strip_suffix('\n').unwrap_or(&text);
                let body = body.strip_suffix('\r').unwrap_or(body);
                assert!(
                    !body.contains(['\n', '\r']),
                    "{}: the lab's block reads one line",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn fixtures_verify_refuses_a_case_on_two_lines_where_the_lab_reads_one() {
    let lab = common::lab_with(&["bitwise_xor"], |_| {});
    let secret = lab.path().join("fixtures/bitwise_xor/secret");
    std::fs::write(secret.join("99-two-lines.in"), "5\n3\n").unwrap();
    std::fs::write(secret.join("99-two-lines.out"), "6\n").unwrap();
    let output = nimlab()
        .arg("--lab")
        .arg(lab.path())
        .args(["fixtures", "verify", "bitwise_xor"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("secret/99-two-lines") && stderr.contains("one line"),
        "{stderr}"
    );
}

#[test]
fn a_file_without_a_block_is_told_it_printed_nothing_not_that_its_json_is_bad() {
    // The lab's optimal_move.py had no stdin block: it prints nothing at all. The same file
    // for bin_num (compared as JSON) prints nothing too.
    let dir = tempfile::tempdir().unwrap();
    for exercise in ["optimal_move", "bin_num"] {
        let file = dir.path().join(format!("{exercise}.py"));
        std::fs::write(&file, lab_data(&format!("functions/{exercise}.py"))).unwrap();
        let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3"]);
        assert_eq!(report["verdict"], "wrong_answer", "{exercise}");
        let samples: Vec<&serde_json::Value> = report["runs"][0]["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["visibility"] == "sample")
            .collect();
        for case in samples {
            let message = case["message"].as_str().unwrap();
            assert!(message.contains("printed nothing"), "{exercise}: {case:#}");
            assert!(!message.contains("JSON"), "{exercise}: {case:#}");
        }
        assert!(
            common::all_hints(&report)
                .iter()
                .any(|h| h.contains("Your program printed nothing")),
            "{exercise}"
        );
    }
}

#[test]
fn a_line_with_two_forbidden_operators_is_warned_about_once() {
    // The lab's way to write exclusive_or: `if a == 1 and b == 0:`, two `==` on one line.
    let dir = tempfile::tempdir().unwrap();
    let file = lab_submission(dir.path(), "exclusive_or", "");
    let (report, code) = check_json(&[file.to_str().unwrap(), "--python", "3"]);
    assert_eq!(code, 0, "a warning fails nothing here: {report:#}");
    let lines: Vec<u64> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [5, 7], "{report:#}");
}

#[test]
fn the_starter_files_call_the_labs_functions_so_the_labs_answers_fit_them() {
    // The lab's functions (numeral_binary, binary_numeral, bitwise_exclusive_or, a
    // present_board that returns text) under nimlab's own starter block.
    let dir = tempfile::tempdir().unwrap();
    for exercise in LAB_BLOCKS {
        let stub =
            std::fs::read_to_string(root().join(format!("exercises/{exercise}/stub.py"))).unwrap();
        let block = &stub[stub.find("if __name__").expect("the stub has a block")..];
        let file = dir.path().join(format!("{exercise}.py"));
        let functions = lab_data(&format!("functions/{exercise}.py"));
        std::fs::write(&file, format!("{functions}\n\n{block}")).unwrap();
        let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3,2.7"]);
        assert_eq!(report["verdict"], "accepted", "{exercise}: {report:#}");
    }
    for (exercise, name) in [
        ("bin_num", "numeral_binary"),
        ("bin_num", "binary_numeral"),
        ("bitwise_xor", "bitwise_exclusive_or"),
    ] {
        for file in ["README.md", "stub.py", "solution.py"] {
            let text = std::fs::read_to_string(root().join(format!("exercises/{exercise}/{file}")))
                .unwrap();
            assert!(
                text.contains(name),
                "{exercise}/{file} does not name {name}"
            );
        }
    }
}
