//! LTI Deep Linking 2.0: an instructor adding nimlab to a course from the LMS picks the
//! exercises there instead of typing links and custom parameters. The platform sends a
//! Deep Linking request (a launch, checked like any other); nimlab shows the lab's
//! exercises; the instructor's choice goes back to the platform as resource links (each
//! with its custom parameter `exercise` and a line item of the exercise's points), in a
//! JWT signed by the tool's key and posted by the browser to the platform's return URL.

use super::{Handled, own_origin, refused};
use crate::http::fail::{Fail, PageFail};
use crate::http::guards::{FormTarget, Session};
use crate::http::state::AppState;
use crate::lti::outgoing;
use crate::lti::store::{self, DeepLink, Platform};
use crate::lti::token::{CLAIM, DEEP_LINKING, DeepLinkRequest, Launch};
use crate::store::accounts::User;
use crate::store::db::now_ms;
use crate::views::{self, Viewer};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use maud::{PreEscaped, html};
use serde_json::{Value, json};

/// The Deep Linking answer is valid this long (the browser posts it at once).
const ANSWER_LIFETIME_SECONDS: u64 = 600;

/// Keeps a staff member's Deep Linking request and sends them to choose exercises; the
/// caller has started their session.
pub async fn begin(
    app: &AppState,
    platform: &Platform,
    launch: &Launch,
    request: &DeepLinkRequest,
    user: &User,
) -> Result<String, PageFail> {
    if launch.role == crate::lti::token::CourseRole::Learner || !user.is_staff() {
        return Err(refused(
            StatusCode::FORBIDDEN,
            "only the course's instructors and teaching assistants choose exercises for the course",
        ));
    }
    // The return URL was checked before the launch touched the account (`check_return_url`).
    let link = DeepLink {
        id: crate::auth::random_token(),
        platform_id: platform.id,
        deployment_id: launch.deployment_id.clone(),
        return_url: request.return_url.clone(),
        data: request.data.clone(),
        accept_multiple: request.accept_multiple,
    };
    let (user_id, stored) = (user.id, link.clone());
    app.db(move |c| store::begin_deep_link(c, user_id, &stored))
        .await?;
    Ok(format!("/lti/deep-link/{}", link.id))
}

/// Refuses a Deep Linking request whose return URL nimlab would not post to. Checked before
/// the launch signs anyone in, so a refused request changes no account.
pub fn check_return_url(launch: &Launch) -> Result<(), PageFail> {
    let Some(request) = &launch.deep_link else {
        return Ok(());
    };
    outgoing::allowed(&request.return_url)
        .and_then(|_| {
            outgoing::header_safe_origin(&request.return_url)
                .ok_or_else(|| "its host has characters no origin has".to_string())
        })
        .map(|_| ())
        .map_err(|why| {
            refused(
                StatusCode::BAD_REQUEST,
                format!("the Deep Linking return URL is refused: {why}"),
            )
        })
}

/// The request `id` if it is the session's own and still open.
async fn request_of(
    app: &AppState,
    session: &Session,
    id: String,
    take: bool,
) -> Result<DeepLink, PageFail> {
    session.require_staff()?;
    let user_id = session.user.id;
    app.db(move |c| store::deep_link(c, &id, user_id, take))
        .await?
        .ok_or_else(|| {
            PageFail(Fail::new(
                StatusCode::NOT_FOUND,
                "This choice of exercises has expired or was sent already: start it again from the course's site.",
            ))
        })
}

/// `GET /lti/deep-link/{id}`: the lab's exercises, to pick the ones the course links to.
pub async fn choose(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Handled {
    let request = request_of(&app, &session, id, false).await?;
    let viewer = Viewer {
        user: &session.user,
        csrf: &session.csrf,
    };
    let kind = if request.accept_multiple {
        "checkbox"
    } else {
        "radio"
    };
    let page = views::page(
        "Add exercises to the course",
        Some(&viewer),
        html! {},
        html! {
            h1 { "Add exercises to the course" }
            p { "Each exercise you choose becomes a link in the course, with a grade column of its points; students who follow it land on the exercise, and their scores go back to the course's gradebook." }
            form method="post" action={ "/lti/deep-link/" (request.id) } {
                input type="hidden" name="csrf" value=(session.csrf);
                @for name in app.lab.names() {
                    @if let Ok(exercise) = app.lab.exercise(name) {
                        p { label {
                            input type=(kind) name="exercise" value=(name);
                            " " (exercise.config.title) " " code { (name) }
                            " (" (exercise.config.points) " points)"
                        } }
                    }
                }
                button type="submit" { "Add to the course" }
            }
        },
    );
    Ok(page.into_response())
}

/// `POST /lti/deep-link/{id}`: the chosen exercises as resource links, signed, in a form
/// the browser posts to the platform.
pub async fn answer(
    State(app): State<AppState>,
    session: Session,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Handled {
    session.require_staff()?;
    let fields: Vec<(String, String)> = url::form_urlencoded::parse(&body).into_owned().collect();
    let csrf = fields
        .iter()
        .find(|(k, _)| k == "csrf")
        .map(|(_, v)| v.as_str());
    session.check_csrf(csrf)?;
    let mut chosen: Vec<&str> = Vec::new();
    for (key, name) in &fields {
        if key == "exercise" && !chosen.contains(&name.as_str()) {
            chosen.push(name);
        }
    }
    for name in &chosen {
        if app.lab.exercise(name).is_err() {
            return Err(PageFail(Fail::new(
                StatusCode::BAD_REQUEST,
                "The form names an exercise this lab does not have.",
            )));
        }
    }
    if chosen.is_empty() {
        return Err(PageFail(Fail::new(
            StatusCode::BAD_REQUEST,
            "Choose at least one exercise.",
        )));
    }
    let request = request_of(&app, &session, id.clone(), false).await?;
    if !request.accept_multiple && chosen.len() > 1 {
        return Err(PageFail(Fail::new(
            StatusCode::BAD_REQUEST,
            "The course's site takes one exercise at a time here: choose one.",
        )));
    }
    let platform_id = request.platform_id;
    let platform = app
        .db(move |c| store::platform(c, platform_id))
        .await?
        .ok_or_else(|| {
            PageFail(Fail::new(
                StatusCode::GONE,
                "The platform is no longer registered.",
            ))
        })?;
    let origin = own_origin(&app, &headers);
    let items: Vec<Value> = chosen
        .iter()
        .filter_map(|name| app.lab.exercise(name).ok())
        .map(|exercise| {
            content_item(
                &origin,
                &exercise.name,
                &exercise.config.title,
                exercise.config.points,
            )
        })
        .collect();
    let claims = answer_claims(&platform, &request, items);
    let jwt = app.lti.key.sign(&claims).map_err(Fail::from)?;
    // Sent once: taken only now that the answer is made.
    request_of(&app, &session, id, true).await?;
    let target = outgoing::header_safe_origin(&request.return_url)
        .ok_or_else(|| Fail::internal("a stored return URL has no plain origin"))?;
    Ok(sending_page(
        &session,
        &request.return_url,
        &jwt,
        chosen.len(),
        target,
    ))
}

/// One resource link: the exercise's page, its custom parameter, a line item of its points.
fn content_item(origin: &str, name: &str, title: &str, points: u32) -> Value {
    json!({
        "type": "ltiResourceLink",
        "title": title,
        "url": format!("{origin}/exercises/{name}"),
        "custom": { "exercise": name },
        "lineItem": {
            "scoreMaximum": points,
            "label": title,
            "resourceId": name,
            "tag": "nimlab",
        },
    })
}

/// The Deep Linking response: from this tool (its client id) to the platform.
fn answer_claims(platform: &Platform, request: &DeepLink, items: Vec<Value>) -> Value {
    let now = (now_ms() / 1000) as u64;
    let mut claims = json!({
        "iss": platform.client_id,
        "aud": platform.issuer,
        "iat": now,
        "exp": now + ANSWER_LIFETIME_SECONDS,
        "nonce": crate::auth::random_token(),
        format!("{CLAIM}message_type"): "LtiDeepLinkingResponse",
        format!("{CLAIM}version"): "1.3.0",
        format!("{CLAIM}deployment_id"): request.deployment_id,
        format!("{DEEP_LINKING}content_items"): items,
        format!("{DEEP_LINKING}msg"): "Exercises added from nimlab",
    });
    if let Some(data) = &request.data {
        claims[format!("{DEEP_LINKING}data")] = data.clone();
    }
    claims
}

/// The page that posts the answer to the platform: at once where scripts run, else with
/// its button. Its `form-action` lets the form reach the platform's origin.
fn sending_page(
    session: &Session,
    return_url: &str,
    jwt: &str,
    count: usize,
    target_origin: String,
) -> axum::response::Response {
    let viewer = Viewer {
        user: &session.user,
        csrf: &session.csrf,
    };
    let page = views::page(
        "Back to the course",
        Some(&viewer),
        html! {},
        html! {
            h1 { "Back to the course" }
            p { (count) " exercise(s) chosen. Your course's site adds them when this form reaches it." }
            form id="deep-link-answer" method="post" action=(return_url) {
                input type="hidden" name="JWT" value=(jwt);
                button type="submit" { "Return to the course" }
            }
            script { (PreEscaped(crate::views::assets::SUBMIT_SCRIPT)) }
        },
    );
    let mut response = page.into_response();
    response.extensions_mut().insert(FormTarget(target_origin));
    response
}

/// Where a staff member's launch goes when it is a Deep Linking request (None for a
/// resource link launch).
pub async fn route_launch(
    app: &AppState,
    platform: &Platform,
    launch: &Launch,
    user: &User,
) -> Result<Option<String>, PageFail> {
    match &launch.deep_link {
        Some(request) => begin(app, platform, launch, request, user).await.map(Some),
        None => Ok(None),
    }
}
