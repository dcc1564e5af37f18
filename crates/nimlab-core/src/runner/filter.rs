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
//!
//! The filter is written here as classic BPF: a binary search on the call's number, then its
//! arguments where they are checked. The kernel checks, converts and compiles a filter each
//! time a process installs it, once per run, and runs it on every call number to fill a cache,
//! in time that grows with the steps it takes: the same policy compiled by seccompiler was 690
//! instructions taken one after another, and cost each forked run 0.45 ms of its 3.2
//! (docs/performance.md); a list of one comparison per call (180 instructions) still cost
//! about 5% of a class's grading, nearly all in that cache's filling. The tests evaluate this
//! filter and seccompiler's on every call number and the arguments that matter, and require
//! the same answer (seccompiler stays as that oracle).

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

/// The architecture the filter checks calls against, as the kernel's seccomp data names it
/// (`AUDIT_ARCH_*`): a call made through another ABI is refused outright.
fn architecture() -> Option<u32> {
    if cfg!(target_arch = "x86_64") {
        Some(0xC000_003E)
    } else if cfg!(target_arch = "aarch64") {
        Some(0xC000_00B7)
    } else if cfg!(target_arch = "riscv64") {
        Some(0xC000_00F3)
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
            Some(build(architecture()?))
        })
        .as_deref()
}

// Classic BPF, as the kernel's filter.h spells it: the instructions the filter uses, and what
// it returns.
const LOAD_WORD: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JUMP_IF_EQUAL: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JUMP_IF_AT_LEAST: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const JUMP: u16 = 0x05; // BPF_JMP | BPF_JA
const RETURN: u16 = 0x06; // BPF_RET | BPF_K
const KILL_PROCESS: u32 = 0x8000_0000; // SECCOMP_RET_KILL_PROCESS
const ALLOW: u32 = 0x7FFF_0000; // SECCOMP_RET_ALLOW
const REFUSE: u32 = 0x0005_0000 | libc::EPERM as u32; // SECCOMP_RET_ERRNO | EPERM
/// Where `struct seccomp_data` keeps the call's number, its architecture, and the lower 32
/// bits of each argument (the machines named in [`architecture`] are little-endian).
const NUMBER_AT: u32 = 0;
const ARCHITECTURE_AT: u32 = 4;
fn argument_at(index: u8) -> u32 {
    16 + 8 * u32::from(index)
}
/// The most calls a leaf of the search tree compares one after another.
const LEAF: usize = 8;

fn instruction(code: u16, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
    libc::sock_filter { code, jt, jf, k }
}

/// A short forward jump's offset, which classic BPF holds in a byte.
fn offset(distance: usize) -> u8 {
    u8::try_from(distance).expect("a short jump fits a byte")
}

/// An allowed call's number, and its argument's allowed values where they are checked.
type Entry = (u32, Option<(u8, &'static [u64])>);

/// The allow-list as a filter for the architecture `audit_arch`: another architecture's call
/// kills the process; an allowed call (with its arguments, where they are checked) is allowed;
/// any other call fails with EPERM.
///
/// The calls are found by a binary search on their number, not one comparison after another:
/// when a process installs a filter, the kernel runs it on every call number of every
/// architecture it has, with interrupts off, to learn which calls it may allow without running
/// it again. A list of 180 comparisons made that a few hundred thousand steps a run; the
/// search makes it at most sixteen a call number.
fn build(audit_arch: u32) -> Vec<libc::sock_filter> {
    let number = |n: libc::c_long| u32::try_from(n).expect("call numbers fit 32 bits");
    let mut entries: Vec<Entry> = allowed()
        .into_iter()
        .map(|(_, n, when)| match when {
            Always => (number(n), None),
            ArgIn(index, values) => (number(n), Some((index, values))),
        })
        .collect();
    entries.sort_unstable_by_key(|(n, _)| *n);
    let mut program = vec![
        instruction(LOAD_WORD, ARCHITECTURE_AT, 0, 0),
        instruction(JUMP_IF_EQUAL, audit_arch, 1, 0),
        instruction(RETURN, KILL_PROCESS, 0, 0),
        instruction(LOAD_WORD, NUMBER_AT, 0, 0),
    ];
    program.extend(search(&entries));
    program
}

/// The search for the call number in the accumulator among `entries` (sorted): halves split
/// by one comparison each, down to leaves of a few.
fn search(entries: &[Entry]) -> Vec<libc::sock_filter> {
    if entries.len() <= LEAF {
        return leaf(entries);
    }
    let middle = entries.len() / 2;
    let (below, from) = (search(&entries[..middle]), search(&entries[middle..]));
    let mut program = Vec::with_capacity(below.len() + from.len() + 2);
    match u8::try_from(below.len()) {
        Ok(over) => program.push(instruction(JUMP_IF_AT_LEAST, entries[middle].0, over, 0)),
        Err(_) => {
            // Too far for a conditional jump: a long jump over the lower half instead.
            let over = u32::try_from(below.len()).expect("a filter is short");
            program.push(instruction(JUMP_IF_AT_LEAST, entries[middle].0, 0, 1));
            program.push(instruction(JUMP, over, 0, 0));
        }
    }
    program.extend(below);
    program.extend(from);
    program
}

/// A few calls compared one by one: a match jumps to ALLOW, or to its arguments' check (which
/// loads the argument and compares it with each allowed value); no match is refused.
fn leaf(entries: &[Entry]) -> Vec<libc::sock_filter> {
    let allow_at = entries.len() + 1;
    let mut checks = Vec::new();
    let mut program = Vec::with_capacity(entries.len() + 2);
    for (at, (call, checked)) in entries.iter().enumerate() {
        let target = match checked {
            None => allow_at,
            Some((index, values)) => {
                let start = allow_at + 1 + checks.len();
                checks.push(instruction(LOAD_WORD, argument_at(*index), 0, 0));
                for (i, value) in values.iter().enumerate() {
                    let value = u32::try_from(*value).expect("checked arguments fit 32 bits");
                    checks.push(instruction(
                        JUMP_IF_EQUAL,
                        value,
                        offset(values.len() - i),
                        0,
                    ));
                }
                checks.push(instruction(RETURN, REFUSE, 0, 0));
                checks.push(instruction(RETURN, ALLOW, 0, 0));
                start
            }
        };
        program.push(instruction(
            JUMP_IF_EQUAL,
            *call,
            offset(target - at - 1),
            0,
        ));
    }
    program.push(instruction(RETURN, REFUSE, 0, 0));
    program.push(instruction(RETURN, ALLOW, 0, 0));
    program.extend(checks);
    program
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
        let program = build(arch);
        assert!(program.len() > names.len());
        // The kernel refuses a program of more than BPF_MAXINSNS instructions.
        assert!(program.len() <= 4096);
    }

    /// The same policy as seccompiler compiles it: the oracle this filter is held to.
    fn by_seccompiler(arch: seccompiler::TargetArch) -> Vec<libc::sock_filter> {
        use seccompiler::{
            BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition,
            SeccompFilter, SeccompRule,
        };
        let mut rules = std::collections::BTreeMap::new();
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
                        )
                        .unwrap();
                        SeccompRule::new(vec![condition]).unwrap()
                    })
                    .collect(),
            };
            #[allow(clippy::useless_conversion)] // (c_long is i64 only on 64-bit machines)
            rules.insert(i64::from(number), chain);
        }
        let filter = SeccompFilter::new(
            rules,
            SeccompAction::Errno(libc::EPERM as u32),
            SeccompAction::Allow,
            arch,
        )
        .unwrap();
        BpfProgram::try_from(filter)
            .unwrap()
            .into_iter()
            .map(|i| instruction(i.code, i.k, i.jt, i.jf))
            .collect()
    }

    /// What a classic BPF program returns for `data` (a `struct seccomp_data`), for the
    /// instructions these filters use; None for any other, or a jump out of the program.
    fn evaluate(program: &[libc::sock_filter], data: &[u8; 64]) -> Option<u32> {
        let (mut at, mut accumulator) = (0usize, 0u32);
        loop {
            let i = program.get(at)?;
            at += 1;
            match i.code {
                LOAD_WORD => {
                    let k = i.k as usize;
                    accumulator = u32::from_le_bytes(data.get(k..k + 4)?.try_into().ok()?);
                }
                JUMP_IF_EQUAL => {
                    at += usize::from(if accumulator == i.k { i.jt } else { i.jf });
                }
                JUMP_IF_AT_LEAST => {
                    at += usize::from(if accumulator >= i.k { i.jt } else { i.jf });
                }
                JUMP => at += i.k as usize,
                RETURN => return Some(i.k),
                _ => return None,
            }
        }
    }

    fn seccomp_data(arch: u32, number: u32, arguments: [u64; 6]) -> [u8; 64] {
        let mut data = [0u8; 64];
        data[0..4].copy_from_slice(&number.to_le_bytes());
        data[4..8].copy_from_slice(&arch.to_le_bytes());
        data[8..16].copy_from_slice(&0x4000_1234u64.to_le_bytes());
        for (n, argument) in arguments.iter().enumerate() {
            data[16 + 8 * n..24 + 8 * n].copy_from_slice(&argument.to_le_bytes());
        }
        data
    }

    /// Every call number (and the x32 ones), from this architecture and another, with every
    /// checked argument's allowed values, their neighbours, their upper half set, and others:
    /// this filter answers as seccompiler's, and is a quarter of its length.
    #[test]
    fn the_filter_answers_every_call_as_seccompiler_compiles_the_same_list() {
        let (audit, target) = if cfg!(target_arch = "x86_64") {
            (0xC000_003E, seccompiler::TargetArch::x86_64)
        } else if cfg!(target_arch = "aarch64") {
            (0xC000_00B7, seccompiler::TargetArch::aarch64)
        } else {
            return;
        };
        let ours = build(audit);
        let oracle = by_seccompiler(target);
        assert!(
            ours.len() * 3 < oracle.len(),
            "{} against {}",
            ours.len(),
            oracle.len()
        );
        let mut values: Vec<u64> = vec![0, 1, 2, 0xFFFF_FFFF, u64::MAX, 1 << 32, 0x5401 << 32];
        for (_, _, when) in allowed() {
            if let ArgIn(_, allowed) = when {
                for &v in allowed {
                    values.extend([v, v + 1, v.wrapping_sub(1), v | 1 << 32, v | 1 << 63]);
                }
            }
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..64 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            values.push(seed);
        }
        let mut numbers: Vec<u32> = (0..1024).collect();
        numbers.extend((0..600).map(|n| 0x4000_0000 | n));
        numbers.extend([u32::MAX, 0x7FFF_FFFF]);
        let mut compared = 0;
        for arch in [audit, 0x4000_0003, 0xC000_0028] {
            for &number in &numbers {
                let checked = allowed()
                    .into_iter()
                    .find(|(_, n, _)| *n as u32 == number)
                    .and_then(|(_, _, when)| match when {
                        ArgIn(index, _) => Some(index),
                        Always => None,
                    });
                let tried: Vec<[u64; 6]> = match checked {
                    Some(index) => values
                        .iter()
                        .map(|&v| {
                            let mut arguments = [7; 6];
                            arguments[usize::from(index)] = v;
                            arguments
                        })
                        .collect(),
                    None => vec![[0; 6], [u64::MAX; 6]],
                };
                for arguments in tried {
                    let data = seccomp_data(arch, number, arguments);
                    let (a, b) = (evaluate(&ours, &data), evaluate(&oracle, &data));
                    assert!(a.is_some(), "ours did not answer call {number}");
                    assert_eq!(
                        a, b,
                        "call {number} {arguments:x?} from {arch:#x}: ours {a:x?}, seccompiler {b:x?}"
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 3 * 1600, "{compared}");
    }

    /// How many instructions the kernel steps through for one call number when it fills its
    /// cache of calls allowed whatever their arguments (seccomp_is_const_allow: it follows the
    /// number and the architecture, and gives up at the first argument load).
    fn steps_to_settle(program: &[libc::sock_filter], data: &[u8; 64]) -> usize {
        let (mut at, mut accumulator, mut steps) = (0usize, 0u32, 0);
        while let Some(i) = program.get(at) {
            steps += 1;
            at += 1;
            match i.code {
                LOAD_WORD if i.k == NUMBER_AT || i.k == ARCHITECTURE_AT => {
                    let k = i.k as usize;
                    accumulator = u32::from_le_bytes(data[k..k + 4].try_into().unwrap());
                }
                JUMP_IF_EQUAL => at += usize::from(if accumulator == i.k { i.jt } else { i.jf }),
                JUMP_IF_AT_LEAST => {
                    at += usize::from(if accumulator >= i.k { i.jt } else { i.jf });
                }
                JUMP => at += i.k as usize,
                _ => break,
            }
        }
        steps
    }

    /// Installing the filter stays cheap: the kernel's pass over every call number takes a
    /// sixteen steps at most for each, where a list of comparisons took up to 180.
    #[test]
    fn the_kernel_settles_every_call_number_in_a_few_steps() {
        let Some(audit) = architecture() else {
            return;
        };
        let program = build(audit);
        let steps: Vec<usize> = (0..1024)
            .map(|number| steps_to_settle(&program, &seccomp_data(audit, number, [0; 6])))
            .collect();
        let most = steps.iter().max().copied().unwrap_or(0);
        assert!(most <= 16, "a call number takes {most} steps");
        assert!(steps.iter().sum::<usize>() <= 1024 * 16);
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
