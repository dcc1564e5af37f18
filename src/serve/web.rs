//! The HTTP side shared by the pages and the API: the application's state, the router, the
//! guards every request passes (Origin check, security headers), sessions, and the steps
//! both front ends take (log in, accept an upload, find a submission a user may see).

use super::auth::{self, HashRefused, LoginLimiter, Refusal};
use super::db::{self, Db, Submission, User};
use super::queue::Signal;
use super::{GradesFrom, assets};
use crate::error::Error;
use crate::lab::Lab;
use axum::Router;
use axum::extract::{DefaultBodyLimit, FromRequestParts, Multipart, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use std::sync::Arc;
use std::time::Duration;

pub const SESSION_COOKIE: &str = "nimlab_session";
/// The token a login form carries before there is a session (a double-submitted cookie).
pub const LOGIN_COOKIE: &str = "nimlab_login";
pub const SESSION_LIFETIME: Duration = Duration::from_secs(12 * 3600);
/// Failed logins an account may make in [`LOGIN_WINDOW`] before it must wait.
pub const LOGIN_FAILURES: u32 = 5;
pub const LOGIN_WINDOW: Duration = Duration::from_secs(5 * 60);
/// The largest body of a request other than an upload (a login, a form's few fields).
pub const SMALL_BODY: usize = 16 * 1024;
/// How long a client may take to send a request's body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// Request bodies held in memory at once, over all requests, at least (see
/// [`App::body_budget`]).
pub const BODY_BUDGET: usize = 64 * 1024 * 1024;
/// How long a request waits for its share of the body budget before it is refused.
const BUDGET_WAIT: Duration = Duration::from_secs(10);

/// What every handler can reach.
pub struct App {
    pub lab: Arc<Lab>,
    pub db: Arc<Db>,
    pub signal: Arc<Signal>,
    pub limiter: Arc<LoginLimiter>,
    /// Password checks are slow on purpose; they run on these threads, the rest wait.
    pub hashers: auth::Hashers,
    pub secure_cookies: bool,
    /// Origins allowed besides the request's own host (a proxy that rewrites `Host`).
    pub origins: Vec<String>,
    pub max_upload_bytes: usize,
    pub max_queued: usize,
    pub grades_from: GradesFrom,
    pub workers: usize,
    pub isolation: String,
    /// Kibibytes of request bodies that may be held in memory at once; each request takes
    /// its declared length (or its cap) before its body is read.
    pub body_budget: Arc<tokio::sync::Semaphore>,
}

pub type AppState = Arc<App>;

impl App {
    /// Runs blocking database work off the async threads.
    pub async fn db<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut rusqlite::Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, Fail> {
        let db = Arc::clone(&self.db);
        tokio::task::spawn_blocking(move || db.with(f))
            .await
            .map_err(|e| Fail::internal(format!("a database task failed: {e}")))?
            .map_err(Fail::from)
    }

    /// Runs other blocking work (a gradebook, a report) off the async threads.
    pub async fn blocking<T: Send + 'static>(
        f: impl FnOnce() -> Result<T, Error> + Send + 'static,
    ) -> Result<T, Fail> {
        tokio::task::spawn_blocking(f)
            .await
            .map_err(|e| Fail::internal(format!("a task failed: {e}")))?
            .map_err(Fail::from)
    }

    /// The largest upload body read at all (an upload form with its file and pasted text).
    pub fn body_cap(&self) -> usize {
        body_cap(self.max_upload_bytes)
    }

    fn cookie(&self, name: &str, value: &str, max_age: Duration) -> HeaderValue {
        let secure = if self.secure_cookies { "; Secure" } else { "" };
        HeaderValue::from_str(&format!(
            "{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
            max_age.as_secs()
        ))
        .expect("tokens are header-safe")
    }

    pub fn session_cookie(&self, token: &str) -> HeaderValue {
        self.cookie(SESSION_COOKIE, token, SESSION_LIFETIME)
    }

    pub fn cleared_session_cookie(&self) -> HeaderValue {
        self.cookie(SESSION_COOKIE, "", Duration::ZERO)
    }

    pub fn login_cookie(&self, token: &str) -> HeaderValue {
        self.cookie(LOGIN_COOKIE, token, Duration::from_secs(3600))
    }

    /// Whether a state-changing request's `Origin` is this site: the host the request was
    /// sent to, or an origin given with `--origin`.
    fn same_site(&self, origin: &str, host: Option<&str>) -> bool {
        let origin = origin.trim_end_matches('/');
        if self.origins.iter().any(|o| o.eq_ignore_ascii_case(origin)) {
            return true;
        }
        let Some(authority) = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
        else {
            return false; // `null`, or a scheme no page of ours has
        };
        host.is_some_and(|host| host.eq_ignore_ascii_case(authority))
    }
}

/// The largest upload body read at all, for an upload limit.
pub fn body_cap(max_upload_bytes: usize) -> usize {
    (2 * max_upload_bytes + 64 * 1024).max(4 * 1024 * 1024)
}

/// The semaphore behind [`App::body_budget`]: room for [`BODY_BUDGET`], and for a few
/// uploads of the largest size.
pub fn body_budget(max_upload_bytes: usize) -> Arc<tokio::sync::Semaphore> {
    let bytes = BODY_BUDGET.max(4 * body_cap(max_upload_bytes));
    Arc::new(tokio::sync::Semaphore::new(
        (bytes / 1024).min(tokio::sync::Semaphore::MAX_PERMITS),
    ))
}

/// What a student is told of a submission nimlab failed to judge; the reason (nimlab's own
/// error, which may name the server's files) is for instructors.
pub const NOT_JUDGED: &str = "nimlab could not judge this submission. This is not your fault; your instructor can see why and judge it again.";

/// A request refused or failed, with the message its user sees. Pages show it in HTML, the
/// API as `{"error": ...}`.
#[derive(Debug)]
pub struct Fail {
    pub status: StatusCode,
    pub message: String,
    /// Seconds to wait before trying again (`Retry-After`).
    pub retry_after: Option<u64>,
}

impl Fail {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Fail {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Fail::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found() -> Self {
        Fail::new(StatusCode::NOT_FOUND, "there is no such page or submission")
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Fail::new(StatusCode::FORBIDDEN, message)
    }

    /// nimlab's own failure: logged in full, shown without its details.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        eprintln!("nimlab serve: {detail}");
        Fail::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "nimlab failed to do this (its log says why); try again, or tell your instructor",
        )
    }

    fn headers(&self, response: &mut Response) {
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
    }

    pub fn into_json(self) -> Response {
        let mut response = (
            self.status,
            axum::Json(serde_json::json!({ "error": self.message })),
        )
            .into_response();
        self.headers(&mut response);
        response
    }

    pub fn into_page(self) -> Response {
        let body = super::views::error_page(self.status, &self.message);
        let mut response = (self.status, body).into_response();
        self.headers(&mut response);
        response
    }
}

impl From<Error> for Fail {
    fn from(error: Error) -> Self {
        Fail::internal(error)
    }
}

/// A page handler's failure: rendered as a page.
pub struct PageFail(pub Fail);

impl From<Fail> for PageFail {
    fn from(fail: Fail) -> Self {
        PageFail(fail)
    }
}

impl IntoResponse for PageFail {
    fn into_response(self) -> Response {
        self.0.into_page()
    }
}

/// An API handler's failure: rendered as JSON.
pub struct ApiFail(pub Fail);

impl From<Fail> for ApiFail {
    fn from(fail: Fail) -> Self {
        ApiFail(fail)
    }
}

impl IntoResponse for ApiFail {
    fn into_response(self) -> Response {
        self.0.into_json()
    }
}

fn is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

/// A cookie's value from the request's `Cookie` headers.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.to_string())
}

/// The logged-in user of a request, and the session's CSRF token. A request without a live
/// session is sent to the login page (pages) or answered 401 (API).
#[derive(Clone)]
pub struct Session {
    pub user: User,
    pub csrf: String,
}

impl Session {
    /// Refuses a form whose CSRF token is not this session's.
    pub fn check_csrf(&self, sent: Option<&str>) -> Result<(), Fail> {
        match sent {
            Some(token) if auth::same_secret(token, &self.csrf) => Ok(()),
            _ => Err(Fail::forbidden(
                "this form's security token is missing or out of date: reload the page and try again",
            )),
        }
    }

    pub fn require_instructor(&self) -> Result<(), Fail> {
        if self.user.is_instructor() {
            Ok(())
        } else {
            Err(Fail::forbidden("this page is for instructors"))
        }
    }
}

impl FromRequestParts<AppState> for Session {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, Response> {
        // Found already by the guard, before it read an upload's body.
        if let Some(session) = parts.extensions.get::<Session>() {
            return Ok(session.clone());
        }
        let path = parts.uri.path().to_string();
        let token = cookie(&parts.headers, SESSION_COOKIE).filter(|t| !t.is_empty());
        let found = match token {
            Some(token) => {
                let hash = auth::token_hash(&token);
                app.db(move |c| db::session_user(c, &hash))
                    .await
                    .map_err(|f| {
                        if is_api(&path) {
                            f.into_json()
                        } else {
                            f.into_page()
                        }
                    })?
            }
            None => None,
        };
        match found {
            Some((user, csrf)) => Ok(Session { user, csrf }),
            None if is_api(&path) => Err(Fail::new(
                StatusCode::UNAUTHORIZED,
                "log in first: POST /api/login",
            )
            .into_json()),
            None => {
                let target = parts
                    .uri
                    .path_and_query()
                    .map_or("/", |p| p.as_str())
                    .to_string();
                let next = if parts.method == Method::GET {
                    format!("/login?next={}", percent_encode(&target))
                } else {
                    "/login".to_string()
                };
                Err(Redirect::to(&next).into_response())
            }
        }
    }
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

/// Checks a username and password, limited per account; returns the user and a new
/// session's token.
pub async fn log_in(
    app: &AppState,
    username: String,
    password: String,
) -> Result<(User, String), Fail> {
    let username = username.trim().to_string();
    // The try is reserved before the (slow) check, so guesses sent at once are refused past
    // the account's limit instead of all waiting for their turn to be checked.
    let attempt = match app.limiter.try_begin(&username) {
        Ok(attempt) => attempt,
        Err(Refusal::Locked(wait)) => {
            let minutes = wait.as_secs().div_ceil(60).max(1);
            let mut fail = Fail::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many failed logins for this account: try again in {minutes} minute(s), or ask your instructor to reset your password"
                ),
            );
            fail.retry_after = Some(wait.as_secs().max(1));
            return Err(fail);
        }
        Err(Refusal::Busy) => {
            let mut fail = Fail::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many logins to this account are being checked at once: wait for their answer, then try again",
            );
            fail.retry_after = Some(5);
            return Err(fail);
        }
    };
    let lookup = username.clone();
    let found = app.db(move |c| db::find_user(c, &lookup)).await?;
    // The try is settled on the hasher thread, so a check counts even if its client leaves.
    let checked = app
        .hashers
        .run(move || {
            let user = match found {
                Some((user, hash)) => auth::verify_password(&password, &hash).then_some(user),
                None => {
                    auth::verify_nobody(&password);
                    None
                }
            };
            match user {
                Some(_) => attempt.succeeded(),
                None => attempt.failed(),
            }
            user
        })
        .await;
    let checked = match checked {
        Ok(checked) => checked,
        Err(HashRefused::Busy) => {
            let mut fail = Fail::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is checking too many passwords at once: try again in a few seconds",
            );
            fail.retry_after = Some(5);
            return Err(fail);
        }
        Err(HashRefused::Gone) => return Err(Fail::internal("a password check failed")),
    };
    let Some(user) = checked else {
        return Err(Fail::new(
            StatusCode::UNAUTHORIZED,
            "wrong username or password",
        ));
    };
    let token = auth::random_token();
    let (hash, csrf, id) = (auth::token_hash(&token), auth::random_token(), user.id);
    let lifetime = SESSION_LIFETIME.as_millis() as i64;
    app.db(move |c| db::create_session(c, &hash, id, &csrf, lifetime))
        .await?;
    Ok((user, token))
}

/// The fields of an upload form (pages) or request (API).
#[derive(Debug, Default)]
pub struct Upload {
    pub exercise: Option<String>,
    pub filename: Option<String>,
    pub file: Option<Vec<u8>>,
    pub pasted: Option<Vec<u8>>,
    pub csrf: Option<String>,
}

fn kib(bytes: usize) -> String {
    if bytes % 1024 == 0 {
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

/// Queues an accepted upload, committed before this returns; wakes a worker.
pub async fn enqueue(app: &AppState, user: &User, accepted: Accepted) -> Result<i64, Fail> {
    let (user_id, max) = (user.id, app.max_queued);
    let queued = app
        .db(move |c| {
            db::insert_submission(
                c,
                user_id,
                &accepted.exercise,
                &accepted.filename,
                &accepted.source,
                max,
            )
        })
        .await?;
    match queued {
        Ok(id) => {
            app.signal.notify();
            Ok(id)
        }
        Err(db::Refused::TooManyQueued(count)) => {
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

/// A submission the user may see: their own, or any for an instructor. Anyone else's is
/// "not found", as if it did not exist.
pub async fn visible_submission(
    app: &AppState,
    session: &Session,
    id: i64,
) -> Result<Submission, Fail> {
    let submission = app
        .db(move |c| db::submission(c, id))
        .await?
        .ok_or_else(Fail::not_found)?;
    if submission.summary.user_id != session.user.id && !session.user.is_instructor() {
        return Err(Fail::not_found());
    }
    Ok(submission)
}

/// Reads what a refused request sends of a small body (at most [`SMALL_BODY`], for a few
/// seconds, with room in the body budget), so that the refusal reaches a client still
/// sending it instead of a connection closed under it. A larger body is left unread.
async fn drain_small(app: &App, body: axum::body::Body, declared: Option<u64>) {
    if declared.is_some_and(|length| length > SMALL_BODY as u64) {
        return;
    }
    let Ok(_room) = app.body_budget.try_acquire_many((SMALL_BODY / 1024) as u32) else {
        return;
    };
    let _ = tokio::time::timeout(
        Duration::from_secs(5),
        axum::body::to_bytes(body, SMALL_BODY),
    )
    .await;
}

/// The routes that take an upload, whose bodies may be as large as [`App::body_cap`].
fn is_upload(method: &Method, path: &str) -> bool {
    *method == Method::POST
        && (path == "/api/submissions"
            || path
                .strip_prefix("/exercises/")
                .and_then(|rest| rest.strip_suffix("/submit"))
                .is_some_and(|name| !name.is_empty() && !name.contains('/')))
}

/// Guards every request and adds the security headers to every response. A state-changing
/// request is checked before any of its body is read: its `Origin` must be this site
/// (scripts that send none pass); an upload must come from a logged-in user. Then its body
/// is read whole (so that a refusal, here or in a handler, reaches a client still sending
/// instead of a connection closed under its upload), within its cap ([`SMALL_BODY`], or
/// [`App::body_cap`] for an upload), within [`BODY_TIMEOUT`], and within the memory all
/// bodies being read may share ([`App::body_budget`]).
async fn guard(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if safe {
        let mut response = next.run(request).await;
        secure_headers(response.headers_mut());
        return response;
    }
    let api = is_api(request.uri().path());
    let refuse = |fail: Fail| {
        let mut response = if api {
            fail.into_json()
        } else {
            fail.into_page()
        };
        secure_headers(response.headers_mut());
        response
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin = headers
        .get(header::ORIGIN)
        .map(|o| o.to_str().unwrap_or("?"));
    let cross_site = headers
        .get("sec-fetch-site")
        .is_some_and(|s| s.as_bytes() == b"cross-site");
    let refused = match origin {
        Some(origin) => !app.same_site(origin, host),
        None => cross_site,
    };
    let upload = is_upload(request.method(), request.uri().path());
    let (mut parts, body) = request.into_parts();
    if refused {
        drain_small(&app, body, declared).await;
        return refuse(Fail::forbidden(
            "refused: this request came from another site (its Origin is not this server)",
        ));
    }
    let cap = if upload {
        match Session::from_request_parts(&mut parts, &app).await {
            Ok(session) => {
                parts.extensions.insert(session);
                app.body_cap()
            }
            Err(mut response) => {
                drain_small(&app, body, declared).await;
                secure_headers(response.headers_mut());
                return response;
            }
        }
    } else {
        SMALL_BODY
    };
    let too_large = || {
        if upload {
            Fail::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request is larger than {} MiB; uploads are limited to {}",
                    cap / (1024 * 1024),
                    kib(app.max_upload_bytes)
                ),
            )
        } else {
            Fail::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request is larger than {}: only uploads may be larger",
                    kib(cap)
                ),
            )
        }
    };
    if declared.is_some_and(|length| length > cap as u64) {
        return refuse(too_large());
    }
    let reserve = declared.map_or(cap, |length| length as usize);
    let kibibytes = u32::try_from(reserve.div_ceil(1024).max(1)).unwrap_or(u32::MAX);
    let budget = Arc::clone(&app.body_budget);
    let permit = match tokio::time::timeout(BUDGET_WAIT, budget.acquire_many_owned(kibibytes)).await
    {
        Ok(Ok(permit)) => permit,
        _ => {
            let mut fail = Fail::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is receiving too much at once: try again in a few seconds",
            );
            fail.retry_after = Some(5);
            return refuse(fail);
        }
    };
    let bytes = match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, cap)).await {
        Ok(Ok(bytes)) => bytes,
        // With its length declared (and enforced by the HTTP layer), a body that fails
        // was cut short; without, it was too large (or cut short).
        Ok(Err(_)) if declared.is_some() => {
            return refuse(Fail::bad_request(
                "the request's body was cut short: try again",
            ));
        }
        Ok(Err(_)) => return refuse(too_large()),
        Err(_) => {
            return refuse(Fail::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request's body did not arrive within {} seconds: try again",
                    BODY_TIMEOUT.as_secs()
                ),
            ));
        }
    };
    let request = Request::from_parts(parts, axum::body::Body::from(bytes));
    let mut response = next.run(request).await;
    // The body is held until the handler is done with it.
    drop(permit);
    secure_headers(response.headers_mut());
    response
}

fn secure_headers(headers: &mut HeaderMap) {
    let csp = format!(
        "default-src 'none'; script-src '{}'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        assets::script_hash()
    );
    let set = [
        (header::CONTENT_SECURITY_POLICY, csp),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff".into()),
        (header::X_FRAME_OPTIONS, "DENY".into()),
        (header::REFERRER_POLICY, "same-origin".into()),
    ];
    for (name, value) in set {
        headers.insert(name, HeaderValue::from_str(&value).expect("ASCII"));
    }
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
}

/// Every route of the website and its API.
pub fn router(app: AppState) -> Router {
    use super::{api, pages};
    // Past the upload limit the form is still read to its end and answered with a message;
    // past the body cap, it is refused unread (see `guard`).
    let upload_limit = DefaultBodyLimit::max(app.body_cap());
    let uploads = Router::new()
        .route("/exercises/{name}/submit", post(pages::submit))
        .route("/api/submissions", post(api::submit))
        .layer(upload_limit);
    Router::new()
        .route("/", get(pages::home))
        .route("/login", get(pages::login_form).post(pages::login))
        .route("/logout", post(pages::logout))
        .route("/exercises", get(pages::exercises))
        .route("/exercises/{name}", get(pages::exercise))
        .route("/exercises/{name}/starter", get(pages::starter))
        .route("/submissions", get(pages::history))
        .route("/submissions/{id}", get(pages::submission))
        .route("/submissions/{id}/source", get(pages::source))
        .route("/class", get(pages::class))
        .route("/queue", get(pages::queue))
        .route("/rejudge", post(pages::rejudge))
        .route("/downloads", get(pages::downloads))
        .route("/downloads/{file}", get(pages::download))
        .route("/static/style.css", get(assets::style))
        .route("/api/login", post(api::login))
        .route("/api/logout", post(api::logout))
        .route("/api/exercises", get(api::exercises))
        .route("/api/submissions", get(api::submissions))
        .route("/api/submissions/{id}", get(api::submission))
        .merge(uploads)
        .fallback(fallback)
        .layer(DefaultBodyLimit::max(SMALL_BODY))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

async fn fallback(request: Request) -> Response {
    if is_api(request.uri().path()) {
        Fail::not_found().into_json()
    } else {
        Fail::not_found().into_page()
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

    #[test]
    fn pasted_lines_end_in_lf() {
        assert_eq!(lf_line_ends(b"a\r\nb\r\n".to_vec()), b"a\nb\n");
        assert_eq!(lf_line_ends(b"a\rb\r\r\n".to_vec()), b"a\rb\r\n");
        assert_eq!(lf_line_ends(b"a\nb".to_vec()), b"a\nb");
        assert_eq!(lf_line_ends(b"\r".to_vec()), b"\r");
    }

    #[test]
    fn cookies_are_found_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; nimlab_session=abc; b=2"),
        );
        assert_eq!(cookie(&headers, SESSION_COOKIE).as_deref(), Some("abc"));
        assert_eq!(cookie(&headers, "c"), None);
    }
}
