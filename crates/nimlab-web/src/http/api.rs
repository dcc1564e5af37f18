//! The JSON API for scripts, tests and editor plug-ins, with the pages' sessions. Each
//! handler parses the request, takes the shared steps (logging in, an upload, the guards'
//! checks), and answers JSON.

use crate::grades::best_by_exercise;
use crate::http::fail::{ApiFail, Fail};
use crate::http::guards::{Session, visible_submission};
use crate::http::listing::{ListQuery, MAX_LIMIT, PAGE_SIZE};
use crate::http::login::{self, Peer};
use crate::http::state::AppState;
use crate::http::upload::{accept, enqueue, read_upload};
use crate::store::calendar;
use crate::store::submissions;
use crate::store::submissions::{Submission, Summary};
use crate::views::NOT_JUDGED;
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Multipart, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use nimlab_core::lab::Lab;
use nimlab_core::report::CheckReport;
use serde::Deserialize;
use serde_json::{Value, json};

type ApiResult = Result<Response, ApiFail>;

#[derive(Deserialize)]
pub struct Credentials {
    username: String,
    password: String,
}

/// `POST /api/login {"username", "password"}`: a session cookie, or 401.
pub async fn login(
    State(app): State<AppState>,
    Peer(address): Peer,
    headers: HeaderMap,
    body: Result<Json<Credentials>, JsonRejection>,
) -> ApiResult {
    let Json(credentials) = body.map_err(|e| {
        Fail::bad_request(format!(
            "send JSON {{\"username\": ..., \"password\": ...}}: {}",
            e.body_text()
        ))
    })?;
    let request = login::LoginRequest {
        username: credentials.username,
        password: credentials.password,
        device_cookie: login::cookie(&headers, login::DEVICE_COOKIE),
        address,
    };
    let login::LoggedIn {
        user,
        session,
        device_cookie,
    } = login::log_in(&app, request).await?;
    let mut response = Json(json!({
        "username": user.username,
        "name": user.name,
        "role": user.role.as_str(),
    }))
    .into_response();
    let headers = response.headers_mut();
    headers.append(header::SET_COOKIE, app.session_cookie(&session));
    headers.append(header::SET_COOKIE, app.device_cookie(&device_cookie));
    Ok(response)
}

pub async fn logout(
    State(app): State<AppState>,
    _session: Session,
    headers: HeaderMap,
) -> ApiResult {
    login::log_out(&app, &headers).await?;
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, app.cleared_session_cookie());
    Ok(response)
}

/// `GET /api/exercises`: the lab's exercises in order, with the user's best result.
pub async fn exercises(State(app): State<AppState>, session: Session) -> ApiResult {
    let user_id = session.user.id;
    let judged = app
        .db(move |c| submissions::judged(c, Some(user_id)))
        .await?;
    let deadlines = app.db(calendar::deadlines).await?;
    let best = best_by_exercise(&judged);
    let standing = crate::grades::standing(&judged, app.grades_from, &deadlines);
    let list: Vec<Value> = app
        .lab
        .exercises
        .iter()
        .map(|e| {
            let best = best.get(e.name.as_str());
            // What the gradebook counts: the page's Points column.
            let grade = standing.get(&(user_id, e.name.as_str())).map(|stands| {
                let worth = crate::grades::Points::of(e, stands.summary, stands.timeliness);
                json!({
                    "id": stands.summary.id,
                    "points": worth.counted,
                    "max_points": worth.max,
                    "on_time_points": worth.on_time,
                    "late_penalty_percent": worth.taken_percent(),
                    "counts": stands.timeliness.accepted,
                })
            });
            // The user's own deadline: their extension applied.
            let deadline = deadlines.personal(user_id, &e.name);
            json!({
                "name": e.name,
                "title": e.config.title,
                "order": e.config.order,
                "points": e.config.points,
                // Further study: optional, and outside the total unless the lab says so.
                "optional": e.config.further_study,
                "in_total": e.config.in_total(),
                "interpreters": e.config.interpreters,
                "best": best.map(|s| json!({
                    "id": s.id,
                    "verdict": s.verdict,
                    "score": s.score,
                    "max_score": s.max_score,
                })),
                "grade": grade,
                "deadline": deadline.map(|d| nimlab_core::deadline::rfc3339(d.due_ms)),
                "late_until": deadline.and_then(|d| d.late_until_ms).map(nimlab_core::deadline::rfc3339),
                "late_penalty": deadline.map(|d| d.penalty_percent_per_day),
            })
        })
        .collect();
    Ok(Json(list).into_response())
}

/// `POST /api/submissions` (multipart: `exercise`, `file`): 202 `{"id"}` once the upload is
/// committed to the queue.
pub async fn submit(
    State(app): State<AppState>,
    session: Session,
    multipart: Multipart,
) -> ApiResult {
    let upload = read_upload(multipart, app.max_upload_bytes).await?;
    let accepted = accept(&app.lab, upload, None)?;
    let exercise = accepted.exercise.clone();
    let id = enqueue(&app, &session.user, accepted).await?;
    let mut response = (
        StatusCode::ACCEPTED,
        Json(json!({ "id": id, "exercise": exercise, "status": "queued" })),
    )
        .into_response();
    response.headers_mut().insert(
        header::LOCATION,
        format!("/api/submissions/{id}")
            .parse()
            .expect("a valid header"),
    );
    Ok(response)
}

/// A submission's line, with whether it was sent after its student's due time (`late`) and,
/// once judged, the points it counts for in the gradebook (`points`, of `max_points`, the
/// deadline rule applied), with what it would count for on time and the percent the deadline
/// took (`on_time_points`, `late_penalty_percent`).
fn summary_json(lab: &Lab, summary: &Summary, deadlines: &calendar::Deadlines) -> Value {
    let timeliness = deadlines.timeliness(summary.user_id, &summary.exercise, summary.submitted_at);
    let late = timeliness.late;
    let worth = lab
        .exercise(&summary.exercise)
        .ok()
        .filter(|_| summary.status == submissions::Status::Done && summary.max_score.is_some())
        .map(|e| crate::grades::Points::of(e, summary, timeliness));
    let mut value = json!({
        "id": summary.id,
        "student": summary.username,
        "exercise": summary.exercise,
        "filename": summary.filename,
        "status": summary.status,
        "submitted_at": summary.submitted_at,
        "started_at": summary.started_at,
        "finished_at": summary.finished_at,
        "verdict": summary.verdict,
        "score": summary.score,
        "max_score": summary.max_score,
        "late": late,
    });
    if let Some(worth) = worth {
        value["points"] = json!(worth.counted);
        value["max_points"] = json!(worth.max);
        value["on_time_points"] = json!(worth.on_time);
        value["late_penalty_percent"] = json!(worth.taken_percent());
        value["counts"] = json!(worth.timeliness.accepted);
    }
    value
}

/// A submission as `viewer_is_staff` may see it: the report whole for staff, and
/// its student's view for a student (secret cases by their verdict alone, nimlab's own
/// failures in a sentence, no interpreter paths); nimlab's own error, too, only as a sentence.
fn submission_json(
    lab: &Lab,
    submission: &Submission,
    waiting_before: i64,
    viewer_is_staff: bool,
    deadlines: &calendar::Deadlines,
) -> Result<Value, Fail> {
    let mut value = summary_json(lab, &submission.summary, deadlines);
    let unreadable = |e: serde_json::Error| {
        Fail::internal(format!(
            "submission {}: unreadable report: {e}",
            submission.summary.id
        ))
    };
    let report: Value = match &submission.report {
        Some(text) if viewer_is_staff => serde_json::from_str(text).map_err(unreadable)?,
        Some(text) => {
            let report: CheckReport = serde_json::from_str(text).map_err(unreadable)?;
            serde_json::to_value(report.for_student()).map_err(unreadable)?
        }
        None => Value::Null,
    };
    value["report"] = report;
    value["error"] = match &submission.summary.error {
        Some(error) if viewer_is_staff => json!(error),
        Some(_) => json!(NOT_JUDGED),
        None => Value::Null,
    };
    if submission.summary.status == submissions::Status::Queued {
        value["waiting_before"] = json!(waiting_before);
    }
    Ok(value)
}

/// `GET /api/submissions/{id}`: the submission with its report once judged; another
/// student's is 404.
pub async fn submission(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> ApiResult {
    let submission = visible_submission(&app, &session, id).await?;
    let waiting_before = if submission.summary.status == submissions::Status::Queued {
        app.db(move |c| submissions::waiting_before(c, id)).await?
    } else {
        0
    };
    let staff = session.user.is_staff();
    let deadlines = app.db(calendar::deadlines).await?;
    Ok(Json(submission_json(
        &app.lab,
        &submission,
        waiting_before,
        staff,
        &deadlines,
    )?)
    .into_response())
}

/// `GET /api/submissions?exercise=NAME`: the student's own, newest first; staff see
/// everyone's (and may filter by `student`). The filters of `/submissions` apply
/// (`verdict`, `from`, `to`); `page` and `limit` (at most 500) ask for one page. The total
/// count is in `X-Total-Count`.
pub async fn submissions(
    State(app): State<AppState>,
    session: Session,
    Query(query): Query<ListQuery>,
) -> ApiResult {
    let paged = query.page.is_some() || query.limit.is_some();
    let size = paged.then(|| query.limit.unwrap_or(PAGE_SIZE).clamp(1, MAX_LIMIT));
    let filter = query.filter(&session.user, size)?;
    let counted = filter.clone();
    let total = app
        .db(move |c| submissions::count_submissions(c, &counted))
        .await?;
    let rows = app
        .db(move |c| submissions::submissions(c, &filter))
        .await?;
    let deadlines = app.db(calendar::deadlines).await?;
    let list: Vec<Value> = rows
        .iter()
        .map(|s| summary_json(&app.lab, s, &deadlines))
        .collect();
    let mut response = Json(list).into_response();
    response.headers_mut().insert("x-total-count", total.into());
    Ok(response)
}

#[derive(Deserialize)]
pub struct NewPassword {
    old: String,
    new: String,
}

/// `POST /api/password {"old", "new"}`: changes one's own password; 204, and the account's
/// other sessions end. A wrong `old` is 403 (and counts as a failed login), a `new` too short
/// 400.
pub async fn change_password(
    State(app): State<AppState>,
    Peer(address): Peer,
    session: Session,
    headers: HeaderMap,
    body: Result<Json<NewPassword>, JsonRejection>,
) -> ApiResult {
    let Json(body) = body.map_err(|e| {
        Fail::bad_request(format!(
            "send JSON {{\"old\": ..., \"new\": ...}}: {}",
            e.body_text()
        ))
    })?;
    let change = login::PasswordChange {
        old: body.old,
        new: body.new,
        device_cookie: login::cookie(&headers, login::DEVICE_COOKIE),
        address,
    };
    login::change_password(&app, &session.user, &session.token_hash, change).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
