//! A started program's stdout, stderr and exit, watched in one poll: the one loop body that
//! a whole run and an interactive session both turn. What differs between them (when to stop
//! waiting) stays with them; how pipes are read, bounded and drained is only here.

use super::child::{has_exited, kill_by_pidfd, kill_group, pidfd_open, set_nonblocking};
use crate::error::RunnerError;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::process::{ChildStderr, ChildStdout};
use std::time::{Duration, Instant};

/// How much of stderr is kept: the end of a traceback is what matters.
const STDERR_KEEP: usize = 64 * 1024;
/// After the program exits, how long its pipes may take to deliver what is left in them.
const DRAIN_GRACE: Duration = Duration::from_millis(250);
/// Without a pidfd, how often the exit is looked for.
const EXIT_LOOK: Duration = Duration::from_millis(5);

/// What one wait saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Seen {
    /// Stdout passed the output limit: the program must be stopped.
    pub over_limit: bool,
    /// The program exited during this wait (its pipes are then drained).
    pub exited: bool,
    /// It printed something to stdout.
    pub printed: bool,
}

pub(crate) struct Watch {
    pid: libc::pid_t,
    pidfd: Option<OwnedFd>,
    stdout: Option<ChildStdout>,
    stderr: Option<ChildStderr>,
    /// Bytes of stdout still allowed.
    output_left: usize,
    stderr_tail: Vec<u8>,
    stderr_truncated: bool,
    exited: bool,
    /// Whether the program's process group is nimlab's to kill. A forked program's is not:
    /// its server reaps it as soon as it ends (its group's id may then be free again) and ends
    /// what it left itself.
    group_is_ours: bool,
}

impl Watch {
    pub fn new(
        pid: libc::pid_t,
        stdout: ChildStdout,
        stderr: ChildStderr,
        output_limit: u64,
    ) -> Self {
        Watch::with(pid, pidfd_open(pid), true, stdout, stderr, output_limit)
    }

    /// For a forked program, with the pidfd opened before its server could reap it: the
    /// server ends what it left, and nimlab kills the program alone (see `group_is_ours`).
    pub fn forked(
        pid: libc::pid_t,
        pidfd: OwnedFd,
        stdout: ChildStdout,
        stderr: ChildStderr,
        output_limit: u64,
    ) -> Self {
        Watch::with(pid, Some(pidfd), false, stdout, stderr, output_limit)
    }

    fn with(
        pid: libc::pid_t,
        pidfd: Option<OwnedFd>,
        group_is_ours: bool,
        stdout: ChildStdout,
        stderr: ChildStderr,
        output_limit: u64,
    ) -> Self {
        set_nonblocking(stdout.as_raw_fd());
        set_nonblocking(stderr.as_raw_fd());
        Watch {
            pid,
            pidfd,
            stdout: Some(stdout),
            stderr: Some(stderr),
            output_left: usize::try_from(output_limit).unwrap_or(usize::MAX),
            stderr_tail: Vec::new(),
            stderr_truncated: false,
            exited: false,
            group_is_ours,
        }
    }

    /// Stops the program: its process group, or (see `group_is_ours`) the program itself.
    pub fn kill(&self) {
        if self.group_is_ours {
            kill_group(self.pid);
            return;
        }
        // (A watch whose group is not ours is always made with a pidfd: `forked`.)
        if let Some(pidfd) = &self.pidfd {
            kill_by_pidfd(pidfd);
        }
    }

    /// Whether the program has ended by now (it may not have been seen to yet). What was
    /// read of its pid in /proc before this says false was read of it, and not of a process
    /// given the pid after it was reaped.
    pub fn ended_now(&self) -> bool {
        match &self.pidfd {
            Some(pidfd) => {
                let mut fds = [libc::pollfd {
                    fd: pidfd.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                }];
                // SAFETY: one live pollfd; no waiting.
                unsafe { libc::poll(fds.as_mut_ptr(), 1, 0) > 0 }
            }
            None => self.exited,
        }
    }

    pub fn exited(&self) -> bool {
        self.exited
    }

    /// Whether both pipes have reached their end.
    pub fn pipes_closed(&self) -> bool {
        self.stdout.is_none() && self.stderr.is_none()
    }

    /// The end of stderr, and whether older bytes were dropped.
    pub fn take_stderr(&mut self) -> (Vec<u8>, bool) {
        (std::mem::take(&mut self.stderr_tail), self.stderr_truncated)
    }

    /// Waits up to `wait` for output or the exit, appending stdout to `out`. When the program
    /// exits, whatever it started is killed and its pipes are drained before this returns.
    pub fn wait(&mut self, wait: Duration, out: &mut Vec<u8>) -> Result<Seen, RunnerError> {
        let mut fds = Vec::with_capacity(3);
        let poll_fd = |fd: RawFd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        fds.extend(self.stdout.as_ref().map(|p| poll_fd(p.as_raw_fd())));
        fds.extend(self.stderr.as_ref().map(|p| poll_fd(p.as_raw_fd())));
        let mut wait = wait;
        match (&self.pidfd, self.exited) {
            (Some(pidfd), false) => fds.push(poll_fd(pidfd.as_raw_fd())),
            (None, false) => wait = wait.min(EXIT_LOOK),
            _ => {}
        }
        let timeout = i32::try_from(wait.as_millis().max(1)).unwrap_or(i32::MAX);
        // SAFETY: fds is a live, correctly sized array of pollfd.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout) };
        if ready < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return Err(RunnerError::system("cannot watch the program"));
        }
        let before = out.len();
        let mut seen = Seen {
            over_limit: self.read_stdout(out),
            ..Seen::default()
        };
        self.read_stderr();
        let exited_now = !self.exited
            && match &self.pidfd {
                Some(pidfd) => fds
                    .iter()
                    .any(|p| p.fd == pidfd.as_raw_fd() && p.revents != 0),
                None => has_exited(self.pid),
            };
        if exited_now {
            self.exited = true;
            seen.exited = true;
            // Whatever the program started dies with it; then its pipes reach their end.
            if self.group_is_ours {
                kill_group(self.pid);
            }
            seen.over_limit |= self.drain(out);
        }
        seen.printed = out.len() > before;
        Ok(seen)
    }

    /// Reads what stdout has now, without waiting; true when the output limit was passed.
    pub fn read_stdout(&mut self, out: &mut Vec<u8>) -> bool {
        let Some(pipe) = &mut self.stdout else {
            return false;
        };
        let left = &mut self.output_left;
        match drain(pipe, |data| {
            let taken = data.len().min(*left);
            out.extend_from_slice(&data[..taken]);
            *left -= taken;
            taken < data.len()
        }) {
            Drained::Open => false,
            Drained::Closed => {
                self.stdout = None;
                false
            }
            Drained::OverLimit => {
                self.stdout = None;
                true
            }
        }
    }

    fn read_stderr(&mut self) {
        let Some(pipe) = &mut self.stderr else {
            return;
        };
        let (tail, truncated) = (&mut self.stderr_tail, &mut self.stderr_truncated);
        if drain(pipe, |data| {
            *truncated |= append_tail(tail, data);
            false
        }) == Drained::Closed
        {
            self.stderr = None;
        }
    }

    /// Reads the pipes until they close, for at most the grace period (a background child
    /// that escaped the kill may hold them open); true when the output limit was passed.
    fn drain(&mut self, out: &mut Vec<u8>) -> bool {
        let until = Instant::now() + DRAIN_GRACE;
        let mut over_limit = false;
        while !self.pipes_closed() && Instant::now() < until {
            let mut fds: Vec<libc::pollfd> = [
                self.stdout.as_ref().map(|p| p.as_raw_fd()),
                self.stderr.as_ref().map(|p| p.as_raw_fd()),
            ]
            .into_iter()
            .flatten()
            .map(|fd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
            // SAFETY: fds is a live, correctly sized array of pollfd.
            unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, 10) };
            over_limit |= self.read_stdout(out);
            self.read_stderr();
        }
        over_limit
    }
}

/// What reading a non-blocking pipe found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Drained {
    /// Read all it had for now; more may come.
    Open,
    /// It reached its end (or failed).
    Closed,
    /// The sink took no more.
    OverLimit,
}

/// Reads everything a non-blocking pipe has now, handing each chunk to `take`, which says
/// (true) when it will take no more.
fn drain(pipe: &impl AsRawFd, mut take: impl FnMut(&[u8]) -> bool) -> Drained {
    // Left unzeroed: the pipes are drained several times a run, and zeroing 64 KiB each time
    // was a measurable part of nimlab's own time.
    let mut buf = [std::mem::MaybeUninit::<u8>::uninit(); 64 * 1024];
    loop {
        // SAFETY: reads into a live buffer of the length given.
        let r = unsafe { libc::read(pipe.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
        if r == 0 {
            return Drained::Closed;
        }
        if r > 0 {
            // SAFETY: the kernel wrote r bytes (at most the buffer's length) at its start.
            let data = unsafe { std::slice::from_raw_parts(buf.as_ptr().cast::<u8>(), r as usize) };
            if take(data) {
                return Drained::OverLimit;
            }
            continue;
        }
        match std::io::Error::last_os_error().kind() {
            std::io::ErrorKind::Interrupted => {}
            std::io::ErrorKind::WouldBlock => return Drained::Open,
            _ => return Drained::Closed,
        }
    }
}

/// Appends `data`, keeping only about the last STDERR_KEEP bytes (where a traceback ends);
/// true when older bytes were dropped.
fn append_tail(out: &mut Vec<u8>, data: &[u8]) -> bool {
    out.extend_from_slice(data);
    if out.len() > 2 * STDERR_KEEP {
        let cut = out.len() - STDERR_KEEP;
        out.drain(..cut);
        return true;
    }
    false
}
