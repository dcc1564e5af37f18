//! The router: every route of the website and its API, to its handler in [`pages`] or
//! [`api`], behind the [`guard`] every request passes, each written to the access log.

use super::{api, files, lti, pages};
use crate::access_log;
use crate::http::fail::Fail;
use crate::http::guards::{SMALL_BODY, guard, security_headers};
use crate::http::state::AppState;
use crate::views::assets;
use crate::views::urls::is_api;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::middleware;
use axum::response::Response;
use axum::routing::{get, post};
use std::sync::Arc;

/// Every route of the website and its API.
pub fn router(app: AppState) -> Router {
    // Past the upload limit the form is still read to its end and answered with a message;
    // past the body cap, it is refused unread (see `guard`).
    let upload_limit = DefaultBodyLimit::max(app.body_cap());
    let uploads = Router::new()
        .route("/exercises/{name}/submit", post(pages::submit))
        .route("/api/submissions", post(api::submit))
        .layer(upload_limit);
    let routes = Router::new()
        .route("/", get(pages::home))
        .route("/login", get(pages::login_form).post(pages::login))
        .route("/logout", post(pages::logout))
        .route("/exercises", get(pages::exercises))
        .route("/exercises/{name}", get(pages::exercise))
        .route("/exercises/{name}/starter", get(pages::starter))
        .route(
            "/exercises/{name}/files/{*path}",
            get(files::statement_file),
        )
        .route("/exercises/{name}/samples/{file}", get(files::sample_file))
        .route("/submissions", get(pages::history))
        .route("/submissions/{id}", get(pages::submission))
        .route("/submissions/{id}/source", get(pages::source))
        .route("/class", get(pages::class))
        .route("/class/password", post(pages::reset_password))
        .route("/class/mistakes", get(pages::mistakes))
        .route("/class/similarity", get(pages::similarity))
        .route(
            "/deadlines",
            get(pages::deadlines).post(pages::set_deadline),
        )
        .route("/queue", get(pages::queue))
        .route("/rejudge", post(pages::rejudge))
        .route("/downloads", get(pages::downloads))
        .route("/downloads/{file}", get(pages::download))
        .route("/class/lti", get(lti::class_page))
        .route("/class/lti/resend", post(lti::resend))
        .route("/lti/login", get(lti::login).post(lti::login))
        .route("/lti/jwks", get(lti::jwks))
        .route(
            "/lti/deep-link/{id}",
            get(lti::deep_link::choose).post(lti::deep_link::answer),
        )
        .route("/account", get(pages::account).post(pages::change_password))
        .route("/static/style.css", get(assets::style))
        .route("/api/login", post(api::login))
        .route("/api/logout", post(api::logout))
        .route("/api/password", post(api::change_password))
        .route("/api/exercises", get(api::exercises))
        .route("/api/submissions", get(api::submissions))
        .route("/api/submissions/{id}", get(api::submission))
        .merge(uploads)
        .route(
            "/lti/launch",
            post(lti::launch).layer(DefaultBodyLimit::max(crate::lti::tool::LAUNCH_BODY)),
        )
        .fallback(fallback)
        .layer(DefaultBodyLimit::max(SMALL_BODY))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .layer(middleware::from_fn_with_state(
            app.clone(),
            pages::error_navigation,
        ));
    // Outermost: the line has the status the guard or the handler answered.
    security_headers(routes, Arc::clone(&app.lti))
        .layer(middleware::from_fn(access_log::access_log))
        .with_state(app)
}

async fn fallback(request: Request) -> Response {
    Fail::not_found().into_response_for(is_api(request.uri().path()))
}
