//! The game judge against whole games written the many ways students write them
//! (tests/data/games, described in its README). Every game in `correct/` keeps the lab's five
//! rules, each with its own questions, move input, board drawing and winner wording, and must
//! be accepted on Python 3 and 2.7. Every game in `wrong/` is one of those with a single
//! mistake, and names the rules it breaks on a `# expect:` line: the judge must reject it
//! and name one of those rules, and no other.
//!
//! Each test judges its whole folder and reports every failure at once, so one run shows
//! all the styles the judge does not yet read.

use crate::common::{check_json, root};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The rule names a report can carry in `broken_rule`.
const RULES: [&str; 9] = [
    "modes",
    "setup",
    "board_shown",
    "illegal_refused",
    "legal_accepted",
    "turn_order",
    "computer_optimal",
    "winner",
    "ends",
];

/// The games in tests/data/games/`folder`, in the order of their names.
fn games(folder: &str) -> Vec<PathBuf> {
    let dir = root().join("tests/data/games").join(folder);
    let mut games: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|x| x == "py"))
        .collect();
    games.sort();
    games
}

fn file_name(game: &Path) -> String {
    game.file_name().unwrap().to_string_lossy().into_owned()
}

/// The report of `nimlab check` on a copy of `game` named working_game.py, under Python 3
/// and 2.7; an error if nimlab gave no JSON report.
fn judge(game: &Path) -> Result<Value, String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("working_game.py");
    std::fs::copy(game, &file).unwrap();
    let file = file.to_str().unwrap().to_string();
    std::panic::catch_unwind(|| {
        check_json(&[&file, "--exercise", "working_game", "--python", "3,2.7"]).0
    })
    .map_err(|panic| {
        panic
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_else(|| "nimlab gave no JSON report".into())
    })
}

/// Judges every game, a few at a time; the reports in the games' order.
fn judge_all(games: &[PathBuf]) -> Vec<Result<Value, String>> {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 4);
    let next = AtomicUsize::new(0);
    let reports = Mutex::new(vec![None; games.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = games.get(index) else {
                        break;
                    };
                    let report = judge(game);
                    reports.lock().unwrap()[index] = Some(report);
                }
            });
        }
    });
    reports
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|report| report.expect("every game was judged"))
        .collect()
}

fn runs(report: &Value) -> &[Value] {
    report["runs"].as_array().map_or(&[], Vec::as_slice)
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or("")
}

/// One line per case that was not accepted and says why (interpreter, case, verdict and
/// message), and one line naming the rest (secret cases carry no message).
fn failed_cases(game: &str, report: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    for run in runs(report) {
        let interpreter = text(&run["interpreter"]);
        if run["verdict"] == "accepted" {
            continue;
        }
        let cases = run["cases"].as_array().map_or(&[][..], Vec::as_slice);
        let failed: Vec<&Value> = cases
            .iter()
            .filter(|c| c["verdict"] != "accepted")
            .collect();
        let mut silent = Vec::new();
        for case in &failed {
            let message = text(&case["message"]);
            if message.is_empty() {
                silent.push(format!(
                    "{} ({})",
                    text(&case["name"]),
                    text(&case["verdict"])
                ));
            } else {
                lines.push(format!(
                    "{game} [python {interpreter}] {}: {}: {message}",
                    text(&case["name"]),
                    text(&case["verdict"]),
                ));
            }
        }
        if !silent.is_empty() {
            lines.push(format!(
                "{game} [python {interpreter}] {} more failed: {}",
                silent.len(),
                silent.join(", ")
            ));
        }
        if failed.is_empty() {
            lines.push(format!(
                "{game} [python {interpreter}] run {}: {}",
                text(&run["verdict"]),
                text(&run["message"])
            ));
        }
    }
    lines
}

/// The rules a `# expect:` line of `game` names.
fn expected_rules(game: &Path) -> Vec<String> {
    let source = std::fs::read_to_string(game).unwrap();
    let line = source
        .lines()
        .find_map(|line| line.strip_prefix("# expect:"))
        .unwrap_or_else(|| panic!("{}: no `# expect:` line", file_name(game)));
    line.split_whitespace().map(str::to_string).collect()
}

/// Every rule named in a sample case's feedback, in any run.
fn named_rules(report: &Value) -> Vec<String> {
    let mut rules: Vec<String> = runs(report)
        .iter()
        .flat_map(|run| run["cases"].as_array().into_iter().flatten())
        .filter_map(|case| case["feedback"]["broken_rule"].as_str())
        .map(str::to_string)
        .collect();
    rules.sort();
    rules.dedup();
    rules
}

#[test]
fn every_correct_style_is_accepted_on_both_pythons() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    let games = games("correct");
    assert!(games.len() >= 14, "only {} correct games", games.len());
    let mut failures = Vec::new();
    for (game, report) in games.iter().zip(judge_all(&games)) {
        let name = file_name(game);
        let report = match report {
            Ok(report) => report,
            Err(why) => {
                failures.push(format!("{name}: {why}"));
                continue;
            }
        };
        let mut lines = failed_cases(&name, &report);
        if runs(&report).len() != 2 {
            lines.push(format!(
                "{name}: {} runs, not one on Python 3 and one on 2.7",
                runs(&report).len()
            ));
        }
        if report["verdict"] != "accepted" && lines.is_empty() {
            lines.push(format!("{name}: verdict {}", report["verdict"]));
        }
        failures.extend(lines);
    }
    assert!(
        failures.is_empty(),
        "{} failures in correct games:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_wrong_game_is_caught_naming_its_rule() {
    let games = games("wrong");
    assert!(games.len() >= 7, "only {} wrong games", games.len());
    let mut failures = Vec::new();
    for (game, report) in games.iter().zip(judge_all(&games)) {
        let name = file_name(game);
        let expected = expected_rules(game);
        let report = match report {
            Ok(report) => report,
            Err(why) => {
                failures.push(format!("{name}: {why}"));
                continue;
            }
        };
        let named = named_rules(&report);
        let caught = report["verdict"] == "wrong_answer";
        let right_rule = named.iter().any(|rule| expected.contains(rule));
        let others: Vec<&String> = named.iter().filter(|r| !expected.contains(r)).collect();
        if caught && right_rule && others.is_empty() {
            continue;
        }
        let mut why = format!(
            "{name}: verdict {}, rules named {named:?}, expected one of {expected:?}",
            report["verdict"]
        );
        for line in failed_cases(&name, &report) {
            why.push_str("\n    ");
            why.push_str(&line);
        }
        failures.push(why);
    }
    assert!(
        failures.is_empty(),
        "{} wrong games not caught as they should be:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The corpus itself, without nimlab: every game says its style in a comment, every wrong
/// game names only rules that exist, and the README lists every file.
#[test]
fn every_game_says_its_style_and_the_readme_lists_it() {
    let readme = std::fs::read_to_string(root().join("tests/data/games/README.md")).unwrap();
    for folder in ["correct", "wrong"] {
        for game in games(folder) {
            let name = file_name(&game);
            let source = std::fs::read_to_string(&game).unwrap();
            let comment = source.lines().take_while(|l| l.starts_with('#')).count();
            assert!(
                (2..=5).contains(&comment),
                "{folder}/{name}: {comment} comment lines at the top"
            );
            assert!(
                readme.contains(&format!("`{name}`")),
                "{folder}/{name} is not in the README"
            );
            if folder == "wrong" {
                let expected = expected_rules(&game);
                assert!(!expected.is_empty(), "{name}: an empty `# expect:`");
                for rule in &expected {
                    assert!(RULES.contains(&rule.as_str()), "{name}: no rule {rule:?}");
                }
            } else {
                assert!(!source.contains("# expect:"), "{name}");
            }
        }
    }
}

/// A game coloured with ANSI codes, wrong in one rule: the judge reads the board through the
/// codes to catch it, and the report shows what the program printed with every escape made
/// visible (`\u{1b}[…`), never an escape a terminal would obey.
#[test]
fn a_coloured_game_is_read_through_its_codes_and_shown_without_raw_escapes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("working_game.py");
    std::fs::copy(
        root().join("tests/data/games/wrong/11_ansi_computer_takes_one.py"),
        &file,
    )
    .unwrap();
    let output = crate::common::nimlab()
        .arg("check")
        .arg(&file)
        .args(["--exercise", "working_game", "--python", "3"])
        .output()
        .expect("nimlab runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(!text.contains('\u{1b}'), "a raw escape in:\n{text}");
    assert!(
        text.contains("a computer player makes a winning move whenever one exists"),
        "{text}"
    );
    assert!(
        text.contains("\\u{1b}[36mRow 1:\\u{1b}[0m \\u{1b}[33mX X X\\u{1b}[0m"),
        "{text}"
    );
    let (report, _) = check_json(&[
        file.to_str().unwrap(),
        "--exercise",
        "working_game",
        "--python",
        "3",
    ]);
    assert_eq!(named_rules(&report), ["computer_optimal"], "{report:#}");
    let json = report.to_string();
    assert!(
        !json.contains('\u{1b}') && !json.contains("\\u001b"),
        "{json}"
    );
}

/// A menu whose words leave the mode open ("You against me", "I play myself"): nimlab tries
/// its choices, playing the game again from the start, and where every choice it could try
/// plays another mode than the scenario's, the game is `not_judged` saying what it tried,
/// never `wrong_answer` (nimlab's guess is not the program's fault).
#[test]
fn a_menu_nimlab_can_only_guess_at_is_never_the_programs_fault() {
    let source = std::fs::read_to_string(
        root().join("tests/data/games/correct/27_slash_moves_menu_by_name.py"),
    )
    .unwrap();
    let against_me = r#"players = [(input("Your name: "), True), ("Nimbot", False)]"#;
    assert!(source.contains(against_me));
    // "2 - You against me" seats two humans: no choice plays human against computer.
    let source = source.replace(
        against_me,
        r#"players = [(input("Your name: "), True), (input("Friend's name: "), True)]"#,
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("working_game.py");
    std::fs::write(&file, source).unwrap();
    let (report, _) = check_json(&[
        file.to_str().unwrap(),
        "--exercise",
        "working_game",
        "--python",
        "3",
    ]);
    let cases: Vec<&Value> = runs(&report)
        .iter()
        .flat_map(|run| run["cases"].as_array().into_iter().flatten())
        .collect();
    assert!(
        cases.iter().all(|case| case["verdict"] != "wrong_answer"),
        "{report:#}"
    );
    let against_computer = cases
        .iter()
        .find(|case| text(&case["name"]) == "sample/01-human-vs-computer")
        .expect("the sample game against the computer");
    assert_eq!(against_computer["verdict"], "not_judged", "{report:#}");
    let message = text(&against_computer["message"]);
    assert!(
        message.contains("it tried `1`, `2`, `3`, which played another mode"),
        "{message}"
    );
    // The choices that do play the scenario's mode are found, so those games are judged.
    let between_computers = cases
        .iter()
        .find(|case| text(&case["name"]) == "sample/03-computer-vs-computer")
        .expect("the sample game between computers");
    assert_eq!(between_computers["verdict"], "accepted", "{report:#}");
}
