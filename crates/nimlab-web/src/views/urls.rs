//! The site's paths: which belong to the API, which take an upload, a query value's encoding,
//! and the only paths followed after logging in.

use axum::http::Method;

/// Whether a path is the JSON API's (answered in JSON, not with pages).
pub fn is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

/// The routes that take an upload, whose bodies may be as large as the upload cap
/// (`App::body_cap`).
pub fn is_upload(method: &Method, path: &str) -> bool {
    *method == Method::POST
        && (path == "/api/submissions"
            || path
                .strip_prefix("/exercises/")
                .and_then(|rest| rest.strip_suffix("/submit"))
                .is_some_and(|name| !name.is_empty() && !name.contains('/')))
}

/// Encodes a query parameter's value.
pub fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Where to go after logging in: only a path on this site. It starts with one `/` (not
/// `//` or `/\\`, which browsers read as another host) and holds no whitespace, control
/// character or backslash: browsers drop tabs and newlines from a URL, so `/\t/evil.example`
/// would lead to `//evil.example`, and a newline cannot go in a `Location` header.
pub fn safe_next(next: Option<&str>) -> String {
    let local = |path: &str| {
        let mut chars = path.chars();
        chars.next() == Some('/')
            && !matches!(chars.next(), Some('/' | '\\'))
            && !path
                .chars()
                .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
    };
    match next {
        Some(path) if local(path) => path.to_string(),
        _ => "/".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_paths_are_followed_after_login() {
        assert_eq!(safe_next(Some("/submissions/3")), "/submissions/3");
        assert_eq!(safe_next(Some("//evil.example/x")), "/");
        assert_eq!(safe_next(Some("https://evil.example")), "/");
        assert_eq!(safe_next(Some("/\\evil.example")), "/");
        assert_eq!(safe_next(None), "/");
        assert_eq!(safe_next(Some("")), "/");
        assert_eq!(safe_next(Some("/")), "/");
        assert_eq!(safe_next(Some("/exercises?x=1#y")), "/exercises?x=1#y");
        assert_eq!(safe_next(Some("/exercises/é")), "/exercises/é");
        // Browsers drop tabs and newlines from URLs: these would become `//evil.example`.
        for sneaky in [
            "/\t/evil.example",
            "/\n/evil.example",
            "/\r\n/evil.example",
            "/ /evil.example",
            "/\u{0}/x",
            "/x\ny",
            "/x\u{7f}",
            "/x\u{85}y",
            "/x\u{a0}y",
            "/x\\y",
            "\t//evil.example",
        ] {
            assert_eq!(safe_next(Some(sneaky)), "/", "{sneaky:?}");
        }
    }

    #[test]
    fn only_the_upload_routes_take_large_bodies() {
        assert!(is_upload(&Method::POST, "/api/submissions"));
        assert!(is_upload(&Method::POST, "/exercises/present_board/submit"));
        assert!(!is_upload(&Method::GET, "/api/submissions"));
        assert!(!is_upload(&Method::POST, "/api/login"));
        assert!(!is_upload(&Method::POST, "/exercises//submit"));
        assert!(!is_upload(&Method::POST, "/exercises/a/b/submit"));
        assert!(!is_upload(&Method::POST, "/api/submissions/3"));
    }
}
