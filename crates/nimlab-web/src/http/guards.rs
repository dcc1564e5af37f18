//! The guards: what a request must pass before a handler acts on it. Every state-changing
//! request comes from this site (its `Origin`) and sends a body within its cap, in time and
//! within the memory all bodies share ([`guard`], which also adds the security headers to
//! every response); a handler's [`Session`] extractor finds the signed-in user, who may have
//! to be an instructor, send the session's CSRF token, or own the submission asked for.

use crate::access_log::Who;
use crate::auth;
use crate::http::budget::{BodyRoom, Sender};
use crate::http::fail::Fail;
use crate::http::login::{Peer, SESSION_COOKIE, cookie};
use crate::http::state::{App, AppState};
use crate::http::throttle::network;
use crate::http::upload::kib;
use crate::lti::tool::Lti;
use crate::store::accounts;
use crate::store::accounts::User;
use crate::store::submissions;
use crate::store::submissions::Submission;
use crate::views::assets;
use crate::views::urls::{is_api, is_upload, percent_encode};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use std::sync::Arc;
use std::time::Duration;
use tower_http::set_header::SetResponseHeaderLayer;

/// The largest body of a request other than an upload (a login, a form's few fields).
pub const SMALL_BODY: usize = 16 * 1024;
/// How long a client may take to send a request's body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a request waits for its share of the body budget before it is refused.
const BUDGET_WAIT: Duration = Duration::from_secs(10);

/// The logged-in user of a request, and the session's CSRF token. A request without a live
/// session is sent to the login page (pages) or answered 401 (API).
#[derive(Clone)]
pub struct Session {
    pub user: User,
    pub csrf: String,
    /// The hash of the session's token: the session a password change keeps.
    pub token_hash: String,
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

    /// Refuses all but instructors: managing accounts (passwords, imports, disabling) is
    /// theirs alone.
    pub fn require_instructor(&self) -> Result<(), Fail> {
        if self.user.is_instructor() {
            Ok(())
        } else {
            Err(Fail::forbidden("this is for instructors"))
        }
    }

    /// Refuses all but staff (TAs and instructors): the class, every submission, the queue,
    /// judging again and the downloads.
    pub fn require_staff(&self) -> Result<(), Fail> {
        if self.user.is_staff() {
            Ok(())
        } else {
            Err(Fail::forbidden("this page is for the course's staff"))
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
                let lookup = hash.clone();
                app.db(move |c| accounts::session_user(c, &lookup))
                    .await
                    .map_err(|f| f.into_response_for(is_api(&path)))?
                    .map(|(user, csrf)| (user, csrf, hash))
            }
            None => None,
        };
        match found {
            Some((user, csrf, token_hash)) => {
                if let Some(who) = parts.extensions.get::<Who>() {
                    who.set(&user.username);
                }
                Ok(Session {
                    user,
                    csrf,
                    token_hash,
                })
            }
            None if is_api(&path) => Err(Fail::new(
                StatusCode::UNAUTHORIZED,
                "log in first: POST /api/login",
            )
            .into_json()),
            None => Err(to_login(parts)),
        }
    }
}

/// Sends a visitor without a session to log in, and back to the page asked for (a `GET`).
fn to_login(parts: &Parts) -> Response {
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
    Redirect::to(&next).into_response()
}

/// A submission the user may see: their own, or any for staff (a TA or an instructor).
/// Anyone else's is "not found", as if it did not exist.
pub async fn visible_submission(
    app: &AppState,
    session: &Session,
    id: i64,
) -> Result<Submission, Fail> {
    let submission = app
        .db(move |c| submissions::submission(c, id))
        .await?
        .ok_or_else(Fail::not_found)?;
    if submission.summary.user_id != session.user.id && !session.user.is_staff() {
        return Err(Fail::not_found());
    }
    Ok(submission)
}

/// Whether a state-changing request's `Origin` is this site, compared whole (scheme, host
/// and port): an origin given with `--origin`, or the host the request was sent to under the
/// scheme this site is served with (https with `--secure-cookies`, else http).
fn same_site(app: &App, origin: &str, host: Option<&str>) -> bool {
    let origin = origin.trim_end_matches('/');
    if app.origins.iter().any(|o| o.eq_ignore_ascii_case(origin)) {
        return true;
    }
    let scheme = if app.secure_cookies {
        "https://"
    } else {
        "http://"
    };
    // `null`, another scheme, or this host under the other scheme: not a page of ours.
    let Some(authority) = origin.strip_prefix(scheme) else {
        return false;
    };
    host.is_some_and(|host| host.eq_ignore_ascii_case(authority))
}

/// Whether a request comes from another site: by its `Origin`, or where it sends none (as
/// scripts do, which pass), by the browser's `Sec-Fetch-Site`.
fn from_another_site(app: &App, headers: &HeaderMap) -> bool {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin = headers
        .get(header::ORIGIN)
        .map(|o| o.to_str().unwrap_or("?"));
    let cross_site = headers
        .get("sec-fetch-site")
        .is_some_and(|s| s.as_bytes() == b"cross-site");
    match origin {
        Some(origin) => !same_site(app, origin, host),
        None => cross_site,
    }
}

/// The body's length as the request declares it (`Content-Length`).
fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
}

/// Reads what a refused request sends of a small body (at most [`SMALL_BODY`], for a few
/// seconds, with room in the body budget), so that the refusal reaches a client still
/// sending it instead of a connection closed under it. A larger body is left unread.
async fn drain_small(app: &App, sender: Sender, body: Body, declared: Option<u64>) {
    if declared.is_some_and(|length| length > SMALL_BODY as u64) {
        return;
    }
    let Some(_room) = app.body_budget.try_reserve(sender, SMALL_BODY) else {
        return;
    };
    let _ = tokio::time::timeout(
        Duration::from_secs(5),
        axum::body::to_bytes(body, SMALL_BODY),
    )
    .await;
}

/// Guards every request and adds the security headers to every response. A state-changing
/// request is checked before any of its body is read: its `Origin` must be this site
/// (scripts that send none pass); an upload must come from a logged-in user. Then its body
/// is read whole (so that a refusal, here or in a handler, reaches a client still sending
/// instead of a connection closed under its upload), within its cap ([`SMALL_BODY`], or
/// [`App::body_cap`] for an upload), within [`BODY_TIMEOUT`], and within the memory all
/// bodies being read may share ([`App::body_budget`]).
pub async fn guard(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if safe {
        return next.run(request).await;
    }
    let api = is_api(request.uri().path());
    let declared = declared_length(request.headers());
    // An LMS's launch is a cross-site form POST by design; only the LTI routes take one.
    let lti = is_lti_entry(request.uri().path());
    let refused = !lti && from_another_site(&app, request.headers());
    let upload = is_upload(request.method(), request.uri().path());
    let (mut parts, body) = request.into_parts();
    let Ok(Peer(address)) = Peer::from_request_parts(&mut parts, &app).await;
    let mut sender = Sender::Network(address.map(network));
    if refused {
        drain_small(&app, sender, body, declared).await;
        return Fail::forbidden(
            "refused: this request came from another site (its Origin is not this server)",
        )
        .into_response_for(api);
    }
    let cap = if upload {
        match find_uploader(&app, &mut parts).await {
            Ok(user) => sender = Sender::User(user),
            Err(response) => {
                drain_small(&app, sender, body, declared).await;
                return response;
            }
        }
        app.body_cap()
    } else if lti {
        crate::lti::tool::LAUNCH_BODY
    } else {
        SMALL_BODY
    };
    let (bytes, permit) = match read_body(&app, sender, body, declared, cap, upload).await {
        Ok(read) => read,
        Err(fail) => return fail.into_response_for(api),
    };
    let request = Request::from_parts(parts, Body::from(bytes));
    let response = next.run(request).await;
    // The body is held until the handler is done with it.
    drop(permit);
    response
}

/// The routes a platform's page posts to from its own site (LTI login and launch).
fn is_lti_entry(path: &str) -> bool {
    matches!(path, "/lti/login" | "/lti/launch")
}

/// An upload's session, found before its body is read and kept for its handler (its user
/// returned); without one, the answer the handler would give.
async fn find_uploader(app: &AppState, parts: &mut Parts) -> Result<i64, Response> {
    let session = Session::from_request_parts(parts, app).await?;
    let user = session.user.id;
    parts.extensions.insert(session);
    Ok(user)
}

/// A body too large for its `cap`, in words for an upload or any other request.
fn too_large(app: &App, cap: usize, upload: bool) -> Fail {
    let message = if upload {
        format!(
            "the request is larger than {} MiB; uploads are limited to {}",
            cap / (1024 * 1024),
            kib(app.max_upload_bytes)
        )
    } else {
        format!(
            "the request is larger than {}: only uploads may be larger",
            kib(cap)
        )
    };
    Fail::new(StatusCode::PAYLOAD_TOO_LARGE, message)
}

/// Reads a body whole within its `cap`, its room in the body budget and [`BODY_TIMEOUT`];
/// returns it with the room it holds.
async fn read_body(
    app: &App,
    sender: Sender,
    body: Body,
    declared: Option<u64>,
    cap: usize,
    upload: bool,
) -> Result<(Bytes, BodyRoom), Fail> {
    if declared.is_some_and(|length| length > cap as u64) {
        return Err(too_large(app, cap, upload));
    }
    let permit = reserve(app, sender, declared.map_or(cap, |length| length as usize)).await?;
    match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, cap)).await {
        Ok(Ok(bytes)) => Ok((bytes, permit)),
        // With its length declared (and enforced by the HTTP layer), a body that fails
        // was cut short; without, it was too large (or cut short).
        Ok(Err(_)) if declared.is_some() => Err(Fail::bad_request(
            "the request's body was cut short: try again",
        )),
        Ok(Err(_)) => Err(too_large(app, cap, upload)),
        Err(_) => Err(Fail::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request's body did not arrive within {} seconds: try again",
                BODY_TIMEOUT.as_secs()
            ),
        )),
    }
}

/// Room for `bytes` of `sender`'s body in the budget all requests share, waited for
/// [`BUDGET_WAIT`] at most.
async fn reserve(app: &App, sender: Sender, bytes: usize) -> Result<BodyRoom, Fail> {
    match app.body_budget.reserve(sender, bytes, BUDGET_WAIT).await {
        Some(room) => Ok(room),
        None => {
            let mut fail = Fail::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is receiving too much at once: try again in a few seconds",
            );
            fail.retry_after = Some(5);
            Err(fail)
        }
    }
}

/// A page whose form is sent to another site (an LMS's Deep Linking return URL): that
/// origin is added to the page's `form-action`.
#[derive(Clone)]
pub struct FormTarget(pub String);

/// The Content-Security-Policy of a response: `frames`, the origins that may frame the site
/// (`serve --lti-frames`), else none may; `form_target`, another site a page's form is sent
/// to. The other headers every response carries are set beside it, in [`security_headers`].
fn content_security_policy(frames: Option<&str>, form_target: Option<&FormTarget>) -> HeaderValue {
    let form_action = match form_target {
        Some(FormTarget(origin)) => format!("'self' {origin}"),
        None => "'self'".into(),
    };
    let csp = format!(
        "default-src 'none'; script-src {}; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action {form_action}; frame-ancestors {}; base-uri 'none'",
        assets::script_hash(),
        frames.unwrap_or("'none'")
    );
    HeaderValue::from_str(&csp).expect("ASCII")
}

/// The headers every response carries, whoever answered it (a handler, the guard, the
/// fallback, an error page), as tower-http's layers around the router.
pub fn security_headers(router: Router<AppState>, lti: Arc<Lti>) -> Router<AppState> {
    let framed = Arc::clone(&lti);
    router
        .layer(SetResponseHeaderLayer::overriding(
            header::CONTENT_SECURITY_POLICY,
            move |response: &Response| {
                Some(content_security_policy(
                    lti.frame_ancestors().as_deref(),
                    response.extensions().get::<FormTarget>(),
                ))
            },
        ))
        // X-Frame-Options cannot name several origins; frame-ancestors wins where both are.
        .layer(SetResponseHeaderLayer::overriding(
            header::X_FRAME_OPTIONS,
            move |_: &Response| {
                framed
                    .frame_ancestors()
                    .is_none()
                    .then(|| HeaderValue::from_static("DENY"))
            },
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
}
