//! The game judge against programs that break the game's rules. Each broken program is the
//! model solution with one change (a mutant), so each test shows exactly one mistake.

mod common;

use common::{all_hints, check_json, lab_with, root};
use serde_json::Value;

fn model() -> String {
    std::fs::read_to_string(root().join("exercises/working_game/solution.py")).unwrap()
}

/// The model solution with `from` replaced by `to` (which must be there).
fn mutant(from: &str, to: &str) -> String {
    let model = model();
    assert!(
        model.contains(from),
        "the model solution no longer contains {from:?}"
    );
    model.replacen(from, to, 1)
}

/// Checks a program as working_game.py under Python 3; returns the report.
fn judge(program: &str, lab: Option<&std::path::Path>) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("working_game.py");
    std::fs::write(&file, program).unwrap();
    let mut args = vec![
        file.to_str().unwrap().to_string(),
        "--python".into(),
        "3".into(),
    ];
    if let Some(lab) = lab {
        args.extend(["--lab".into(), lab.to_str().unwrap().to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    check_json(&args).0
}

/// The rules broken in failed sample games.
fn broken_rules(report: &Value) -> Vec<String> {
    report["runs"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["feedback"]["broken_rule"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn the_model_solution_wins_every_scenario_on_both_pythons() {
    let file = root().join("exercises/working_game/solution.py");
    let (report, code) = check_json(&[file.to_str().unwrap(), "--exercise", "working_game"]);
    assert_eq!(report["verdict"], "accepted", "{report:#}");
    assert_eq!(code, 0);
    let runs = report["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert!(runs.iter().all(|r| r["verdict"] == "accepted"));
    let cases = runs[0]["cases"].as_array().unwrap();
    for mode in [
        "human-vs-computer",
        "human-vs-human",
        "computer-vs-computer",
    ] {
        assert!(
            cases
                .iter()
                .any(|c| c["name"].as_str().unwrap().contains(mode)),
            "{mode}"
        );
    }
}

#[test]
fn a_computer_playing_at_random_is_caught() {
    let report = judge(&mutant("    if total != 0:\n", "    if False:\n"), None);
    assert_eq!(report["verdict"], "wrong_answer", "{report:#}");
    assert!(
        broken_rules(&report).contains(&"computer_optimal".to_string()),
        "{report:#}"
    );
    // Every scenario with a computer facing a winning board catches it.
    let failed = report["runs"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] != "accepted")
        .count();
    assert!(
        failed >= 8,
        "only {failed} games caught the random computer"
    );
}

#[test]
fn a_computer_that_always_takes_one_is_caught() {
    let report = judge(
        &mutant("    if total != 0:\n", "    if total != 0 and False:\n"),
        None,
    );
    assert_eq!(report["verdict"], "wrong_answer");
}

#[test]
fn passing_the_turn_after_an_illegal_move_is_caught() {
    let program = mutant(
        "            print(\"That move is not allowed, %s. Try again.\" % name)\n            continue\n",
        "            print(\"That move is not allowed, %s. Try again.\" % name)\n            turn = 1 - turn\n            continue\n",
    );
    let report = judge(&program, None);
    assert_eq!(report["verdict"], "wrong_answer");
    let rules = broken_rules(&report);
    assert!(
        rules.contains(&"turn_order".to_string()),
        "human against human: {rules:?}"
    );
    assert!(
        rules.contains(&"illegal_refused".to_string()),
        "human against computer: {rules:?}"
    );
}

#[test]
fn accepting_an_illegal_move_is_caught() {
    let program = mutant(
        "    if 1 <= row <= len(board) and 1 <= elements <= board[row - 1]:\n",
        "    if 1 <= row <= len(board) and elements >= 1:\n",
    );
    let report = judge(&program, None);
    assert_eq!(report["verdict"], "wrong_answer");
    assert!(
        broken_rules(&report).contains(&"illegal_refused".to_string()),
        "{report:#}"
    );
}

#[test]
fn announcing_the_wrong_winner_is_caught() {
    let report = judge(
        &mutant(
            "print(\"%s wins\" % name)",
            "print(\"%s wins\" % players[1 - turn])",
        ),
        None,
    );
    assert_eq!(report["verdict"], "wrong_answer");
    assert!(
        broken_rules(&report).iter().all(|r| r == "winner"),
        "{report:#}"
    );
}

#[test]
fn crashing_on_malformed_input_is_a_runtime_error_with_its_traceback() {
    let report = judge(
        &mutant("        except ValueError:\n", "        except KeyError:\n"),
        None,
    );
    assert_eq!(report["verdict"], "runtime_error", "{report:#}");
    let case = &report["runs"][0]["cases"][0];
    assert!(
        case["message"].as_str().unwrap().starts_with("ValueError"),
        "{case:#}"
    );
    let stderr = case["feedback"]["stderr"].as_str().unwrap();
    assert!(
        stderr.contains("ValueError: invalid literal for int()"),
        "{stderr}"
    );
    assert!(
        all_hints(&report)
            .iter()
            .any(|h| h.contains("catch the ValueError"))
    );
    // The transcript shows the game up to the crash, nimlab's typing apart.
    let transcript = case["feedback"]["transcript"].as_array().unwrap();
    assert!(
        transcript
            .iter()
            .any(|e| e["kind"] == "typed" && e["text"] == "hello")
    );
}

#[test]
fn never_showing_the_board_is_caught() {
    let report = judge(
        &mutant(
            "def present_board(board):\n",
            "def present_board(board):\n    return\n",
        ),
        None,
    );
    assert_eq!(report["verdict"], "wrong_answer");
    assert!(
        broken_rules(&report).iter().all(|r| r == "board_shown"),
        "{report:#}"
    );
    let message = report["runs"][0]["cases"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("before showing the board") || message.contains("never"),
        "{message}"
    );
}

#[test]
fn drawing_the_board_wrongly_is_caught() {
    let report = judge(&mutant("enumerate(board, 1)", "enumerate(board)"), None);
    assert_eq!(report["verdict"], "wrong_answer");
    let message = report["runs"][0]["cases"][0]["message"].as_str().unwrap();
    assert!(message.contains("present_board's format"), "{message}");
}

#[test]
fn asking_for_more_after_the_game_is_caught() {
    let program = mutant(
        "            print(\"%s wins\" % name)\n            return\n",
        "            print(\"%s wins\" % name)\n            while True:\n                read_line(\"Play again? \")\n",
    );
    let report = judge(&program, None);
    assert_eq!(report["verdict"], "wrong_answer");
    assert!(
        broken_rules(&report).iter().all(|r| r == "ends"),
        "{report:#}"
    );
}

#[test]
fn a_program_that_never_ends_is_stopped() {
    let lab = lab_with(&["working_game"], |config| {
        let mut limits = toml::Table::new();
        limits.insert("cpu_ms".into(), 500.into());
        limits.insert("wall_ms".into(), 800.into());
        limits.insert("memory_mb".into(), 256.into());
        limits.insert("output_kb".into(), 256.into());
        config.insert("limits".into(), limits.into());
    });
    let program = mutant(
        "            print(\"%s wins\" % name)\n            return\n",
        "            print(\"%s wins\" % name)\n            while True:\n                pass\n",
    );
    let report = judge(&program, Some(lab.path()));
    assert_eq!(report["verdict"], "time_limit", "{report:#}");
    assert!(
        report["runs"][0]["cases"][0]["message"]
            .as_str()
            .unwrap()
            .contains("did not end")
    );
}

#[test]
fn the_labs_own_style_with_players_fixed_in_code_is_judged_too() {
    let program = mutant(
        "    first = read_line(\"Player 1's name: \")\n    second = read_line(\"Player 2's name: \")\n    sizes = [int(word) for word in read_line(\"Board: \").split()]\n    play_nim(first, second, sizes)\n",
        "    play_nim(\"You\", \"Computer\", [5, 4, 3, 2, 1])\n",
    );
    let report = judge(&program, None);
    assert_eq!(report["verdict"], "accepted", "{report:#}");
    // And a fixed-style game with a random computer is still caught.
    let random = program.replacen("    if total != 0:\n", "    if False:\n", 1);
    assert_eq!(judge(&random, None)["verdict"], "wrong_answer");
}

#[test]
fn moves_typed_without_a_comma_are_tried_when_the_comma_is_refused() {
    let program = mutant(".replace(\",\", \" \").split()", ".split()");
    let report = judge(&program, None);
    assert_eq!(report["verdict"], "accepted", "{report:#}");
}

#[test]
fn failed_games_show_their_transcript_in_text() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("working_game.py");
    std::fs::write(
        &file,
        mutant(
            "print(\"%s wins\" % name)",
            "print(\"%s wins\" % players[1 - turn])",
        ),
    )
    .unwrap();
    let output = common::nimlab()
        .arg("check")
        .arg(&file)
        .args(["--python", "3"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("the game (» is what nimlab typed):"),
        "{text}"
    );
    assert!(text.contains("Player 1's name: » Ada"), "{text}");
    assert!(text.contains("✗ the winner is announced:"), "{text}");
}

#[test]
fn fixtures_verify_plays_the_scenarios_against_the_model_solution() {
    let lab = lab_with(&["working_game"], |_| {});
    let lab_arg = lab.path().to_str().unwrap().to_string();
    let verify = |lab: &str| {
        common::nimlab()
            .args(["--lab", lab, "fixtures", "verify"])
            .output()
            .unwrap()
    };
    let output = verify(&lab_arg);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("15 scenario(s) played"));
    // A model solution that announces the wrong winner fails verification, naming the games.
    let solution = lab.path().join("exercises/working_game/solution.py");
    std::fs::write(
        &solution,
        mutant(
            "print(\"%s wins\" % name)",
            "print(\"%s wins\" % players[1 - turn])",
        ),
    )
    .unwrap();
    let output = verify(&lab_arg);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("sample/01-human-vs-computer")
            && stderr.contains("the winner is announced"),
        "{stderr}"
    );
}

#[test]
fn a_malformed_scenario_is_refused_with_its_path() {
    let lab = lab_with(&["working_game"], |_| {});
    let scenario = lab
        .path()
        .join("fixtures/working_game/secret/99-broken.toml");
    std::fs::write(&scenario, "players = [\"Ada\"]\nboard = [3]\n").unwrap();
    let output = common::nimlab()
        .arg("--lab")
        .arg(lab.path())
        .arg("list")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(scenario.to_str().unwrap()) && stderr.contains("players"),
        "{stderr}"
    );
    // Game fixtures are scenarios, not stdin cases.
    std::fs::remove_file(&scenario).unwrap();
    std::fs::write(
        lab.path().join("fixtures/working_game/secret/99-stray.in"),
        "1 2\n",
    )
    .unwrap();
    let output = common::nimlab()
        .arg("--lab")
        .arg(lab.path())
        .arg("list")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&output.stderr).contains("its fixtures are .toml scenarios"));
}
