//! Sessions and logging in: the cookies that carry a session (and a login form's token,
//! and a device's), the client's address, the password check under the throttles, and
//! logging out. Pages and the API share them.

use crate::auth::{self, HashRefused, Lane, Share};
use crate::http::fail::Fail;
use crate::http::state::{App, AppState};
use crate::http::throttle::{self, Device};
use crate::store::accounts;
use crate::store::accounts::User;
use crate::store::db;
use crate::users;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

pub const SESSION_COOKIE: &str = "nimlab_session";
/// The token a login form carries before there is a session (a double-submitted cookie).
pub const LOGIN_COOKIE: &str = "nimlab_login";
pub const SESSION_LIFETIME: Duration = Duration::from_secs(12 * 3600);
/// The signed cookie that lets a client that logged in before keep logging in while
/// strangers are throttled (see [`crate::http::throttle`]).
pub const DEVICE_COOKIE: &str = "nimlab_device";

impl App {
    pub fn session_cookie(&self, token: &str) -> HeaderValue {
        self.set_cookie(SESSION_COOKIE, token, SESSION_LIFETIME)
    }

    pub fn cleared_session_cookie(&self) -> HeaderValue {
        self.set_cookie(SESSION_COOKIE, "", Duration::ZERO)
    }

    pub fn device_cookie(&self, value: &str) -> HeaderValue {
        self.set_cookie(DEVICE_COOKIE, value, throttle::DEVICE_LIFETIME)
    }

    pub fn login_cookie(&self, token: &str) -> HeaderValue {
        self.set_cookie(LOGIN_COOKIE, token, Duration::from_secs(3600))
    }
}

/// A cookie's value from the request's `Cookie` headers.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.to_string())
}

/// A login to check: what the form or the JSON said, the device cookie the client sent and
/// the address it came from.
pub struct LoginRequest {
    pub username: String,
    pub password: String,
    pub device_cookie: Option<String>,
    pub address: Option<IpAddr>,
}

/// A successful login: the user, a new session's token and the device cookie to keep.
pub struct LoggedIn {
    pub user: User,
    pub session: String,
    pub device_cookie: String,
}

/// Which throttle a login counts against: its device's, when the client carries a device
/// cookie for this account that is not itself throttled, else the account's for new clients.
struct Counted {
    key: String,
    device: Option<Device>,
    throttle: Option<accounts::Throttle>,
    /// Whose turn its check takes among the others waiting.
    share: Share,
}

impl Counted {
    /// Known devices' checks go first.
    fn lane(&self) -> Lane {
        if self.device.is_some() {
            Lane::Known
        } else {
            Lane::Other
        }
    }
}

/// Whose turn a check for `username` from `address` takes.
fn share(username: &str, address: Option<IpAddr>) -> Share {
    Share {
        address: address.map(throttle::network),
        account: username.to_string(),
    }
}

/// The address a request came from: the connection's peer, or behind a proxy (`--proxy`)
/// the last address the proxy added to `X-Forwarded-For`.
pub struct Peer(pub Option<IpAddr>);

impl FromRequestParts<AppState> for Peer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let direct = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|info| info.0.ip());
        if !app.behind_proxy {
            return Ok(Peer(direct));
        }
        // Only the proxy's own entry (the last) can be trusted: a client writes the rest.
        let forwarded = parts
            .headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .next_back()
            .and_then(|last| last.trim().parse().ok());
        Ok(Peer(forwarded.or(direct)))
    }
}

/// Refusals of a username and password are answered on a multiple of this from the request's
/// start, so that an existing account and an unknown name take the same time to refuse.
const REFUSAL_STEP: std::time::Duration = std::time::Duration::from_millis(250);

/// Checks a username and password under the throttles of [`crate::http::throttle`]; returns
/// the user, a new session's token and a device cookie.
pub async fn log_in(app: &AppState, request: LoginRequest) -> Result<LoggedIn, Fail> {
    let started = tokio::time::Instant::now();
    let (user, device) = check_login(app, request).await?;
    let Some(user) = user else {
        // A refusal is answered on the next step of REFUSAL_STEP from the request's start:
        // what is left of the difference between an account's check and a stranger's
        // stand-in (a few milliseconds, more under load) is lost in the step.
        let elapsed = started.elapsed().as_millis() as u64;
        let step = REFUSAL_STEP.as_millis() as u64;
        let answer_at = std::time::Duration::from_millis(elapsed.div_ceil(step).max(1) * step);
        tokio::time::sleep_until(started + answer_at).await;
        return Err(Fail::new(
            StatusCode::UNAUTHORIZED,
            "wrong username or password",
        ));
    };
    // Told only after the right password, so strangers learn nothing of the account.
    if user.disabled {
        return Err(Fail::forbidden(
            "this account is disabled: ask your instructor",
        ));
    }
    let device = device.unwrap_or_else(|| Device {
        username: user.username.clone(),
        nonce: auth::random_token()[..32].to_string(),
    });
    let device_cookie = app.logins.devices.cookie(&device);
    let session = start_session(app, &user).await?;
    Ok(LoggedIn {
        user,
        session,
        device_cookie,
    })
}

/// A user's own password change: the password they have now (checked as a login is, under
/// the same throttles), the new one, and the request's device cookie and address.
pub struct PasswordChange {
    pub old: String,
    pub new: String,
    pub device_cookie: Option<String>,
    pub address: Option<IpAddr>,
}

/// Whether `password` may be an account's: at least [`auth::MIN_PASSWORD_CHARS`] characters.
pub fn check_new_password(password: &str) -> Result<(), Fail> {
    if password.chars().count() < auth::MIN_PASSWORD_CHARS {
        return Err(Fail::bad_request(format!(
            "the new password is too short: use at least {} characters",
            auth::MIN_PASSWORD_CHARS
        )));
    }
    Ok(())
}

/// Changes `user`'s password after checking the old one (a wrong one is 403 and counts as a
/// failed login); the account's other sessions end, the one whose token hashes to
/// `current_session` stays.
pub async fn change_password(
    app: &AppState,
    user: &User,
    current_session: &str,
    change: PasswordChange,
) -> Result<(), Fail> {
    check_new_password(&change.new)?;
    let request = LoginRequest {
        username: user.username.clone(),
        password: change.old,
        device_cookie: change.device_cookie,
        address: change.address,
    };
    let (checked, _) = check_login(app, request).await?;
    let Some(checked) = checked.filter(|checked| checked.id == user.id) else {
        return Err(Fail::forbidden(
            "your current password is not the one you typed: nothing was changed",
        ));
    };
    let new = change.new;
    let hash = app
        .hashers
        .run(
            Lane::Known,
            &share(&user.username, change.address),
            move || auth::hash_password(&new),
        )
        .await
        .map_err(not_checked)?
        .map_err(Fail::from)?;
    let keep = current_session.to_string();
    app.db(move |c| accounts::set_password_keeping(c, checked.id, &hash, Some(&keep)))
        .await
}

/// Checks a username and password under the throttles: the user if the password is right
/// (None if not, counted as a failure), and the client's device when it sent a good cookie.
async fn check_login(
    app: &AppState,
    request: LoginRequest,
) -> Result<(Option<User>, Option<Device>), Fail> {
    let username = request.username.trim().to_string();
    let device = request
        .device_cookie
        .as_deref()
        .and_then(|cookie| app.logins.devices.check(cookie))
        .filter(|device| device.username == username);
    let mut lane = choose_lane(app, &username, device, request.address).await?;
    let allowed = throttle::checks_at_once(lane.throttle, db::now_ms());
    // Reserved before the (slow) check, so guesses sent at once are refused past what the
    // throttle has left instead of all being checked.
    let ticket = app
        .logins
        .in_flight
        .begin(&lane.key, allowed)
        .ok_or_else(checks_under_way)?;
    // The throttle read above may predate checks that ended since (their tickets are gone,
    // their failures recorded). Read again with the ticket held: every earlier check is now
    // either under way (in the ticket's count) or recorded, so together they stay in bounds.
    let lookup = lane.key.clone();
    let fresh = app.db(move |c| accounts::throttle(c, &lookup)).await?;
    let now = db::now_ms();
    if throttle::wait(fresh, now).is_some()
        || ticket.under_way() > throttle::checks_at_once(fresh, now)
    {
        return Err(checks_under_way());
    }
    lane.throttle = fresh;
    let lookup = username.clone();
    let found = app.db(move |c| accounts::find_user(c, &lookup)).await?;
    let user = match found {
        Some((user, hash)) => check_password(app, &lane, user, hash, request, ticket).await?,
        None => {
            no_such_account(app, &lane, &username).await?;
            drop(ticket);
            None
        }
    };
    Ok((user, lane.device))
}

/// A login for an account that does not exist: answered when a wrong password would be (its
/// turn among the checks waiting, then a failed check's time, its failure recorded), though
/// no hasher is spent on it, so that neither tells which accounts exist.
async fn no_such_account(app: &AppState, lane: &Counted, username: &str) -> Result<(), Fail> {
    // A name no account can have (64 characters at most, a few symbols) is not stored: a
    // flood of long made-up names should not grow the database.
    let stored = users::check_username(username).is_ok();
    let (key, name) = (lane.key.clone(), username.to_string());
    let record = async move {
        if stored {
            app.db(move |c| throttle::record_failure(c, &key, &name))
                .await?;
        }
        Ok::<(), Fail>(())
    };
    app.hashers
        .take_turn(lane.lane(), &lane.share, record)
        .await
        .map_err(not_checked)?
}

/// The device's lane when its cookie is good and the device may try; else the account's,
/// which refuses a client that must wait.
async fn choose_lane(
    app: &AppState,
    username: &str,
    device: Option<Device>,
    address: Option<IpAddr>,
) -> Result<Counted, Fail> {
    let now = db::now_ms();
    let share = share(username, address);
    if let Some(device) = device {
        let key = throttle::device_key(&device.nonce);
        let lookup = key.clone();
        let found = app.db(move |c| accounts::throttle(c, &lookup)).await?;
        if throttle::wait(found, now).is_none() {
            return Ok(Counted {
                key,
                device: Some(device),
                throttle: found,
                share,
            });
        }
    }
    let key = throttle::account_key(username);
    let lookup = key.clone();
    let found = app.db(move |c| accounts::throttle(c, &lookup)).await?;
    if let Some(wait) = throttle::wait(found, now) {
        return Err(must_wait(
            wait,
            "too many failed logins for this account from browsers that have not logged in to it before",
        ));
    }
    Ok(Counted {
        key,
        device: None,
        throttle: found,
        share,
    })
}

/// Checks the password on a hasher thread, known devices first. The outcome is recorded
/// there too, so a guess counts even if its client leaves before the answer.
async fn check_password(
    app: &AppState,
    lane: &Counted,
    user: User,
    hash: String,
    request: LoginRequest,
    ticket: throttle::Ticket,
) -> Result<Option<User>, Fail> {
    let (db, times) = (Arc::clone(&app.db), app.hashers.times());
    let (key, username) = (lane.key.clone(), user.username.clone());
    let recorded = app
        .hashers
        .run(lane.lane(), &lane.share, move || {
            let _ticket = ticket;
            if times.verify(&request.password, &hash) {
                db.with(|c| accounts::clear_throttle(c, &key))?;
                return Ok(Some(user));
            }
            times.failure(|| db.with(|c| throttle::record_failure(c, &key, &username)))?;
            Ok(None)
        })
        .await
        .map_err(not_checked)?;
    recorded.map_err(|e: nimlab_core::error::Error| Fail::from(e))
}

/// A refusal to check a password now, and when to come back.
fn must_wait(wait: Duration, why: &str) -> Fail {
    let seconds = wait.as_secs().max(1);
    let when = if seconds < 120 {
        format!("{seconds} second(s)")
    } else {
        format!("{} minute(s)", seconds.div_ceil(60))
    };
    let mut fail = Fail::new(
        StatusCode::TOO_MANY_REQUESTS,
        format!(
            "{why}: try again in {when}, log in from a browser you have logged in with before, or ask your instructor to reset your password"
        ),
    );
    fail.retry_after = Some(seconds);
    fail
}

fn checks_under_way() -> Fail {
    let mut fail = Fail::new(
        StatusCode::TOO_MANY_REQUESTS,
        "other logins to this account are being checked right now: wait for their answer, then try again",
    );
    fail.retry_after = Some(2);
    fail
}

/// Why a password was not checked at all.
fn not_checked(refused: HashRefused) -> Fail {
    match refused {
        HashRefused::Busy => {
            let mut fail = Fail::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is checking too many passwords at once: try again in a few seconds",
            );
            fail.retry_after = Some(5);
            fail
        }
        HashRefused::Crowded => {
            let mut fail = Fail::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many logins from your network address are waiting to be checked: try again in a few seconds",
            );
            fail.retry_after = Some(5);
            fail
        }
        HashRefused::Gone => Fail::internal("a password check failed"),
    }
}

/// A new session for `user`; returns its token (the database keeps only its hash).
pub async fn start_session(app: &AppState, user: &User) -> Result<String, Fail> {
    let token = auth::random_token();
    let (hash, csrf, id) = (auth::token_hash(&token), auth::random_token(), user.id);
    let lifetime = SESSION_LIFETIME.as_millis() as i64;
    app.db(move |c| accounts::create_session(c, &hash, id, &csrf, lifetime))
        .await?;
    Ok(token)
}

/// Ends the session whose cookie the request carries, if any.
pub async fn log_out(app: &AppState, headers: &HeaderMap) -> Result<(), Fail> {
    if let Some(token) = cookie(headers, SESSION_COOKIE) {
        let hash = auth::token_hash(&token);
        app.db(move |c| accounts::delete_session(c, &hash)).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_found_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; nimlab_session=abc; b=2"),
        );
        assert_eq!(cookie(&headers, SESSION_COOKIE).as_deref(), Some("abc"));
        assert_eq!(cookie(&headers, "c"), None);
    }
}
