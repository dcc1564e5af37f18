//! The sandbox's attack round (issue 40), each channel as the program that used it: under both
//! runners and both Pythons, the program never holds host root, writes no sysctl, finds no
//! descriptor nimlab inherited, takes no lock on a shared file, and each run starts in
//! namespaces and folders made for it alone, whatever the runs before it did. One file gets
//! one verdict whichever runner runs it.
//!
//! These tests need the sandbox (bubblewrap, installed by .ci/run).

use crate::common::{check_json, lab_with, nimlab, python_2_7_available};
use serde_json::Value;
use std::path::Path;

/// exclusive_or with its 4 sample cases only and short limits.
fn quick_lab() -> tempfile::TempDir {
    crate::common::short_lab(2000, 4000, 256)
}

fn pythons() -> Vec<&'static str> {
    if python_2_7_available() {
        vec!["3", "2.7"]
    } else {
        vec!["3"]
    }
}

/// Each case's report under one runner and interpreter, one case at a time (one fork server
/// serves them all in turn).
fn cases(file: &Path, lab: &Path, python: &str, runner: &str) -> Vec<Value> {
    let (report, code) = check_json(&[
        file.to_str().unwrap(),
        "--python",
        python,
        "--jobs",
        "1",
        "--runner",
        runner,
        "--instructor",
        "--lab",
        lab.to_str().unwrap(),
    ]);
    assert!(code == 0 || code == 1, "exit {code}: {report:#}");
    let run = &report["runs"][0];
    assert_eq!(run["runner"], runner, "{report:#}");
    assert!(
        run["runner_note"].is_null(),
        "{runner}: not every run was forked: {}",
        run["runner_note"]
    );
    run["cases"].as_array().unwrap().clone()
}

/// What each case printed.
fn printed(cases: &[Value]) -> Vec<String> {
    cases
        .iter()
        .map(|case| {
            let got = case["feedback"]["got"].as_str();
            got.unwrap_or_else(|| panic!("{case:#}")).to_string()
        })
        .collect()
}

fn program(dir: &Path, text: &str) -> std::path::PathBuf {
    let file = dir.join("exclusive_or.py");
    std::fs::write(&file, text).unwrap();
    file
}

/// The same outputs under both runners, for each Python; the forked ones returned.
fn alike_in_both_runners(file: &Path, lab: &Path) -> Vec<(String, Vec<String>)> {
    pythons()
        .into_iter()
        .map(|python| {
            let forked = printed(&cases(file, lab, python, "fork"));
            let fresh = printed(&cases(file, lab, python, "process"));
            assert_eq!(forked, fresh, "{python}: forked and fresh runs differ");
            (python.to_string(), forked)
        })
        .collect()
}

/// Sysctls a root program could write (a pipe in core_pattern runs a command as host root at
/// the next crash), and what the program's user is on the host: its name is set so that this
/// test can find it among the host's processes and read its host uid there.
const ROOTLESS: &str = r#"import ctypes, os, sys, time
sys.stdin.read()
ctypes.CDLL(None).prctl(15, b"nimlab-rootless", 0, 0, 0)  # PR_SET_NAME
tried = []
for name in ("kernel/core_pattern", "vm/drop_caches", "kernel/randomize_va_space", "kernel/hostname"):
    try:
        with open("/proc/sys/" + name, "w") as f:
            f.write(open("/proc/sys/" + name).read())
        tried.append(name + "=written")
    except (IOError, OSError) as e:
        tried.append("%s=%d" % (name, e.errno))
status = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines() if ":" in l)
caps = [status[k].strip() for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")]
time.sleep(0.6)
print(" ".join(tried))
print("caps=" + ",".join(caps))
"#;

/// The host uids of every process named `name` (at most 15 bytes), watched until `done`.
fn host_uids_of_programs(name: &str, done: &std::sync::atomic::AtomicBool) -> Vec<String> {
    let mut uids = Vec::new();
    while !done.load(std::sync::atomic::Ordering::Relaxed) {
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let comm = std::fs::read_to_string(entry.path().join("comm")).unwrap_or_default();
            if comm.trim() == name {
                let status =
                    std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
                if let Some(line) = status.lines().find(|l| l.starts_with("Uid:")) {
                    uids.push(line.to_string());
                }
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    uids
}

#[test]
fn a_program_never_holds_host_root_nor_any_capability_and_writes_no_sysctl() {
    let lab = quick_lab();
    let dir = tempfile::tempdir().unwrap();
    let file = program(dir.path(), ROOTLESS);
    // SAFETY: geteuid has no preconditions.
    let own_uid = unsafe { libc::geteuid() };
    for python in pythons() {
        for runner in ["fork", "process"] {
            let done = std::sync::atomic::AtomicBool::new(false);
            let (uids, outputs) = std::thread::scope(|scope| {
                let watcher = scope.spawn(|| host_uids_of_programs("nimlab-rootless", &done));
                let outputs = printed(&cases(&file, lab.path(), python, runner));
                done.store(true, std::sync::atomic::Ordering::Relaxed);
                (watcher.join().unwrap(), outputs)
            });
            assert!(
                !uids.is_empty(),
                "{python} {runner}: the program was never seen"
            );
            for line in &uids {
                let ids: Vec<u32> = line[4..]
                    .split_whitespace()
                    .map(|n| n.parse().unwrap())
                    .collect();
                for id in ids {
                    if own_uid == 0 {
                        assert_ne!(id, 0, "{python} {runner}: host root: {line}");
                    } else {
                        assert_eq!(id, own_uid, "{python} {runner}: {line}");
                    }
                }
            }
            for output in outputs {
                let mut lines = output.lines();
                for attempt in lines.next().unwrap().split(' ') {
                    // EROFS (/proc/sys is read-only) or EACCES: never written.
                    assert!(
                        attempt.ends_with("=30") || attempt.ends_with("=13"),
                        "{python} {runner}: {attempt}"
                    );
                }
                let caps = lines.next().unwrap();
                assert_eq!(
                    caps,
                    "caps=0000000000000000,0000000000000000,0000000000000000,0000000000000000,0000000000000000",
                    "{python} {runner}"
                );
            }
        }
    }
}

/// Whether each of descriptors 3, 7, 5000 and HIGH (the highest the machine's hard limit
/// allows) is open.
const DESCRIPTORS: &str = r#"import os, sys
sys.stdin.read()
seen = []
for fd in (3, 7, 5000, HIGH):
    try:
        os.fstat(fd)
        seen.append("%d=open" % fd)
    except OSError as e:
        seen.append("%d=%d" % (fd, e.errno))
print(" ".join(seen))
"#;

/// `nimlab check` of `file` under one runner and interpreter, a case at a time, as a JSON
/// report with secret cases' output (for a command built here rather than by `check_json`).
fn check_one_at_a_time(file: &Path, lab: &Path, python: &str, runner: &str) -> Vec<String> {
    let mut args: Vec<String> = ["check", file.to_str().unwrap(), "--python", python]
        .map(String::from)
        .to_vec();
    args.extend(["--runner", runner, "--jobs", "1", "--instructor"].map(String::from));
    args.extend(["--format", "json", "--lab", lab.to_str().unwrap()].map(String::from));
    args
}

/// `command` started with its descriptor limit at `hard` and `fd` copied, inheritable, to
/// each of `targets` (as a shell's redirection leaves them).
fn inherit_at(
    command: &mut std::process::Command,
    fd: libc::c_int,
    hard: libc::rlim_t,
    targets: &[libc::c_int],
) {
    use std::os::unix::process::CommandExt;
    let targets = targets.to_vec();
    // SAFETY: setrlimit and dup2 between fork and exec.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: hard,
                rlim_max: hard,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            for &target in &targets {
                if libc::dup2(fd, target) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
}

#[test]
fn no_descriptor_nimlab_inherited_reaches_a_program_at_any_number() {
    let lab = quick_lab();
    let dir = tempfile::tempdir().unwrap();
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit fills a stack value.
    assert_eq!(
        unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) },
        0
    );
    let hard = limit.rlim_max.min(1 << 20);
    let high = (hard - 1) as libc::c_int;
    let file = program(dir.path(), &DESCRIPTORS.replace("HIGH", &high.to_string()));
    let secret = dir.path().join("host-file");
    std::fs::write(&secret, "host").unwrap();
    // As root, and as an ordinary user where the test may change user.
    let scratch = tempfile::tempdir().unwrap();
    let ordinary = as_ordinary_user(scratch.path()).is_some();
    if ordinary {
        open_to_others(lab.path());
        open_to_others(dir.path());
    }
    let users = if ordinary {
        vec!["root", "ordinary"]
    } else {
        vec!["this user"]
    };
    for (user, python) in users
        .iter()
        .flat_map(|u| pythons().into_iter().map(move |p| (*u, p)))
    {
        for runner in ["fork", "process"] {
            let host = std::fs::File::open(&secret).unwrap();
            let fd = std::os::fd::AsRawFd::as_raw_fd(&host);
            let mut command = match user {
                "ordinary" => as_ordinary_user(scratch.path()).unwrap(),
                _ => std::process::Command::new(assert_cmd::cargo::cargo_bin!("nimlab")),
            };
            command.args(check_one_at_a_time(&file, lab.path(), python, runner));
            inherit_at(&mut command, fd, hard, &[3, 7, 5000, high]);
            let output = command.output().unwrap();
            let report: Value = serde_json::from_slice(&output.stdout)
                .unwrap_or_else(|_| panic!("{user}: {}", String::from_utf8_lossy(&output.stderr)));
            let run = &report["runs"][0];
            assert_eq!(run["runner"], runner, "{user}");
            assert!(
                run["runner_note"].is_null(),
                "{user}: {}",
                run["runner_note"]
            );
            for case in run["cases"].as_array().unwrap() {
                assert_eq!(
                    case["feedback"]["got"],
                    format!("3=9 7=9 5000=9 {high}=9\n"),
                    "{user} {python} {runner}: a descriptor of nimlab's reached the program"
                );
            }
        }
    }
}

/// A busy website forks its runs holding hundreds of descriptors (its connections): every
/// number under a run's own limit of 256 may be taken. Under root, a run's child opens the
/// folders it binds again for its unprivileged user (pyenv's interpreters under /root) before
/// that limit applies; when it applied first, the first submissions after a busy start were
/// judged without their interpreter (`bwrap: Can't find source path`), in both runners.
#[test]
fn a_run_forked_while_nimlab_holds_hundreds_of_descriptors_still_reaches_its_interpreter() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return; // An ordinary user's runs bind nothing again.
    }
    let lab = quick_lab();
    let dir = tempfile::tempdir().unwrap();
    let file = program(dir.path(), &DESCRIPTORS.replace("HIGH", "300"));
    let held = std::fs::File::open(&file).unwrap();
    let fd = std::os::fd::AsRawFd::as_raw_fd(&held);
    let busy: Vec<libc::c_int> = (3..=400).collect();
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit fills a stack value.
    assert_eq!(
        unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) },
        0
    );
    let hard = limit.rlim_max.min(1 << 20);
    for python in pythons() {
        for runner in ["fork", "process"] {
            let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin!("nimlab"));
            command.args(check_one_at_a_time(&file, lab.path(), python, runner));
            inherit_at(&mut command, fd, hard, &busy);
            let output = command.output().unwrap();
            let report: Value = serde_json::from_slice(&output.stdout)
                .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stderr)));
            let run = &report["runs"][0];
            assert_eq!(run["runner"], runner, "{python}: {run}");
            for case in run["cases"].as_array().unwrap() {
                assert_eq!(
                    case["feedback"]["got"], "3=9 7=9 5000=9 300=9\n",
                    "{python} {runner}: {run}"
                );
            }
        }
    }
}

/// Byte-range and whole-file locks on files every run can read: a lock taken by one run and
/// tested by another running beside it carries a bit.
const LOCKS: &str = r#"import fcntl, os, struct, sys
sys.stdin.read()
tried = []
def attempt(name, f):
    try:
        f()
        tried.append(name + "=taken")
    except (IOError, OSError) as e:
        tried.append("%s=%d" % (name, e.errno))
shared = os.open(sys.executable, os.O_RDONLY)
lock = struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 1, 0)
attempt("flock", lambda: fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB))
attempt("setlk", lambda: fcntl.fcntl(shared, fcntl.F_SETLK, lock))
attempt("getlk", lambda: fcntl.fcntl(shared, fcntl.F_GETLK, lock))
attempt("ofd_setlk", lambda: fcntl.fcntl(shared, 37, lock))
attempt("ofd_getlk", lambda: fcntl.fcntl(shared, 36, lock))
print(" ".join(tried))
"#;

#[test]
fn no_lock_can_be_taken_or_tested_on_a_shared_file() {
    let lab = quick_lab();
    let dir = tempfile::tempdir().unwrap();
    let file = program(dir.path(), LOCKS);
    for (python, outputs) in alike_in_both_runners(&file, lab.path()) {
        for output in outputs {
            for attempt in output.split_whitespace() {
                assert!(attempt.ends_with("=1"), "{python}: {attempt} in {output}");
            }
        }
    }
}

/// What a run could learn of the runs before it, then its attempt to leave a mark for the next
/// (x86_64 system call numbers): host name and domain name, IPC limits, System V objects, the
/// inode numbers its new files get in /tmp and its working folder, and what /tmp and the folder
/// above its own hold. A deep tree of folders and a full /tmp are left for the next run.
const MARKS: &str = r#"import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
data = sys.stdin.read()
mark = sum(bytearray(data.encode("utf-8"))) % 1000

def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except (IOError, OSError) as e:
        return "error%d" % e.errno

def inode(path):
    with open(path, "w") as f:
        f.write("x")
    return os.stat(path).st_ino

seen = [
    "host=" + os.uname()[1],
    "domain=" + read("/proc/sys/kernel/domainname"),
    "shmmax=" + read("/proc/sys/kernel/shmmax"),
    "msgmax=" + read("/proc/sys/kernel/msgmax"),
    "shm=%d" % len(read("/proc/sysvipc/shm").splitlines()),
    "tmp=%s" % sorted(os.listdir("/tmp")),
    "above=%s" % sorted(n.rstrip("0123456789") for n in os.listdir(os.path.dirname(os.getcwd()))),
    "tmp_inode=%d" % inode("/tmp/new"),
    "here_inode=%d" % inode("new"),
]
name = ("run%d" % mark).encode()
libc.sethostname(name, len(name))
libc.setdomainname(name, len(name))
for path, value in (("/proc/sys/kernel/hostname", name), ("/proc/sys/kernel/msgmax", b"%d" % (1000 + mark))):
    try:
        with open(path, "wb") as f:
            f.write(value)
    except (IOError, OSError):
        pass
deep = "/tmp/deep"
try:
    for i in range(1500):
        os.mkdir(deep)
        os.chdir(deep)
        deep = "d"
except OSError:
    pass
try:
    with open("/tmp/full", "wb") as f:
        for i in range(40):
            f.write(b"x" * (1 << 20))
except (IOError, OSError):
    pass
print(" ".join(seen))
"#;

/// What MARKS printed without what differs by nature between runners: the folders nimlab's
/// own scratch folders make in /tmp (a fresh interpreter's sandbox also shows the folder of
/// its sitecustomize), and so the inode numbers there.
fn comparable(output: &str) -> String {
    output
        .split_whitespace()
        .filter(|field| !field.starts_with("tmp") && !field.starts_with("'nimlab-"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn each_run_starts_in_namespaces_and_folders_of_its_own() {
    let lab = quick_lab();
    let dir = tempfile::tempdir().unwrap();
    let file = program(dir.path(), MARKS);
    for python in pythons() {
        let mut seen = Vec::new();
        for runner in ["fork", "process"] {
            let outputs = printed(&cases(&file, lab.path(), python, runner));
            // Every case sees what the first saw: nothing came from the runs before it (the
            // same entries and inode numbers, host name, IPC limits and objects), though each
            // left a deep tree, a full /tmp, a host name and an IPC limit behind.
            assert!(
                outputs.windows(2).all(|w| w[0] == w[1]),
                "{python} {runner}: {outputs:#?}"
            );
            assert!(
                !outputs[0].contains("run"),
                "{python} {runner}: {}",
                outputs[0]
            );
            assert!(
                outputs[0].contains(" shm=1 "),
                "{python} {runner}: {}",
                outputs[0]
            );
            seen.push(comparable(&outputs[0]));
        }
        assert_eq!(seen[0], seen[1], "{python}: forked and fresh runs differ");
    }
}

/// A right answer, then an exit function that ends the process at once (`ENDING` is how the
/// program's code ends). CPython 3 flushes the program's output the moment its code returns or
/// raises, before exit functions run; Python 2 only when it raised.
const EXIT_FUNCTION: &str = r#"import atexit, os, sys
a, b = [int(w) for w in sys.stdin.read().split()]
print(1 if a != b else 0)
atexit.register(os._exit, EXIT_CODE)
ENDING
"#;

#[test]
fn an_exit_function_that_ends_the_process_ends_it_alike_in_both_runners() {
    let lab = quick_lab();
    let dir = tempfile::tempdir().unwrap();
    let endings = [
        ("pass", "0", ["accepted", "wrong_answer"]),
        ("sys.exit(0)", "0", ["accepted", "accepted"]),
        ("sys.exit(0)", "3", ["runtime_error", "runtime_error"]),
        ("raise ValueError(3)", "0", ["accepted", "accepted"]),
    ];
    for (ending, code, [under_3, under_2]) in endings {
        let text = EXIT_FUNCTION
            .replace("EXIT_CODE", code)
            .replace("ENDING", ending);
        let file = program(dir.path(), &text);
        for python in pythons() {
            let expected = if python == "3" { under_3 } else { under_2 };
            for runner in ["fork", "process"] {
                for case in cases(&file, lab.path(), python, runner) {
                    assert_eq!(
                        case["verdict"], expected,
                        "{python} {runner}, {ending} then os._exit({code}): {case:#}"
                    );
                }
            }
        }
    }
}

/// An interpreter installed under /tmp (a course's Python unpacked there) is reached by its
/// programs in both runners: each run's fresh /tmp does not hide it.
#[test]
fn an_interpreter_kept_under_tmp_is_reached_in_both_runners() {
    let lab = quick_lab();
    let place = tempfile::Builder::new().tempdir_in("/tmp").unwrap();
    let bin = place.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let python = bin.join("python3");
    std::fs::copy(std::fs::canonicalize("/usr/bin/python3").unwrap(), &python).unwrap();
    let solution = crate::common::root().join("exercises/exclusive_or/solution.py");
    for runner in ["fork", "process"] {
        let (report, code) = check_json(&[
            solution.to_str().unwrap(),
            "--python",
            python.to_str().unwrap(),
            "--runner",
            runner,
            "--lab",
            lab.path().to_str().unwrap(),
        ]);
        assert_eq!(
            (code, &report["verdict"]),
            (0, &"accepted".into()),
            "{runner}: {report:#}"
        );
        assert!(
            report["runs"][0]["runner_note"].is_null(),
            "{runner}: {report:#}"
        );
    }
}

/// A virtual environment's Python (where `pip install nimlab` puts a student's nimlab, and
/// so the `python3` it finds first): a link, from a folder the sandbox does not show (here
/// under /tmp, which each run replaces), into an installation it does. Reached in both
/// runners, which both run it by its real path (the installation's Python, as without the
/// environment).
#[test]
fn a_virtual_environments_python_is_reached_in_both_runners() {
    let lab = quick_lab();
    let place = tempfile::Builder::new().tempdir_in("/tmp").unwrap();
    let venv = place.path().join("venv");
    let made = std::process::Command::new("python3")
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let python = venv.join("bin/python3");
    assert!(
        python.is_symlink(),
        "a virtual environment links its python"
    );
    let solution = crate::common::root().join("exercises/exclusive_or/solution.py");
    for runner in ["fork", "process"] {
        let (report, code) = check_json(&[
            solution.to_str().unwrap(),
            "--python",
            python.to_str().unwrap(),
            "--runner",
            runner,
            "--lab",
            lab.path().to_str().unwrap(),
        ]);
        assert_eq!(
            (code, &report["verdict"]),
            (0, &"accepted".into()),
            "{runner}: {report:#}"
        );
    }
}

/// `grade` as root runs each student's programs as the sandbox's user: a class graded in a
/// folder only root can read is graded all the same (the folders the programs need are shown
/// to them, nothing else is).
#[test]
fn a_class_in_a_folder_closed_to_others_is_graded() {
    use std::os::unix::fs::PermissionsExt;
    let class = tempfile::tempdir().unwrap();
    std::fs::set_permissions(class.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let solution = crate::common::root().join("exercises/exclusive_or/solution.py");
    std::fs::copy(&solution, class.path().join("ann_1_exclusive_or.py")).unwrap();
    let results = graded(class.path(), "out", &["--python", "3", "--jobs", "1"]);
    let ann = &results["students"][0]["exercises"]["exclusive_or"]["report"];
    assert_eq!(ann["verdict"], "accepted", "{ann:#}");
}

/// Counts, in every writable mapping of its own memory, the ways a seed is held (its decimal
/// text, its 8 bytes, its first two 30-bit digits as CPython's ints keep them) for each seed
/// of SEEDS (masked with MASK in the source, so that the source holds none of them), and for a
/// seed no run has (the last: what the program's own search holds). Prints the indexes of
/// the seeds found more often than that one.
const SEED_FINDER: &str = r#"import struct, sys
a, b = [int(w) for w in sys.stdin.read().split()]
MASK = 0x5A5A5A5A5A5A5A5A
SEEDS = [s ^ MASK for s in [SEEDS_HERE]]
def patterns(seed):
    digits = (seed & 0x3FFFFFFF, (seed >> 30) & 0x3FFFFFFF)
    return [str(seed).encode("ascii"), struct.pack("<Q", seed), struct.pack("<II", *digits)]
wanted = [patterns(s) for s in SEEDS]
regions = []
for line in open("/proc/self/maps").read().splitlines():
    fields = line.split()
    if fields[1].startswith("rw") and (len(fields) < 6 or fields[5] in ("[heap]",) or not fields[5].startswith("/")):
        start, end = [int(x, 16) for x in fields[0].split("-")]
        regions.append((start, end))
mem = open("/proc/self/mem", "rb", 0)
counts = [0] * len(wanted)
for start, end in regions:
    try:
        mem.seek(start)
        data = mem.read(end - start)
    except (IOError, OSError, ValueError, OverflowError):
        continue
    for i, group in enumerate(wanted):
        for pattern in group:
            counts[i] += data.count(pattern)
control = counts[-1]
found = [str(i) for i, n in enumerate(counts[:-1]) if n > control]
print(1 if a != b else 0)
print("found=" + ",".join(found))
"#;

/// The seeds of exclusive_or's cases under `version`, in the order the report lists them.
fn case_seeds(lab: &Path, names: &[String], version: &str) -> Vec<u64> {
    names
        .iter()
        .map(|name| {
            let input =
                std::fs::read(lab.join(format!("fixtures/exclusive_or/{name}.in"))).unwrap();
            let text = String::from_utf8(input).unwrap();
            nimlab_core::runner::seed::for_case("exclusive_or", name, text.as_bytes(), version)
        })
        .collect()
}

/// A forked child's memory is a copy of its fork server's: no earlier run's seed (a digest
/// of that case's input, a secret case's among them) may be left there. Each case looks for
/// every case's seed in its own memory and finds its own at most.
#[test]
fn a_forked_run_finds_no_earlier_runs_seed_in_its_memory() {
    let lab = lab_with(&["exclusive_or"], |config| {
        config.remove("forbidden");
    });
    let dir = tempfile::tempdir().unwrap();
    for python in pythons() {
        let probe = program(dir.path(), "import sys\nsys.stdin.read()\nprint(0)\n");
        let first = cases(&probe, lab.path(), python, "fork");
        let names: Vec<String> = first
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect();
        let (report, _) = check_json(&[
            probe.to_str().unwrap(),
            "--python",
            python,
            "--lab",
            lab.path().to_str().unwrap(),
        ]);
        let version = report["runs"][0]["version"].as_str().unwrap().to_string();
        let mut seeds = case_seeds(lab.path(), &names, &version);
        seeds.push(0x1234_5678_9abc_def1); // (no run's)
        let masked: Vec<String> = seeds
            .iter()
            .map(|s| (s ^ 0x5A5A_5A5A_5A5A_5A5A).to_string())
            .collect();
        let file = program(
            dir.path(),
            &SEED_FINDER.replace("SEEDS_HERE", &masked.join(", ")),
        );
        let outputs = printed(&cases(&file, lab.path(), python, "fork"));
        for (index, output) in outputs.iter().enumerate() {
            let found = output.lines().nth(1).unwrap().trim_start_matches("found=");
            for other in found.split(',').filter(|f| !f.is_empty()) {
                assert_eq!(
                    other,
                    index.to_string(),
                    "{python}: case {} found the seed of {}: {outputs:#?}",
                    names[index],
                    names[other.parse::<usize>().unwrap()]
                );
            }
        }
    }
}

/// A student's folder of the corpora: its files (name, contents), and what it is, for
/// messages.
type StudentFolder = (Vec<(String, Vec<u8>)>, String);

/// The corpora in one class folder, a student's folder per program or per folder handed in
/// together (`p<N>_<N>/`): the lab's model solutions and starter files, the lab's own
/// functions with its input blocks (and its game beside the functions it imports), the
/// mistakes (tests/submissions, each folder whole, so a program imports its siblings as
/// it would from a student's folder) and the games (tests/data/games). Returns the folder and
/// what each student's folder holds.
fn corpora_class() -> (tempfile::TempDir, Vec<(String, String)>) {
    let root = crate::common::root();
    let read = |path: &Path| std::fs::read(path).unwrap();
    let shown = |path: &Path| path.strip_prefix(&root).unwrap().display().to_string();
    let mut folders: Vec<StudentFolder> = Vec::new();
    for exercise in crate::common::exercises() {
        let folder = root.join("exercises").join(&exercise);
        for file in ["solution.py", "stub.py"] {
            let path = folder.join(file);
            folders.push((vec![(format!("{exercise}.py"), read(&path))], shown(&path)));
        }
    }
    folders.extend(lab_folders(&root.join("tests/data/lab")));
    let mut mistakes: Vec<_> = std::fs::read_dir(root.join("tests/submissions"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    mistakes.sort();
    for folder in mistakes {
        let mut files: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "py"))
            .collect();
        files.sort();
        let files = files
            .iter()
            .map(|p| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    read(p),
                )
            })
            .collect();
        folders.push((files, shown(&folder)));
    }
    for folder in ["tests/data/games/correct", "tests/data/games/wrong"] {
        let mut found: Vec<_> = walkdir::WalkDir::new(root.join(folder))
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "py"))
            .map(|e| e.path().to_path_buf())
            .collect();
        found.sort();
        for path in found {
            folders.push((vec![("working_game.py".into(), read(&path))], shown(&path)));
        }
    }
    let class = tempfile::tempdir().unwrap();
    let mut names = Vec::new();
    for (n, (files, shown)) in folders.into_iter().enumerate() {
        let folder = class.path().join(format!("p{n}_{n}"));
        std::fs::create_dir(&folder).unwrap();
        for (name, bytes) in files {
            std::fs::write(folder.join(name), bytes).unwrap();
        }
        names.push((format!("p{n}"), shown));
    }
    (class, names)
}

/// The lab's own programs (tests/data/lab in `lab`), as students' folders: each exercise's
/// functions with its input block, optimal_move's functions alone, and the game beside the
/// functions it imports.
fn lab_folders(lab: &Path) -> Vec<StudentFolder> {
    let read = |path: &Path| std::fs::read(path).unwrap();
    let function = |name: &str| read(&lab.join("functions").join(format!("{name}.py")));
    let mut folders = Vec::new();
    let mut blocks: Vec<_> = std::fs::read_dir(lab.join("blocks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    blocks.sort();
    for block in blocks {
        let exercise = block.file_stem().unwrap().to_str().unwrap().to_string();
        let whole = [function(&exercise), b"\n\n".to_vec(), read(&block)].concat();
        let shown = format!("tests/data/lab/blocks/{exercise}.py (with its functions)");
        folders.push((vec![(format!("{exercise}.py"), whole)], shown));
    }
    folders.push((
        vec![("optimal_move.py".into(), function("optimal_move"))],
        "tests/data/lab/functions/optimal_move.py".into(),
    ));
    let mut game = vec![(
        "working_game.py".to_string(),
        read(&lab.join("game/working_game.py")),
    )];
    for sibling in ["present_board", "ui", "optimal_move", "make_move"] {
        game.push((format!("{sibling}.py"), function(sibling)));
    }
    folders.push((
        game,
        "tests/data/lab/game (with the lab's functions)".into(),
    ));
    folders
}

/// `nimlab grade CLASS --out CLASS/OUT ARGS`, which must succeed: its `results.json`.
fn graded(class: &Path, out: &str, args: &[&str]) -> Value {
    let out = class.join(out);
    let output = nimlab()
        .arg("grade")
        .arg(class)
        .arg("--out")
        .arg(&out)
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results = std::fs::read_to_string(out.join("results.json")).unwrap();
    serde_json::from_str(&results).unwrap()
}

/// `nimlab grade` of `class` with a runner: its `results.json`.
fn graded_with(class: &Path, lab: Option<&Path>, runner: &str, pythons: &str) -> Value {
    let mut args = vec!["--python", pythons, "--runner", runner];
    if let Some(lab) = lab {
        args.extend(["--lab", lab.to_str().unwrap()]);
    }
    graded(class, &format!("out-{runner}"), &args)
}

/// Each graded exercise's report in `results.json`, by "student exercise".
fn reports(results: &Value) -> std::collections::BTreeMap<String, &Value> {
    let mut reports = std::collections::BTreeMap::new();
    for student in results["students"].as_array().unwrap() {
        let id = student["id"]
            .as_str()
            .or(student["student"].as_str())
            .unwrap_or_default();
        for (exercise, entry) in student["exercises"].as_object().unwrap() {
            reports.insert(format!("{id} {exercise}"), &entry["report"]);
        }
    }
    reports
}

/// Every case of every exercise graded for each student in `results.json` by `runner`:
/// (student, exercise, interpreter, case) → verdict and what the program printed where the
/// report keeps it.
fn graded_cases(results: &Value, runner: &str) -> std::collections::BTreeMap<String, String> {
    let mut cases = std::collections::BTreeMap::new();
    for (key, report) in reports(results) {
        for run in report["runs"].as_array().into_iter().flatten() {
            if runner == "fork" {
                assert!(
                    run["runner"] == "fork" || run["runner"].is_null(),
                    "{key}: {run:#}"
                );
            }
            for case in run["cases"].as_array().unwrap() {
                let key = format!("{key} {} {}", run["interpreter"], case["name"]);
                // (A time limit's message says the time measured and which limit came
                // first, which differ by nature from one run to the next, and with the
                // machine's load: left out.)
                let message = case["message"].as_str().unwrap_or_default();
                let message = if case["verdict"] == "time_limit" {
                    String::new()
                } else {
                    message.to_string()
                };
                let seen = format!("{} {} {message}", case["verdict"], case["feedback"]["got"]);
                cases.insert(key, seen);
            }
        }
    }
    cases
}

/// What two gradings of one program may differ in whatever runs it: timings, and with them
/// which of the time limits a busy program reaches first (on a loaded machine a program gets
/// less CPU time per second, and the wall clock runs out before the CPU time: the verdict and
/// hint are the same, the message names the limit), which runner judged, and what a program
/// cut off at the output limit managed to write to stderr before it died (it races the kill:
/// the process path itself gives one or the other).
fn comparable_report(report: &Value) -> Value {
    let mut report = report.clone();
    for run in report["runs"].as_array_mut().into_iter().flatten() {
        let run = run.as_object_mut().unwrap();
        run.remove("runner");
        run.remove("runner_note");
        for case in run["cases"].as_array_mut().unwrap() {
            let case = case.as_object_mut().unwrap();
            case.remove("time_ms");
            case.remove("wall_ms");
            if case["verdict"] == "time_limit" {
                case.insert("message".into(), Value::String("a time limit".into()));
            }
            if case["verdict"] == "output_limit"
                && let Some(feedback) = case.get_mut("feedback").and_then(Value::as_object_mut)
            {
                feedback.remove("stderr");
            }
        }
    }
    report
}

/// One file, one verdict: every program of the corpora (the lab's model solutions and
/// starter files, the lab's own functions and blocks, the mistakes, the games) gets the same
/// report forked or fresh, under 3 and 2.7: every case's verdict, message and output, the
/// feedback and hints, the scores (timings aside). None of them prints what differs by nature
/// between a forked and a started process. Each forked run was forked: no server fell back
/// to processes.
#[test]
fn every_program_of_the_corpora_is_judged_alike_forked_and_fresh() {
    let (class, names) = corpora_class();
    let pythons = if python_2_7_available() { "3,2.7" } else { "3" };
    let forked_results = graded_with(class.path(), None, "fork", pythons);
    let fresh_results = graded_with(class.path(), None, "process", pythons);
    let forked = graded_cases(&forked_results, "fork");
    let fresh = graded_cases(&fresh_results, "process");
    assert!(forked.len() > 1000, "{} cases", forked.len());
    let mut differing = differences(&forked, &fresh, &names, &[], &[]);
    let (forked_reports, fresh_reports) = (reports(&forked_results), reports(&fresh_results));
    let mut forked_runs = 0;
    for (key, report) in &forked_reports {
        for run in report["runs"].as_array().into_iter().flatten() {
            assert_eq!(run["runner_note"], Value::Null, "{key}: {run:#}");
            forked_runs += usize::from(run["runner"] == "fork");
        }
        let fresh = fresh_reports.get(key).map(|r| comparable_report(r));
        if differing.is_empty() && Some(comparable_report(report)) != fresh {
            differing.push(format!(
                "{key}: the reports differ\nforked: {:#}\nfresh: {:#}",
                comparable_report(report),
                fresh.unwrap_or(Value::Null)
            ));
        }
    }
    assert_eq!(forked_reports.len(), fresh_reports.len());
    assert!(forked_runs > 100, "only {forked_runs} runs were forked");
    assert!(differing.is_empty(), "{}", differing.join("\n"));
}
/// Every case graded differently forked and fresh, told with its program. A program named in
/// `verdict_only` has only its verdicts compared; one named in `near_limits` may meet the time
/// limit on one side only (its other cases are compared in full).
fn differences(
    forked: &std::collections::BTreeMap<String, String>,
    fresh: &std::collections::BTreeMap<String, String>,
    names: &[(String, String)],
    verdict_only: &[(&str, &str)],
    near_limits: &[(&str, &str)],
) -> Vec<String> {
    let program_of = |key: &str| {
        let student = key.split(' ').next().unwrap_or_default();
        names
            .iter()
            .find(|(s, _)| s == student)
            .map_or("?", |(_, p)| p.as_str())
            .to_string()
    };
    let verdict = |seen: &str| seen.split(' ').next().unwrap_or_default().to_string();
    let mut differing: Vec<String> = forked
        .iter()
        .filter(|(key, seen)| {
            let program = program_of(key);
            let timed_out = |seen: &str| verdict(seen) == "\"time_limit\"";
            match fresh.get(*key) {
                None => true,
                Some(other)
                    if near_limits.iter().any(|(p, _)| *p == program)
                        && timed_out(seen) != timed_out(other) =>
                {
                    false
                }
                Some(other) if verdict_only.iter().any(|(p, _)| *p == program) => {
                    verdict(seen) != verdict(other)
                }
                Some(other) => other != *seen,
            }
        })
        .map(|(key, seen)| {
            format!(
                "{key} ({}):\n  forked: {seen}\n  fresh:  {}",
                program_of(key),
                fresh.get(key).map_or("(missing)", String::as_str)
            )
        })
        .collect();
    differing.extend(
        fresh
            .keys()
            .filter(|key| !forked.contains_key(*key))
            .map(|key| format!("{key} ({}): graded fresh only", program_of(key))),
    );
    differing
}

/// Programs of the hostile corpus that print what differs by nature between a forked and a
/// started process, each with the reason: only their verdicts are compared.
const DIFFERS_BY_NATURE: &[(&str, &str)] = &[(
    "fresh_marks",
    "lists /tmp, where the folders nimlab shows a run are named by nimlab's process id and a \
     random suffix (a fresh run is shown one more, its interpreter's settings), and prints \
     /tmp's inode count, one per such folder",
)];

/// Programs of the hostile corpus whose time, not their runner, decides whether they end
/// within the limit on a busy machine, each with the reason: a time limit on one side only
/// is let pass.
const NEAR_ITS_LIMITS: &[(&str, &str)] = &[(
    "diskwalker",
    "walks every folder of the disk: about 0.4 s of CPU alone, over the 3 s limit when the \
     tests beside it load the machine",
)];

/// One file, one verdict, for the hostile corpus too: every program hostile.rs attacks with,
/// and each attack of this file, graded forked and fresh under 3 and 2.7 with short limits,
/// gets the same verdict on every case and prints the same, but for DIFFERS_BY_NATURE.
#[test]
fn every_hostile_program_is_judged_alike_forked_and_fresh() {
    // Limits loose enough that a busy machine's timing decides no verdict (a walk of every
    // folder takes about 0.4 s of CPU), tight enough that endless programs end soon.
    let lab = crate::common::short_lab(3000, 3000, 256);
    let mut programs: Vec<(String, String)> = crate::hostile::corpus()
        .into_iter()
        .map(|(name, text)| {
            let text = text
                .replace("@PORT@", "9")
                .replace("@HOME@", "'/root'")
                .replace("@MARKER@", "nimlab-corpus");
            (name.to_string(), text)
        })
        .collect();
    for (name, text) in [
        ("rootless", ROOTLESS.to_string()),
        ("descriptors", DESCRIPTORS.replace("HIGH", "4095")),
        ("locks", LOCKS.to_string()),
        ("fresh_marks", MARKS.to_string()),
        (
            "exit_function",
            EXIT_FUNCTION
                .replace("EXIT_CODE", "3")
                .replace("ENDING", "sys.exit(0)"),
        ),
        ("seed_finder", SEED_FINDER.replace("SEEDS_HERE", "1, 2")),
    ] {
        programs.push((name.to_string(), text));
    }
    let class = tempfile::tempdir().unwrap();
    let mut names = Vec::new();
    for (n, (name, text)) in programs.iter().enumerate() {
        let folder = class.path().join(format!("p{n}_{n}"));
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("exclusive_or.py"), text).unwrap();
        names.push((format!("p{n}"), name.clone()));
    }
    let pythons = if python_2_7_available() { "3,2.7" } else { "3" };
    let forked = graded_cases(
        &graded_with(class.path(), Some(lab.path()), "fork", pythons),
        "fork",
    );
    let fresh = graded_cases(
        &graded_with(class.path(), Some(lab.path()), "process", pythons),
        "process",
    );
    assert!(forked.len() >= programs.len() * 4, "{} cases", forked.len());
    let differing = differences(&forked, &fresh, &names, DIFFERS_BY_NATURE, NEAR_ITS_LIMITS);
    assert!(differing.is_empty(), "{}", differing.join("\n"));
}

/// The uid the ordinary-user test runs nimlab as (no user of the machine has it).
const ORDINARY_UID: u32 = 62_345;

/// A `nimlab` command run as an ordinary user (ORDINARY_UID), from a copy of the binary that
/// user may read, with Python 3 from /usr/bin and pyenv's 2.7 where it is. pyenv's builds
/// find their library by its absolute path, so the 2.7 stays at that path: a folder on the
/// way that the user may not pass (/root, mode 700) is covered, in a mount namespace of the
/// command's own, by an empty tmpfs with the 2.7 installation bound back in it, read-only.
/// Nothing on the host changes. None when the test is not root (it cannot change user).
fn as_ordinary_user(scratch: &Path) -> Option<std::process::Command> {
    use std::os::unix::fs::PermissionsExt;
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 || !Path::new("/usr/bin/setpriv").exists() {
        return None;
    }
    std::fs::set_permissions(scratch, std::fs::Permissions::from_mode(0o755)).unwrap();
    let binary = scratch.join("nimlab");
    if !binary.exists() {
        std::fs::copy(assert_cmd::cargo::cargo_bin!("nimlab"), &binary).unwrap();
    }
    let pyenv = std::env::var_os("PYENV_ROOT")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(&std::env::var_os("HOME").unwrap()).join(".pyenv"));
    let versions: Vec<std::path::PathBuf> = std::fs::read_dir(pyenv.join("versions"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with("2.7"))
        .map(|entry| entry.path())
        .collect();
    // The first folder on the way to pyenv that others may not pass, if any.
    let closed = pyenv
        .ancestors()
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .find(|folder| std::fs::metadata(folder).is_ok_and(|m| m.permissions().mode() & 0o001 == 0))
        .map(Path::to_path_buf);
    let mut script = String::from("set -e\n");
    if let Some(closed) = &closed {
        // Each installation first at a spot of its own, then the tmpfs, then back in place.
        for (i, version) in versions.iter().enumerate() {
            let spot = scratch.join(format!("keep-{i}"));
            std::fs::create_dir_all(&spot).unwrap();
            script += &format!(
                "mount --bind '{}' '{}'\n",
                version.display(),
                spot.display()
            );
        }
        script += &format!(
            "mount -t tmpfs -o mode=755 nimlab-test '{}'\n",
            closed.display()
        );
        for (i, version) in versions.iter().enumerate() {
            let spot = scratch.join(format!("keep-{i}"));
            script += &format!(
                "mkdir -p '{0}' && mount --bind -o ro '{1}' '{0}'\n",
                version.display(),
                spot.display()
            );
        }
    }
    script += &format!(
        "exec setpriv --reuid {ORDINARY_UID} --regid {ORDINARY_UID} --clear-groups -- \"$0\" \"$@\"\n"
    );
    let mut command = std::process::Command::new("unshare");
    command
        .args([
            "--mount",
            "--propagation",
            "private",
            "--",
            "sh",
            "-c",
            &script,
        ])
        .arg(&binary)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", scratch)
        .env("PYENV_ROOT", &pyenv)
        .env("NO_COLOR", "1");
    Some(command)
}

/// Every folder and file under `path` readable by others (and the folders passable), as an
/// ordinary user's copy of a lab or a program needs.
fn open_to_others(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(path).into_iter().flatten() {
        let mode = if entry.file_type().is_dir() {
            0o755
        } else {
            0o644
        };
        std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(mode)).unwrap();
    }
}

/// The attacks above, with nimlab run by an ordinary user: the program is that user on the
/// host (never anyone else), writes no sysctl, holds no capability, and each run starts fresh,
/// under both runners.
#[test]
fn the_attacks_hold_when_nimlab_runs_as_an_ordinary_user() {
    let scratch = tempfile::tempdir().unwrap();
    let Some(_) = as_ordinary_user(scratch.path()) else {
        eprintln!("not root: the ordinary-user attack round is run by CI, as root");
        return;
    };
    let lab = quick_lab();
    open_to_others(lab.path());
    // Named apart from the root test's program, which may run at the same time.
    let rootless = ROOTLESS.replace("nimlab-rootless", "nimlab-ordinary");
    for (program, text) in [
        ("rootless", rootless.as_str()),
        ("marks", MARKS),
        ("locks", LOCKS),
    ] {
        let folder = scratch.path().join("programs").join(program);
        std::fs::create_dir_all(&folder).unwrap();
        let file = folder.join("exclusive_or.py");
        std::fs::write(&file, text).unwrap();
        open_to_others(&scratch.path().join("programs"));
        for python in pythons() {
            let outputs: Vec<String> = ["fork", "process"]
                .into_iter()
                .map(|runner| {
                    let (printed, uids) =
                        printed_as_ordinary_user(scratch.path(), &file, lab.path(), python, runner);
                    assert!(
                        program != "rootless" || !uids.is_empty(),
                        "{python} {runner}: not seen"
                    );
                    assert!(
                        printed.windows(2).all(|w| w[0] == w[1]),
                        "{program} {python} {runner}: {printed:#?}"
                    );
                    printed[0].clone()
                })
                .collect();
            let first = &outputs[0];
            match program {
                "rootless" => {
                    assert!(!first.contains("=written"), "{python}: {first}");
                    assert!(
                        first.contains("caps=0000000000000000,0000000000000000,0000000000000000"),
                        "{python}: {first}"
                    );
                }
                "locks" => assert!(
                    first.split_whitespace().all(|a| a.ends_with("=1")),
                    "{python}: {first}"
                ),
                _ => assert_eq!(comparable(first), comparable(&outputs[1]), "{python}"),
            }
        }
    }
}

/// What each case of `file` printed, checked by nimlab run as the ordinary user, and the
/// host uids seen of every program named nimlab-ordinary meanwhile (each checked to be that
/// user's).
fn printed_as_ordinary_user(
    scratch: &Path,
    file: &Path,
    lab: &Path,
    python: &str,
    runner: &str,
) -> (Vec<String>, Vec<String>) {
    let mut command = as_ordinary_user(scratch).unwrap();
    command
        .current_dir(file.parent().unwrap())
        .args(check_one_at_a_time(file, lab, python, runner));
    let done = std::sync::atomic::AtomicBool::new(false);
    let (output, uids) = std::thread::scope(|scope| {
        let watcher = scope.spawn(|| host_uids_of_programs("nimlab-ordinary", &done));
        let output = command.output().unwrap();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        (output, watcher.join().unwrap())
    });
    for line in &uids {
        for id in line[4..].split_whitespace() {
            assert_eq!(id, ORDINARY_UID.to_string(), "{python} {runner}: {line}");
        }
    }
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "{} {python} {runner}: {}",
            file.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let run = &report["runs"][0];
    assert_eq!(run["runner"], runner, "{python}: {report:#}");
    assert!(
        run["runner_note"].is_null(),
        "{python} {runner}: {}",
        run["runner_note"]
    );
    (printed(run["cases"].as_array().unwrap()), uids)
}

/// A second interpreter beside Python 3: 2.7, or without a 2.7, Python 3 again by its path.
fn second_interpreter() -> String {
    if python_2_7_available() {
        "2.7".to_string()
    } else {
        std::fs::canonicalize("/usr/bin/python3")
            .unwrap()
            .display()
            .to_string()
    }
}

/// Prints when it started and when it ended (the host's clock, which the sandbox shares).
const CLOCKED: &str = r#"import sys, time
started = time.time()
sys.stdin.read()
time.sleep(0.05)
print("%.6f %.6f" % (started, time.time()))
"#;

/// What cannot be closed (CPU, caches, timing) is ordered: every sample case of a file, under
/// every interpreter it is checked with, ends before any of its secret cases starts.
#[test]
fn sample_cases_of_every_interpreter_end_before_any_secret_case_starts() {
    let lab = lab_with(&["exclusive_or"], |config| {
        config.remove("forbidden");
    });
    let dir = tempfile::tempdir().unwrap();
    let file = program(dir.path(), CLOCKED);
    let second = second_interpreter();
    for runner in ["fork", "process"] {
        let (report, _) = check_json(&[
            file.to_str().unwrap(),
            "--python",
            &format!("3,{second}"),
            "--runner",
            runner,
            "--jobs",
            "2",
            "--instructor",
            "--lab",
            lab.path().to_str().unwrap(),
        ]);
        let mut sample_ends = Vec::new();
        let mut secret_starts = Vec::new();
        for run in report["runs"].as_array().unwrap() {
            for case in run["cases"].as_array().unwrap() {
                let got = case["feedback"]["got"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{case:#}"));
                let times: Vec<f64> = got.split_whitespace().map(|t| t.parse().unwrap()).collect();
                if case["name"].as_str().unwrap().starts_with("sample/") {
                    sample_ends.push(times[1]);
                } else {
                    secret_starts.push(times[0]);
                }
            }
        }
        assert_eq!(report["runs"].as_array().unwrap().len(), 2);
        assert!(
            !sample_ends.is_empty() && !secret_starts.is_empty(),
            "{report:#}"
        );
        let last_sample = sample_ends.iter().copied().fold(f64::MIN, f64::max);
        let first_secret = secret_starts.iter().copied().fold(f64::MAX, f64::min);
        assert!(
            last_sample <= first_secret,
            "{runner}: a sample case ended at {last_sample}, after a secret case started at {first_secret}"
        );
    }
}

/// A one-off check given two jobs runs its interpreters side by side: the second
/// interpreter's cases run while the first's do, and the order of samples before secrets
/// holds for both (the test above); given one job, one interpreter's cases wait for the
/// other's.
#[test]
fn a_check_with_two_jobs_runs_its_interpreters_side_by_side() {
    let lab = lab_with(&["exclusive_or"], |config| {
        config.remove("forbidden");
    });
    let dir = tempfile::tempdir().unwrap();
    let file = program(dir.path(), &CLOCKED.replace("0.05", "0.15"));
    let second = second_interpreter();
    let overlaps = |jobs: &str| {
        let (report, _) = check_json(&[
            file.to_str().unwrap(),
            "--python",
            &format!("3,{second}"),
            "--jobs",
            jobs,
            "--instructor",
            "--lab",
            lab.path().to_str().unwrap(),
        ]);
        let spans: Vec<Vec<(f64, f64)>> = report["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|run| {
                run["cases"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|case| {
                        let got = case["feedback"]["got"]
                            .as_str()
                            .unwrap_or_else(|| panic!("{case:#}"));
                        let t: Vec<f64> =
                            got.split_whitespace().map(|t| t.parse().unwrap()).collect();
                        (t[0], t[1])
                    })
                    .collect()
            })
            .collect();
        assert_eq!(spans.len(), 2, "{report:#}");
        spans[0]
            .iter()
            .flat_map(|a| spans[1].iter().map(move |b| (a, b)))
            .filter(|(a, b)| a.0 < b.1 && b.0 < a.1)
            .count()
    };
    assert!(
        overlaps("2") > 0,
        "with two jobs, no case of one interpreter ran beside the other's"
    );
    assert_eq!(
        overlaps("1"),
        0,
        "with one job, the interpreters' cases ran at once"
    );
}

/// Lists every file it can reach under its submission's scratch folders' folder and `/tmp`,
/// and the mounts it can see: prints the marks (`MARK-` and a name) found in those files, and
/// how many students' scratch folders (`ws-…`) it saw by name.
const NEIGHBOURS: &str = r#"import os, sys
sys.stdin.read()
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
tag = b"MA" + b"RK-"
marks, folders = set(), set()
for top in (root, "/tmp"):
    for dirpath, dirs, files in os.walk(top):
        folders.update(p for p in dirpath.split("/") if p.startswith("ws-"))
        for name in files:
            try:
                data = open(os.path.join(dirpath, name), "rb").read()
            except (IOError, OSError):
                continue
            at = data.find(tag)
            while at >= 0:
                marks.add(data[at + 5 : at + 8].decode("ascii", "replace"))
                at = data.find(tag, at + 1)
for line in open("/proc/self/mountinfo").read().split("\n"):
    folders.update(p for p in line.replace(" ", "/").split("/") if p.startswith("ws-"))
print("marks=" + ",".join(sorted(marks)) + " folders=%d" % len(folders))
"#;

/// One warm interpreter serves every submission a grading thread checks, one after another
/// (a zygote forks a server for each): each student's runs still see only that student's own
/// files, never another's, by walking the folders or reading the mounts. As root and, when
/// the test is root, as an ordinary user.
#[test]
fn a_warm_interpreter_shows_each_submission_only_its_own_files() {
    let lab = quick_lab();
    let scratch = tempfile::tempdir().unwrap();
    let class = scratch.path().join("class");
    let students = ["ann", "bob", "cyd"];
    for student in students {
        let folder = class.join(student);
        std::fs::create_dir_all(&folder).unwrap();
        let text = format!("{NEIGHBOURS}# MARK-{student}\n");
        std::fs::write(folder.join("exclusive_or.py"), text).unwrap();
        std::fs::write(folder.join("notes.py"), format!("# MARK-{student}\n")).unwrap();
    }
    let pythons = pythons().join(",");
    let args = |out: &Path| {
        let mut args: Vec<std::ffi::OsString> = vec!["grade".into(), class.clone().into()];
        args.extend(["--out".into(), out.as_os_str().to_owned()]);
        for arg in [
            "--python", &pythons, "--runner", "fork", "--jobs", "1", "--lab",
        ] {
            args.push(arg.into());
        }
        args.push(lab.path().into());
        args
    };
    let mut gradings = vec![("root", scratch.path().join("out-root"), nimlab())];
    if let Some(command) = as_ordinary_user(scratch.path()) {
        open_to_others(lab.path());
        open_to_others(&class);
        let out = scratch.path().join("out-ordinary");
        std::fs::create_dir_all(&out).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o777)).unwrap();
        gradings.push(("an ordinary user", out, command.into()));
    }
    for (who, out, mut command) in gradings {
        let output = command.args(args(&out)).output().unwrap();
        assert!(
            output.status.success(),
            "{who}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let results: Value =
            serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
        let mut seen = 0;
        for (key, report) in reports(&results) {
            let student = key.split(' ').next().unwrap();
            for run in report["runs"].as_array().unwrap() {
                assert_eq!(run["runner"], "fork", "{who} {key}: {run:#}");
                assert!(run["runner_note"].is_null(), "{who} {key}: {run:#}");
                for got in printed(run["cases"].as_array().unwrap()) {
                    assert_eq!(
                        got.trim(),
                        format!("marks={student} folders=1"),
                        "{who} {key}"
                    );
                    seen += 1;
                }
            }
        }
        assert!(seen >= 3 * 4, "{who}: {seen} cases");
    }
}

/// A temporary folder whose name holds a newline or a byte that is not UTF-8 (the kernel's
/// list of mounts escapes the one and leaves the other as it is) keeps every run forked.
#[test]
fn a_temporary_folder_with_any_bytes_in_its_name_keeps_runs_forked() {
    use std::os::unix::ffi::OsStrExt;
    let scratch = tempfile::tempdir().unwrap();
    let solution = crate::common::root().join("exercises/exclusive_or/solution.py");
    for name in [&b"line\nbreak"[..], b"not\xffutf8", b"with space"] {
        let tmp = scratch.path().join(std::ffi::OsStr::from_bytes(name));
        std::fs::create_dir_all(&tmp).unwrap();
        let output = nimlab()
            .env("TMPDIR", &tmp)
            .args(["check", solution.to_str().unwrap(), "--format", "json"])
            .args(["--python", &pythons().join(","), "--runner", "fork"])
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["verdict"], "accepted", "{name:?}: {report:#}");
        for run in report["runs"].as_array().unwrap() {
            assert_eq!(run["runner"], "fork", "{name:?}: {run:#}");
            assert!(run["runner_note"].is_null(), "{name:?}: {run:#}");
        }
        assert_eq!(
            std::fs::read_dir(&tmp).unwrap().count(),
            0,
            "{name:?}: left behind"
        );
    }
}
