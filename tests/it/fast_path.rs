//! The fast path (`--runner fork`): every submission the project has, checked both ways, gives
//! the same report; the fork server survives what programs do to it, keeps runs apart, and
//! when it dies the runs go on as processes and the report says so.

use crate::common::{nimlab, root};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The project's submissions: the corpus of mistakes, the model solutions, the starter
/// files, and the lab's own functions and input blocks (as lab_solutions.rs builds them),
/// with the exercise to check each as where its name does not say.
fn corpus(scratch: &Path) -> Vec<(PathBuf, Option<String>)> {
    let mut items = Vec::new();
    let mut add_folder = |folder: PathBuf, exercise: Option<String>| {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "py"))
            .collect();
        files.sort();
        for file in files {
            items.push((file, exercise.clone()));
        }
    };
    let mut mistakes: Vec<PathBuf> = std::fs::read_dir(root().join("tests/submissions"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    mistakes.sort();
    for folder in mistakes {
        add_folder(folder, None);
    }
    for exercise in crate::common::exercises() {
        add_folder(root().join("exercises").join(&exercise), Some(exercise));
    }
    let lab = root().join("tests/data/lab");
    let read = |file: &str| std::fs::read_to_string(lab.join(file)).unwrap();
    let mut blocks: Vec<PathBuf> = std::fs::read_dir(lab.join("blocks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    blocks.sort();
    for block in blocks {
        let exercise = block.file_stem().unwrap().to_str().unwrap().to_string();
        let folder = scratch.join(format!("lab-{exercise}"));
        std::fs::create_dir_all(&folder).unwrap();
        let file = folder.join(format!("{exercise}.py"));
        let functions = read(&format!("functions/{exercise}.py"));
        let block = std::fs::read_to_string(&block).unwrap();
        std::fs::write(&file, format!("{functions}\n\n{block}")).unwrap();
        items.push((file, None));
    }
    let folder = scratch.join("lab-optimal_move");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("optimal_move.py"),
        read("functions/optimal_move.py"),
    )
    .unwrap();
    items.push((folder.join("optimal_move.py"), None));
    let game = scratch.join("lab-game");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(game.join("working_game.py"), read("game/working_game.py")).unwrap();
    for sibling in ["present_board", "ui", "optimal_move", "make_move"] {
        std::fs::write(
            game.join(format!("{sibling}.py")),
            read(&format!("functions/{sibling}.py")),
        )
        .unwrap();
    }
    items.push((game.join("working_game.py"), None));
    items
}

/// `nimlab check --format json` with a runner: the report and the exit code.
fn check(file: &Path, exercise: Option<&str>, runner: &str, jobs: usize) -> (Value, i32) {
    let mut command = nimlab();
    command
        .arg("check")
        .arg(file)
        .args(["--format", "json", "--runner", runner])
        .args(["--jobs", &jobs.to_string()]);
    if let Some(exercise) = exercise {
        command.args(["--exercise", exercise]);
    }
    let output = command.output().unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: not a JSON report ({e}): {}",
            file.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (report, output.status.code().unwrap())
}

/// What two runs of one program may differ in whatever runs them: timings (and the CPU
/// times in time-limit messages), which runner judged, and what a program cut off at the
/// output limit managed to write to stderr before it died (it races the kill: the process
/// path itself gives one or the other).
fn comparable(mut report: Value) -> Value {
    for run in report["runs"].as_array_mut().unwrap() {
        let run = run.as_object_mut().unwrap();
        run.remove("runner");
        run.remove("runner_note");
        for case in run["cases"].as_array_mut().unwrap() {
            let case = case.as_object_mut().unwrap();
            case.remove("time_ms");
            case.remove("wall_ms");
            let message = without_timings(case["message"].as_str().unwrap());
            case.insert("message".into(), Value::String(message));
            if case["verdict"] == "output_limit" {
                if let Some(feedback) = case.get_mut("feedback").and_then(Value::as_object_mut) {
                    feedback.remove("stderr");
                }
            }
        }
    }
    report
}

/// "used 2010 ms" and "having used 3 ms" become "used N ms"; limits ("the limit is 2000 ms")
/// stay.
fn without_timings(message: &str) -> String {
    let words: Vec<&str> = message.split(' ').collect();
    let kept: Vec<&str> = words
        .iter()
        .enumerate()
        .map(|(i, word)| {
            let timing = i > 0
                && words[i - 1] == "used"
                && words.get(i + 1) == Some(&"ms")
                && word.chars().all(|c| c.is_ascii_digit());
            if timing { "N" } else { word }
        })
        .collect();
    kept.join(" ")
}

/// Programs whose results vary from one run to the next whatever runs them.
const NONDETERMINISTIC: [&str; 1] = [
    // Returns a random move: each case passes or fails by chance.
    "random_move",
];

#[test]
fn every_submission_gets_the_same_report_forked_as_from_a_fresh_interpreter() {
    let scratch = tempfile::tempdir().unwrap();
    let mut differences = Vec::new();
    let mut forked_cases = 0;
    for (file, exercise) in corpus(scratch.path()) {
        let name = file.display().to_string();
        // Sleeping programs wait out the wall clock; more of them at once cost no CPU.
        let jobs = if name.contains("sleeps") { 16 } else { 2 };
        let (process, process_code) = check(&file, exercise.as_deref(), "process", jobs);
        let (fork, fork_code) = check(&file, exercise.as_deref(), "fork", jobs);
        for run in process["runs"].as_array().unwrap() {
            assert_eq!(run["runner"], "process", "{name}: {run:#}");
        }
        for run in fork["runs"].as_array().unwrap() {
            assert_eq!(run["runner_note"], Value::Null, "{name}: {run:#}");
            if run["runner"] == "fork" {
                forked_cases += run["cases"].as_array().unwrap().len();
            }
        }
        if NONDETERMINISTIC.iter().any(|n| name.contains(n)) {
            // Still judged alike in kind: every case passes or fails, nothing else.
            for report in [&process, &fork] {
                for run in report["runs"].as_array().unwrap() {
                    for case in run["cases"].as_array().unwrap() {
                        let verdict = case["verdict"].as_str().unwrap();
                        assert!(
                            ["accepted", "wrong_answer"].contains(&verdict),
                            "{name}: {case:#}"
                        );
                    }
                }
            }
            continue;
        }
        if (comparable(process.clone()), process_code) != (comparable(fork.clone()), fork_code) {
            differences.push(format!(
                "{name}: exit {process_code} / {fork_code}\nprocess: {:#}\nfork: {:#}",
                comparable(process),
                comparable(fork)
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{} submission(s) judged differently:\n{}",
        differences.len(),
        differences.join("\n\n")
    );
    assert!(forked_cases > 1000, "only {forked_cases} cases were forked");
}
