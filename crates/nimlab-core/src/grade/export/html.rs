//! report/: index.html, a self-contained class overview (inline CSS and SVG, no scripts, no
//! network), for the instructor, with mistakes.html, the class's mistakes grouped by cause;
//! and one feedback page per student with the explanations `nimlab check` gives a student
//! (secret cases by their verdict alone).
//!
//! Every text from a student or a program goes through [`escape`]: HTML's specials escaped,
//! control characters shown as escapes.

use super::{Exporter, Sink, points, visible};
use crate::error::Result;
use crate::grade::book::{ExerciseResult, Gradebook, Status, StudentResult};
use crate::grade::mistakes::{Cause, ExerciseMistakes, Group, Mistakes};
use crate::judge::Verdict;
use crate::report::{Event, Reporter, StudentView, TextReporter};
use std::fmt::Write;

pub struct HtmlReport;

impl Exporter for HtmlReport {
    fn target(&self) -> &'static str {
        "report/"
    }

    fn export(&self, book: &Gradebook, sink: &mut dyn Sink) -> Result<()> {
        for student in &book.students {
            sink.file(
                &format!("report/students/{}.html", student.file_stem()),
                student_page(book, student).as_bytes(),
            )?;
        }
        sink.file("report/mistakes.html", mistakes_page(book).as_bytes())?;
        sink.file("report/index.html", index(book).as_bytes())
    }
}

/// Text for HTML: specials escaped, control characters visible.
fn escape(text: &str) -> String {
    crate::escape::html(&visible(text)).into_owned()
}

/// A student as a page shows them: the name, and the id where it says more.
fn student_label(student: &StudentResult) -> String {
    if student.student_id == student.student {
        escape(&student.student)
    } else {
        format!(
            "{} <span class=\"muted\">({})</span>",
            escape(&student.student),
            escape(&student.student_id)
        )
    }
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:60rem;color:#222;padding:0 1rem}\
h1,h2{font-weight:600}table{border-collapse:collapse;margin:1rem 0}td,th{padding:.25rem .6rem;border-bottom:1px solid #ddd;text-align:left}\
td.num,th.num{text-align:right}.ok{color:#17692c}.bad{color:#a11}.muted{color:#777}pre{background:#f6f6f6;padding:1rem;overflow-x:auto;font-size:.85rem}\
svg text{font-size:11px;font-family:system-ui,sans-serif}blockquote{border-left:3px solid #ccc;margin:.5rem 0;padding:.1rem .8rem}table.outputs td{vertical-align:top}";

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// A histogram of total scores: ten bins from 0 to the maximum.
fn histogram(book: &Gradebook) -> String {
    let max: f64 = f64::from(book.max_total()).max(1.0);
    let mut bins = [0usize; 10];
    for student in &book.students {
        let bin = ((student.total / max) * 10.0).floor() as usize;
        bins[bin.min(9)] += 1;
    }
    let highest = bins.iter().copied().max().unwrap_or(0).max(1);
    let (width, height, bar) = (440.0, 160.0, 40.0);
    let mut svg = format!(
        "<svg class=\"chart\" id=\"histogram\" role=\"img\" aria-label=\"Total scores\" width=\"{width}\" height=\"{}\" viewBox=\"0 0 {width} {}\">",
        height + 30.0,
        height + 30.0
    );
    for (i, count) in bins.iter().enumerate() {
        let h = height * (*count as f64) / (highest as f64);
        let x = i as f64 * (bar + 4.0);
        let _ = write!(
            svg,
            "<rect x=\"{x}\" y=\"{}\" width=\"{bar}\" height=\"{h}\" fill=\"#3b6ea5\"><title>{count} student(s) with {}% to {}%</title></rect><text x=\"{}\" y=\"{}\">{count}</text><text x=\"{x}\" y=\"{}\">{}%</text>",
            height - h,
            i * 10,
            i * 10 + 10,
            x + 14.0,
            (height - h - 3.0).max(10.0),
            height + 14.0,
            i * 10
        );
    }
    svg.push_str("</svg>");
    svg
}

/// Horizontal bars: one per label, the share (0..=1) drawn, with the percentage.
fn bars(id: &str, rows: &[(String, f64)]) -> String {
    let (label_width, bar_width, row) = (230.0, 300.0, 20.0);
    let height = row * rows.len() as f64 + 4.0;
    let mut svg = format!(
        "<svg class=\"chart\" id=\"{id}\" role=\"img\" width=\"{}\" height=\"{height}\" viewBox=\"0 0 {} {height}\">",
        label_width + bar_width + 50.0,
        label_width + bar_width + 50.0
    );
    for (i, (label, share)) in rows.iter().enumerate() {
        let y = i as f64 * row;
        let _ = write!(
            svg,
            "<text x=\"0\" y=\"{}\">{}</text><rect x=\"{label_width}\" y=\"{}\" width=\"{bar_width}\" height=\"14\" fill=\"#eee\"/><rect x=\"{label_width}\" y=\"{}\" width=\"{}\" height=\"14\" fill=\"#2f8f4e\"><title>{:.0}%</title></rect><text x=\"{}\" y=\"{}\">{:.0}%</text>",
            y + 12.0,
            escape(label),
            y + 2.0,
            y + 2.0,
            bar_width * share,
            share * 100.0,
            label_width + bar_width + 6.0,
            y + 12.0,
            share * 100.0
        );
    }
    svg.push_str("</svg>");
    svg
}

/// Whether a case passed under every interpreter that ran.
fn case_passes(report: &crate::report::CheckReport) -> Vec<(String, bool)> {
    let mut passes: Vec<(String, bool)> = Vec::new();
    for run in report.runs.iter().filter(|r| r.verdict != Verdict::Skipped) {
        for case in &run.cases {
            let ok = case.verdict == Verdict::Accepted;
            match passes.iter_mut().find(|(name, _)| *name == case.name) {
                Some(entry) => entry.1 &= ok,
                None => passes.push((case.name.clone(), ok)),
            }
        }
    }
    passes
}

fn index(book: &Gradebook) -> String {
    let max = book.max_total();
    let mut body = String::new();
    let _ = write!(
        body,
        "<h1>Class report</h1>\n<p>{} student(s); lab: {}; nimlab {}.</p>\n<p class=\"muted\">{}</p>\n<h2>Total scores (out of {max})</h2>\n{}\n",
        book.students.len(),
        escape(&book.lab),
        escape(&book.nimlab_version),
        escape(&book.isolation),
        histogram(book)
    );
    body.push_str("<p><a href=\"mistakes.html\">Mistakes of the class</a>: by exercise, the students who did not pass, grouped by cause.</p>\n");
    pass_rates(book, &mut body);
    students_table(book, &mut body);
    files_not_graded(book, &mut body);
    page("Class report", &body)
}

/// The index's pass rates: accepted by exercise, and passed by case.
fn pass_rates(book: &Gradebook, body: &mut String) {
    let mut exercise_rows = Vec::new();
    let mut case_sections = String::new();
    for exercise in &book.exercises {
        let graded: Vec<&ExerciseResult> = book
            .students
            .iter()
            .map(|s| &s.exercises[&exercise.name])
            .filter(|r| r.status == Status::Graded)
            .collect();
        let accepted = graded
            .iter()
            .filter(|r| {
                r.report
                    .as_ref()
                    .is_some_and(|x| x.verdict == Verdict::Accepted)
            })
            .count();
        let share = if graded.is_empty() {
            0.0
        } else {
            accepted as f64 / graded.len() as f64
        };
        exercise_rows.push((
            format!("{} ({} handed in)", exercise.label(), graded.len()),
            share,
        ));
        let cases = case_rates(&graded);
        if !cases.is_empty() {
            let _ = write!(
                case_sections,
                "<h3>{}</h3>\n{}\n",
                escape(&exercise.title),
                bars(&format!("cases-{}", exercise.name), &cases)
            );
        }
    }
    let _ = write!(
        body,
        "<h2>Accepted, by exercise</h2>\n{}\n<h2>Passed, by case</h2>\n{case_sections}",
        bars("exercises", &exercise_rows)
    );
}

/// Each case of an exercise (in the order first met) with the share of the graded
/// submissions that passed it.
fn case_rates(graded: &[&ExerciseResult]) -> Vec<(String, f64)> {
    let mut cases: Vec<(String, usize, usize)> = Vec::new();
    for report in graded.iter().filter_map(|r| r.report.as_ref()) {
        for (name, ok) in case_passes(report) {
            match cases.iter_mut().find(|(n, _, _)| *n == name) {
                Some(entry) => {
                    entry.1 += usize::from(ok);
                    entry.2 += 1;
                }
                None => cases.push((name, usize::from(ok), 1)),
            }
        }
    }
    cases
        .iter()
        .map(|(n, ok, all)| (n.clone(), *ok as f64 / *all as f64))
        .collect()
}

/// The index's table: a row per student, their points per exercise and total.
fn students_table(book: &Gradebook, body: &mut String) {
    body.push_str("<h2>Students</h2>\n<table>\n<tr><th>student</th>");
    for exercise in &book.exercises {
        let _ = write!(body, "<th class=\"num\">{}</th>", escape(&exercise.label()));
    }
    body.push_str("<th class=\"num\">total</th></tr>\n");
    for student in &book.students {
        let _ = write!(
            body,
            "<tr><td><a href=\"students/{}.html\">{}</a></td>",
            student.file_stem(),
            student_label(student)
        );
        for exercise in &book.exercises {
            let result = &student.exercises[&exercise.name];
            let class = if result.points >= f64::from(exercise.points) {
                "ok"
            } else if result.status == Status::Graded {
                "bad"
            } else {
                "muted"
            };
            let _ = write!(
                body,
                "<td class=\"num {class}\">{}</td>",
                points(result.points)
            );
        }
        let _ = writeln!(
            body,
            "<td class=\"num\">{}</td></tr>",
            points(student.total)
        );
    }
    body.push_str("</table>\n");
}

/// The index's lists of the class folder's files not graded, where there are any.
fn files_not_graded(book: &Gradebook, body: &mut String) {
    if !book.unattributed.is_empty() {
        body.push_str("<h2>Files not attributed to a student's exercise</h2>\n<ul>\n");
        for file in &book.unattributed {
            let _ = writeln!(body, "<li>{}</li>", escape(file));
        }
        body.push_str("</ul>\n");
    }
    if !book.superseded.is_empty() {
        body.push_str("<h2>Files not graded because another counts</h2>\n<ul>\n");
        for file in &book.superseded {
            let _ = writeln!(
                body,
                "<li>{} (graded instead: {})</li>",
                escape(&file.file),
                escape(&file.graded)
            );
        }
        body.push_str("</ul>\n");
    }
    if !book.skipped.is_empty() {
        body.push_str("<h2>Files not read</h2>\n<ul>\n");
        for file in &book.skipped {
            let _ = writeln!(
                body,
                "<li>{}: {}</li>",
                escape(&file.file),
                escape(&file.reason)
            );
        }
        body.push_str("</ul>\n");
    }
}

/// mistakes.html: every exercise's failing students grouped by cause, each group with its
/// students (linked to their pages) and one example.
fn mistakes_page(book: &Gradebook) -> String {
    let mut body = String::from(
        "<p><a href=\"index.html\">Class report</a></p>\n<h1>Mistakes of the class</h1>\n\
         <p>For each exercise, the students who did not pass it, grouped by cause: one group per \
         hint nimlab gave (a student given two hints is in both), then, for students given none, \
         one per wrong behaviour (the same cases failed with the same output). Largest groups \
         first; each with one student's failure as an example. <code>mistakes.json</code> holds \
         the same.</p>\n",
    );
    let students: std::collections::BTreeMap<&str, &StudentResult> = book
        .students
        .iter()
        .map(|s| (crate::grade::mistakes::student_id(s), s))
        .collect();
    let mistakes = Mistakes::of(book);
    for (exercise, info) in mistakes.exercises.iter().zip(&book.exercises) {
        exercise_mistakes(exercise, &info.label(), &students, &mut body);
    }
    page("Mistakes of the class", &body)
}

fn exercise_mistakes(
    exercise: &ExerciseMistakes,
    label: &str,
    students: &std::collections::BTreeMap<&str, &StudentResult>,
    body: &mut String,
) {
    let _ = writeln!(
        body,
        "<h2>{} <span class=\"muted\">({})</span></h2>",
        escape(&exercise.title),
        escape(label)
    );
    if exercise.failing == 0 {
        let _ = writeln!(
            body,
            "<p class=\"muted\">No failing submission ({} graded).</p>",
            exercise.graded
        );
        return;
    }
    let _ = writeln!(
        body,
        "<p>{} of {} graded submission(s) did not pass.</p>",
        exercise.failing, exercise.graded
    );
    for group in &exercise.groups {
        mistake_group(group, students, body);
    }
}

/// A group: its cause, its students, and its example.
fn mistake_group(
    group: &Group,
    students: &std::collections::BTreeMap<&str, &StudentResult>,
    body: &mut String,
) {
    let cause = match &group.cause {
        Cause::Hint { id, title } => format!(
            "hint: {} <span class=\"muted\">({})</span>",
            escape(title),
            escape(id)
        ),
        Cause::SameOutput { cases, .. } if cases.is_empty() => {
            "no hint, the same failure before any case ran".to_string()
        }
        Cause::SameOutput { cases, .. } => format!(
            "no hint, the same wrong output on {}",
            escape(&cases.join(", "))
        ),
    };
    let _ = writeln!(body, "<h3>{} student(s): {cause}</h3>", group.count);
    let linked = |id: &str| match students.get(id) {
        Some(student) => format!(
            "<a href=\"students/{}.html\">{}</a>",
            student.file_stem(),
            student_label(student)
        ),
        None => escape(id),
    };
    let names: Vec<String> = group.students.iter().map(|id| linked(id)).collect();
    let _ = writeln!(body, "<p>{}</p>", names.join(", "));
    let example = &group.example;
    let mut place = String::new();
    if let Some(case) = &example.case {
        let _ = write!(place, " on case {}", escape(case));
    }
    if let Some(interpreter) = &example.interpreter {
        let _ = write!(place, " under Python {}", escape(interpreter));
    }
    let _ = write!(place, ": {}.", escape(example.verdict.label()));
    let message = example.message.trim_end();
    if !message.is_empty() {
        let _ = write!(place, " {}", escape(message));
    }
    let _ = writeln!(
        body,
        "<p>For example, {}{place}</p>",
        linked(&example.student)
    );
    if let Some(hint) = &example.hint {
        let _ = writeln!(body, "<blockquote>{}</blockquote>", escape(hint));
    }
    if !example.expected.is_empty() || !example.got.is_empty() {
        let _ = writeln!(
            body,
            "<table class=\"outputs\"><tr><th>expected</th><th>printed</th></tr><tr><td><pre>{}</pre></td><td><pre>{}</pre></td></tr></table>",
            escape(&example.expected),
            escape(&example.got)
        );
    }
}

/// The text `nimlab check` prints for a report, without colour, as its student sees it.
fn check_text(report: &crate::report::CheckReport) -> String {
    let mut buffer = Vec::new();
    {
        let text = TextReporter::new(anstream::StripStream::new(&mut buffer));
        let mut reporter = StudentView(text);
        let _ = reporter.event(&Event::Started {
            exercise: &report.exercise,
            title: "",
            submission: &report.submission,
        });
        for run in &report.runs {
            let _ = reporter.event(&Event::RunFinished(run));
        }
        let _ = reporter.event(&Event::Finished(report));
    }
    String::from_utf8_lossy(&buffer).into_owned()
}

fn student_page(book: &Gradebook, student: &StudentResult) -> String {
    let max = book.max_total();
    let mut body = format!(
        "<p><a href=\"../index.html\">Class report</a></p>\n<h1>{}</h1>\n<p>{} of {max} points.</p>\n",
        student_label(student),
        points(student.total)
    );
    for exercise in &book.exercises {
        let result = &student.exercises[&exercise.name];
        let _ = writeln!(
            body,
            "<h2>{}{}: {} of {} points ({})</h2>",
            escape(&exercise.title),
            if exercise.optional {
                " (further study, optional)"
            } else {
                ""
            },
            points(result.points),
            exercise.points,
            escape(&result.verdict_label())
        );
        match (&result.report, &result.error) {
            (Some(report), _) => {
                let _ = writeln!(body, "<pre>{}</pre>", escape(&check_text(report)));
            }
            (None, Some(error)) => {
                let _ = writeln!(body, "<p class=\"bad\">{}</p>", escape(error));
            }
            (None, None) => body.push_str("<p class=\"muted\">Nothing handed in.</p>\n"),
        }
    }
    page(&format!("{}: feedback", student.student), &body)
}
