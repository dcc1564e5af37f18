//! The pages, as maud templates: every value is escaped for HTML unless marked otherwise
//! (only the statement's Markdown, rendered with raw HTML disabled, and the fixed script).

pub(crate) mod assets;
pub(crate) mod urls;

use crate::store::accounts::User;
use crate::store::processes;
use crate::store::submissions::{Status, Summary};
use crate::views::urls::percent_encode;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use maud::{DOCTYPE, Markup, PreEscaped, html};
use nimlab_core::deadline::Policy;
use nimlab_core::judge::Verdict;
use nimlab_core::lab::{LabExercise, Visibility};
use nimlab_core::report::{CaseFeedback, CaseReport, CheckReport, RunReport, TranscriptEntry};
use std::collections::HashSet;

/// What a student is told of a submission nimlab failed to judge; the reason (nimlab's own
/// error, which may name the server's files) is for instructors.
pub const NOT_JUDGED: &str = "nimlab could not judge this submission. This is not your fault; your instructor can see why and judge it again.";

/// Who is looking, for the navigation bar and its logout form.
pub struct Viewer<'a> {
    pub user: &'a User,
    pub csrf: &'a str,
}

pub struct Rendered(pub Markup);

impl IntoResponse for Rendered {
    fn into_response(self) -> Response {
        Html(self.0.into_string()).into_response()
    }
}

pub fn page(title: &str, viewer: Option<&Viewer>, head: Markup, body: Markup) -> Rendered {
    layout(title, viewer, false, head, body)
}

/// The site's layout; without a viewer, `login_link` puts a link to the login page in the
/// navigation bar (on an error page, a visitor's way on).
fn layout(
    title: &str,
    viewer: Option<&Viewer>,
    login_link: bool,
    head: Markup,
    body: Markup,
) -> Rendered {
    Rendered(html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · nimlab" }
                link rel="stylesheet" href="/static/style.css";
                link rel="icon" href="data:,";
                (head)
            }
            body {
                header.top {
                    a.brand href="/" { "nimlab" }
                    @if let Some(viewer) = viewer {
                        nav {
                            a href="/exercises" { "Exercises" }
                            a href="/submissions" {
                                @if viewer.user.is_staff() { "Submissions" } @else { "My submissions" }
                            }
                            // What staff may use; account management is on the class page,
                            // for instructors.
                            @if viewer.user.is_staff() {
                                a href="/class" { "Class" }
                                a href="/queue" { "Queue" }
                                a href="/downloads" { "Downloads" }
                            }
                            a href="/account" { "Password" }
                        }
                        span.who { (viewer.user.username) }
                        form method="post" action="/logout" {
                            input type="hidden" name="csrf" value=(viewer.csrf);
                            button type="submit" { "Log out" }
                        }
                    } @else if login_link {
                        nav { a href="/login" { "Log in" } }
                    }
                }
                main { (body) }
            }
        }
    })
}

/// An error page in the site's layout: with the navigation of the `viewer` logged in (a
/// student's, a TA's or an instructor's), or for a visitor a link to log in.
pub fn error_page(status: StatusCode, message: &str, viewer: Option<&Viewer>) -> Html<String> {
    let title = status.canonical_reason().unwrap_or("Error");
    let Rendered(markup) = layout(
        title,
        viewer,
        true,
        html! {},
        html! {
            h1 { (title) }
            p.error { (message) }
            @if viewer.is_some() {
                p { a href="/" { "Back to the start page" } }
            } @else {
                p { a href="/login" { "Log in" } " to see the lab's exercises and your submissions." }
            }
        },
    );
    Html(markup.into_string())
}

/// "2024-05-01 14:03 UTC" from milliseconds since the epoch.
pub fn time(ms: i64) -> String {
    let seconds = ms.div_euclid(1000);
    let (days, of_day) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    )
}

/// The verdict named as `--format json` writes it.
pub fn verdict_of(name: &str) -> Option<Verdict> {
    serde_json::from_value(serde_json::Value::String(name.to_string())).ok()
}

fn verdict_class(verdict: Option<Verdict>) -> &'static str {
    match verdict {
        Some(Verdict::Accepted) => "v-accepted",
        Some(Verdict::Skipped | Verdict::JudgeError | Verdict::NotJudged) => "v-note",
        Some(_) => "v-bad",
        None => "v-none",
    }
}

fn badge(verdict: Verdict) -> Markup {
    html! { span class={"badge " (verdict_class(Some(verdict)))} { (verdict.label()) } }
}

/// A submission's state as a badge: its verdict once judged.
pub fn status_badge(summary: &Summary) -> Markup {
    match (
        summary.status,
        summary.verdict.as_deref().and_then(verdict_of),
    ) {
        (Status::Done, Some(verdict)) => badge(verdict),
        (Status::Failed, _) => html! { span.badge.v-note { "not judged (nimlab's fault)" } },
        (Status::Running, _) => html! { span.badge.v-none { "running" } },
        _ => html! { span.badge.v-none { "queued" } },
    }
}

fn score(summary: &Summary) -> String {
    match (summary.score, summary.max_score) {
        (Some(score), Some(max)) => format!("{score}/{max}"),
        _ => String::new(),
    }
}

pub fn login(error: Option<&str>, token: &str, next: &str, username: &str) -> Rendered {
    page(
        "Log in",
        None,
        html! {},
        html! {
            h1 { "Log in" }
            @if let Some(error) = error { p.error role="alert" { (error) } }
            form.stack method="post" action="/login" {
                input type="hidden" name="csrf" value=(token);
                input type="hidden" name="next" value=(next);
                div { label for="username" { "Username" }
                    input #username type="text" name="username" value=(username) autocomplete="username" autocapitalize="none" autocorrect="off" spellcheck="false" required autofocus; }
                div { label for="password" { "Password" }
                    input #password type="password" name="password" autocomplete="current-password" required; }
                button.primary type="submit" { "Log in" }
            }
        },
    )
}

/// One exercise's line in the list: the best judged submission, if any.
pub struct ExerciseRow<'a> {
    pub exercise: &'a LabExercise,
    pub best: Option<&'a Summary>,
    pub attempts: usize,
    /// The viewer's own deadline (their extension applied).
    pub deadline: Option<Policy>,
}

/// A deadline in a line: due when, late work until when and at what cost, or closed.
fn deadline_line(deadline: &Policy, now: i64) -> Markup {
    let closed = now > nimlab_core::deadline::last_moment(deadline);
    html! {
        span.small.deadline.file {
            @if closed { span.badge.v-bad { "closed" } " " }
            "due " (nimlab_core::deadline::display(deadline.due_ms))
            @if let Some(until) = deadline.late_until_ms {
                "; late work until " (nimlab_core::deadline::display(until)) ", "
                (crate::deadlines::penalty(deadline.penalty_percent_per_day))
            }
        }
    }
}

pub fn exercises(viewer: &Viewer, rows: &[ExerciseRow], now: i64) -> Rendered {
    page(
        "Exercises",
        Some(viewer),
        html! {},
        html! {
            h1 { "Exercises" }
            div.scroll { table {
                thead { tr { th.num { "#" } th { "Exercise" } th { "Best verdict" } th.num { "Score" } th.num.wide { "Submissions" } } }
                tbody {
                    @for (index, row) in rows.iter().enumerate() {
                        tr {
                            td.num { (index + 1) }
                            td { a href={"/exercises/" (row.exercise.name)} { (row.exercise.config.title) } @if row.exercise.config.further_study { " " span.small.dim { "(optional)" } }
                                 code.file.small.dim.wide { (row.exercise.name) ".py" }
                                 @if let Some(deadline) = &row.deadline { (deadline_line(deadline, now)) } }
                            td { @match row.best { Some(best) => (status_badge(best)), None => span.dim { "not submitted" } } }
                            td.num { @if let Some(best) = row.best { (score(best)) } }
                            td.num.wide { (row.attempts) }
                        }
                    }
                }
            } }
        },
    )
}

/// The statement's Markdown as HTML. Raw HTML in it is shown as text, not run. Relative
/// links and images (`![board](board.png)`, beside the statement in the lab folder) are led
/// to the statement's files under `files` (`/exercises/NAME/files/`): the page's own path
/// would resolve them elsewhere.
pub fn statement(markdown: &str, files: &str) -> Markup {
    use pulldown_cmark::{Event, Options, Parser, Tag};
    let parser = Parser::new_ext(
        markdown,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH,
    )
    .map(|event| match event {
        Event::Html(text) | Event::InlineHtml(text) => Event::Text(text),
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Image {
            link_type,
            dest_url: beside(files, dest_url),
            title,
            id,
        }),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Link {
            link_type,
            dest_url: beside(files, dest_url),
            title,
            id,
        }),
        other => other,
    });
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, parser);
    PreEscaped(out)
}

/// A statement's link, under `files` where it is relative (no scheme, not from the site's
/// root, not a fragment or query of the page itself).
fn beside<'a>(files: &str, url: pulldown_cmark::CowStr<'a>) -> pulldown_cmark::CowStr<'a> {
    let scheme = url
        .split_once(':')
        .is_some_and(|(head, _)| !head.is_empty() && !head.contains(['/', '?', '#']));
    if url.is_empty() || scheme || url.starts_with(['/', '#', '?']) {
        return url;
    }
    let relative = url.strip_prefix("./").unwrap_or(&url);
    format!("{files}{relative}").into()
}

/// Where an exercise's statement files are served (see `files::statement_file`).
pub fn files_base(exercise: &str) -> String {
    format!("/exercises/{exercise}/files/")
}

/// An exercise's page: its statement, the upload form, and the viewer's own deadline and
/// submissions.
pub struct ExerciseView<'a> {
    pub exercise: &'a LabExercise,
    pub mine: &'a [Summary],
    pub max_upload: usize,
    pub deadline: Option<Policy>,
    pub now: i64,
    /// Which of `mine` were sent after the viewer's due time.
    pub late: &'a HashSet<i64>,
}

pub fn exercise(viewer: &Viewer, view: &ExerciseView) -> Rendered {
    let ExerciseView {
        exercise,
        mine,
        max_upload,
        ..
    } = *view;
    page(
        &exercise.config.title,
        Some(viewer),
        html! {},
        html! {
            p.small { a href="/exercises" { "← all exercises" } }
            @if let Some(deadline) = &view.deadline { p { (deadline_line(deadline, view.now)) } }
            div.statement { (statement(&exercise.statement, &files_base(&exercise.name))) }
            h2 #submit { "Submit" }
            p {
                "Upload your file here, or paste your program: it runs on the sample cases below and on secret ones, and its report tells you what went wrong. "
                "If you have nimlab installed, " code { "nimlab check " (exercise.name) ".py" }
                " does the same on your machine (on the sample cases only)."
            }
            p { a href={"/exercises/" (exercise.name) "/starter"} download={(exercise.name) ".py"} {
                "Download the starter file (" code { (exercise.name) ".py" } ")" } }
            (samples(exercise))
            form.stack method="post" action={"/exercises/" (exercise.name) "/submit"} enctype="multipart/form-data" {
                input type="hidden" name="csrf" value=(viewer.csrf);
                div {
                    label for="file" { "Your file" }
                    input #file type="file" name="file" accept=".py";
                }
                details {
                    summary { "…or paste your program" }
                    textarea name="source" rows="12" spellcheck="false" {}
                }
                p.small.dim { "Files up to " (max_upload / 1024) " KiB. Your program runs on every test case under each Python version the lab needs." }
                button.primary type="submit" { "Submit" }
            }
            @if !mine.is_empty() {
                h2 { "Your submissions" }
                (submission_table(mine, false, view.late))
            }
        },
    )
}

/// An upload the exercise's form sent that was refused: why, and the way back to the form.
pub fn upload_error(
    viewer: &Viewer,
    exercise: &LabExercise,
    status: StatusCode,
    message: &str,
) -> Rendered {
    page(
        &exercise.config.title,
        Some(viewer),
        html! {},
        html! {
            h1 { (exercise.config.title) }
            h2 { "Not submitted" }
            p.error { (message) }
            p { a href={"/exercises/" (exercise.name) "#submit"} { "← back to the exercise, to submit again" } }
            p.small.dim { (status.as_u16()) " " (status.canonical_reason().unwrap_or("")) }
        },
    )
}

/// Links to the sample cases' input and expected output; secret cases are not listed (nor
/// served).
fn samples(exercise: &LabExercise) -> Markup {
    let names: Vec<&str> = exercise
        .cases
        .iter()
        .filter(|case| case.visibility == Visibility::Sample)
        .map(|case| sample_stem(&case.name))
        .collect();
    html! {
        @if !names.is_empty() {
            p { "Sample cases, to try your program on (it reads the input and should print the expected output):" }
            ul.samples {
                @for name in &names {
                    li {
                        code { (name) } ": "
                        a href={"/exercises/" (exercise.name) "/samples/" (name) ".in"} download={(exercise.name) "-" (name) ".in"} { "input" }
                        " · "
                        a href={"/exercises/" (exercise.name) "/samples/" (name) ".out"} download={(exercise.name) "-" (name) ".out"} { "expected output" }
                    }
                }
            }
        }
    }
}

/// A sample case's name without its folder (`sample/01-one` is `01-one`), as its files are
/// named on the site and in `nimlab init`'s pack.
pub fn sample_stem(case: &str) -> &str {
    case.strip_prefix("sample/").unwrap_or(case)
}

/// Submissions in a table, newest first; those in `late` (by id) are marked late.
pub fn submission_table(rows: &[Summary], show_student: bool, late: &HashSet<i64>) -> Markup {
    html! {
        div.scroll { table {
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
}

pub fn submission(viewer: &Viewer, view: &SubmissionView) -> Rendered {
    let summary = view.summary;
    let pending = !summary.status.finished();
    let head = if pending {
        html! { noscript { meta http-equiv="refresh" content="3"; } }
    } else {
        html! {}
    };
    page(
        &format!("Submission {}", summary.id),
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
                    p #status.verdict.v-none data-poll={"/api/submissions/" (summary.id)} {
                        "Queued: " (view.waiting_before) " submission(s) ahead of yours."
                    }
                }
                Status::Running => {
                    p #status.verdict.v-none data-poll={"/api/submissions/" (summary.id)} {
                        "Running your program on the test cases…"
                    }
                }
                Status::Failed => {
                    p.verdict.v-note { (NOT_JUDGED) }
                    @if viewer.user.is_staff() { @if let Some(error) = &summary.error { pre { (error) } } }
                }
                Status::Done => {
                    @if let Some(report) = view.report { (report_view(report)) }
                }
            }
            details {
                summary { "The program you submitted" }
                pre { (String::from_utf8_lossy(view.source)) }
                p.small { a href={"/submissions/" (summary.id) "/source"} { "download" } }
            }
            // After the status line it looks for; allowed by its hash alone.
            @if pending { script { (PreEscaped(assets::POLL_SCRIPT)) } }
        },
    )
}

/// What `nimlab check` says, in HTML.
pub fn report_view(report: &CheckReport) -> Markup {
    html! {
        p class={"verdict " (verdict_class(Some(report.verdict)))} {
            strong { (capitalized(report.verdict.label())) }
            " · score " (report.score) "/" (report.max_score)
        }
        @if !report.warnings.is_empty() {
            h2 { "Warnings" }
            @for warning in &report.warnings {
                p class=(if warning.fails { "error" } else { "hint" }) {
                    "line " (warning.line) ": " strong { @if warning.fails { "not allowed" } @else { "warning" } } ": " (prose(&warning.message))
                }
            }
        }
        @for hint in &report.hints { p.hint { strong { "Hint: " } (prose(hint)) } }
        @for (index, run) in report.runs.iter().enumerate() { (run_view(run, &report.runs[..index])) }
        p.small.dim { (report.isolation) }
    }
}

/// A message as the terminal report writes it, with `code` in backticks: the backticks
/// become code spans (escaped like everything else); an unpaired one stays as it is.
pub fn prose(text: &str) -> Markup {
    let parts: Vec<&str> = text.split('`').collect();
    let paired = parts.len() % 2 == 1;
    html! {
        @for (index, part) in parts.iter().enumerate() {
            @if index % 2 == 1 && (paired || index + 1 < parts.len()) { code { (part) } }
            @else if index % 2 == 1 { "`" (part) }
            @else { (part) }
        }
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Feedback on more failed samples than this is folded away: the first ones matter.
const OPEN_FEEDBACK: usize = 2;

/// A failed sample case as the same failure under another interpreter would be.
fn failure_key(case: &CaseReport) -> Option<(&str, &str, Verdict)> {
    case.feedback
        .as_ref()
        .map(|f| (case.name.as_str(), f.got.as_str(), case.verdict))
}

/// One interpreter's run; a failure already shown under an `earlier` run is only named.
fn run_view(run: &RunReport, earlier: &[RunReport]) -> Markup {
    let seen: std::collections::HashSet<(&str, &str, Verdict)> = earlier
        .iter()
        .flat_map(|r| r.cases.iter().filter_map(failure_key))
        .collect();
    let (repeated, failures): (Vec<&CaseReport>, Vec<&CaseReport>) = run
        .cases
        .iter()
        .filter(|c| c.feedback.is_some())
        .partition(|c| failure_key(c).is_some_and(|key| seen.contains(&key)));
    let failures: Vec<(&CaseReport, &CaseFeedback)> = failures
        .into_iter()
        .filter_map(|c| c.feedback.as_ref().map(|f| (c, f)))
        .collect();
    let cases_shown = !matches!(run.verdict, Verdict::Skipped | Verdict::SyntaxError);
    html! {
        section.run {
            h2 { (run.label()) " " (badge(run.verdict)) " "
                 @if run.verdict != Verdict::Skipped { span.small.dim { "score " (run.score) "/" (run.max_score) } } }
            @if let Some(message) = &run.message {
                pre { (message) }
                @if let Some(syntax) = &run.syntax {
                    @if let Some(line) = &syntax.source_line { pre { (line) } }
                    @if let Some(hint) = &syntax.hint { p.hint { strong { "Hint: " } (prose(hint)) } }
                }
            }
            @if cases_shown {
                // What went wrong first (with its hints), then every case.
                @for (index, (case, feedback)) in failures.iter().enumerate() {
                    (case_view(case, feedback, index < OPEN_FEEDBACK))
                }
                div.scroll { table {
                    thead { tr { th { "Case" } th { "Verdict" } th.num { "CPU" } th.wide { "What happened" } } }
                    tbody {
                        @for case in &run.cases {
                            tr {
                                td { code { (case.name) } }
                                td { (badge(case.verdict)) }
                                // What the report holds: a student's holds a secret case's verdict alone.
                                td.num.small { @if let Some(ms) = case.time_ms { (ms) " ms" } }
                                td.wide.small { (prose(&case.message)) }
                            }
                        }
                    }
                } }
                @if !repeated.is_empty() {
                    p.small.dim {
                        "Under " (run.label()) ", "
                        (repeated.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", "))
                        " failed the same way as above."
                    }
                }
            }
        }
    }
}

/// Trailing spaces and tabs made visible, since they can be the whole difference.
fn visible(line: &str) -> String {
    let line = line.trim_end_matches('\n');
    let body = line.trim_end_matches(' ');
    format!(
        "{}{}",
        body.replace('\t', "→"),
        "·".repeat(line.len() - body.len())
    )
}

fn lines_visible(text: &str) -> String {
    text.lines().map(visible).collect::<Vec<_>>().join("\n")
}

/// The whole expected output and the whole of what the program printed (as clipped for
/// every report), each as a block.
fn whole_outputs(feedback: &CaseFeedback, secret: bool) -> Markup {
    html! {
        p.small.dim {
            @if feedback.one_of_many { "One right answer (of many):" }
            @else if secret { "The whole expected output:" }
            @else { "Expected:" }
        }
        pre { (lines_visible(&feedback.expected)) }
        p.small.dim { @if secret { "The whole of what the program printed:" } @else { "Your program printed:" } }
        pre { @if feedback.got.is_empty() { span.dim { "(nothing)" } } @else { (lines_visible(&feedback.got)) } }
    }
}

fn case_view(case: &CaseReport, feedback: &CaseFeedback, open: bool) -> Markup {
    let game = feedback.transcript.is_some();
    // Only staff get a secret case's feedback (a student's report has its verdict alone):
    // they see every detail of it, none folded away within the case.
    let secret = case.visibility == Visibility::Secret;
    html! {
        details.case open[open] {
            summary { code { (case.name) } " " (badge(case.verdict)) }
            @if !case.message.is_empty() { p { (prose(&case.message)) } }
            p.small.dim { @if game { "The scenario:" } @else { "The input:" } }
            pre { (feedback.input) }
            @if let Some(transcript) = &feedback.transcript {
                p.small.dim { "The game (" span.typed { "» " } "is what nimlab typed):" }
                pre { (transcript_view(transcript)) }
            }
            @if let Some(difference) = &feedback.first_difference {
                p.small.dim { "First difference, line " (difference.line) ":" }
                pre {
                    "expected: " (difference.expected.as_deref().map_or("(no more lines)".into(), visible)) "\n"
                    "got:      " (difference.got.as_deref().map_or("(no more lines)".into(), visible))
                }
                @if !feedback.got.is_empty() {
                    p.small.dim { "Diff (- expected, + got):" }
                    pre.diff { (diff(&feedback.expected, &feedback.got)) }
                }
                // The diff shows the lines around each difference; the whole of both, for
                // the reader who needs the rest.
                @if secret {
                    (whole_outputs(feedback, true))
                } @else {
                    details.whole {
                        summary.small { "The whole expected output, and what the program printed" }
                        (whole_outputs(feedback, false))
                    }
                }
            } @else if !game && (case.verdict == Verdict::WrongAnswer || secret) {
                (whole_outputs(feedback, secret))
            }
            @if let Some(stderr) = &feedback.stderr {
                p.small.dim { "The program's error output ends with:" }
                pre { (stderr) }
            }
            @for hint in &feedback.hints { p.hint { strong { "Hint: " } (prose(hint)) } }
        }
    }
}

fn transcript_view(transcript: &[TranscriptEntry]) -> Markup {
    html! {
        @for entry in transcript {
            @match entry {
                TranscriptEntry::Program(text) => { (text) }
                TranscriptEntry::Typed(text) => { span.typed { "» " (text) } "\n" }
                TranscriptEntry::Broken(text) => { span.broken { "✗ " (text) } "\n" }
                TranscriptEntry::Judge(text) => { span.dim { "(nimlab: " (text) ")" } "\n" }
            }
        }
    }
}

fn diff(expected: &str, got: &str) -> Markup {
    const MAX_LINES: usize = 24;
    let diff = similar::TextDiff::from_lines(expected, got);
    let mut lines = Vec::new();
    for group in diff.grouped_ops(1) {
        for op in group {
            for change in diff.iter_changes(&op) {
                let (sign, class) = match change.tag() {
                    similar::ChangeTag::Delete => ("-", "del"),
                    similar::ChangeTag::Insert => ("+", "ins"),
                    similar::ChangeTag::Equal => (" ", "dim"),
                };
                lines.push((class, format!("{sign} {}", visible(change.value()))));
            }
        }
    }
    let cut = lines.len() > MAX_LINES;
    lines.truncate(MAX_LINES);
    html! {
        @for (class, line) in &lines { span class=(class) { (line) } "\n" }
        @if cut { span.dim { "…" } }
    }
}

/// The class matrix: a row per student, a cell per exercise with the best score.
pub struct MatrixRow<'a> {
    pub student: &'a User,
    /// Per exercise in lab order: the best judged submission.
    pub best: Vec<Option<&'a Summary>>,
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

pub fn class(
    viewer: &Viewer,
    exercises: &[&LabExercise],
    rows: &[MatrixRow],
    max_points: u32,
) -> Rendered {
    page(
        "Class",
        Some(viewer),
        html! {},
        html! {
            h1 { "Class" }
            p.small { a href="/deadlines" { "Deadlines and extensions" } }
            p.dim.small { (rows.len()) " students · each cell is the best score (cases passed, by weight) · "
                span.badge.v-accepted { "all" } " " span.badge.v-note { "some" } " " span.badge.v-bad { "none" } }
            div.scroll { table.matrix {
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
                                    Some(best) => td class=(cell_class(best)) {
                                        a href={"/submissions?student=" (percent_encode(&row.student.username)) "&exercise=" (exercise.name)}
                                          title=(best.verdict.as_deref().and_then(verdict_of).map_or("", |v| v.label())) { (score(best)) }
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

/// The new password an instructor gave an account, shown once.
pub fn password_reset(viewer: &Viewer, username: &str, password: &str) -> Rendered {
    page(
        "New password",
        Some(viewer),
        html! {},
        html! {
            h1 { "New password" }
            p { "The account " strong { (username) } " now logs in with this password (shown only this once): " }
            p { code.password { (password) } }
            p.small.dim { "Its sessions have ended and its login limits are lifted. " a href="/class" { "Back to the class" } }
        },
    )
}

/// `/account`: the form to change one's own password, with a notice once it is changed or
/// the reason it was not.
pub fn account(viewer: &Viewer, notice: Option<&str>, error: Option<&str>) -> Rendered {
    let min = crate::auth::MIN_PASSWORD_CHARS;
    page(
        "Password",
        Some(viewer),
        html! {},
        html! {
            h1 { "Change your password" }
            @if let Some(notice) = notice { p.notice role="status" { (notice) } }
            @if let Some(error) = error { p.error role="alert" { (error) } }
            p.small.dim { "Logged in as " strong { (viewer.user.username) } ". When it changes, your other sessions (other browsers, scripts) end; this one goes on." }
            form.stack method="post" action="/account" {
                input type="hidden" name="csrf" value=(viewer.csrf);
                div { label for="old" { "Current password" }
                    input #old type="password" name="old" autocomplete="current-password" required; }
                div { label for="new" { "New password" }
                    input #new type="password" name="new" autocomplete="new-password" minlength=(min) required; }
                div { label for="again" { "New password again" }
                    input #again type="password" name="again" autocomplete="new-password" minlength=(min) required; }
                p.small.dim { "At least " (min) " characters." }
                button.primary type="submit" { "Change my password" }
            }
        },
    )
}

pub fn points(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
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
            div.scroll { table {
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
            @if let Some(notice) = &view.notice { p.notice { (notice) } }
            p { (count(Status::Queued)) " queued · " (count(Status::Running)) " running · "
                (count(Status::Done)) " judged · " (count(Status::Failed)) " not judged (nimlab's fault) · "
                (view.workers) " worker(s) here" }
            p.small.dim { (view.isolation) }
            (processes(view, count(Status::Queued)))
            @if view.rows.is_empty() { p.dim { "Nothing is waiting." } }
            @else {
                div.scroll { table {
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
            div.scroll { table {
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
            @if let Some(notice) = view.notice { p.notice { (notice) } }
            p.small.dim { "Times are in the server's time zone. A submission after the due time is late; after the late period (or the due time, without one) students' uploads are refused and the gradebooks do not count it. Each started day late takes the penalty, in percent of the score. An extension gives one student a new due time, and the late period moves with it." }
            div.scroll { table {
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
                div.scroll { table {
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
            p.error { (message) }
            p { a href="/deadlines" { "← back to the deadlines" } }
            p.small.dim { (status.as_u16()) " " (status.canonical_reason().unwrap_or("")) }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_shown_in_utc() {
        assert_eq!(time(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(time(1_709_251_199_000), "2024-02-29 23:59:59 UTC");
    }

    #[test]
    fn raw_html_in_a_statement_is_shown_not_run() {
        let html = statement(
            "# Title\n\n<script>alert(1)</script>\n\nsome `code` <b>bold</b>\n",
            "/f/",
        )
        .into_string();
        assert!(html.contains("<h1>Title</h1>"), "{html}");
        assert!(
            !html.contains("<script>") && !html.contains("<b>"),
            "{html}"
        );
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn backticks_in_messages_become_code_and_stay_escaped() {
        assert_eq!(
            prose("use `//` not `/`").into_string(),
            "use <code>//</code> not <code>/</code>"
        );
        assert_eq!(
            prose("a `<b>` and one ` left").into_string(),
            "a <code>&lt;b&gt;</code> and one ` left"
        );
        assert_eq!(prose("plain").into_string(), "plain");
    }

    #[test]
    fn relative_links_in_a_statement_lead_to_its_files() {
        let html = statement(
            "![board](board.png) [notes](./img/notes.txt) [web](https://example.org/a.png) [top](#top) [site](/exercises) [mail](mailto:a@b.c)\n",
            "/exercises/x/files/",
        )
        .into_string();
        assert!(
            html.contains("src=\"/exercises/x/files/board.png\""),
            "{html}"
        );
        assert!(
            html.contains("href=\"/exercises/x/files/img/notes.txt\""),
            "{html}"
        );
        for kept in [
            "https://example.org/a.png",
            "#top",
            "/exercises\"",
            "mailto:a@b.c",
        ] {
            assert!(html.contains(kept), "{kept}: {html}");
        }
    }

    #[test]
    fn verdicts_are_read_by_their_json_names() {
        assert_eq!(verdict_of("wrong_answer"), Some(Verdict::WrongAnswer));
        assert_eq!(verdict_of("nonsense"), None);
    }
}
