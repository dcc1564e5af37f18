//! The HTML pages: each handler parses the request, takes the shared steps (logging in, an
//! upload, the guards' checks) and the database, and renders a view. Nothing here judges.

use crate::auth;
use crate::grades::{self, GradesFrom};
use crate::http::fail::{ErrorShown, Fail, PageFail};
use crate::http::guards::{Session, visible_submission};
use crate::http::listing::{ListQuery, PAGE_SIZE};
use crate::http::login::{
    self, DEVICE_COOKIE, LOGIN_COOKIE, LoginRequest, PasswordChange, Peer, SESSION_COOKIE, cookie,
};
use crate::http::state::{App, AppState};
use crate::http::upload::{accept, enqueue, read_upload};
use crate::store::accounts;
use crate::store::calendar;
use crate::store::db;
use crate::store::judging;
use crate::store::judging::Rejudge;
use crate::store::processes;
use crate::store::site;
use crate::store::submissions;
use crate::store::submissions::Summary;
use crate::views::urls::{is_api, safe_next};
use crate::views::{self, Viewer};
use axum::body::Body;
use axum::extract::{Form, Multipart, Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use nimlab_core::report::CheckReport;
use serde::Deserialize;

type PageResult = Result<Response, PageFail>;

fn viewer(session: &Session) -> Viewer<'_> {
    Viewer {
        user: &session.user,
        csrf: &session.csrf,
    }
}

/// The start page: the class matrix for staff (a TA or an instructor), the exercises for a
/// student (and a visitor without a session is sent to log in).
pub async fn home(State(app): State<AppState>, headers: HeaderMap) -> PageResult {
    let Some(token) = cookie(&headers, SESSION_COOKIE).filter(|t| !t.is_empty()) else {
        return Ok(Redirect::to("/login").into_response());
    };
    let hash = auth::token_hash(&token);
    let found = app.db(move |c| accounts::session_user(c, &hash)).await?;
    let target = match found {
        Some((user, _)) if user.is_staff() => "/class",
        Some(_) => "/exercises",
        None => "/login",
    };
    Ok(Redirect::to(target).into_response())
}

/// Every error a browser gets is a page in the site's layout, and every error the API
/// answers is JSON. An error page is drawn again with the navigation of the user logged in
/// (a page not found, a page refused: the place that fails often has no session at hand), so
/// that a wrong link is not a dead end; a visitor's has a link to log in. An error nimlab did
/// not word itself (axum's: a method the route does not take, an address or form it cannot
/// read) is put in nimlab's words, as a page or as JSON. The response keeps its status and
/// headers (the security headers, `Allow`, `Retry-After`).
pub async fn error_navigation(
    State(app): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let token = cookie(request.headers(), SESSION_COOKIE).filter(|t| !t.is_empty());
    let api = is_api(request.uri().path());
    let response = next.run(request).await;
    let shown = match response.extensions().get::<ErrorShown>() {
        Some(shown) => shown.clone(),
        None if unworded(&response) => ErrorShown {
            status: response.status(),
            message: in_our_words(response.status()),
        },
        None => return response,
    };
    if api {
        let fail = Fail::new(shown.status, shown.message);
        return with_body(response, "application/json", fail.into_json().into_body());
    }
    let session = match token {
        Some(token) => {
            let hash = auth::token_hash(&token);
            app.db(move |c| accounts::session_user(c, &hash))
                .await
                .ok()
                .flatten()
        }
        None => None,
    };
    let viewer = session.as_ref().map(|(user, csrf)| Viewer { user, csrf });
    let page = views::error_page(shown.status, &shown.message, viewer.as_ref());
    with_body(response, "text/html; charset=utf-8", Body::from(page.0))
}

/// An error response whose body nimlab did not write: neither a page nor JSON (axum's plain
/// text, or nothing).
fn unworded(response: &Response) -> bool {
    let status = response.status();
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    (status.is_client_error() || status.is_server_error())
        && !content_type.starts_with("text/html")
        && !content_type.starts_with("application/json")
}

/// What an error of axum's means to the user, in nimlab's words: axum's own message can
/// quote the request, which is not shown back.
fn in_our_words(status: StatusCode) -> String {
    match status {
        StatusCode::NOT_FOUND => Fail::not_found().message,
        StatusCode::METHOD_NOT_ALLOWED => {
            "this address cannot be used this way (it does not take this method): use the site's links and buttons".into()
        }
        StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY => {
            "this request could not be read: a part of its address or one of its form's fields is missing or malformed".into()
        }
        StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            "this request's body is not of a kind this address takes (its Content-Type)".into()
        }
        StatusCode::PAYLOAD_TOO_LARGE => "this request is too large".into(),
        status => format!(
            "the request failed ({})",
            status.canonical_reason().unwrap_or("error")
        ),
    }
}

/// `response` with another body of `content_type`: its status and other headers kept.
fn with_body(response: Response, content_type: &'static str, body: Body) -> Response {
    let (mut parts, _) = response.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts
        .headers
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    Response::from_parts(parts, body)
}

#[derive(Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

/// The login form, with a token in a cookie and in the form (double-submitted). A token the
/// browser has already is kept, so login pages open in several tabs all work.
pub async fn login_form(
    State(app): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<NextQuery>,
) -> Response {
    let token = cookie(&headers, LOGIN_COOKIE)
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
        .unwrap_or_else(auth::random_token);
    let next = safe_next(query.next.as_deref());
    let mut response = views::login(None, &token, &next, "").into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, app.login_cookie(&token));
    response
}

#[derive(Deserialize)]
pub struct LoginForm {
    username: String,
    password: String,
    csrf: Option<String>,
    next: Option<String>,
}

pub async fn login(
    State(app): State<AppState>,
    Peer(address): Peer,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> PageResult {
    let expected = cookie(&headers, LOGIN_COOKIE).unwrap_or_default();
    let sent = form.csrf.unwrap_or_default();
    if expected.is_empty() || !auth::same_secret(&sent, &expected) {
        return Err(Fail::forbidden(
            "this form's security token is missing or out of date: reload the login page and try again",
        )
        .into());
    }
    let next = safe_next(form.next.as_deref());
    let request = LoginRequest {
        username: form.username.clone(),
        password: form.password,
        device_cookie: cookie(&headers, DEVICE_COOKIE),
        address,
    };
    match login::log_in(&app, request).await {
        Ok(logged_in) => {
            // Without a page asked for, `/`: the start page of the user's role.
            let mut response = Redirect::to(&next).into_response();
            let headers = response.headers_mut();
            headers.append(header::SET_COOKIE, app.session_cookie(&logged_in.session));
            headers.append(
                header::SET_COOKIE,
                app.device_cookie(&logged_in.device_cookie),
            );
            Ok(response)
        }
        Err(fail) if fail.status.is_client_error() => {
            let mut response = (
                fail.status,
                views::login(Some(&fail.message), &expected, &next, &form.username),
            )
                .into_response();
            if let Some(seconds) = fail.retry_after {
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, seconds.into());
            }
            Ok(response)
        }
        Err(fail) => Err(fail.into()),
    }
}

#[derive(Deserialize)]
pub struct CsrfForm {
    csrf: Option<String>,
}

pub async fn logout(
    State(app): State<AppState>,
    session: Session,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> PageResult {
    session.check_csrf(form.csrf.as_deref())?;
    login::log_out(&app, &headers).await?;
    let mut response = Redirect::to("/login").into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, app.cleared_session_cookie());
    Ok(response)
}

pub async fn exercises(State(app): State<AppState>, session: Session) -> PageResult {
    let user_id = session.user.id;
    let judged = app
        .db(move |c| submissions::judged(c, Some(user_id)))
        .await?;
    let all = app
        .db(move |c| {
            submissions::submissions(
                c,
                &submissions::Filter {
                    user_id: Some(user_id),
                    ..submissions::Filter::default()
                },
            )
        })
        .await?;
    let deadlines = app.db(calendar::deadlines).await?;
    let standing = grades::standing(&judged, app.grades_from, &deadlines);
    let rows: Vec<views::ExerciseRow> = app
        .lab
        .exercises
        .iter()
        .map(|exercise| views::ExerciseRow {
            exercise,
            standing: standing
                .get(&(user_id, exercise.name.as_str()))
                .map(|stands| {
                    (
                        stands.summary,
                        grades::Points::of(exercise, stands.summary, stands.timeliness),
                    )
                }),
            attempts: all.iter().filter(|s| s.exercise == exercise.name).count(),
            deadline: deadlines.personal(user_id, &exercise.name),
        })
        .collect();
    Ok(views::exercises(&viewer(&session), &rows, app.grades_from, db::now_ms()).into_response())
}

fn exercise_of<'a>(
    app: &'a AppState,
    name: &str,
) -> Result<&'a nimlab_core::lab::LabExercise, PageFail> {
    app.lab
        .exercise(name)
        .map_err(|e| PageFail(Fail::new(StatusCode::NOT_FOUND, e.to_string())))
}

pub async fn exercise(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
) -> PageResult {
    let exercise = exercise_of(&app, &name)?;
    let (user_id, wanted) = (session.user.id, exercise.name.clone());
    let mine = app
        .db(move |c| {
            submissions::submissions(
                c,
                &submissions::Filter {
                    user_id: Some(user_id),
                    exercise: Some(wanted),
                    limit: Some(50),
                    ..submissions::Filter::default()
                },
            )
        })
        .await?;
    let deadlines = app.db(calendar::deadlines).await?;
    let late = late_ones(&deadlines, &mine);
    let view = views::ExerciseView {
        exercise,
        mine: &mine,
        max_upload: app.max_upload_bytes,
        deadline: deadlines.personal(user_id, &exercise.name),
        now: db::now_ms(),
        late: &late,
    };
    Ok(views::exercise(&viewer(&session), &view).into_response())
}

pub async fn starter(
    State(app): State<AppState>,
    _session: Session,
    Path(name): Path<String>,
) -> PageResult {
    let exercise = exercise_of(&app, &name)?;
    Ok(python_file(
        &format!("{}.py", exercise.name),
        exercise.stub.clone().into_bytes(),
    ))
}

/// A Python file to download; the name is ours or made safe for the header.
fn python_file(name: &str, bytes: Vec<u8>) -> Response {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    (
        [
            (
                header::CONTENT_TYPE,
                "text/x-python; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{safe}\""),
            ),
        ],
        bytes,
    )
        .into_response()
}

pub async fn submit(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
    multipart: Multipart,
) -> PageResult {
    let exercise = exercise_of(&app, &name)?;
    // What went wrong with the form is shown on the site's page, with a way back to it.
    let on_page = |fail: Fail| {
        let page = views::upload_error(&viewer(&session), exercise, fail.status, &fail.message);
        fail.with_body(page)
    };
    let upload = match read_upload(multipart, app.max_upload_bytes).await {
        Ok(upload) => upload,
        Err(fail) => return Ok(on_page(fail)),
    };
    session.check_csrf(upload.csrf.as_deref())?;
    let accepted = match accept(&app.lab, upload, Some(&exercise.name)) {
        Ok(accepted) => accepted,
        Err(fail) => return Ok(on_page(fail)),
    };
    let id = match enqueue(&app, &session.user, accepted).await {
        Ok(id) => id,
        Err(fail) if fail.status.is_client_error() => return Ok(on_page(fail)),
        Err(fail) => return Err(fail.into()),
    };
    Ok(Redirect::to(&format!("/submissions/{id}")).into_response())
}

/// The ids of those of `rows` sent after their student's due time.
fn late_ones(deadlines: &calendar::Deadlines, rows: &[Summary]) -> std::collections::HashSet<i64> {
    rows.iter()
        .filter(|s| {
            deadlines
                .timeliness(s.user_id, &s.exercise, s.submitted_at)
                .late
        })
        .map(|s| s.id)
        .collect()
}

/// `/submissions`: a page of the list, newest first, with the filters of the form above it.
pub async fn history(
    State(app): State<AppState>,
    session: Session,
    Query(query): Query<ListQuery>,
) -> PageResult {
    let filter = query.filter(&session.user, Some(PAGE_SIZE))?;
    let counted = filter.clone();
    let total = app
        .db(move |c| submissions::count_submissions(c, &counted))
        .await?;
    let rows = app
        .db(move |c| submissions::submissions(c, &filter))
        .await?;
    let deadlines = app.db(calendar::deadlines).await?;
    let late = late_ones(&deadlines, &rows);
    let page = query.page();
    let first = (page - 1) * PAGE_SIZE;
    let link = |page: usize| format!("/submissions?{}", query.with_page(page));
    let text = |value: &Option<String>| value.clone().unwrap_or_default();
    let view = views::HistoryView {
        rows: &rows,
        total,
        first,
        previous: (page > 1).then(|| link(page - 1)),
        next: (first + rows.len() < total).then(|| link(page + 1)),
        filtered: query.filtered(),
        late: &late,
        fields: [
            text(&query.student),
            text(&query.exercise),
            text(&query.verdict),
            text(&query.from),
            text(&query.to),
        ],
        exercises: app.lab.names(),
    };
    Ok(views::history(&viewer(&session), &view).into_response())
}

pub async fn submission(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> PageResult {
    let submission = visible_submission(&app, &session, id).await?;
    let mut report: Option<CheckReport> = match &submission.report {
        Some(text) => Some(
            serde_json::from_str(text)
                .map_err(|e| Fail::internal(format!("submission {id}: unreadable report: {e}")))?,
        ),
        None => None,
    };
    if let Some(report) = &mut report
        && !session.user.is_staff()
    {
        *report = report.for_student();
    }
    let waiting_before = app.db(move |c| submissions::waiting_before(c, id)).await?;
    let deadlines = app.db(calendar::deadlines).await?;
    let summary = &submission.summary;
    let timeliness = deadlines.timeliness(summary.user_id, &summary.exercise, summary.submitted_at);
    let exercise = app.lab.exercise(&submission.summary.exercise).ok();
    let title = exercise.map_or_else(
        || submission.summary.exercise.clone(),
        |e| e.config.title.clone(),
    );
    let worth = exercise
        .filter(|_| summary.status == submissions::Status::Done && summary.max_score.is_some())
        .map(|e| grades::Points::of(e, summary, timeliness));
    let view = views::SubmissionView {
        summary: &submission.summary,
        title: &title,
        source: &submission.source,
        report: report.as_ref(),
        waiting_before,
        late: timeliness.late,
        worth,
    };
    Ok(views::submission(&viewer(&session), &view).into_response())
}

pub async fn source(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> PageResult {
    let submission = visible_submission(&app, &session, id).await?;
    Ok(python_file(&submission.summary.filename, submission.source))
}

pub async fn class(State(app): State<AppState>, session: Session) -> PageResult {
    session.require_staff()?;
    let users = app.db(accounts::users).await?;
    let judged = app.db(|c| submissions::judged(c, None)).await?;
    let lms = app.db(crate::lti::store::score_states).await?;
    let deadlines = app.db(calendar::deadlines).await?;
    let standing = grades::standing(&judged, app.grades_from, &deadlines);
    let exercises: Vec<&nimlab_core::lab::LabExercise> = app.lab.exercises.iter().collect();
    let rows: Vec<views::MatrixRow> = users
        .iter()
        .filter(|u| !u.is_staff())
        .map(|student| {
            let cells: Vec<Option<views::MatrixCell>> = exercises
                .iter()
                .map(|e| {
                    let stands = standing.get(&(student.id, e.name.as_str()))?;
                    Some(views::MatrixCell {
                        summary: stands.summary,
                        worth: grades::Points::of(e, stands.summary, stands.timeliness),
                    })
                })
                .collect();
            // The gradebook's total: the exercises the lab counts (further study left out
            // unless it says otherwise). Folded from 0.0: a float sum of nothing is -0.0.
            let points = exercises
                .iter()
                .zip(&cells)
                .filter(|(exercise, _)| exercise.config.in_total())
                .filter_map(|(_, cell)| cell.as_ref())
                .fold(0.0, |total, cell| total + cell.worth.counted);
            views::MatrixRow {
                student,
                best: cells,
                points,
                lms: lms.get(&student.id).map(String::as_str),
            }
        })
        .collect();
    let max_points = exercises
        .iter()
        .filter(|e| e.config.in_total())
        .map(|e| e.config.points)
        .sum();
    Ok(views::class(
        &viewer(&session),
        &exercises,
        &rows,
        max_points,
        app.grades_from,
    )
    .into_response())
}

/// `GET /class/mistakes`: each exercise's failing students grouped by cause, made from the
/// submissions the gradebook counts by the summary `grade` writes as mistakes.json. A page of
/// its own: it reads every counted report, which the class matrix does not.
pub async fn mistakes(State(app): State<AppState>, session: Session) -> PageResult {
    session.require_staff()?;
    let from = app.grades_from;
    let book =
        App::blocking(move || grades::gradebook(&app.lab, &app.db, from, &app.isolation)).await?;
    let mistakes = nimlab_core::grade::mistakes::Mistakes::of(&book);
    Ok(views::mistakes(&viewer(&session), &book, &mistakes, from).into_response())
}

#[derive(Deserialize, Default)]
pub struct SimilarityQuery {
    exercise: Option<String>,
}

/// `GET /class/similarity?exercise=NAME`: staff only. Each student's latest upload of the
/// exercise compared with the others' as `nimlab similarity` compares a class folder, made
/// when asked, so it follows the uploads as they arrive.
pub async fn similarity(
    State(app): State<AppState>,
    session: Session,
    Query(query): Query<SimilarityQuery>,
) -> PageResult {
    session.require_staff()?;
    let names: Vec<String> = app.lab.names().into_iter().map(str::to_string).collect();
    let Some(exercise) = query.exercise.filter(|e| names.contains(e)) else {
        return Ok(views::similarity(&viewer(&session), &names, None).into_response());
    };
    let wanted = exercise.clone();
    let uploads = app
        .db(move |c| submissions::latest_sources(c, &wanted))
        .await?;
    let lab = std::sync::Arc::clone(&app.lab);
    let compared = App::blocking(move || {
        let lab_exercise = lab.exercise(&exercise)?;
        let code = nimlab_core::similarity::class::lab_code(lab_exercise);
        let code: Vec<&str> = code.iter().map(String::as_str).collect();
        let submissions: Vec<nimlab_core::similarity::Submission> = uploads
            .into_iter()
            .map(
                |(student, source, report)| nimlab_core::similarity::Submission {
                    student,
                    source: String::from_utf8_lossy(&source).into_owned(),
                    outputs: report
                        .and_then(|r| serde_json::from_str::<CheckReport>(&r).ok())
                        .map(|r| nimlab_core::grade::mistakes::wrong_outputs(&r))
                        .unwrap_or_default(),
                },
            )
            .collect();
        let (pairs, _) = nimlab_core::similarity::exercise_pairs(&exercise, &code, &submissions);
        Ok(views::SimilarityView {
            exercise,
            students: submissions.len(),
            pairs,
            sources: submissions
                .into_iter()
                .map(|s| (s.student, s.source))
                .collect(),
        })
    })
    .await?;
    Ok(views::similarity(&viewer(&session), &names, Some(&compared)).into_response())
}

#[derive(Deserialize, Default)]
pub struct QueueQuery {
    rejudged: Option<usize>,
}

pub async fn queue(
    State(app): State<AppState>,
    session: Session,
    Query(query): Query<QueueQuery>,
) -> PageResult {
    session.require_staff()?;
    let rows = app.db(submissions::queue).await?;
    let counts = app.db(site::counts).await?;
    let processes = app.db(processes::processes).await?;
    let view = views::QueueView {
        processes: &processes,
        rows: &rows,
        counts: &counts,
        workers: app.workers,
        isolation: &app.isolation,
        notice: query
            .rejudged
            .map(|n| format!("{n} submission(s) queued to be judged again.")),
        exercises: app.lab.names(),
    };
    Ok(views::queue(&viewer(&session), &view).into_response())
}

#[derive(Deserialize)]
pub struct RejudgeForm {
    csrf: Option<String>,
    scope: String,
    id: Option<i64>,
    exercise: Option<String>,
}

pub async fn rejudge(
    State(app): State<AppState>,
    session: Session,
    Form(form): Form<RejudgeForm>,
) -> PageResult {
    session.check_csrf(form.csrf.as_deref())?;
    session.require_staff()?;
    let what = match (form.scope.as_str(), form.id, form.exercise) {
        ("submission", Some(id), _) => Rejudge::One(id),
        ("exercise", _, Some(name)) => {
            exercise_of(&app, &name)?;
            Rejudge::Exercise(name)
        }
        ("all", _, _) => Rejudge::All,
        _ => {
            return Err(Fail::bad_request(
                "say what to judge again: scope=submission with id, scope=exercise with exercise, or scope=all",
            )
            .into());
        }
    };
    let count = app.db(move |c| judging::rejudge(c, &what)).await?;
    app.signal.notify();
    Ok(Redirect::to(&format!("/queue?rejudged={count}")).into_response())
}

pub async fn downloads(State(app): State<AppState>, session: Session) -> PageResult {
    session.require_staff()?;
    Ok(
        views::downloads(&viewer(&session), grades::FILES, app.grades_from.as_str())
            .into_response(),
    )
}

#[derive(Deserialize, Default)]
pub struct DownloadQuery {
    from: Option<String>,
}

pub async fn download(
    State(app): State<AppState>,
    session: Session,
    Path(file): Path<String>,
    Query(query): Query<DownloadQuery>,
) -> PageResult {
    session.require_staff()?;
    let from = match query.from.as_deref() {
        None => app.grades_from,
        Some(text) => GradesFrom::parse(text)
            .ok_or_else(|| Fail::bad_request(format!("from={text}: choose `best` or `latest`")))?,
    };
    let content_type = grades::content_type(&file).ok_or_else(Fail::not_found)?;
    let name = file.clone();
    let bytes = App::blocking(move || {
        let book = grades::gradebook(&app.lab, &app.db, from, &app.isolation)?;
        grades::render(&book, &name)
    })
    .await?;
    Ok((
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        bytes,
    )
        .into_response())
}

#[derive(Deserialize)]
pub struct ResetForm {
    csrf: Option<String>,
    username: String,
}

/// `POST /class/password`: an instructor (not a TA) gives an account a new password, shown
/// once; all its sessions end and its login throttles are lifted.
pub async fn reset_password(
    State(app): State<AppState>,
    session: Session,
    Form(form): Form<ResetForm>,
) -> PageResult {
    session.check_csrf(form.csrf.as_deref())?;
    session.require_instructor()?;
    let username = form.username;
    let lookup = username.clone();
    let Some((user, _)) = app.db(move |c| accounts::find_user(c, &lookup)).await? else {
        return Err(Fail::new(StatusCode::NOT_FOUND, format!("no account `{username}`")).into());
    };
    let password = auth::random_password();
    let typed = password.clone();
    let hash = app
        .hashers
        .run(auth::Lane::Known, &auth::Share::default(), move || {
            auth::hash_password(&typed)
        })
        .await
        .map_err(|_| Fail::internal("cannot hash the new password"))?
        .map_err(Fail::from)?;
    app.db(move |c| accounts::set_password(c, user.id, &hash))
        .await?;
    Ok(views::password_reset(&viewer(&session), &username, &password).into_response())
}

#[derive(Deserialize, Default)]
pub struct AccountQuery {
    changed: Option<u8>,
}

/// `GET /account`: the form to change one's own password (any role).
pub async fn account(session: Session, Query(query): Query<AccountQuery>) -> PageResult {
    let notice = query
        .changed
        .is_some()
        .then_some("Your password is changed. Your other sessions have ended; this one goes on.");
    Ok(views::account(&viewer(&session), notice, None).into_response())
}

#[derive(Deserialize)]
pub struct PasswordForm {
    csrf: Option<String>,
    old: String,
    new: String,
    again: String,
}

/// `POST /account`: changes one's own password (the current one, the new one twice); the
/// account's other sessions end. A refusal is shown on the form, with its status.
pub async fn change_password(
    State(app): State<AppState>,
    Peer(address): Peer,
    session: Session,
    headers: HeaderMap,
    Form(form): Form<PasswordForm>,
) -> PageResult {
    session.check_csrf(form.csrf.as_deref())?;
    let on_page = |fail: Fail| {
        let page = views::account(&viewer(&session), None, Some(&fail.message));
        fail.with_body(page)
    };
    if form.new != form.again {
        return Ok(on_page(Fail::bad_request(
            "the two new passwords differ: nothing was changed",
        )));
    }
    let change = PasswordChange {
        old: form.old,
        new: form.new,
        device_cookie: cookie(&headers, DEVICE_COOKIE),
        address,
    };
    match login::change_password(&app, &session.user, &session.token_hash, change).await {
        Ok(()) => Ok(Redirect::to("/account?changed=1").into_response()),
        Err(fail) if fail.status.is_client_error() => Ok(on_page(fail)),
        Err(fail) => Err(fail.into()),
    }
}

#[derive(Deserialize, Default)]
pub struct DeadlinesQuery {
    done: Option<String>,
}

/// `GET /deadlines`: each exercise's deadline and the extensions, with the forms that change
/// them. Instructors only.
pub async fn deadlines(
    State(app): State<AppState>,
    session: Session,
    Query(query): Query<DeadlinesQuery>,
) -> PageResult {
    session.require_instructor()?;
    let deadlines = app.db(calendar::deadlines).await?;
    let extensions = app.db(calendar::extension_list).await?;
    let users = app.db(accounts::users).await?;
    let notice = match query.done.as_deref() {
        Some("set") => Some("The deadline is set."),
        Some("clear") => Some("The deadline is removed."),
        Some("extend") => Some("The extension is given."),
        Some("unextend") => Some("The extension is removed."),
        _ => None,
    };
    let view = views::DeadlinesView {
        exercises: app
            .lab
            .exercises
            .iter()
            .map(|e| (e, deadlines.policy(&e.name)))
            .collect(),
        extensions: &extensions,
        students: users
            .iter()
            .filter(|u| !u.is_instructor())
            .map(|u| u.username.as_str())
            .collect(),
        notice,
    };
    Ok(views::deadlines(&viewer(&session), &view).into_response())
}

#[derive(Deserialize)]
pub struct DeadlineForm {
    csrf: Option<String>,
    action: String,
    exercise: Option<String>,
    student: Option<String>,
    due: Option<String>,
    late_until: Option<String>,
    late_penalty: Option<String>,
    until: Option<String>,
}

/// `POST /deadlines`: sets or clears a deadline (`action=set|clear`, `exercise` a name or
/// `all`, `due`, `late_until`, `late_penalty`), or gives or removes an extension
/// (`action=extend|unextend`, `student`, `exercise`, `until`). Instructors only; a form
/// that does not make sense is answered on the site's page, and nothing is changed.
pub async fn set_deadline(
    State(app): State<AppState>,
    session: Session,
    Form(form): Form<DeadlineForm>,
) -> PageResult {
    session.check_csrf(form.csrf.as_deref())?;
    session.require_instructor()?;
    let action = form.action.clone();
    // A deadline or extension can change the scores sent to an LMS.
    let scores = std::sync::Arc::clone(&app.lti.wake);
    let changed = tokio::task::spawn_blocking(move || change_deadline(&app, &form))
        .await
        .unwrap_or_else(|e| Err(Fail::internal(format!("a task failed: {e}"))));
    match changed {
        Ok(()) => {
            scores.notify_one();
            Ok(Redirect::to(&format!("/deadlines?done={action}")).into_response())
        }
        Err(fail) if fail.status.is_client_error() => {
            let page = views::deadline_error(&viewer(&session), fail.status, &fail.message);
            Ok(fail.with_body(page))
        }
        Err(fail) => Err(fail.into()),
    }
}

/// A form's field as typed, unless left empty.
fn field(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// What a deadlines form asks for, done: a mistake in it is the instructor's (400), nimlab's
/// own failure is not.
fn change_deadline(app: &App, form: &DeadlineForm) -> Result<(), Fail> {
    use crate::deadlines as change;
    let mistake = |e: nimlab_core::error::Error| match e {
        nimlab_core::error::Error::Usage(message) => Fail::bad_request(message),
        other => Fail::from(other),
    };
    let exercise =
        field(&form.exercise).ok_or_else(|| Fail::bad_request("say which exercise (or all)"))?;
    let student = || field(&form.student).ok_or_else(|| Fail::bad_request("say which student"));
    match form.action.as_str() {
        "set" => {
            let due = field(&form.due).ok_or_else(|| Fail::bad_request("say when it is due"))?;
            let penalty = match field(&form.late_penalty) {
                Some(text) => Some(text.parse::<f64>().map_err(|_| {
                    Fail::bad_request(format!("the late penalty `{text}` is not a number"))
                })?),
                None => None,
            };
            let policy = change::policy(due, field(&form.late_until), penalty).map_err(mistake)?;
            change::set(&app.db, &app.lab, exercise, &policy).map_err(mistake)?;
        }
        "clear" => {
            change::clear(&app.db, &app.lab, exercise, None).map_err(mistake)?;
        }
        "extend" => {
            let until = field(&form.until)
                .ok_or_else(|| Fail::bad_request("say until when the student has"))?;
            change::extend(&app.db, &app.lab, student()?, exercise, until).map_err(mistake)?;
        }
        "unextend" => {
            change::clear(&app.db, &app.lab, exercise, Some(student()?)).map_err(mistake)?;
        }
        other => {
            return Err(Fail::bad_request(format!(
                "action={other}: choose set, clear, extend or unextend"
            )));
        }
    }
    Ok(())
}
