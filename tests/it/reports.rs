//! Snapshots of what students see: the text report and the JSON report for each kind of
//! failure. Timings, paths and the interpreter's exact version are redacted. Then what a
//! student sees of secret cases and of nimlab's own failures, against what the instructor does.

use crate::common::{nimlab, root};

fn report(folder: &str, file: &str, format: &str) -> String {
    let path = root().join("tests/submissions").join(folder).join(file);
    let output = nimlab()
        .current_dir(root())
        .arg("check")
        .arg(path.strip_prefix(root()).unwrap())
        .args(["--python", "3", "--jobs", "1", "--format", format])
        .output()
        .unwrap();
    String::from_utf8(output.stdout).unwrap()
}

fn settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    // A case line's time is right-aligned in five columns, whatever its digits.
    settings.add_filter(r"[ \d]{4}\d ms", "   [T] ms");
    settings.add_filter(r"\d+ ms", "[T] ms");
    settings.add_filter(r#""(time_ms|wall_ms)": \d+"#, r#""$1": "[T]""#);
    settings.add_filter(r"Python 3\.\d+\.\d+", "Python 3.x");
    settings.add_filter(r#""version": "3\.\d+\.\d+""#, r#""version": "3.x""#);
    settings.add_filter(r#"  \(/[^)]*python[^)]*\)"#, "  ([PYTHON])");
    settings.add_filter(r#""path": "/[^"]*""#, r#""path": "[PYTHON]""#);
    settings.add_filter(&regex_escape(&root().display().to_string()), "[ROOT]");
    // Whether this machine can isolate is not part of what a report says about a submission.
    settings.add_filter(r"(?m)^(isolated|not isolated).*$", "[ISOLATION]");
    settings.add_filter(r#""isolation": "[^"]*""#, r#""isolation": "[ISOLATION]""#);
    settings
}

fn regex_escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if "\\.+*?()|[]{}^$".contains(c) {
                vec!['\\', c]
            } else {
                vec![c]
            }
        })
        .collect()
}

#[test]
fn text_report_of_a_wrong_answer() {
    settings().bind(|| insta::assert_snapshot!(report("zero_based_row", "make_move.py", "text")));
}

#[test]
fn text_report_of_a_runtime_error() {
    settings().bind(|| insta::assert_snapshot!(report("crash", "nim_sum.py", "text")));
}

#[test]
fn text_report_of_a_syntax_error() {
    settings().bind(|| insta::assert_snapshot!(report("python3_print", "exclusive_or.py", "text")));
}

#[test]
fn text_report_of_a_checker_rejection() {
    settings().bind(|| insta::assert_snapshot!(report("target_size", "optimal_move.py", "text")));
}

#[test]
fn json_report_of_a_wrong_answer() {
    settings().bind(|| insta::assert_snapshot!(report("reversed_digits", "bin_num.py", "json")));
}

#[test]
fn text_report_of_a_game_that_crashes() {
    settings().bind(|| {
        insta::assert_snapshot!(report("game_crash_on_bad_input", "working_game.py", "text"))
    });
}

// ---- Reports of constructed results: every verdict, without running anything -----------
// Rendered whole, as the instructor sees them (`check --instructor`), and as a student does.

use nimlab_core::judge::Verdict;
use nimlab_core::judge::compare::LineDifference;
use nimlab_core::lab::Visibility;
use nimlab_core::report::{
    CaseFeedback, CaseReport, CheckReport, Event, JsonReporter, Reporter, RunReport, StudentView,
    TextReporter, TranscriptEntry,
};

/// What the constructed report's secret case says, for the instructor.
const SECRET_MESSAGE: &str = "line 2: expected `1: X X X X X X X X X`, got `1: X`";

const EVERY_VERDICT: [Verdict; 10] = [
    Verdict::Accepted,
    Verdict::NotJudged,
    Verdict::WrongAnswer,
    Verdict::TimeLimit,
    Verdict::MemoryLimit,
    Verdict::OutputLimit,
    Verdict::RuntimeError,
    Verdict::SyntaxError,
    Verdict::JudgeError,
    Verdict::Skipped,
];

fn message(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Accepted => "",
        Verdict::NotJudged => {
            "nimlab could not find out how to play this game: it could not read the question `Colour?`"
        }
        Verdict::WrongAnswer => "line 1: expected `[1, 2]`, got `[2, 2]`",
        Verdict::TimeLimit => "used 2013 ms of CPU time; the limit is 2000 ms",
        Verdict::MemoryLimit => "ran out of memory: the limit is 256 MB",
        Verdict::OutputLimit => "printed more than 1024 KB, the output limit",
        Verdict::RuntimeError => "IndexError: list index out of range (line 7, in make_move)",
        Verdict::SyntaxError => "",
        Verdict::JudgeError => "cannot create a scratch folder: No space left on device",
        Verdict::Skipped => "not judged: nimlab was interrupted",
    }
}

/// A sample case with the whole story for each failing verdict.
fn case(index: usize, verdict: Verdict) -> CaseReport {
    let failed = !matches!(verdict, Verdict::Accepted | Verdict::Skipped);
    CaseReport {
        name: format!("sample/{:02}-{}", index + 1, verdict.label().replace(' ', "-")),
        visibility: Visibility::Sample,
        weight: 1,
        verdict,
        time_ms: Some(12),
        wall_ms: Some(15),
        message: message(verdict).into(),
        feedback: failed.then(|| CaseFeedback {
            input: "{\"board\": [1, 2], \"move\": [2, 1]}\n".into(),
            expected: "[[1, 1], false]\n".into(),
            one_of_many: false,
            got: "[[2, 2], false]\n".into(),
            first_difference: (verdict == Verdict::WrongAnswer).then(|| LineDifference {
                line: 1,
                expected: Some("[[1, 1], false]\n".into()),
                got: Some("[[2, 2], false]\n".into()),
            }),
            stderr: (verdict == Verdict::RuntimeError).then(|| {
                "Traceback (most recent call last):\n  File \"make_move.py\", line 7, in make_move\nIndexError: list index out of range".into()
            }),
            hints: vec![format!("A hint for a {} case.", verdict.label())],
            transcript: None,
            broken_rule: None,
        }),
    }
}

fn constructed_report() -> CheckReport {
    let cases: Vec<CaseReport> = EVERY_VERDICT
        .iter()
        .enumerate()
        .map(|(i, &v)| case(i, v))
        .collect();
    let mut secret = case(9, Verdict::WrongAnswer);
    secret.name = "secret/01-hidden".into();
    secret.visibility = Visibility::Secret;
    secret.message = SECRET_MESSAGE.into();
    secret.feedback = None;
    let mut cases = cases;
    cases.push(secret);
    let run = RunReport {
        interpreter: "3".into(),
        version: Some("3.11.7".into()),
        path: Some("/usr/bin/python3".into()),
        verdict: Verdict::JudgeError,
        score: 1,
        max_score: 10,
        message: None,
        syntax: None,
        cases,
        runner: "fork and process".into(),
        runner_note: Some(
            "2 of 10 runs were processes of their own, not forks: the fork server ended: Traceback (most recent call last):\n  File \"/tmp/nimlab-4242-fork-Xy12/forkserver.py\", line 130, in <module>\nKeyboardInterrupt".into(),
        ),
    };
    let missing = RunReport {
        interpreter: "2.7".into(),
        version: None,
        path: None,
        verdict: Verdict::Skipped,
        score: 0,
        max_score: 10,
        message: Some(
            "Python 2.7 is not installed here (looked on PATH and in pyenv's versions)".into(),
        ),
        syntax: None,
        cases: Vec::new(),
        runner: "process".into(),
        runner_note: None,
    };
    let mut game_case = case(10, Verdict::WrongAnswer);
    game_case.name = "sample/01-illegal-move".into();
    game_case.message = "the players take turns: Ada moved twice".into();
    if let Some(feedback) = &mut game_case.feedback {
        feedback.first_difference = None;
        feedback.transcript = Some(vec![
            TranscriptEntry::Program("Row? ".into()),
            TranscriptEntry::Typed("1".into()),
            TranscriptEntry::Broken("the players take turns: Ada moved twice".into()),
        ]);
        feedback.broken_rule = Some("turn_order".into());
    }
    let game = RunReport {
        interpreter: "3".into(),
        version: Some("3.11.7".into()),
        path: Some("/usr/bin/python3".into()),
        verdict: Verdict::WrongAnswer,
        score: 0,
        max_score: 1,
        message: None,
        syntax: None,
        cases: vec![game_case],
        runner: "process".into(),
        runner_note: None,
    };
    CheckReport {
        exercise: "make_move".into(),
        submission: "make_move.py".into(),
        verdict: Verdict::JudgeError,
        score: 1,
        max_score: 10,
        runs: vec![run, missing, game],
        warnings: Vec::new(),
        hints: vec!["An overall hint.".into()],
        isolation: "isolated with bubblewrap".into(),
    }
}

fn render(reporter: &mut dyn Reporter, report: &CheckReport) {
    reporter
        .event(&Event::Started {
            exercise: &report.exercise,
            title: "Make a move",
            submission: &report.submission,
        })
        .unwrap();
    for run in &report.runs {
        for case in &run.cases {
            reporter
                .event(&Event::CaseFinished {
                    run: &run.label(),
                    case,
                })
                .unwrap();
        }
        reporter.event(&Event::RunFinished(run)).unwrap();
    }
    reporter.event(&Event::Finished(report)).unwrap();
}

#[test]
fn text_report_of_every_verdict() {
    let report = constructed_report();
    let mut out = Vec::new();
    // As a pipe gets it: without colour.
    render(
        &mut TextReporter::new(anstream::StripStream::new(&mut out)),
        &report,
    );
    let text = String::from_utf8(out).unwrap();
    for verdict in EVERY_VERDICT {
        assert!(
            text.contains(verdict.label()),
            "{verdict:?} missing:\n{text}"
        );
    }
    insta::assert_snapshot!(text);
}

#[test]
fn json_report_of_every_verdict() {
    let report = constructed_report();
    let mut out = Vec::new();
    render(&mut JsonReporter::new(&mut out), &report);
    let text = String::from_utf8(out).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["runs"][0]["cases"].as_array().unwrap().len(), 11);
    insta::assert_snapshot!(text);
}

#[test]
fn text_report_of_every_verdict_as_a_student_sees_it() {
    let report = constructed_report();
    let mut out = Vec::new();
    render(
        &mut StudentView(TextReporter::new(anstream::StripStream::new(&mut out))),
        &report,
    );
    let text = String::from_utf8(out).unwrap();
    // nimlab's own detail (its server's traceback, its folders, the interpreter's path) and
    // the secret case's time and message are the instructor's.
    for detail in [
        "forkserver.py",
        "KeyboardInterrupt",
        "/tmp/nimlab-",
        "/usr/bin/python3",
        "No space left on device",
        SECRET_MESSAGE,
    ] {
        assert!(!text.contains(detail), "{detail}:\n{text}");
    }
    insta::assert_snapshot!(text);
}

#[test]
fn json_report_as_a_student_sees_it_leaves_out_secret_detail_and_nimlabs_own() {
    let report = constructed_report();
    let mut out = Vec::new();
    render(&mut StudentView(JsonReporter::new(&mut out)), &report);
    let text = String::from_utf8(out).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    for detail in [
        "forkserver.py",
        "KeyboardInterrupt",
        "/tmp/nimlab-",
        "/usr/bin/python3",
        "No space left on device",
        SECRET_MESSAGE,
    ] {
        assert!(!text.contains(detail), "{detail}:\n{text}");
    }
    let secret = &value["runs"][0]["cases"][10];
    assert_eq!(secret["name"], "secret/01-hidden");
    assert_eq!(secret["verdict"], "wrong_answer");
    assert_eq!(secret["message"], "");
    for key in ["time_ms", "wall_ms", "feedback"] {
        assert!(secret.get(key).is_none(), "{key}: {secret}");
    }
    // The sample cases keep their times; nimlab's failures are a sentence.
    assert_eq!(value["runs"][0]["cases"][0]["time_ms"], 12);
    assert!(
        value["runs"][0]["runner_note"]
            .as_str()
            .unwrap()
            .contains("not your fault")
    );
    // The report itself keeps everything, for the instructor.
    let mut out = Vec::new();
    render(&mut JsonReporter::new(&mut out), &report);
    let full = String::from_utf8(out).unwrap();
    for detail in [
        "forkserver.py",
        "KeyboardInterrupt",
        "/tmp/nimlab-",
        "/usr/bin/python3",
        SECRET_MESSAGE,
    ] {
        assert!(full.contains(detail), "{detail}:\n{full}");
    }
}

// ---- What `nimlab check` shows a student of secret cases, and the instructor -----------

use crate::common::{CPU_SPELLER, SECRET_FIRST, SPELLED_CASE, case_in, cpu_speller_lab};

/// `nimlab check` of [`CPU_SPELLER`] on its lab: stdout.
fn check_speller(extra: &[&str]) -> String {
    let lab = cpu_speller_lab();
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("present_board.py");
    std::fs::write(&file, CPU_SPELLER).unwrap();
    let output = nimlab()
        .arg("--lab")
        .arg(lab.path())
        .arg("check")
        .arg(&file)
        .args(["--jobs", "1"])
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// The line of the text report that names `case`.
fn line_of<'a>(text: &'a str, case: &str) -> &'a str {
    text.lines()
        .find(|l| l.contains(case))
        .unwrap_or_else(|| panic!("no line for {case}:\n{text}"))
}

#[test]
fn a_students_check_shows_a_secret_case_by_its_verdict_alone_and_the_instructors_shows_all() {
    // For the instructor: the secret case's CPU time spells its input's first number.
    let full: serde_json::Value =
        serde_json::from_str(&check_speller(&["--format", "json", "--instructor"])).unwrap();
    let case = case_in(&full, SPELLED_CASE)[0];
    assert_eq!(case["verdict"], "wrong_answer", "{case}");
    let spent = case["time_ms"].as_u64().unwrap();
    assert!(spent >= SECRET_FIRST * 10, "{case}");
    assert!(
        case["wall_ms"].as_u64().unwrap() >= SECRET_FIRST * 10,
        "{case}"
    );
    let message = case["message"].as_str().unwrap().to_string();
    assert!(!message.is_empty(), "{case}");
    let text = check_speller(&["--instructor"]);
    let line = line_of(&text, SPELLED_CASE);
    assert!(
        line.contains(" ms") && line.contains(&message),
        "{line}\n{text}"
    );

    // For a student (the default): its verdict, nothing else; the samples keep their times.
    let seen: serde_json::Value =
        serde_json::from_str(&check_speller(&["--format", "json"])).unwrap();
    let case = case_in(&seen, SPELLED_CASE)[0];
    assert_eq!(case["verdict"], "wrong_answer", "{case}");
    assert_eq!(case["message"], "", "{case}");
    for key in ["time_ms", "wall_ms", "feedback"] {
        assert!(case.get(key).is_none(), "{key}: {case}");
    }
    let sample = case_in(&seen, "sample/01-four-rows")[0];
    assert!(sample["time_ms"].is_u64(), "{sample}");
    let text = check_speller(&[]);
    let line = line_of(&text, SPELLED_CASE);
    assert!(
        line.trim_end().ends_with("wrong answer") && !line.contains("ms"),
        "{line}\n{text}"
    );
    assert!(!text.contains(&message), "{text}");
    assert!(
        line_of(&text, "sample/01-four-rows").contains(" ms"),
        "{text}"
    );
}
