//! The tool's side of LTI that the whole site shares ([`Lti`]): its key, the cookie key of
//! launches under way, the platforms' keys and score tokens as fetched, the outbox's wake-up
//! and the frame origins. Knows nothing of requests; the routes are in `mod.rs`.

use crate::lti::keys::{self, ToolKey};
use crate::lti::launch_cookie::{self, LaunchKey};
use crate::lti::outgoing;
use crate::lti::store::{self, Platform};
use crate::lti::token;
use crate::store::accounts;
use crate::store::sql::{Conn, SqlResult};
use jsonwebtoken::jwk::JwkSet;
use nimlab_core::error::Result;
use nimlab_core::escape;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A platform's keys are fetched again for an unknown `kid` at most this often.
const JWKS_REFETCH: Duration = Duration::from_secs(5);
/// The largest launch form (an id_token with its claims) read.
pub const LAUNCH_BODY: usize = 64 * 1024;

/// What the LTI routes and the outbox share.
pub struct Lti {
    pub key: ToolKey,
    /// Signs the cookies that keep launches under way.
    pub launches: LaunchKey,
    /// The platforms registered, as read lately (see [`Lti::platforms`]).
    pub(crate) platforms: tokio::sync::Mutex<Option<(std::sync::Arc<Vec<Platform>>, Instant)>>,
    pub client: reqwest::Client,
    /// Per platform: its JWK Set and when it was fetched.
    pub(crate) jwks: Mutex<HashMap<i64, (JwkSet, Instant)>>,
    /// Per platform: an access token for scores, and until when to use it.
    pub(crate) tokens: Mutex<HashMap<i64, (String, Instant)>>,
    /// Woken when a judging may have changed a score.
    pub wake: std::sync::Arc<tokio::sync::Notify>,
    /// The first wait before a score is sent again (doubling).
    pub retry_base_ms: i64,
    /// With `serve --lti-frames`: the `frame-ancestors` sources (the platforms' origins),
    /// refreshed with the platforms. None keeps the site out of every frame.
    pub frames: Option<std::sync::RwLock<String>>,
}

/// The first wait before a score the platform did not take is sent again.
pub const DEFAULT_RETRY: std::time::Duration = std::time::Duration::from_secs(10);

impl Lti {
    pub fn new(key: ToolKey, launches: LaunchKey) -> Lti {
        Lti {
            key,
            launches,
            platforms: tokio::sync::Mutex::default(),
            client: outgoing::client(),
            jwks: Mutex::default(),
            tokens: Mutex::default(),
            wake: std::sync::Arc::default(),
            retry_base_ms: DEFAULT_RETRY.as_millis() as i64,
            frames: None,
        }
    }

    /// What `frame-ancestors` allows: 'none', or the registered platforms' origins.
    pub fn frame_ancestors(&self) -> Option<String> {
        let frames = self.frames.as_ref()?.read().expect("no panics").clone();
        Some(frames).filter(|f| !f.is_empty())
    }

    /// The platform's key `kid`: from the JWK Set cached, else fetched again (a platform
    /// rotates its keys), at most every [`JWKS_REFETCH`].
    pub(crate) async fn key(
        &self,
        platform: &Platform,
        kid: &str,
    ) -> std::result::Result<jsonwebtoken::DecodingKey, String> {
        let cached = self
            .jwks
            .lock()
            .expect("no panics")
            .get(&platform.id)
            .cloned();
        if let Some((set, fetched)) = &cached {
            if let Some(key) = token::key_of(set, kid) {
                return Ok(key);
            }
            if fetched.elapsed() < JWKS_REFETCH {
                return Err(format!(
                    "the platform's keys hold no key {}",
                    escape::quoted(kid, 80)
                ));
            }
        }
        let json = outgoing::get_json(&self.client, &platform.jwks_url)
            .await
            .map_err(|e| format!("the platform's keys could not be fetched: {e}"))?;
        let set: JwkSet = serde_json::from_value(json)
            .map_err(|e| format!("the platform's JWKS is not a JWK Set ({e})"))?;
        let key = token::key_of(&set, kid);
        self.jwks
            .lock()
            .expect("no panics")
            .insert(platform.id, (set, Instant::now()));
        key.ok_or_else(|| {
            format!(
                "the platform's keys hold no key {}",
                escape::quoted(kid, 80)
            )
        })
    }
}

/// Reads the platforms' frame origins again (with `--lti-frames`): a platform registered
/// while the server runs may frame it from the next refresh.
pub fn refresh_frames(lti: &Lti, c: &mut Conn) -> SqlResult<()> {
    let Some(frames) = &lti.frames else {
        return Ok(());
    };
    let mut origins: Vec<String> = store::platforms(c)?
        .iter()
        .flat_map(Platform::frame_ancestors)
        .collect();
    origins.sort();
    origins.dedup();
    *frames.write().expect("no panics") = origins.join(" ");
    Ok(())
}

/// The tool's key from the database, made on the first start.
pub fn tool_key(c: &mut Conn) -> SqlResult<Vec<u8>> {
    accounts::secret(c, keys::SECRET_NAME, keys::fresh_key)
}

/// The key that signs launch cookies, from the database, made on the first start.
pub fn launch_key(c: &mut Conn) -> SqlResult<Vec<u8>> {
    accounts::secret(c, launch_cookie::SECRET_NAME, crate::auth::random_key)
}

pub fn load(key_der: &[u8], launch_key: Vec<u8>) -> Result<Lti> {
    Ok(Lti::new(
        ToolKey::from_pkcs8(key_der)?,
        LaunchKey::new(launch_key),
    ))
}
