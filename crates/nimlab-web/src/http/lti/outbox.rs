//! Scores sent back to the platforms (LTI Assignment and Grade Services). Whenever the
//! score the gradebook counts for a launched student's exercise changes (a judging, a
//! rejudge, a deadline or extension set from anywhere), a score is queued in the database
//! ([`reconcile`]); a task sends what is due ([`run`]), with a token from the platform's
//! token URL, and tries again with backoff when the platform is down. Each platform has
//! its own sender, so a slow or dead platform delays only its own scores. The instructor
//! sees each student's score, sent, waiting, being retried or failed with the platform's
//! answer, and can send a failed one again.

use crate::access_log::log;
use crate::grades::{self, GradesFrom};
use crate::http::state::AppState;
use crate::lti::outgoing::{self, without_url};
use crate::lti::store::{self, Outgoing, Platform};
use crate::lti::token::SCORE_SCOPE;
use crate::lti::tool::{self, Lti};
use crate::store::db::now_ms;
use crate::store::sql::{Conn, SqlResult};
use nimlab_core::deadline::rfc3339;
use nimlab_core::escape;
use nimlab_core::lab::Lab;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// How often the outbox looks for scores changed by another process (a deadline set on
/// the command line), besides being woken by a judging.
const RECONCILE_EVERY: Duration = Duration::from_secs(15);
/// A score not delivered within this is marked failed, for the instructor to resend.
const GIVE_UP_AFTER_MS: i64 = 24 * 3600 * 1000;
const MAX_BACKOFF_MS: i64 = 3600 * 1000;

/// Queues a score for every link (of one student, or all) whose counted score differs from
/// the one last queued; returns how many were queued.
pub fn reconcile(
    c: &mut Conn,
    lab: &Lab,
    grades_from: GradesFrom,
    user_id: Option<i64>,
) -> SqlResult<usize> {
    let links = store::links(c, user_id)?;
    let mut queued = 0;
    for link in &links {
        let Ok(exercise) = lab.exercise(&link.exercise) else {
            continue;
        };
        let Some(points) = grades::counted_points(c, exercise, link.user_id, grades_from)? else {
            continue;
        };
        let maximum = f64::from(exercise.config.points);
        if link.last_queued != Some(points) && store::queue_score(c, link, points, maximum)? {
            queued += 1;
        }
    }
    Ok(queued)
}

/// Scores sent to one platform at once: a platform slow to answer (or not answering until
/// the client's time limit) holds up to this many of its own scores, and none of another
/// platform's, which has its own sender.
const SENDS_PER_PLATFORM: usize = 4;

/// The outbox's task: reconciles when woken or every [`RECONCILE_EVERY`], and starts a
/// sender for each platform with scores due ([`serve_platform`]), one per platform at a
/// time. Runs until the server stops.
pub async fn run(app: AppState) {
    let busy: Arc<Mutex<HashSet<i64>>> = Arc::default();
    let idle = Arc::new(Notify::new());
    let mut last_reconcile: Option<Instant> = None;
    loop {
        if last_reconcile.is_none_or(|at| at.elapsed() >= RECONCILE_EVERY) {
            let (lab, from) = (app.lab.clone(), app.grades_from);
            let for_frames = Arc::clone(&app.lti);
            let refreshed = app.db(move |c| {
                tool::refresh_frames(&for_frames, c)?;
                reconcile(c, &lab, from, None)
            });
            if let Err(fail) = refreshed.await {
                log(format!("LTI scores: {}", fail.message));
            }
            last_reconcile = Some(Instant::now());
        }
        let waiting = app.db(store::next_due).await.unwrap_or_default();
        let now = now_ms();
        let mut next: Option<i64> = None;
        for (platform_id, at) in waiting {
            if busy.lock().expect("no panics").contains(&platform_id) {
                continue; // its sender takes what is due when it is
            }
            if at <= now {
                busy.lock().expect("no panics").insert(platform_id);
                let (app, busy, idle) = (Arc::clone(&app), Arc::clone(&busy), Arc::clone(&idle));
                tokio::spawn(async move {
                    serve_platform(&app, platform_id).await;
                    busy.lock().expect("no panics").remove(&platform_id);
                    idle.notify_one();
                });
            } else {
                next = Some(next.map_or(at, |n| n.min(at)));
            }
        }
        let wait = next.map_or(RECONCILE_EVERY, |at| {
            Duration::from_millis(
                (at - now_ms()).clamp(0, RECONCILE_EVERY.as_millis() as i64) as u64
            )
        });
        tokio::select! {
            _ = app.lti.wake.notified() => { last_reconcile = None; }
            _ = idle.notified() => {}
            _ = tokio::time::sleep(wait) => {}
        }
    }
}

/// Sends one platform's due scores, [`SENDS_PER_PLATFORM`] at a time, until none is due.
/// Each batch is taken from the outbox only when the last is done, so a score is never
/// held longer than its sends take (a token and a score, each bounded by the client's time
/// limit), well within the hold that keeps other web processes from sending it too.
async fn serve_platform(app: &AppState, platform_id: i64) {
    loop {
        let now = now_ms();
        let due = app
            .db(move |c| store::due(c, platform_id, now, SENDS_PER_PLATFORM))
            .await
            .unwrap_or_default();
        if due.is_empty() {
            return;
        }
        let mut sends = tokio::task::JoinSet::new();
        for item in due {
            let app = Arc::clone(app);
            sends.spawn(async move { deliver(&app, &item).await });
        }
        while sends.join_next().await.is_some() {}
    }
}

/// Sends one score and records how it went: sent, tried again later (with backoff), or
/// failed for good.
async fn deliver(app: &AppState, item: &Outgoing) {
    let result = send(app, item).await;
    let (id, created, attempts) = (item.id, item.created_at, item.attempts);
    let base = app.lti.retry_base_ms;
    let _ = app
        .db(move |c| match result {
            Ok(()) => store::mark_sent(c, id),
            Err(Failure { message, permanent }) => {
                let wait = (base << attempts.min(20)).min(MAX_BACKOFF_MS);
                let next = now_ms() + wait;
                let give_up = permanent || next - created > GIVE_UP_AFTER_MS;
                store::mark_retry(c, id, &message, (!give_up).then_some(next))
            }
        })
        .await;
}

/// Why a score was not delivered, and whether trying again could help.
struct Failure {
    message: String,
    permanent: bool,
}

impl Failure {
    fn retry(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            permanent: false,
        }
    }
}

/// The line item's scores URL: `/scores` appended to its path, before any query string
/// (Moodle's line items carry one).
pub fn scores_url(line_item: &str) -> Result<reqwest::Url, String> {
    let mut url = outgoing::allowed(line_item)?;
    let path = format!("{}/scores", url.path().trim_end_matches('/'));
    url.set_path(&path);
    Ok(url)
}

async fn send(app: &AppState, item: &Outgoing) -> Result<(), Failure> {
    let platform_id = item.platform_id;
    let platform = app
        .db(move |c| store::platform(c, platform_id))
        .await
        .map_err(|f| Failure::retry(f.message))?
        .ok_or_else(|| Failure {
            message: "the platform is no longer registered".into(),
            permanent: true,
        })?;
    let url = scores_url(&item.line_item).map_err(|message| Failure {
        message,
        permanent: true,
    })?;
    let body = serde_json::json!({
        "userId": item.subject,
        "scoreGiven": item.score,
        "scoreMaximum": item.max_score,
        "activityProgress": "Completed",
        "gradingProgress": "FullyGraded",
        "timestamp": rfc3339(item.created_at),
    });
    for fresh_token in [false, true] {
        let token = app
            .lti
            .token(&platform, fresh_token)
            .await
            .map_err(Failure::retry)?;
        let response = app
            .lti
            .client
            .post(url.clone())
            .header("content-type", "application/vnd.ims.lis.v1.score+json")
            .bearer_auth(&token)
            .body(body.to_string())
            .send()
            .await
            .map_err(|e| Failure::retry(format!("{url}: {}", without_url(&e))))?;
        let status = response.status();
        if status.is_success() {
            return Ok(());
        }
        let (_, answer) = outgoing::read(response).await.unwrap_or_default();
        let answer = escape::quoted(String::from_utf8_lossy(&answer).trim(), 300);
        if status == reqwest::StatusCode::UNAUTHORIZED && !fresh_token {
            continue; // the token expired early: one more try with a new one
        }
        let permanent = matches!(status.as_u16(), 400 | 403 | 404 | 405 | 410 | 422);
        return Err(Failure {
            message: format!("{url} answered {status}: {answer}"),
            permanent,
        });
    }
    Err(Failure::retry("the platform refused two fresh tokens"))
}

impl Lti {
    /// An access token for scores from the platform's token URL (client credentials with a
    /// JWT assertion signed by the tool's key), kept until shortly before it expires.
    pub async fn token(&self, platform: &Platform, fresh: bool) -> Result<String, String> {
        if !fresh
            && let Some((token, until)) = self.tokens.lock().expect("no panics").get(&platform.id)
            && Instant::now() < *until
        {
            return Ok(token.clone());
        }
        let url = outgoing::allowed(&platform.token_url)?;
        let now = now_ms() / 1000;
        let assertion = self
            .key
            .sign(&serde_json::json!({
                "iss": platform.client_id,
                "sub": platform.client_id,
                "aud": platform.token_url,
                "iat": now,
                "exp": now + 300,
                "jti": crate::auth::random_token(),
            }))
            .map_err(|e| e.to_string())?;
        let form = [
            ("grant_type", "client_credentials"),
            (
                "client_assertion_type",
                "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            ),
            ("client_assertion", assertion.as_str()),
            ("scope", SCORE_SCOPE),
        ];
        let response = self
            .client
            .post(url.clone())
            .form(&form)
            .send()
            .await
            .map_err(|e| format!("{url}: {}", without_url(&e)))?;
        let (status, body) = outgoing::read(response).await?;
        if !status.is_success() {
            let text = escape::quoted(String::from_utf8_lossy(&body).trim(), 300);
            return Err(format!("the token URL {url} answered {status}: {text}"));
        }
        let answer: serde_json::Value = serde_json::from_slice(&body)
            .map_err(|e| format!("the token URL {url} did not answer JSON ({e})"))?;
        let token = answer["access_token"]
            .as_str()
            .filter(|t| !t.is_empty())
            .ok_or_else(|| format!("the token URL {url} gave no access_token"))?
            .to_string();
        let lifetime = answer["expires_in"]
            .as_u64()
            .unwrap_or(3600)
            .clamp(60, 86_400);
        let until = Instant::now() + Duration::from_secs(lifetime - 30);
        self.tokens
            .lock()
            .expect("no panics")
            .insert(platform.id, (token.clone(), until));
        Ok(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_go_below_the_line_item_before_its_query() {
        assert_eq!(
            scores_url(
                "https://moodle.example.edu/mod/lti/services.php/2/lineitems/7/lineitem?type_id=1"
            )
            .unwrap()
            .as_str(),
            "https://moodle.example.edu/mod/lti/services.php/2/lineitems/7/lineitem/scores?type_id=1"
        );
        assert_eq!(
            scores_url("https://canvas.example.edu/api/lti/courses/1/line_items/5/")
                .unwrap()
                .as_str(),
            "https://canvas.example.edu/api/lti/courses/1/line_items/5/scores"
        );
        assert!(scores_url("http://lms.example.edu/items/1").is_err());
    }
}
