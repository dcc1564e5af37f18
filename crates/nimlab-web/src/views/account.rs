//! Logging in, and a password: one's own changed, or one an instructor gave.

use super::layout::{Rendered, Viewer, page};
use maud::html;

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
