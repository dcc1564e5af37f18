//! An interactive session with a program: nimlab types lines and reads what the program
//! prints. It knows the program waits for input by looking at what the program is blocked on
//! (the `read` system call on its stdin), not at the wording of its prompts.

use super::child::{
    Started, cpu_so_far, cpu_time, process_state, process_tree, reap, release, spawn, termination,
};
use super::sandbox::{Isolation, RunCgroup};
use super::watch::Watch;
use super::{RunOutcome, RunSpec, Termination};
use crate::error::RunnerError;
use std::io::Write;
use std::process::{ChildStdin, Stdio};
use std::time::{Duration, Instant};

/// The longest nimlab sleeps between looks at a quiet program.
const MAX_TICK: Duration = Duration::from_millis(4);
/// Where the kernel cannot tell what the program is blocked on, this long a silence while it
/// sleeps is taken as waiting for input.
const QUIET_FALLBACK: Duration = Duration::from_millis(150);

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

/// A program started for a conversation: by [`super::ProcessRunner`], or forked by a fork
/// server ([`super::ForkRunner`]), which then reaps it.
pub struct ProcessSession {
    pid: libc::pid_t,
    stdin: Option<ChildStdin>,
    watch: Watch,
    started: Instant,
    deadline: Instant,
    cpu_limit: Duration,
    stopped_by_us: Option<Termination>,
    reaped: Option<RunOutcome>,
    reaper: Box<dyn Reaper>,
    /// Ends the session at once when set.
    stop: crate::stop::Stop,
}

/// How a session's program, once killed, is reaped and let go of.
pub(crate) trait Reaper {
    fn reap(&mut self, pid: libc::pid_t) -> Result<Reaped, RunnerError>;
}

/// What reaping a program found.
pub(crate) struct Reaped {
    pub termination: Termination,
    pub cpu: Duration,
    pub max_rss_bytes: u64,
    pub out_of_memory: bool,
    pub way: super::RunWay,
}

/// A child process of nimlab's, in its cgroups.
struct ProcessReaper {
    cgroup: Option<RunCgroup>,
    isolation: Isolation,
}

impl Reaper for ProcessReaper {
    fn reap(&mut self, pid: libc::pid_t) -> Result<Reaped, RunnerError> {
        let reaped = reap(pid);
        let out_of_memory = release(self.cgroup.take(), &self.isolation);
        let (status, usage) = reaped?;
        Ok(Reaped {
            termination: termination(status, &self.isolation),
            cpu: cpu_time(&usage),
            max_rss_bytes: u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024,
            out_of_memory,
            way: super::RunWay::Process,
        })
    }
}

enum Blocked {
    OnStdin,
    Elsewhere,
    /// The kernel would not say (no access to /proc/PID/syscall).
    Unknown,
}

/// What one process is blocked on, from /proc/PID/syscall: "0 0x0 ..." is read() on fd 0.
fn blocked_one(pid: libc::pid_t) -> Blocked {
    let text = match std::fs::read_to_string(format!("/proc/{pid}/syscall")) {
        Ok(text) => text,
        // Gone between listing the tree and this look (a shell's `sleep` just reaped): it
        // waits for nothing. Taking it as "cannot tell" once made a busy program look idle.
        Err(e)
            if e.kind() == std::io::ErrorKind::NotFound
                || e.raw_os_error() == Some(libc::ESRCH) =>
        {
            return Blocked::Elsewhere;
        }
        Err(_) => return Blocked::Unknown,
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
    process_state(pid).is_none_or(|state| state == 'S')
}

impl ProcessSession {
    pub fn start(launch: &RunSpec, isolation: &Isolation) -> Result<ProcessSession, RunnerError> {
        let Started {
            mut child,
            pid,
            at,
            cgroup,
        } = spawn(launch, isolation, Stdio::piped())?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let watch = Watch::new(pid, stdout, stderr, launch.limits.output_bytes);
        let reaper = ProcessReaper {
            cgroup,
            isolation: isolation.clone(),
        };
        Ok(ProcessSession::watching(
            pid,
            child.stdin.take(),
            watch,
            at,
            launch.limits,
            Box::new(reaper),
            launch.stop,
        ))
    }

    /// A session with a program already started (`pid`, typed to through `stdin`, watched
    /// by `watch`), ended through `reaper`.
    pub(crate) fn watching(
        pid: libc::pid_t,
        stdin: Option<ChildStdin>,
        watch: Watch,
        started: Instant,
        limits: super::RunLimits,
        reaper: Box<dyn Reaper>,
        stop: &crate::stop::Stop,
    ) -> ProcessSession {
        ProcessSession {
            pid,
            stdin,
            watch,
            started,
            deadline: started + limits.wall,
            cpu_limit: limits.cpu,
            stopped_by_us: None,
            reaped: None,
            reaper,
            stop: stop.clone(),
        }
    }

    /// Whether the program has read every byte typed to it: none is left in its stdin pipe.
    fn read_all_typed(&self) -> bool {
        let Some(stdin) = &self.stdin else {
            return true;
        };
        let mut unread: libc::c_int = 0;
        // SAFETY: FIONREAD writes one int; the pipe's write end is open (owned by `stdin`),
        // and for a pipe it counts the bytes in the pipe, whichever end is asked.
        let asked = unsafe {
            libc::ioctl(
                std::os::fd::AsRawFd::as_raw_fd(stdin),
                libc::FIONREAD,
                &mut unread,
            )
        };
        asked != 0 || unread == 0
    }

    fn resume_program(&mut self) -> Result<(Pause, Vec<u8>), RunnerError> {
        let mut out = Vec::new();
        if self.watch.exited() || self.stopped_by_us.is_some() {
            return Ok((Pause::Exited, out));
        }
        let mut tick = Duration::from_millis(1);
        let mut last_output = Instant::now();
        loop {
            let now = Instant::now();
            if now >= self.deadline || self.stop.requested() {
                self.stop(Termination::WallTimeout);
                return Ok((Pause::TimedOut, out));
            }
            let seen = self.watch.wait(tick.min(self.deadline - now), &mut out)?;
            if seen.over_limit {
                self.stop(Termination::OutputLimit);
                return Ok((Pause::OutputLimit, out));
            }
            if seen.exited {
                return Ok((Pause::Exited, out));
            }
            if seen.printed {
                // It may already be waiting: after its prompt, most programs read at once.
                last_output = Instant::now();
                tick = Duration::from_millis(1);
            }
            // A program that has not yet read what was typed is not waiting for more, even
            // while the kernel still shows it in the read that the typing is to wake it from
            // (on a loaded machine it can take a while to be scheduled).
            let waiting = self.read_all_typed()
                && match blocked(self.pid) {
                    Blocked::OnStdin => true,
                    Blocked::Elsewhere => false,
                    Blocked::Unknown => {
                        last_output.elapsed() >= QUIET_FALLBACK && sleeping(self.pid)
                    }
                };
            if waiting {
                // Blocked, it cannot print more: what is in the pipe is all there is.
                if self.watch.read_stdout(&mut out) {
                    self.stop(Termination::OutputLimit);
                    return Ok((Pause::OutputLimit, out));
                }
                return Ok((Pause::Waiting, out));
            }
            let over = cpu_so_far(self.pid).is_some_and(|cpu| cpu > self.cpu_limit);
            if over && !self.watch.ended_now() {
                self.stop(Termination::CpuTimeout);
                return Ok((Pause::TimedOut, out));
            }
            if !seen.printed {
                tick = (tick * 2).min(MAX_TICK);
            }
        }
    }

    fn type_to_program(&mut self, line: &str) -> Result<(), RunnerError> {
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

    fn end(&mut self) -> Result<RunOutcome, RunnerError> {
        if let Some(end) = &self.reaped {
            return Ok(end.clone());
        }
        self.watch.kill();
        self.stdin = None;
        let reaped = self.reaper.reap(self.pid);
        let wall = self.started.elapsed();
        let reaped = reaped?;
        let (stderr, stderr_truncated) = self.watch.take_stderr();
        let end = RunOutcome {
            termination: self.stopped_by_us.unwrap_or(reaped.termination),
            stdout: Vec::new(),
            stderr,
            stderr_truncated,
            cpu: reaped.cpu,
            wall,
            max_rss_bytes: reaped.max_rss_bytes,
            out_of_memory: reaped.out_of_memory,
            working_at_wall_limit: None,
            way: reaped.way,
        };
        self.reaped = Some(end.clone());
        Ok(end)
    }

    fn stop(&mut self, why: Termination) {
        self.stopped_by_us = Some(why);
        self.watch.kill();
    }
}

impl super::Session for ProcessSession {
    fn resume(&mut self) -> Result<(Pause, Vec<u8>), RunnerError> {
        self.resume_program()
    }

    fn type_line(&mut self, line: &str) -> Result<(), RunnerError> {
        self.type_to_program(line)
    }

    fn finish(&mut self) -> Result<RunOutcome, RunnerError> {
        self.end()
    }
}

impl Drop for ProcessSession {
    fn drop(&mut self) {
        if self.reaped.is_none() {
            let _ = self.end();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{RunLimits, Session};
    use std::path::Path;

    fn shell(script: &str) -> ProcessSession {
        crate::runner::filter::off_in_this_thread();
        let dir = std::env::temp_dir();
        let launch = RunSpec {
            program: Path::new("/bin/sh"),
            args: vec!["-c".into(), script.into()],
            stdin: b"",
            env: vec![("PATH".into(), "/usr/bin:/bin".into())],
            workdir: &dir,
            expose: &[],
            seed: None,
            stop: &crate::stop::Stop::new(),
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
        ProcessSession::start(&launch, &isolation).unwrap()
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
    fn typed_input_still_in_the_pipe_is_not_yet_read() {
        let mut session = shell("sleep 2");
        assert!(session.read_all_typed());
        session.type_line("1, 3").unwrap();
        assert!(!session.read_all_typed(), "the line is in the pipe, unread");
        let mut reader = shell("printf 'move? '; read m; sleep 2");
        assert_eq!(reader.resume().unwrap().0, Pause::Waiting);
        reader.type_line("1, 3").unwrap();
        let read = Instant::now();
        while !reader.read_all_typed() {
            assert!(read.elapsed() < Duration::from_secs(2), "never read");
            std::thread::sleep(Duration::from_millis(1));
        }
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
    fn a_process_already_gone_is_not_taken_for_one_nimlab_cannot_see() {
        let mut gone = std::process::Command::new("true").spawn().unwrap();
        let pid = gone.id() as libc::pid_t;
        gone.wait().unwrap();
        assert!(matches!(blocked_one(pid), Blocked::Elsewhere));
        assert!(!matches!(
            blocked_one(std::process::id() as libc::pid_t),
            Blocked::Unknown
        ));
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
