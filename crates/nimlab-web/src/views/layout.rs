//! The site's frame (layout, navigation, error pages) and the small pieces every page
//! uses: times, points, verdict badges.

use crate::grades::Points;
use crate::store::accounts::User;
use crate::store::submissions::{Status, Summary};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use maud::{DOCTYPE, Markup, html};
use nimlab_core::judge::Verdict;

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
            p.error role="alert" { (message) }
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

pub(super) fn verdict_class(verdict: Option<Verdict>) -> &'static str {
    match verdict {
        Some(Verdict::Accepted) => "v-accepted",
        Some(Verdict::Skipped | Verdict::JudgeError | Verdict::NotJudged) => "v-note",
        Some(_) => "v-bad",
        None => "v-none",
    }
}

pub(super) fn badge(verdict: Verdict) -> Markup {
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

pub(super) fn score(summary: &Summary) -> String {
    match (summary.score, summary.max_score) {
        (Some(score), Some(max)) => format!("{score}/{max}"),
        _ => String::new(),
    }
}

pub fn points(value: f64) -> String {
    // (-0.0 + 0.0 is 0.0: no "-0" on a page.)
    let text = format!("{:.2}", value + 0.0);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A length of time as a person says it: `2 days 6 h`, `6 h 5 min`, `12 min`.
pub fn how_long(ms: i64) -> String {
    let minutes = ms.max(0) / 60_000;
    let (days, hours, minutes) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    match (days, hours, minutes) {
        (0, 0, 0) => "under a minute".into(),
        (0, 0, m) => format!("{m} min"),
        (0, h, 0) => format!("{h} h"),
        (0, h, m) => format!("{h} h {m} min"),
        (1, 0, _) => "1 day".into(),
        (1, h, _) => format!("1 day {h} h"),
        (d, 0, _) => format!("{d} days"),
        (d, h, _) => format!("{d} days {h} h"),
    }
}

/// What a judged submission counts for in the gradebook, and why, when the deadline took
/// part of it: the sentence the submission page shows, and the class matrix's cell title.
pub fn points_told(worth: &Points) -> String {
    let Points {
        counted,
        on_time,
        max,
        timeliness,
    } = *worth;
    if !timeliness.accepted {
        return format!(
            "Counts for no points: sent {} after the due time, after the late period had ended \
             (on time it would have counted for {} of {max}).",
            how_long(timeliness.late_ms),
            points(on_time)
        );
    }
    if worth.reduced() {
        let days = timeliness.started_days();
        let taken = worth.taken_percent();
        return format!(
            "Counts for {} of {max} points: sent {} late, {days} started day{} at {}% a day, so \
             {taken}% of its score is taken ({} of {max} on time).",
            points(counted),
            how_long(timeliness.late_ms),
            if days == 1 { "" } else { "s" },
            points(timeliness.percent_per_day),
            points(on_time)
        );
    }
    if timeliness.late {
        return format!(
            "Counts for {} of {max} points (sent {} late, with no penalty).",
            points(counted),
            how_long(timeliness.late_ms)
        );
    }
    format!("Counts for {} of {max} points.", points(counted))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nimlab_core::judge::Verdict;

    #[test]
    fn times_are_shown_in_utc() {
        assert_eq!(time(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(time(1_709_251_199_000), "2024-02-29 23:59:59 UTC");
    }

    #[test]
    fn verdicts_are_read_by_their_json_names() {
        assert_eq!(verdict_of("wrong_answer"), Some(Verdict::WrongAnswer));
        assert_eq!(verdict_of("nonsense"), None);
    }
}
