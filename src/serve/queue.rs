//! The judging workers: threads that take jobs from the queue in the database (see
//! [`db::claim`] for the order) and run the same check `nimlab check` runs.

use super::db::{self, Db, Job, Outcome};
use crate::check::{self, CheckRequest};
use crate::error::{Error, Result};
use crate::lab::Lab;
use crate::report::{CheckReport, Silent};
use crate::runner::Runner;
use crate::stop::Stop;
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Judges one uploaded file as `nimlab check` would: written alone (no siblings) as
/// `<exercise>.py` into a private folder, checked under the exercise's interpreters. The
/// report names the file as the student uploaded it, and tracebacks show its bare name.
pub fn judge(
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
        submission: &file,
        interpreters: &exercise.config.interpreters,
        jobs,
        siblings: false,
        shared: None,
        stop,
    };
    let report = check::check(&request, runner, &mut Silent)?;
    let mut report = without_folder(report, folder.path())?;
    report.submission = filename.to_string();
    Ok(report)
}

/// The report with the private folder's path taken out of every message and traceback.
fn without_folder(report: CheckReport, folder: &Path) -> Result<CheckReport> {
    let prefix = format!("{}/", folder.display());
    let text = serde_json::to_string(&report).map_err(json_error)?;
    // The folder's name is letters, digits, `-` and `/`: written the same inside JSON.
    serde_json::from_str(&text.replace(&prefix, "")).map_err(json_error)
}

fn json_error(e: serde_json::Error) -> Error {
    Error::internal("cannot serialize a report", std::io::Error::other(e))
}

/// Wakes idle workers when there is work, and tells them to stop: with two stop tokens,
/// one that ends their loop and one, handed down to the checks, that stops the programs
/// being judged.
#[derive(Default)]
pub struct Signal {
    generation: Mutex<u64>,
    wake: Condvar,
    stop: Stop,
    interrupt: Stop,
}

impl Signal {
    pub fn notify(&self) {
        *self
            .generation
            .lock()
            .expect("no panics holding the signal") += 1;
        self.wake.notify_all();
    }

    /// No worker takes another job.
    pub fn stop(&self) {
        self.stop.request();
        self.notify();
    }

    /// The programs being judged are stopped at once.
    pub fn interrupt(&self) {
        self.interrupt.request();
    }

    pub fn stopping(&self) -> bool {
        self.stop.requested()
    }

    /// Waits until notified or `timeout` passes.
    fn wait(&self, seen: u64, timeout: Duration) {
        let generation = self
            .generation
            .lock()
            .expect("no panics holding the signal");
        if *generation == seen && !self.stopping() {
            let _ = self.wake.wait_timeout(generation, timeout);
        }
    }

    fn generation(&self) -> u64 {
        *self
            .generation
            .lock()
            .expect("no panics holding the signal")
    }
}

pub struct Workers {
    pub lab: Arc<Lab>,
    pub db: Arc<Db>,
    pub runner: Arc<dyn Runner + Send>,
    pub signal: Arc<Signal>,
    /// Cases each check runs at once.
    pub case_jobs: usize,
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
        while !self.signal.stopping() {
            let seen = self.signal.generation();
            match self.db.with(db::claim) {
                Ok(Some(job)) => self.run(job),
                Ok(None) => self.signal.wait(seen, Duration::from_secs(2)),
                Err(e) => {
                    eprintln!("nimlab serve: cannot take a job from the queue: {e}");
                    self.signal.wait(seen, Duration::from_secs(2));
                }
            }
        }
    }

    fn run(&self, job: Job) {
        let judged = judge(
            &self.lab,
            self.runner.as_ref(),
            &job.exercise,
            &job.filename,
            &job.source,
            self.case_jobs,
            &self.signal.interrupt,
        );
        if self.signal.stopping() {
            // Cut short by the shutdown: left `running`, judged again at the next start.
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
                eprintln!("nimlab serve: submission {} not judged: {e}", job.id);
                Outcome::Failed(e.to_string())
            }
        };
        if let Err(e) = self.db.with(|c| db::finish(c, &job, &outcome)) {
            eprintln!(
                "nimlab serve: cannot record the result of submission {}: {e}",
                job.id
            );
        }
    }
}

/// The verdict as `--format json` names it (`wrong_answer`).
pub fn verdict_name(report: &CheckReport) -> String {
    serde_json::to_value(report.verdict)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}
