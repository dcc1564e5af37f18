//! Snapshots of what students see: the text report and the JSON report for each kind of
//! failure. Timings, paths and the interpreter's exact version are redacted.

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

use nimlab::judge::Verdict;
use nimlab::judge::compare::LineDifference;
use nimlab::lab::Visibility;
use nimlab::report::{
    CaseFeedback, CaseReport, CheckReport, Event, JsonReporter, Reporter, RunReport, TextReporter,
    TranscriptEntry,
};

const EVERY_VERDICT: [Verdict; 9] = [
    Verdict::Accepted,
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
        time_ms: 12,
        wall_ms: 15,
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
    secret.message.clear();
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
        runner: "process".into(),
        runner_note: None,
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
    assert_eq!(value["runs"][0]["cases"].as_array().unwrap().len(), 10);
    insta::assert_snapshot!(text);
}
