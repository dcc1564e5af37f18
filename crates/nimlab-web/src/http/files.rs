//! An exercise's files for logged-in users: its statement's images and handouts (the files
//! beside its statement in the lab folder, loaded with the lab) and its sample cases' input
//! and expected output. Secret cases have no route: only sample cases are looked up.

use crate::http::fail::{Fail, PageFail};
use crate::http::guards::Session;
use crate::http::state::AppState;
use crate::views::sample_stem;
use axum::extract::{Path, State};
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use nimlab_core::lab::{LabExercise, Visibility};

type PageResult = Result<Response, PageFail>;

fn exercise_of<'a>(app: &'a AppState, name: &str) -> Result<&'a LabExercise, Fail> {
    app.lab
        .exercise(name)
        .map_err(|e| Fail::new(StatusCode::NOT_FOUND, e.to_string()))
}

/// `GET /exercises/{name}/files/{*path}`: one of the statement's files. Only the files the
/// lab loaded are served, by their exact path, so nothing outside the exercise's folder is
/// reachable (the loader follows no symbolic link); a path with `..`, `.`, an empty part, a
/// backslash or an encoded slash is refused before it is looked up.
pub async fn statement_file(
    State(app): State<AppState>,
    _session: Session,
    uri: Uri,
    Path((name, path)): Path<(String, String)>,
) -> PageResult {
    let exercise = exercise_of(&app, &name)?;
    let raw = uri.path().to_ascii_lowercase();
    let sneaky = raw.contains("%2f")
        || raw.contains("%5c")
        || path.contains('\\')
        || path
            .split('/')
            .any(|part| part.is_empty() || part == "." || part == "..");
    if sneaky {
        return Err(Fail::bad_request("this is not a file of the exercise's statement").into());
    }
    let bytes = exercise.files.get(&path).ok_or_else(Fail::not_found)?;
    Ok(served(&path, bytes.clone()))
}

/// How a statement file is answered: images and plain text shown in the page (with
/// `nosniff`, set on every answer, the browser keeps to the type given); anything else,
/// HTML and SVG (which can run scripts) included, only as a download.
fn served(path: &str, bytes: Vec<u8>) -> Response {
    let extension = path
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default();
    let inline = match extension.as_str() {
        "png" => Some("image/png"),
        "jpg" | "jpeg" => Some("image/jpeg"),
        "gif" => Some("image/gif"),
        "webp" => Some("image/webp"),
        "txt" | "md" | "in" | "out" | "csv" => Some("text/plain; charset=utf-8"),
        _ => None,
    };
    let file = safe_name(path.rsplit('/').next().unwrap_or(path));
    let (kind, disposition) = match inline {
        Some(kind) => (kind, format!("inline; filename=\"{file}\"")),
        None => (
            "application/octet-stream",
            format!("attachment; filename=\"{file}\""),
        ),
    };
    (
        [
            (header::CONTENT_TYPE, kind.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        bytes,
    )
        .into_response()
}

/// A file name for a header: letters, digits, `.`, `_` and `-`, the rest as `_`.
fn safe_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// `GET /exercises/{name}/samples/{case}.in` or `.out`: a sample case's input or expected
/// output, as `nimlab init` writes them. A secret case's name finds nothing.
pub async fn sample_file(
    State(app): State<AppState>,
    _session: Session,
    Path((name, file)): Path<(String, String)>,
) -> PageResult {
    let exercise = exercise_of(&app, &name)?;
    let (stem, part) = file.rsplit_once('.').ok_or_else(Fail::not_found)?;
    let case = exercise
        .cases
        .iter()
        .find(|case| case.visibility == Visibility::Sample && sample_stem(&case.name) == stem)
        .ok_or_else(Fail::not_found)?;
    let text = match part {
        "in" => case.input.text().to_string(),
        "out" => case.expected.clone(),
        _ => return Err(Fail::not_found().into()),
    };
    let download = safe_name(&format!("{}-{file}", exercise.name));
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{download}\""),
            ),
        ],
        text,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_images_and_text_are_shown_the_rest_is_downloaded() {
        let kind = |path: &str| {
            let response = served(path, Vec::new());
            let headers = response.headers();
            (
                headers[header::CONTENT_TYPE].to_str().unwrap().to_string(),
                headers[header::CONTENT_DISPOSITION]
                    .to_str()
                    .unwrap()
                    .starts_with("attachment"),
            )
        };
        assert_eq!(kind("board.PNG"), ("image/png".into(), false));
        assert_eq!(kind("img/a.jpeg"), ("image/jpeg".into(), false));
        assert_eq!(
            kind("notes.txt"),
            ("text/plain; charset=utf-8".into(), false)
        );
        for download in ["page.html", "logo.svg", "x.htm", "data", "a.js", "b.xhtml"] {
            assert_eq!(
                kind(download),
                ("application/octet-stream".into(), true),
                "{download}"
            );
        }
    }
}
