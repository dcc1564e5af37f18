//! gradescope/<student>/results.json: Gradescope's autograder results, one per student, in
//! a folder named by the student's id in a collision-free form. The student reads them:
//! they say what a student's view of each report says (each exercise's verdict and score).

use super::{Exporter, Sink, points, unrenderable};
use crate::error::Result;
use crate::grade::book::{Gradebook, Status, StudentResult};

pub struct Gradescope;

impl Exporter for Gradescope {
    fn target(&self) -> &'static str {
        "gradescope/"
    }

    fn export(&self, book: &Gradebook, sink: &mut dyn Sink) -> Result<()> {
        for student in &book.students {
            let file = format!("gradescope/{}/results.json", student.file_stem());
            let bytes = results(book, student).map_err(|e| unrenderable(&file, e))?;
            sink.file(&file, &bytes)?;
        }
        Ok(())
    }
}

fn results(book: &Gradebook, student: &StudentResult) -> serde_json::Result<Vec<u8>> {
    let tests: Vec<serde_json::Value> = book
        .exercises
        .iter()
        .map(|exercise| {
            let result = &student.exercises[&exercise.name];
            // The student sees it: only what a student's view of the report holds.
            let report = result.report.as_ref().map(|r| r.for_student());
            let output = match (&result.status, &report) {
                (Status::Graded, Some(report)) => format!(
                    "{} ({} of {} cases' weight under every interpreter)",
                    report.verdict.label(),
                    report.score,
                    report.max_score
                ),
                (Status::Missing, _) => "no submission".to_string(),
                _ => result.error.clone().unwrap_or_default(),
            };
            serde_json::json!({
                "name": if exercise.optional { format!("{} (optional)", exercise.title) } else { exercise.title.clone() },
                "score": result.points,
                "max_score": exercise.points,
                "status": if result.points >= f64::from(exercise.points) { "passed" } else { "failed" },
                "output": output,
            })
        })
        .collect();
    let total_max = book.max_total();
    let results = serde_json::json!({
        "score": student.total,
        "output": format!("{} of {} points; run `nimlab check` on each file for the full feedback.", points(student.total), total_max),
        "visibility": "visible",
        "tests": tests,
    });
    serde_json::to_vec_pretty(&results)
}
