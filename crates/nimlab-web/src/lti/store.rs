//! The LTI tables: platforms and their deployments, the accounts launches made or linked,
//! nonces seen, the line items a student's exercise reports to, and the outbox of scores.
//! Launches under way are kept by their browsers (see [`crate::lti::launch_cookie`]); the
//! `lti_launches` table older versions wrote is left unused.

use crate::lti::token::{CourseRole, Launch};
use crate::store::accounts;
use crate::store::accounts::{Role, User};
use crate::store::db::now_ms;
use crate::store::sql::{Conn, Dialect, Optional, Row, SqlError, SqlResult, params};

/// Nonces are remembered well past the oldest id_token accepted (and its launch cookie).
const NONCE_MEMORY_MS: i64 = 3 * 3600 * 1000;

#[derive(Debug, Clone)]
pub struct Platform {
    pub id: i64,
    pub issuer: String,
    pub client_id: String,
    pub auth_url: String,
    pub jwks_url: String,
    pub token_url: String,
    pub deployments: Vec<String>,
    /// Origins besides the issuer's whose pages may frame the site.
    pub frame_origins: Vec<String>,
    /// Whether a launch with no identity here yet may be linked to a roster account (by the
    /// roster's `lms_id` of this issuer, or by email): off unless the instructor turns it on.
    pub link_accounts: bool,
    /// The course contexts whose instructor and TA roles count here; from anywhere else a
    /// launch gives no staff role.
    pub contexts: Vec<String>,
}

impl Platform {
    /// The origins that may frame the site for this platform: the issuer's, and those
    /// registered with `--frame-origin`.
    pub fn frame_ancestors(&self) -> Vec<String> {
        std::iter::once(self.issuer.as_str())
            .chain(self.frame_origins.iter().map(String::as_str))
            .filter_map(crate::lti::outgoing::header_safe_origin)
            .collect()
    }
}

pub struct NewPlatform {
    pub issuer: String,
    pub client_id: String,
    pub deployment_id: String,
    pub auth_url: String,
    pub jwks_url: String,
    pub token_url: String,
    /// Replaces the frame origins when not empty.
    pub frame_origins: Vec<String>,
    /// Turns linking to roster accounts on or off; `None` keeps it (off for a new platform).
    pub link_accounts: Option<bool>,
    /// Course contexts to register (their staff roles count), and to forget.
    pub contexts: Vec<String>,
    pub forget_contexts: Vec<String>,
}

/// Registers a platform, or updates its URLs and adds the deployment; returns whether the
/// platform is new.
pub fn add_platform(c: &mut Conn, new: &NewPlatform) -> SqlResult<bool> {
    let mut tx = c.transaction()?;
    let existing: Option<i64> = tx
        .query_row(
            "SELECT id FROM lti_platforms WHERE issuer = ?1 AND client_id = ?2",
            params![new.issuer, new.client_id],
            |r| r.get("id"),
        )
        .optional()?;
    let id = match existing {
        Some(id) => {
            tx.execute(
                "UPDATE lti_platforms SET auth_url = ?2, jwks_url = ?3, token_url = ?4 WHERE id = ?1",
                params![id, new.auth_url, new.jwks_url, new.token_url],
            )?;
            if !new.frame_origins.is_empty() {
                tx.execute(
                    "UPDATE lti_platforms SET frame_origins = ?2 WHERE id = ?1",
                    params![id, new.frame_origins.join(" ")],
                )?;
            }
            id
        }
        None => {
            tx.query_row(
                "INSERT INTO lti_platforms (issuer, client_id, auth_url, jwks_url, token_url, created_at, frame_origins)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
                params![
                    new.issuer,
                    new.client_id,
                    new.auth_url,
                    new.jwks_url,
                    new.token_url,
                    now_ms(),
                    new.frame_origins.join(" ")
                ],
                |r| r.get("id"),
            )?
        }
    };
    tx.execute(
        "INSERT INTO lti_deployments (platform_id, deployment_id) VALUES (?1, ?2)
         ON CONFLICT DO NOTHING",
        params![id, new.deployment_id],
    )?;
    if let Some(link) = new.link_accounts {
        tx.execute(
            "UPDATE lti_platforms SET link_accounts = ?2 WHERE id = ?1",
            params![id, link],
        )?;
    }
    for context in &new.contexts {
        tx.execute(
            "INSERT INTO lti_contexts (platform_id, context_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
            params![id, context],
        )?;
    }
    for context in &new.forget_contexts {
        tx.execute(
            "DELETE FROM lti_contexts WHERE platform_id = ?1 AND context_id = ?2",
            params![id, context],
        )?;
    }
    tx.commit()?;
    Ok(existing.is_none())
}

/// A platform as its row says, without its deployments (see [`with_deployments`]).
fn platform_row(row: &Row) -> SqlResult<Platform> {
    Ok(Platform {
        id: row.get("id")?,
        issuer: row.get("issuer")?,
        client_id: row.get("client_id")?,
        auth_url: row.get("auth_url")?,
        jwks_url: row.get("jwks_url")?,
        token_url: row.get("token_url")?,
        deployments: Vec::new(),
        frame_origins: row
            .get::<_, String>("frame_origins")?
            .split_whitespace()
            .map(str::to_string)
            .collect(),
        link_accounts: row.get("link_accounts")?,
        contexts: Vec::new(),
    })
}

/// A platform with its deployments and contexts.
fn with_deployments(c: &mut Conn, mut platform: Platform) -> SqlResult<Platform> {
    platform.deployments = c.query(
        "SELECT deployment_id FROM lti_deployments WHERE platform_id = ?1 ORDER BY deployment_id",
        [platform.id],
        |r| r.get("deployment_id"),
    )?;
    platform.contexts = c.query(
        "SELECT context_id FROM lti_contexts WHERE platform_id = ?1 ORDER BY context_id",
        [platform.id],
        |r| r.get("context_id"),
    )?;
    Ok(platform)
}

const PLATFORM_COLUMNS: &str =
    "id, issuer, client_id, auth_url, jwks_url, token_url, frame_origins, link_accounts";

pub fn platforms(c: &mut Conn) -> SqlResult<Vec<Platform>> {
    let platforms = c.query(
        &format!("SELECT {PLATFORM_COLUMNS} FROM lti_platforms ORDER BY issuer, client_id"),
        [],
        platform_row,
    )?;
    platforms
        .into_iter()
        .map(|platform| with_deployments(c, platform))
        .collect()
}

pub fn platform(c: &mut Conn, id: i64) -> SqlResult<Option<Platform>> {
    let found = c
        .query_row(
            &format!("SELECT {PLATFORM_COLUMNS} FROM lti_platforms WHERE id = ?1"),
            [id],
            platform_row,
        )
        .optional()?;
    found
        .map(|platform| with_deployments(c, platform))
        .transpose()
}

/// Remembers a nonce; false when it was seen before (a replayed id_token).
pub fn first_use_of_nonce(c: &mut Conn, nonce: &str) -> SqlResult<bool> {
    let now = now_ms();
    c.execute(
        "DELETE FROM lti_nonces WHERE seen_at < ?1",
        [now - NONCE_MEMORY_MS],
    )?;
    let added = c.execute(
        "INSERT INTO lti_nonces (nonce, seen_at) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
        params![nonce, now],
    )?;
    Ok(added == 1)
}

pub fn role_of(role: CourseRole) -> Role {
    match role {
        CourseRole::Learner => Role::Student,
        CourseRole::TeachingAssistant => Role::Ta,
        CourseRole::Instructor => Role::Instructor,
    }
}

/// Why a launch signs no one in. The launch changed nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Disabled,
    Removed,
    /// A Deep Linking request from someone who is not staff here.
    NotStaff,
}

impl Refusal {
    pub fn why(self) -> &'static str {
        match self {
            Refusal::Disabled => "your account here is disabled: ask your instructor",
            Refusal::Removed => "your account here was removed: ask your instructor",
            Refusal::NotStaff => {
                "only the course's instructors and teaching assistants choose exercises for the course"
            }
        }
    }
}

/// Whether a launch's course role counts here: only from a context registered for its
/// platform, never one learned from a launch.
pub fn in_registered_context(platform: &Platform, launch: &Launch) -> bool {
    launch
        .context_id
        .as_ref()
        .is_some_and(|id| platform.contexts.contains(id))
}

/// The account a launch signs in. Its identity is (platform, subject): the account linked to
/// it before; else, where the platform allows linking, the one student account without an
/// LMS identity that the roster names by this issuer's `lms_id`, or else by email; else a
/// new account. Linking never changes the account's role; an account launches made takes
/// the launch's role when the launch comes from a registered context (else it keeps its
/// role, a new one a student's). A removed or disabled account is refused, and so is a Deep
/// Linking request from someone not staff here; then nothing is written.
pub fn account_for(
    c: &mut Conn,
    platform: &Platform,
    launch: &Launch,
) -> SqlResult<Result<User, Refusal>> {
    // Under the writer lock: simultaneous first launches make one account per identity, and
    // never fail on a lock upgrade (SQLite) or a duplicate key (PostgreSQL).
    let mut tx = c.immediate()?;
    let granted = in_registered_context(platform, launch).then(|| role_of(launch.role));
    let linked: Option<i64> = tx
        .query_row(
            "SELECT user_id FROM lti_identities WHERE platform_id = ?1 AND subject = ?2",
            params![platform.id, launch.subject],
            |r| r.get("user_id"),
        )
        .optional()?;
    let user_id = match linked {
        Some(id) => id,
        None => {
            let roster = if platform.link_accounts {
                roster_account(&mut tx, platform, launch)?
            } else {
                None
            };
            let id = match roster {
                Some(id) => id,
                None => new_account(&mut tx, platform, launch, granted.unwrap_or(Role::Student))?,
            };
            tx.execute(
                "INSERT INTO lti_identities (platform_id, subject, user_id) VALUES (?1, ?2, ?3)",
                params![platform.id, launch.subject, id],
            )?;
            id
        }
    };
    let (removed, disabled, lti_role): (bool, bool, bool) = tx.query_row(
        "SELECT removed_at IS NOT NULL AS removed, disabled_at IS NOT NULL AS disabled,
             lti_role = 1 AS role_from_launches
         FROM users WHERE id = ?1",
        [user_id],
        |r| {
            Ok((
                r.get("removed")?,
                r.get("disabled")?,
                r.get("role_from_launches")?,
            ))
        },
    )?;
    // Dropped uncommitted: a refused launch leaves no identity, role or name behind.
    if removed {
        return Ok(Err(Refusal::Removed));
    }
    if disabled {
        return Ok(Err(Refusal::Disabled));
    }
    tx.execute(
        "UPDATE users SET name = COALESCE(NULLIF(?2, ''), name), email = COALESCE(NULLIF(?3, ''), email)
         WHERE id = ?1",
        params![user_id, launch.name, launch.email],
    )?;
    if let Some(role) = granted.filter(|_| lti_role) {
        tx.execute(
            "UPDATE users SET role = ?2 WHERE id = ?1",
            params![user_id, role.as_str()],
        )?;
    }
    let user = accounts::user_by_id(&mut tx, user_id)?.ok_or(SqlError::NoRows)?;
    if launch.deep_link.is_some() && (launch.role == CourseRole::Learner || !user.is_staff()) {
        return Ok(Err(Refusal::NotStaff));
    }
    tx.commit()?;
    Ok(Ok(user))
}

/// The roster account a launch with no identity yet may be linked to: a student's, not
/// removed, with no LMS identity, named by the roster's `lms_id` of the platform's issuer,
/// or else by the launch's email (unless the roster gave it another id of this issuer).
/// Only one: where several match, none does.
fn roster_account(c: &mut Conn, platform: &Platform, launch: &Launch) -> SqlResult<Option<i64>> {
    const LINKABLE: &str = "FROM users u WHERE u.removed_at IS NULL AND u.role = 'student'
        AND NOT EXISTS (SELECT 1 FROM lti_identities i WHERE i.user_id = u.id)";
    // A row names its registration by client id; a row without one, only an issuer with a
    // single registration here, so a subject never reaches another registration's roster.
    let by_id: Vec<i64> = c.query(
        &format!(
            "SELECT u.id {LINKABLE} AND u.lms_issuer = ?1 AND u.lms_id = ?2
               AND (u.lms_client_id = ?3 OR (u.lms_client_id = ''
                    AND (SELECT COUNT(*) FROM lti_platforms p WHERE p.issuer = ?1) = 1))
             LIMIT 2"
        ),
        params![platform.issuer, launch.subject, platform.client_id],
        |r| r.get("id"),
    )?;
    if let [id] = by_id[..] {
        return Ok(Some(id));
    }
    if !by_id.is_empty() || launch.email.trim().is_empty() {
        return Ok(None);
    }
    let by_email: Vec<i64> = c.query(
        &format!(
            "SELECT u.id {LINKABLE} AND u.email <> '' AND lower(u.email) = lower(?1)
               AND NOT (u.lms_issuer = ?2 AND u.lms_id <> '') LIMIT 2"
        ),
        params![launch.email.trim(), platform.issuer],
        |r| r.get("id"),
    )?;
    Ok(match by_email[..] {
        [id] => Some(id),
        _ => None,
    })
}

/// A new account for a launch: no password (it signs in through its LMS), its role from
/// launches.
fn new_account(c: &mut Conn, platform: &Platform, launch: &Launch, role: Role) -> SqlResult<i64> {
    let username = free_username(c, platform, launch)?;
    c.query_row(
        "INSERT INTO users (username, name, role, password_hash, created_at, lti_role)
         VALUES (?1, ?2, ?3, '', ?4, 1) RETURNING id",
        params![username, launch.name, role.as_str(), now_ms()],
        |r| r.get("id"),
    )
}

/// A username for an account made by a launch: its email if free, else one made from the
/// platform and subject (stable, so the same person keeps it).
fn free_username(c: &mut Conn, platform: &Platform, launch: &Launch) -> SqlResult<String> {
    let mut taken = |name: &str| -> SqlResult<bool> {
        c.query_row(
            "SELECT COUNT(*) AS taken FROM users WHERE username = ?1",
            [name],
            |r| r.get::<_, i64>("taken"),
        )
        .map(|n| n > 0)
    };
    let email = launch.email.trim();
    // A username names folders in exports: only one the website would accept.
    if crate::users::check_username(email).is_ok() && !taken(email)? {
        return Ok(email.to_string());
    }
    let digest = crate::auth::token_hash(&format!(
        "{}\n{}\n{}",
        platform.issuer, platform.client_id, launch.subject
    ));
    let mut name = format!("lti-{}", &digest[..10]);
    let mut n = 1;
    while taken(&name)? {
        n += 1;
        name = format!("lti-{}-{n}", &digest[..10]);
    }
    Ok(name)
}

/// Where the scores of a student's exercise go (from a launch's AGS claim).
pub fn remember_line_item(
    c: &mut Conn,
    user_id: i64,
    exercise: &str,
    platform_id: i64,
    line_item: &str,
    subject: &str,
) -> SqlResult<()> {
    c.execute(
        "INSERT INTO lti_line_items (user_id, exercise, platform_id, line_item, subject)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (user_id, exercise, line_item) DO UPDATE SET platform_id = ?3, subject = ?5",
        params![user_id, exercise, platform_id, line_item, subject],
    )?;
    Ok(())
}

/// A line item a student's exercise reports to, with the score last queued for it.
pub struct Link {
    pub user_id: i64,
    pub exercise: String,
    pub platform_id: i64,
    pub line_item: String,
    pub subject: String,
    pub last_queued: Option<f64>,
}

/// Every line item link (of one student, or all), with the score last queued for each.
pub fn links(c: &mut Conn, user_id: Option<i64>) -> SqlResult<Vec<Link>> {
    c.query(
        "SELECT l.user_id, l.exercise, l.platform_id, l.line_item, l.subject,
             (SELECT s.score FROM lti_scores s WHERE s.user_id = l.user_id AND s.exercise = l.exercise
                AND s.line_item = l.line_item ORDER BY s.id DESC LIMIT 1) AS last_queued
         FROM lti_line_items l WHERE (CAST(?1 AS BIGINT) IS NULL OR l.user_id = ?1)",
        [user_id],
        |r| {
        Ok(Link {
            user_id: r.get("user_id")?,
            exercise: r.get("exercise")?,
            platform_id: r.get("platform_id")?,
            line_item: r.get("line_item")?,
            subject: r.get("subject")?,
            last_queued: r.get("last_queued")?,
        })
        },
    )
}

/// Queues a score for a link; an older score still waiting for it is dropped (only the
/// newest counts).
pub fn queue_score(c: &mut Conn, link: &Link, score: f64, max_score: f64) -> SqlResult<bool> {
    // Under the writer lock, and only if the newest score of the link differs: two web
    // processes reconciling at once queue it once.
    let mut tx = c.immediate()?;
    let newest: Option<f64> = tx
        .query_row(
            "SELECT score FROM lti_scores WHERE user_id = ?1 AND exercise = ?2 AND line_item = ?3
             ORDER BY id DESC LIMIT 1",
            params![link.user_id, link.exercise, link.line_item],
            |r| r.get("score"),
        )
        .optional()?;
    if newest == Some(score) {
        return Ok(false);
    }
    let now = now_ms();
    tx.execute(
        "UPDATE lti_scores SET status = 'superseded' WHERE user_id = ?1 AND exercise = ?2
             AND line_item = ?3 AND status IN ('pending', 'failed')",
        params![link.user_id, link.exercise, link.line_item],
    )?;
    tx.execute(
        "INSERT INTO lti_scores (user_id, exercise, platform_id, line_item, subject, score, max_score,
             created_at, status, next_try_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'pending', ?8)",
        params![
            link.user_id,
            link.exercise,
            link.platform_id,
            link.line_item,
            link.subject,
            score,
            max_score,
            now
        ],
    )?;
    tx.commit()?;
    Ok(true)
}

/// A score in the outbox.
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub id: i64,
    pub username: String,
    pub exercise: String,
    pub platform_id: i64,
    pub line_item: String,
    pub subject: String,
    pub score: f64,
    pub max_score: f64,
    pub created_at: i64,
    pub status: String,
    pub attempts: i64,
    pub next_try_at: i64,
    pub last_error: Option<String>,
    pub sent_at: Option<i64>,
}

const OUTGOING_COLUMNS: &str =
    "s.id, u.username, s.exercise, s.platform_id, s.line_item, s.subject,
    s.score, s.max_score, s.created_at, s.status, s.attempts, s.next_try_at, s.last_error, s.sent_at";

fn outgoing_row(r: &Row) -> SqlResult<Outgoing> {
    Ok(Outgoing {
        id: r.get("id")?,
        username: r.get("username")?,
        exercise: r.get("exercise")?,
        platform_id: r.get("platform_id")?,
        line_item: r.get("line_item")?,
        subject: r.get("subject")?,
        score: r.get("score")?,
        max_score: r.get("max_score")?,
        created_at: r.get("created_at")?,
        status: r.get("status")?,
        attempts: r.get("attempts")?,
        next_try_at: r.get("next_try_at")?,
        last_error: r.get("last_error")?,
        sent_at: r.get("sent_at")?,
    })
}

/// How long a score being sent is held by the process sending it: another web process
/// sends it only if this one has neither sent it nor set its next try by then (it died).
const SENDING_MS: i64 = 60_000;

/// Takes up to `limit` scores for one platform due at `now` to send: each is held for
/// [`SENDING_MS`] (its next try moved), so web processes sharing the outbox do not send the
/// same score twice.
pub fn due(c: &mut Conn, platform_id: i64, now: i64, limit: usize) -> SqlResult<Vec<Outgoing>> {
    let mut tx = c.transaction()?;
    let skip_taken = if tx.dialect() == Dialect::Postgres {
        "FOR UPDATE OF s SKIP LOCKED"
    } else {
        ""
    };
    let due = tx.query(
        &format!(
            "SELECT {OUTGOING_COLUMNS} FROM lti_scores s JOIN users u ON u.id = s.user_id
             WHERE s.status = 'pending' AND s.next_try_at <= ?1 AND s.platform_id = ?3
             ORDER BY s.next_try_at, s.id LIMIT ?2
             {skip_taken}"
        ),
        params![now, limit as i64, platform_id],
        outgoing_row,
    )?;
    for item in &due {
        tx.execute(
            "UPDATE lti_scores SET next_try_at = ?2 WHERE id = ?1",
            params![item.id, now + SENDING_MS],
        )?;
    }
    tx.commit()?;
    Ok(due)
}

/// Per platform with scores waiting: when its next one is due.
pub fn next_due(c: &mut Conn) -> SqlResult<Vec<(i64, i64)>> {
    c.query(
        "SELECT platform_id, MIN(next_try_at) AS next_due FROM lti_scores WHERE status = 'pending'
         GROUP BY platform_id",
        [],
        |r| Ok((r.get("platform_id")?, r.get("next_due")?)),
    )
}

/// The outbox as the instructor sees it: each student's newest score for each line item
/// (waiting, being retried, failed or sent), failed ones first, then waiting, then sent.
pub fn outbox(c: &mut Conn, limit: usize) -> SqlResult<Vec<Outgoing>> {
    c.query(
        &format!(
            "SELECT {OUTGOING_COLUMNS} FROM lti_scores s JOIN users u ON u.id = s.user_id
             WHERE s.status <> 'superseded' AND s.id = (SELECT MAX(t.id) FROM lti_scores t
                 WHERE t.user_id = s.user_id AND t.exercise = s.exercise AND t.line_item = s.line_item)
             ORDER BY CASE s.status WHEN 'failed' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END,
                 u.username, s.exercise, s.id DESC LIMIT ?1"
        ),
        [limit as i64],
        outgoing_row,
    )
}

pub fn mark_sent(c: &mut Conn, id: i64) -> SqlResult<()> {
    c.execute(
        "UPDATE lti_scores SET status = 'sent', sent_at = ?2, last_error = NULL, attempts = attempts + 1
         WHERE id = ?1 AND status = 'pending'",
        params![id, now_ms()],
    )?;
    Ok(())
}

/// A failed try: tried again at `next_try_at`, or given up on (`failed`) when `None`.
pub fn mark_retry(c: &mut Conn, id: i64, error: &str, next_try_at: Option<i64>) -> SqlResult<()> {
    match next_try_at {
        Some(at) => c.execute(
            "UPDATE lti_scores SET attempts = attempts + 1, next_try_at = ?2, last_error = ?3
             WHERE id = ?1 AND status = 'pending'",
            params![id, at, error],
        )?,
        None => c.execute(
            "UPDATE lti_scores SET attempts = attempts + 1, status = 'failed', last_error = ?2
             WHERE id = ?1 AND status = 'pending'",
            params![id, error],
        )?,
    };
    Ok(())
}

/// Sends again the failed scores (one, or all when `id` is `None`); returns how many.
pub fn resend(c: &mut Conn, id: Option<i64>) -> SqlResult<usize> {
    c.execute(
        "UPDATE lti_scores SET status = 'pending', attempts = 0, next_try_at = ?2
         WHERE status = 'failed' AND (CAST(?1 AS BIGINT) IS NULL OR id = ?1)",
        params![id, now_ms()],
    )
}

/// Per student (by account id): their newest score for each line item, in words, for the
/// class matrix: `LMS: 2 sent, 1 retrying, 1 failed`.
pub fn score_states(c: &mut Conn) -> SqlResult<std::collections::HashMap<i64, String>> {
    let rows: Vec<(i64, String, i64)> = c.query(
        "SELECT s.user_id, s.status, s.attempts FROM lti_scores s
         WHERE s.status <> 'superseded' AND s.id = (SELECT MAX(t.id) FROM lti_scores t
             WHERE t.user_id = s.user_id AND t.exercise = s.exercise AND t.line_item = s.line_item)",
        [],
        |r| Ok((r.get("user_id")?, r.get("status")?, r.get("attempts")?)),
    )?;
    // sent, waiting, retrying, failed
    let mut counts: std::collections::HashMap<i64, [usize; 4]> = std::collections::HashMap::new();
    for (user, status, attempts) in rows {
        let slot = match status.as_str() {
            "sent" => 0,
            "failed" => 3,
            _ if attempts > 0 => 2,
            _ => 1,
        };
        counts.entry(user).or_default()[slot] += 1;
    }
    Ok(counts
        .into_iter()
        .map(|(user, count)| {
            let words: Vec<String> = ["sent", "waiting", "retrying", "failed"]
                .iter()
                .zip(count)
                .filter(|(_, n)| *n > 0)
                .map(|(word, n)| format!("{n} {word}"))
                .collect();
            (user, format!("LMS: {}", words.join(", ")))
        })
        .collect())
}

/// How many scores wait and how many failed.
pub fn outbox_counts(c: &mut Conn) -> SqlResult<(i64, i64)> {
    c.query_row(
        "SELECT COUNT(CASE WHEN status = 'pending' THEN 1 END) AS pending,
             COUNT(CASE WHEN status = 'failed' THEN 1 END) AS failed
         FROM lti_scores",
        [],
        |r| Ok((r.get("pending")?, r.get("failed")?)),
    )
}

/// How long an instructor has to choose exercises for a Deep Linking request.
pub const DEEP_LINK_LIFETIME_MS: i64 = 3600 * 1000;

/// A Deep Linking request waiting for its instructor's choice.
#[derive(Debug, Clone)]
pub struct DeepLink {
    pub id: String,
    pub platform_id: i64,
    pub deployment_id: String,
    pub return_url: String,
    pub data: Option<serde_json::Value>,
    pub accept_multiple: bool,
}

/// Keeps a Deep Linking request for `user_id` (only staff launches make one, so their
/// number is bounded by the staff's launches; old ones are forgotten here).
pub fn begin_deep_link(c: &mut Conn, user_id: i64, link: &DeepLink) -> SqlResult<()> {
    let now = now_ms();
    c.execute(
        "DELETE FROM lti_deep_links WHERE created_at < ?1",
        [now - DEEP_LINK_LIFETIME_MS],
    )?;
    c.execute(
        "INSERT INTO lti_deep_links
            (id, platform_id, user_id, deployment_id, return_url, data, accept_multiple, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            link.id,
            link.platform_id,
            user_id,
            link.deployment_id,
            link.return_url,
            link.data.as_ref().map(serde_json::Value::to_string),
            link.accept_multiple,
            now
        ],
    )?;
    Ok(())
}

/// `user_id`'s Deep Linking request `id`, if it is theirs and not expired; `take` removes
/// it (an answer is sent once).
pub fn deep_link(c: &mut Conn, id: &str, user_id: i64, take: bool) -> SqlResult<Option<DeepLink>> {
    let found = c
        .query_row(
            "SELECT id, platform_id, deployment_id, return_url, data, accept_multiple
             FROM lti_deep_links WHERE id = ?1 AND user_id = ?2 AND created_at >= ?3",
            params![id, user_id, now_ms() - DEEP_LINK_LIFETIME_MS],
            |r| {
                let data: Option<String> = r.get("data")?;
                Ok(DeepLink {
                    id: r.get("id")?,
                    platform_id: r.get("platform_id")?,
                    deployment_id: r.get("deployment_id")?,
                    return_url: r.get("return_url")?,
                    data: data.and_then(|d| serde_json::from_str(&d).ok()),
                    accept_multiple: r.get("accept_multiple")?,
                })
            },
        )
        .optional()?;
    if take && found.is_some() {
        c.execute("DELETE FROM lti_deep_links WHERE id = ?1", [id])?;
    }
    Ok(found)
}
