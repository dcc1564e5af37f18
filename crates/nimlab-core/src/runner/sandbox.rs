//! Isolation for untrusted programs.
//!
//! nimlab uses bubblewrap (`bwrap`, Debian's package `bubblewrap`), the namespace sandbox that
//! Flatpak is built on: a small, audited launcher that a grader can rely on rather than
//! namespace code of its own. Measured here, a run through it costs a few milliseconds more
//! than without (`nimlab bench` reports it). Each run gets: no network; its own PID, IPC and
//! UTS namespaces; a read-only view of /usr and of the interpreter's own installation, and
//! nothing else of the machine (no home, no fixtures, no other students' files); the
//! submission's folder read-only at the same path; a size-limited tmpfs as its working folder
//! and as /tmp; a read-only /dev (no /dev/shm to fill); a new session (no terminal); and, where
//! nimlab may create them, a pids cgroup that caps how many processes it can have and a memory
//! cgroup that bounds the memory of the whole run: all its processes, the files in its tmpfs
//! folders and memfd files, with no swap to spill into. Without a memory cgroup each process's
//! address space is limited instead.
//!
//! Where bubblewrap is missing or cannot create namespaces, programs run with resource limits
//! and process-group kill only, and every report says so.

use std::cell::RefCell;
use std::ffi::{CString, OsString};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Processes (threads count too) one run may have at once.
pub const MAX_PROCESSES: u64 = 64;
/// How long a finished run's leftover processes may take to die before their cgroup is
/// given up.
const SETTLE_LIMIT: Duration = Duration::from_secs(2);
/// The size of a run's working folder and of its /tmp.
const SCRATCH_BYTES: u64 = 16 * 1024 * 1024;

#[derive(Debug, Clone)]
pub enum Isolation {
    Sandbox(Sandbox),
    /// Resource limits and process-group kill only; why there is no more.
    LimitsOnly {
        reason: String,
    },
}

#[derive(Debug, Clone)]
pub struct Sandbox {
    bwrap: PathBuf,
    /// Where pids cgroups are made, if nimlab may make them.
    pids: Option<PathBuf>,
    /// Where memory cgroups are made, if nimlab may make them (on cgroup v2, the same folder
    /// as `pids`: one cgroup then holds both limits).
    memory: Option<PathBuf>,
}

/// One cgroup folder of nimlab's, in one hierarchy.
#[derive(Debug)]
struct Folder {
    dir: PathBuf,
    /// The file a child writes to between fork and exec to join: cgroup v1's `tasks` (where
    /// "0" moves the calling thread without waiting for the global lock that moving a whole
    /// process takes, which can cost an RCU grace period, 10 to 20 ms, per run; a child
    /// between fork and exec is a single thread), else `cgroup.procs`.
    join: CString,
    /// The memory limit last written (0: none, this folder does not limit memory).
    memory_limit: u64,
    /// The OOM kills counted when the folder was last settled.
    oom_kills: u64,
}

/// The cgroups a run's program joins between fork and exec: a pids cgroup (unless the
/// calling thread is in one already) and a memory cgroup, where nimlab may make them. Making
/// and removing one costs milliseconds, so when it is no longer needed it goes back to a pool
/// for later runs of this nimlab process; ones left by nimlab processes that have ended are
/// removed when the next nimlab starts.
#[derive(Debug)]
pub struct RunCgroup {
    folders: Vec<Folder>,
    /// Settled already (by `finish`).
    settled: bool,
    /// Given up because it would not empty: never reused.
    abandoned: bool,
    /// Its pids cgroup allows more than MAX_PROCESSES (set back before it is reused).
    raised_pids: bool,
}

static POOL: Mutex<Vec<Folder>> = Mutex::new(Vec::new());

thread_local! {
    /// The pids cgroup this thread has joined, so that the programs it starts begin there.
    static THREAD_CGROUP: RefCell<Option<RunCgroup>> = const { RefCell::new(None) };
}

/// Files of the memory controller: cgroup v2's, or v1's where v2's are missing.
const MEMORY_MAX: [&str; 2] = ["memory.max", "memory.limit_in_bytes"];

impl Isolation {
    /// What this machine allows, found once per nimlab process. `NIMLAB_ISOLATION=none` turns
    /// the sandbox off (to compare, or where it gets in the way).
    pub fn detect() -> &'static Isolation {
        static DETECTED: OnceLock<Isolation> = OnceLock::new();
        DETECTED.get_or_init(|| {
            if std::env::var("NIMLAB_ISOLATION").is_ok_and(|v| v == "none") {
                return Isolation::LimitsOnly {
                    reason: "turned off with NIMLAB_ISOLATION=none".into(),
                };
            }
            let Some(bwrap) = find_bwrap() else {
                return Isolation::LimitsOnly {
                    reason: "bubblewrap (bwrap) is not installed".into(),
                };
            };
            let pids = pids_root();
            let memory = memory_root(pids.as_deref());
            if pids.is_some() || memory.is_some() {
                // SAFETY: registers a plain function without arguments.
                unsafe { libc::atexit(remove_pool) };
            }
            let sandbox = Sandbox {
                bwrap,
                pids,
                memory,
            };
            match sandbox.probe() {
                Ok(()) => {
                    let mut roots: Vec<PathBuf> = [&sandbox.pids, &sandbox.memory]
                        .into_iter()
                        .flatten()
                        .cloned()
                        .collect();
                    roots.dedup();
                    start_reaper(roots);
                    Isolation::Sandbox(sandbox)
                }
                Err(why) => Isolation::LimitsOnly {
                    reason: format!("bubblewrap cannot create a sandbox here: {why}"),
                },
            }
        })
    }

    pub fn is_isolated(&self) -> bool {
        matches!(self, Isolation::Sandbox(_))
    }

    /// One line for reports.
    pub fn summary(&self) -> String {
        match self {
            Isolation::Sandbox(sandbox) => {
                let processes = match sandbox.pids {
                    Some(_) => format!("at most {MAX_PROCESSES} processes"),
                    None => "process count not limited (no pids cgroup)".into(),
                };
                let memory = match sandbox.memory {
                    Some(_) => "one memory limit for the whole run",
                    None => "memory limited per process only (no memory cgroup)",
                };
                format!(
                    "isolated with bubblewrap: no network, private filesystem, processes and /tmp; {processes}; {memory}"
                )
            }
            Isolation::LimitsOnly { reason } => {
                format!("not isolated ({reason}): resource limits and process-group kill only")
            }
        }
    }

    /// The protections, each with whether it is in force, for `nimlab doctor`.
    pub fn protections(&self) -> Vec<(String, bool)> {
        let sandbox = match self {
            Isolation::Sandbox(sandbox) => Some(sandbox),
            Isolation::LimitsOnly { .. } => None,
        };
        let isolated = sandbox.is_some();
        let whole_run_memory = sandbox.is_some_and(|s| s.memory.is_some());
        vec![
            (
                "limits on CPU, wall time, output, file size and open files".into(),
                true,
            ),
            (
                if whole_run_memory {
                    "memory limit for the whole run: its processes, the files in its working \
                     folder and /tmp, and memfd files together, with no swap (memory cgroup)"
                } else {
                    "memory limit for the whole run (memory cgroup); without one, each \
                     process's address space is limited, but not their sum nor files in memory"
                }
                .into(),
                whole_run_memory,
            ),
            (
                "the process group killed when a run ends; programs die with nimlab".into(),
                true,
            ),
            ("no network".into(), isolated),
            (
                "read-only system and /dev (no /dev/shm); home, fixtures and other files invisible"
                    .into(),
                isolated,
            ),
            (
                "private, size-limited working folder and /tmp".into(),
                isolated,
            ),
            (
                "own PID namespace: nothing outlives the run".into(),
                isolated,
            ),
            ("no controlling terminal".into(), isolated),
            (
                format!("at most {MAX_PROCESSES} processes (pids cgroup)"),
                sandbox.is_some_and(|s| s.pids.is_some()),
            ),
        ]
    }
}

fn find_bwrap() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin")])
        .map(|dir| dir.join("bwrap"))
        .find(|candidate| candidate.is_file())
}

/// A folder in which nimlab may make pids cgroups (cgroup v1's `pids` hierarchy, or v2 with
/// the pids controller delegated), if there is one.
fn pids_root() -> Option<PathBuf> {
    let v1 = Path::new("/sys/fs/cgroup/pids");
    let base = if v1.join("cgroup.procs").exists() {
        v1.to_path_buf()
    } else {
        let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
        Path::new("/sys/fs/cgroup").join(path.trim_start_matches('/'))
    };
    // One shared folder; each nimlab process keeps a few cgroups of its own inside it.
    let root = base.join("nimlab");
    std::fs::create_dir_all(&root).ok()?;
    remove_stale_cgroups(&root);
    let usable =
        root.join("pids.max").exists() || std::fs::write(root.join("pids.max"), "max").is_ok();
    usable.then_some(root)
}

/// A folder in which nimlab may make memory cgroups, inside nimlab's own memory cgroup (cgroup
/// v1's `memory` hierarchy, or v2 with the memory controller delegated), if there is one
/// and a cgroup made there takes a limit.
fn memory_root(pids: Option<&Path>) -> Option<PathBuf> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let v1 = own.lines().find_map(|l| {
        let (_, rest) = l.split_once(':')?;
        let (controllers, path) = rest.split_once(':')?;
        controllers
            .split(',')
            .any(|c| c == "memory")
            .then_some(path)
    });
    let root = match v1 {
        Some(path) => Path::new("/sys/fs/cgroup/memory")
            .join(path.trim_start_matches('/'))
            .join("nimlab"),
        None => {
            let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
            Path::new("/sys/fs/cgroup")
                .join(path.trim_start_matches('/'))
                .join("nimlab")
        }
    };
    if pids != Some(root.as_path()) {
        std::fs::create_dir_all(&root).ok()?;
        remove_stale_cgroups(&root);
    }
    // A trial cgroup shows whether a memory limit can be set and a program moved in.
    let trial = make_folder(&root, &format!("run-{}-trial", std::process::id()))?;
    let works = set_memory_limit(&trial.dir, 0, 64 << 20).is_ok() && {
        let file = trial.join.clone();
        use std::os::unix::process::CommandExt;
        let mut command = std::process::Command::new("/usr/bin/true");
        // SAFETY: `join` makes only async-signal-safe calls; `file` is moved in whole.
        unsafe { command.pre_exec(move || join(&file)) };
        command.status().is_ok_and(|s| s.success())
    };
    let _ = std::fs::remove_dir(&trial.dir);
    works.then_some(root)
}

/// Ends the cgroups of nimlab processes that have ended (`run-PID-N` with no such PID):
/// what a killed nimlab's reaper could not end, and then the folders.
fn remove_stale_cgroups(root: &Path) {
    for (owner, folder) in run_cgroups(root) {
        if !Path::new(&format!("/proc/{owner}")).exists() {
            sweep(&folder);
        }
    }
}

/// The run cgroups in `root`, with the pid of the nimlab that made each.
fn run_cgroups(root: &Path) -> Vec<(u32, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let owner = name
                .strip_prefix("run-")
                .and_then(|rest| rest.split('-').next())
                .and_then(|p| p.parse::<u32>().ok())?;
            Some((owner, entry.path()))
        })
        .collect()
}

/// Kills every process in a cgroup until none is left (a fork bomb takes a few rounds), then
/// removes it. Gives up after a few seconds on one that will not empty.
fn sweep(folder: &Path) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let procs = std::fs::read_to_string(folder.join("cgroup.procs")).unwrap_or_default();
        let pids: Vec<libc::pid_t> = procs
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .filter(|&pid| pid != std::process::id() as libc::pid_t)
            .collect();
        if pids.is_empty() || Instant::now() >= deadline {
            break;
        }
        for pid in pids {
            // SAFETY: signals a process left in a run cgroup of a nimlab that has ended.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = std::fs::remove_dir(folder);
}

/// Starts the reaper: a second nimlab process (`nimlab reap-cgroups`) that waits for this one
/// to end and kills what is left in its run cgroups. nimlab kills its programs itself when it
/// can, and each program dies with nimlab (PR_SET_PDEATHSIG), but not always: bubblewrap sets
/// that signal for the program only after it has started it, so a nimlab killed (SIGKILL) in
/// that moment leaves the program running with no one to stop it. The reaper holds the read
/// end of a pipe whose write end only nimlab has; the pipe's end is nimlab's end, however it
/// comes. (Only from the nimlab binary: a test binary would run its tests instead.)
fn start_reaper(roots: Vec<PathBuf>) {
    static LIFELINE: Mutex<Option<std::process::ChildStdin>> = Mutex::new(None);
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    if exe.file_stem().is_none_or(|stem| stem != "nimlab") || roots.is_empty() {
        return;
    }
    let mut command = std::process::Command::new(exe);
    command
        .arg("reap-cgroups")
        .arg(std::process::id().to_string())
        .args(&roots)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // SAFETY: setsid is async-signal-safe. Its own session: a Ctrl-C at the terminal reaches
    // nimlab, which stops its programs, and the reaper is left to do nothing.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut command, || {
            libc::setsid();
            Ok(())
        })
    };
    if let Ok(mut reaper) = command.spawn() {
        if let Ok(mut lifeline) = LIFELINE.lock() {
            *lifeline = reaper.stdin.take();
        }
        // Not waited for: it ends after nimlab.
        drop(reaper);
    }
}

/// The reaper's work (see [`start_reaper`]): waits until nimlab `owner` has ended (its end of
/// stdin closes), then kills everything left in its run cgroups under `roots` and removes
/// them. Only cgroup folders named `nimlab` are accepted as roots.
pub fn reap_when_gone(owner: u32, roots: &[PathBuf]) -> crate::error::Result<()> {
    for root in roots {
        let ours = root.starts_with("/sys/fs/cgroup")
            && root.file_name().is_some_and(|name| name == "nimlab")
            && root.is_dir();
        if !ours {
            return Err(crate::error::Error::input(
                root,
                "not a cgroup folder that nimlab makes run cgroups in",
            ));
        }
    }
    let mut sink = Vec::new();
    let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut sink);
    for root in roots {
        for (_, folder) in run_cgroups(root).into_iter().filter(|(o, _)| *o == owner) {
            sweep(&folder);
        }
    }
    Ok(())
}

/// The installation folder of an interpreter: the folder holding its `bin`.
pub(crate) fn installation(program: &Path) -> Option<PathBuf> {
    let real = std::fs::canonicalize(program).ok()?;
    let bin = real.parent()?;
    if bin.file_name()? != "bin" {
        return None;
    }
    bin.parent().map(Path::to_path_buf)
}

/// What a sandbox is started for.
pub enum Inside {
    /// A program, under the system call filter read from this descriptor (see
    /// [`super::filter`]), or none where the machine has no seccomp.
    Program { filter: Option<std::os::fd::RawFd> },
    /// A fork server, which filters each of its runs itself.
    ForkServer,
}

impl Sandbox {
    fn probe(&self) -> Result<(), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let (program, args) = self.command(
            Path::new("/usr/bin/true"),
            &[],
            &[],
            dir.path(),
            &[],
            &Inside::Program { filter: None },
        );
        let mut command = std::process::Command::new(program);
        command.args(args).env_clear();
        // bubblewrap is tried as the user it will run programs as.
        if let Some(descent) = super::identity::Descent::new(&[]) {
            // SAFETY: `apply` makes only async-signal-safe calls.
            unsafe {
                std::os::unix::process::CommandExt::pre_exec(&mut command, move || descent.apply())
            };
        }
        let output = command.output().map_err(|e| e.to_string())?;
        if output.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&output.stderr).trim().to_string())
        }
    }

    /// The command that runs `program args` inside the sandbox, with `workdir` as a fresh
    /// tmpfs at the same path and each of `expose` visible read-only at its own path (so paths
    /// in tracebacks are the same inside and out).
    pub fn command(
        &self,
        program: &Path,
        args: &[OsString],
        env: &[(OsString, OsString)],
        workdir: &Path,
        expose: &[PathBuf],
        inside: &Inside,
    ) -> (PathBuf, Vec<OsString>) {
        let mut a: Vec<OsString> = Vec::new();
        let mut push = |items: &[&dyn AsRef<std::ffi::OsStr>]| {
            a.extend(items.iter().map(|i| i.as_ref().to_os_string()));
        };
        // --as-pid-1: the program is the namespace's init, so bwrap waits for it directly (its
        // CPU time reaches nimlab) and, when it ends, the kernel ends everything it started.
        // As an init it ignores signals it sends itself that it has no handler for.
        push(&[
            &"--unshare-all",
            &"--as-pid-1",
            &"--die-with-parent",
            &"--new-session",
            &"--cap-drop",
            &"ALL",
        ]);
        match inside {
            // bubblewrap reads the filter from the descriptor and applies it last, just
            // before it starts the program.
            Inside::Program { filter: Some(fd) } => push(&[&"--seccomp", &fd.to_string()]),
            Inside::Program { filter: None } => {}
            // The fork server hides itself from its runs (it mounts /proc again so that only
            // processes a run may trace are seen there), then gives up both for good.
            // As the user namespace's root (the host's unprivileged user all the same): a
            // sandbox user of another id would be put in a second namespace, where it could not
            // mount /proc again. Each run maps itself back to the sandbox user.
            Inside::ForkServer => push(&[
                &"--cap-add",
                &"CAP_SYS_ADMIN",
                &"--cap-add",
                &"CAP_SETPCAP",
                &"--cap-add",
                &"CAP_SETFCAP",
                &"--uid",
                &"0",
                &"--gid",
                &"0",
            ]),
        }
        push(&[&"--ro-bind", &"/usr", &"/usr"]);
        // Debian's /bin, /lib and friends are links into /usr; elsewhere they are folders.
        for top in ["/bin", "/sbin", "/lib", "/lib32", "/lib64"] {
            match std::fs::read_link(top) {
                Ok(target) => push(&[&"--symlink", &target, &top]),
                Err(_) if Path::new(top).is_dir() => push(&[&"--ro-bind", &top, &top]),
                Err(_) => {}
            }
        }
        for file in ["/etc/ld.so.cache", "/etc/localtime"] {
            push(&[&"--ro-bind-try", &file, &file]);
        }
        let size = SCRATCH_BYTES.to_string();
        // /proc/sys read-only, as in a forked run (the runs' user may write none of it anyway).
        push(&[
            &"--proc",
            &"/proc",
            &"--ro-bind",
            &"/proc/sys",
            &"/proc/sys",
        ]);
        push(&[&"--dev", &"/dev"]);
        push(&[&"--size", &size, &"--tmpfs", &"/tmp"]);
        // The interpreter's own installation (pyenv's versions/X.Y.Z) when it is not in /usr;
        // after /tmp, which would hide one kept under it.
        if let Some(prefix) = installation(program).filter(|p| !p.starts_with("/usr")) {
            push(&[&"--ro-bind", &prefix, &prefix]);
        }
        for folder in expose {
            push(&[&"--ro-bind", folder, folder]);
        }
        push(&[&"--size", &size, &"--tmpfs", &workdir, &"--chdir", &workdir]);
        // bwrap builds the view on a tmpfs root of its own; nothing but /tmp and the working
        // folder may be written. /dev is a tmpfs of its own too: read-only, its /dev/shm
        // cannot hold files (its devices still work).
        push(&[&"--remount-ro", &"/", &"--remount-ro", &"/dev"]);
        push(&[&"--clearenv"]);
        for (key, value) in env {
            push(&[&"--setenv", key, value]);
        }
        // The interpreter by its real path: a virtual environment's `bin/python3` is a link
        // into an installation (bound above) from a folder the sandbox does not show (under
        // /tmp, or a home). Run so, it is that installation's Python, without the
        // environment's packages, as a fresh interpreter should be.
        let real = std::fs::canonicalize(program).unwrap_or_else(|_| program.to_path_buf());
        push(&[&"--", &real]);
        a.extend(args.iter().cloned());
        (self.bwrap.clone(), a)
    }

    /// Puts the calling thread in a pids cgroup of its own, once, so that every program it
    /// starts is born there and counted. Only cgroup v1 moves single threads (its `tasks`
    /// file); false where that is not possible.
    /// Memory is never counted this way (a thread's memory is its whole process's, nimlab's):
    /// a program joins its memory cgroup itself.
    pub fn enter_thread_cgroup(&self) -> bool {
        THREAD_CGROUP.with(|slot| {
            let mut slot = slot.borrow_mut();
            if slot.is_some() {
                return true;
            }
            let Some(root) = &self.pids else {
                return false;
            };
            // On cgroup v2 one cgroup holds both limits: no thread of nimlab's may be in it.
            if self.memory.as_ref() == Some(root) {
                return false;
            }
            let Some(folder) = self.take_folder(root) else {
                return false;
            };
            // "0": the calling thread, moved without the global lock (see `Folder::join`).
            let joined = std::fs::write(folder.dir.join("tasks"), "0").is_ok();
            let cgroup = RunCgroup {
                folders: vec![folder],
                settled: false,
                abandoned: false,
                raised_pids: false,
            };
            if joined {
                *slot = Some(cgroup);
            }
            joined
        })
    }

    /// The cgroups a run's program is to join: a pids cgroup unless the calling thread is in
    /// one already, and a memory cgroup limited to `memory_bytes`, as far as nimlab may make
    /// them; None when there is nothing to join.
    pub fn run_cgroup(&self, memory_bytes: u64) -> Option<RunCgroup> {
        let mut cgroup = RunCgroup {
            folders: Vec::with_capacity(2),
            settled: false,
            abandoned: false,
            raised_pids: false,
        };
        if !self.enter_thread_cgroup()
            && let Some(root) = &self.pids
        {
            cgroup.folders.extend(self.take_folder(root));
        }
        self.add_memory(&mut cgroup, memory_bytes);
        (!cgroup.folders.is_empty()).then_some(cgroup)
    }

    /// Cgroups of their own (never the calling thread's) for a program that outlives a run
    /// and starts the runs itself (a fork server): a pids cgroup allowing `extra` processes
    /// more than a run may have (the server's own), and a memory cgroup limited to
    /// `memory_bytes`, as far as nimlab may make them.
    pub fn own_cgroup(&self, memory_bytes: u64, extra: u64) -> Option<RunCgroup> {
        let mut cgroup = RunCgroup {
            folders: Vec::with_capacity(2),
            settled: false,
            abandoned: false,
            raised_pids: false,
        };
        if let Some(root) = &self.pids
            && let Some(folder) = self.take_folder(root)
        {
            let raised = (MAX_PROCESSES + extra).to_string();
            cgroup.raised_pids = std::fs::write(folder.dir.join("pids.max"), raised).is_ok();
            cgroup.folders.push(folder);
        }
        self.add_memory(&mut cgroup, memory_bytes);
        (!cgroup.folders.is_empty()).then_some(cgroup)
    }

    /// Adds a memory cgroup limited to `memory_bytes` (shared with the pids cgroup on v2).
    fn add_memory(&self, cgroup: &mut RunCgroup, memory_bytes: u64) {
        if let Some(root) = &self.memory {
            let shared = cgroup
                .folders
                .iter()
                .position(|f| f.dir.parent() == Some(root.as_path()));
            let at = match shared {
                Some(at) => Some(at),
                None => self.take_folder(root).map(|folder| {
                    cgroup.folders.push(folder);
                    cgroup.folders.len() - 1
                }),
            };
            if let Some(at) = at {
                let folder = &mut cgroup.folders[at];
                if folder.memory_limit != memory_bytes {
                    if set_memory_limit(&folder.dir, folder.memory_limit, memory_bytes).is_ok() {
                        folder.memory_limit = memory_bytes;
                    } else if shared.is_some() {
                        // Not a memory limit that can be trusted: none, and each process's
                        // address space is limited instead; the folder still caps processes.
                        folder.memory_limit = 0;
                        let _ = std::fs::write(folder.dir.join(MEMORY_MAX[0]), "max");
                    } else {
                        // Not a memory limit that can be trusted: the folder is not used.
                        let folder = cgroup.folders.remove(at);
                        let _ = std::fs::remove_dir(&folder.dir);
                    }
                }
            }
        }
    }

    /// A cgroup folder under `root`, from the pool or made, with the limits of its root's kind.
    fn take_folder(&self, root: &Path) -> Option<Folder> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        if let Ok(mut pool) = POOL.lock()
            && let Some(at) = pool.iter().position(|f| f.dir.parent() == Some(root))
        {
            return Some(pool.swap_remove(at));
        }
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let folder = make_folder(root, &format!("run-{}-{n}", std::process::id()))?;
        let pids_ok = self.pids.as_deref() != Some(root)
            || std::fs::write(folder.dir.join("pids.max"), MAX_PROCESSES.to_string()).is_ok();
        if self.memory.as_deref() == Some(root) {
            // v2: the whole run is killed when it runs out (its processes together are one
            // job); v1 without swap accounting: the cgroup is not to swap.
            if folder.dir.join(MEMORY_MAX[0]).exists() {
                let _ = std::fs::write(folder.dir.join("memory.oom.group"), "1");
            } else if !folder.dir.join("memory.memsw.limit_in_bytes").exists() {
                let _ = std::fs::write(folder.dir.join("memory.swappiness"), "0");
            }
        }
        if !pids_ok {
            let _ = std::fs::remove_dir(&folder.dir);
            return None;
        }
        Some(folder)
    }
}

/// Removes the pooled cgroups when nimlab exits. Ones still in use (a thread's, a run cut
/// short) are left for the next nimlab's `remove_stale_cgroups`.
extern "C" fn remove_pool() {
    if let Ok(mut pool) = POOL.try_lock() {
        for folder in pool.drain(..) {
            let _ = std::fs::remove_dir(&folder.dir);
        }
    }
}

/// Makes the cgroup folder `root/name`.
fn make_folder(root: &Path, name: &str) -> Option<Folder> {
    let dir = root.join(name);
    std::fs::create_dir(&dir).ok()?;
    let tasks = dir.join("tasks");
    let file = if tasks.exists() {
        tasks
    } else {
        dir.join("cgroup.procs")
    };
    let join = CString::new(file.into_os_string().into_encoded_bytes()).ok()?;
    Some(Folder {
        dir,
        join,
        memory_limit: 0,
        oom_kills: 0,
    })
}

/// Sets the memory limit of a cgroup folder whose limit was `old` (0: never set) and forbids
/// swap: cgroup v2's memory.max and memory.swap.max, or v1's limit_in_bytes and
/// memsw.limit_in_bytes (memory and swap together, which may never be below memory alone).
fn set_memory_limit(dir: &Path, old: u64, new: u64) -> std::io::Result<()> {
    let value = new.to_string();
    if dir.join(MEMORY_MAX[0]).exists() {
        std::fs::write(dir.join(MEMORY_MAX[0]), &value)?;
        // Missing where the kernel has no swap support: then there is nothing to forbid.
        let swap = dir.join("memory.swap.max");
        if swap.exists() {
            std::fs::write(swap, "0")?;
        }
        return Ok(());
    }
    let memsw = dir.join("memory.memsw.limit_in_bytes");
    let memsw = memsw.exists().then_some(memsw);
    let raising = old != 0 && new > old;
    if let Some(memsw) = memsw.as_ref().filter(|_| raising) {
        std::fs::write(memsw, &value)?;
    }
    std::fs::write(dir.join(MEMORY_MAX[1]), &value)?;
    if let Some(memsw) = memsw.as_ref().filter(|_| !raising) {
        std::fs::write(memsw, &value)?;
    }
    Ok(())
}

/// How many processes the kernel's OOM killer has killed in a memory cgroup: `oom_kill` in
/// v2's memory.events or v1's memory.oom_control.
fn oom_kills(folder: &Folder) -> u64 {
    let v1 = folder.join.to_bytes().ends_with(b"/tasks");
    let file = if v1 {
        "memory.oom_control"
    } else {
        "memory.events"
    };
    std::fs::read_to_string(folder.dir.join(file))
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("oom_kill ")?.trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Moves the calling process into the cgroup whose `tasks` or `cgroup.procs` file is `file`
/// (see [`Folder::join`]). Runs between fork and exec: no allocation, only async-signal-safe
/// calls.
fn join(file: &CString) -> std::io::Result<()> {
    // SAFETY: the path is a valid C string; the buffer lives on the stack.
    unsafe {
        let fd = libc::open(file.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        if file.to_bytes().ends_with(b"/tasks") {
            at -= 1;
            digits[at] = b'0';
        } else {
            let mut n = libc::getpid() as u64;
            loop {
                at -= 1;
                digits[at] = b'0' + (n % 10) as u8;
                n /= 10;
                if n == 0 {
                    break;
                }
            }
        }
        let written = libc::write(fd, digits[at..].as_ptr().cast(), digits.len() - at);
        libc::close(fd);
        if written < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

impl RunCgroup {
    /// Moves the calling process into each of the cgroups. Runs between fork and exec: no
    /// allocation.
    ///
    /// # Safety
    /// Call it only in the child after fork; it makes only async-signal-safe calls.
    pub unsafe fn join(&self) -> std::io::Result<()> {
        for folder in &self.folders {
            join(&folder.join)?;
        }
        Ok(())
    }

    /// Whether one of the cgroups bounds the memory of everything in it: then each process's
    /// address space need not be limited as well.
    pub fn bounds_memory(&self) -> bool {
        self.folders.iter().any(|f| f.memory_limit > 0)
    }

    /// Kills every process left in the cgroups (never nimlab's own threads); false when there
    /// was none.
    fn kill_all(&self) -> bool {
        let own = std::process::id() as libc::pid_t;
        let mut found = false;
        for folder in &self.folders {
            let Ok(procs) = std::fs::read_to_string(folder.dir.join("cgroup.procs")) else {
                continue;
            };
            for pid in procs
                .split_whitespace()
                .filter_map(|p| p.parse::<libc::pid_t>().ok())
                .filter(|&pid| pid != own)
            {
                found = true;
                // SAFETY: signals a process of a run that is over.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        found
    }

    /// Ends what is left of a run and waits until the kernel has let go of it. A killed fork
    /// bomb takes a while to die, and until it has, its processes still count against the
    /// cgroup's cap: starting the next run at once could fail for want of a process slot.
    /// False if something was still there after `SETTLE_LIMIT`.
    pub fn settle(&self) -> bool {
        let deadline = Instant::now() + SETTLE_LIMIT;
        while self.kill_all() {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        true
    }

    /// Whether the kernel's OOM killer has killed a process here since the last look (or
    /// since the cgroup was made).
    pub fn oom_killed_since(&mut self) -> bool {
        let mut killed = false;
        for folder in self.folders.iter_mut().filter(|f| f.memory_limit > 0) {
            let kills = oom_kills(folder);
            killed |= kills > folder.oom_kills;
            folder.oom_kills = kills;
        }
        killed
    }

    /// Ends the run's cgroups (as [`RunCgroup::settle`]) and says whether the kernel's OOM
    /// killer killed one of its processes: the run's memory passed its limit.
    pub fn finish(mut self) -> bool {
        self.settled = self.settle();
        self.abandoned = !self.settled;
        let mut out_of_memory = false;
        for folder in self.folders.iter_mut().filter(|f| f.memory_limit > 0) {
            let kills = oom_kills(folder);
            out_of_memory |= kills > folder.oom_kills;
            folder.oom_kills = kills;
        }
        out_of_memory
    }
}

/// Settles the cgroup of the calling thread after a run (see [`RunCgroup::settle`]). One that
/// will not empty is given up (left for `remove_stale_cgroups`), and the thread moves to a
/// fresh one, so a stuck process never costs a later run its process slots.
pub fn settle_thread_cgroup(sandbox: &Sandbox) {
    let given_up = THREAD_CGROUP.with(|slot| {
        let mut slot = slot.borrow_mut();
        let stuck = slot.as_ref().is_some_and(|cgroup| !cgroup.settle());
        if let Some(mut old) = slot.take_if(|_| stuck) {
            old.abandoned = true;
        }
        stuck
    });
    if given_up {
        sandbox.enter_thread_cgroup();
    }
}

impl Drop for RunCgroup {
    fn drop(&mut self) {
        if self.abandoned || (!self.settled && !self.settle()) {
            return;
        }
        if self.raised_pids {
            for folder in &self.folders {
                let limit = folder.dir.join("pids.max");
                if limit.exists() && std::fs::write(&limit, MAX_PROCESSES.to_string()).is_err() {
                    return;
                }
            }
        }
        if let Ok(mut pool) = POOL.lock() {
            pool.append(&mut self.folders);
        }
    }
}
