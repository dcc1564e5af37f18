//! Errors: a request refused or failed ([`Fail`]), with the message its user sees, answered
//! as a page ([`PageFail`]) or as JSON ([`ApiFail`]).

use crate::access_log::log;
use crate::views;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use nimlab_core::error::Error;

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
        log(detail.to_string());
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
        let body = views::error_page(self.status, &self.message, None);
        let shown = ErrorShown {
            status: self.status,
            message: self.message.clone(),
        };
        let mut response = self.with_body(body);
        response.extensions_mut().insert(shown);
        response
    }

    /// Answered with `body`, a page of its own (the upload form's errors are shown on the
    /// site's page, with its navigation), with this status and headers.
    pub fn with_body(self, body: impl IntoResponse) -> Response {
        let mut response = (self.status, body).into_response();
        self.headers(&mut response);
        response
    }

    /// As JSON for a request to the API (`api`), else as a page.
    pub fn into_response_for(self, api: bool) -> Response {
        if api {
            self.into_json()
        } else {
            self.into_page()
        }
    }
}

impl From<Error> for Fail {
    fn from(error: Error) -> Self {
        Fail::internal(error)
    }
}

/// What an error page said, kept on its response so that it can be shown again with the
/// site's navigation to a logged-in user ([`crate::http::pages::error_navigation`]): the place
/// that fails often has no session at hand (a route not found, a guard's refusal).
#[derive(Clone)]
pub struct ErrorShown {
    pub status: StatusCode,
    pub message: String,
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
