//! An interactive session with a program: nimlab types lines and reads what the program
//! prints. It knows the program waits for input by looking at what the program is blocked on
//! (the `read` system call on its stdin), not at the wording of its prompts.

use super::Termination;
pub use super::process::Launch;
use super::process::{
    Drained, Started, append_tail, cpu_so_far, cpu_time, drain, has_exited, kill_group, pidfd_open,
    process_tree, reap, release, set_nonblocking, spawn, termination,
};
use super::sandbox::{Isolation, RunCgroup};
use crate::error::RunnerError;
use std::io::Write;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::process::{ChildStderr, ChildStdin, ChildStdout, Stdio};
use std::time::{Duration, Instant};

/// The longest nimlab sleeps between looks at a quiet program.
const MAX_TICK: Duration = Duration::from_millis(4);
/// Where the kernel cannot tell what the program is blocked on, this long a silence while it
/// sleeps is taken as waiting for input.
const QUIET_FALLBACK: Duration = Duration::from_millis(150);
/// After the program exits, how long its pipes may take to deliver what is left in them.
const DRAIN_GRACE: Duration = Duration::from_millis(250);

/// Why the program stopped running for now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pause {
    /// Blocked reading its stdin: it is the judge's turn to type.
    Waiting,
    /// It has exited.
    Exited,
    /// nimlab stopped it when the wall-clock limit passed.
    TimedOut,
    /// nimlab stopped it when its output passed the limit.
    OutputLimit,
}

/// How the program ended, once the session is over.
#[derive(Debug, Clone)]
pub struct SessionEnd {
    pub termination: Termination,
    /// The last part of stderr (where a traceback ends).
    pub stderr: Vec<u8>,
    pub cpu: Duration,
    pub wall: Duration,
}

pub struct Session {
    pid: libc::pid_t,
    pidfd: Option<OwnedFd>,
    stdin: Option<ChildStdin>,
    stdout: Option<ChildStdout>,
    stderr: Option<ChildStderr>,
    started: Instant,
    deadline: Instant,
    cpu_limit: Duration,
    output_left: usize,
    err: Vec<u8>,
    exited: bool,
    stopped_by_us: Option<Termination>,
    reaped: Option<SessionEnd>,
    cgroup: Option<RunCgroup>,
    isolation: Isolation,
}

enum Blocked {
    OnStdin,
    Elsewhere,
    /// The kernel would not say (no access to /proc/PID/syscall).
    Unknown,
}

/// What one process is blocked on, from /proc/PID/syscall: "0 0x0 ..." is read() on fd 0.
fn blocked_one(pid: libc::pid_t) -> Blocked {
    let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/syscall")) else {
        return Blocked::Unknown;
    };
    let mut fields = text.split_whitespace();
    let number = fields.next().and_then(|n| n.parse::<i64>().ok());
    let first_argument = fields.next();
    match (number, first_argument) {
        (Some(n), Some("0x0")) if n == libc::SYS_read => Blocked::OnStdin,
        _ => Blocked::Elsewhere,
    }
}

/// Whether the program waits for its stdin: some process of its tree (the interpreter, perhaps
/// inside a sandbox's launcher) is blocked reading fd 0.
fn blocked(pid: libc::pid_t) -> Blocked {
    let mut answer = Blocked::Elsewhere;
    for member in process_tree(pid) {
        match blocked_one(member) {
            Blocked::OnStdin => return Blocked::OnStdin,
            Blocked::Unknown => answer = Blocked::Unknown,
            Blocked::Elsewhere => {}
        }
    }
    answer
}

/// Whether the program is asleep (not running), from /proc/PID/stat.
fn sleeping(pid: libc::pid_t) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            stat.rsplit_once(')')
                .map(|(_, rest)| rest.trim_start().starts_with('S'))
        })
        .unwrap_or(true)
}

impl Session {
    pub fn start(launch: &Launch, isolation: &Isolation) -> Result<Session, RunnerError> {
        let Started {
            mut child,
            pid,
            at,
            cgroup,
        } = spawn(launch, isolation, Stdio::piped())?;
        let limits = launch.limits;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        set_nonblocking(stdout.as_raw_fd());
        set_nonblocking(stderr.as_raw_fd());
        Ok(Session {
            pid,
            pidfd: pidfd_open(pid),
            stdin: child.stdin.take(),
            stdout: Some(stdout),
            stderr: Some(stderr),
            started: at,
            deadline: at + limits.wall,
            cpu_limit: limits.cpu,
            output_left: usize::try_from(limits.output_bytes).unwrap_or(usize::MAX),
            err: Vec::new(),
            exited: false,
            stopped_by_us: None,
            reaped: None,
            cgroup,
            isolation: isolation.clone(),
        })
    }

    /// Lets the program run until it pauses; returns why, and what it printed meanwhile.
    pub fn resume(&mut self) -> Result<(Pause, Vec<u8>), RunnerError> {
        let mut out = Vec::new();
        if self.exited || self.stopped_by_us.is_some() {
            return Ok((Pause::Exited, out));
        }
        let mut tick = Duration::from_millis(1);
        let mut last_output = Instant::now();
        loop {
            let now = Instant::now();
            if now >= self.deadline || super::stopping() {
                self.stop(Termination::WallTimeout);
                return Ok((Pause::TimedOut, out));
            }
            let mut fds = Vec::with_capacity(3);
            let watch = |fd: RawFd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            };
            if let Some(pipe) = &self.stdout {
                fds.push(watch(pipe.as_raw_fd()));
            }
            if let Some(pipe) = &self.stderr {
                fds.push(watch(pipe.as_raw_fd()));
            }
            if let Some(pidfd) = &self.pidfd {
                fds.push(watch(pidfd.as_raw_fd()));
            }
            let wait = tick.min(self.deadline - now);
            let timeout = i32::try_from(wait.as_millis().max(1)).unwrap_or(i32::MAX);
            // SAFETY: fds is a live, correctly sized array of pollfd.
            let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout) };
            if ready < 0
                && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
            {
                return Err(RunnerError::system("cannot watch the program"));
            }
            let before = out.len();
            if self.read_stdout(&mut out) {
                self.stop(Termination::OutputLimit);
                return Ok((Pause::OutputLimit, out));
            }
            self.read_stderr();
            let exited = match &self.pidfd {
                Some(pidfd) => fds
                    .iter()
                    .any(|p| p.fd == pidfd.as_raw_fd() && p.revents != 0),
                None => has_exited(self.pid),
            };
            if exited {
                self.exited = true;
                // Whatever it started dies with it; then its pipes reach their end.
                kill_group(self.pid);
                self.drain(&mut out);
                return Ok((Pause::Exited, out));
            }
            if out.len() > before {
                last_output = Instant::now();
                tick = Duration::from_millis(1);
                continue;
            }
            let waiting = match blocked(self.pid) {
                Blocked::OnStdin => true,
                Blocked::Elsewhere => false,
                Blocked::Unknown => last_output.elapsed() >= QUIET_FALLBACK && sleeping(self.pid),
            };
            if waiting {
                // Blocked, it cannot print more: what is in the pipe is all there is.
                if self.read_stdout(&mut out) {
                    self.stop(Termination::OutputLimit);
                    return Ok((Pause::OutputLimit, out));
                }
                return Ok((Pause::Waiting, out));
            }
            if cpu_so_far(self.pid).is_some_and(|cpu| cpu > self.cpu_limit) {
                self.stop(Termination::CpuTimeout);
                return Ok((Pause::TimedOut, out));
            }
            tick = (tick * 2).min(MAX_TICK);
        }
    }

    /// Types one line, as a person would at the keyboard.
    pub fn type_line(&mut self, line: &str) -> Result<(), RunnerError> {
        let Some(stdin) = &mut self.stdin else {
            return Ok(());
        };
        match stdin.write_all(format!("{line}\n").as_bytes()) {
            Ok(()) => Ok(()),
            // The program closed its stdin or died: that shows when it is next resumed.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            Err(source) => Err(RunnerError::System {
                what: "cannot type to the program",
                source,
            }),
        }
    }

    /// Ends the session: stops the program if it still runs, and says how it ended.
    pub fn finish(&mut self) -> Result<SessionEnd, RunnerError> {
        if let Some(end) = &self.reaped {
            return Ok(end.clone());
        }
        kill_group(self.pid);
        self.stdin = None;
        let reaped = reap(self.pid);
        let wall = self.started.elapsed();
        release(self.cgroup.take(), &self.isolation);
        let (status, usage) = reaped?;
        let end = SessionEnd {
            termination: self
                .stopped_by_us
                .unwrap_or_else(|| termination(status, &self.isolation)),
            stderr: std::mem::take(&mut self.err),
            cpu: cpu_time(&usage),
            wall,
        };
        self.reaped = Some(end.clone());
        Ok(end)
    }

    fn stop(&mut self, why: Termination) {
        self.stopped_by_us = Some(why);
        kill_group(self.pid);
    }

    fn drain(&mut self, out: &mut Vec<u8>) {
        let until = Instant::now() + DRAIN_GRACE;
        while (self.stdout.is_some() || self.stderr.is_some()) && Instant::now() < until {
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
            if self.read_stdout(out) {
                self.stdout = None;
            }
            self.read_stderr();
        }
    }

    /// Reads what stdout has; true when the output limit was passed.
    fn read_stdout(&mut self, out: &mut Vec<u8>) -> bool {
        let Some(pipe) = &mut self.stdout else {
            return false;
        };
        let left = &mut self.output_left;
        let drained = drain(pipe, |data| {
            let taken = data.len().min(*left);
            out.extend_from_slice(&data[..taken]);
            *left -= taken;
            taken < data.len()
        });
        match drained {
            Drained::Open => false,
            Drained::Closed => {
                self.stdout = None;
                false
            }
            Drained::OverLimit => true,
        }
    }

    fn read_stderr(&mut self) {
        let Some(pipe) = &mut self.stderr else {
            return;
        };
        let err = &mut self.err;
        if drain(pipe, |data| {
            append_tail(err, data);
            false
        }) == Drained::Closed
        {
            self.stderr = None;
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if self.reaped.is_none() {
            let _ = self.finish();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::RunLimits;
    use std::path::Path;

    fn shell(script: &str) -> Session {
        let dir = std::env::temp_dir();
        let launch = Launch {
            program: Path::new("/bin/sh"),
            args: &["-c".into(), script.into()],
            env: &[("PATH".into(), "/usr/bin:/bin".into())],
            workdir: &dir,
            expose: &[],
            limits: RunLimits {
                cpu: Duration::from_secs(2),
                wall: Duration::from_secs(3),
                memory_bytes: 256 << 20,
                output_bytes: 1 << 20,
            },
        };
        let isolation = Isolation::LimitsOnly {
            reason: "test".into(),
        };
        Session::start(&launch, &isolation).unwrap()
    }

    #[test]
    fn knows_when_the_program_waits_and_hears_what_is_typed() {
        let mut session =
            shell("printf 'name? '; read name; echo \"hello $name\"; read x; echo bye");
        let (pause, out) = session.resume().unwrap();
        assert_eq!(
            (pause, out.as_slice()),
            (Pause::Waiting, b"name? ".as_slice())
        );
        session.type_line("Ada").unwrap();
        let (pause, out) = session.resume().unwrap();
        assert_eq!(
            (pause, out.as_slice()),
            (Pause::Waiting, b"hello Ada\n".as_slice())
        );
        session.type_line("").unwrap();
        let (pause, out) = session.resume().unwrap();
        assert_eq!(
            (pause, out.as_slice()),
            (Pause::Exited, b"bye\n".as_slice())
        );
        assert_eq!(
            session.finish().unwrap().termination,
            Termination::Exited(0)
        );
    }

    #[test]
    fn a_sleeping_program_is_not_taken_as_waiting() {
        let started = Instant::now();
        let mut session = shell("sleep 0.3; echo done");
        let (pause, out) = session.resume().unwrap();
        assert_eq!(
            (pause, out.as_slice()),
            (Pause::Exited, b"done\n".as_slice())
        );
        assert!(started.elapsed() >= Duration::from_millis(300));
    }

    #[test]
    fn a_stalled_program_times_out() {
        let mut session = shell("sleep 30");
        let (pause, _) = session.resume().unwrap();
        assert_eq!(pause, Pause::TimedOut);
        assert_eq!(
            session.finish().unwrap().termination,
            Termination::WallTimeout
        );
    }
}
