//! The instructor's LTI page: the platforms registered, the values an LMS administrator
//! enters, and each student's score: sent, waiting, being retried or failed (with what the
//! platform answered), with a button to send failed ones again.

use crate::http::guards::Session;
use crate::lti::store::{Outgoing, Platform};
use crate::views::{self, Rendered, Viewer};
use maud::html;

pub fn lti(
    session: &Session,
    platforms: &[Platform],
    outbox: &[Outgoing],
    (pending, failed): (i64, i64),
) -> Rendered {
    let viewer = Viewer {
        user: &session.user,
        csrf: &session.csrf,
    };
    views::page(
        "LMS",
        Some(&viewer),
        html! {},
        html! {
            h1 { "LMS (LTI 1.3)" }
            p.small.dim {
                "Platforms are registered with " code { "nimlab lti add-platform" } "; the user guide's chapter "
                "\"Canvas and Moodle (LTI 1.3)\" (docs/src/lti.md) lists what the LMS needs: the login URL "
                code { "/lti/login" } ", the redirect URL " code { "/lti/launch" } " and the keys at "
                code { "/lti/jwks" } " on this site."
            }
            h2 { "Platforms" }
            @if platforms.is_empty() {
                p { "None registered." }
            } @else {
                div.scroll tabindex="0" { table {
                    thead { tr { th { "Issuer" } th { "Client id" } th { "Deployments" } } }
                    tbody {
                        @for platform in platforms {
                            tr {
                                td { code { (platform.issuer) } }
                                td { code { (platform.client_id) } }
                                td { (platform.deployments.join(", ")) }
                            }
                        }
                    }
                } }
            }
            h2 { "Scores sent to the LMS" }
            p { (pending) " waiting, " (failed) " failed. Each platform is sent its scores on its own: one that is slow or down delays only its own." }
            @if failed > 0 {
                form method="post" action="/class/lti/resend" {
                    input type="hidden" name="csrf" value=(session.csrf);
                    button type="submit" { "Send every failed score again" }
                }
            }
            @if !outbox.is_empty() {
                p.small.dim { "Each student's newest score for each LMS gradebook column. What a platform answered is quoted as it came, between quotes." }
                div.scroll tabindex="0" { table {
                    thead { tr { th { "Student" } th { "Exercise" } th.num { "Score" } th { "Status" } th.wide { "Platform" } th.wide { "Queued" } th { "Why not sent" } th {} } }
                    tbody {
                        @for item in outbox {
                            tr.lti-score data-status=(status_word(item)) {
                                td { (item.username) }
                                td { code { (item.exercise) } }
                                td.num { (views::points(item.score)) "/" (views::points(item.max_score)) }
                                td { (status(item)) }
                                td.wide.small { (issuer(platforms, item.platform_id)) }
                                td.wide.small { (views::time(item.created_at)) }
                                td.small { (item.last_error.as_deref().unwrap_or("")) }
                                td {
                                    @if item.status == "failed" {
                                        form method="post" action="/class/lti/resend" {
                                            input type="hidden" name="csrf" value=(session.csrf);
                                            input type="hidden" name="id" value=(item.id);
                                            button.secondary type="submit" { "Send again" }
                                        }
                                    }
                                }
                            }
                        }
                    }
                } }
            }
        },
    )
}

/// A score's state in one word: `sent`, `waiting` (not tried yet), `retrying` (tried, to be
/// tried again) or `failed` (given up on until the instructor sends it again).
fn status_word(item: &Outgoing) -> &'static str {
    match item.status.as_str() {
        "sent" => "sent",
        "failed" => "failed",
        _ if item.attempts > 0 => "retrying",
        _ => "waiting",
    }
}

/// A score's state as the instructor reads it, with when it was sent or is tried next.
fn status(item: &Outgoing) -> String {
    match status_word(item) {
        "sent" => match item.sent_at {
            Some(at) => format!("sent {}", views::time(at)),
            None => "sent".to_string(),
        },
        "retrying" => format!(
            "retrying (tried {}×, next {})",
            item.attempts,
            views::time(item.next_try_at)
        ),
        "failed" => format!("failed (tried {}×)", item.attempts),
        word => word.to_string(),
    }
}

/// The issuer of the platform a score goes to, as registered.
fn issuer(platforms: &[Platform], id: i64) -> &str {
    platforms
        .iter()
        .find(|p| p.id == id)
        .map_or("(no longer registered)", |p| p.issuer.as_str())
}
