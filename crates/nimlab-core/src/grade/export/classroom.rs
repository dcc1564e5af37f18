//! GitHub Classroom: the results a Classroom workflow hands to the autograding reporter
//! (`classroom-resources/autograding-grading-reporter`). For each id in its `runners` input
//! the reporter reads `<ID>_RESULTS`, base64 of a JSON object
//! `{"version": 1, "status", "max_score", "tests": [{"name", "status", "message", "score"}]}`,
//! and prints `Total points: S/M`: S the sum of the tests' scores, M the sum of `max_score`.
//!
//! One student's gradebook entry becomes one runner's results: a test per exercise, named by
//! its title, scored with the exercise's points as the gradebook gives them. The student
//! reads the messages in the workflow's log, so they hold only what a student's view of each
//! report holds (secret cases by their verdict alone).

use super::points;
use crate::grade::book::{ExerciseInfo, ExerciseResult, Gradebook, Status, StudentResult};
use crate::judge::Verdict;
use crate::report::CheckReport;
use base64::Engine;
use serde::Serialize;

/// One runner's results, as the reporter reads them.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Results {
    pub version: u32,
    /// "error" when nimlab itself failed on some exercise (never the student's fault),
    /// "fail" when some exercise that counts in the total is not full marks, else "pass".
    pub status: &'static str,
    /// The points of the exercises that count in the total.
    pub max_score: u32,
    pub tests: Vec<Test>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Test {
    pub name: String,
    /// "pass" (full marks), "fail", or "error" (nimlab could not grade it).
    pub status: &'static str,
    pub message: String,
    pub score: f64,
}

impl Results {
    /// The results of `student` (one entry of `book`): a test for every exercise that counts
    /// in the total, and for further study the student handed in, scored 0 (its points are
    /// not in the total, so they are not in `max_score` either; the message gives them).
    pub fn of(book: &Gradebook, student: &StudentResult) -> Results {
        let mut tests = Vec::new();
        let mut status = "pass";
        for exercise in &book.exercises {
            let Some(result) = student.exercises.get(&exercise.name) else {
                continue;
            };
            if !exercise.in_total && result.status == Status::Missing {
                continue;
            }
            let test = test(exercise, result);
            match test.status {
                "error" => status = "error",
                "fail" if exercise.in_total && status == "pass" => status = "fail",
                _ => {}
            }
            tests.push(test);
        }
        Results {
            version: 1,
            status,
            max_score: book.max_total(),
            tests,
        }
    }

    /// The points the reporter totals: the sum of the tests' scores (to the hundredth, as
    /// the gradebook totals them).
    pub fn total(&self) -> f64 {
        let sum: f64 = self.tests.iter().map(|t| t.score).sum();
        (sum * 100.0).round() / 100.0
    }

    /// The JSON text (serde escapes every control character and quote a student's output
    /// may hold).
    pub fn json(&self) -> String {
        serde_json::to_string(self).expect("the results are plain data")
    }

    /// What the reporter reads from `<ID>_RESULTS`: the JSON in standard base64.
    pub fn encoded(&self) -> String {
        base64::engine::general_purpose::STANDARD.encode(self.json())
    }
}

fn test(exercise: &ExerciseInfo, result: &ExerciseResult) -> Test {
    let report = result.report.as_ref().map(CheckReport::for_student);
    let judged_by_nimlab_fault = report.as_ref().is_some_and(|r| {
        matches!(r.verdict, Verdict::JudgeError | Verdict::Skipped) && result.points == 0.0
    });
    let status = match result.status {
        Status::Error => "error",
        _ if judged_by_nimlab_fault => "error",
        Status::Graded if result.points >= f64::from(exercise.points) => "pass",
        _ => "fail",
    };
    let mut message = match (&result.status, &report) {
        (Status::Missing, _) => "no submission".to_string(),
        (Status::Graded, Some(report)) => message(report),
        _ => format!(
            "not graded, by nimlab's fault: {}",
            result.error.as_deref().unwrap_or("no report")
        ),
    };
    if let Some(file) = &result.file {
        message = format!("{file}: {message}");
    }
    let mut score = result.points;
    if !exercise.in_total {
        message = format!(
            "further study, not in the total ({} of {} points): {message}",
            points(result.points),
            exercise.points
        );
        score = 0.0;
    }
    Test {
        name: exercise.title.clone(),
        status,
        message,
        score,
    }
}

/// What a student's view of a report says in a line: the verdict, the cases passed, the
/// first case not passed (a secret one by its verdict alone) and the first hint.
fn message(report: &CheckReport) -> String {
    let runs: Vec<_> = report
        .runs
        .iter()
        .filter(|r| r.verdict != Verdict::Skipped)
        .collect();
    let cases = runs.iter().map(|r| r.cases.len()).max().unwrap_or(0);
    let passed = runs
        .iter()
        .map(|r| {
            r.cases
                .iter()
                .filter(|c| c.verdict == Verdict::Accepted)
                .count()
        })
        .min()
        .unwrap_or(0);
    let mut text = format!(
        "{}: {passed} of {cases} cases passed",
        report.verdict.label()
    );
    if runs.len() > 1 {
        text.push_str(" under every interpreter");
    }
    let first_failed = runs.iter().find_map(|run| {
        run.cases
            .iter()
            .find(|c| c.verdict != Verdict::Accepted)
            .map(|case| (run, case))
    });
    if let Some((run, case)) = first_failed {
        text.push_str(&format!(
            "; first not passed: {} under {} ({}",
            case.name,
            run.label(),
            case.verdict.label()
        ));
        if !case.message.is_empty() {
            text.push_str(&format!(": {}", case.message));
        }
        text.push(')');
    } else if let Some(run) = runs.iter().find(|r| r.message.is_some()) {
        text.push_str(&format!(
            "; under {}: {}",
            run.label(),
            run.message.as_deref().unwrap_or_default()
        ));
    }
    let hint = report
        .hints
        .first()
        .or_else(|| {
            runs.iter()
                .find_map(|r| r.syntax.as_ref().and_then(|s| s.hint.as_ref()))
        })
        .or_else(|| first_failed.and_then(|(_, case)| case.feedback.as_ref()?.hints.first()));
    if let Some(hint) = hint {
        text.push_str(&format!("; hint: {hint}"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::builder::{self, GradebookBuilder};
    use crate::lab::Lab;
    use std::collections::BTreeMap;

    #[test]
    fn points_total_as_the_reporter_totals_them() {
        let lab = Lab::built_in().unwrap();
        let full = |name: &str| {
            let exercise = lab.exercise(name).unwrap();
            let file = format!("{name}.py");
            (
                name.to_string(),
                builder::graded(exercise, file, (1, 1), 1.0, None),
            )
        };
        let third = {
            let exercise = lab.exercise("make_move").unwrap();
            builder::graded(exercise, "make_move.py".into(), (1, 3), 1.0, None)
        };
        let mut book = GradebookBuilder::new(&lab, String::new());
        let results = BTreeMap::from([
            full("present_board"),
            full("misere_move"),
            ("make_move".to_string(), third),
            (
                "bin_num".to_string(),
                builder::not_graded("bin_num.py".into(), "the disk is full".into()),
            ),
        ]);
        book.student("Ada".into(), "ada".into(), None, results);
        let book = book.finish();
        let results = Results::of(&book, &book.students[0]);
        assert_eq!(results.total(), book.students[0].total);
        assert_eq!(results.max_score, book.max_total());
        assert_eq!(results.status, "error");
        let by_name = |name: &str| {
            let title = &lab.exercise(name).unwrap().config.title;
            results.tests.iter().find(|t| &t.name == title).unwrap()
        };
        assert_eq!(by_name("present_board").status, "pass");
        assert_eq!(by_name("make_move").status, "fail");
        assert_eq!(by_name("bin_num").status, "error");
        assert_eq!(by_name("misere_move").score, 0.0);
        assert!(by_name("misere_move").message.contains("not in the total"));
        // Further study not handed in is not listed; the nine exercises are.
        assert_eq!(results.tests.len(), 10);
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(results.encoded())
            .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&decoded).unwrap();
        assert_eq!(value["version"], 1);
        assert_eq!(value["tests"][0]["name"], by_name("present_board").name);
    }
}
