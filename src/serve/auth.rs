//! Passwords (argon2id), session and CSRF tokens, and the per-account limit on failed logins.

use crate::error::{Error, Result};
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use rand::Rng;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
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

/// Password checks waiting or under way at most: a lab room logging in at once fits many
/// times over, while a flood of logins is refused instead of queued without end.
pub const HASH_QUEUE: usize = 1024;

/// Why [`Hashers::run`] did not run a job.
#[derive(Debug, PartialEq, Eq)]
pub enum HashRefused {
    /// As many checks as [`HASH_QUEUE`] allows are waiting already.
    Busy,
    /// The hasher threads are gone (the server is stopping).
    Gone,
}

/// A few long-lived threads that check passwords. Argon2 needs 19 MiB per check, on purpose;
/// on threads of their own that memory is reused, where a thread per check would leave the
/// allocator holding a block per thread (300 logins at once grew a server past 1 GiB).
pub struct Hashers {
    jobs: std::sync::mpsc::Sender<HashJob>,
    /// Jobs sent and not finished.
    pending: Arc<AtomicUsize>,
    capacity: usize,
}

impl Hashers {
    pub fn new(threads: usize, capacity: usize) -> Self {
        let (jobs, queue) = std::sync::mpsc::channel::<HashJob>();
        let queue = Arc::new(Mutex::new(queue));
        for index in 0..threads.max(1) {
            let queue = Arc::clone(&queue);
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
        Hashers {
            jobs,
            pending: Arc::new(AtomicUsize::new(0)),
            capacity: capacity.max(1),
        }
    }

    /// Runs `work` on a hasher thread, unless [`HASH_QUEUE`] checks are waiting already.
    /// Once sent, `work` runs to its end even if the caller stops waiting.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, HashRefused> {
        let capacity = self.capacity;
        self.pending
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < capacity).then_some(n + 1)
            })
            .map_err(|_| HashRefused::Busy)?;
        let pending = Arc::clone(&self.pending);
        let (answer, answered) = tokio::sync::oneshot::channel();
        let sent = self.jobs.send(Box::new(move || {
            let _ = answer.send(work());
            pending.fetch_sub(1, Ordering::SeqCst);
        }));
        if sent.is_err() {
            self.pending.fetch_sub(1, Ordering::SeqCst);
            return Err(HashRefused::Gone);
        }
        answered.await.map_err(|_| HashRefused::Gone)
    }
}

/// One account's recent failed logins and the checks of its password under way.
struct Tries {
    failures: u32,
    /// When the first failure of the current window happened.
    first: Instant,
    checking: u32,
}

/// Failed logins are limited per account, not per address: a lab room behind one NAT address
/// logs in at once, while guessing one account's password stops after a few tries.
///
/// A check under way counts against the limit from its start ([`LoginLimiter::try_begin`]),
/// so guesses sent all at once are refused beyond the limit instead of all being checked.
/// Accounts are keyed by the username exactly as typed, as the database matches it
/// (usernames are case-sensitive).
pub struct LoginLimiter {
    accounts: Mutex<HashMap<String, Tries>>,
    max_failures: u32,
    window: Duration,
}

/// Why [`LoginLimiter::try_begin`] refused a login.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The account failed too often: it waits this long.
    Locked(Duration),
    /// The account's remaining tries are all being checked now.
    Busy,
}

impl LoginLimiter {
    pub fn new(max_failures: u32, window: Duration) -> Arc<Self> {
        Arc::new(LoginLimiter {
            accounts: Mutex::new(HashMap::new()),
            max_failures,
            window,
        })
    }

    fn accounts(&self) -> std::sync::MutexGuard<'_, HashMap<String, Tries>> {
        self.accounts.lock().expect("no panics holding the limiter")
    }

    /// Reserves one of the account's tries for a password check about to start. Refused
    /// when the failures in the window and the checks under way reach the limit.
    pub fn try_begin(self: &Arc<Self>, username: &str) -> Result<Attempt, Refusal> {
        let mut accounts = self.accounts();
        if accounts.len() > 100_000 {
            let window = self.window;
            accounts.retain(|_, t| t.checking > 0 || t.first.elapsed() < window);
        }
        let tries = accounts.entry(username.to_string()).or_insert(Tries {
            failures: 0,
            first: Instant::now(),
            checking: 0,
        });
        let elapsed = tries.first.elapsed();
        if elapsed >= self.window {
            tries.failures = 0;
            tries.first = Instant::now();
        }
        if tries.failures >= self.max_failures {
            return Err(Refusal::Locked(self.window.saturating_sub(elapsed)));
        }
        if tries.failures + tries.checking >= self.max_failures {
            return Err(Refusal::Busy);
        }
        tries.checking += 1;
        Ok(Attempt {
            limiter: Arc::clone(self),
            username: username.to_string(),
            settled: false,
        })
    }

    fn settle(&self, username: &str, outcome: Option<bool>) {
        let mut accounts = self.accounts();
        let Some(tries) = accounts.get_mut(username) else {
            return;
        };
        tries.checking = tries.checking.saturating_sub(1);
        match outcome {
            Some(true) => tries.failures = 0,
            Some(false) => {
                if tries.failures == 0 {
                    tries.first = Instant::now();
                }
                tries.failures += 1;
            }
            None => {}
        }
        if tries.failures == 0 && tries.checking == 0 {
            accounts.remove(username);
        }
    }
}

/// A login try reserved by [`LoginLimiter::try_begin`]: settled as a failure or a success,
/// or, dropped unsettled (the check never ran), given back.
pub struct Attempt {
    limiter: Arc<LoginLimiter>,
    username: String,
    settled: bool,
}

impl Attempt {
    pub fn failed(mut self) {
        self.settled = true;
        self.limiter.settle(&self.username, Some(false));
    }

    pub fn succeeded(mut self) {
        self.settled = true;
        self.limiter.settle(&self.username, Some(true));
    }
}

impl Drop for Attempt {
    fn drop(&mut self) {
        if !self.settled {
            self.limiter.settle(&self.username, None);
        }
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
            limiter.try_begin("ada").unwrap().failed();
        }
        limiter.try_begin("ada").unwrap().failed();
        assert!(matches!(limiter.try_begin("ada"), Err(Refusal::Locked(_))));
        // Usernames are case-sensitive: another spelling is another account.
        limiter.try_begin("Ada").unwrap().succeeded();
        limiter.try_begin("grace").unwrap().succeeded();
    }

    #[test]
    fn checks_under_way_count_against_the_limit() {
        let limiter = LoginLimiter::new(3, Duration::from_secs(60));
        let started: Vec<Attempt> = (0..3).map(|_| limiter.try_begin("ada").unwrap()).collect();
        assert_eq!(limiter.try_begin("ada").err(), Some(Refusal::Busy));
        // A check that never ran gives its try back.
        let mut started = started.into_iter();
        drop(started.next());
        let again = limiter.try_begin("ada").unwrap();
        for attempt in started.chain([again]) {
            attempt.failed();
        }
        assert!(matches!(limiter.try_begin("ada"), Err(Refusal::Locked(_))));
    }

    #[test]
    fn a_success_clears_the_failures() {
        let limiter = LoginLimiter::new(2, Duration::from_secs(60));
        limiter.try_begin("ada").unwrap().failed();
        limiter.try_begin("ada").unwrap().succeeded();
        limiter.try_begin("ada").unwrap().failed();
        assert!(limiter.try_begin("ada").is_ok());
        assert!(limiter.accounts().get("grace").is_none());
    }

    #[test]
    fn the_hashing_queue_refuses_past_its_capacity() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let hashers = Hashers::new(1, 2);
            let (release, hold) = std::sync::mpsc::channel::<()>();
            let hold = Arc::new(Mutex::new(hold));
            let blocked = |hold: Arc<Mutex<std::sync::mpsc::Receiver<()>>>| {
                move || {
                    let _ = hold.lock().unwrap().recv();
                }
            };
            let first = hashers.run(blocked(Arc::clone(&hold)));
            let second = hashers.run(blocked(Arc::clone(&hold)));
            let third = hashers.run(|| ());
            let (first, second, third) = tokio::join!(first, second, async {
                let r = third.await;
                release.send(()).unwrap();
                release.send(()).unwrap();
                r
            });
            assert_eq!(third, Err(HashRefused::Busy));
            assert!(first.is_ok() && second.is_ok());
            // Room again once they are done.
            assert_eq!(hashers.run(|| 7).await, Ok(7));
        });
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "ab"));
    }
}
