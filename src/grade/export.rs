//! Every report of a graded class, rendered from the gradebook and written atomically.

use super::{Gradebook, Status, StudentResult};
use crate::fsutil::write_atomic;
use anyhow::{Context, Result};
use std::path::Path;

/// Points as a gradebook shows them: no trailing zeros.
fn points(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn csv_bytes(rows: Vec<Vec<String>>) -> Result<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.write_record(row)?;
    }
    writer.into_inner().map_err(|e| anyhow::anyhow!("{e}"))
}

fn write(out: &Path, relative: &str, contents: &[u8]) -> Result<()> {
    let path = out.join(relative);
    write_atomic(&path, contents).with_context(|| format!("{}: cannot write", path.display()))
}

fn display_name(student: &StudentResult) -> String {
    student
        .roster
        .as_ref()
        .map(|r| r.name.clone())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| student.student.clone())
}

pub fn gradebook_csv(book: &Gradebook) -> Result<Vec<u8>> {
    let mut header = vec!["student".to_string()];
    header.extend(book.exercises.iter().map(|e| e.name.clone()));
    header.push("total".into());
    let mut rows = vec![header];
    for student in &book.students {
        let mut row = vec![student.student.clone()];
        row.extend(
            book.exercises
                .iter()
                .map(|e| points(student.exercises[&e.name].points)),
        );
        row.push(points(student.total));
        rows.push(row);
    }
    csv_bytes(rows)
}

/// Canvas's gradebook import: Student, ID, Section, then one column per assignment, with a
/// "Points Possible" row first.
pub fn canvas_csv(book: &Gradebook) -> Result<Vec<u8>> {
    let mut header = vec!["Student".to_string(), "ID".into(), "Section".into()];
    header.extend(
        book.exercises
            .iter()
            .map(|e| format!("nimlab: {}", e.title)),
    );
    let mut possible = vec!["Points Possible".to_string(), String::new(), String::new()];
    possible.extend(book.exercises.iter().map(|e| e.points.to_string()));
    let mut rows = vec![header, possible];
    for student in &book.students {
        let roster = student.roster.clone().unwrap_or_default();
        let mut row = vec![display_name(student), roster.id, roster.section];
        row.extend(
            book.exercises
                .iter()
                .map(|e| points(student.exercises[&e.name].points)),
        );
        rows.push(row);
    }
    csv_bytes(rows)
}

/// Moodle's grade import: a column that identifies the user, then one per grade item (mapped
/// to grade items in Moodle's import form).
pub fn moodle_csv(book: &Gradebook) -> Result<Vec<u8>> {
    let with_ids = book
        .students
        .iter()
        .any(|s| s.roster.as_ref().is_some_and(|r| !r.id.is_empty()));
    let key = if with_ids { "ID number" } else { "Username" };
    let mut header = vec![key.to_string()];
    header.extend(book.exercises.iter().map(|e| e.title.clone()));
    let mut rows = vec![header];
    for student in &book.students {
        let id = student
            .roster
            .as_ref()
            .map(|r| r.id.clone())
            .filter(|_| with_ids)
            .unwrap_or_else(|| student.student.clone());
        let mut row = vec![id];
        row.extend(
            book.exercises
                .iter()
                .map(|e| points(student.exercises[&e.name].points)),
        );
        rows.push(row);
    }
    csv_bytes(rows)
}

/// JUnit XML for CI dashboards: one suite per student, one test per exercise.
pub fn junit_xml(book: &Gradebook) -> Result<Vec<u8>> {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new("nimlab");
    for student in &book.students {
        let mut suite = TestSuite::new(student.student.as_str());
        for exercise in &book.exercises {
            let result = &student.exercises[&exercise.name];
            let accepted = result
                .report
                .as_ref()
                .is_some_and(|r| r.verdict == crate::judge::Verdict::Accepted);
            let status = if accepted {
                TestCaseStatus::success()
            } else {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_message(format!(
                    "{}: {} of {} points",
                    result.verdict_label(),
                    points(result.points),
                    exercise.points
                ));
                status
            };
            let mut case = TestCase::new(exercise.name.as_str(), status);
            case.set_classname(format!("nimlab.{}", student.student));
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    Ok(report.to_string()?.into_bytes())
}

/// Gradescope's autograder results for one student.
pub fn gradescope_json(book: &Gradebook, student: &StudentResult) -> Result<Vec<u8>> {
    let tests: Vec<serde_json::Value> = book
        .exercises
        .iter()
        .map(|exercise| {
            let result = &student.exercises[&exercise.name];
            let output = match (&result.status, &result.report) {
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
                "name": exercise.title,
                "score": result.points,
                "max_score": exercise.points,
                "status": if result.points >= f64::from(exercise.points) { "passed" } else { "failed" },
                "output": output,
            })
        })
        .collect();
    let total_max: u32 = book.exercises.iter().map(|e| e.points).sum();
    let results = serde_json::json!({
        "score": student.total,
        "output": format!("{} of {} points; run `nimlab check` on each file for the full feedback.", points(student.total), total_max),
        "visibility": "visible",
        "tests": tests,
    });
    Ok(serde_json::to_vec_pretty(&results)?)
}

/// A student's name as a folder name.
pub fn folder_name(student: &str) -> String {
    let name: String = student
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with('.') {
        format!("_{name}")
    } else {
        name
    }
}

pub fn write_all(book: &Gradebook, out: &Path) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("{}: cannot create", out.display()))?;
    write(out, "results.json", &serde_json::to_vec_pretty(book)?)?;
    write(out, "gradebook.csv", &gradebook_csv(book)?)?;
    write(out, "canvas.csv", &canvas_csv(book)?)?;
    write(out, "moodle.csv", &moodle_csv(book)?)?;
    write(out, "junit.xml", &junit_xml(book)?)?;
    for student in &book.students {
        let folder = folder_name(&student.student);
        write(
            out,
            &format!("gradescope/{folder}/results.json"),
            &gradescope_json(book, student)?,
        )?;
        let page = super::html::student_page(book, student);
        write(
            out,
            &format!("report/students/{folder}.html"),
            page.as_bytes(),
        )?;
    }
    write(
        out,
        "report/index.html",
        super::html::index(book).as_bytes(),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_drop_trailing_zeros() {
        assert_eq!(points(10.0), "10");
        assert_eq!(points(7.5), "7.5");
        assert_eq!(points(3.333), "3.33");
        assert_eq!(points(0.0), "0");
    }

    #[test]
    fn folder_names_are_safe() {
        assert_eq!(folder_name("Ada Lovelace"), "Ada_Lovelace");
        assert_eq!(folder_name("../x"), "_.._x");
        assert_eq!(folder_name("bob-2"), "bob-2");
    }
}
