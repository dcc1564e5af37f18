//! The access log: a line on stderr per request, `nimlab serve: GET /exercises/ui 200 3ms ada`
//! (method, path, status, time taken, and the user or `-`). Only the path and a few query
//! keys that hold nothing secret are written; never cookies, bodies, passwords or tokens.
//! Whatever the client sent is escaped for a terminal, so a crafted URL cannot move the
//! cursor of whoever reads the log.
//!
//! [`log`] is how every other message of the website reaches stderr: one event, one line,
//! whatever outside text it quotes (a platform's error, a student's file name).

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use nimlab_core::escape;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Query keys written to the log: filters and pages, which are no one's secret.
const LOGGED_KEYS: &[&str] = &[
    "student", "exercise", "verdict", "from", "to", "page", "limit", "rejudged",
];

/// Where the [`crate::http::guards::Session`] extractor leaves the request's user for its line.
#[derive(Clone, Default)]
pub struct Who(Arc<Mutex<Option<String>>>);

impl Who {
    pub fn set(&self, username: &str) {
        *self.0.lock().expect("no panics holding the name") = Some(username.to_string());
    }

    fn get(&self) -> Option<String> {
        self.0.lock().expect("no panics holding the name").clone()
    }
}

/// Writes `message` as one line of the log, `nimlab serve: MESSAGE`: control characters,
/// newlines and tabs in it escaped ([`escape::one_line`]).
pub fn log(message: impl AsRef<str>) {
    eprintln!("nimlab serve: {}", escape::one_line(message.as_ref()));
}

/// The path and the query's harmless keys, as the log shows them.
fn shown_target(path: &str, query: Option<&str>) -> String {
    let kept: Vec<&str> = query
        .unwrap_or("")
        .split('&')
        .filter(|pair| {
            let key = pair.split('=').next().unwrap_or("");
            LOGGED_KEYS.contains(&key)
        })
        .collect();
    let target = if kept.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", kept.join("&"))
    };
    // Newlines and tabs too, which a terminal shows but which would forge a log line.
    escape::one_line(&target).into_owned()
}

/// Middleware: answers the request, then writes its line.
pub async fn access_log(mut request: Request, next: Next) -> Response {
    let started = Instant::now();
    let who = Who::default();
    request.extensions_mut().insert(who.clone());
    let method = request.method().clone();
    let target = shown_target(request.uri().path(), request.uri().query());
    let response = next.run(request).await;
    let user = who.get().unwrap_or_else(|| "-".to_string());
    log(format!(
        "{} {target} {} {}ms {}",
        method.as_str(),
        response.status().as_u16(),
        started.elapsed().as_millis(),
        user
    ));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_harmless_query_keys_are_logged_and_controls_are_escaped() {
        assert_eq!(
            shown_target("/submissions", Some("student=ada&csrf=x&page=2")),
            "/submissions?student=ada&page=2"
        );
        assert_eq!(shown_target("/login", Some("next=/x")), "/login");
        assert_eq!(shown_target("/a\u{1b}[2J", None), "/a\\x1b[2J");
    }
}
