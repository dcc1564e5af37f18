//! The game judge against programs that break the game's rules. Each broken program is the
//! model solution with one change (a mutant), so each test shows exactly one mistake.

use crate::common;

use crate::common::{all_hints, check_json, lab_with, root};
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
    if !crate::common::needs_python_2_7() {
        return;
    }
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
    // Against the computer too: the refusal is printed, then the computer's move announced.
    assert!(
        !rules.is_empty() && rules.iter().all(|r| r == "turn_order"),
        "{rules:?}"
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
fn a_board_nimlab_cannot_read_is_a_suggestion_and_the_game_is_followed_by_its_moves() {
    // No board at all (present_board returns None), or rows numbered from 0: nimlab follows
    // the game by the moves it types and the computer's moves the program announces.
    for program in [
        mutant(
            "def present_board(board):\n",
            "def present_board(board):\n    return\n",
        ),
        mutant("enumerate(board, 1)", "enumerate(board)"),
    ] {
        let report = judge(&program, None);
        assert_eq!(report["verdict"], "accepted", "{report:#}");
        let message = report["runs"][0]["cases"][0]["message"].as_str().unwrap();
        assert!(
            message.starts_with("accepted; a suggestion")
                && message.contains("could not read a board"),
            "{message}"
        );
        // Followed by its moves, a random computer is still caught.
        let random = program.replacen("    if total != 0:\n", "    if False:\n", 1);
        let report = judge(&random, None);
        assert_eq!(report["verdict"], "wrong_answer", "{report:#}");
        assert!(
            broken_rules(&report).contains(&"computer_optimal".to_string()),
            "{report:#}"
        );
    }
}

#[test]
fn drawing_a_board_that_is_not_the_games_is_caught() {
    let report = judge(&mutant("\" X\" * size", "\" X\" * (size + 1)"), None);
    assert_eq!(report["verdict"], "wrong_answer");
    assert!(
        broken_rules(&report).iter().all(|r| r == "board_shown"),
        "{report:#}"
    );
    let message = report["runs"][0]["cases"][0]["message"].as_str().unwrap();
    assert!(
        message
            .contains("the board typed was [5, 4, 3, 2, 1], but the program shows [6, 5, 4, 3, 2]"),
        "{message}"
    );
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

/// The scenarios a program with one human against one computer, fixed in its code, can play.
fn human_against_computer(case: &str) -> bool {
    [
        "human-vs-computer",
        "computer-moves-first",
        "perfect-human-beats-computer",
        "computer-first-on-a-lost-board",
        "many-illegal-attempts",
    ]
    .iter()
    .any(|mode| case.contains(mode))
}

#[test]
fn a_program_with_players_fixed_in_code_is_told_which_modes_it_cannot_play() {
    let program = mutant(
        "    first = read_line(\"Player 1's name: \")\n    second = read_line(\"Player 2's name: \")\n    sizes = [int(word) for word in read_line(\"Board: \").split()]\n    play_nim(first, second, sizes)\n",
        "    play_nim(\"You\", \"Computer\", [5, 4, 3, 2, 1])\n",
    );
    let report = judge(&program, None);
    assert_eq!(report["verdict"], "wrong_answer", "{report:#}");
    // The games it can play are judged on their merits, and pass.
    for case in report["runs"][0]["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let wanted = if human_against_computer(name) {
            "accepted"
        } else {
            "wrong_answer"
        };
        assert_eq!(case["verdict"], wanted, "{case:#}");
    }
    // The others fail rule 1 alone, each naming the mode it cannot play.
    assert_eq!(broken_rules(&report), ["modes", "modes"], "{report:#}");
    let message = |i: usize| report["runs"][0]["cases"][i]["message"].as_str().unwrap();
    assert!(
        message(1).contains("cannot play this scenario's human against human"),
        "{}",
        message(1)
    );
    assert!(
        message(2).contains("cannot play this scenario's computer against computer"),
        "{}",
        message(2)
    );
    assert!(
        all_hints(&report)
            .iter()
            .any(|h| h.contains("Let them choose before the game"))
    );
    // And a fixed-style game with a random computer is still caught.
    let random = program.replacen("    if total != 0:\n", "    if False:\n", 1);
    let report = judge(&random, None);
    assert_eq!(report["verdict"], "wrong_answer");
    assert!(
        broken_rules(&report).contains(&"computer_optimal".to_string()),
        "{report:#}"
    );
}

#[test]
fn asking_again_without_a_message_is_a_suggestion_not_a_failure() {
    let program = mutant(
        "            print(\"That move is not allowed, %s. Try again.\" % name)\n",
        "",
    );
    let report = judge(&program, None);
    assert_eq!(report["verdict"], "accepted", "{report:#}");
    let message = report["runs"][0]["cases"][0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("accepted; a suggestion: after Ada typed `9, 1`"),
        "{message}"
    );
    // Passing the turn after an illegal move, without a message, is still caught.
    let passes = mutant(
        "            print(\"That move is not allowed, %s. Try again.\" % name)\n            continue\n",
        "            turn = 1 - turn\n            continue\n",
    );
    let report = judge(&passes, None);
    assert_eq!(report["verdict"], "wrong_answer");
    assert!(
        broken_rules(&report).contains(&"turn_order".to_string()),
        "{report:#}"
    );
}

#[test]
fn announcing_the_winner_without_drawing_the_empty_board_is_right() {
    let end = "        print(present_board(board))\n        if is_board_empty(board):\n            print(\"%s wins\" % name)\n            return\n";
    let without_board = "        if is_board_empty(board):\n            print(\"%s wins\" % name)\n            return\n        print(present_board(board))\n";
    // Humans and computers both take the last element in some of the scenarios.
    let report = judge(&mutant(end, without_board), None);
    assert_eq!(report["verdict"], "accepted", "{report:#}");
    // The winner is still checked: the judge knows who took the last element.
    let wrong = mutant(end, &without_board.replace("% name", "% players[1 - turn]"));
    let report = judge(&wrong, None);
    assert_eq!(report["verdict"], "wrong_answer");
    assert!(
        broken_rules(&report).iter().all(|r| r == "winner"),
        "{report:#}"
    );
    // A program that ends after a move that leaves elements has not finished the game.
    let early = mutant(
        "        print(present_board(board))\n        if is_board_empty(board):\n",
        "        if True:\n",
    );
    let report = judge(&early, None);
    assert_eq!(report["verdict"], "wrong_answer");
    let message = report["runs"][0]["cases"][0]["message"].as_str().unwrap();
    assert!(message.contains("before the game was over"), "{message}");
}

/// The lab-style reference game (tests/data/lab/game) with the four exercise files it imports
/// beside it, `edit` applied to its source; checked under Python 3 and 2.7.
fn lab_reference_game(edit: impl Fn(String) -> String) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let data = root().join("tests/data/lab");
    for module in ["present_board", "make_move", "optimal_move", "ui"] {
        std::fs::copy(
            data.join(format!("functions/{module}.py")),
            dir.path().join(format!("{module}.py")),
        )
        .unwrap();
    }
    let source = std::fs::read_to_string(data.join("game/working_game.py")).unwrap();
    let file = dir.path().join("working_game.py");
    std::fs::write(&file, edit(source)).unwrap();
    (dir, file)
}

/// The lab-style game with its crash on text that is no move fixed: it asks again.
fn crash_fixed(source: String) -> String {
    let read = "            row, elements = input(\"make a move {} (row, elements)\".format(mover)).split(\",\")\n            board, moved = make_move(board, int(row), int(elements))\n";
    assert!(source.contains(read), "the reference game changed");
    source.replace(
        read,
        &format!(
            "            try:\n{}            except ValueError:\n                continue\n",
            read.replace("\n            ", "\n                ")
                .replacen("            row", "                row", 1)
        ),
    )
}

#[test]
fn the_labs_reference_game_fails_only_on_its_crash_and_the_modes_it_cannot_play() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    let (_dir, file) = lab_reference_game(|s| s);
    let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3,2.7"]);
    assert_eq!(report["verdict"], "runtime_error", "{report:#}");
    for run in report["runs"].as_array().unwrap() {
        let cases = run["cases"].as_array().unwrap();
        for case in cases {
            let name = case["name"].as_str().unwrap();
            let verdict = case["verdict"].as_str().unwrap();
            // A scenario that types text with no comma crashes it; nothing else fails but
            // the modes a fixed program cannot play.
            match verdict {
                "accepted" => assert!(human_against_computer(name), "{case:#}"),
                "runtime_error" => assert!(
                    ["sample/01", "secret/05", "secret/11"]
                        .iter()
                        .any(|c| name.starts_with(c)),
                    "{case:#}"
                ),
                _ => {
                    assert_eq!(verdict, "wrong_answer", "{case:#}");
                    assert!(!human_against_computer(name), "{case:#}");
                }
            }
        }
        let first = &cases[0];
        assert_eq!(first["verdict"], "runtime_error");
        let message = first["message"].as_str().unwrap();
        assert!(
            message.starts_with("ValueError") && message.contains("unpack"),
            "{message}"
        );
        let hints = first["feedback"]["hints"].as_array().unwrap();
        assert!(
            hints.iter().any(|h| h
                .as_str()
                .unwrap()
                .starts_with("`hello` is not a move, and the program crashed on it")),
            "{hints:#?}"
        );
        assert!(
            !hints.iter().any(|h| h.as_str().unwrap().contains("int()")),
            "the crash is the unpacking, not int(): {hints:#?}"
        );
        let rules: Vec<&str> = cases
            .iter()
            .filter_map(|c| c["feedback"]["broken_rule"].as_str())
            .collect();
        assert_eq!(rules, ["modes", "modes"], "{run:#}");
    }
}

#[test]
fn the_labs_reference_game_with_its_crash_fixed_is_told_only_which_modes_it_cannot_play() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    let (_dir, file) = lab_reference_game(crash_fixed);
    let (report, _) = check_json(&[file.to_str().unwrap(), "--python", "3,2.7"]);
    assert_eq!(report["verdict"], "wrong_answer", "{report:#}");
    for run in report["runs"].as_array().unwrap() {
        for case in run["cases"].as_array().unwrap() {
            let name = case["name"].as_str().unwrap();
            let wanted = if human_against_computer(name) {
                "accepted"
            } else {
                "wrong_answer"
            };
            assert_eq!(case["verdict"], wanted, "{case:#}");
        }
        let message = run["cases"][0]["message"].as_str().unwrap();
        assert!(message.starts_with("accepted; a suggestion"), "{message}");
    }
    // In the text report: which modes it cannot show, the reason once, and no complaint
    // about illegal moves or the end of the game.
    let output = common::nimlab()
        .arg("check")
        .arg(&file)
        .args(["--python", "3,2.7"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    for mode in ["human against human", "computer against computer"] {
        assert!(
            text.contains(&format!("cannot play this scenario's {mode}")),
            "{text}"
        );
    }
    assert_eq!(
        text.matches("Let them choose before the game").count(),
        1,
        "{text}"
    );
    for complaint in [
        "an illegal move changes nothing",
        "the winner is announced",
        "the program ends by itself",
        "before the game was over",
        "✗ the players take turns",
    ] {
        assert!(!text.contains(complaint), "{complaint}: {text}");
    }
}

#[test]
fn each_interpreter_shows_its_own_failure_in_text() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    // Without the raw_input line, Python 2's input() runs "9, 1" as code (a tuple), while
    // Python 3 gets as far as `hello`.
    let (_dir, file) = lab_reference_game(|s| {
        s.replace(
            "try:\n    input = raw_input\nexcept NameError:\n    pass\n",
            "",
        )
    });
    let output = common::nimlab()
        .arg("check")
        .arg(&file)
        .args(["--python", "3,2.7"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let python2 = text
        .split("── sample/01-human-vs-computer under Python 2.7")
        .nth(1)
        .unwrap_or_else(|| panic!("no feedback of its own under Python 2.7: {text}"));
    assert!(
        python2.contains("AttributeError: 'tuple' object has no attribute 'split'"),
        "{text}"
    );
    assert!(
        python2.contains("input() runs the line it reads as Python code"),
        "{text}"
    );
    assert!(
        !text.contains("sample/01-human-vs-computer failed the same way"),
        "{text}"
    );
    let python3 = text.split("under Python 2.7").next().unwrap();
    assert!(python3.contains("`hello` is not a move"), "{text}");
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

/// A game whose mode question nimlab cannot read: colours for modes.
const COLOUR_GAME: &str = r#"from __future__ import print_function
try:
    input = raw_input
except NameError:
    pass


def winning(board):
    total = 0
    for size in board:
        total ^= size
    for index, size in enumerate(board):
        if total and size ^ total < size:
            return index, size - (size ^ total)
    index = [i for i, size in enumerate(board) if size][0]
    return index, 1


print("red: two people, blue: you and the machine, green: machines only")
while True:
    colour = input("Colour? ").strip()
    if colour in ("red", "blue", "green"):
        break
machine = {"red": [False, False], "blue": [False, True], "green": [True, True]}[colour]
board = [3, 4, 5]
turn = 0
while sum(board):
    print("Nim:")
    for number, size in enumerate(board, 1):
        print("%d:%s" % (number, " X" * size))
    if machine[turn]:
        row, take = winning(board)
        print("The machine takes %d from row %d" % (take, row + 1))
    else:
        try:
            row, take = [int(w) for w in input("Player %d, row and count: " % (turn + 1)).replace(",", " ").split()]
            row -= 1
        except ValueError:
            print("Two numbers, please")
            continue
        if not (0 <= row < len(board) and 1 <= take <= board[row]):
            print("Not a legal move")
            continue
    board[row] -= take
    turn = 1 - turn
print("Player %d wins" % (2 - turn))
"#;

#[test]
fn a_game_nimlab_cannot_drive_is_not_judged_and_the_lab_can_give_the_answers() {
    let report = judge(COLOUR_GAME, None);
    assert_eq!(report["verdict"], "not_judged", "{report:#}");
    for case in report["runs"][0]["cases"].as_array().unwrap() {
        assert_eq!(case["verdict"], "not_judged", "{case:#}");
        assert!(case["feedback"]["broken_rule"].is_null(), "{case:#}");
    }
    let message = report["runs"][0]["cases"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("could not find out how to play") && message.contains("`Colour?`"),
        "{message}"
    );
    assert!(message.contains("exercise.toml"), "{message}");
    // The instructor gives the answers for the lab: every scenario is then played.
    let lab = lab_with(&["working_game"], |config| {
        let answers: toml::Value = toml::from_str::<toml::Table>(
            "[[answers]]\nquestion = \"colour\"\nhuman_vs_human = \"red\"\nhuman_vs_computer = \"blue\"\ncomputer_vs_computer = \"green\"\n",
        )
        .unwrap()["answers"]
            .clone();
        config.insert("answers".into(), answers);
    });
    let report = judge(COLOUR_GAME, Some(lab.path()));
    assert_eq!(report["verdict"], "accepted", "{report:#}");
    // An answer that is not one line is refused, naming the file.
    let lab = lab_with(&["working_game"], |config| {
        let answers: toml::Value = toml::from_str::<toml::Table>(
            "[[answers]]\nquestion = \"colour\"\n",
        )
        .unwrap()["answers"]
            .clone();
        config.insert("answers".into(), answers);
    });
    let output = common::nimlab()
        .arg("--lab")
        .arg(lab.path())
        .arg("list")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("exercise.toml") && stderr.contains("gives no `answer`"),
        "{stderr}"
    );
}

#[test]
fn a_hostile_question_is_quoted_short_and_escaped_and_the_game_is_not_judged() {
    // A 100 KB question with terminal escapes, asked forever.
    let program = "while True:\n    input('\\x1b[2J\\x07' + 'x' * 100000 + '? ')\n";
    let report = judge(program, None);
    assert_eq!(report["verdict"], "not_judged", "{report:#}");
    let message = report["runs"][0]["cases"][0]["message"].as_str().unwrap();
    assert!(message.len() < 1500, "{} bytes: {message}", message.len());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("working_game.py");
    std::fs::write(&file, program).unwrap();
    let output = common::nimlab()
        .arg("check")
        .arg(&file)
        .args(["--python", "3"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("not judged"), "{text}");
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "raw control characters reached the terminal"
    );
}
