//! `ProcessRunner`: each run a child process (see [`super::child`]) fed its stdin from memory
//! and watched to its end through a pidfd and its pipes in one poll loop (no helper threads).

use super::child::{
    Started, cpu_so_far, cpu_time, kill_group, reap, release, spawn, termination, tree_is_working,
};
use super::sandbox::Isolation;
use super::seed::Sitecustomize;
use super::watch::Watch;
use super::{RunOutcome, RunSpec, Runner, Termination};
use crate::error::RunnerError;
use std::fs::File;
use std::io::{Seek, Write};
use std::os::fd::FromRawFd;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// How often a running program's CPU time is looked at (RLIMIT_CPU counts whole seconds).
const CPU_CHECK: Duration = Duration::from_millis(20);

/// Runs programs as child processes, in the sandbox where the machine allows one.
#[derive(Debug, Clone)]
pub struct ProcessRunner {
    isolation: Isolation,
    /// Seeds the `random` of runs with a seed (see [`super::seed`]).
    sitecustomize: Sitecustomize,
}

impl ProcessRunner {
    pub fn new(isolation: Isolation) -> Self {
        ProcessRunner {
            isolation,
            sitecustomize: Sitecustomize::default(),
        }
    }

    /// The strongest isolation this machine allows.
    pub fn detect() -> Self {
        ProcessRunner::new(Isolation::detect().clone())
    }

    pub fn limits_only() -> Self {
        ProcessRunner::new(Isolation::LimitsOnly {
            reason: "chosen by the caller".into(),
        })
    }
}

impl Runner for ProcessRunner {
    fn isolation(&self) -> &Isolation {
        &self.isolation
    }

    fn start(&self, spec: &RunSpec) -> Result<Box<dyn super::Session>, RunnerError> {
        use super::interactive::ProcessSession;
        let session = match self.sitecustomize.seeded(spec)? {
            Some(seeded) => ProcessSession::start(&seeded.spec(spec), &self.isolation)?,
            None => ProcessSession::start(spec, &self.isolation)?,
        };
        Ok(Box::new(session))
    }

    fn run(&self, spec: &RunSpec) -> Result<RunOutcome, RunnerError> {
        match self.sitecustomize.seeded(spec)? {
            Some(seeded) => self.run_now(&seeded.spec(spec)),
            None => self.run_now(spec),
        }
    }
}

impl ProcessRunner {
    /// A run, its `random` seeded already where it is to be.
    fn run_now(&self, spec: &RunSpec) -> Result<RunOutcome, RunnerError> {
        let stdin = stdin_file(spec.stdin)?;
        let Started {
            mut child,
            pid,
            at: started,
            cgroup,
        } = spawn(spec, &self.isolation, Stdio::from(stdin))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        // From here on the child must be killed and reaped whatever happens.
        let mut watch = Watch::new(pid, stdout, stderr, spec.limits.output_bytes);
        let watched = watch_to_end(
            &mut watch,
            pid,
            started + spec.limits.wall,
            spec.limits.cpu,
            spec.stop,
        );
        let watched = match watched {
            Ok(result) => result,
            Err(e) => {
                kill_group(pid);
                let _ = reap(pid);
                release(cgroup, &self.isolation);
                return Err(e);
            }
        };
        let reaped = reap(pid);
        let wall = started.elapsed();
        let out_of_memory = release(cgroup, &self.isolation);
        let (status, usage) = reaped?;
        let (stderr, stderr_truncated) = watch.take_stderr();
        Ok(RunOutcome {
            termination: watched
                .stopped_by_us
                .unwrap_or_else(|| termination(status, &self.isolation)),
            stdout: watched.stdout,
            stderr,
            stderr_truncated,
            cpu: cpu_time(&usage).max(watched.tree_cpu),
            wall,
            max_rss_bytes: u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024,
            out_of_memory,
            working_at_wall_limit: watched.working_at_wall_limit,
            way: super::RunWay::Process,
        })
    }
}

/// The case's input in an anonymous in-memory file: no pipe to feed, no deadlock when the
/// program never reads, and nothing on disk.
fn stdin_file(input: &[u8]) -> Result<File, RunnerError> {
    // SAFETY: the name is a valid C string; the returned descriptor is owned by the File.
    let fd = unsafe { libc::memfd_create(c"nimlab-stdin".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(RunnerError::system("cannot create the stdin file"));
    }
    // SAFETY: fd was just created and is owned by nobody else.
    let mut file = unsafe { File::from_raw_fd(fd) };
    file.write_all(input)
        .and_then(|_| file.rewind())
        .map_err(|source| RunnerError::System {
            what: "cannot write the stdin file",
            source,
        })?;
    Ok(file)
}

/// What watching a whole run saw.
pub(super) struct Watched {
    /// Set when nimlab stopped the program, and why.
    pub stopped_by_us: Option<Termination>,
    pub stdout: Vec<u8>,
    /// The most CPU time the whole process tree was seen to have used. The exit status's
    /// rusage counts only processes that were waited for: a killed fork bomb's are not.
    pub tree_cpu: Duration,
    pub working_at_wall_limit: Option<bool>,
}

/// Watches a run until the program and its pipes are done, stopping it at its limits.
pub(super) fn watch_to_end(
    watch: &mut Watch,
    pid: libc::pid_t,
    deadline: Instant,
    cpu_limit: Duration,
    stop_token: &crate::stop::Stop,
) -> Result<Watched, RunnerError> {
    let mut stdout = Vec::new();
    let mut stopped_by_us = None;
    let stop = |why: Termination, stopped: &mut Option<Termination>, watch: &Watch| {
        if stopped.is_none() {
            *stopped = Some(why);
            watch.kill();
        }
    };
    let mut next_cpu_check = Instant::now() + CPU_CHECK;
    let mut tree_cpu = Duration::ZERO;
    let mut working_at_wall_limit = None;
    while !watch.exited() {
        let now = Instant::now();
        if stop_token.requested() {
            stop(Termination::WallTimeout, &mut stopped_by_us, watch);
        }
        if stopped_by_us.is_none() && now >= next_cpu_check {
            next_cpu_check = now + CPU_CHECK;
            let cpu = cpu_so_far(pid).unwrap_or_default();
            // (Read of another process, if the program ended and its pid was taken since.)
            let ours = !watch.ended_now();
            if ours {
                tree_cpu = tree_cpu.max(cpu);
            }
            if ours && cpu > cpu_limit {
                stop(Termination::CpuTimeout, &mut stopped_by_us, watch);
            }
        }
        if now >= deadline {
            if stopped_by_us.is_none() {
                working_at_wall_limit = Some(tree_is_working(pid));
            }
            stop(Termination::WallTimeout, &mut stopped_by_us, watch);
            break;
        }
        let seen = watch.wait((deadline - now).min(CPU_CHECK), &mut stdout)?;
        if seen.over_limit {
            stop(Termination::OutputLimit, &mut stopped_by_us, watch);
        }
    }
    Ok(Watched {
        stopped_by_us,
        stdout,
        tree_cpu,
        working_at_wall_limit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::RunLimits;
    use std::path::Path;

    fn sh(script: &str, stdin: &[u8], limits: RunLimits) -> RunOutcome {
        crate::runner::filter::off_in_this_thread();
        let dir = tempfile::tempdir().unwrap();
        let spec = RunSpec {
            program: Path::new("/bin/sh"),
            args: vec!["-c".into(), script.into()],
            stdin,
            workdir: dir.path(),
            env: vec![("PATH".into(), "/usr/bin:/bin".into())],
            limits,
            expose: &[],
            seed: None,
            stop: &crate::stop::Stop::new(),
        };
        ProcessRunner::limits_only().run(&spec).unwrap()
    }

    #[test]
    fn a_working_folder_that_cannot_be_made_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, "").unwrap();
        let workdir = file.join("case-0");
        let spec = RunSpec {
            program: Path::new("/bin/sh"),
            args: vec!["-c".into(), "true".into()],
            stdin: b"",
            workdir: &workdir,
            env: Vec::new(),
            limits: limits(),
            expose: &[],
            seed: None,
            stop: &crate::stop::Stop::new(),
        };
        let error = ProcessRunner::limits_only()
            .run(&spec)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(&format!("working folder {}", workdir.display())),
            "{error}"
        );
    }

    fn limits() -> RunLimits {
        RunLimits {
            cpu: Duration::from_secs(2),
            wall: Duration::from_secs(3),
            memory_bytes: 256 << 20,
            output_bytes: 1 << 20,
        }
    }

    #[test]
    fn passes_stdin_and_collects_both_streams() {
        let out = sh("cat; echo oops >&2; exit 3", b"hello\n", limits());
        assert_eq!(out.stdout, b"hello\n");
        assert_eq!(out.stderr, b"oops\n");
        assert_eq!(out.termination, Termination::Exited(3));
    }

    #[test]
    fn a_sleeping_program_is_stopped_at_the_wall_limit() {
        let mut l = limits();
        l.wall = Duration::from_millis(300);
        let started = Instant::now();
        let out = sh("sleep 30", b"", l);
        assert_eq!(out.termination, Termination::WallTimeout);
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn the_wall_clock_tells_a_working_program_from_a_sleeping_one() {
        let mut l = limits();
        l.wall = Duration::from_millis(300);
        assert_eq!(sh("sleep 30", b"", l).working_at_wall_limit, Some(false));
        assert_eq!(
            sh("while :; do :; done", b"", l).working_at_wall_limit,
            Some(true)
        );
        assert_eq!(sh("true", b"", l).working_at_wall_limit, None);
    }

    #[test]
    fn a_busy_program_is_stopped_at_its_cpu_limit_not_the_wall_clock() {
        let mut l = limits();
        l.cpu = Duration::from_millis(200);
        l.wall = Duration::from_secs(5);
        let started = Instant::now();
        let out = sh("while :; do :; done", b"", l);
        assert_eq!(out.termination, Termination::CpuTimeout);
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn a_flood_stops_at_the_output_limit() {
        let mut l = limits();
        l.output_bytes = 10_000;
        let out = sh("yes", b"", l);
        assert_eq!(out.termination, Termination::OutputLimit);
        assert_eq!(out.stdout.len(), 10_000);
    }

    #[test]
    fn a_background_child_holding_the_pipe_does_not_hang_the_run() {
        let started = Instant::now();
        let out = sh("(sleep 30; echo late) & echo done", b"", limits());
        assert_eq!(out.stdout, b"done\n");
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn a_crash_reports_its_signal() {
        let out = sh("kill -SEGV $$", b"", limits());
        assert_eq!(out.termination, Termination::Signaled(libc::SIGSEGV));
    }
}
