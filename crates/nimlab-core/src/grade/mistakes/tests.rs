use super::*;
use crate::grade::book::{ExerciseResult, Gradebook, StudentResult};
use crate::lab::Visibility;
use crate::report::{CaseFeedback, SyntaxFeedback};

const DEBUG: &str = "Your answer is there, but so is `DEBUG x`: remove debug prints. The grader reads everything your program prints.";
const NO_HEADER: &str = "The board starts with a line that says exactly `Nim:`.";
const ZERO_ROW: &str = "Rows are numbered from 1, not 0: the first row is `1:`. Python's enumerate(board, 1) counts from 1.";

/// A case that `verdict` judged, the program having printed `got` (and `stderr`), with
/// `hints`.
fn case(name: &str, verdict: Verdict, got: &str, hints: &[&str]) -> CaseReport {
    CaseReport {
        name: name.into(),
        visibility: Visibility::Sample,
        weight: 1,
        verdict,
        time_ms: Some(3),
        wall_ms: Some(4),
        message: format!("{} on {name}", verdict.label()),
        feedback: (verdict != Verdict::Accepted).then(|| CaseFeedback {
            input: "3 1\n".into(),
            expected: "Nim:\n1: X X X\n2: X\n".into(),
            one_of_many: false,
            got: got.into(),
            first_difference: None,
            stderr: None,
            hints: hints.iter().map(|h| h.to_string()).collect(),
            transcript: None,
            broken_rule: None,
        }),
    }
}

fn accepted(name: &str) -> CaseReport {
    case(name, Verdict::Accepted, "", &[])
}

fn wrong(name: &str, got: &str, hints: &[&str]) -> CaseReport {
    case(name, Verdict::WrongAnswer, got, hints)
}

/// A report of one run, under Python 3, of these cases.
fn report(cases: Vec<CaseReport>) -> CheckReport {
    let verdict = Verdict::worst(cases.iter().map(|c| c.verdict));
    let score = cases
        .iter()
        .filter(|c| c.verdict == Verdict::Accepted)
        .count() as u32;
    let max_score = cases.len() as u32;
    CheckReport {
        exercise: "present_board".into(),
        submission: "x.py".into(),
        verdict,
        score,
        max_score,
        runs: vec![RunReport {
            interpreter: "3".into(),
            version: Some("3.11.7".into()),
            path: None,
            verdict,
            score,
            max_score,
            message: None,
            syntax: None,
            cases,
            runner: "fork".into(),
            runner_note: None,
        }],
        warnings: vec![],
        hints: vec![],
        isolation: String::new(),
    }
}

fn graded(report: CheckReport) -> ExerciseResult {
    ExerciseResult {
        status: Status::Graded,
        file: Some("x.py".into()),
        points: 0.0,
        error: None,
        report: Some(report),
    }
}

fn missing() -> ExerciseResult {
    crate::grade::builder::missing()
}

/// A gradebook of two exercises, present_board then make_move, and these students (by id)
/// with their present_board results; make_move is missing for all.
fn book(students: Vec<(&str, ExerciseResult)>) -> Gradebook {
    let exercises = ["present_board", "make_move"]
        .iter()
        .map(|name| ExerciseInfo {
            name: name.to_string(),
            title: format!("Exercise {name}"),
            points: 10,
            optional: false,
            in_total: true,
        })
        .collect();
    Gradebook {
        nimlab_version: "0".into(),
        lab: "test".into(),
        exercises,
        students: students
            .into_iter()
            .map(|(id, result)| StudentResult {
                student: id.to_string(),
                student_id: id.to_string(),
                roster: None,
                exercises: BTreeMap::from([
                    ("present_board".to_string(), result),
                    ("make_move".to_string(), missing()),
                ]),
                total: 0.0,
            })
            .collect(),
        unattributed: vec![],
        superseded: vec![],
        skipped: vec![],
        isolation: String::new(),
    }
}

fn hint_ids(groups: &[Group]) -> Vec<(&str, Vec<&str>)> {
    groups
        .iter()
        .map(|g| {
            let id = match &g.cause {
                Cause::Hint { id, .. } => id.as_str(),
                Cause::SameOutput { .. } => "(same output)",
            };
            (id, g.students.iter().map(String::as_str).collect())
        })
        .collect()
}

#[test]
fn a_group_per_hint_that_fired_and_a_student_with_two_hints_in_both() {
    let book = book(vec![
        // Carol's hints: debug prints on one case, no header on another and again.
        (
            "carol",
            graded(report(vec![
                wrong("sample/01", "DEBUG x\nNim:", &[DEBUG]),
                wrong("sample/02", "1: X", &[NO_HEADER]),
                wrong("sample/03", "2: X", &[NO_HEADER]),
            ])),
        ),
        (
            "bob",
            graded(report(vec![wrong("sample/01", "DEBUG y", &[DEBUG])])),
        ),
        ("ada", graded(report(vec![accepted("sample/01")]))),
        (
            "dan",
            graded(report(vec![wrong("sample/02", "0: X", &[ZERO_ROW])])),
        ),
        (
            "eve",
            graded(report(vec![wrong("sample/01", "DEBUG z", &[DEBUG])])),
        ),
    ]);
    let mistakes = Mistakes::of(&book);
    let board = &mistakes.exercises[0];
    assert_eq!((board.graded, board.failing), (5, 4));
    assert_eq!(
        hint_ids(&board.groups),
        vec![
            ("debug_print", vec!["bob", "carol", "eve"]),
            ("missing_header", vec!["carol"]),
            ("zero_based_row", vec!["dan"]),
        ]
    );
    let debug = &board.groups[0];
    assert_eq!(debug.count, 3);
    assert_eq!(
        debug.cause,
        Cause::Hint {
            id: "debug_print".into(),
            title: "Debug prints in the output".into()
        }
    );
    // The example is the first student's, where the hint was given.
    assert_eq!(debug.example.student, "bob");
    assert_eq!(debug.example.case.as_deref(), Some("sample/01"));
    assert_eq!(debug.example.got, "DEBUG y\n");
    assert_eq!(debug.example.expected, "Nim:\n1: X X X\n2: X\n");
    assert_eq!(debug.example.hint.as_deref(), Some(DEBUG));
    assert_eq!(debug.example.interpreter.as_deref(), Some("3"));
    // Carol's header hint twice: counted once.
    assert_eq!(board.groups[1].count, 1);
    assert_eq!(board.groups[1].example.case.as_deref(), Some("sample/02"));
}

#[test]
fn failures_no_hint_names_group_by_the_same_failed_cases_and_output() {
    let crash = |line: u32| {
        let mut crashed = case("sample/02", Verdict::RuntimeError, "", &[]);
        let feedback = crashed.feedback.as_mut().unwrap();
        feedback.stderr = Some(format!(
            "Traceback (most recent call last):\n  File \"x.py\", line {line}\nZeroDivisionError: division by zero\n"
        ));
        crashed
    };
    let book = book(vec![
        (
            "ann",
            graded(report(vec![
                wrong("sample/01", "board", &[]),
                accepted("sample/02"),
            ])),
        ),
        // The same output, with trailing blank space: the same behaviour.
        (
            "ben",
            graded(report(vec![
                wrong("sample/01", "board\n\n", &[]),
                accepted("sample/02"),
            ])),
        ),
        // The same case, another output.
        (
            "cat",
            graded(report(vec![
                wrong("sample/01", "other", &[]),
                accepted("sample/02"),
            ])),
        ),
        // The same crash, raised on another line of their own code.
        ("dee", graded(report(vec![accepted("sample/01"), crash(3)]))),
        (
            "eli",
            graded(report(vec![accepted("sample/01"), crash(17)])),
        ),
        ("fay", graded(report(vec![accepted("sample/01"), crash(4)]))),
    ]);
    let board = &Mistakes::of(&book).exercises[0];
    let groups: Vec<(Vec<&str>, &Cause)> = board
        .groups
        .iter()
        .map(|g| (g.students.iter().map(String::as_str).collect(), &g.cause))
        .collect();
    assert_eq!(groups.len(), 3, "{groups:#?}");
    assert_eq!(groups[0].0, ["dee", "eli", "fay"]);
    assert_eq!(groups[1].0, ["ann", "ben"]);
    assert_eq!(groups[2].0, ["cat"], "singletons last");
    let Cause::SameOutput { cases, fingerprint } = groups[0].1 else {
        panic!("{groups:#?}");
    };
    assert_eq!(cases, &["sample/02"]);
    assert_eq!(fingerprint.len(), 16);
    assert_eq!(board.groups[0].example.verdict, Verdict::RuntimeError);
    assert_eq!(board.groups[1].example.got, "board\n");
    // The same crash after other output: another behaviour.
    let mut louder = crash(3);
    louder.feedback.as_mut().unwrap().got = "partial".into();
    let crashed = |case: CaseReport| behaviour(&report(vec![accepted("sample/01"), case])).0;
    assert_ne!(crashed(louder), crashed(crash(3)));
    // A time limit's output stops wherever the limit struck: the verdict is the behaviour.
    let slow = |got: &str| report(vec![case("sample/01", Verdict::TimeLimit, got, &[])]);
    assert_eq!(
        behaviour(&slow("1\n2\n")).0,
        behaviour(&slow("1\n2\n3\n")).0
    );
    assert_ne!(
        behaviour(&slow("1\n")).0,
        behaviour(&report(vec![wrong("sample/01", "1\n", &[])])).0
    );
}

#[test]
fn passing_missing_and_nimlabs_own_failures_are_in_no_group() {
    let mut judge_error = report(vec![case("sample/01", Verdict::JudgeError, "", &[])]);
    judge_error.verdict = Verdict::JudgeError;
    let not_graded = crate::grade::builder::not_graded("x.py".into(), "unreadable".into());
    let book = book(vec![
        ("ada", graded(report(vec![accepted("sample/01")]))),
        ("bo", missing()),
        ("cy", graded(judge_error)),
        ("di", not_graded),
        (
            "ed",
            graded(report(vec![wrong("sample/01", "x", &[DEBUG])])),
        ),
    ]);
    let mistakes = Mistakes::of(&book);
    let board = &mistakes.exercises[0];
    assert_eq!((board.graded, board.failing), (3, 1));
    assert_eq!(hint_ids(&board.groups), vec![("debug_print", vec!["ed"])]);
    // Every exercise, in the lab's order, those nobody failed too.
    let names: Vec<&str> = mistakes
        .exercises
        .iter()
        .map(|e| e.exercise.as_str())
        .collect();
    assert_eq!(names, ["present_board", "make_move"]);
    assert!(mistakes.exercises[1].groups.is_empty());
    assert_eq!(mistakes.exercises[1].graded, 0);
}

#[test]
fn groups_come_largest_first_then_hints_then_by_id() {
    let book = book(vec![
        ("a", graded(report(vec![wrong("sample/01", "same", &[])]))),
        ("b", graded(report(vec![wrong("sample/01", "same", &[])]))),
        (
            "c",
            graded(report(vec![wrong("sample/01", "0:", &[ZERO_ROW])])),
        ),
        (
            "d",
            graded(report(vec![wrong("sample/01", "1:", &[NO_HEADER])])),
        ),
        ("e", graded(report(vec![wrong("sample/01", "lone", &[])]))),
        (
            "f",
            graded(report(vec![wrong("sample/01", "0:", &[ZERO_ROW])])),
        ),
        (
            "g",
            graded(report(vec![wrong("sample/01", "0:", &[ZERO_ROW])])),
        ),
    ]);
    let board = &Mistakes::of(&book).exercises[0];
    assert_eq!(
        hint_ids(&board.groups),
        vec![
            ("zero_based_row", vec!["c", "f", "g"]),
            ("(same output)", vec!["a", "b"]),
            ("missing_header", vec!["d"]),
            ("(same output)", vec!["e"]),
        ]
    );
    // The same gradebook in another order of students gives the same summary.
    let mut shuffled = book.clone();
    shuffled.students.reverse();
    assert_eq!(Mistakes::of(&shuffled), Mistakes::of(&book));
}

#[test]
fn an_example_is_shortened_and_a_run_or_report_hint_shows_where_it_failed() {
    let long = "x".repeat(5_000);
    let mut syntax = report(vec![]);
    syntax.verdict = Verdict::SyntaxError;
    syntax.runs[0].verdict = Verdict::SyntaxError;
    syntax.runs[0].message = Some("SyntaxError on line 3: invalid syntax".into());
    syntax.runs[0].syntax = Some(SyntaxFeedback {
        source_line: Some("print 'x'".into()),
        hint: Some("print is a function in Python 3: write print(x).".into()),
    });
    let mut wrong_file = report(vec![wrong("sample/04", &long, &[])]);
    wrong_file.hints = vec!["This file looks like make_move's, not present_board's. Check that you chose the right file.".into()];
    let book = book(vec![("pat", graded(syntax)), ("quinn", graded(wrong_file))]);
    let board = &Mistakes::of(&book).exercises[0];
    assert_eq!(
        hint_ids(&board.groups),
        vec![
            ("print_statement", vec!["pat"]),
            ("wrong_file", vec!["quinn"])
        ]
    );
    let printed = &board.groups[0].example;
    assert_eq!(printed.case, None);
    assert_eq!(printed.verdict, Verdict::SyntaxError);
    assert_eq!(printed.message, "SyntaxError on line 3: invalid syntax\n");
    // A hint about the whole report: the example is the first case that failed.
    let file = &board.groups[1].example;
    assert_eq!(file.case.as_deref(), Some("sample/04"));
    assert!(
        file.got.len() < 1_100 && file.got.contains("not shown"),
        "{}",
        file.got
    );
}

#[test]
fn a_forbidden_construct_is_its_own_behaviour() {
    let forbidding = |message: &str| {
        let mut report = report(vec![accepted("sample/01")]);
        report.verdict = Verdict::WrongAnswer;
        report.score = 0;
        report.warnings = vec![crate::lint::Warning {
            line: 2,
            message: message.into(),
            fails: true,
        }];
        report
    };
    let book = book(vec![
        ("a", graded(forbidding("uses `^`"))),
        ("b", graded(forbidding("uses `^`"))),
        ("c", graded(forbidding("uses `bin`"))),
    ]);
    let board = &Mistakes::of(&book).exercises[0];
    assert_eq!(board.failing, 3);
    assert_eq!(board.groups[0].students, ["a", "b"]);
    assert_eq!(board.groups[0].example.message, "line 2: uses `^`");
    assert_eq!(board.groups[1].students, ["c"]);
}

#[test]
fn the_summary_reads_back_from_its_json() {
    let book = book(vec![(
        "ann",
        graded(report(vec![wrong("sample/01", "<script>", &[DEBUG])])),
    )]);
    let mistakes = Mistakes::of(&book);
    let json = serde_json::to_value(&mistakes).unwrap();
    let group = &json["exercises"][0]["groups"][0];
    assert_eq!(group["cause"]["kind"], "hint");
    assert_eq!(group["cause"]["id"], "debug_print");
    assert_eq!(group["example"]["verdict"], "wrong_answer");
    let back: Mistakes = serde_json::from_value(json).unwrap();
    assert_eq!(back, mistakes);
}
