//! The mistakes of a class (`mistakes.json`, the HTML report's mistakes page, the website's
//! class mistakes): for each exercise, the students who did not pass it, grouped by cause.
//!
//! A student whose report has hints is in one group per cause its hints name
//! ([`hint_kinds`]), so a student with two causes is in two groups. A student with no hint
//! is grouped with those whose program behaved the same: the same cases failed, with the
//! same verdicts and the same wrong output (see [`behaviour`]). Groups come largest first,
//! hints before the same output among equals, then by id: a stable order, so two runs (or
//! merged shards) give the same file.
//!
//! Only graded submissions count. One that passed, and one whose verdict is nimlab's own
//! failure or that no interpreter ran, is in no group.

pub mod hint_kinds;

use super::book::{ExerciseInfo, Gradebook, Status, StudentResult};
use crate::printed::clip;
use crate::report::{CaseReport, CheckReport, RunReport};
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// How much of an example's expected output and output a summary keeps.
const EXAMPLE_LINES: usize = 12;
const EXAMPLE_CHARS: usize = 1_000;

/// Every exercise's failing students, grouped by cause: what `mistakes.json` holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mistakes {
    pub nimlab_version: String,
    pub lab: String,
    /// In the lab's order, every exercise of the gradebook (those nobody failed too).
    pub exercises: Vec<ExerciseMistakes>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExerciseMistakes {
    /// The exercise's name, as results.json keys it.
    pub exercise: String,
    pub title: String,
    /// Students whose submission was graded.
    pub graded: usize,
    /// Of those, the ones that did not pass: each is in at least one group.
    pub failing: usize,
    pub groups: Vec<Group>,
}

/// Students who failed an exercise for one cause.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub cause: Cause,
    pub count: usize,
    /// Their student ids (results.json's `student_id`), sorted.
    pub students: Vec<String>,
    /// The first of them, as they failed.
    pub example: Example,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Cause {
    /// A hint that named the mistake: its kind's id and title ([`hint_kinds`]).
    Hint { id: String, title: String },
    /// No hint, and the same wrong behaviour: `fingerprint` is a hash of it, `cases` the
    /// cases that failed (none where no case ran, as after a syntax error).
    SameOutput {
        fingerprint: String,
        cases: Vec<String>,
    },
}

impl Cause {
    /// Where its groups come among groups of one size: hints first.
    fn rank(&self) -> (u8, &str) {
        match self {
            Cause::Hint { id, .. } => (0, id),
            Cause::SameOutput { fingerprint, .. } => (1, fingerprint),
        }
    }
}

/// One student's failure, as an example of a group's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Example {
    pub student: String,
    /// The interpreter as the run was asked for ("3", "2.7"), where a run failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interpreter: Option<String>,
    /// The case's id (`sample/01-empty-board`), where a case failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    pub verdict: Verdict,
    /// What the judge said, shortened.
    pub message: String,
    /// The expected output (one right answer of many, for a checker) and what the program
    /// printed, shortened; empty for a game or where no case ran.
    pub expected: String,
    pub got: String,
    /// The hint as this student was given it, for a hint's group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl Mistakes {
    /// The mistakes of the class `book` holds.
    pub fn of(book: &Gradebook) -> Mistakes {
        Mistakes {
            nimlab_version: book.nimlab_version.clone(),
            lab: book.lab.clone(),
            exercises: book
                .exercises
                .iter()
                .map(|exercise| of_exercise(&book.students, exercise))
                .collect(),
        }
    }
}

/// Whether a report counts as a student's mistake: graded by nimlab without fault of its
/// own, and not passed.
fn failed(report: &CheckReport) -> bool {
    !matches!(
        report.verdict,
        Verdict::Accepted | Verdict::JudgeError | Verdict::Skipped
    )
}

/// The id a summary names a student by: results.json's `student_id` (in gradebooks from
/// before ids, the name, which was the id).
pub fn student_id(student: &StudentResult) -> &str {
    if student.student_id.is_empty() {
        &student.student
    } else {
        &student.student_id
    }
}

fn of_exercise(students: &[StudentResult], exercise: &ExerciseInfo) -> ExerciseMistakes {
    let graded: Vec<(&str, &CheckReport)> = students
        .iter()
        .filter_map(|student| {
            let result = student.exercises.get(&exercise.name)?;
            let report = result.report.as_ref()?;
            (result.status == Status::Graded).then_some((student_id(student), report))
        })
        .collect();
    let mut failing: Vec<(&str, &CheckReport)> = graded
        .iter()
        .copied()
        .filter(|(_, report)| failed(report))
        .collect();
    failing.sort_by_key(|(id, _)| *id);
    let mut groups: BTreeMap<(u8, String), Group> = BTreeMap::new();
    for (student, report) in &failing {
        // In a group per cause its hints name; with none, grouped by what the program did.
        let hints = fired_hints(report);
        if hints.is_empty() {
            let (fingerprint, cases) = behaviour(report);
            let cause = Cause::SameOutput {
                fingerprint: fingerprint.clone(),
                cases,
            };
            let first = || example(student, first_failure(report), None, report);
            join(&mut groups, (1, fingerprint), cause, student, first);
        }
        for (id, title, seen) in hints {
            let cause = Cause::Hint {
                id: id.clone(),
                title,
            };
            let at = seen.at.or_else(|| first_failure(report));
            let first = || example(student, at, Some(seen.hint), report);
            join(&mut groups, (0, id), cause, student, first);
        }
    }
    let mut groups: Vec<Group> = groups.into_values().collect();
    // Largest first; among equals, hints first, each kind by its id.
    groups.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.cause.rank().cmp(&b.cause.rank()))
    });
    ExerciseMistakes {
        exercise: exercise.name.clone(),
        title: exercise.title.clone(),
        graded: graded.len(),
        failing: failing.len(),
        groups,
    }
}

/// Adds `student` to the group `key`, made with `cause` and the first student's example if
/// it is new.
fn join(
    groups: &mut BTreeMap<(u8, String), Group>,
    key: (u8, String),
    cause: Cause,
    student: &str,
    example: impl FnOnce() -> Example,
) {
    let group = groups.entry(key).or_insert_with(|| Group {
        cause,
        count: 0,
        students: Vec::new(),
        example: example(),
    });
    group.count += 1;
    group.students.push(student.to_string());
}

/// Where something failed: a run, and the case in it where one failed.
type Place<'a> = (&'a RunReport, Option<&'a CaseReport>);

/// A hint as a report gives it, and where: on a case, on a run (its syntax error) or on the
/// whole report (`at` none).
struct Seen<'a> {
    hint: &'a str,
    at: Option<Place<'a>>,
}

/// The runs that ran (not skipped for want of an interpreter).
fn runs(report: &CheckReport) -> impl Iterator<Item = &RunReport> {
    report.runs.iter().filter(|r| r.verdict != Verdict::Skipped)
}

/// The causes a report's hints name, each once with where it was first given: its cases'
/// hints run by run, each run's syntax hint, then the report's own.
fn fired_hints(report: &CheckReport) -> Vec<(String, String, Seen<'_>)> {
    let mut seen: Vec<Seen> = Vec::new();
    for run in runs(report) {
        for case in &run.cases {
            for hint in case.feedback.iter().flat_map(|f| &f.hints) {
                let at = Some((run, Some(case)));
                seen.push(Seen { hint, at });
            }
        }
        if let Some(hint) = run.syntax.as_ref().and_then(|s| s.hint.as_deref()) {
            let at = Some((run, None));
            seen.push(Seen { hint, at });
        }
    }
    seen.extend(report.hints.iter().map(|hint| Seen { hint, at: None }));
    let mut named: Vec<(String, String, Seen)> = Vec::new();
    for sighting in seen {
        let (id, title) = hint_kinds::kind_of(sighting.hint);
        if !named.iter().any(|(known, _, _)| *known == id) {
            named.push((id, title, sighting));
        }
    }
    named
}

/// The first failure of a report: its first failed case, or a run that failed before any
/// case (a syntax error).
fn first_failure(report: &CheckReport) -> Option<Place<'_>> {
    let failed_case = runs(report).find_map(|run| {
        let case = run.cases.iter().find(|c| failed_case(c))?;
        Some((run, Some(case)))
    });
    failed_case.or_else(|| {
        runs(report)
            .find(|run| run.cases.is_empty() && run.verdict != Verdict::Accepted)
            .map(|run| (run, None))
    })
}

fn failed_case(case: &CaseReport) -> bool {
    !matches!(case.verdict, Verdict::Accepted | Verdict::Skipped)
}

/// `student`'s failure at `at` (the report as a whole where there is no place: a construct
/// the lab forbids), with the hint that names it.
fn example(student: &str, at: Option<Place>, hint: Option<&str>, report: &CheckReport) -> Example {
    let short = |text: &str| clip(text, EXAMPLE_LINES, EXAMPLE_CHARS);
    let mut example = Example {
        student: student.to_string(),
        interpreter: None,
        case: None,
        verdict: report.verdict,
        message: String::new(),
        expected: String::new(),
        got: String::new(),
        hint: hint.map(str::to_string),
    };
    match at {
        Some((run, Some(case))) => {
            example.interpreter = Some(run.interpreter.clone());
            example.case = Some(case.name.clone());
            example.verdict = case.verdict;
            example.message = clip(&case.message, 3, 300);
            if let Some(feedback) = &case.feedback {
                example.expected = short(&feedback.expected);
                example.got = short(&feedback.got);
            }
        }
        Some((run, None)) => {
            example.interpreter = Some(run.interpreter.clone());
            example.verdict = run.verdict;
            example.message = clip(run.message.as_deref().unwrap_or_default(), 3, 300);
        }
        None => {
            let forbidden = report.warnings.iter().find(|w| w.fails);
            if let Some(warning) = forbidden {
                example.message = format!("line {}: {}", warning.line, warning.message);
            }
        }
    }
    example
}

/// What a report's program did wrong, as a fingerprint (a hash, the same for the same
/// behaviour) and the cases that failed. The behaviour is, for each interpreter that ran,
/// each failed case with its verdict and what shows it: the output for a wrong answer (and
/// for a game, the rule broken), the output and the error for a crash; nothing more for a
/// limit, whose output stops wherever the limit struck. A run that stopped before its cases counts by
/// its verdict, and a construct the lab forbids by its message.
pub fn behaviour(report: &CheckReport) -> (String, Vec<String>) {
    let mut said: Vec<String> = Vec::new();
    let mut cases: Vec<String> = Vec::new();
    for run in runs(report) {
        if run.cases.is_empty() && run.verdict != Verdict::Accepted {
            said.push(format!("{}\t\t{}", run.interpreter, run.verdict.label()));
        }
        for case in run.cases.iter().filter(|c| failed_case(c)) {
            said.push(format!(
                "{}\t{}\t{}\t{}",
                run.interpreter,
                case.name,
                case.verdict.label(),
                evidence(case)
            ));
            cases.push(case.name.clone());
        }
    }
    for warning in report.warnings.iter().filter(|w| w.fails) {
        said.push(format!("forbidden\t{}", warning.message));
    }
    said.sort();
    said.dedup();
    cases.sort();
    cases.dedup();
    let digest = Sha256::digest(said.join("\n").as_bytes());
    let fingerprint = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    (fingerprint, cases)
}

/// Each case `report` failed with a wrong output or a crash, as `case, verdict, output`, once
/// however many interpreters ran it: what two students' programs share when they fail alike.
pub fn wrong_outputs(report: &CheckReport) -> Vec<String> {
    let mut outputs: Vec<String> = runs(report)
        .flat_map(|run| run.cases.iter().filter(|c| failed_case(c)))
        .filter_map(|case| {
            let shown = evidence(case);
            (!shown.trim().is_empty())
                .then(|| format!("{}\t{}\t{shown}", case.name, case.verdict.label()))
        })
        .collect();
    outputs.sort();
    outputs.dedup();
    outputs
}

/// What shows how a case failed, the same wherever the program ran: what it printed, with
/// the rule a game broke or the error a crash ended with (not where: the line numbers are
/// the student's own).
fn evidence(case: &CaseReport) -> String {
    let Some(feedback) = &case.feedback else {
        return String::new();
    };
    let stderr = feedback.stderr.as_deref().unwrap_or_default();
    let shown = match case.verdict {
        Verdict::WrongAnswer => feedback.broken_rule.as_deref().unwrap_or_default(),
        Verdict::RuntimeError => crate::traceback::error_line(stderr),
        _ => return String::new(),
    };
    format!("{}\t{shown}", feedback.got.trim_end())
}

#[cfg(test)]
mod tests;
