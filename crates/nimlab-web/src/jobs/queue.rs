//! The judging workers: threads that take jobs from the queue in the database (see
//! [`judging::claim`] for the order) and run the same check `nimlab check` runs. A result the
//! database cannot take (a full disk) is kept and tried again, never dropped: see
//! [`Workers::keep`].

use crate::access_log::log;
use crate::jobs::cluster::Presence;
use crate::jobs::signal::Signal;
use crate::store::db::Db;
use crate::store::judging;
use crate::store::judging::{Job, Outcome};
use nimlab_core::check::{self, CheckRequest};
use nimlab_core::error::{Error, Result};
use nimlab_core::lab::Lab;
use nimlab_core::report::{CheckReport, Silent};
use nimlab_core::runner::Runner;
use nimlab_core::stop::Stop;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

/// Judges one uploaded file as `nimlab check` would: written alone (no siblings) as
/// `<exercise>.py` into a private folder, checked under the exercise's interpreters. The
/// report names the file as the student uploaded it, and tracebacks show its bare name.
pub fn check_submission(
    lab: &Lab,
    runner: &dyn Runner,
    exercise: &str,
    filename: &str,
    source: &[u8],
    jobs: usize,
    stop: &Stop,
) -> Result<CheckReport> {
    let exercise = lab.exercise(exercise)?;
    // Named like `check`'s scratch folders, so the next nimlab removes one a kill left.
    let folder = tempfile::Builder::new()
        .prefix(&format!("nimlab-{}-serve-", std::process::id()))
        .tempdir()
        .map_err(|e| Error::internal("cannot create a folder for a submission", e))?;
    let file = folder.path().join(format!("{}.py", exercise.name));
    std::fs::write(&file, source).map_err(|e| Error::unwritable(&file, e))?;
    let names = lab.names();
    let request = CheckRequest {
        exercise,
        lab_names: &names,
        lab_exercises: &lab.exercises,
        submission: &file,
        shown_as: Some(filename),
        interpreters: &exercise.config.interpreters,
        jobs,
        siblings: false,
        shared: None,
        runs_side_by_side: false,
        stop,
    };
    check::check(&request, runner, &mut Silent)
}

pub struct Workers {
    pub lab: Arc<Lab>,
    pub db: Arc<Db>,
    /// This process on the database: the lease it claims jobs with, whether it may.
    pub presence: Arc<Presence>,
    pub runner: Arc<dyn Runner + Send>,
    pub signal: Arc<Signal>,
    /// Cases each check runs at once.
    pub case_jobs: usize,
    /// Told of every result stored: a score sent to an LMS may have changed.
    pub results: Arc<tokio::sync::Notify>,
}

impl Workers {
    /// Starts `count` worker threads; they run until [`Signal::stop`].
    pub fn spawn(self: &Arc<Self>, count: usize) -> Vec<std::thread::JoinHandle<()>> {
        (0..count)
            .map(|index| {
                let workers = Arc::clone(self);
                std::thread::Builder::new()
                    .name(format!("judge-{index}"))
                    .spawn(move || workers.work())
                    .expect("a worker thread starts")
            })
            .collect()
    }

    fn work(&self) {
        let poll = self.presence.poll();
        while !self.signal.stopping() {
            let seen = self.signal.generation();
            if self.presence.refusing().is_some() {
                // Said once by the keeper, which wakes the workers when that changes.
                self.signal.wait(seen, poll);
                continue;
            }
            match self.db.with(|c| judging::claim(c, &self.presence.claimant)) {
                Ok(Some(job)) => self.run(job),
                Ok(None) => self.signal.wait(seen, poll),
                Err(e) => {
                    log(format!("cannot take a job from the queue: {e}"));
                    self.signal.wait(seen, Duration::from_secs(2));
                }
            }
        }
    }

    fn run(&self, job: Job) {
        let judged = check_submission(
            &self.lab,
            self.runner.as_ref(),
            &job.exercise,
            &job.filename,
            &job.source,
            self.case_jobs,
            &self.signal.interrupt,
        );
        if self.signal.stopping() {
            // Cut short by the shutdown: given back to the queue as the process leaves (see
            // `Presence::leave`), or by its lease if the process dies first.
            return;
        }
        let outcome = match judged {
            Ok(report) => match serde_json::to_string(&report) {
                Ok(text) => Outcome::Judged {
                    verdict: verdict_name(&report),
                    score: report.score,
                    max_score: report.max_score,
                    report: text,
                },
                Err(e) => Outcome::Failed(format!("cannot serialize the report: {e}")),
            },
            Err(e) => {
                log(format!("submission {} not judged: {e}", job.id));
                Outcome::Failed(e.to_string())
            }
        };
        self.keep(job, &outcome);
        self.results.notify_one();
    }

    /// Stores a job's result, trying again after 1, 2, 4 and 8 s while the database cannot
    /// be written (a full disk); then marks the submission failed instead, so that it does
    /// not stay `running` as if still being judged. If even that cannot be written, a thread
    /// keeps trying, waiting at most a minute between tries, until it is stored or the server
    /// stops (then the job is still `running`, and the next start queues it again).
    fn keep(&self, job: Job, outcome: &Outcome) {
        let unit = FAULTS.unit;
        let waits = (0..STORE_TRIES - 1).map(|i| unit * (1 << i));
        let Err(error) = store(&self.db, &self.signal, &job, outcome, waits) else {
            return;
        };
        let failed = Outcome::Failed(format!(
            "nimlab judged this submission but could not store its result ({error}); judge it again once the server's database can be written"
        ));
        if store(&self.db, &self.signal, &job, &failed, []).is_ok() || self.signal.stopping() {
            return;
        }
        let (db, signal) = (Arc::clone(&self.db), Arc::clone(&self.signal));
        let id = job.id;
        let waits = std::iter::successors(Some(unit * (1 << (STORE_TRIES - 1))), move |wait| {
            Some((*wait * 2).min(unit * LONGEST_WAIT))
        });
        let spawned = std::thread::Builder::new()
            .name(format!("store-{id}"))
            .spawn(move || {
                let _ = store(&db, &signal, &job, &failed, waits);
            });
        if let Err(e) = spawned {
            log(format!(
                "submission {id} stays `running` until the next start: cannot start a thread to store its result: {e}"
            ));
        }
    }
}

/// Tries at storing a result before the submission is marked failed instead.
const STORE_TRIES: u32 = 5;
/// The longest wait between tries at marking it failed, in [`Faults::unit`]s (a minute).
const LONGEST_WAIT: u32 = 60;

/// Stores `outcome`, trying again after each of `waits` (each failure logged in one line);
/// the last error if it could not. Gives up early when the server stops.
fn store(
    db: &Db,
    signal: &Signal,
    job: &Job,
    outcome: &Outcome,
    waits: impl IntoIterator<Item = Duration>,
) -> Result<()> {
    let mut waits = waits.into_iter();
    loop {
        let stored = db.with(|c| {
            if FAULTS.store_fails() {
                return Err(rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_FULL),
                    Some("injected for a test by NIMLAB_FAULT_STORE_FAILURES".into()),
                )
                .into());
            }
            judging::finish(c, job, outcome)
        });
        let error = match stored {
            Ok(true) => return Ok(()),
            Ok(false) => {
                log(format!(
                    "the result of submission {} is discarded: it was queued again while this judge worked on it (an instructor's rejudge, or this judge's lease ran out and another judge took it)",
                    job.id
                ));
                return Ok(());
            }
            Err(error) => error,
        };
        let what = match outcome {
            Outcome::Judged { .. } => "the result",
            Outcome::Failed(_) => "the failure",
        };
        match waits.next() {
            Some(wait) if !signal.stopping() => {
                log(format!(
                    "cannot store {what} of submission {} (trying again in {} ms): {error}",
                    job.id,
                    wait.as_millis()
                ));
                signal.pause(wait);
            }
            _ => {
                log(format!(
                    "cannot store {what} of submission {}: {error}",
                    job.id
                ));
                return Err(error);
            }
        }
    }
}

/// Test-only fault injection, read once from the environment when first needed and not
/// meant for users: `NIMLAB_FAULT_STORE_FAILURES=N` makes the first N tries at storing a
/// result fail as on a full disk, and `NIMLAB_FAULT_BACKOFF_MS` replaces the second that the
/// waits between tries are counted in. A real fault (`RLIMIT_FSIZE`) would not do: SQLite
/// reports a file grown past it as a file that cannot be written at all (which stops the
/// server), and it limits every file the server writes, the submissions' own included.
struct Faults {
    store_failures: AtomicU64,
    unit: Duration,
}

impl Faults {
    fn from_env() -> Faults {
        let number = |name: &str| {
            std::env::var(name)
                .ok()
                .and_then(|value| value.parse::<u64>().ok())
        };
        Faults {
            store_failures: AtomicU64::new(number("NIMLAB_FAULT_STORE_FAILURES").unwrap_or(0)),
            unit: Duration::from_millis(number("NIMLAB_FAULT_BACKOFF_MS").unwrap_or(1000)),
        }
    }

    /// Whether this try at storing a result is to fail.
    fn store_fails(&self) -> bool {
        self.store_failures
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
    }
}

static FAULTS: LazyLock<Faults> = LazyLock::new(Faults::from_env);

/// The verdict as `--format json` names it (`wrong_answer`).
pub fn verdict_name(report: &CheckReport) -> String {
    serde_json::to_value(report.verdict)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}
