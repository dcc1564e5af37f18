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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Forks the spec's program with a pipe for its stdin: its pid, the pipe's end to type to,
/// the watch on its output, when it started, and whether the server was told to end it.
pub(super) fn start(
    server: &mut Server,
    spec: &RunSpec,
) -> Result<(libc::pid_t, ChildStdin, Watch, Instant, Arc<AtomicBool>), Failure> {
    let (stdin, typed) = super::server::pipe().map_err(|e| Failure::Refused(e.to_string()))?;
    let (stdout, stdout_w) = super::server::pipe().map_err(|e| Failure::Refused(e.to_string()))?;
    let (stderr, stderr_w) = super::server::pipe().map_err(|e| Failure::Refused(e.to_string()))?;
    let started = Instant::now();
    let pid = server.fork(spec, [stdin, stdout_w, stderr_w])?;
    let killed = Arc::new(AtomicBool::new(false));
    let watch = Watch::new(
        pid,
        ChildStdout::from(stdout),
        ChildStderr::from(stderr),
        spec.limits.output_bytes,
    )
    .on_exit(server.killer(Arc::clone(&killed))?);
    Ok((pid, ChildStdin::from(typed), watch, started, killed))
}

/// Ends a forked session: the server kills what is left and reaps the child, then serves
/// again.
pub(super) struct ForkReaper {
    server: Option<Server>,
    killed: Arc<AtomicBool>,
    broken: Arc<Mutex<HashMap<Key, String>>>,
}

impl ForkReaper {
    pub fn new(
        server: Server,
        killed: Arc<AtomicBool>,
        broken: Arc<Mutex<HashMap<Key, String>>>,
    ) -> Self {
        ForkReaper {
            server: Some(server),
            killed,
            broken,
        }
    }
}

impl Reaper for ForkReaper {
    fn reap(&mut self, _pid: libc::pid_t) -> Result<Reaped, RunnerError> {
        let Some(server) = &mut self.server else {
            return Err(gone("the fork server was already let go of".into()));
        };
        let ended = (|| {
            if !self.killed.swap(true, Ordering::SeqCst) {
                server.kill()?;
            }
            let exit = server.exit()?;
            if !exit.clean {
                server.healthy = false;
            }
            Ok::<_, Failure>(exit)
        })();
        match ended {
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
