//! The system calls a lab program may make: a default-deny seccomp filter, applied to every
//! run in both runners (by bubblewrap before it starts a fresh interpreter, or by nimlab
//! itself between fork and exec without a sandbox, and by the fork server in each child before
//! it hands over to the program), so one file gets the same verdict either way.
//!
//! Everything not listed here fails with EPERM (Python raises PermissionError). The list is
//! what CPython 2.7 and 3.x need to start, import the standard library, read stdin, print,
//! allocate, time and sleep, and make and remove files of their own in their working folder
//! and /tmp (which the fork server empties after each run). It leaves out, on purpose, every
//! call that could leave a mark for a later run or reach another process: sockets, keyrings,
//! System V and POSIX IPC, new processes and threads (the lab's contest server allowed one
//! process per run too), signals to anything, priorities, affinities, I/O priorities and
//! limits of other processes, changes of a file's mode, owner, times or extended attributes,
//! links, mounts, namespaces, tracing and BPF. Where an allowed call could name another
//! process or do more than a lab program needs, its arguments are checked too.

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// When an allowed call is allowed.
enum When {
    Always,
    /// Only when the given argument (a 32-bit one, as the kernel reads it) is one of these.
    ArgIn(u8, &'static [u64]),
}

use When::{Always, ArgIn};

// ioctl requests: whether a descriptor is a terminal and its size (isatty, the io module),
// how much can be read, and the flags Python sets on its own descriptors. Nothing that writes
// to a terminal or another device.
const TCGETS: u64 = 0x5401;
const TIOCGWINSZ: u64 = 0x5413;
const FIONREAD: u64 = 0x541B;
const FIONBIO: u64 = 0x5421;
const FIONCLEX: u64 = 0x5450;
const FIOCLEX: u64 = 0x5451;

const PR_GET_DUMPABLE: u64 = 3;
const PR_SET_NAME: u64 = 15;
const PR_GET_NAME: u64 = 16;

// fcntl commands on the program's own descriptors: duplicating, and their flags. Not F_SETOWN
// or F_SETSIG, which would send signals to another process, nor any lock: runs beside each other
// read the same system files, and a lock one takes that another tests carries a bit (flock is
// left out for the same reason).
const FCNTL_COMMANDS: &[u64] = &[
    0,    // F_DUPFD
    1,    // F_GETFD
    2,    // F_SETFD
    3,    // F_GETFL
    4,    // F_SETFL
    1030, // F_DUPFD_CLOEXEC
    1032, // F_GETPIPE_SZ
];

/// The allowed calls, by name (for the user guide and errors) and number on this machine.
fn allowed() -> Vec<(&'static str, libc::c_long, When)> {
    // Each entry is libc's constant for the call (its name follows "SYS_"), and when.
    macro_rules! calls {
        ($($sys:ident $(: $when:expr)?),* $(,)?) => {
            vec![$((&stringify!($sys)[4..], libc::$sys, calls!(@when $($when)?))),*]
        };
        (@when) => { Always };
        (@when $when:expr) => { $when };
    }
    let mut list = calls![
        // Files and descriptors: the program's own.
        SYS_read, SYS_write, SYS_readv, SYS_writev, SYS_pread64, SYS_pwrite64, SYS_preadv, SYS_pwritev, SYS_lseek, SYS_close,
        SYS_close_range, SYS_openat, SYS_newfstatat, SYS_fstat, SYS_statx, SYS_faccessat, SYS_faccessat2, SYS_readlinkat,
        SYS_getdents64, SYS_getcwd, SYS_chdir, SYS_fchdir, SYS_dup, SYS_dup3, SYS_pipe2, SYS_mkdirat, SYS_unlinkat, SYS_renameat,
        SYS_renameat2, SYS_ftruncate, SYS_truncate, SYS_fsync, SYS_fdatasync, SYS_fadvise64, SYS_fstatfs, SYS_statfs, SYS_umask,
        SYS_ioctl: ArgIn(1, &[TCGETS, TIOCGWINSZ, FIONREAD, FIONBIO, FIONCLEX, FIOCLEX]),
        SYS_fcntl: ArgIn(1, FCNTL_COMMANDS),
        // Memory.
        SYS_brk, SYS_mmap, SYS_munmap, SYS_mremap, SYS_mprotect, SYS_madvise,
        // Signals the program handles or blocks (sending one is not allowed).
        SYS_rt_sigaction, SYS_rt_sigprocmask, SYS_rt_sigreturn, SYS_rt_sigpending, SYS_rt_sigsuspend,
        SYS_rt_sigtimedwait, SYS_sigaltstack,
        // Time, and waiting.
        SYS_clock_gettime, SYS_clock_getres, SYS_clock_nanosleep, SYS_nanosleep, SYS_gettimeofday, SYS_times,
        SYS_getitimer, SYS_setitimer, SYS_ppoll, SYS_pselect6, SYS_epoll_create1, SYS_epoll_ctl, SYS_epoll_pwait,
        SYS_epoll_pwait2,
        // What the program may know of itself; its own limits (pid 0: itself).
        SYS_getpid, SYS_getppid, SYS_gettid, SYS_getuid, SYS_geteuid, SYS_getgid, SYS_getegid, SYS_getresuid, SYS_getresgid,
        SYS_getgroups, SYS_getpgid, SYS_getsid, SYS_uname, SYS_sysinfo, SYS_getrusage, SYS_getrlimit, SYS_setrlimit,
        SYS_prlimit64: ArgIn(0, &[0]),
        SYS_sched_getaffinity: ArgIn(0, &[0]),
        SYS_sched_yield, SYS_getcpu,
        // Its own dumpable flag and name, read or set (a thread library names threads).
        SYS_prctl: ArgIn(0, &[PR_GET_DUMPABLE, PR_SET_NAME, PR_GET_NAME]),
        // The C library's start and locks (one thread: no other to wait for).
        SYS_futex, SYS_set_tid_address, SYS_set_robust_list, SYS_rseq,
        // Randomness, the end, and starting an interpreter (the filter stays on across exec).
        SYS_getrandom, SYS_exit, SYS_exit_group, SYS_restart_syscall, SYS_execve, SYS_execveat, SYS_wait4, SYS_waitid,
    ];
    #[cfg(target_arch = "x86_64")]
    list.extend(calls![
        // The older calls x86_64 still has, which the C library and Python 2 use.
        SYS_open,
        SYS_creat,
        SYS_stat,
        SYS_lstat,
        SYS_access,
        SYS_readlink,
        SYS_getdents,
        SYS_pipe,
        SYS_dup2,
        SYS_select,
        SYS_poll,
        SYS_epoll_wait,
        SYS_epoll_create,
        SYS_alarm,
        SYS_time,
        SYS_pause,
        SYS_mkdir,
        SYS_rmdir,
        SYS_unlink,
        SYS_rename,
        SYS_getpgrp,
        SYS_arch_prctl,
    ]);
    list
}

/// The target architecture the filter checks calls against.
fn architecture() -> Option<TargetArch> {
    if cfg!(target_arch = "x86_64") {
        Some(TargetArch::x86_64)
    } else if cfg!(target_arch = "aarch64") {
        Some(TargetArch::aarch64)
    } else if cfg!(target_arch = "riscv64") {
        Some(TargetArch::riscv64)
    } else {
        None
    }
}

/// The compiled filter, once per process (None where this machine has no seccomp, or nimlab
/// has no filter for its architecture).
fn compiled() -> Option<&'static [libc::sock_filter]> {
    static FILTER: OnceLock<Option<Vec<libc::sock_filter>>> = OnceLock::new();
    FILTER
        .get_or_init(|| {
            // SAFETY: prctl with PR_GET_SECCOMP reads the calling thread's mode; EINVAL means
            // the kernel was built without seccomp.
            if unsafe { libc::prctl(libc::PR_GET_SECCOMP) } < 0 {
                return None;
            }
            let program = build(architecture()?).expect("the allow-list compiles");
            Some(
                program
                    .into_iter()
                    .map(|i| libc::sock_filter {
                        code: i.code,
                        jt: i.jt,
                        jf: i.jf,
                        k: i.k,
                    })
                    .collect(),
            )
        })
        .as_deref()
}

fn build(arch: TargetArch) -> Result<BpfProgram, seccompiler::Error> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    for (_, number, when) in allowed() {
        let chain = match when {
            Always => Vec::new(),
            ArgIn(index, values) => values
                .iter()
                .map(|&value| {
                    let condition = SeccompCondition::new(
                        index,
                        SeccompCmpArgLen::Dword,
                        SeccompCmpOp::Eq,
                        value,
                    )?;
                    SeccompRule::new(vec![condition])
                })
                .collect::<Result<_, _>>()?,
        };
        #[allow(clippy::useless_conversion)] // (c_long is i64 only on 64-bit machines)
        rules.insert(i64::from(number), chain);
    }
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Errno(libc::EPERM as u32),
        SeccompAction::Allow,
        arch,
    )?;
    Ok(BpfProgram::try_from(filter)?)
}

#[cfg(test)]
thread_local! {
    static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// For the runner's own unit tests, which run shell scripts (that start processes) to test
/// its mechanics, apart from this policy: runs started from this thread are not filtered.
#[cfg(test)]
pub(crate) fn off_in_this_thread() {
    OFF.with(|off| off.set(true));
}

fn off() -> bool {
    #[cfg(test)]
    return OFF.with(std::cell::Cell::get);
    #[cfg(not(test))]
    false
}

/// Whether runs are filtered on this machine.
pub fn available() -> bool {
    compiled().is_some()
}

/// The filter as bubblewrap's `--seccomp` and the fork server read it: `struct sock_filter`
/// after `struct sock_filter`, in this machine's byte order (made once: every fresh run's
/// sandbox reads it).
pub fn bytes() -> Option<&'static [u8]> {
    static BYTES: OnceLock<Option<Vec<u8>>> = OnceLock::new();
    if off() {
        return None;
    }
    BYTES
        .get_or_init(|| {
            let program = compiled()?;
            let mut out = Vec::with_capacity(program.len() * 8);
            for i in program {
                out.extend_from_slice(&i.code.to_ne_bytes());
                out.push(i.jt);
                out.push(i.jf);
                out.extend_from_slice(&i.k.to_ne_bytes());
            }
            Some(out)
        })
        .as_deref()
}

/// What [`install`] needs, made before a fork: nothing may be allocated between fork and exec.
#[derive(Clone, Copy)]
pub struct Prepared(&'static [libc::sock_filter]);

pub fn prepare() -> Option<Prepared> {
    if off() {
        return None;
    }
    compiled().map(Prepared)
}

/// Puts the calling process under the filter for good (and under no_new_privs, which the
/// kernel requires of a process without CAP_SYS_ADMIN). Async-signal-safe: two prctl calls.
pub fn install(prepared: Prepared) -> std::io::Result<()> {
    let program = libc::sock_fprog {
        len: prepared.0.len() as libc::c_ushort,
        filter: prepared.0.as_ptr() as *mut libc::sock_filter,
    };
    // SAFETY: prctl reads `program`, which lives until the call returns, and the filter it
    // points to, which is static.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
            || libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER,
                &program as *const libc::sock_fprog,
            ) != 0
        {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The allowed calls' names, for documentation and tests.
pub fn allowed_names() -> Vec<&'static str> {
    allowed().into_iter().map(|(name, _, _)| name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_compiles_and_names_each_call_once() {
        let names = allowed_names();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(names.len(), unique.len(), "a call is listed twice");
        for denied in [
            "socket", "keyctl", "add_key", "kill", "tgkill", "clone", "clone3", "ptrace",
        ] {
            assert!(!names.contains(&denied), "{denied} must not be allowed");
        }
        let arch = architecture().expect("a supported architecture");
        assert!(build(arch).unwrap().len() > names.len());
    }

    /// A forked child puts itself under the filter: what the list allows still works, what it
    /// leaves out fails with EPERM, and arguments are checked.
    #[test]
    fn a_filtered_process_may_read_and_write_but_not_reach_others() {
        let Some(prepared) = prepare() else {
            return;
        };
        // SAFETY: the child makes only system calls, then _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0);
        if pid == 0 {
            let code = unsafe {
                if install(prepared).is_err() {
                    libc::_exit(10);
                }
                let mut failures = 0;
                // Allowed: its own pid, its own limits.
                if libc::getpid() <= 0 {
                    failures |= 1;
                }
                let mut limit = std::mem::zeroed::<libc::rlimit>();
                if libc::prlimit(0, libc::RLIMIT_NOFILE, std::ptr::null(), &mut limit) != 0 {
                    failures |= 2;
                }
                // Refused: another process's limits, a socket, a signal, a new process.
                let expect_eperm =
                    |r: libc::c_long| r == -1 && *libc::__errno_location() == libc::EPERM;
                if !expect_eperm(libc::prlimit(
                    libc::getppid(),
                    libc::RLIMIT_NOFILE,
                    std::ptr::null(),
                    &mut limit,
                ) as libc::c_long)
                {
                    failures |= 4;
                }
                if !expect_eperm(libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0) as libc::c_long)
                {
                    failures |= 8;
                }
                if !expect_eperm(libc::kill(libc::getppid(), 0) as libc::c_long) {
                    failures |= 16;
                }
                if !expect_eperm(libc::syscall(libc::SYS_keyctl, 0, -3, 0)) {
                    failures |= 32;
                }
                if !expect_eperm(libc::ioctl(0, libc::TIOCSTI, b"x".as_ptr()) as libc::c_long) {
                    failures |= 64;
                }
                failures
            };
            unsafe { libc::_exit(code) };
        }
        let mut status = 0;
        // SAFETY: waits for the child forked above.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(libc::WIFEXITED(status), "the child was killed: {status:#x}");
        assert_eq!(libc::WEXITSTATUS(status), 0, "failed checks (bits)");
    }
}
