//! Passwords (argon2id) and the threads that check them, and session and CSRF tokens.

use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use nimlab_core::error::{Error, Result};
use rand::Rng;
use sha2::{Digest, Sha256};
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

/// Password checks waiting in each lane at most, over all clients: a lab room logging in at
/// once fits many times over, while a flood is refused instead of queued without end.
pub const HASH_QUEUE: usize = 4096;
/// Checks waiting in each lane for one network address at most: a room of 300 behind one
/// address fits, and one address cannot take the whole queue.
pub const ADDRESS_QUEUE: usize = 512;

/// Why [`Hashers::run`] did not run a job.
#[derive(Debug, PartialEq, Eq)]
pub enum HashRefused {
    /// As many checks as [`HASH_QUEUE`] allows are waiting already.
    Busy,
    /// As many checks as [`ADDRESS_QUEUE`] allows are waiting for this client's address.
    Crowded,
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

/// Whom a check is for, so that the hashers share their time fairly: between network
/// addresses first, then between the accounts named from one address.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Share {
    /// The client's network (see [`crate::http::throttle::network`]); None when unknown.
    pub address: Option<std::net::IpAddr>,
    pub account: String,
}

/// A job in a lane: work for a hasher, or a stand-in that only takes its turn (see
/// [`Hashers::take_turn`]).
enum Job {
    Work(HashJob),
    Turn(tokio::sync::oneshot::Sender<()>),
}

/// Round robin over keys, each with its own queue: the next item comes from the key after
/// the last one served, so a key with many items waiting takes no more turns than one with
/// a single item.
struct RoundRobin<K, T> {
    turns: std::collections::VecDeque<K>,
    queues: std::collections::HashMap<K, T>,
}

impl<K, T> Default for RoundRobin<K, T> {
    fn default() -> Self {
        RoundRobin {
            turns: Default::default(),
            queues: Default::default(),
        }
    }
}

impl<K: Clone + Eq + std::hash::Hash, T: Default> RoundRobin<K, T> {
    /// The queue of `key`, made (and given the last turn) if it had none.
    fn entry(&mut self, key: &K) -> &mut T {
        if !self.queues.contains_key(key) {
            self.turns.push_back(key.clone());
        }
        self.queues.entry(key.clone()).or_default()
    }

    fn get(&self, key: &K) -> Option<&T> {
        self.queues.get(key)
    }

    /// Takes an item from the queue whose turn it is; `take` says whether that queue is empty
    /// after it (then it leaves the rotation) along with the item.
    fn next<R>(&mut self, take: impl FnOnce(&mut T) -> (R, bool)) -> Option<R> {
        let key = self.turns.pop_front()?;
        let queue = self.queues.get_mut(&key).expect("every turn has its queue");
        let (item, empty) = take(queue);
        if empty {
            self.queues.remove(&key);
        } else {
            self.turns.push_back(key);
        }
        Some(item)
    }
}

/// One address's waiting jobs, per account.
#[derive(Default)]
struct AddressJobs {
    accounts: RoundRobin<String, std::collections::VecDeque<Job>>,
    len: usize,
}

/// One lane: its jobs per address, in turn.
#[derive(Default)]
struct LaneJobs {
    addresses: RoundRobin<Option<std::net::IpAddr>, AddressJobs>,
    len: usize,
}

impl LaneJobs {
    fn push(&mut self, limits: Limits, share: &Share, job: Job) -> Result<(), HashRefused> {
        if self.len >= limits.lane {
            return Err(HashRefused::Busy);
        }
        let address = self.addresses.get(&share.address).map_or(0, |a| a.len);
        if address >= limits.address {
            return Err(HashRefused::Crowded);
        }
        let jobs = self.addresses.entry(&share.address);
        jobs.accounts.entry(&share.account).push_back(job);
        jobs.len += 1;
        self.len += 1;
        Ok(())
    }

    fn pop(&mut self) -> Option<Job> {
        let job = self.addresses.next(|jobs| {
            let job = jobs.accounts.next(|queue| {
                let job = queue.pop_front().expect("queues in turn are not empty");
                (job, queue.is_empty())
            });
            jobs.len -= 1;
            (job.expect("addresses in turn have jobs"), jobs.len == 0)
        })?;
        self.len -= 1;
        Some(job)
    }
}

/// Jobs waiting in a lane at most, and for one address in a lane.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub lane: usize,
    pub address: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            lane: HASH_QUEUE,
            address: ADDRESS_QUEUE,
        }
    }
}

#[derive(Default)]
struct Lanes {
    known: LaneJobs,
    other: LaneJobs,
    limits: Limits,
    closed: bool,
}

type SharedLanes = Arc<(Mutex<Lanes>, Condvar)>;

/// Recent checks' times kept to draw from (see [`Hashers::take_turn`]).
const RECENT_CHECKS: usize = 32;

/// A few long-lived threads that check passwords. Argon2 needs 19 MiB per check, on purpose;
/// on threads of their own that memory is reused, where a thread per check would leave the
/// allocator holding a block per thread (300 logins at once grew a server past 1 GiB).
///
/// Checks wait in two lanes (known devices first); in each, the threads take them in turn
/// between network addresses, and from one address in turn between the accounts named, so a
/// flood from one address or against some accounts delays others by a turn at most.
pub struct Hashers {
    lanes: SharedLanes,
    times: Arc<CheckTimes>,
}

/// How long password checks took lately (the last [`RECENT_CHECKS`]), and how long
/// recording a failure took after one.
#[derive(Default)]
pub struct CheckTimes {
    checks: Recent,
    failures: Recent,
}

impl CheckTimes {
    /// Whether `password` matches `hash` (as [`verify_password`]), the check's time kept.
    pub fn verify(&self, password: &str, hash: &str) -> bool {
        let started = Instant::now();
        let right = verify_password(password, hash);
        self.checks.record(started.elapsed());
        right
    }

    /// Runs `record` (a failure written after a check), its time kept.
    pub fn failure<T>(&self, record: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let recorded = record();
        self.failures.record(started.elapsed());
        recorded
    }

    /// What a failed check takes, drawn from recent ones: a check's time and a failure's.
    fn drawn(&self) -> Duration {
        self.checks.drawn() + self.failures.drawn()
    }
}

/// Recent times, the last [`RECENT_CHECKS`].
#[derive(Default)]
struct Recent(Mutex<std::collections::VecDeque<Duration>>);

impl Recent {
    fn record(&self, took: Duration) {
        let mut recent = self.0.lock().expect("no panics holding the times");
        if recent.len() == RECENT_CHECKS {
            recent.pop_front();
        }
        recent.push_back(took);
    }

    /// One of them, drawn at random.
    fn drawn(&self) -> Duration {
        let recent = self.0.lock().expect("no panics holding the times");
        if recent.is_empty() {
            return Duration::ZERO;
        }
        recent[rand::RngExt::random_range(&mut rand::rng(), 0..recent.len())]
    }
}

impl Hashers {
    pub fn new(threads: usize, limits: Limits) -> Self {
        let lanes: SharedLanes = Arc::default();
        lanes.0.lock().expect("not shared yet").limits = limits;
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
            times: Arc::default(),
        }
    }

    fn push(&self, lane: Lane, share: &Share, job: Job) -> Result<(), HashRefused> {
        let (lanes, wake) = &*self.lanes;
        let mut lanes = lanes.lock().expect("no panics holding the lanes");
        if lanes.closed {
            return Err(HashRefused::Gone);
        }
        let limits = lanes.limits;
        match lane {
            Lane::Known => lanes.known.push(limits, share, job)?,
            Lane::Other => lanes.other.push(limits, share, job)?,
        }
        wake.notify_one();
        Ok(())
    }

    /// The times of checks made through [`CheckTimes::verify`], which
    /// [`Hashers::take_turn`] draws from.
    pub fn times(&self) -> Arc<CheckTimes> {
        Arc::clone(&self.times)
    }

    /// Runs `work` on a hasher thread in its lane and turn, unless the lane (or its share for
    /// `share`'s address) is full. Once sent, `work` runs to its end even if the caller stops
    /// waiting.
    pub async fn run<T: Send + 'static>(
        &self,
        lane: Lane,
        share: &Share,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, HashRefused> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: HashJob = Box::new(move || {
            let _ = answer.send(work());
        });
        self.push(lane, share, Job::Work(job))?;
        answered.await.map_err(|_| HashRefused::Gone)
    }

    /// Waits for the turn a check for `share` would have in `lane`, then runs `after_turn` (its
    /// failure recorded) and waits until as long as a recent failed check took has passed
    /// since the turn (a check's time and a failure's, each drawn at random from the last
    /// few), without spending a hasher's time. A login for an account that does not exist
    /// goes through this, so that it is answered when a wrong password would be, under load
    /// too, while a flood of made-up names costs no checks.
    pub async fn take_turn<R>(
        &self,
        lane: Lane,
        share: &Share,
        after_turn: impl Future<Output = R>,
    ) -> Result<R, HashRefused> {
        let (turn, taken) = tokio::sync::oneshot::channel();
        self.push(lane, share, Job::Turn(turn))?;
        taken.await.map_err(|_| HashRefused::Gone)?;
        let started = Instant::now();
        let took = self.times.drawn();
        let outcome = after_turn.await;
        tokio::time::sleep(took.saturating_sub(started.elapsed())).await;
        Ok(outcome)
    }

    /// Times a few checks, so that [`Hashers::take_turn`] is right from the first login
    /// (blocking).
    pub fn calibrate(&self) {
        verify_nobody(""); // makes the stand-in hash, which a real check does not do
        for _ in 0..3 {
            let started = Instant::now();
            verify_nobody("");
            self.times.checks.record(started.elapsed());
        }
    }
}

/// The next job, known devices' first; `None` once the hashers are closed. A stand-in's
/// turn is given here and the thread goes on to the next job.
fn next_job(lanes: &SharedLanes) -> Option<HashJob> {
    let (lanes, wake) = &**lanes;
    let mut lanes = lanes.lock().expect("no panics holding the lanes");
    loop {
        match lanes.known.pop().or_else(|| lanes.other.pop()) {
            Some(Job::Work(job)) => return Some(job),
            Some(Job::Turn(turn)) => {
                let _ = turn.send(());
                continue;
            }
            None => {}
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

    fn share(address: &str, account: &str) -> Share {
        Share {
            address: Some(address.parse().unwrap()),
            account: account.into(),
        }
    }

    #[test]
    fn the_hashing_queue_refuses_past_its_limits() {
        let mut lane = LaneJobs::default();
        let limits = Limits {
            lane: 3,
            address: 2,
        };
        let work = || Job::Work(Box::new(|| ()));
        lane.push(limits, &share("10.0.0.1", "a"), work()).unwrap();
        lane.push(limits, &share("10.0.0.1", "b"), work()).unwrap();
        let crowded = lane.push(limits, &share("10.0.0.1", "c"), work());
        assert_eq!(crowded.unwrap_err(), HashRefused::Crowded);
        lane.push(limits, &share("10.0.0.2", "c"), work()).unwrap();
        let busy = lane.push(limits, &share("10.0.0.3", "d"), work());
        assert_eq!(busy.unwrap_err(), HashRefused::Busy);
        // Room again once one is taken.
        assert!(lane.pop().is_some());
        lane.push(limits, &share("10.0.0.3", "d"), work()).unwrap();
    }

    #[test]
    fn jobs_are_taken_in_turn_between_addresses_then_between_accounts() {
        let mut lane = LaneJobs::default();
        let limits = Limits::default();
        let (sent, taken) = std::sync::mpsc::channel();
        let mut push = |address: &str, account: &str, label: &'static str| {
            let sent = sent.clone();
            let job = Job::Work(Box::new(move || sent.send(label).unwrap()));
            lane.push(limits, &share(address, account), job).unwrap();
        };
        // A flood from one address against two accounts, then a student there and one at
        // another address.
        for _ in 0..3 {
            push("10.0.0.1", "victim", "flood-v");
        }
        push("10.0.0.1", "other", "flood-o");
        push("10.0.0.1", "student", "student");
        push("10.0.0.2", "elsewhere", "elsewhere");
        let mut order = Vec::new();
        while let Some(job) = lane.pop() {
            let Job::Work(job) = job else { unreachable!() };
            job();
            order.push(taken.recv().unwrap());
        }
        assert_eq!(
            order,
            [
                "flood-v",
                "elsewhere",
                "flood-o",
                "student",
                "flood-v",
                "flood-v"
            ]
        );
    }

    #[test]
    fn a_stand_in_takes_its_turn_without_a_hasher_and_waits_as_long_as_a_check() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        runtime.block_on(async {
            let hashers = Hashers::new(1, Limits::default());
            hashers.times.checks.record(Duration::from_millis(200));
            let (release, hold) = std::sync::mpsc::channel::<()>();
            let someone = share("10.0.0.1", "a");
            // The only hasher is busy: the stand-in waits for its turn.
            let busy = hashers.run(Lane::Other, &someone, move || {
                let _ = hold.recv();
            });
            let started = Instant::now();
            let stranger = share("10.0.0.2", "b");
            let stand_in = hashers.take_turn(Lane::Other, &stranger, async {});
            let (busy, stand_in, released_at) = tokio::join!(busy, stand_in, async {
                tokio::time::sleep(Duration::from_millis(100)).await;
                release.send(()).unwrap();
                started.elapsed()
            });
            assert!(busy.is_ok() && stand_in.is_ok());
            let took = started.elapsed();
            assert!(took >= released_at + Duration::from_millis(190), "{took:?}");
            // It held no hasher: a check right after it starts at once.
            let quick = Instant::now();
            hashers.run(Lane::Known, &someone, || ()).await.unwrap();
            assert!(quick.elapsed() < Duration::from_millis(100));
        });
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "ab"));
    }
}
