//! `ProcessRunner`: a child process in its own process group, with resource limits set between
//! fork and exec, watched through a pidfd and its pipes in one poll loop (no helper threads).

use super::sandbox::{Isolation, RunCgroup};
use super::{RunOutcome, RunSpec, Runner, Termination};
use crate::error::RunnerError;
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How much of stderr is kept: the end of a traceback is what matters.
const STDERR_KEEP: usize = 64 * 1024;
/// Files the program writes in its scratch folder are capped too.
const FILE_SIZE_LIMIT: u64 = 64 * 1024 * 1024;
const OPEN_FILES_LIMIT: u64 = 256;
/// After the program exits, how long its pipes may take to deliver what is left in them.
const DRAIN_GRACE: Duration = Duration::from_millis(250);
/// How often a running program's CPU time is looked at (RLIMIT_CPU counts whole seconds).
const CPU_CHECK: Duration = Duration::from_millis(20);

/// The processes of a running program: `pid` and everything below it, from
/// /proc/PID/task/TID/children. A sandbox's launcher and the program inside it both count.
pub(crate) fn process_tree(pid: libc::pid_t) -> Vec<libc::pid_t> {
    let mut tree = vec![pid];
    let mut i = 0;
    while i < tree.len() && tree.len() < 4096 {
        let tasks = format!("/proc/{}/task", tree[i]);
        if let Ok(entries) = std::fs::read_dir(&tasks) {
            for task in entries.filter_map(Result::ok) {
                if let Ok(children) = std::fs::read_to_string(task.path().join("children")) {
                    tree.extend(
                        children
                            .split_whitespace()
                            .filter_map(|c| c.parse::<libc::pid_t>().ok()),
                    );
                }
            }
        }
        i += 1;
    }
    tree
}

/// CPU time of one process and its reaped children, from /proc/PID/stat.
fn process_cpu(pid: libc::pid_t) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) start at the state, field 3.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields
        .get(11..15)?
        .iter()
        .map(|f| f.parse::<u64>().unwrap_or(0))
        .sum();
    // SAFETY: sysconf has no preconditions.
    let per_second = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) })
        .ok()
        .filter(|&t| t > 0)?;
    Some(Duration::from_millis(ticks * 1000 / per_second))
}

/// The CPU time a running program (with everything it started) has used so far.
pub(crate) fn cpu_so_far(pid: libc::pid_t) -> Option<Duration> {
    let tree = process_tree(pid);
    let mut total = Duration::ZERO;
    let mut any = false;
    for member in tree {
        if let Some(cpu) = process_cpu(member) {
            total += cpu;
            any = true;
        }
    }
    any.then_some(total)
}

/// Runs programs as child processes, in the sandbox where the machine allows one.
#[derive(Debug, Clone)]
pub struct ProcessRunner {
    isolation: Isolation,
}

impl ProcessRunner {
    pub fn new(isolation: Isolation) -> Self {
        ProcessRunner { isolation }
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

/// A started program: its handle, its pid (also its process group), when it started, and
/// the cgroup that holds it (removed when this is dropped).
pub(crate) struct Started {
    pub child: std::process::Child,
    pub pid: libc::pid_t,
    pub at: Instant,
    pub cgroup: Option<RunCgroup>,
}

/// What a program is started with.
pub struct Launch<'a> {
    pub program: &'a std::path::Path,
    pub args: &'a [std::ffi::OsString],
    pub env: &'a [(std::ffi::OsString, std::ffi::OsString)],
    pub workdir: &'a std::path::Path,
    pub expose: &'a [std::path::PathBuf],
    pub limits: super::RunLimits,
}

/// Starts a program in its own process group, under the limits, with only its environment,
/// inside the sandbox when there is one.
pub(crate) fn spawn(
    launch: &Launch,
    isolation: &Isolation,
    stdin: Stdio,
) -> Result<Started, RunnerError> {
    let limits = launch.limits;
    let cpu_seconds = limits.cpu.as_secs() + u64::from(limits.cpu.subsec_nanos() > 0);
    let (program, args, cgroup) = match isolation {
        Isolation::Sandbox(sandbox) => {
            let (bwrap, args) = sandbox.command(
                launch.program,
                launch.args,
                launch.env,
                launch.workdir,
                launch.expose,
            );
            // Born in this thread's pids cgroup where possible; the rest joined per run.
            let cgroup = sandbox.run_cgroup(limits.memory_bytes);
            (bwrap, args, cgroup)
        }
        Isolation::LimitsOnly { .. } => (launch.program.to_path_buf(), launch.args.to_vec(), None),
    };
    let mut command = Command::new(&program);
    command
        .args(&args)
        .env_clear()
        .envs(launch.env.iter().map(|(k, v)| (k, v)))
        .current_dir(launch.workdir)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let parent = std::process::id() as libc::pid_t;
    // A memory cgroup bounds the whole run; without one, each process's address space.
    let address_space = if cgroup.as_ref().is_some_and(RunCgroup::bounds_memory) {
        libc::RLIM_INFINITY
    } else {
        limits.memory_bytes
    };
    // SAFETY: the closure runs between fork and exec and only makes async-signal-safe
    // system calls (prctl, getppid, setrlimit); it touches no memory shared with the parent.
    unsafe {
        let join = cgroup.as_ref().map(|c| c as *const RunCgroup as usize);
        command.pre_exec(move || {
            if let Some(cgroup) = join {
                // The cgroup outlives the spawn (it is returned in `Started`), and `join` only
                // makes async-signal-safe calls.
                (*(cgroup as *const RunCgroup)).join()?;
            }
            // If nimlab dies (Ctrl-C), the program dies with it instead of running on.
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 || libc::getppid() != parent
            {
                return Err(std::io::Error::other(
                    "nimlab exited before the program started",
                ));
            }
            set_limit(libc::RLIMIT_CPU, cpu_seconds.max(1), cpu_seconds.max(1) + 1)?;
            set_limit(libc::RLIMIT_AS, address_space, address_space)?;
            set_limit(libc::RLIMIT_FSIZE, FILE_SIZE_LIMIT, FILE_SIZE_LIMIT)?;
            set_limit(libc::RLIMIT_NOFILE, OPEN_FILES_LIMIT, OPEN_FILES_LIMIT)?;
            set_limit(libc::RLIMIT_CORE, 0, 0)?;
            Ok(())
        });
    }
    let at = Instant::now();
    let child = command.spawn().map_err(|source| RunnerError::Spawn {
        program: launch.program.to_path_buf(),
        source,
    })?;
    let pid = child.id() as libc::pid_t;
    Ok(Started {
        child,
        pid,
        at,
        cgroup,
    })
}

/// Lets go of a finished run's processes: whatever it left behind is killed, and nimlab waits
/// until they are gone so that the next run starts with its whole process allowance. True
/// when the kernel killed one of them because the run's memory passed its limit.
pub(crate) fn release(cgroup: Option<RunCgroup>, isolation: &Isolation) -> bool {
    if let Isolation::Sandbox(sandbox) = isolation {
        super::sandbox::settle_thread_cgroup(sandbox);
    }
    cgroup.is_some_and(RunCgroup::finish)
}

/// How a reaped program ended, from its wait status. In the sandbox, bubblewrap passes on its
/// program's death by signal N as exit status 128 + N (as shells do): that is read back as the
/// signal (so a program choosing `exit(139)` there reads as SIGSEGV too).
pub(crate) fn termination(status: libc::c_int, isolation: &Isolation) -> Termination {
    if libc::WIFSIGNALED(status) {
        return Termination::Signaled(libc::WTERMSIG(status));
    }
    let code = libc::WEXITSTATUS(status);
    match code - 128 {
        signal @ 1..=64 if isolation.is_isolated() => Termination::Signaled(signal),
        _ => Termination::Exited(code),
    }
}

pub(crate) fn cpu_time(usage: &libc::rusage) -> Duration {
    timeval(usage.ru_utime) + timeval(usage.ru_stime)
}

impl Runner for ProcessRunner {
    fn isolation(&self) -> &Isolation {
        &self.isolation
    }

    fn run(&self, spec: &RunSpec) -> Result<RunOutcome, RunnerError> {
        let stdin = stdin_file(spec.stdin)?;
        let launch = Launch {
            program: spec.program,
            args: &spec.args,
            env: &spec.env,
            workdir: spec.workdir,
            expose: spec.expose,
            limits: spec.limits,
        };
        let Started {
            mut child,
            pid,
            at: started,
            cgroup,
        } = spawn(&launch, &self.isolation, Stdio::from(stdin))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        // From here on the child must be killed and reaped whatever happens.
        let watch = Watch::new(pid, stdout, stderr, spec.limits.output_bytes);
        let watched = watch.and_then(|w| w.run(started + spec.limits.wall, spec.limits.cpu));
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
        Ok(RunOutcome {
            termination: watched
                .stopped_by_us
                .unwrap_or_else(|| termination(status, &self.isolation)),
            stdout: watched.stdout,
            stderr: watched.stderr,
            stderr_truncated: watched.stderr_truncated,
            cpu: cpu_time(&usage).max(watched.tree_cpu),
            wall,
            max_rss_bytes: u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024,
            out_of_memory,
        })
    }
}

fn set_limit(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) -> std::io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: soft,
        rlim_max: hard,
    };
    // SAFETY: a plain system call on a stack value.
    if unsafe { libc::setrlimit(resource, &limit) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
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

pub(crate) fn kill_group(pid: libc::pid_t) {
    // SAFETY: signals the child's own process group (its id is the child's pid, which stays
    // reserved until the child is reaped).
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

pub(crate) fn reap(pid: libc::pid_t) -> Result<(libc::c_int, libc::rusage), RunnerError> {
    let mut status = 0;
    // SAFETY: rusage is plain old data, filled in by wait4.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: waits for our own child; pointers are to live locals.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return Ok((status, usage));
        }
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return Err(RunnerError::system("cannot wait for the program"));
        }
    }
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
}

pub(crate) fn set_nonblocking(fd: RawFd) {
    // SAFETY: fcntl on a descriptor we own.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
}

pub(crate) fn pidfd_open(pid: libc::pid_t) -> Option<OwnedFd> {
    // SAFETY: pidfd_open returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    // SAFETY: a non-negative result is a fresh descriptor we own.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// Whether the child has exited, without reaping it (for kernels without pidfd).
pub(crate) fn has_exited(pid: libc::pid_t) -> bool {
    // SAFETY: siginfo is plain old data; WNOWAIT leaves the child to be reaped by wait4.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let r = unsafe {
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    // SAFETY: si_pid is valid to read after waitid filled the struct (zero if nothing exited).
    r == 0 && unsafe { info.si_pid() } != 0
}

/// What watching a program saw.
struct Watched {
    /// Set when nimlab stopped the program, and why.
    stopped_by_us: Option<Termination>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    stderr_truncated: bool,
    /// The most CPU time the whole process tree was seen to have used. The exit status's
    /// rusage counts only processes that were waited for: a killed fork bomb's are not.
    tree_cpu: Duration,
}

/// The child's pipes and exit, watched until the program and its pipes are done.
struct Watch {
    pid: libc::pid_t,
    pidfd: Option<OwnedFd>,
    stdout: Option<std::process::ChildStdout>,
    stderr: Option<std::process::ChildStderr>,
    output_limit: usize,
    out: Vec<u8>,
    err: Vec<u8>,
    err_truncated: bool,
}

impl Watch {
    fn new(
        pid: libc::pid_t,
        stdout: std::process::ChildStdout,
        stderr: std::process::ChildStderr,
        output_limit: u64,
    ) -> Result<Watch, RunnerError> {
        set_nonblocking(stdout.as_raw_fd());
        set_nonblocking(stderr.as_raw_fd());
        Ok(Watch {
            pid,
            pidfd: pidfd_open(pid),
            stdout: Some(stdout),
            stderr: Some(stderr),
            output_limit: usize::try_from(output_limit).unwrap_or(usize::MAX),
            out: Vec::new(),
            err: Vec::new(),
            err_truncated: false,
        })
    }

    fn run(mut self, deadline: Instant, cpu_limit: Duration) -> Result<Watched, RunnerError> {
        let mut termination = None;
        let mut exited = false;
        let mut drain_until = deadline;
        let mut next_cpu_check = Instant::now() + CPU_CHECK;
        let mut tree_cpu = Duration::ZERO;
        loop {
            if !exited && termination.is_none() && super::stopping() {
                termination = Some(Termination::WallTimeout);
                kill_group(self.pid);
            }
            if !exited && termination.is_none() && Instant::now() >= next_cpu_check {
                next_cpu_check = Instant::now() + CPU_CHECK;
                let cpu = cpu_so_far(self.pid).unwrap_or_default();
                tree_cpu = tree_cpu.max(cpu);
                if cpu > cpu_limit {
                    termination = Some(Termination::CpuTimeout);
                    kill_group(self.pid);
                }
            }
            if exited && self.stdout.is_none() && self.stderr.is_none() {
                break;
            }
            let now = Instant::now();
            if now >= drain_until {
                if !exited {
                    termination = Some(Termination::WallTimeout);
                    kill_group(self.pid);
                }
                break;
            }
            let mut fds = Vec::with_capacity(3);
            let poll_fd = |fd: RawFd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            };
            if let Some(out) = &self.stdout {
                fds.push(poll_fd(out.as_raw_fd()));
            }
            if let Some(err) = &self.stderr {
                fds.push(poll_fd(err.as_raw_fd()));
            }
            let mut wait = (drain_until - now).min(CPU_CHECK);
            match (&self.pidfd, exited) {
                (Some(pidfd), false) => fds.push(poll_fd(pidfd.as_raw_fd())),
                // Without a pidfd the exit is noticed by looking every few milliseconds.
                (None, false) => wait = wait.min(Duration::from_millis(5)),
                _ => {}
            }
            let timeout = i32::try_from(wait.as_millis() + 1).unwrap_or(i32::MAX);
            // SAFETY: fds is a live, correctly sized array of pollfd.
            let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout) };
            if ready < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(RunnerError::system("cannot watch the program"));
            }
            if self.read_stdout() {
                termination = Some(Termination::OutputLimit);
                kill_group(self.pid);
            }
            self.read_stderr();
            let now_exited = match &self.pidfd {
                Some(pidfd) => fds
                    .iter()
                    .any(|p| p.fd == pidfd.as_raw_fd() && p.revents != 0),
                None => has_exited(self.pid),
            };
            if !exited && now_exited {
                exited = true;
                // Whatever the program started dies with it; then the pipes reach their end.
                kill_group(self.pid);
                drain_until = Instant::now() + DRAIN_GRACE;
            }
        }
        Ok(Watched {
            stopped_by_us: termination,
            stdout: self.out,
            stderr: self.err,
            stderr_truncated: self.err_truncated,
            tree_cpu,
        })
    }

    /// Reads what stdout has; true when the output limit was passed.
    fn read_stdout(&mut self) -> bool {
        let Some(pipe) = &mut self.stdout else {
            return false;
        };
        let (out, limit) = (&mut self.out, self.output_limit);
        match drain(pipe, |data| append_limited(out, data, limit)) {
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

    /// Reads what stderr has, keeping only its last part.
    fn read_stderr(&mut self) {
        let Some(pipe) = &mut self.stderr else {
            return;
        };
        let (err, truncated) = (&mut self.err, &mut self.err_truncated);
        if drain(pipe, |data| {
            *truncated |= append_tail(err, data);
            false
        }) == Drained::Closed
        {
            self.stderr = None;
        }
    }
}

/// What reading a non-blocking pipe found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Drained {
    /// Read all it had for now; more may come.
    Open,
    /// It reached its end (or failed).
    Closed,
    /// The sink took no more.
    OverLimit,
}

/// Reads everything a non-blocking pipe has now, handing each chunk to `take`, which says
/// (true) when it will take no more.
pub(crate) fn drain(pipe: &mut impl Read, mut take: impl FnMut(&[u8]) -> bool) -> Drained {
    let mut buf = [0u8; 64 * 1024];
    loop {
        match pipe.read(&mut buf) {
            Ok(0) => return Drained::Closed,
            Ok(n) => {
                if take(&buf[..n]) {
                    return Drained::OverLimit;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Drained::Open,
            Err(_) => return Drained::Closed,
        }
    }
}

/// Appends `data` while `out` holds at most `limit` bytes; true when some had to be left out.
pub(crate) fn append_limited(out: &mut Vec<u8>, data: &[u8], limit: usize) -> bool {
    let room = limit.saturating_sub(out.len());
    out.extend_from_slice(&data[..data.len().min(room)]);
    data.len() > room
}

/// Appends `data`, keeping only about the last STDERR_KEEP bytes (where a traceback ends);
/// true when older bytes were dropped.
pub(crate) fn append_tail(out: &mut Vec<u8>, data: &[u8]) -> bool {
    out.extend_from_slice(data);
    if out.len() > 2 * STDERR_KEEP {
        let cut = out.len() - STDERR_KEEP;
        out.drain(..cut);
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::RunLimits;
    use std::path::Path;

    fn sh(script: &str, stdin: &[u8], limits: RunLimits) -> RunOutcome {
        let dir = tempfile::tempdir().unwrap();
        let spec = RunSpec {
            program: Path::new("/bin/sh"),
            args: vec!["-c".into(), script.into()],
            stdin,
            workdir: dir.path(),
            env: vec![("PATH".into(), "/usr/bin:/bin".into())],
            limits,
            expose: &[],
        };
        ProcessRunner::limits_only().run(&spec).unwrap()
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
