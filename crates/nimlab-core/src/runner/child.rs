//! A program as a child process: started in its own process group under its limits (in the
//! sandbox where there is one), watched through /proc, killed and reaped. The primitives that
//! whole runs ([`super::ProcessRunner`]) and sessions ([`super::interactive`]) share.

use super::RunSpec;
use super::Termination;
use super::filter;
use super::identity::{Descent, close_inherited};
use super::sandbox::{Inside, Isolation, RunCgroup, installation};
use crate::error::RunnerError;
use std::ffi::OsString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Files the program writes in its scratch folder are capped too.
const FILE_SIZE_LIMIT: u64 = 64 * 1024 * 1024;
const OPEN_FILES_LIMIT: u64 = 256;

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

/// The state letter of one process, from /proc/PID/stat ('R' running or runnable, 'S'
/// sleeping, ...).
pub(crate) fn process_state(pid: libc::pid_t) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.trim_start().chars().next()
}

/// Whether some process of a running program is running or waiting for a CPU: working, as
/// opposed to sleeping or waiting for input. On a loaded machine a busy program gets little
/// CPU time but stays runnable, so this tells busy from idle where CPU time cannot.
pub(crate) fn tree_is_working(pid: libc::pid_t) -> bool {
    process_tree(pid)
        .into_iter()
        .any(|member| process_state(member) == Some('R'))
}

/// A started program: its handle, its pid (also its process group), when it started, and
/// the cgroup that holds it (removed when this is dropped).
pub(crate) struct Started {
    pub child: std::process::Child,
    pub pid: libc::pid_t,
    pub at: Instant,
    pub cgroup: Option<RunCgroup>,
}

/// Starts a program in its own process group, under the limits, with only its environment,
/// inside the sandbox when there is one.
pub(crate) fn spawn(
    launch: &RunSpec,
    isolation: &Isolation,
    stdin: Stdio,
) -> Result<Started, RunnerError> {
    // Born in this thread's pids cgroup where possible; the rest joined per run.
    let cgroup = match isolation {
        Isolation::Sandbox(sandbox) => sandbox.run_cgroup(launch.limits.memory_bytes),
        Isolation::LimitsOnly { .. } => None,
    };
    spawn_in(launch, isolation, stdin, cgroup, Role::Program)
}

/// What is started: a lab program (under the system call filter) or a fork server (which
/// puts each of its runs under it).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Program,
    ForkServer,
}

/// The filter as a pipe bubblewrap reads it from (its read end, to be inherited).
fn filter_pipe() -> Result<Option<OwnedFd>, RunnerError> {
    let Some(bytes) = filter::bytes() else {
        return Ok(None);
    };
    let failed = |e: std::io::Error| RunnerError::Spawn {
        program: "bwrap".into(),
        source: e,
    };
    let mut fds = [0; 2];
    // SAFETY: fds is a live array of two descriptors to fill.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(failed(std::io::Error::last_os_error()));
    }
    // SAFETY: both were just created and belong to nobody else.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    // A few kilobytes: the pipe holds them all, and bubblewrap reads to the end.
    std::io::Write::write_all(&mut std::fs::File::from(write), bytes).map_err(failed)?;
    Ok(Some(read))
}

/// What is run, and how the system call filter reaches it: as a pipe bubblewrap reads (its
/// read end inherited), or installed by the child itself, last before exec.
struct CommandLine {
    program: PathBuf,
    args: Vec<OsString>,
    filter_fd: Option<OwnedFd>,
    own_filter: Option<filter::Prepared>,
}

/// The command line for `role`: bubblewrap's in a sandbox (which applies the filter), the
/// program's own without one (the child then applies the filter itself).
fn command_line(
    launch: &RunSpec,
    isolation: &Isolation,
    role: Role,
) -> Result<CommandLine, RunnerError> {
    let mut filter_fd = None;
    let mut own_filter = None;
    let (program, args) = match isolation {
        Isolation::Sandbox(sandbox) => {
            let inside = match role {
                Role::Program => {
                    filter_fd = filter_pipe()?;
                    Inside::Program {
                        filter: filter_fd.as_ref().map(|fd| fd.as_raw_fd()),
                    }
                }
                Role::ForkServer => Inside::ForkServer,
            };
            sandbox.command(
                launch.program,
                &launch.args,
                &launch.env,
                launch.workdir,
                launch.expose,
                &inside,
            )
        }
        Isolation::LimitsOnly { .. } => {
            if role == Role::Program {
                own_filter = filter::prepare();
            }
            // By its real path, as in a sandbox (see `Sandbox::command`): a virtual
            // environment's link runs its installation's Python in both.
            let real = std::fs::canonicalize(launch.program)
                .unwrap_or_else(|_| launch.program.to_path_buf());
            (real, launch.args.clone())
        }
    };
    Ok(CommandLine {
        program,
        args,
        filter_fd,
        own_filter,
    })
}

/// The command for `line`: only the launch's environment, in its working folder, in a
/// process group of its own, its output piped.
fn base_command(launch: &RunSpec, line: &CommandLine, stdin: Stdio) -> Command {
    let mut command = Command::new(&line.program);
    command
        .args(&line.args)
        .env_clear()
        .envs(launch.env.iter().map(|(k, v)| (k, v)))
        .current_dir(launch.workdir)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    command
}

/// Starts a program as [`spawn`] does, in the given cgroups (joined between fork and exec).
pub(crate) fn spawn_in(
    launch: &RunSpec,
    isolation: &Isolation,
    stdin: Stdio,
    cgroup: Option<RunCgroup>,
    role: Role,
) -> Result<Started, RunnerError> {
    let limits = launch.limits;
    let cpu_seconds = limits.kernel_cpu_seconds();
    let line = command_line(launch, isolation, role)?;
    let mut command = base_command(launch, &line, stdin);
    let CommandLine {
        filter_fd,
        own_filter,
        ..
    } = line;
    let inherit = filter_fd.as_ref().map(|fd| fd.as_raw_fd());
    let parent = std::process::id() as libc::pid_t;
    // When nimlab is root, the child becomes an unprivileged user before exec (see
    // `identity`), with the folders it needs still in reach.
    let descent = Descent::new(&needed_folders(launch, isolation));
    let run_as = descent.as_ref().map(Descent::run_as);
    if run_as.is_some() {
        super::identity::open_to_runs(launch.expose);
    }
    // A memory cgroup bounds the whole run; without one, each process's address space. With
    // one, the inherited limit is left as it is: raising it could be refused.
    let address_space = (!cgroup.as_ref().is_some_and(RunCgroup::bounds_memory))
        .then(|| limits.memory_bytes.min(inherited_limit(libc::RLIMIT_AS)));
    // SAFETY: the closure runs between fork and exec and only makes async-signal-safe
    // system calls (prctl, getppid, sigaction, setrlimit, keyctl, fcntl, and the filter's prctl calls);
    // it touches no memory shared with the
    // parent.
    unsafe {
        let join = cgroup.as_ref().map(|c| c as *const RunCgroup as usize);
        command.pre_exec(move || {
            if let Some(cgroup) = join {
                // The cgroup outlives the spawn (it is returned in `Started`), and `join` only
                // makes async-signal-safe calls.
                (*(cgroup as *const RunCgroup)).join()?;
            }
            die_with(parent)?;
            default_signal_actions();
            set_limit(libc::RLIMIT_CPU, cpu_seconds, cpu_seconds + 1)?;
            if let Some(bytes) = address_space {
                set_limit(libc::RLIMIT_AS, bytes, bytes)?;
            }
            set_limit(libc::RLIMIT_FSIZE, FILE_SIZE_LIMIT, FILE_SIZE_LIMIT)?;
            set_limit(libc::RLIMIT_CORE, 0, 0)?;
            // No POSIX message queue can be made: one would outlive the run in its sandbox's
            // IPC namespace, unseen, for a later run of a fork server to read.
            set_limit(libc::RLIMIT_MSGQUEUE, 0, 0)?;
            if let Some(descent) = &descent {
                descent.apply()?;
                // (A change of user clears the parent-death signal.)
                die_with(parent)?;
            }
            // Lowered only now: the descent opens the folders it binds again, and this child
            // holds every descriptor nimlab had at the fork (a busy website's hundreds of
            // connections), so under the run's limit no number would be left for them.
            set_limit(libc::RLIMIT_NOFILE, OPEN_FILES_LIMIT, OPEN_FILES_LIMIT)?;
            // A session keyring of the run's own (or its fork server's, emptied after each
            // run): the one nimlab may have from a login would be shared by every run.
            // (Without keys in the kernel the call fails, and there is nothing to share.)
            libc::syscall(
                libc::SYS_keyctl,
                KEYCTL_JOIN_SESSION_KEYRING,
                std::ptr::null::<libc::c_char>(),
            );
            if let Some(fd) = inherit {
                // bubblewrap reads the filter from this descriptor.
                if libc::fcntl(fd, libc::F_SETFD, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            // Nothing nimlab itself inherited reaches the program, at any number.
            close_inherited(inherit)?;
            if let Some(prepared) = own_filter {
                filter::install(prepared)?;
            }
            Ok(())
        });
    }
    // A process needs its working folder on this side (a forked run's is made in its
    // server's sandbox, so callers leave making it to the runner).
    std::fs::create_dir_all(launch.workdir).map_err(|source| RunnerError::Workdir {
        folder: launch.workdir.to_path_buf(),
        source,
    })?;
    if let (Some(run_as), Isolation::LimitsOnly { .. }) = (run_as, isolation) {
        // Without a sandbox the program writes in this folder itself, as its own user.
        std::os::unix::fs::chown(launch.workdir, Some(run_as.uid), Some(run_as.gid)).map_err(
            |source| RunnerError::Workdir {
                folder: launch.workdir.to_path_buf(),
                source,
            },
        )?;
    }
    let at = Instant::now();
    let child = command.spawn().map_err(|source| RunnerError::Spawn {
        program: launch.program.to_path_buf(),
        source,
    })?;
    drop(filter_fd);
    let pid = child.id() as libc::pid_t;
    Ok(Started {
        child,
        pid,
        at,
        cgroup,
    })
}

/// Makes the child die with nimlab (PR_SET_PDEATHSIG), and fails if nimlab is gone already.
///
/// # Safety
/// Call it only in the child after fork; it makes only async-signal-safe calls.
unsafe fn die_with(parent: libc::pid_t) -> std::io::Result<()> {
    // SAFETY: prctl and getppid on the calling process.
    let set = unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) } == 0;
    // SAFETY: as above.
    if !set || unsafe { libc::getppid() } != parent {
        return Err(std::io::Error::other(
            "nimlab exited before the program started",
        ));
    }
    Ok(())
}

/// The host folders a child must still reach once it is no longer root: the interpreter's
/// installation (bubblewrap binds it; without a sandbox the program runs from it), and the
/// folders shown to the program.
fn needed_folders(launch: &RunSpec, isolation: &Isolation) -> Vec<PathBuf> {
    let own = installation(launch.program).or_else(|| {
        launch
            .program
            .parent()
            .filter(|_| !isolation.is_isolated())
            .map(std::path::Path::to_path_buf)
    });
    // Without a sandbox the run works in its folder as it is: reachable by its path too
    // (a fork server makes each case's folder in it by path, a program may join its
    // `os.getcwd()`), not only as the folder it starts in.
    let workdir = (!isolation.is_isolated()).then(|| launch.workdir.to_path_buf());
    own.into_iter()
        .filter(|folder| !folder.starts_with("/usr"))
        .chain(launch.expose.iter().cloned())
        .chain(workdir)
        .collect()
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

/// The hard limit nimlab itself runs under: a child can be given less, never more.
fn inherited_limit(resource: libc::__rlimit_resource_t) -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: a plain system call filling a stack value.
    if unsafe { libc::getrlimit(resource, &mut limit) } != 0 {
        return libc::RLIM_INFINITY;
    }
    limit.rlim_max
}

/// keyctl(2)'s operation that makes the caller a fresh anonymous session keyring.
const KEYCTL_JOIN_SESSION_KEYRING: libc::c_long = 1;

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

/// Sends SIGKILL to the process a pidfd refers to (nothing happens once it has ended, however
/// soon its id is used again).
pub(crate) fn kill_by_pidfd(pidfd: &OwnedFd) {
    // SAFETY: the descriptor is a live pidfd; no siginfo is passed.
    unsafe {
        libc::syscall(
            libc::SYS_pidfd_send_signal,
            std::os::fd::AsRawFd::as_raw_fd(pidfd),
            libc::SIGKILL,
            std::ptr::null::<libc::siginfo_t>(),
            0,
        );
    }
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

/// Every signal back to its default action in a child about to exec (async-signal-safe:
/// sigaction alone). A run starts so however nimlab was started: a shell starts a background
/// job with SIGINT and SIGQUIT ignored, `nohup` ignores SIGHUP, and an ignored SIGCHLD would
/// change how a program's own children are waited for. Python installs its handler for
/// SIGINT (KeyboardInterrupt) only where SIGINT was not ignored.
fn default_signal_actions() {
    for signal in 1..32 {
        if signal != libc::SIGKILL && signal != libc::SIGSTOP {
            // SAFETY: resetting a disposition; fails harmlessly for a signal that has none.
            unsafe { libc::signal(signal, libc::SIG_DFL) };
        }
    }
}
