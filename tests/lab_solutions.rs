//! The built-in lab holds together: model solutions pass everywhere, stubs never do, and the
//! fixtures are many and right.

mod common;

use common::{STDIN_EXERCISES, check_json, nimlab, root};

#[test]
fn every_model_solution_is_accepted_on_python_3_and_2_7() {
    for exercise in STDIN_EXERCISES {
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
    for exercise in STDIN_EXERCISES {
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
    for exercise in STDIN_EXERCISES {
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
    for exercise in STDIN_EXERCISES {
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
