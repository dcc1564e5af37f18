//! Limits on guessing passwords that never lock the owner out, after OWASP's guidance on
//! account lockout and its device cookies:
//!
//! - **Per account, for new clients**: a few failures are free, then each one makes clients
//!   that have not logged in to the account before wait, longer each time
//!   ([`after_failure`]), instead of a hard lock.
//! - **Per device**: a browser or script that logged in to an account before carries a
//!   [`DeviceKey`]-signed cookie naming it. With it, the owner keeps logging in while
//!   strangers wait; the device has throttles of its own, so a stolen cookie guesses no faster.
//!
//! No network address is refused for its failures: a lab room behind one address shares it
//! with whoever floods from there. Instead the password checks, the work that costs, are
//! shared fairly between addresses ([`network`]) and between the accounts named from each
//! (see [`crate::auth::Hashers`]), and a login for an account that does not exist spends no
//! check at all.
//!
//! Account and device throttles live in the database, where a new password (`users passwd`,
//! an instructor's reset on the website) lifts them.

use crate::auth::hex;
use crate::store::accounts;
use crate::store::accounts::Throttle;
use crate::store::db;
use crate::store::sql::{Conn, SqlResult};
use hmac::{KeyInit, Mac};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Failures an account (for new clients) or a device makes before it must wait.
pub const FREE_FAILURES: u32 = 5;
/// The wait after the last free failure; it doubles with each failure after.
pub const FIRST_DELAY: Duration = Duration::from_secs(10);
/// The longest wait.
pub const MAX_DELAY: Duration = Duration::from_secs(10 * 60);
/// Failures are forgotten this long after the last one.
pub const FORGET_AFTER: Duration = Duration::from_secs(3600);
pub const FORGET_AFTER_MS: i64 = FORGET_AFTER.as_millis() as i64;
/// How long a device cookie is honoured after its last login.
pub const DEVICE_LIFETIME: Duration = Duration::from_secs(180 * 24 * 3600);

fn ms(duration: Duration) -> i64 {
    duration.as_millis() as i64
}

/// Whether `throttle` still counts at `now`.
fn current(throttle: Option<Throttle>, now: i64) -> Option<Throttle> {
    throttle.filter(|t| now - t.last_failure_at < ms(FORGET_AFTER))
}

/// The throttle after one more failure at `now`: free up to [`FREE_FAILURES`], then a wait
/// of [`FIRST_DELAY`] doubled for each failure past them, at most [`MAX_DELAY`].
pub fn after_failure(before: Option<Throttle>, now: i64) -> Throttle {
    let failures = current(before, now).map_or(0, |t| t.failures) + 1;
    let blocked_until = if failures < FREE_FAILURES {
        0
    } else {
        let doublings = (failures - FREE_FAILURES).min(16);
        let delay = FIRST_DELAY.saturating_mul(1 << doublings).min(MAX_DELAY);
        now + ms(delay)
    };
    Throttle {
        failures,
        last_failure_at: now,
        blocked_until,
    }
}

/// Counts one more failure against `key` (of `username`'s) in the database.
pub fn record_failure(c: &mut Conn, key: &str, username: &str) -> SqlResult<Throttle> {
    accounts::record_failure(c, key, username, FORGET_AFTER_MS, |before| {
        after_failure(before, db::now_ms())
    })
}

/// How long a client must wait before its next try, if at all.
pub fn wait(throttle: Option<Throttle>, now: i64) -> Option<Duration> {
    let throttle = current(throttle, now)?;
    (throttle.blocked_until > now)
        .then(|| Duration::from_millis((throttle.blocked_until - now) as u64))
}

/// Checks that may be under way at once: no more than the free failures left, so guesses
/// sent together are not all checked before the first of them counts; one at a time after.
pub fn checks_at_once(throttle: Option<Throttle>, now: i64) -> u32 {
    let failures = current(throttle, now).map_or(0, |t| t.failures);
    FREE_FAILURES.saturating_sub(failures).max(1)
}

/// The key of an account's throttle for clients without its device cookie.
pub fn account_key(username: &str) -> String {
    format!("account:{username}")
}

/// The key of one device's throttle.
pub fn device_key(nonce: &str) -> String {
    format!("device:{nonce}")
}

/// Password checks under way, per throttle key.
#[derive(Default)]
pub struct InFlight {
    keys: Mutex<HashMap<String, u32>>,
}

/// One check under way; it stops counting when dropped.
pub struct Ticket {
    in_flight: Arc<InFlight>,
    key: String,
    under_way: u32,
}

impl Ticket {
    /// The checks on its key that were under way when this one began, itself included.
    pub fn under_way(&self) -> u32 {
        self.under_way
    }
}

impl InFlight {
    /// A ticket for one more check on `key`, unless `allowed` are under way already.
    pub fn begin(self: &Arc<Self>, key: &str, allowed: u32) -> Option<Ticket> {
        let mut keys = self.keys.lock().expect("no panics holding the checks");
        let count = keys.entry(key.to_string()).or_insert(0);
        if *count >= allowed {
            return None;
        }
        *count += 1;
        Some(Ticket {
            in_flight: Arc::clone(self),
            key: key.to_string(),
            under_way: *count,
        })
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut keys = self
            .in_flight
            .keys
            .lock()
            .expect("no panics holding the checks");
        if let Some(count) = keys.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                keys.remove(&self.key);
            }
        }
    }
}

/// The network an address counts as for fairness: IPv4 addresses one by one, IPv6 by their /64 (one
/// home or host gets a whole /64, and could otherwise take a new address for each try).
pub fn network(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(bits.into())
            }
        },
    }
}

/// A device cookie that checked out: the account it logged in to, and its own nonce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    pub username: String,
    pub nonce: String,
}

/// Signs and checks device cookies (HMAC-SHA256 with the server's key, kept in its
/// database). A cookie reads `USERNAME-IN-HEX.NONCE.SIGNATURE`.
pub struct DeviceKey {
    key: Vec<u8>,
}

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

impl DeviceKey {
    pub fn new(key: Vec<u8>) -> Self {
        DeviceKey { key }
    }

    fn signature(&self, body: &str) -> String {
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("HMAC takes any key");
        mac.update(b"nimlab device cookie\0");
        mac.update(body.as_bytes());
        hex(&mac.finalize().into_bytes())
    }

    /// A cookie value for `device`.
    pub fn cookie(&self, device: &Device) -> String {
        let body = format!("{}.{}", hex(device.username.as_bytes()), device.nonce);
        let signature = self.signature(&body);
        format!("{body}.{signature}")
    }

    /// The device a cookie names, if this server signed it.
    pub fn check(&self, cookie: &str) -> Option<Device> {
        let (body, signature) = cookie.rsplit_once('.')?;
        if !crate::auth::same_secret(&self.signature(body), signature) {
            return None;
        }
        let (username, nonce) = body.split_once('.')?;
        Some(Device {
            username: String::from_utf8(unhex(username)?).ok()?,
            nonce: nonce.to_string(),
        })
    }
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_start_after_the_free_failures_and_double_up_to_the_longest() {
        let mut throttle = None;
        let mut waits = Vec::new();
        for _ in 0..12 {
            let next = after_failure(throttle, 1_000);
            waits.push(wait(Some(next), 1_000).map_or(0, |d| d.as_secs()));
            throttle = Some(next);
        }
        assert_eq!(waits, [0, 0, 0, 0, 10, 20, 40, 80, 160, 320, 600, 600]);
        // Checks at once: the free failures left, then one.
        assert_eq!(checks_at_once(None, 0), FREE_FAILURES);
        assert_eq!(checks_at_once(throttle, 1_000), 1);
    }

    #[test]
    fn failures_are_forgotten_an_hour_after_the_last() {
        let many = (0..8).fold(None, |t, _| Some(after_failure(t, 0)));
        let later = ms(FORGET_AFTER);
        assert_eq!(wait(many, later), None);
        assert_eq!(after_failure(many, later).failures, 1);
    }

    #[test]
    fn device_cookies_are_checked_by_their_signature() {
        let key = DeviceKey::new(vec![7; 32]);
        let device = Device {
            username: "ada".into(),
            nonce: "0123abcd".into(),
        };
        let cookie = key.cookie(&device);
        assert_eq!(key.check(&cookie), Some(device));
        // Another account's name under the same signature, a changed nonce, another key.
        let forged = cookie.replacen(&hex(b"ada"), &hex(b"bob"), 1);
        assert_eq!(key.check(&forged), None);
        assert_eq!(key.check(&cookie.replacen("0123", "3210", 1)), None);
        assert_eq!(DeviceKey::new(vec![8; 32]).check(&cookie), None);
        assert_eq!(key.check("garbage"), None);
        assert_eq!(key.check(""), None);
    }

    #[test]
    fn checks_under_way_are_bounded_per_key() {
        let in_flight = Arc::new(InFlight::default());
        let first = in_flight.begin("account:ada", 2).unwrap();
        let second = in_flight.begin("account:ada", 2).unwrap();
        assert_eq!((first.under_way(), second.under_way()), (1, 2));
        assert!(in_flight.begin("account:ada", 2).is_none());
        assert!(in_flight.begin("device:x", 1).is_some());
        drop(first);
        assert!(in_flight.begin("account:ada", 2).is_some());
    }

    #[test]
    fn an_address_counts_as_its_network() {
        let ip = |text: &str| text.parse::<IpAddr>().unwrap();
        assert_eq!(network(ip("10.0.0.1")), ip("10.0.0.1"));
        // IPv6 counts by /64; an IPv4-mapped address as its IPv4 one.
        assert_eq!(network(ip("2001:db8::ffff:1")), ip("2001:db8::"));
        assert_ne!(network(ip("2001:db8:0:1::1")), ip("2001:db8::"));
        assert_eq!(network(ip("::ffff:10.0.0.1")), ip("10.0.0.1"));
    }
}
