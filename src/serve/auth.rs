//! Passwords (argon2id), session and CSRF tokens, and the per-account limit on failed logins.

use crate::error::{Error, Result};
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use rand::Rng;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

/// The shortest password `users add` and `users passwd` accept.
pub const MIN_PASSWORD_CHARS: usize = 8;

fn argon2() -> argon2::Argon2<'static> {
    // Argon2id with the crate's defaults (19 MiB, 2 passes), as OWASP recommends.
    argon2::Argon2::default()
}

pub fn hash_password(password: &str) -> Result<String> {
    argon2()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| Error::internal("cannot hash a password", std::io::Error::other(e)))
}

/// Whether `password` matches `hash`; an empty or malformed hash matches nothing.
pub fn verify_password(password: &str, hash: &str) -> bool {
    !hash.is_empty() && argon2().verify_password(password.as_bytes(), hash).is_ok()
}

/// Spends the time a real check would, so an unknown username answers no faster than a
/// wrong password.
pub fn verify_nobody(password: &str) {
    static DUMMY: LazyLock<String> =
        LazyLock::new(|| hash_password(&random_token()).unwrap_or_default());
    let _ = verify_password(password, &DUMMY);
}

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    rand::rng().fill_bytes(&mut bytes);
    bytes
}

/// 256 random bits, in hex: session and CSRF tokens.
pub fn random_token() -> String {
    hex(&random_bytes::<32>())
}

/// A password to hand out: 14 characters with no look-alikes (about 70 bits).
pub fn random_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyzACDEFGHJKLMNPQRTUVWXY34679";
    let mut rng = rand::rng();
    (0..14)
        .map(|_| {
            let mut byte = [0u8; 1];
            // Rejection sampling keeps every character equally likely.
            loop {
                rng.fill_bytes(&mut byte);
                let limit = 256 - 256 % ALPHABET.len();
                if (byte[0] as usize) < limit {
                    return ALPHABET[byte[0] as usize % ALPHABET.len()] as char;
                }
            }
        })
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What the database keeps of a session token: its hash, so a copy of the database opens no
/// session.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Compares secrets in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

type HashJob = Box<dyn FnOnce() + Send>;

/// A few long-lived threads that check passwords. Argon2 needs 19 MiB per check, on purpose;
/// on threads of their own that memory is reused, where a thread per check would leave the
/// allocator holding a block per thread (300 logins at once grew a server past 1 GiB).
pub struct Hashers {
    jobs: std::sync::mpsc::Sender<HashJob>,
}

impl Hashers {
    pub fn new(threads: usize) -> Self {
        let (jobs, queue) = std::sync::mpsc::channel::<HashJob>();
        let queue = std::sync::Arc::new(Mutex::new(queue));
        for index in 0..threads.max(1) {
            let queue = std::sync::Arc::clone(&queue);
            std::thread::Builder::new()
                .name(format!("hasher-{index}"))
                .spawn(move || {
                    loop {
                        let job = queue.lock().expect("no panics holding the queue").recv();
                        match job {
                            Ok(job) => job(),
                            Err(_) => break, // the server is gone
                        }
                    }
                })
                .expect("a hasher thread starts");
        }
        Hashers { jobs }
    }

    /// Runs `work` on a hasher thread; None if the hashers are gone.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        self.jobs
            .send(Box::new(move || {
                let _ = answer.send(work());
            }))
            .ok()?;
        answered.await.ok()
    }
}

/// Failed logins are limited per account, not per address: a lab room behind one NAT address
/// logs in at once, while guessing one account's password stops after a few tries.
pub struct LoginLimiter {
    failures: Mutex<HashMap<String, (u32, Instant)>>,
    max_failures: u32,
    window: Duration,
}

impl LoginLimiter {
    pub fn new(max_failures: u32, window: Duration) -> Self {
        LoginLimiter {
            failures: Mutex::new(HashMap::new()),
            max_failures,
            window,
        }
    }

    /// How long the account must wait before trying again, if it must.
    pub fn locked(&self, username: &str) -> Option<Duration> {
        let failures = self.failures.lock().expect("no panics holding the limiter");
        let (count, first) = failures.get(&username.to_lowercase())?;
        let elapsed = first.elapsed();
        (*count >= self.max_failures && elapsed < self.window).then(|| self.window - elapsed)
    }

    pub fn failed(&self, username: &str) {
        let mut failures = self.failures.lock().expect("no panics holding the limiter");
        if failures.len() > 100_000 {
            let window = self.window;
            failures.retain(|_, (_, first)| first.elapsed() < window);
        }
        let entry = failures
            .entry(username.to_lowercase())
            .or_insert((0, Instant::now()));
        if entry.1.elapsed() >= self.window {
            *entry = (0, Instant::now());
        }
        entry.0 += 1;
    }

    pub fn succeeded(&self, username: &str) {
        self.failures
            .lock()
            .expect("no panics holding the limiter")
            .remove(&username.to_lowercase());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let hash = hash_password("correct horse").unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("correct horse ", &hash));
        assert!(!verify_password("", ""));
    }

    #[test]
    fn random_passwords_differ_and_avoid_look_alikes() {
        let a = random_password();
        assert_eq!(a.len(), 14);
        assert_ne!(a, random_password());
        assert!(!a.contains(['0', 'O', 'l', '1', 'I']));
        assert_eq!(random_token().len(), 64);
    }

    #[test]
    fn the_limiter_locks_one_account_after_its_failures() {
        let limiter = LoginLimiter::new(3, Duration::from_secs(60));
        for _ in 0..2 {
            limiter.failed("Ada");
        }
        assert!(limiter.locked("ada").is_none());
        limiter.failed("ada");
        assert!(limiter.locked("ADA").is_some());
        assert!(limiter.locked("grace").is_none());
        limiter.succeeded("ada");
        assert!(limiter.locked("ada").is_none());
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "ab"));
    }
}
