//! The instructor's LTI page: the platforms registered, the values an LMS administrator
//! enters, and the scores waiting, failed or sent, with a button to send failed ones again.

use super::store::{Outgoing, Platform};
use crate::serve::guards::Session;
use crate::serve::views::{self, Rendered, Viewer};
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
                "Platforms are registered with " code { "nimlab lti add-platform" } "; the README's section "
                "\"Using nimlab from Canvas or Moodle\" lists what the LMS needs: the login URL "
                code { "/lti/login" } ", the redirect URL " code { "/lti/launch" } " and the keys at "
                code { "/lti/jwks" } " on this site."
            }
            h2 { "Platforms" }
            @if platforms.is_empty() {
                p { "None registered." }
            } @else {
                div.scroll { table {
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
            p { (pending) " waiting, " (failed) " failed." }
            @if failed > 0 {
                form method="post" action="/class/lti/resend" {
                    input type="hidden" name="csrf" value=(session.csrf);
                    button type="submit" { "Send every failed score again" }
                }
            }
            @if !outbox.is_empty() {
                div.scroll { table {
                    thead { tr { th { "Student" } th { "Exercise" } th.num { "Score" } th { "Status" } th.wide { "Queued" } th.wide { "Why not sent" } th {} } }
                    tbody {
                        @for item in outbox {
                            tr {
                                td { (item.username) }
                                td { code { (item.exercise) } }
                                td.num { (views::points(item.score)) "/" (views::points(item.max_score)) }
                                td { (item.status) @if item.status == "pending" && item.attempts > 0 { " (tried " (item.attempts) "×, next " (views::time(item.next_try_at)) ")" } }
                                td.wide.small { (views::time(item.created_at)) }
                                td.wide.small { (item.last_error.as_deref().unwrap_or("")) }
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
