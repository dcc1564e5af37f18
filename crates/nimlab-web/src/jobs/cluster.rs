//! The processes that serve and judge on one database. On PostgreSQL there may be several,
//! on one machine or many: web processes, judge processes (`serve --no-web`), or both. Each
//! one keeps a row in `processes` (the queue page lists them), and each one that judges:
//! renews the leases of the jobs it holds, queues again those whose judge stopped renewing
//! theirs, takes jobs only while its lab is the one the website serves, and wakes on
//! PostgreSQL's NOTIFY rather than by asking the queue again and again.
//!
//! Each process is named `HOST:PID:NONCE` ([`unique_name`]), unique even among containers
//! that share a host name and process id, and every lease is measured by the database's
//! clock ([`judging::clock_ms`]), not by each machine's, so a machine whose clock is off neither
//! keeps a dead judge's job nor takes a live one's.
//!
//! On an SQLite file the one server does all of it alone; a lease there only matters if
//! the server's own keeper stalls.

use crate::access_log::log;
use crate::jobs::signal::Signal;
use crate::store::db::Db;
use crate::store::judging;
use crate::store::judging::Claimant;
use crate::store::processes;
use crate::store::processes::Process;
use crate::store::site;
use crate::store::site::SiteLab;
use nimlab_core::lab::Lab;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a process does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Serves pages, judges nothing (`--workers 0`).
    Web,
    /// Judges, serves no pages (`--no-web`).
    Judge,
    Both,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Web => "web",
            Kind::Judge => "judge",
            Kind::Both => "both",
        }
    }

    fn serves(self) -> bool {
        self != Kind::Judge
    }

    fn judges(self) -> bool {
        self != Kind::Web
    }
}

/// This process on the database: its name, its lease, and whether it takes jobs.
pub struct Presence {
    pub db: Arc<Db>,
    pub claimant: Claimant,
    kind: Kind,
    workers: usize,
    lab: String,
    digest: String,
    /// Why this process takes no jobs, while it does not.
    refusing: Mutex<Option<String>>,
    signal: Arc<Signal>,
}

/// How long a claimed job stays leased without a renewal, unless `--lease` says otherwise.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);

impl Presence {
    /// Registers this process; a web process also says which lab the website now serves.
    /// Blocking: call it off the async threads.
    pub fn start(
        db: Arc<Db>,
        lab: &Lab,
        kind: Kind,
        workers: usize,
        lease: Duration,
        signal: Arc<Signal>,
    ) -> nimlab_core::error::Result<Arc<Presence>> {
        let name = unique_name();
        let presence = Presence {
            db,
            claimant: Claimant {
                judge: name.clone(),
                lease,
            },
            kind,
            workers,
            lab: lab.origin.to_string(),
            digest: lab.digest.clone(),
            refusing: Mutex::new(None),
            signal,
        };
        if kind.serves() {
            let site = SiteLab {
                digest: presence.digest.clone(),
                lab: presence.lab.clone(),
                nimlab: env!("CARGO_PKG_VERSION").to_string(),
                by: name,
            };
            presence.db.with(|c| site::set_site_lab(c, &site))?;
        }
        let refusing = presence.db.with(|c| presence.check_site(c))?;
        presence
            .db
            .with(|c| processes::register(c, &presence.row(refusing.clone())))?;
        presence.set_refusing(refusing);
        Ok(Arc::new(presence))
    }

    pub fn signal(&self) -> &Arc<Signal> {
        &self.signal
    }

    pub fn name(&self) -> &str {
        &self.claimant.judge
    }

    fn row(&self, refusing: Option<String>) -> Process {
        // The database sets both by its clock as it registers the row.
        let now = 0;
        Process {
            name: self.name().to_string(),
            kind: self.kind.as_str().to_string(),
            workers: self.workers as i64,
            lab: self.lab.clone(),
            lab_digest: self.digest.clone(),
            started_at: now,
            seen_at: now,
            refusing,
        }
    }

    /// Why this process takes no jobs, if it does not.
    pub fn refusing(&self) -> Option<String> {
        self.refusing
            .lock()
            .expect("no panics holding the refusal")
            .clone()
    }

    /// Whether workers wait for a NOTIFY (PostgreSQL) rather than ask the queue every 2 s.
    pub fn poll(&self) -> Duration {
        match self.db.dialect() {
            crate::store::sql::Dialect::Sqlite => Duration::from_secs(2),
            // NOTIFY wakes the workers; this only covers a notification lost with its
            // connection, until the listener's next connection wakes them all.
            crate::store::sql::Dialect::Postgres => Duration::from_secs(30),
        }
    }

    /// Why a judging process must not take jobs: its lab is not the website's.
    fn check_site(
        &self,
        c: &mut crate::store::sql::Conn,
    ) -> crate::store::sql::SqlResult<Option<String>> {
        if !self.kind.judges() {
            return Ok(None);
        }
        let ours = format!(
            "{}, nimlab {}, lab digest {}",
            self.lab,
            env!("CARGO_PKG_VERSION"),
            short(&self.digest)
        );
        Ok(match site::site_lab(c)? {
            None => Some(format!(
                "no web process has started on this database yet, so the lab the website serves is not known (this judge has {ours})"
            )),
            Some(site) if site.digest == self.digest => None,
            Some(site) => Some(format!(
                "this judge's lab ({ours}) is not the one the website serves ({}, nimlab {}, lab digest {}, started by {}); start the judge with the web processes' --lab folder and nimlab version",
                site.lab,
                site.nimlab,
                short(&site.digest),
                site.by
            )),
        })
    }

    /// Records whether this process takes jobs, saying so when that changes.
    fn set_refusing(&self, refusing: Option<String>) {
        let mut current = self.refusing.lock().expect("no panics holding the refusal");
        if *current == refusing {
            return;
        }
        match &refusing {
            Some(why) => log(format!("{} refuses jobs: {why}", self.name())),
            None => log(format!(
                "{} takes jobs: its lab is the one the website serves",
                self.name()
            )),
        }
        let woken = current.is_some() && refusing.is_none();
        *current = refusing;
        drop(current);
        if woken {
            self.signal.notify();
        }
    }

    /// Starts the threads that keep this process's row and leases, and on PostgreSQL the
    /// one that listens for work. They end with [`Signal::stop`].
    pub fn spawn(
        self: &Arc<Self>,
        results: Arc<tokio::sync::Notify>,
    ) -> Vec<std::thread::JoinHandle<()>> {
        let mut threads = Vec::new();
        let keeper = Arc::clone(self);
        threads.push(
            std::thread::Builder::new()
                .name("keeper".into())
                .spawn(move || keeper.keep())
                .expect("a thread starts"),
        );
        if self.db.dialect() == crate::store::sql::Dialect::Postgres {
            let listener = Arc::clone(self);
            threads.push(
                std::thread::Builder::new()
                    .name("listener".into())
                    .spawn(move || listener.listen(&results))
                    .expect("a thread starts"),
            );
        }
        threads
    }

    /// How often the keeper runs: four times a lease, so a renewal missed once (a slow
    /// database) does not lose one; at most every 10 s, for the queue page's list.
    fn tick(&self) -> Duration {
        (self.claimant.lease / 4).clamp(Duration::from_millis(250), Duration::from_secs(10))
    }

    fn keep(&self) {
        while !self.signal.stopping() {
            if let Err(e) = self.db.with(|c| self.keep_once(c)) {
                log(format!("cannot renew this process's leases and row: {e}"));
            }
            self.signal.pause(self.tick());
        }
    }

    fn keep_once(&self, c: &mut crate::store::sql::Conn) -> crate::store::sql::SqlResult<()> {
        if self.kind.judges() {
            judging::renew(c, &self.claimant)?;
        }
        let expired = judging::expire(c)?;
        if expired.queued > 0 {
            log(format!(
                "{} submission(s) whose judge stopped renewing its lease (killed, frozen or its machine lost) are queued again",
                expired.queued
            ));
            self.signal.notify();
        }
        if expired.failed > 0 {
            log(format!(
                "{} submission(s) marked failed: their judges stopped {} times while judging them",
                expired.failed,
                judging::LEASES_LOST_AT_MOST
            ));
        }
        let refusing = self.check_site(c)?;
        if !processes::heartbeat(c, self.name(), refusing.as_deref())? {
            processes::register(c, &self.row(refusing.clone()))?;
        }
        self.set_refusing(refusing);
        Ok(())
    }

    /// Wakes the workers on a NOTIFY of new work, and the LMS outbox on one of a stored
    /// result; connects again after a lost connection, waking both then (what was sent
    /// meanwhile is lost).
    fn listen(&self, results: &tokio::sync::Notify) {
        let mut wait = Duration::from_secs(1);
        while !self.signal.stopping() {
            match self.listen_once(results) {
                Ok(()) => return,
                Err(e) => {
                    log(format!(
                        "lost the connection that waits for new submissions (trying again in {} s): {e}",
                        wait.as_secs()
                    ));
                    self.signal.pause(wait);
                    wait = (wait * 2).min(Duration::from_secs(30));
                }
            }
        }
    }

    /// Listens until the process stops (Ok) or the connection fails.
    fn listen_once(&self, results: &tokio::sync::Notify) -> nimlab_core::error::Result<()> {
        use postgres::fallible_iterator::FallibleIterator;
        let Some(mut client) = self.db.postgres_client()? else {
            return Ok(());
        };
        let failed = |e: postgres::Error| {
            nimlab_core::error::Error::internal(
                format!("{}: LISTEN", self.db.shown()),
                std::io::Error::other(e),
            )
        };
        client
            .batch_execute(&format!(
                "LISTEN {}; LISTEN {}",
                judging::QUEUE_CHANNEL,
                judging::RESULTS_CHANNEL
            ))
            .map_err(failed)?;
        self.signal.notify();
        results.notify_one();
        while !self.signal.stopping() {
            let mut notifications = client.notifications();
            let mut waiting = notifications.timeout_iter(Duration::from_secs(1));
            while let Some(notification) = waiting.next().map_err(failed)? {
                if notification.channel() == judging::QUEUE_CHANNEL {
                    self.signal.notify();
                } else {
                    results.notify_one();
                }
            }
        }
        Ok(())
    }

    /// A clean stop: the jobs this process holds go back to the queue at once (for another
    /// process, or this one's next start) and its row goes.
    pub fn leave(&self) {
        let released = self.db.with(|c| {
            let released = if self.kind.judges() {
                judging::release(c, self.name())?
            } else {
                0
            };
            processes::unregister(c, self.name())?;
            Ok(released)
        });
        match released {
            Ok(0) => {}
            Ok(count) => log(format!(
                "{count} submission(s) this process was judging are queued again"
            )),
            Err(e) => log(format!(
                "cannot give back the submissions this process was judging (they are queued again when their lease runs out): {e}"
            )),
        }
    }
}

/// This process's name as its jobs, its row and the queue page show it: `HOST:PID:NONCE`,
/// the machine's name, the process id and 8 random hex digits. Host and id alone are not
/// unique: two containers named alike each run nimlab as process 1, and a judge whose
/// name were another's would renew that one's leases, and give its jobs back, as its own.
fn unique_name() -> String {
    let nonce = crate::auth::random_token();
    format!("{}:{}", processes::host_and_pid(), &nonce[..8])
}

/// A digest as messages show it: its first 12 hex digits.
fn short(digest: &str) -> &str {
    digest.get(..12).unwrap_or(digest)
}
