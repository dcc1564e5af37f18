//! Sessions and logging in: the cookies that carry a session (and a login form's token), the
//! password check limited per account, and logging out. Pages and the API share them.

use super::auth::{self, HashRefused, Refusal};
use super::db::{self, User};
use super::fail::Fail;
use super::state::{App, AppState};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use std::time::Duration;

pub const SESSION_COOKIE: &str = "nimlab_session";
/// The token a login form carries before there is a session (a double-submitted cookie).
pub const LOGIN_COOKIE: &str = "nimlab_login";
pub const SESSION_LIFETIME: Duration = Duration::from_secs(12 * 3600);
/// Failed logins an account may make in [`LOGIN_WINDOW`] before it must wait.
pub const LOGIN_FAILURES: u32 = 5;
pub const LOGIN_WINDOW: Duration = Duration::from_secs(5 * 60);

impl App {
    pub fn session_cookie(&self, token: &str) -> HeaderValue {
        self.set_cookie(SESSION_COOKIE, token, SESSION_LIFETIME)
    }

    pub fn cleared_session_cookie(&self) -> HeaderValue {
        self.set_cookie(SESSION_COOKIE, "", Duration::ZERO)
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

/// Checks a username and password, limited per account; returns the user and a new
/// session's token.
pub async fn log_in(
    app: &AppState,
    username: String,
    password: String,
) -> Result<(User, String), Fail> {
    let username = username.trim().to_string();
    // The try is reserved before the (slow) check, so guesses sent at once are refused past
    // the account's limit instead of all waiting for their turn to be checked.
    let attempt = app.limiter.try_begin(&username).map_err(too_many_tries)?;
    let lookup = username.clone();
    let found = app.db(move |c| db::find_user(c, &lookup)).await?;
    // The try is settled on the hasher thread, so a check counts even if its client leaves.
    let checked = app
        .hashers
        .run(move || {
            let user = match found {
                Some((user, hash)) => auth::verify_password(&password, &hash).then_some(user),
                None => {
                    auth::verify_nobody(&password);
                    None
                }
            };
            match user {
                Some(_) => attempt.succeeded(),
                None => attempt.failed(),
            }
            user
        })
        .await
        .map_err(not_checked)?;
    let Some(user) = checked else {
        return Err(Fail::new(
            StatusCode::UNAUTHORIZED,
            "wrong username or password",
        ));
    };
    let token = start_session(app, &user).await?;
    Ok((user, token))
}

/// Why a login is refused before its password is checked: the account's limit.
fn too_many_tries(refusal: Refusal) -> Fail {
    match refusal {
        Refusal::Locked(wait) => {
            let minutes = wait.as_secs().div_ceil(60).max(1);
            let mut fail = Fail::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many failed logins for this account: try again in {minutes} minute(s), or ask your instructor to reset your password"
                ),
            );
            fail.retry_after = Some(wait.as_secs().max(1));
            fail
        }
        Refusal::Busy => {
            let mut fail = Fail::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many logins to this account are being checked at once: wait for their answer, then try again",
            );
            fail.retry_after = Some(5);
            fail
        }
    }
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
        HashRefused::Gone => Fail::internal("a password check failed"),
    }
}

/// A new session for `user`; returns its token (the database keeps only its hash).
async fn start_session(app: &AppState, user: &User) -> Result<String, Fail> {
    let token = auth::random_token();
    let (hash, csrf, id) = (auth::token_hash(&token), auth::random_token(), user.id);
    let lifetime = SESSION_LIFETIME.as_millis() as i64;
    app.db(move |c| db::create_session(c, &hash, id, &csrf, lifetime))
        .await?;
    Ok(token)
}

/// Ends the session whose cookie the request carries, if any.
pub async fn log_out(app: &AppState, headers: &HeaderMap) -> Result<(), Fail> {
    if let Some(token) = cookie(headers, SESSION_COOKIE) {
        let hash = auth::token_hash(&token);
        app.db(move |c| db::delete_session(c, &hash)).await?;
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
