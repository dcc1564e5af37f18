//! The application's shared state ([`App`]): what every handler can reach, the blocking work
//! it runs off the async threads, and the limits on request bodies it holds.

use crate::auth;
use crate::grades::GradesFrom;
use crate::http::budget::BodyBudget;
use crate::http::fail::Fail;
use crate::http::throttle::{DeviceKey, InFlight};
use crate::jobs::signal::Signal;
use crate::store::db::Db;
use crate::store::sql::{Conn, SqlResult};
use axum::http::HeaderValue;
use nimlab_core::error::Error;
use nimlab_core::lab::Lab;
use std::sync::Arc;
use std::time::Duration;

/// Request bodies held in memory at once, over all requests, at least (see
/// [`App::body_budget`]).
pub const BODY_BUDGET: usize = 64 * 1024 * 1024;

/// What every handler can reach.
pub struct App {
    pub lab: Arc<Lab>,
    pub db: Arc<Db>,
    pub signal: Arc<Signal>,
    pub logins: Logins,
    /// Requests come through a reverse proxy that appends the client's address to
    /// `X-Forwarded-For`.
    pub behind_proxy: bool,
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
    /// Request bodies that may be held in memory at once, shared fairly between senders;
    /// each request takes its declared length (or its cap) before its body is read.
    pub body_budget: Arc<BodyBudget>,
    /// LTI 1.3: the tool's key, the platforms' keys and tokens, the score outbox's wake-up.
    pub lti: Arc<crate::lti::tool::Lti>,
}

pub type AppState = Arc<App>;

/// What the login throttles keep in memory (see [`crate::http::throttle`]).
pub struct Logins {
    pub devices: DeviceKey,
    pub in_flight: Arc<InFlight>,
}

impl App {
    /// Runs blocking database work off the async threads.
    pub async fn db<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut Conn) -> SqlResult<T> + Send + 'static,
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

    /// A `Set-Cookie` value for this site: secure when the server says so.
    pub fn set_cookie(&self, name: &str, value: &str, max_age: Duration) -> HeaderValue {
        let secure = if self.secure_cookies { "; Secure" } else { "" };
        // In an LMS's frame the site is a third party: only SameSite=None cookies reach it
        // there, and Partitioned ones where third-party cookies are blocked (forms keep their
        // CSRF tokens and the Origin check either way).
        let same_site = if self.lti.frames.is_some() {
            "None; Partitioned"
        } else {
            "Lax"
        };
        HeaderValue::from_str(&format!(
            "{name}={value}; Path=/; HttpOnly; SameSite={same_site}; Max-Age={}{secure}",
            max_age.as_secs()
        ))
        .expect("tokens are header-safe")
    }
}

/// The largest upload body read at all, for an upload limit.
pub fn body_cap(max_upload_bytes: usize) -> usize {
    (2 * max_upload_bytes + 64 * 1024).max(4 * 1024 * 1024)
}

/// The budget behind [`App::body_budget`]: room for [`BODY_BUDGET`], and for a few uploads
/// of the largest size; one sender may hold an eighth of it, or one upload of that size.
pub fn body_budget(max_upload_bytes: usize) -> Arc<BodyBudget> {
    let cap = body_cap(max_upload_bytes);
    let bytes = BODY_BUDGET.max(4 * cap);
    BodyBudget::new(bytes, (bytes / 8).max(cap))
}
