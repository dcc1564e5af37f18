//! Submissions: the tables and filtered pages of `/submissions`, and one submission's page.

use super::assets;
use super::layout::{
    NOT_JUDGED, Rendered, Viewer, page, points_told, score, status_badge, time, verdict_of,
};
use super::report::report_view;
use crate::grades::Points;
use crate::store::submissions::{Status, Summary};
use maud::{Markup, PreEscaped, html};
use nimlab_core::judge::Verdict;
use nimlab_core::report::CheckReport;
use std::collections::HashSet;

/// Submissions in a table, newest first; those in `late` (by id) are marked late.
pub fn submission_table(rows: &[Summary], show_student: bool, late: &HashSet<i64>) -> Markup {
    html! {
        div.scroll tabindex="0" { table {
            thead { tr {
                th.num { "#" }
                @if show_student { th { "Student" } }
                th { "Exercise" } th.wide { "File" } th { "Verdict" } th.num { "Score" } th.wide { "Submitted" }
            } }
            tbody {
                @for row in rows {
                    tr {
                        td.num { a href={"/submissions/" (row.id)} { (row.id) } }
                        @if show_student { td { (row.username) } }
                        td { (row.exercise) }
                        td.wide { code { (row.filename) } }
                        td { a href={"/submissions/" (row.id)} { (status_badge(row)) }
                             @if late.contains(&row.id) { " " span.badge.v-note.late { "late" } } }
                        td.num { (score(row)) }
                        td.wide.small.dim { (time(row.submitted_at)) }
                    }
                }
            }
        } }
    }
}

/// A page of `/submissions`: its rows, where they are in the whole list, and the filters.
pub struct HistoryView<'a> {
    pub rows: &'a [Summary],
    pub total: usize,
    /// How many rows come before this page's first.
    pub first: usize,
    pub previous: Option<String>,
    pub next: Option<String>,
    pub filtered: bool,
    /// Which of `rows` were sent after their student's due time.
    pub late: &'a HashSet<i64>,
    /// The filters as typed: student, exercise, verdict, from, to.
    pub fields: [String; 5],
    pub exercises: Vec<&'a str>,
}

/// The verdicts (by their JSON names) and states the list can be filtered by, with labels.
fn verdict_choices() -> Vec<(String, String)> {
    use Verdict::*;
    let verdicts = [
        Accepted,
        WrongAnswer,
        RuntimeError,
        TimeLimit,
        MemoryLimit,
        OutputLimit,
        SyntaxError,
        NotJudged,
        JudgeError,
    ];
    let mut choices: Vec<(String, String)> = verdicts
        .into_iter()
        .filter_map(|v| match serde_json::to_value(v) {
            Ok(serde_json::Value::String(name)) => Some((name, v.label().to_string())),
            _ => None,
        })
        .collect();
    for (status, label) in [
        ("queued", "queued"),
        ("running", "running"),
        ("failed", "not judged (nimlab's fault)"),
    ] {
        choices.push((status.into(), label.into()));
    }
    choices
}

fn history_filters(viewer: &Viewer, view: &HistoryView) -> Markup {
    let [student, exercise, verdict, from, to] = &view.fields;
    html! {
        form.filters method="get" action="/submissions" {
            @if viewer.user.is_staff() {
                div { label for="f-student" { "Student" } input #f-student type="text" name="student" value=(student); }
            }
            div { label for="f-exercise" { "Exercise" }
                select #f-exercise name="exercise" {
                    option value="" { "any" }
                    @for name in &view.exercises { option value=(name) selected[name == exercise] { (name) } }
                } }
            div { label for="f-verdict" { "Verdict" }
                select #f-verdict name="verdict" {
                    option value="" { "any" }
                    @for (value, label) in verdict_choices() { option value=(value) selected[&value == verdict] { (label) } }
                } }
            div { label for="f-from" { "From (UTC)" } input #f-from type="date" name="from" value=(from); }
            div { label for="f-to" { "To (UTC)" } input #f-to type="date" name="to" value=(to); }
            button.secondary type="submit" { "Filter" }
            @if view.filtered { " " a href="/submissions" { "show all" } }
        }
    }
}

pub fn history(viewer: &Viewer, view: &HistoryView) -> Rendered {
    let staff = viewer.user.is_staff();
    let shown = (view.first + 1, view.first + view.rows.len());
    page(
        "Submissions",
        Some(viewer),
        html! {},
        html! {
            h1 { @if staff { "Submissions" } @else { "My submissions" } }
            (history_filters(viewer, view))
            @if view.rows.is_empty() {
                p.dim { @if view.filtered { "No submissions match." } @else { "No submissions yet." } }
            } @else {
                p.dim.small.count { "showing " (shown.0) "–" (shown.1) " of " (view.total) }
                (submission_table(view.rows, staff, view.late))
            }
            @if view.previous.is_some() || view.next.is_some() {
                p.pages {
                    @if let Some(previous) = &view.previous { a rel="prev" href=(previous) { "← newer" } " " }
                    @if let Some(next) = &view.next { a rel="next" href=(next) { "older →" } }
                }
            }
        },
    )
}

pub struct SubmissionView<'a> {
    pub summary: &'a Summary,
    pub title: &'a str,
    pub source: &'a [u8],
    pub report: Option<&'a CheckReport>,
    pub waiting_before: i64,
    /// Sent after its student's due time.
    pub late: bool,
    /// What it counts for in the gradebook, once judged.
    pub worth: Option<Points>,
}

pub fn submission(viewer: &Viewer, view: &SubmissionView) -> Rendered {
    let summary = view.summary;
    let pending = !summary.status.finished();
    let head = if pending {
        html! { noscript { meta http-equiv="refresh" content="3"; } }
    } else {
        html! {}
    };
    // The verdict in the title: the first thing a screen reader says of the page the
    // pending one reloads into.
    let title = match summary.verdict.as_deref().and_then(verdict_of) {
        Some(verdict) if summary.status.finished() => {
            format!("Submission {}: {}", summary.id, verdict.label())
        }
        _ => format!("Submission {}", summary.id),
    };
    page(
        &title,
        Some(viewer),
        head,
        html! {
            p.small { a href={"/exercises/" (summary.exercise)} { "← " (view.title) } }
            h1 { "Submission " (summary.id) ": " code { (summary.filename) } }
            p.dim.small {
                (view.title) " · "
                @if viewer.user.is_staff() { "by " (summary.username) " · " }
                "submitted " (time(summary.submitted_at))
                @if view.late { " " span.badge.v-note.late { "late" } }
            }
            // Near the top: a report can be thousands of pixels long.
            @if viewer.user.is_staff() {
                form.inline method="post" action="/rejudge" {
                    input type="hidden" name="csrf" value=(viewer.csrf);
                    input type="hidden" name="scope" value="submission";
                    input type="hidden" name="id" value=(summary.id);
                    button.secondary type="submit" { "Judge again" }
                }
            }
            @match summary.status {
                Status::Queued => {
                    p #status.verdict.v-none role="status" data-poll={"/api/submissions/" (summary.id)} {
                        "Queued: " (view.waiting_before) " submission(s) ahead of yours."
                    }
                }
                Status::Running => {
                    p #status.verdict.v-none role="status" data-poll={"/api/submissions/" (summary.id)} {
                        "Running your program on the test cases…"
                    }
                }
                Status::Failed => {
                    p.verdict.v-note { (NOT_JUDGED) }
                    @if viewer.user.is_staff() { @if let Some(error) = &summary.error { pre tabindex="0" { (error) } } }
                }
                Status::Done => {
                    @if let Some(worth) = &view.worth {
                        p.points class=(if worth.reduced() { "v-note" } else { "dim" }) { (points_told(worth)) }
                    }
                    @if let Some(report) = view.report { (report_view(report)) }
                }
            }
            details {
                summary { "The program you submitted" }
                pre tabindex="0" { (String::from_utf8_lossy(view.source)) }
                p.small { a href={"/submissions/" (summary.id) "/source"} { "download" } }
            }
            // After the status line it looks for; allowed by its hash alone.
            @if pending { script { (PreEscaped(assets::POLL_SCRIPT)) } }
        },
    )
}
