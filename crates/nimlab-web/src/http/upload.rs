//! Uploads: a multipart form (pages) or request (API) read within the upload limit, what
//! it is (which exercise, which file), and its place in the judging queue.

use crate::deadlines;
use crate::http::fail::Fail;
use crate::http::state::AppState;
use crate::store::accounts::User;
use crate::store::calendar;
use crate::store::db;
use crate::store::submissions;
use axum::extract::Multipart;
use axum::http::StatusCode;
use nimlab_core::lab::Lab;

/// The fields of an upload form (pages) or request (API).
#[derive(Debug, Default)]
pub struct Upload {
    pub exercise: Option<String>,
    pub filename: Option<String>,
    pub file: Option<Vec<u8>>,
    pub pasted: Option<Vec<u8>>,
    pub csrf: Option<String>,
}

/// A size in a message: in KiB where it is a whole number of them.
pub fn kib(bytes: usize) -> String {
    if bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} bytes")
    }
}

/// Reads a multipart upload, refusing a file or pasted program over the limit with a
/// message that says so.
pub async fn read_upload(mut multipart: Multipart, limit: usize) -> Result<Upload, Fail> {
    let too_large = |what: &str| {
        Fail::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "{what} is larger than the upload limit of {}: a lab exercise is far smaller, so check that you chose the right file",
                kib(limit)
            ),
        )
    };
    let malformed = |e: axum::extract::multipart::MultipartError| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_large("the upload")
        } else {
            Fail::bad_request(format!("the upload is not a well-formed form: {e}"))
        }
    };
    let mut upload = Upload::default();
    while let Some(mut field) = multipart.next_field().await.map_err(malformed)? {
        let name = field.name().unwrap_or_default().to_string();
        let filename = field.file_name().map(str::to_string);
        let mut bytes = Vec::new();
        while let Some(chunk) = field.chunk().await.map_err(malformed)? {
            bytes.extend_from_slice(&chunk);
            if bytes.len() > limit {
                let what = match (&filename, name.as_str()) {
                    (Some(file), _) if !file.is_empty() => file.clone(),
                    (_, "source") => "the pasted program".to_string(),
                    _ => format!("the field `{name}`"),
                };
                return Err(too_large(&what));
            }
        }
        let text = || String::from_utf8_lossy(&bytes).trim().to_string();
        match name.as_str() {
            "exercise" => upload.exercise = Some(text()).filter(|t| !t.is_empty()),
            "csrf" => upload.csrf = Some(text()),
            "source" => {
                upload.pasted = Some(lf_line_ends(bytes)).filter(|b| !b.trim_ascii().is_empty())
            }
            "file" if filename.as_deref().is_some_and(|f| !f.is_empty()) || !bytes.is_empty() => {
                upload.filename = filename;
                upload.file = Some(bytes);
            }
            _ => {}
        }
    }
    Ok(upload)
}

/// A pasted program with LF line ends: browsers send a text area's lines ended by CRLF.
/// A lone CR is kept.
fn lf_line_ends(bytes: Vec<u8>) -> Vec<u8> {
    if !bytes.contains(&b'\r') {
        return bytes;
    }
    let mut lines = Vec::with_capacity(bytes.len());
    for (index, &byte) in bytes.iter().enumerate() {
        if !(byte == b'\r' && bytes.get(index + 1) == Some(&b'\n')) {
            lines.push(byte);
        }
    }
    lines
}

/// An upload made ready for the queue: its exercise, the name to show, and its bytes.
pub struct Accepted {
    pub exercise: String,
    pub filename: String,
    pub source: Vec<u8>,
}

/// Decides what an upload is: a file (or else a pasted program) for a known exercise, named
/// by the form or by the file's name.
pub fn accept(lab: &Lab, upload: Upload, exercise: Option<&str>) -> Result<Accepted, Fail> {
    let filename = upload.filename.as_deref().map(|name| {
        // Browsers send a bare name; some clients send a path.
        name.rsplit(['/', '\\']).next().unwrap_or(name).to_string()
    });
    let (source, filename) = match (upload.file, upload.pasted) {
        (Some(file), _) if !file.is_empty() => (file, filename),
        (Some(_), None) => {
            return Err(Fail::bad_request(format!(
                "{} is empty: choose the file with your program",
                filename.as_deref().unwrap_or("the file")
            )));
        }
        (_, Some(pasted)) => (pasted, None),
        (None, None) => {
            return Err(Fail::bad_request(
                "choose a .py file, or paste your program",
            ));
        }
    };
    if let Some(name) = &filename
        && !name.to_lowercase().ends_with(".py")
    {
        return Err(Fail::bad_request(format!(
            "{name} is not a Python file: upload the .py file with your program"
        )));
    }
    let named = exercise.map(str::to_string).or(upload.exercise);
    let exercise = match named {
        Some(name) => lab
            .exercise(&name)
            .map_err(|e| Fail::new(StatusCode::NOT_FOUND, e.to_string()))?,
        None => filename
            .as_deref()
            .and_then(|f| lab.detect_exercise(std::path::Path::new(f)))
            .ok_or_else(|| {
                Fail::bad_request(format!(
                    "say which exercise this is (the field `exercise`): one of {}",
                    lab.names().join(", ")
                ))
            })?,
    };
    let filename = filename
        .map(|f| f.chars().take(100).collect())
        .unwrap_or_else(|| format!("{}.py", exercise.name));
    Ok(Accepted {
        exercise: exercise.name.clone(),
        filename,
        source,
    })
}

/// Queues an accepted upload, committed before this returns; wakes a worker. A student's
/// upload after their last moment (the deadline's late period, else its due time, their
/// extension applied) is refused, 403, with a message that says when that was; an
/// instructor's never is.
pub async fn enqueue(app: &AppState, user: &User, accepted: Accepted) -> Result<i64, Fail> {
    let (user_id, max, instructor) = (user.id, app.max_queued, user.is_instructor());
    let exercise = accepted.exercise.clone();
    let queued = app
        .db(move |c| {
            // One moment for the check and the record, so what was let in counts.
            let now = db::now_ms();
            if !instructor {
                let deadlines = calendar::deadlines(c)?;
                if !deadlines
                    .timeliness(user_id, &accepted.exercise, now)
                    .accepted
                {
                    return Ok(Err(Closed(deadlines.personal(user_id, &accepted.exercise))));
                }
            }
            submissions::insert_submission_at(
                c,
                user_id,
                &accepted.exercise,
                &accepted.filename,
                &accepted.source,
                max,
                now,
            )
            .map(|queued| queued.map_err(Refused))
        })
        .await?;
    match queued {
        Ok(id) => {
            app.signal.notify();
            Ok(id)
        }
        Err(Closed(policy)) => Err(Fail::forbidden(match policy {
            Some(policy) => deadlines::closed_message(&exercise, &policy),
            None => format!("uploads for {exercise} are closed"),
        })),
        Err(Refused(submissions::Refused::TooManyQueued(count))) => {
            let mut fail = Fail::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "you already have {count} submissions waiting to be judged (the limit is {max}): wait for their verdicts before submitting again"
                ),
            );
            fail.retry_after = Some(10);
            Err(fail)
        }
    }
}

/// Why an upload was not queued.
enum NotQueued {
    /// After the student's last moment; their deadline.
    Closed(Option<nimlab_core::deadline::Policy>),
    Refused(submissions::Refused),
}
use NotQueued::{Closed, Refused};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pasted_lines_end_in_lf() {
        assert_eq!(lf_line_ends(b"a\r\nb\r\n".to_vec()), b"a\nb\n");
        assert_eq!(lf_line_ends(b"a\rb\r\r\n".to_vec()), b"a\rb\r\n");
        assert_eq!(lf_line_ends(b"a\nb".to_vec()), b"a\nb");
        assert_eq!(lf_line_ends(b"\r".to_vec()), b"\r");
    }
}
