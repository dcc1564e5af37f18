//! The lab's further study, misère Nim (whoever takes the last element loses), through the
//! binary as a student and an instructor use it: misere_move (a checker, a proof in `fixtures
//! verify`, hints for the misère mistakes) and misere_game (the game referee under misère).

use crate::common::{all_hints, check_json, nimlab, root};

/// A file copied under the exercise's own name, so `nimlab check` finds it as for a student.
fn as_students_file(from: &str, name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::copy(root().join(from), &file).unwrap();
    (dir, file)
}

#[test]
fn the_model_solutions_are_accepted_under_both_pythons() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    for exercise in ["misere_move", "misere_game"] {
        let (_dir, file) = as_students_file(
            &format!("exercises/{exercise}/solution.py"),
            &format!("{exercise}.py"),
        );
        let (report, code) = check_json(&[file.to_str().unwrap(), "--python", "3,2.7"]);
        assert_eq!(report["exercise"], exercise);
        assert_eq!(report["verdict"], "accepted", "{exercise}: {report:#}");
        assert_eq!(code, 0);
        let runs = report["runs"].as_array().unwrap();
        assert!(
            runs.iter().all(|r| r["verdict"] == "accepted"),
            "{exercise}: {report:#}"
        );
    }
}

#[test]
fn a_miscount_of_the_rows_of_one_is_not_called_the_normal_strategy() {
    // Counting empty rows among the rows of one is right where their number is even: only the
    // sample with three empty rows fails, and its hint is about counting.
    let file = root().join("tests/submissions/misere_counts_empty_rows/misere_move.py");
    let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3"]);
    let failed: Vec<&str> = report["runs"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["visibility"] == "sample" && c["verdict"] != "accepted")
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(failed, ["sample/03-empty-rows-do-not-count"]);
    let hints = all_hints(&report);
    assert!(
        hints
            .iter()
            .all(|h| !h.contains("normal game's winning move")),
        "{hints:#?}"
    );
    // The normal strategy fails the endgame samples, told why on the one without empty rows.
    let file = root().join("tests/submissions/misere_normal_strategy/misere_move.py");
    let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3"]);
    let case = report["runs"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "sample/02-one-big-row-two-ones")
        .unwrap()
        .clone();
    assert_eq!(case["verdict"], "wrong_answer");
    let message = case["message"].as_str().unwrap();
    assert!(
        message.contains("after [1, 4] it is [0, 1, 1]") && message.contains("an even number"),
        "{message}"
    );
}

#[test]
fn the_game_is_refereed_under_misere_rules() {
    // The working_game model solution announces the player who took the last element.
    let (_dir, file) = as_students_file("exercises/working_game/solution.py", "misere_game.py");
    let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3"]);
    assert_eq!(report["verdict"], "wrong_answer", "{report:#}");
    let messages: Vec<&str> = report["runs"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["message"].as_str())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("took the last element and so lost under misère rules")),
        "{messages:#?}"
    );
    // The same file is right for working_game, whose scenarios keep the normal rule.
    let (report, _) = check_json(&[
        file.to_str().unwrap(),
        "--python",
        "3",
        "--exercise",
        "working_game",
    ]);
    assert_eq!(report["verdict"], "accepted", "{report:#}");
}

#[test]
fn fixtures_verify_proves_the_misere_checker_on_every_small_board() {
    let output = nimlab()
        .args(["fixtures", "verify", "misere_move", "misere_game"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains(
            "the checker agrees with a search of the game tree on all 14775 moves of the 1550 boards of up to 4 rows of up to 5"
        ),
        "{text}"
    );
    assert!(
        text.contains("misere_game    12 scenario(s) played; the model solution passes them all"),
        "{text}"
    );
}

#[test]
fn init_carries_further_study_marked_optional() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("pack");
    nimlab().arg("init").arg(&pack).assert().success();
    for exercise in ["misere_move", "misere_game"] {
        assert!(pack.join(format!("{exercise}.py")).is_file());
        assert!(pack.join(format!("statements/{exercise}.md")).is_file());
    }
    assert!(
        pack.join("samples/misere_move/02-one-big-row-two-ones.in")
            .is_file()
    );
    let index = std::fs::read_to_string(pack.join("README.md")).unwrap();
    assert!(
        index.contains("10. `misere_move.py`: Further study: the misère move (optional)"),
        "{index}"
    );
    assert!(index.contains("11. `misere_game.py`"), "{index}");
}

#[test]
fn further_study_is_graded_but_not_in_the_total() {
    let class = tempfile::tempdir().unwrap();
    let ada = class.path().join("ada");
    std::fs::create_dir(&ada).unwrap();
    for exercise in ["present_board", "misere_move"] {
        std::fs::copy(
            root().join(format!("exercises/{exercise}/solution.py")),
            ada.join(format!("{exercise}.py")),
        )
        .unwrap();
    }
    let out = tempfile::tempdir().unwrap();
    let out = out.path().join("grades");
    nimlab()
        .arg("grade")
        .arg(class.path())
        .arg("--out")
        .arg(&out)
        .args(["--python", "3"])
        .assert()
        .success();
    let book = std::fs::read_to_string(out.join("gradebook.csv")).unwrap();
    let mut rows = book.lines().map(|l| l.split(',').collect::<Vec<_>>());
    let header = rows.next().unwrap();
    let ada = rows.next().unwrap();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    assert_eq!(ada[column("misere_move")], "10");
    assert_eq!(ada[column("present_board")], "10");
    assert_eq!(ada[column("total")], "10", "{book}");
    let html = std::fs::read_to_string(out.join("report/index.html")).unwrap();
    assert!(html.contains("misere_move (optional)"), "{html}");
    assert!(html.contains("Total scores (out of 100)"), "{html}");
}
