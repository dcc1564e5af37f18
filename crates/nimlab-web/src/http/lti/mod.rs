//! LTI 1.3 over HTTP: the login initiation, the launch, the tool's keys, the class's LTI
//! page, and Deep Linking; the score outbox beside them. The protocol's parts they use
//! (tokens, keys, the launch cookie, the platforms' store) are in `crate::lti`.

pub(crate) mod deep_link;
pub(crate) mod outbox;
pub(crate) mod page;

use crate::access_log::log;
use crate::http::fail::{Fail, PageFail};
use crate::http::guards::Session;
use crate::http::login::{cookie, start_session};
use crate::http::state::{App, AppState};
use crate::lti::store::Platform;
use crate::lti::tool::Lti;
use crate::store::db::now_ms;
use axum::extract::{Form, Query, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use nimlab_core::escape;
use serde::Deserialize;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How long the platforms read are used before they are read again.
const PLATFORMS_FRESH: Duration = Duration::from_secs(1);
/// A platform not among those read is looked for again at once (one reading at a time).
const PLATFORMS_MISSED: Duration = Duration::ZERO;

impl Lti {
    /// The platforms registered, read at most once per [`PLATFORMS_FRESH`] (or
    /// [`PLATFORMS_MISSED`] when `missing` says the last reading lacked one): a flood of login
    /// initiations costs the database no more than one query a second. One task reads them
    /// while the others wait for its answer.
    async fn platforms(
        &self,
        app: &AppState,
        missing: bool,
    ) -> std::result::Result<std::sync::Arc<Vec<Platform>>, Fail> {
        let mut cached = self.platforms.lock().await;
        let fresh = if missing {
            PLATFORMS_MISSED
        } else {
            PLATFORMS_FRESH
        };
        if let Some((platforms, read)) = &*cached
            && read.elapsed() < fresh
        {
            return Ok(std::sync::Arc::clone(platforms));
        }
        let platforms = std::sync::Arc::new(app.db(crate::lti::store::platforms).await?);
        *cached = Some((std::sync::Arc::clone(&platforms), Instant::now()));
        Ok(platforms)
    }

    /// A platform by its id, read now: a launch (its signed cookie checked first) is decided
    /// by the platform's settings as they are (its course contexts, its linking switch), never
    /// by a reading a second old, however soon after `lti add-platform` it comes.
    async fn platform(
        &self,
        app: &AppState,
        id: i64,
    ) -> std::result::Result<Option<Platform>, Fail> {
        let platforms = app.db(crate::lti::store::platforms).await?;
        Ok(platforms.into_iter().find(|p| p.id == id))
    }
}

/// The tool's own address as the platform sees it: the first `--origin`, else this request's
/// host under the site's scheme.
fn own_origin(app: &App, headers: &HeaderMap) -> String {
    if let Some(origin) = app.origins.first() {
        return origin.clone();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost");
    let scheme = if app.secure_cookies { "https" } else { "http" };
    format!("{scheme}://{host}")
}

fn refused(status: StatusCode, why: impl Into<String>) -> PageFail {
    refused_with(status, why, None)
}

/// A launch refused: `why`, in nimlab's words, on the page and in the log; `detail`, what
/// the other party sent (quoted with [`escape::quoted`]), in the log alone.
fn refused_with(status: StatusCode, why: impl Into<String>, detail: Option<String>) -> PageFail {
    let why = why.into();
    match &detail {
        Some(detail) => log(format!("LTI launch refused: {why}; {detail}")),
        None => log(format!("LTI launch refused: {why}")),
    }
    PageFail(Fail::new(
        status,
        format!("The launch from your course's site was refused: {why}."),
    ))
}

/// The OAuth 2.0 and OpenID Connect error codes a platform may answer an authorisation
/// with: named on the error page; any other code is the log's alone.
const AUTHORISATION_ERRORS: &[&str] = &[
    "invalid_request",
    "unauthorized_client",
    "access_denied",
    "unsupported_response_type",
    "invalid_scope",
    "server_error",
    "temporarily_unavailable",
    "interaction_required",
    "login_required",
    "account_selection_required",
    "consent_required",
    "invalid_request_uri",
    "invalid_request_object",
    "request_not_supported",
    "request_uri_not_supported",
    "registration_not_supported",
];

/// A platform's error instead of a launch (`error`, `error_description`): the page says so
/// in nimlab's words, naming a standard error code; the platform's own text goes to the log,
/// escaped, never to the page.
fn platform_error(error: &str, description: Option<&str>) -> PageFail {
    let why = match AUTHORISATION_ERRORS.iter().find(|code| **code == error) {
        Some(code) => {
            format!("your course's site answered with the error {code} instead of a launch")
        }
        None => "your course's site answered with an error instead of a launch".to_string(),
    };
    let detail = format!(
        "the platform's error {}, described as {}",
        escape::quoted(error, 100),
        escape::quoted(description.unwrap_or(""), 300)
    );
    refused_with(StatusCode::BAD_REQUEST, why, Some(detail))
}

fn bad(why: impl Into<String>) -> PageFail {
    refused(StatusCode::BAD_REQUEST, why)
}

type Handled = std::result::Result<Response, PageFail>;

/// `GET|POST /lti/login`: answers a platform's login initiation with a redirect to its
/// authorisation URL, with a fresh state (also in a cookie of this browser) and nonce.
pub async fn login(
    State(app): State<AppState>,
    method: Method,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
    body: axum::body::Bytes,
) -> Handled {
    let fields: HashMap<String, String> = if method == Method::POST {
        serde_urlencoded::from_bytes(&body)
            .map_err(|_| bad("the login initiation is not a form"))?
    } else {
        query
    };
    let get = |name: &str| {
        fields
            .get(name)
            .filter(|v| !v.is_empty())
            .map(String::as_str)
    };
    let (Some(issuer), Some(login_hint)) = (get("iss"), get("login_hint")) else {
        return Err(bad("the login initiation lacks iss or login_hint"));
    };
    let platform =
        registered_platform(&app, issuer, get("client_id"), get("lti_deployment_id")).await?;
    let begun = app.lti.launches.begin(platform.id, now_ms());
    let (state, nonce) = (&begun.state, &begun.nonce);
    let mut target = crate::lti::outgoing::allowed(&platform.auth_url)
        .map_err(|e| refused(StatusCode::BAD_GATEWAY, e))?;
    {
        let mut pairs = target.query_pairs_mut();
        pairs
            .append_pair("scope", "openid")
            .append_pair("response_type", "id_token")
            .append_pair("response_mode", "form_post")
            .append_pair("prompt", "none")
            .append_pair("client_id", &platform.client_id)
            .append_pair(
                "redirect_uri",
                &format!("{}/lti/launch", own_origin(&app, &headers)),
            )
            .append_pair("login_hint", login_hint)
            .append_pair("state", state)
            .append_pair("nonce", nonce);
        if let Some(hint) = get("lti_message_hint") {
            pairs.append_pair("lti_message_hint", hint);
        }
    }
    let mut response = Redirect::to(target.as_str()).into_response();
    // The launch comes back as a cross-site POST: only a SameSite=None cookie goes with it.
    // Partitioned (CHIPS): inside an LMS's frame, browsers that block third-party cookies
    // still keep it, for this top-level site; in a window of its own nothing changes.
    // Secure even over plain http: browsers keep it for localhost, as the tests use.
    let cookie = format!(
        "{}={}; Path=/lti/launch; HttpOnly; Secure; SameSite=None; Partitioned; Max-Age={}",
        begun.cookie_name,
        begun.cookie_value,
        crate::lti::launch_cookie::LAUNCH_LIFETIME.as_secs()
    );
    response.headers_mut().append(
        header::SET_COOKIE,
        HeaderValue::from_str(&cookie).expect("digits and hex are header-safe"),
    );
    Ok(response)
}

/// The one platform registered for `issuer` (and `client_id`, when given), which knows the
/// deployment, when given.
async fn registered_platform(
    app: &AppState,
    issuer: &str,
    client_id: Option<&str>,
    deployment: Option<&str>,
) -> std::result::Result<Platform, PageFail> {
    let mut platforms = app.lti.platforms(app, false).await?;
    let known = |platforms: &[Platform]| {
        platforms
            .iter()
            .any(|p| p.issuer == issuer && client_id.is_none_or(|id| id == p.client_id))
    };
    if !known(&platforms) {
        // Perhaps registered since they were read.
        platforms = app.lti.platforms(app, true).await?;
    }
    let matching: Vec<&Platform> = platforms
        .iter()
        .filter(|p| p.issuer == issuer && client_id.is_none_or(|id| id == p.client_id))
        .collect();
    let platform = match matching.as_slice() {
        [one] => (*one).clone(),
        [] => {
            return Err(refused_with(
                StatusCode::BAD_REQUEST,
                "the platform that started it is not registered here (nimlab lti add-platform)",
                Some(format!("its issuer is {}", escape::quoted(issuer, 200))),
            ));
        }
        _ => {
            return Err(refused_with(
                StatusCode::BAD_REQUEST,
                "several clients of its platform are registered and the initiation names none (client_id)",
                Some(format!("its issuer is {}", escape::quoted(issuer, 200))),
            ));
        }
    };
    if let Some(deployment) = deployment
        && !platform.deployments.iter().any(|d| d == deployment)
    {
        return Err(refused_with(
            StatusCode::BAD_REQUEST,
            "its deployment is not registered for this platform",
            Some(format!(
                "its deployment is {}",
                escape::quoted(deployment, 200)
            )),
        ));
    }
    Ok(platform)
}

#[derive(Deserialize)]
pub struct LaunchForm {
    id_token: Option<String>,
    state: Option<String>,
    error: Option<String>,
    error_description: Option<String>,
}

/// `POST /lti/launch`: checks the platform's id_token, signs its user in and lands on the
/// exercise the link names.
pub async fn launch(
    State(app): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<LaunchForm>,
) -> Handled {
    let state = form.state.clone().unwrap_or_default();
    let (platform, mut launch) = verified(&app, &headers, form).await?;
    staff_roles_here(&platform, &mut launch)?;
    crate::http::lti::deep_link::check_return_url(&launch)?;
    let (for_platform, for_account) = (platform.clone(), launch.clone());
    let user = app
        .db(move |c| crate::lti::store::account_for(c, &for_platform, &for_account))
        .await?
        .map_err(|refusal| refused(StatusCode::FORBIDDEN, refusal.why()))?;
    let target =
        match crate::http::lti::deep_link::route_launch(&app, &platform, &launch, &user).await? {
            Some(choose) => choose,
            None => {
                let exercise = landing_exercise(&app, &launch, &own_origin(&app, &headers));
                if let (Some(exercise), Some(line_item)) = (&exercise, &launch.line_item) {
                    scores_go_to(&app, &platform, &launch, user.id, exercise, line_item).await?;
                }
                exercise.map_or("/".to_string(), |name| format!("/exercises/{name}"))
            }
        };
    let session = start_session(&app, &user).await?;
    let mut response = Redirect::to(&target).into_response();
    let headers = response.headers_mut();
    headers.append(header::SET_COOKIE, app.session_cookie(&session));
    headers.append(
        header::SET_COOKIE,
        HeaderValue::from_str(&format!(
            "{}=; Path=/lti/launch; HttpOnly; Secure; SameSite=None; Partitioned; Max-Age=0",
            crate::lti::launch_cookie::cookie_name(&state)
        ))
        .expect("hex is header-safe"),
    );
    Ok(response)
}

/// Keeps a launch's staff role only where its course context is registered for the
/// platform: elsewhere it is a learner's launch (the account keeps the role it has), and a
/// Deep Linking request by staff is refused, naming the context to register.
fn staff_roles_here(
    platform: &Platform,
    launch: &mut crate::lti::token::Launch,
) -> std::result::Result<(), PageFail> {
    if launch.role == crate::lti::token::CourseRole::Learner
        || crate::lti::store::in_registered_context(platform, launch)
    {
        return Ok(());
    }
    let context = launch.context_id.as_deref().unwrap_or("");
    log(format!(
        "LTI: a launch as {:?} from the course context {context:?}, not registered for {:?}: no staff role (nimlab lti add-platform --context)",
        launch.role, platform.issuer
    ));
    if launch.deep_link.is_some() {
        return Err(refused(
            StatusCode::FORBIDDEN,
            format!(
                "this course (context {context:?}) is not registered here for staff roles: the site's owner adds it with nimlab lti add-platform --context"
            ),
        ));
    }
    launch.role = crate::lti::token::CourseRole::Learner;
    Ok(())
}

/// The launch a form posts, checked whole: begun by this browser (its state's signed cookie)
/// not long ago, its id_token valid for the platform that began it, with the launch's nonce
/// seen for the first time (recorded only now, once the id_token is known to be good).
async fn verified(
    app: &AppState,
    headers: &HeaderMap,
    form: LaunchForm,
) -> std::result::Result<(Platform, crate::lti::token::Launch), PageFail> {
    if let Some(error) = &form.error {
        return Err(platform_error(error, form.error_description.as_deref()));
    }
    let (Some(id_token), Some(state)) = (form.id_token, form.state) else {
        return Err(bad("the launch carries no id_token or state"));
    };
    let Some(value) = cookie(headers, &crate::lti::launch_cookie::cookie_name(&state)) else {
        return Err(refused(
            StatusCode::FORBIDDEN,
            "this browser did not start the launch (its state cookie is missing): open nimlab in a new window, not inside the course page, and allow its cookies",
        ));
    };
    let Some(begun) = app.lti.launches.check(&state, &value, now_ms()) else {
        return Err(refused(
            StatusCode::FORBIDDEN,
            "the launch's state cookie is not the one this server gave for it, or it has expired: start the launch again from the course",
        ));
    };
    let (nonce, platform_id) = (begun.nonce, begun.platform_id);
    let platform = app
        .lti
        .platform(app, platform_id)
        .await?
        .ok_or_else(|| bad("the platform is no longer registered"))?;
    let kid = crate::lti::token::rs256_kid(&id_token).map_err(bad)?;
    let key = app.lti.key(&platform, &kid).await.map_err(bad)?;
    let expected = crate::lti::token::Expected {
        issuer: &platform.issuer,
        client_id: &platform.client_id,
        deployments: &platform.deployments,
    };
    let launch = crate::lti::token::check(&id_token, &key, &expected, (now_ms() / 1000) as u64)
        .map_err(bad)?;
    if !crate::auth::same_secret(&launch.nonce, &nonce) {
        return Err(bad("the id_token's nonce is not the launch's"));
    }
    let seen = launch.nonce.clone();
    if !app
        .db(move |c| crate::lti::store::first_use_of_nonce(c, &seen))
        .await?
    {
        return Err(bad(
            "the launch was used already (its id_token's nonce was seen before): start it again from the course",
        ));
    }
    Ok((platform, launch))
}

/// Remembers the line item a launch names for the student's exercise, and queues the score
/// the student has already.
async fn scores_go_to(
    app: &AppState,
    platform: &Platform,
    launch: &crate::lti::token::Launch,
    user_id: i64,
    exercise: &str,
    line_item: &str,
) -> std::result::Result<(), PageFail> {
    if crate::lti::outgoing::allowed(line_item).is_err() {
        log(format!(
            "LTI: the line item {} is not https; no scores will be sent to it",
            escape::quoted(line_item, 300)
        ));
        return Ok(());
    }
    let (exercise, line_item) = (exercise.to_string(), line_item.to_string());
    let (subject, platform_id) = (launch.subject.clone(), platform.id);
    let (lab, from) = (app.lab.clone(), app.grades_from);
    app.db(move |c| {
        crate::lti::store::remember_line_item(
            c,
            user_id,
            &exercise,
            platform_id,
            &line_item,
            &subject,
        )?;
        crate::http::lti::outbox::reconcile(c, &lab, from, Some(user_id))
    })
    .await?;
    app.lti.wake.notify_one();
    Ok(())
}

/// The exercise a launch lands on: the link's custom parameter `exercise`, else a target
/// link `/exercises/NAME` on this site, if the lab has it.
fn landing_exercise(app: &App, launch: &crate::lti::token::Launch, origin: &str) -> Option<String> {
    let from_target = launch.target_link_uri.as_deref().and_then(|target| {
        let url = reqwest::Url::parse(target).ok()?;
        let own = reqwest::Url::parse(origin).ok()?;
        if url.host_str() != own.host_str() {
            return None;
        }
        url.path()
            .strip_prefix("/exercises/")
            .map(|name| name.trim_end_matches('/').to_string())
    });
    launch
        .custom_exercise
        .clone()
        .or(from_target)
        .filter(|name| app.lab.exercise(name).is_ok())
}

/// `GET /lti/jwks`: the tool's public key.
pub async fn jwks(State(app): State<AppState>) -> Response {
    let mut response = axum::Json(app.lti.key.jwks()).into_response();
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    response
}

/// `GET /class/lti`: the platforms registered and the scores waiting, failed or sent.
pub async fn class_page(
    State(app): State<AppState>,
    session: Session,
) -> std::result::Result<Response, PageFail> {
    session.require_instructor()?;
    let (platforms, outbox, counts) = app
        .db(|c| {
            Ok((
                crate::lti::store::platforms(c)?,
                crate::lti::store::outbox(c, 200)?,
                crate::lti::store::outbox_counts(c)?,
            ))
        })
        .await?;
    Ok(crate::http::lti::page::lti(&session, &platforms, &outbox, counts).into_response())
}

#[derive(Deserialize)]
pub struct ResendForm {
    csrf: Option<String>,
    /// One score's id, or every failed score when absent.
    id: Option<i64>,
}

/// `POST /class/lti/resend`: sends failed scores again.
pub async fn resend(
    State(app): State<AppState>,
    session: Session,
    Form(form): Form<ResendForm>,
) -> std::result::Result<Response, PageFail> {
    session.require_instructor()?;
    session.check_csrf(form.csrf.as_deref())?;
    let id = form.id;
    app.db(move |c| crate::lti::store::resend(c, id)).await?;
    app.lti.wake.notify_one();
    Ok(Redirect::to("/class/lti").into_response())
}
