//! What a student works from: the list of exercises, an exercise's statement, its samples
//! and upload form, and an upload refused.

use super::layout::{Rendered, Viewer, page, points, points_told, score, status_badge};
use super::submissions::submission_table;
use crate::grades::{GradesFrom, Points};
use crate::store::submissions::Summary;
use axum::http::StatusCode;
use maud::{Markup, PreEscaped, html};
use nimlab_core::deadline::Policy;
use nimlab_core::lab::{LabExercise, Visibility};
use std::collections::HashSet;

/// One exercise's line in the list: the judged submission the gradebook counts (where none
/// counts, the best sent) and what it counts for, if any.
pub struct ExerciseRow<'a> {
    pub exercise: &'a LabExercise,
    pub standing: Option<(&'a Summary, Points)>,
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

/// Which submission counts, as a student reads it.
fn counts_which(from: GradesFrom) -> &'static str {
    match from {
        GradesFrom::Best => "your best",
        GradesFrom::Latest => "your latest",
    }
}

pub fn exercises(viewer: &Viewer, rows: &[ExerciseRow], from: GradesFrom, now: i64) -> Rendered {
    page(
        "Exercises",
        Some(viewer),
        html! {},
        html! {
            h1 { "Exercises" }
            p.dim.small { "Each line shows the submission your grade counts (" (counts_which(from)) ", deadlines applied): its verdict, its score (cases passed, by weight) and the points it counts for." }
            div.scroll tabindex="0" { table {
                thead { tr { th.num { "#" } th { "Exercise" } th { "Verdict" } th.num { "Score" } th.num { "Points" } th.num.wide { "Submissions" } } }
                tbody {
                    @for (index, row) in rows.iter().enumerate() {
                        tr {
                            td.num { (index + 1) }
                            td { a href={"/exercises/" (row.exercise.name)} { (row.exercise.config.title) } @if row.exercise.config.further_study { " " span.small.dim { "(optional)" } }
                                 code.file.small.dim.wide { (row.exercise.name) ".py" }
                                 @if let Some(deadline) = &row.deadline { (deadline_line(deadline, now)) } }
                            td { @match row.standing { Some((counted, _)) => (status_badge(counted)), None => span.dim { "not submitted" } } }
                            td.num { @if let Some((counted, _)) = row.standing { (score(counted)) } }
                            td.num { @if let Some((_, worth)) = &row.standing {
                                (points(worth.counted)) " of " (worth.max)
                                @if worth.reduced() { br; span.small.late { (points_told(worth)) } }
                            } }
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
                    label for="source" { "Your program" }
                    textarea #source name="source" rows="12" spellcheck="false" {}
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
            p.error role="alert" { (message) }
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
