//! Passwords (argon2id) and the threads that check them, and session and CSRF tokens.

use crate::error::{Error, Result};
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use rand::Rng;
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, LazyLock, Mutex};
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

/// 256 random bits: the key that signs device cookies.
pub fn random_key() -> Vec<u8> {
    random_bytes::<32>().to_vec()
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

/// Bytes as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
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

/// Password checks waiting or under way at most, in each lane: a lab room logging in at
/// once fits many times over, while a flood of logins is refused instead of queued without
/// end.
pub const HASH_QUEUE: usize = 1024;

/// Why [`Hashers::run`] did not run a job.
#[derive(Debug, PartialEq, Eq)]
pub enum HashRefused {
    /// As many checks as [`HASH_QUEUE`] allows are waiting already.
    Busy,
    /// The hasher threads are gone (the server is stopping).
    Gone,
}

/// Which jobs a hasher takes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// Logins from a device that logged in to the account before: they go first, so a
    /// flood of strangers' guesses cannot keep the owner waiting.
    Known,
    Other,
}

#[derive(Default)]
struct Lanes {
    known: std::collections::VecDeque<HashJob>,
    other: std::collections::VecDeque<HashJob>,
    closed: bool,
}

type SharedLanes = Arc<(Mutex<Lanes>, Condvar)>;

/// A few long-lived threads that check passwords. Argon2 needs 19 MiB per check, on purpose;
/// on threads of their own that memory is reused, where a thread per check would leave the
/// allocator holding a block per thread (300 logins at once grew a server past 1 GiB).
pub struct Hashers {
    lanes: SharedLanes,
    /// Jobs sent and not finished, per lane.
    pending: [Arc<AtomicUsize>; 2],
    capacity: usize,
    /// How long a check took lately, in microseconds: what answering an unknown username
    /// takes, without spending a hasher on it.
    typical_micros: Arc<AtomicU64>,
}

impl Hashers {
    pub fn new(threads: usize, capacity: usize) -> Self {
        let lanes: SharedLanes = Arc::default();
        for index in 0..threads.max(1) {
            let lanes = Arc::clone(&lanes);
            std::thread::Builder::new()
                .name(format!("hasher-{index}"))
                .spawn(move || {
                    while let Some(job) = next_job(&lanes) {
                        job();
                    }
                })
                .expect("a hasher thread starts");
        }
        Hashers {
            lanes,
            pending: [Arc::default(), Arc::default()],
            capacity: capacity.max(1),
            typical_micros: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Runs `work` on a hasher thread in its lane, unless [`HASH_QUEUE`] checks are waiting
    /// in that lane already. Once sent, `work` runs to its end even if the caller stops
    /// waiting. Its time counts towards [`Hashers::typical`].
    pub async fn run<T: Send + 'static>(
        &self,
        lane: Lane,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, HashRefused> {
        let capacity = self.capacity;
        let pending = Arc::clone(&self.pending[lane as usize]);
        pending
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < capacity).then_some(n + 1)
            })
            .map_err(|_| HashRefused::Busy)?;
        let (answer, answered) = tokio::sync::oneshot::channel();
        let typical = Arc::clone(&self.typical_micros);
        let job: HashJob = Box::new(move || {
            let started = Instant::now();
            let _ = answer.send(work());
            record_time(&typical, started.elapsed());
            pending.fetch_sub(1, Ordering::SeqCst);
        });
        {
            let (lanes, wake) = &*self.lanes;
            let mut lanes = lanes.lock().expect("no panics holding the lanes");
            match lane {
                Lane::Known => lanes.known.push_back(job),
                Lane::Other => lanes.other.push_back(job),
            }
            wake.notify_one();
        }
        answered.await.map_err(|_| HashRefused::Gone)
    }

    /// How long a password check takes lately.
    pub fn typical(&self) -> Duration {
        Duration::from_micros(self.typical_micros.load(Ordering::Relaxed))
    }

    /// Times one check, so [`Hashers::typical`] is right from the first login (blocking).
    pub fn calibrate(&self) {
        verify_nobody(""); // makes the stand-in hash, which a real check does not do
        let started = Instant::now();
        verify_nobody("");
        record_time(&self.typical_micros, started.elapsed());
    }
}

/// A moving average of check times, so the answer to an unknown username keeps pace with
/// the machine's load.
fn record_time(typical: &AtomicU64, took: Duration) {
    let took = took.as_micros().min(u64::MAX as u128) as u64;
    let _ = typical.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
        Some(if old == 0 { took } else { (old * 7 + took) / 8 })
    });
}

/// The next job, known devices' first; `None` once the hashers are closed.
fn next_job(lanes: &SharedLanes) -> Option<HashJob> {
    let (lanes, wake) = &**lanes;
    let mut lanes = lanes.lock().expect("no panics holding the lanes");
    loop {
        if let Some(job) = lanes.known.pop_front().or_else(|| lanes.other.pop_front()) {
            return Some(job);
        }
        if lanes.closed {
            return None;
        }
        lanes = wake.wait(lanes).expect("no panics holding the lanes");
    }
}

impl Drop for Hashers {
    fn drop(&mut self) {
        let (lanes, wake) = &*self.lanes;
        lanes.lock().expect("no panics holding the lanes").closed = true;
        wake.notify_all();
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
            let first = hashers.run(Lane::Other, blocked(Arc::clone(&hold)));
            let second = hashers.run(Lane::Other, blocked(Arc::clone(&hold)));
            let third = hashers.run(Lane::Other, || ());
            let (first, second, third) = tokio::join!(first, second, async {
                let r = third.await;
                release.send(()).unwrap();
                release.send(()).unwrap();
                r
            });
            assert_eq!(third, Err(HashRefused::Busy));
            assert!(first.is_ok() && second.is_ok());
            // Room again once they are done.
            assert_eq!(hashers.run(Lane::Other, || 7).await, Ok(7));
            // The other lane has room of its own.
            assert_eq!(hashers.run(Lane::Known, || 8).await, Ok(8));
        });
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "ab"));
    }
}
