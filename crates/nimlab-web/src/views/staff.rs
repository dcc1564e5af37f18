//! What staff see of the class: the matrix, its mistakes grouped by cause, the queue and the
//! judges, the downloads, and the deadlines and extensions.

use super::layout::{
    Rendered, Viewer, page, points, points_told, score, status_badge, time, verdict_of,
};
use super::report::prose;
use crate::grades::{GradesFrom, Points};
use crate::store::accounts::User;
use crate::store::processes;
use crate::store::submissions::{Status, Summary};
use crate::views::urls::percent_encode;
use axum::http::StatusCode;
use maud::{Markup, html};
use nimlab_core::deadline::Policy;
use nimlab_core::grade::Gradebook;
use nimlab_core::grade::mistakes::{Cause, Group, Mistakes};
use nimlab_core::lab::LabExercise;
use std::collections::BTreeMap;

/// The class matrix: a row per student, a cell per exercise with the best score.
/// A student's exercise in the class matrix: the submission the gradebook counts (the best,
/// deadlines applied; where none counts, the best sent), and what it counts for.
pub struct MatrixCell<'a> {
    pub summary: &'a Summary,
    pub worth: Points,
}

pub struct MatrixRow<'a> {
    pub student: &'a User,
    /// Per exercise in lab order: what counts, if anything was judged.
    pub best: Vec<Option<MatrixCell<'a>>>,
    pub points: f64,
    /// How the student's scores sent to an LMS stand (`LMS: 2 sent, 1 failed`), if any.
    pub lms: Option<&'a str>,
}

fn cell_class(summary: &Summary) -> &'static str {
    match (summary.score, summary.max_score) {
        (Some(s), Some(m)) if m > 0 && s == m => "v-accepted",
        (Some(s), Some(_)) if s > 0 => "v-note",
        _ => "v-bad",
    }
}

/// A cell's title: the verdict, and what the deadline made of it where it took anything.
fn cell_title(cell: &MatrixCell) -> String {
    let verdict = cell
        .summary
        .verdict
        .as_deref()
        .and_then(verdict_of)
        .map_or("", |v| v.label());
    if cell.worth.reduced() {
        format!("{verdict} · {}", points_told(&cell.worth))
    } else {
        verdict.to_string()
    }
}

pub fn class(
    viewer: &Viewer,
    exercises: &[&LabExercise],
    rows: &[MatrixRow],
    max_points: u32,
    from: GradesFrom,
) -> Rendered {
    page(
        "Class",
        Some(viewer),
        html! {},
        html! {
            h1 { "Class" }
            p.small { a href="/class/mistakes" { "Mistakes of the class" } " · " a href="/class/similarity" { "Similar programs" } " · " a href="/deadlines" { "Deadlines and extensions" } }
            p.dim.small { (rows.len()) " students · each cell is the score (cases passed, by weight) of the submission the gradebook counts (the " (from.as_str()) ", deadlines applied; where none counts, the best sent), with the points it counts for where a deadline took some · "
                span.badge.v-accepted { "all" } " " span.badge.v-note { "some" } " " span.badge.v-bad { "none" } }
            div.scroll tabindex="0" { table.matrix {
                thead { tr {
                    th.name { "Student" }
                    @for (index, exercise) in exercises.iter().enumerate() {
                        th title=(exercise.config.title) { (index + 1) br; span.small.dim { (exercise.name) @if exercise.config.further_study { br; "(optional)" } } }
                    }
                    th.num { "Points" }
                } }
                tbody {
                    @for row in rows {
                        tr {
                            td.name { (row.student.username)
                                @if row.student.disabled { " " span.badge.v-none { "disabled" } }
                                @if !row.student.name.is_empty() { br; span.small.dim { (row.student.name) } }
                                @if let Some(lms) = row.lms { br; span.small.lms-scores { @if viewer.user.is_instructor() { a href="/class/lti" { (lms) } } @else { (lms) } } } }
                            @for (exercise, best) in exercises.iter().zip(&row.best) {
                                @match best {
                                    Some(cell) => td class=(cell_class(cell.summary)) {
                                        a href={"/submissions?student=" (percent_encode(&row.student.username)) "&exercise=" (exercise.name)}
                                          title=(cell_title(cell)) { (score(cell.summary)) }
                                        @if cell.worth.reduced() {
                                            br; span.small.late { (points(cell.worth.counted)) " of " (cell.worth.max) " pts" }
                                        }
                                    },
                                    None => td.v-none { "–" },
                                }
                            }
                            td.num { (points(row.points)) "/" (max_points) }
                        }
                    }
                }
            } }
            @if viewer.user.is_instructor() {
                p.small.dim { "Launched from an LMS? " a href="/class/lti" { "Its platforms and each student's scores sent back" } " (sent, waiting, retrying or failed, with the platform's answer)." }
            }
            @if !rows.is_empty() && viewer.user.is_instructor() {
                h2 { "Reset a password" }
                p.small.dim { "For a student who forgot theirs or is made to wait after failed logins: the account gets a new password, shown to you once, its sessions end and its login limits are lifted." }
                form.stack method="post" action="/class/password" {
                    input type="hidden" name="csrf" value=(viewer.csrf);
                    div { label for="reset-username" { "Student" }
                        select #reset-username name="username" { @for row in rows { option value=(row.student.username) { (row.student.username) } } } }
                    button.secondary type="submit" { "Give a new password" }
                }
            }
        },
    )
}

/// The class's mistakes: for each exercise, the students who did not pass it grouped by
/// cause, as `grade`'s mistakes.json groups them, each student linked to their submissions.
pub fn mistakes(
    viewer: &Viewer,
    book: &Gradebook,
    mistakes: &Mistakes,
    from: GradesFrom,
) -> Rendered {
    // Groups name students by id; the website's pages by username.
    let usernames: BTreeMap<&str, &str> = book
        .students
        .iter()
        .map(|s| {
            (
                nimlab_core::grade::mistakes::student_id(s),
                s.student.as_str(),
            )
        })
        .collect();
    let username = |id: &str| usernames.get(id).copied().unwrap_or(id).to_string();
    page(
        "Mistakes of the class",
        Some(viewer),
        html! {},
        html! {
            h1 { "Mistakes of the class" }
            p.small { a href="/class" { "Class" } }
            p.dim.small { "For each exercise, the students whose counted submission (the " (from.as_str()) ", deadlines applied) did not pass, grouped by cause: one group per hint nimlab gave (a student given two hints is in both), then, for students given none, one per wrong behaviour (the same cases failed with the same output). Largest groups first, each with one student's failure as an example. " code { "nimlab grade" } " writes the same as " code { "mistakes.json" } "." }
            @for exercise in &mistakes.exercises {
                h2 { (exercise.title) " " span.small.dim { "(" (exercise.exercise) ")" } }
                @if exercise.failing == 0 {
                    p.dim { "No failing submission (" (exercise.graded) " counted)." }
                } @else {
                    p { (exercise.failing) " of " (exercise.graded) " counted submission(s) did not pass." }
                    @for group in &exercise.groups { (mistake_group(group, &exercise.exercise, &username)) }
                }
            }
        },
    )
}

/// One group of an exercise's mistakes: its cause, its students, and one example.
fn mistake_group(group: &Group, exercise: &str, username: &dyn Fn(&str) -> String) -> Markup {
    let example = &group.example;
    let submissions = |id: &str| {
        format!(
            "/submissions?student={}&exercise={}",
            percent_encode(&username(id)),
            percent_encode(exercise)
        )
    };
    html! {
        section.mistakes {
            h3 {
                (group.count) " student(s): "
                @match &group.cause {
                    Cause::Hint { id, title } => { "hint: " (prose(title)) " " span.small.dim { "(" (id) ")" } }
                    Cause::SameOutput { cases, .. } if cases.is_empty() => { "no hint, the same failure before any case ran" }
                    Cause::SameOutput { cases, .. } => { "no hint, the same wrong output on " (cases.join(", ")) }
                }
            }
            p { @for (index, id) in group.students.iter().enumerate() {
                @if index > 0 { ", " }
                a href=(submissions(id)) { (username(id)) }
            } }
            p.small {
                "For example, " (username(&example.student))
                @if let Some(case) = &example.case { " on case " (case) }
                @if let Some(interpreter) = &example.interpreter { " under Python " (interpreter) }
                ": " (example.verdict.label()) "."
                @if !example.message.trim_end().is_empty() { " " (prose(example.message.trim_end())) }
            }
            @if let Some(hint) = &example.hint { p.hint { strong { "Hint: " } (prose(hint)) } }
            @if !example.expected.is_empty() || !example.got.is_empty() {
                p.small.dim { "Expected:" }
                pre tabindex="0" { (example.expected) }
                p.small.dim { "Printed:" }
                pre tabindex="0" { @if example.got.is_empty() { span.dim { "(nothing)" } } @else { (example.got) } }
            }
        }
    }
}

pub struct QueueView<'a> {
    pub rows: &'a [Summary],
    pub counts: &'a [(Status, i64)],
    pub workers: usize,
    pub isolation: &'a str,
    pub notice: Option<String>,
    pub exercises: Vec<&'a str>,
    /// The processes serving and judging on the database, heard of lately.
    pub processes: &'a [processes::Process],
}

/// The processes on the database, when there is more than this one to tell of; and a warning
/// when uploads wait with no judge to take them.
fn processes(view: &QueueView, queued: i64) -> Markup {
    let taking: i64 = view
        .processes
        .iter()
        .filter(|p| p.refusing.is_none())
        .map(|p| p.workers)
        .sum();
    html! {
        @if queued > 0 && taking == 0 {
            p.notice { "No judge is taking jobs: uploads wait until one starts (" code { "nimlab serve --no-web" } ") or one with the website's lab does." }
        }
        @if view.processes.len() > 1 || view.processes.iter().any(|p| p.refusing.is_some()) {
            h2 { "Servers and judges" }
            div.scroll tabindex="0" { table {
                thead { tr { th { "Process" } th { "Does" } th.num { "Workers" } th { "Lab" } th.wide { "Since" } th { "Takes jobs" } } }
                tbody {
                    @for process in view.processes {
                        tr {
                            td { code { (process.name) } }
                            td { (process.kind) }
                            td.num { (process.workers) }
                            td.small { (process.lab) " " span.dim { (process.lab_digest.get(..12).unwrap_or(&process.lab_digest)) } }
                            td.wide.small.dim { (time(process.started_at)) }
                            td.small { @if let Some(why) = &process.refusing { "no: " (why) } @else if process.workers > 0 { "yes" } @else { "—" } }
                        }
                    }
                }
            } }
        }
    }
}

pub fn queue(viewer: &Viewer, view: &QueueView) -> Rendered {
    let count = |status: Status| {
        view.counts
            .iter()
            .find(|(s, _)| *s == status)
            .map_or(0, |(_, n)| *n)
    };
    page(
        "Queue",
        Some(viewer),
        html! {},
        html! {
            h1 { "Queue" }
            @if let Some(notice) = &view.notice { p.notice role="status" { (notice) } }
            p { (count(Status::Queued)) " queued · " (count(Status::Running)) " running · "
                (count(Status::Done)) " judged · " (count(Status::Failed)) " not judged (nimlab's fault) · "
                (view.workers) " worker(s) here" }
            p.small.dim { (view.isolation) }
            (processes(view, count(Status::Queued)))
            @if view.rows.is_empty() { p.dim { "Nothing is waiting." } }
            @else {
                div.scroll tabindex="0" { table {
                    thead { tr { th.num { "#" } th { "Student" } th { "Exercise" } th { "Status" } th.wide { "Submitted" } th.wide { "Started" } } }
                    tbody {
                        @for row in view.rows {
                            tr {
                                td.num { a href={"/submissions/" (row.id)} { (row.id) } }
                                td { (row.username) }
                                td { (row.exercise) }
                                td { (status_badge(row)) }
                                td.wide.small.dim { (time(row.submitted_at)) }
                                td.wide.small.dim { @if row.status == Status::Running { @if let Some(at) = row.started_at { (time(at)) } } }
                            }
                        }
                    }
                } }
            }
            h2 { "Judge again" }
            p.small.dim { "After the fixtures change, for example. Results stay until the new ones replace them; students' new uploads go first." }
            form.stack method="post" action="/rejudge" {
                input type="hidden" name="csrf" value=(viewer.csrf);
                input type="hidden" name="scope" value="exercise";
                div { label for="exercise" { "Every submission of one exercise" }
                    select #exercise name="exercise" { @for name in &view.exercises { option value=(name) { (name) } } } }
                button.secondary type="submit" { "Judge this exercise again" }
            }
            form.stack method="post" action="/rejudge" {
                input type="hidden" name="csrf" value=(viewer.csrf);
                input type="hidden" name="scope" value="all";
                button.secondary type="submit" { "Judge every submission again" }
            }
        },
    )
}

pub fn downloads(viewer: &Viewer, files: &[(&str, &str)], default_from: &str) -> Rendered {
    page(
        "Downloads",
        Some(viewer),
        html! {},
        html! {
            h1 { "Downloads" }
            p { "The files " code { "nimlab grade" } " writes, computed from each student's best submission per exercise, or the latest judged one. This server's setting: " strong { (default_from) } "." }
            div.scroll tabindex="0" { table {
                thead { tr { th { "File" } th { "What it is" } th { "From" } } }
                tbody {
                    @for (file, what) in files {
                        tr {
                            td { code { (file) } }
                            td { (what) }
                            td { a href={"/downloads/" (file) "?from=best"} { "best" } " · " a href={"/downloads/" (file) "?from=latest"} { "latest" } }
                        }
                    }
                }
            } }
        },
    )
}

/// The deadlines page: each exercise's deadline, the extensions, and the forms that change
/// them.
pub struct DeadlinesView<'a> {
    /// Each exercise of the lab with its deadline, if any.
    pub exercises: Vec<(&'a LabExercise, Option<&'a Policy>)>,
    /// (student, exercise, new due time).
    pub extensions: &'a [(String, String, i64)],
    pub students: Vec<&'a str>,
    pub notice: Option<&'static str>,
}

fn exercise_choices(view: &DeadlinesView, id: &str) -> Markup {
    html! {
        select id=(id) name="exercise" {
            option value="all" { "every exercise" }
            @for (exercise, _) in &view.exercises { option value=(exercise.name) { (exercise.name) } }
        }
    }
}

fn undo_form(
    viewer: &Viewer,
    action: &str,
    exercise: &str,
    student: Option<&str>,
    label: &str,
) -> Markup {
    html! {
        form.inline method="post" action="/deadlines" {
            input type="hidden" name="csrf" value=(viewer.csrf);
            input type="hidden" name="action" value=(action);
            input type="hidden" name="exercise" value=(exercise);
            @if let Some(student) = student { input type="hidden" name="student" value=(student); }
            button.secondary type="submit" { (label) }
        }
    }
}

pub fn deadlines(viewer: &Viewer, view: &DeadlinesView) -> Rendered {
    use nimlab_core::deadline::display;
    page(
        "Deadlines",
        Some(viewer),
        html! {},
        html! {
            p.small { a href="/class" { "← the class" } }
            h1 { "Deadlines" }
            @if let Some(notice) = view.notice { p.notice role="status" { (notice) } }
            p.small.dim { "Times are in the server's time zone. A submission after the due time is late; after the late period (or the due time, without one) students' uploads are refused and the gradebooks do not count it. Each started day late takes the penalty, in percent of the score. An extension gives one student a new due time, and the late period moves with it." }
            div.scroll tabindex="0" { table {
                thead { tr { th { "Exercise" } th { "Due" } th.wide { "Late work" } th {} } }
                tbody {
                    @for (exercise, deadline) in &view.exercises {
                        tr {
                            td { (exercise.name) }
                            @match deadline {
                                Some(deadline) => {
                                    td.small { (display(deadline.due_ms)) }
                                    td.small.wide { @match deadline.late_until_ms {
                                        Some(until) => { "until " (display(until)) ", " (crate::deadlines::penalty(deadline.penalty_percent_per_day)) }
                                        None => span.dim { "none" },
                                    } }
                                    td { (undo_form(viewer, "clear", &exercise.name, None, "Clear")) }
                                }
                                None => { td.dim { "no deadline" } td.wide {} td {} }
                            }
                        }
                    }
                }
            } }
            h2 { "Set a deadline" }
            form.stack method="post" action="/deadlines" {
                input type="hidden" name="csrf" value=(viewer.csrf);
                input type="hidden" name="action" value="set";
                div { label for="set-exercise" { "Exercise" } (exercise_choices(view, "set-exercise")) }
                div { label for="set-due" { "Due" } input #set-due type="datetime-local" name="due" required; }
                div { label for="set-late" { "Take late work until (optional)" } input #set-late type="datetime-local" name="late_until"; }
                div { label for="set-penalty" { "Penalty, percent of the score per day late (100: no credit)" }
                    input #set-penalty type="number" name="late_penalty" min="0" max="100" step="any" value="0"; }
                button.primary type="submit" { "Set the deadline" }
            }
            h2 { "Extensions" }
            @if view.extensions.is_empty() { p.dim { "None." } }
            @else {
                div.scroll tabindex="0" { table {
                    thead { tr { th { "Student" } th { "Exercise" } th { "Due for them" } th {} } }
                    tbody {
                        @for (student, exercise, until) in view.extensions {
                            tr {
                                td { (student) }
                                td { (exercise) }
                                td.small { (display(*until)) }
                                td { (undo_form(viewer, "unextend", exercise, Some(student), "Remove")) }
                            }
                        }
                    }
                } }
            }
            @if !view.students.is_empty() {
                h2 { "Give an extension" }
                form.stack method="post" action="/deadlines" {
                    input type="hidden" name="csrf" value=(viewer.csrf);
                    input type="hidden" name="action" value="extend";
                    div { label for="extend-student" { "Student" }
                        select #extend-student name="student" { @for student in &view.students { option value=(student) { (student) } } } }
                    div { label for="extend-exercise" { "Exercise" } (exercise_choices(view, "extend-exercise")) }
                    div { label for="extend-until" { "New due time" } input #extend-until type="datetime-local" name="until" required; }
                    button.primary type="submit" { "Give the extension" }
                }
            }
        },
    )
}

/// A deadlines form that was refused: why, and the way back.
pub fn deadline_error(viewer: &Viewer, status: StatusCode, message: &str) -> Rendered {
    page(
        "Deadlines",
        Some(viewer),
        html! {},
        html! {
            h1 { "Deadlines" }
            h2 { "Not changed" }
            p.error role="alert" { (message) }
            p { a href="/deadlines" { "← back to the deadlines" } }
            p.small.dim { (status.as_u16()) " " (status.canonical_reason().unwrap_or("")) }
        },
    )
}
