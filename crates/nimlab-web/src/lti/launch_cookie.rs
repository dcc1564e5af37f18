//! A launch under way, kept by the browser rather than the server: the login initiation
//! answers with a fresh `state` and `nonce`, and a cookie that carries the nonce and the
//! platform, signed (HMAC-SHA256 with a key of the server's, kept in its database) together
//! with the state, and valid for [`LAUNCH_LIFETIME`]. The launch's form names the state, the
//! cookie named after the state must come with it and check out, and the id_token must carry
//! the cookie's nonce. So an initiation writes nothing and costs the server nothing to keep:
//! a flood of them fills no table and no cap. A nonce is remembered only once an id_token
//! signed by the platform has carried it (see [`crate::lti::store::first_use_of_nonce`]), which
//! refuses a replayed launch.

use crate::auth::{hex, random_token, same_secret};
use hmac::{KeyInit, Mac};
use std::time::Duration;

/// How long a launch may take between its login initiation and its id_token.
pub const LAUNCH_LIFETIME: Duration = Duration::from_secs(10 * 60);

/// The name of the secret that signs launch cookies.
pub const SECRET_NAME: &str = "lti_launch_key";

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// A launch begun: what the platform is sent, and the cookie this browser keeps.
pub struct Begun {
    pub state: String,
    pub nonce: String,
    /// The cookie's name (after the state, so that launches begun together in one browser
    /// keep a cookie each) and its value.
    pub cookie_name: String,
    pub cookie_value: String,
}

/// What a launch cookie that checked out says.
#[derive(Debug, PartialEq, Eq)]
pub struct Launch {
    pub nonce: String,
    pub platform_id: i64,
}

/// Signs and checks launch cookies.
pub struct LaunchKey {
    key: Vec<u8>,
}

impl LaunchKey {
    pub fn new(key: Vec<u8>) -> Self {
        LaunchKey { key }
    }

    fn signature(&self, state: &str, body: &str) -> String {
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("HMAC takes any key");
        mac.update(b"nimlab lti launch\0");
        mac.update(state.as_bytes());
        mac.update(b"\0");
        mac.update(body.as_bytes());
        hex(&mac.finalize().into_bytes())
    }

    /// A new launch for `platform_id`, begun at `now_ms`.
    pub fn begin(&self, platform_id: i64, now_ms: i64) -> Begun {
        let (state, nonce) = (random_token(), random_token());
        let expires = now_ms + LAUNCH_LIFETIME.as_millis() as i64;
        let body = format!("{platform_id}.{nonce}.{expires}");
        let signature = self.signature(&state, &body);
        Begun {
            cookie_name: cookie_name(&state),
            cookie_value: format!("{body}.{signature}"),
            state,
            nonce,
        }
    }

    /// The launch that `state` and its cookie's value name, if this server signed them
    /// together and the launch has not expired at `now_ms`.
    pub fn check(&self, state: &str, cookie: &str, now_ms: i64) -> Option<Launch> {
        let (body, signature) = cookie.rsplit_once('.')?;
        if !same_secret(&self.signature(state, body), signature) {
            return None;
        }
        let mut parts = body.split('.');
        let platform_id = parts.next()?.parse().ok()?;
        let nonce = parts.next()?.to_string();
        let expires: i64 = parts.next()?.parse().ok()?;
        (parts.next().is_none() && now_ms < expires).then_some(Launch { nonce, platform_id })
    }
}

/// The name of the cookie that ties a launch's state to this browser. A state nimlab did
/// not make (not 64 hex digits, as posted by anyone) names no cookie a browser could hold.
pub fn cookie_name(state: &str) -> String {
    if state.len() == 64 && state.bytes().all(|b| b.is_ascii_hexdigit()) {
        format!("nimlab_lti_{}", &state[..16])
    } else {
        "nimlab_lti_none".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cookie_checks_out_with_its_own_state_until_it_expires() {
        let key = LaunchKey::new(vec![3; 32]);
        let begun = key.begin(7, 1_000);
        assert_eq!(begun.cookie_name, cookie_name(&begun.state));
        assert!(begun.cookie_name.starts_with("nimlab_lti_"));
        let expected = Launch {
            nonce: begun.nonce.clone(),
            platform_id: 7,
        };
        assert_eq!(
            key.check(&begun.state, &begun.cookie_value, 2_000),
            Some(expected)
        );
        let lifetime = LAUNCH_LIFETIME.as_millis() as i64;
        assert_eq!(
            key.check(&begun.state, &begun.cookie_value, 1_000 + lifetime),
            None
        );
        // Another launch's state, another key, a changed nonce, platform or expiry.
        let other = key.begin(7, 1_000);
        assert_eq!(key.check(&other.state, &begun.cookie_value, 2_000), None);
        let stranger = LaunchKey::new(vec![4; 32]);
        assert_eq!(
            stranger.check(&begun.state, &begun.cookie_value, 2_000),
            None
        );
        let forged = [
            begun.cookie_value.replacen("7.", "8.", 1),
            begun.cookie_value.replacen(&begun.nonce, &other.nonce, 1),
            begun
                .cookie_value
                .replacen(&format!(".{}.", 1_000 + lifetime), ".99999999999.", 1),
            String::new(),
            "garbage".into(),
        ];
        for cookie in &forged {
            assert_eq!(key.check(&begun.state, cookie, 2_000), None, "{cookie}");
        }
    }

    #[test]
    fn only_a_state_nimlab_could_make_names_a_cookie() {
        assert_eq!(cookie_name(&"€".repeat(30)), "nimlab_lti_none");
        assert_eq!(cookie_name("abc"), "nimlab_lti_none");
        assert_eq!(cookie_name(&"a".repeat(64)), "nimlab_lti_aaaaaaaaaaaaaaaa");
    }
}
