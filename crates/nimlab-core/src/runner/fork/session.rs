//! Sessions on the fast path: the game judge talks with a forked child through pipes, and
//! the session's loop ([`ProcessSession`](crate::runner::interactive::ProcessSession)) is the
//! one a process gets; only the ending differs (the server reaps the child).

use super::server::{Failure, Key, Server};
use crate::error::RunnerError;
use crate::runner::child::termination;
use crate::runner::interactive::{Reaped, Reaper};
use crate::runner::watch::Watch;
use crate::runner::{Pause, RunOutcome, RunSpec, RunWay, Session};
use std::collections::HashMap;
use std::process::{ChildStderr, ChildStdin, ChildStdout};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Forks the spec's program with a pipe for its stdin: its pid, the pipe's end to type to,
/// the watch on its output, and when it started.
pub(super) fn start(
    server: &mut Server,
    spec: &RunSpec,
) -> Result<(libc::pid_t, ChildStdin, Watch, Instant), Failure> {
    let (stdin, typed) = super::server::pipe().map_err(|e| Failure::Refused(e.to_string()))?;
    let (stdout, stdout_w) = super::server::pipe().map_err(|e| Failure::Refused(e.to_string()))?;
    let (stderr, stderr_w) = super::server::pipe().map_err(|e| Failure::Refused(e.to_string()))?;
    let started = Instant::now();
    let (pid, pidfd) = server.fork(spec, [stdin, stdout_w, stderr_w])?;
    let watch = Watch::forked(
        pid,
        pidfd,
        ChildStdout::from(stdout),
        ChildStderr::from(stderr),
        spec.limits.output_bytes,
    );
    Ok((pid, ChildStdin::from(typed), watch, started))
}

/// Ends a forked session: the server reaps the child (the session killed it) and kills what
/// it left, then serves again.
pub(super) struct ForkReaper {
    server: Option<Server>,
    broken: Arc<Mutex<HashMap<Key, String>>>,
}

impl ForkReaper {
    pub fn new(server: Server, broken: Arc<Mutex<HashMap<Key, String>>>) -> Self {
        ForkReaper {
            server: Some(server),
            broken,
        }
    }
}

impl Reaper for ForkReaper {
    fn reap(&mut self, _pid: libc::pid_t) -> Result<Reaped, RunnerError> {
        let Some(server) = &mut self.server else {
            return Err(gone("the fork server was already let go of".into()));
        };
        match server.exit() {
            Ok(exit) => Ok(Reaped {
                termination: termination(exit.status, server.isolation()),
                cpu: exit.cpu,
                max_rss_bytes: exit.max_rss_bytes,
                out_of_memory: server.oom_killed_since(),
                way: RunWay::Fork,
            }),
            Err(failure) => {
                super::note_death(&self.broken, &server.key, &failure);
                let (Failure::Refused(why) | Failure::Dead(why)) = failure;
                Err(gone(why))
            }
        }
    }
}

impl Drop for ForkReaper {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            super::keep(server);
        }
    }
}

fn gone(why: String) -> RunnerError {
    RunnerError::System {
        what: "the fork server could not end the session",
        source: std::io::Error::other(why),
    }
}

/// A session made as a process because the fork path could not make it: says why when it
/// ends.
pub(super) struct Fallback {
    pub inner: Box<dyn Session>,
    pub why: String,
}

impl Session for Fallback {
    fn resume(&mut self) -> Result<(Pause, Vec<u8>), RunnerError> {
        self.inner.resume()
    }

    fn type_line(&mut self, line: &str) -> Result<(), RunnerError> {
        self.inner.type_line(line)
    }

    fn finish(&mut self) -> Result<RunOutcome, RunnerError> {
        let mut outcome = self.inner.finish()?;
        outcome.way = RunWay::Fallback(self.why.clone());
        Ok(outcome)
    }
}
