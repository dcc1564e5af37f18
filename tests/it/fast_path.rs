//! The fast path (`--runner fork`): the fork server survives what programs do to it, keeps
//! runs apart, and when it dies the runs go on as processes and the report says so. (That
//! every submission the project has gets the same report both ways is fresh_runs.rs's
//! `every_program_of_the_corpora_is_judged_alike_forked_and_fresh`.)

use crate::common::{nimlab, number_after, root};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `nimlab check --format json` with a runner: the report and the exit code.
fn check(file: &Path, exercise: Option<&str>, runner: &str, jobs: usize) -> (Value, i32) {
    let mut command = nimlab();
    command
        .arg("check")
        .arg(file)
        .args(["--format", "json", "--runner", runner])
        .args(["--jobs", &jobs.to_string()]);
    if let Some(exercise) = exercise {
        command.args(["--exercise", exercise]);
    }
    let output = command.output().unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: not a JSON report ({e}): {}",
            file.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (report, output.status.code().unwrap())
}

// ---- The fork server under hostile programs, through the runners themselves ---------------

use nimlab_core::runner::interpreter;
use nimlab_core::runner::sandbox::Isolation;
use nimlab_core::runner::{
    ForkRunner, ProcessRunner, RunLimits, RunOutcome, RunSpec, RunWay, Runner, Termination,
};
use std::time::{Duration, Instant};

/// Programs in one folder, run one after another by the same runner (so by one fork server),
/// each in a working folder of its own beside the others', as check runs cases.
struct Bench {
    folder: tempfile::TempDir,
    python: PathBuf,
    runs: std::cell::Cell<usize>,
}

impl Bench {
    fn new(python: &str) -> Bench {
        Bench {
            folder: tempfile::tempdir().unwrap(),
            python: interpreter::resolve(python)
                .path
                .expect("the interpreter is installed"),
            runs: std::cell::Cell::new(0),
        }
    }

    /// A bench whose folders are in `parent` (a runner's root for scratch folders).
    fn in_folder(python: &str, parent: &Path) -> Bench {
        let folder = tempfile::tempdir_in(parent).unwrap();
        // (As check's scratch folders are made in it.)
        nimlab_core::runner::identity::open_to_sandbox_group(folder.path()).unwrap();
        Bench {
            folder,
            ..Bench::new(python)
        }
    }

    fn run(
        &self,
        runner: &dyn Runner,
        name: &str,
        source: &str,
        stdin: &[u8],
        limits: RunLimits,
    ) -> RunOutcome {
        self.run_with(runner, name, source, stdin, limits, &[])
    }

    /// One program run through a fork server and by a fresh interpreter, in that order; the
    /// first must have been forked.
    fn both_ways(
        &self,
        fork: &ForkRunner,
        process: &ProcessRunner,
        name: &str,
        source: &str,
    ) -> (RunOutcome, RunOutcome) {
        let forked = self.run(fork, name, source, b"", limits());
        let fresh = self.run(process, name, source, b"", limits());
        let python = self.python.display();
        assert_eq!(forked.way, RunWay::Fork, "{python} {name}: {forked:?}");
        (forked, fresh)
    }

    /// A run with more variables in its environment.
    fn run_with(
        &self,
        runner: &dyn Runner,
        name: &str,
        source: &str,
        stdin: &[u8],
        limits: RunLimits,
        more_env: &[(&str, &str)],
    ) -> RunOutcome {
        self.run_seeded(runner, name, source, stdin, limits, more_env, None)
    }

    /// A run whose `random` starts from `seed` (as check's runs do), or from the system's
    /// randomness.
    #[allow(clippy::too_many_arguments)]
    fn run_seeded(
        &self,
        runner: &dyn Runner,
        name: &str,
        source: &str,
        stdin: &[u8],
        limits: RunLimits,
        more_env: &[(&str, &str)],
        seed: Option<u64>,
    ) -> RunOutcome {
        let programs = self.folder.path().join("programs");
        std::fs::create_dir_all(&programs).unwrap();
        let program = programs.join(format!("{name}.py"));
        std::fs::write(&program, source).unwrap();
        self.runs.set(self.runs.get() + 1);
        let workdir = self
            .folder
            .path()
            .join("runs")
            .join(format!("case-{}", self.runs.get()));
        std::fs::create_dir_all(&workdir).unwrap();
        let home = workdir.as_os_str().to_owned();
        let spec = RunSpec {
            program: &self.python,
            args: vec![program.clone().into()],
            stdin,
            workdir: &workdir,
            env: vec![
                ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
                ("HOME".into(), home.clone()),
                ("TMPDIR".into(), home),
                ("LANG".into(), "C.UTF-8".into()),
                ("LC_ALL".into(), "C.UTF-8".into()),
                ("PYTHONIOENCODING".into(), "utf-8".into()),
                ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
                ("PYTHONHASHSEED".into(), "0".into()),
            ]
            .into_iter()
            .chain(more_env.iter().map(|(k, v)| (k.into(), v.into())))
            .collect(),
            limits,
            expose: std::slice::from_ref(&programs),
            seed,
            stop: nimlab_core::stop::Stop::never(),
        };
        runner.run(&spec).unwrap()
    }
}

fn limits() -> RunLimits {
    RunLimits {
        cpu: Duration::from_secs(2),
        wall: Duration::from_secs(4),
        memory_bytes: 128 << 20,
        output_bytes: 64 << 10,
    }
}

/// Prints how its standard streams buffer, as Python's objects and as C's FILEs (glibc's
/// begin with their flags; _IO_UNBUFFERED is 2), and on stderr which interpreter forked it
/// (its PID namespace and parent).
const BUFFERING: &str = r#"import ctypes, os, sys
libc = ctypes.CDLL(None)
files = [ctypes.c_void_p.in_dll(libc, n).value for n in ("stdin", "stdout", "stderr")]
flags = [ctypes.c_int.from_address(f).value & 2 for f in files]
kinds = [(type(getattr(s, "buffer", s)).__name__, getattr(s, "line_buffering", None),
          getattr(s, "write_through", None)) for s in (sys.stdin, sys.stdout, sys.stderr)]
sys.stderr.write("%s %d" % (os.readlink("/proc/self/ns/pid"), os.getppid()))
sys.stdout.write("%r\n" % ((flags, kinds),))
"#;

#[test]
fn buffered_and_unbuffered_runs_share_a_server_and_get_the_streams_a_fresh_interpreter_has() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    for python in ["3", "2.7"] {
        let bench = Bench::new(python);
        let fork = ForkRunner::detect();
        let process = ProcessRunner::detect();
        let mut servers = Vec::new();
        let mut seen = Vec::new();
        for unbuffered in [false, true, false, true] {
            let env: &[(&str, &str)] = if unbuffered {
                &[("PYTHONUNBUFFERED", "1")]
            } else {
                &[]
            };
            let run = |runner: &dyn Runner| {
                bench.run_with(runner, "buffering", BUFFERING, b"", limits(), env)
            };
            let (forked, fresh) = (run(&fork), run(&process));
            assert_eq!(forked.way, RunWay::Fork, "{python}: {forked:?}");
            assert_eq!(
                String::from_utf8_lossy(&forked.stdout),
                String::from_utf8_lossy(&fresh.stdout),
                "{python}, unbuffered {unbuffered}: {:?}",
                String::from_utf8_lossy(&forked.stderr)
            );
            servers.push(forked.stderr);
            seen.push(forked.stdout);
        }
        assert!(
            servers.iter().all(|s| s == &servers[0]),
            "{python}: {servers:?}"
        );
        // The two kinds of run do differ: the comparison above could tell them apart.
        assert_ne!(seen[0], seen[1], "{python}");
        assert_eq!((&seen[0], &seen[1]), (&seen[2], &seen[3]), "{python}");
    }
}

/// Tries to open its parent's memory for writing (from a forked run, its server's: what it
/// wrote there every later run would inherit), and prints whether it is dumpable.
const REACHES_FOR_ITS_PARENT: &str = r#"import ctypes, os
try:
    open("/proc/%d/mem" % os.getppid(), "r+b").close()
    print("opened")
except (IOError, OSError):
    print("denied")
print("dumpable %d" % ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))
"#;

#[test]
fn a_forked_program_cannot_write_into_its_server_and_is_as_dumpable_as_a_fresh_one() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    for python in ["3", "2.7"] {
        let bench = Bench::new(python);
        let fork = ForkRunner::detect();
        let forked = bench.run(&fork, "reaches", REACHES_FOR_ITS_PARENT, b"", limits());
        assert_eq!(forked.way, RunWay::Fork, "{python}: {forked:?}");
        let said = String::from_utf8_lossy(&forked.stdout);
        assert_eq!(said, "denied\ndumpable 1\n", "{python}: {forked:?}");
        // A fresh interpreter is dumpable too (its parent, outside a sandbox, is not guarded).
        let fresh = bench.run(
            &ProcessRunner::detect(),
            "reaches",
            REACHES_FOR_ITS_PARENT,
            b"",
            limits(),
        );
        assert!(
            String::from_utf8_lossy(&fresh.stdout).ends_with("dumpable 1\n"),
            "{python}: {fresh:?}"
        );
    }
}

/// Recurses as deep as it may, before and after setting its own limit, and prints how deep
/// it got and the limits it sees.
const RECURSES: &str = r#"import sys
def depth(n=0):
    try:
        return depth(n + 1)
    except RecursionError if sys.version_info[0] >= 3 else RuntimeError:
        return n
print("%d %d" % (sys.getrecursionlimit(), depth()))
sys.setrecursionlimit(300)
print("%d %d" % (sys.getrecursionlimit(), depth()))
"#;

#[test]
fn a_forked_program_recurses_as_deep_as_in_a_fresh_interpreter() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    for python in ["3", "2.7"] {
        let bench = Bench::new(python);
        let (forked, fresh) = bench.both_ways(
            &ForkRunner::detect(),
            &ProcessRunner::detect(),
            "recurses",
            RECURSES,
        );
        let said = String::from_utf8_lossy(&forked.stdout);
        assert_eq!(said, String::from_utf8_lossy(&fresh.stdout), "{python}");
        // The program set 300 and sees 300; the depth it reached is near it.
        let last = said.lines().last().unwrap_or_default().to_owned();
        assert!(last.starts_with("300 2"), "{python}: {said}");
    }
}

/// Programs whose ends depend on threading's shutdown: a thread left to finish, a daemon
/// thread left running, a thread joined already, a pool's worker (joined by a function
/// threading runs before it joins threads), and an exit function that finds the main thread
/// stopped.
const THREADED: &[(&str, &str)] = &[
    (
        "leaves_a_thread_to_finish",
        "import threading, time\ndef late():\n    time.sleep(0.2)\n    print('thread done')\nthreading.Thread(target=late).start()\nprint('main done')\n",
    ),
    (
        "leaves_a_daemon_running",
        "import threading, time\nt = threading.Thread(target=time.sleep, args=(60,))\nt.daemon = True\nt.start()\nprint('main done')\n",
    ),
    (
        "joins_its_thread",
        "import threading\nt = threading.Thread(target=lambda: None)\nt.start()\nt.join()\nprint(threading.active_count())\n",
    ),
    (
        "leaves_a_pool_working",
        "from __future__ import print_function\ntry:\n    from concurrent.futures import ThreadPoolExecutor\nexcept ImportError:\n    print('no pool')\nelse:\n    import time\n    pool = ThreadPoolExecutor(1)\n    pool.submit(lambda: (time.sleep(0.2), print('pooled')))\n    print('submitted')\n",
    ),
    (
        "asks_at_exit_whether_the_main_thread_lives",
        "import atexit, threading\ndef bye():\n    print(threading.current_thread().is_alive())\natexit.register(bye)\nprint('registered')\n",
    ),
];

#[test]
fn a_forked_program_ends_with_its_threads_as_in_a_fresh_interpreter() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    for python in ["3", "2.7"] {
        let bench = Bench::new(python);
        let fork = ForkRunner::detect();
        let process = ProcessRunner::detect();
        for (name, source) in THREADED {
            let (forked, fresh) = bench.both_ways(&fork, &process, name, source);
            assert_eq!(
                (forked.termination, String::from_utf8_lossy(&forked.stdout)),
                (fresh.termination, String::from_utf8_lossy(&fresh.stdout)),
                "{python} {name}: {:?}",
                String::from_utf8_lossy(&forked.stderr)
            );
        }
    }
}

/// Prints what a fresh interpreter gives a program about itself: its arguments, `__file__`,
/// `__main__`'s loader, and its home.
const ITSELF: &str = r#"from __future__ import print_function
import os, sys
base = os.path.basename
loader = globals().get("__loader__")
print([base(a) for a in sys.argv], [base(a) for a in getattr(sys, "orig_argv", [])[1:]])
print(type(loader).__name__, getattr(loader, "name", None), base(getattr(loader, "path", "")))
print(base(__file__), os.environ["HOME"] == os.getcwd(), __name__)
"#;

#[test]
fn forked_programs_of_one_server_each_see_their_own_name_arguments_and_loader() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    for python in ["3", "2.7"] {
        let bench = Bench::new(python);
        let fork = ForkRunner::detect();
        let process = ProcessRunner::detect();
        for name in ["first", "second", "first"] {
            let (forked, fresh) = bench.both_ways(&fork, &process, name, ITSELF);
            let said = String::from_utf8_lossy(&forked.stdout);
            assert_eq!(
                said,
                String::from_utf8_lossy(&fresh.stdout),
                "{python} {name}"
            );
            assert!(
                said.contains(&format!("{name}.py True __main__")),
                "{python}: {said}"
            );
        }
    }
}

/// Draws random numbers every way the lab's programs do.
const DRAWS: &str = r#"import random
print(random.random(), random.randint(1, 10 ** 9), random.choice("abcdefgh"))
print(random.sample(range(100), 3), random.randrange(7), random.gauss(0, 1))
"#;

/// Same file, same grade (issue 24): a run's `random` starts from the seed nimlab gives the
/// run, forked (seeded by the server, or by the finder it forks the child with where the child
/// imports random itself) and fresh (seeded by nimlab's sitecustomize) alike, so the program
/// prints the same numbers either way; another seed, other numbers.
#[test]
fn a_programs_random_draws_the_same_numbers_forked_and_fresh_from_its_seed() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    use nimlab_core::runner::seed::for_case;
    let fork = ForkRunner::detect();
    let process = ProcessRunner::detect();
    let mut draws = Vec::new();
    for python in ["3", "2.7"] {
        let seed = |case: &str| Some(for_case("optimal_move", case, b"{}", python));
        // The second bench's folder has a file named as a module the server preloads: its
        // children import random themselves.
        for shadowed in [false, true] {
            let bench = Bench::new(python);
            if shadowed {
                let programs = bench.folder.path().join("programs");
                std::fs::create_dir_all(&programs).unwrap();
                std::fs::write(programs.join("json.py"), "").unwrap();
            }
            let run = |runner: &dyn Runner, case: &str| {
                let outcome =
                    bench.run_seeded(runner, "draws", DRAWS, b"", limits(), &[], seed(case));
                assert!(outcome.success(), "{python}: {outcome:?}");
                outcome
            };
            let forked = run(&fork, "sample/01");
            assert_eq!(forked.way, RunWay::Fork, "{python}: {forked:?}");
            let said = String::from_utf8_lossy(&forked.stdout).to_string();
            for (how, again) in [
                ("fresh", run(&process, "sample/01")),
                ("forked again", run(&fork, "sample/01")),
            ] {
                assert_eq!(
                    String::from_utf8_lossy(&again.stdout),
                    said,
                    "{python}, shadowed {shadowed}: {how}"
                );
            }
            let other = run(&fork, "sample/02");
            assert_ne!(String::from_utf8_lossy(&other.stdout), said, "{python}");
            assert_eq!(
                other.stdout,
                run(&process, "sample/02").stdout,
                "{python}, shadowed {shadowed}: another seed"
            );
            draws.push(said);
        }
    }
    assert_eq!(
        draws[0], draws[1],
        "the preloaded random and the imported one"
    );
    assert_eq!(
        draws[2], draws[3],
        "the preloaded random and the imported one"
    );
    assert_ne!(draws[0], draws[2], "3 and 2.7 have seeds of their own");
}

/// What a program can see of how its interpreter started.
const SEES_ITS_START: &str = r#"import os, sys
print(sorted(os.environ))
print(sys.path)
print(sorted(sys.modules))
print(sorted(sys.path_importer_cache))
print([type(f).__name__ for f in sys.meta_path])
import random
print([type(f).__name__ for f in sys.meta_path])
"#;

/// The seeding of a fresh interpreter leaves no trace but one: until the program imports
/// random (where no module of the interpreter's start imported it), a finder first in
/// sys.meta_path. Neither its variables, nor its folder in sys.path, nor its module.
#[test]
fn a_fresh_interpreters_seeding_leaves_no_trace_but_a_finder_until_random_is_imported() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    let process = ProcessRunner::detect();
    for python in ["3", "2.7"] {
        let bench = Bench::new(python);
        let run = |seed: Option<u64>| {
            let outcome =
                bench.run_seeded(&process, "sees", SEES_ITS_START, b"", limits(), &[], seed);
            assert!(outcome.success(), "{python}: {outcome:?}");
            String::from_utf8(outcome.stdout).unwrap()
        };
        let (plain, seeded) = (run(None), run(Some(7)));
        let (plain, seeded): (Vec<&str>, Vec<&str>) =
            (plain.lines().collect(), seeded.lines().collect());
        assert_eq!(plain.len(), 6, "{python}: {plain:?}");
        for (at, (a, b)) in plain.iter().zip(&seeded).enumerate() {
            if at == 4 && a != b {
                assert_eq!(
                    b.replacen("['RandomSeeder', ", "[", 1)
                        .replace("['RandomSeeder']", "[]"),
                    *a,
                    "{python}"
                );
                assert!(!plain[3].contains("'random'"), "{python}: {plain:?}");
            } else {
                assert_eq!(a, b, "{python}, line {at}");
            }
        }
    }
}

/// What each hostile program does, and what must come of it.
const HOSTILE: &[(&str, &str)] = &[
    ("crashes", "import sys\nprint('before')\n1 // 0\n"),
    ("exits_early", "import os\nprint('lost')\nos._exit(3)\n"),
    (
        "closes_its_fds",
        "import os\nprint('a')\nos.close(0)\nos.close(1)\nos.close(2)\n",
    ),
    (
        "redirects_its_fds",
        "import os, sys\nfd = os.open(os.devnull, os.O_WRONLY)\nos.dup2(fd, 1)\nos.dup2(fd, 2)\nprint('gone')\nsys.stderr.write('gone too')\n",
    ),
    (
        "kills_its_process_group",
        "import os, sys\nprint('x')\nsys.stdout.flush()\nos.killpg(0, 9)\n",
    ),
    (
        "kills_everything_it_can",
        "import os, sys\nprint('x')\nsys.stdout.flush()\nos.kill(-1, 9)\nprint('still here')\n",
    ),
    (
        "forks_and_leaves_a_child",
        "import os, sys, time\nif os.fork() == 0:\n    time.sleep(30)\n    print('late')\n    sys.exit(0)\nprint('parent done')\n",
    ),
    (
        "fills_memory",
        "blocks = []\nwhile True:\n    blocks.append(bytearray(8 << 20))\n",
    ),
    (
        "floods_output",
        "import sys\nwhile True:\n    sys.stdout.write('x' * 4096)\n",
    ),
    ("runs_forever", "while True:\n    pass\n"),
    ("sleeps", "import time\ntime.sleep(60)\n"),
    (
        "leaves_files_beside_its_folders",
        "import os\nd = os.path.dirname(os.path.abspath(__file__))\nwhile d not in ('/', '/tmp'):\n    d = os.path.dirname(d)\n    try:\n        open(os.path.join(d, 'left-beside'), 'w').write('secret')\n    except Exception:\n        pass\nup = os.path.dirname(os.getcwd())\ntry:\n    open(os.path.join(up, 'left-above'), 'w').write('secret')\n    os.rename(os.path.join(up, 'left-above'), os.path.join(up, 'left-renamed'))\nexcept Exception:\n    pass\nprint('done')\n",
    ),
    (
        "leaves_traces_that_are_not_files",
        "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\nleft = []\nfor d in ('/tmp', os.path.dirname(os.getcwd())):\n    try:\n        os.setxattr(d, 'user.left', b'secret')\n        left.append('xattr')\n        os.utime(d, (123456789, 123456789))\n        os.chmod(d, 0o700)\n        left.append('times and mode')\n    except OSError:\n        pass\nif libc.shmget(0x4e494d, 4096, 0o1600) >= 0:\n    left.append('shm')\nif libc.msgget(0x4e494d, 0o1600) >= 0:\n    left.append('msg')\nif libc.semget(0x4e494d, 1, 0o1600) >= 0:\n    left.append('sem')\nif libc.mq_open(b'/left', 0o102, 0o600, None) >= 0:\n    left.append('mq')\nadd_key = {'x86_64': 248, 'aarch64': 217}.get(os.uname()[4])\nfor ring in (-4, -3, -5) if add_key else ():\n    if libc.syscall(add_key, b'user', b'left%d' % -ring, b'secret', 6, ring) > 0:\n        left.append('key%d' % -ring)\nprint(left)\n",
    ),
    (
        "leaves_files",
        "import os\nopen('left-here', 'w').write('secret')\nopen('/tmp/left-in-tmp', 'w').write('secret')\nos.mkdir('/tmp/a-folder')\nos.chmod('/tmp/a-folder', 0)\nprint(sorted(os.listdir('.')))\n",
    ),
];

/// What a run shows of itself; the same for every run of the same program, however made.
fn shape(outcome: &RunOutcome) -> (Termination, Vec<u8>, String, bool) {
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    // A traceback's last line names the error; the lines above it name the file.
    let mut last = stderr.lines().last().unwrap_or_default().to_string();
    if outcome.termination == Termination::OutputLimit {
        // Stopped mid-write: whether it lived to print a BrokenPipeError is a matter of
        // timing, whichever runner made it.
        last.clear();
    }
    (
        outcome.termination,
        outcome.stdout.clone(),
        last,
        outcome.out_of_memory,
    )
}

/// Sees what a run can see of earlier runs: its folder, /tmp (and every file in it named as
/// the hostile programs name theirs), its input, and what the hostile programs leave outside
/// files: the shared folders' attributes, mode and times, System V IPC objects, a POSIX
/// message queue and keys.
const LOOKS_AROUND: &str = "import os, sys\nprint(sorted(os.listdir('.')))\nprint(sorted(n for n in os.listdir('/tmp') if not n.startswith('nimlab-')))\nprint(sorted(f for _, _, files in os.walk('/tmp') for f in files if f.startswith('left')))\nprint(repr(sys.stdin.read()))\nimport ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nfolders = ('/tmp', os.path.dirname(os.getcwd()))\nprint([libc.listxattr(d.encode(), None, 0) for d in folders])\nprint([(oct(os.stat(d).st_mode & 0o777), 123456789 in (os.stat(d).st_atime, os.stat(d).st_mtime)) for d in folders])\nprint([len(open('/proc/sysvipc/' + k).read().splitlines()) for k in ('shm', 'msg', 'sem')])\nprint(libc.mq_open(b'/left', 0o2) >= 0)\nkeyctl = {'x86_64': 250, 'aarch64': 219}.get(os.uname()[4])\nprint([keyctl and libc.syscall(keyctl, 10, ring, b'user', b'left%d' % -ring, 0) > 0 for ring in (-4, -3, -5)])\n";

/// Leaves what it can outside files, in Python 2 and 3 alike: an attribute, a mode and times
/// on the folders runs share, a System V shared memory segment and a key.
const LEAVES_TRACES: &str = r#"import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
for d in ("/tmp", os.path.dirname(os.getcwd())):
    libc.setxattr(d.encode(), b"user.left", b"secret", 6, 0)
    for change in (lambda: os.utime(d, (123456789, 123456789)), lambda: os.chmod(d, 0o700)):
        try:
            change()
        except OSError:
            pass  # (refused by the system call filter, as it should be)
libc.shmget(0x4e494d, 4096, 0o1600)
libc.syscall(248, b"user", b"left", b"secret", 6, -4)
print("left")
"#;

/// What of LEAVES_TRACES a run can see.
const LOOKS_FOR_TRACES: &str = r#"import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
names = ctypes.create_string_buffer(4096)
folders = ("/tmp", os.path.dirname(os.getcwd()))
print([libc.listxattr(d.encode(), names, 4096) for d in folders])
print([(os.stat(d).st_mode & 0o777, 123456789 in (os.stat(d).st_atime, os.stat(d).st_mtime)) for d in folders])
print(len(open("/proc/sysvipc/shm").read().splitlines()))
print(libc.syscall(250, 10, -4, b"user", b"left", 0) > 0)
"#;

#[test]
fn a_forked_run_finds_nothing_an_earlier_one_left_outside_files() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    if std::env::consts::ARCH != "x86_64" {
        return; // (the programs call keyctl by its x86_64 number)
    }
    for python in ["3", "2.7"] {
        let bench = Bench::new(python);
        let fork = ForkRunner::detect();
        let left = bench.run(&fork, "leaves", LEAVES_TRACES, b"", limits());
        assert_eq!(left.stdout, b"left\n", "{python}: {left:?}");
        let forked = bench.run(&fork, "looks", LOOKS_FOR_TRACES, b"", limits());
        assert_eq!(forked.way, RunWay::Fork, "{python}: {forked:?}");
        let fresh = bench.run(
            &ProcessRunner::detect(),
            "looks",
            LOOKS_FOR_TRACES,
            b"",
            limits(),
        );
        assert_eq!(
            String::from_utf8_lossy(&forked.stdout),
            String::from_utf8_lossy(&fresh.stdout),
            "{python}: {:?}",
            String::from_utf8_lossy(&forked.stderr)
        );
    }
}

/// The last argument the fork server serving `bench` was started with: "send" (the server
/// compiles its own code and sends it to nimlab), or the file of code it was given. Read from
/// this side: a run cannot see its server (it is hidden from runs in /proc).
/// The server's `CODE` argument (`forkserver.py MODE MOUNT CODE KIND ROOT`).
fn server_given(bench: &Bench) -> Option<String> {
    let (_, args) = server_of(bench)?;
    let script = args.iter().position(|a| a.ends_with("forkserver.py"))?;
    args.get(script + 3).cloned()
}

fn server_pid(bench: &Bench) -> Option<libc::pid_t> {
    server_of(bench).map(|(pid, _)| pid)
}

/// The fork server serving `bench`, from this side's /proc: its pid and arguments.
fn server_of(bench: &Bench) -> Option<(libc::pid_t, Vec<String>)> {
    let runs = bench.folder.path().join("runs");
    for entry in std::fs::read_dir("/proc").ok()?.filter_map(Result::ok) {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let args: Vec<String> = cmdline
            .split(|&b| b == 0)
            .filter(|a| !a.is_empty())
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        let server = args.iter().any(|a| a.ends_with("forkserver.py"));
        if server && args.iter().any(|a| Path::new(a) == runs) && !args[0].contains("bwrap") {
            return Some((pid, args));
        }
    }
    None
}

#[test]
fn later_servers_of_an_interpreter_load_the_code_the_first_one_compiled() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    for python in ["3", "2.7"] {
        let fork = ForkRunner::detect();
        let given = |bench: &Bench| {
            let run = bench.run(&fork, "given", "print(1)\n", b"", limits());
            assert_eq!(run.way, RunWay::Fork, "{python}: {run:?}");
            server_given(bench).expect("the server is found")
        };
        // Each bench is a submission of its own: a server of its own.
        assert_eq!(given(&Bench::new(python)), "send", "{python}");
        let file = given(&Bench::new(python));
        assert!(file.ends_with(".code"), "{python}: {file}");
        let code = std::fs::read(&file).unwrap();
        let tag_end = code.iter().position(|&b| b == 0).unwrap();
        let tag = String::from_utf8_lossy(&code[..tag_end]).into_owned();
        let version = if python == "3" { "3." } else { "2.7." };
        assert!(tag.starts_with(version), "{python}: {tag}");
        // A file that is not this interpreter's code, or is damaged, is not used: the server
        // compiles its own and serves all the same.
        let other = [b"2.6.9 20609f0".as_slice(), &code[tag_end..]].concat();
        let damaged = [&code[..=tag_end], b"not marshalled code".as_slice()].concat();
        for bad in [other, damaged] {
            std::fs::write(&file, &bad).unwrap();
            assert_eq!(given(&Bench::new(python)), file, "{python}");
        }
    }
}

/// The pids of the zygotes (warm interpreters serving every submission) of `root`.
fn zygotes_of(root: &Path) -> Vec<libc::pid_t> {
    use std::os::unix::ffi::OsStrExt as _;
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let args: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
        let zygote = args.iter().any(|a| *a == b"zygote");
        let rooted = args
            .iter()
            .any(|a| Path::new(std::ffi::OsStr::from_bytes(a)) == root);
        // (The servers it forks have its command line; it is its PID namespace's init.)
        let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let init = status
            .lines()
            .find_map(|line| line.strip_prefix("NSpid:"))
            .is_some_and(|ids| ids.split_whitespace().last() == Some("1"));
        if zygote && rooted && init && !args[0].ends_with(b"bwrap") {
            pids.push(pid);
        }
    }
    pids
}

/// One interpreter started for several submissions one after another (each served by a server
/// the zygote forks for it, and each run still forked), and started again when it dies.
#[test]
fn a_zygote_serves_submission_after_submission_and_is_started_again_when_it_dies() {
    let fork = ForkRunner::detect();
    let Some(root) = fork.workspace_root().map(Path::to_path_buf) else {
        eprintln!("no sandbox here: no zygote to test");
        return;
    };
    let python = if crate::common::python_2_7_available() {
        "2.7"
    } else {
        "3"
    };
    let printed = |bench: &Bench, text: &str| {
        let run = bench.run(&fork, "hello", &format!("print({text:?})\n"), b"", limits());
        assert_eq!(run.way, RunWay::Fork, "{run:?}");
        assert_eq!(String::from_utf8_lossy(&run.stdout), format!("{text}\n"));
    };
    let (ann, bob) = (
        Bench::in_folder(python, &root),
        Bench::in_folder(python, &root),
    );
    printed(&ann, "ann");
    let first = zygotes_of(&root);
    assert_eq!(first.len(), 1, "{first:?}");
    printed(&bob, "bob");
    printed(&ann, "ann again");
    assert_eq!(zygotes_of(&root), first, "one interpreter served both");
    // The root and the submissions' folders in it stay closed to other users.
    use std::os::unix::fs::PermissionsExt;
    for folder in [root.as_path(), ann.folder.path(), bob.folder.path()] {
        let mode = std::fs::metadata(folder).unwrap().permissions().mode();
        assert_eq!(mode & 0o007, 0, "{} is {mode:o}", folder.display());
    }
    // SAFETY: signals a process of this test's own runner.
    unsafe { libc::kill(first[0], libc::SIGKILL) };
    while zygotes_of(&root) == first {
        std::thread::sleep(Duration::from_millis(20));
    }
    let cyd = Bench::in_folder(python, &root);
    printed(&cyd, "cyd");
    let second = zygotes_of(&root);
    assert_eq!(second.len(), 1, "{second:?}");
    assert_ne!(second, first);
}

/// Lists the program's descriptors (3 is the listing's own).
const DESCRIPTORS: &str =
    "import os\nprint(sorted(int(fd) for fd in os.listdir('/proc/self/fd')))\n";

#[test]
fn the_kernels_cpu_limit_waits_for_nimlabs_watch() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    // The kernel charges CPU time by clock ticks: on a loaded machine a busy program was seen
    // charged 3 s for 1.8 s of running, and killed by a kernel limit set at its CPU limit
    // (2 s, plus one) before nimlab's exact count reached it: judged a crash. The kernel's limit
    // is a backstop at the wall-clock limit or after, where nimlab has already stopped it.
    let program = "import resource\nprint(resource.getrlimit(resource.RLIMIT_CPU)[0])\n";
    for python in ["3", "2.7"] {
        let bench = Bench::new(python);
        let fork = ForkRunner::detect();
        let process = ProcessRunner::detect();
        for runner in [&fork as &dyn Runner, &process] {
            let run = bench.run(runner, "cpu_limit", program, b"", limits());
            let soft: u64 = String::from_utf8_lossy(&run.stdout).trim().parse().unwrap();
            assert!(
                soft >= limits().wall.as_secs() && soft > limits().cpu.as_secs(),
                "{python} {:?}: the kernel's limit is {soft} s",
                run.way
            );
        }
    }
}

#[test]
fn a_forked_program_has_only_its_standard_descriptors() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    // (Python 2's children close what they inherit with close_range(2) through ctypes.)
    for python in ["3", "2.7"] {
        let bench = Bench::new(python);
        let fork = ForkRunner::detect();
        for round in 0..2 {
            let run = bench.run(&fork, "descriptors", DESCRIPTORS, b"", limits());
            assert_eq!(run.way, RunWay::Fork, "{python} {round}: {run:?}");
            assert_eq!(
                String::from_utf8_lossy(&run.stdout),
                "[0, 1, 2, 3]\n",
                "{python} {round}: {:?}",
                String::from_utf8_lossy(&run.stderr)
            );
        }
    }
}

#[test]
fn the_fork_server_survives_hostile_programs_and_keeps_runs_apart() {
    let bench = Bench::new("3");
    let fork = ForkRunner::detect();
    let process = ProcessRunner::detect();
    for (name, source) in HOSTILE {
        let mut l = limits();
        if *name == "sleeps" {
            l.wall = Duration::from_millis(500);
        }
        // Its CPU limit, not a loaded machine's clock, must end it on both sides (with 4 s
        // of wall time, a fresh run given under half a core met the wall limit first).
        if *name == "runs_forever" {
            l.wall = Duration::from_secs(20);
        }
        let started = Instant::now();
        let forked = bench.run(&fork, name, source, b"", l);
        let took = started.elapsed();
        assert_eq!(forked.way, RunWay::Fork, "{name}: {forked:?}");
        let fresh = bench.run(&process, name, source, b"", l);
        // (A program may send no signal, not even to itself: where a fresh interpreter, its
        // sandbox's init, would ignore one it sends itself, a forked one is refused alike.)
        assert_eq!(shape(&forked), shape(&fresh), "{name}");
        // Whatever it did, the next run is forked by the same server and sees nothing of it.
        let after = bench.run(&fork, "looks_around", LOOKS_AROUND, b"its own input\n", l);
        let fresh_after = bench.run(
            &process,
            "looks_around",
            LOOKS_AROUND,
            b"its own input\n",
            l,
        );
        assert_eq!(after.way, RunWay::Fork, "after {name}: {after:?}");
        assert_eq!(
            String::from_utf8_lossy(&after.stdout),
            String::from_utf8_lossy(&fresh_after.stdout),
            "after {name}"
        );
        assert_eq!(after.termination, Termination::Exited(0), "after {name}");
        if *name == "forks_and_leaves_a_child" {
            assert!(took < Duration::from_secs(2), "{name} took {took:?}");
        }
    }
    // Nothing of the server's or of earlier runs stays open in a run (a process started by
    // the test harness inherits whatever descriptors the harness leaves open, so this one is
    // not compared with the process path).
    let descriptors = bench.run(&fork, "descriptors", DESCRIPTORS, b"", limits());
    assert_eq!(descriptors.stdout, b"[0, 1, 2, 3]\n");
    let fills_memory = HOSTILE
        .iter()
        .find(|(name, _)| *name == "fills_memory")
        .unwrap()
        .1;
    let memory = bench.run(&fork, "fills_memory", fills_memory, b"", limits());
    assert!(
        memory.out_of_memory || String::from_utf8_lossy(&memory.stderr).contains("MemoryError"),
        "{memory:?}"
    );
}

#[test]
fn a_forked_run_is_bounded_by_the_runs_memory_limit() {
    let bench = Bench::new("3");
    let fork = ForkRunner::detect();
    let mut l = limits();
    l.memory_bytes = 64 << 20;
    let grab = "data = bytearray(100 << 20)\nprint('got it')\n";
    let outcome = bench.run(&fork, "grab", grab, b"", l);
    assert_eq!(outcome.way, RunWay::Fork);
    assert!(outcome.stdout.is_empty(), "{outcome:?}");
    assert!(!outcome.success(), "{outcome:?}");
    // A smaller grab fits, in the same server.
    let fits = bench.run(
        &fork,
        "fits",
        "data = bytearray(16 << 20)\nprint('ok')\n",
        b"",
        l,
    );
    assert_eq!(fits.stdout, b"ok\n", "{fits:?}");
    assert_eq!(fits.way, RunWay::Fork);
}

#[test]
fn without_a_sandbox_a_killed_server_hands_the_rest_to_the_process_path() {
    let bench = Bench::new("3");
    let fork = ForkRunner::new(Isolation::LimitsOnly {
        reason: "test".into(),
    });
    let hello = "print('hello')\n";
    assert_eq!(
        bench.run(&fork, "hello", hello, b"", limits()).way,
        RunWay::Fork
    );
    // A program cannot kill its server (it may send no signal): nimlab's test does.
    let server = server_pid(&bench).expect("the server is found");
    // SAFETY: a plain kill(2) of the fork server this test's runner started.
    assert_eq!(unsafe { libc::kill(server, libc::SIGKILL) }, 0);
    // The next run cannot be forked: it is made as a process, and says why.
    let later = bench.run(&fork, "hello", hello, b"", limits());
    assert_eq!(later.stdout, b"hello\n");
    assert!(
        matches!(&later.way, RunWay::Fallback(why) if why.contains("fork server")),
        "{:?}",
        later.way
    );
}

// ---- The paired measurement -------------------------------------------------------------

#[test]
fn bench_pairs_the_fast_path_with_the_process_path() {
    let output = nimlab()
        .args(["bench", "--exercise", "exclusive_or", "--repeat", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    let process = number_after(&text, "one case,");
    let fork = number_after(&text, "ms, fork");
    // Both runners ran every case; the numbers are the machine's, only their sense is checked.
    assert!(process > 0.0 && fork > 0.0, "{text}");
    assert!(text.contains("runs each"), "{text}");
    let hand = number_after(&text, "by hand, one start per case:");
    let whole_process = number_after(&text, "--jobs 1 --runner process:");
    let whole_fork = number_after(&text, "--jobs 1 --runner fork:");
    assert!(
        hand > 0.0 && whole_process > 0.0 && whole_fork > 0.0,
        "{text}"
    );
    assert!(
        number_after(&text, "the fork server's start") > 0.0,
        "{text}"
    );
    assert!(number_after(&text, "a later fork server") > 0.0, "{text}");
}

// ---- Through the binary: which runner judged, and a server that dies ---------------------

/// The runner named by each run of a report.
fn runners(report: &Value) -> Vec<String> {
    report["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|run| run["runner"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn check_grade_and_the_game_judge_say_which_runner_judged() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    // The game judge: every game a forked child talking through pipes.
    let game = root().join("exercises/working_game/solution.py");
    for (runner, expected) in [("fork", "fork"), ("process", "process")] {
        let (report, code) = check(&game, None, runner, 1);
        assert_eq!(code, 0, "{report}");
        assert_eq!(report["verdict"], "accepted", "{report}");
        let named = runners(&report);
        assert!(
            !named.is_empty() && named.iter().all(|r| r == expected),
            "{report}"
        );
    }
    // grade: each submission's runs, under each interpreter, forked from its own server.
    let scratch = tempfile::tempdir().unwrap();
    let class = scratch.path().join("class");
    for (student, exercise) in [("ada", "present_board"), ("bob", "exclusive_or")] {
        let folder = class.join(student);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::copy(
            root().join(format!("exercises/{exercise}/solution.py")),
            folder.join(format!("{exercise}.py")),
        )
        .unwrap();
    }
    for runner in ["fork", "process"] {
        let out = scratch.path().join(format!("out-{runner}"));
        let output = nimlab()
            .arg("grade")
            .arg(&class)
            .arg("--out")
            .arg(&out)
            .args(["--python", "3,2.7", "--runner", runner])
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let results: Value =
            serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
        let mut graded = 0;
        for student in results["students"].as_array().unwrap() {
            for (exercise, entry) in student["exercises"].as_object().unwrap() {
                if entry["report"].is_null() {
                    continue;
                }
                graded += 1;
                assert_eq!(
                    runners(&entry["report"]),
                    [runner, runner],
                    "{exercise}: {entry}"
                );
                assert_eq!(
                    entry["report"]["verdict"], "accepted",
                    "{exercise}: {entry}"
                );
            }
        }
        assert_eq!(graded, 2, "{results}");
    }
}

/// Runs `nimlab check` with `args` without a sandbox, and kills the fork server whose pid the
/// program under check writes to `ready` (it then waits to be killed with its server), as a
/// server that dies mid-check would be.
fn check_killing_the_server(args: &[&std::ffi::OsStr], ready: &Path) -> std::process::Output {
    let _ = std::fs::remove_file(ready);
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .env("NIMLAB_ISOLATION", "none")
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let server = loop {
        let written = std::fs::read_to_string(ready).unwrap_or_default();
        if let Ok(pid) = written.trim().parse::<libc::pid_t>() {
            break pid;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the program never got ready"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    // SAFETY: a plain kill(2) of the fork server nimlab started for this check.
    assert_eq!(unsafe { libc::kill(server, libc::SIGKILL) }, 0);
    child.wait_with_output().unwrap()
}

#[test]
fn a_server_killed_mid_check_hands_the_rest_to_the_process_path_and_the_report_says_so() {
    // Without a sandbox, a program under Python 3 has its fork server killed on the one case
    // whose input has no final newline (it may send no signal itself: it says its server's
    // pid, and the test kills it). That case is run again as a process, and so are the rest.
    let scratch = tempfile::tempdir().unwrap();
    // (Without a sandbox the program writes here itself: as root, nimlab runs it as another
    // user.)
    let open = <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o777);
    std::fs::set_permissions(scratch.path(), open).unwrap();
    let ready = scratch.path().join("ready");
    let solution =
        std::fs::read_to_string(root().join("exercises/present_board/solution.py")).unwrap();
    let future = "from __future__ import print_function, division\n";
    assert!(solution.contains(future));
    let killer = format!(
        "import os, sys, time\n\
        if sys.version_info[0] == 3:\n\
        \x20   import io\n\
        \x20   data = sys.stdin.read()\n\
        \x20   parent = open('/proc/%d/cmdline' % os.getppid(), 'rb').read()\n\
        \x20   if b'forkserver' in parent and not data.endswith('\\n'):\n\
        \x20       open({ready:?}, 'w').write(str(os.getppid()))\n\
        \x20       time.sleep(1.5)\n\
        \x20   sys.stdin = io.StringIO(data)\n",
        ready = ready.display().to_string()
    );
    let file = scratch.path().join("present_board.py");
    std::fs::write(
        &file,
        format!("{future}{killer}{}", solution.replace(future, "")),
    )
    .unwrap();
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    let mut args = vec![os("check"), file.as_os_str()];
    args.extend(
        [
            "--format",
            "json",
            "--runner",
            "fork",
            "--jobs",
            "1",
            "--instructor",
        ]
        .map(os),
    );
    let output = check_killing_the_server(&args, &ready);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["verdict"], "accepted", "{report}");
    let runs = report["runs"].as_array().unwrap();
    // Python 3: forks until the server died, processes from then on.
    assert_eq!(runs[0]["interpreter"], "3", "{report}");
    assert_eq!(runs[0]["runner"], "fork and process", "{report}");
    let note = runs[0]["runner_note"].as_str().unwrap();
    assert!(
        note.contains("of 18 runs were processes") && note.contains("fork server"),
        "{note}"
    );
    // Python 2.7 has a server of its own, which nothing killed.
    if crate::common::python_2_7_available() {
        assert_eq!(runs[1]["runner"], "fork", "{report}");
        assert!(runs[1].get("runner_note").is_none(), "{report}");
    }
    // The instructor's text report says so too.
    let mut args = vec![os("check"), file.as_os_str()];
    args.extend(["--runner", "fork", "--jobs", "1", "--instructor"].map(os));
    let output = check_killing_the_server(&args, &ready);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("runs were processes of their own, not forks: the fork server"),
        "{text}"
    );
}

#[test]
fn a_fork_servers_traceback_reaches_the_instructors_report_but_never_a_students() {
    // A fork server interrupted mid-check (it has Python's handler for SIGINT) dies printing a
    // traceback through nimlab's files.
    let _interrupts = crate::common::InterruptsForkServers::start();
    let lab = crate::common::cpu_speller_lab();
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("present_board.py");
    std::fs::write(&file, crate::common::server_killer()).unwrap();
    let check = |extra: &[&str]| {
        let output = nimlab()
            .arg("--lab")
            .arg(lab.path())
            .arg("check")
            .arg(&file)
            .args(["--runner", "fork", "--jobs", "1"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let full: Value = serde_json::from_str(&check(&["--format", "json", "--instructor"])).unwrap();
    let note = full["runs"][0]["runner_note"].as_str().unwrap();
    assert!(
        note.contains("Traceback") && note.contains("/tmp/nimlab-") && note.contains("forkserver"),
        "{note}"
    );
    assert!(check(&["--instructor"]).contains(note.lines().next().unwrap()));
    for extra in [&["--format", "json"][..], &[]] {
        let seen = check(extra);
        for detail in ["Traceback", "nimlab-", "forkserver", "KeyboardInterrupt"] {
            assert!(!seen.contains(detail), "{extra:?}: {detail}:\n{seen}");
        }
        assert!(
            seen.contains("nimlab's runner failed on some cases")
                && seen.contains("not your fault"),
            "{extra:?}:\n{seen}"
        );
    }
}

#[test]
fn every_forked_run_draws_its_own_random_numbers() {
    if !crate::common::needs_python_2_7() {
        return;
    }
    for python in ["3", "2.7"] {
        let bench = Bench::new(python);
        let fork = ForkRunner::detect();
        let draws: Vec<Vec<u8>> = (0..6)
            .map(|_| {
                let source = "import random\nprint(random.random())\n";
                let outcome = bench.run(&fork, "draws", source, b"", limits());
                assert_eq!(outcome.way, RunWay::Fork, "{python}: {outcome:?}");
                outcome.stdout
            })
            .collect();
        let distinct: std::collections::HashSet<&Vec<u8>> = draws.iter().collect();
        assert_eq!(distinct.len(), draws.len(), "{python}: {draws:?}");
    }
}

#[test]
fn a_class_graded_without_a_sandbox_is_still_forked_and_a_program_finds_its_folder_by_path() {
    // `grade` makes its scratch folders its owner's alone; as root without a sandbox, runs
    // then reach only what they are shown. Their working folder must be among it: by its path
    // (the fork server makes each case's folder in it by path), not only as where they start.
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    std::fs::create_dir_all(class.join("ana")).unwrap();
    let solution = std::fs::read_to_string(root().join("exercises/nim_sum/solution.py")).unwrap();
    // The program writes a file in its folder by the folder's full path and reads it back.
    let by_path = solution.replace(
        "    case = json.loads(sys.stdin.read())",
        "    import os\n    here = os.path.join(os.getcwd(), 'note.txt')\n    open(here, 'w').write('x')\n    assert open(here).read() == 'x'\n    case = json.loads(sys.stdin.read())",
    );
    assert_ne!(by_path, solution);
    std::fs::write(class.join("ana/nim_sum.py"), &by_path).unwrap();
    let out = dir.path().join("out");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .env("NIMLAB_ISOLATION", "none")
        .arg("grade")
        .arg(&class)
        .arg("--out")
        .arg(&out)
        .args(["--python", "3", "--jobs", "1"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let results: Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
    let report = &results["students"][0]["exercises"]["nim_sum"]["report"];
    assert_eq!(report["verdict"], "accepted", "{report:#}");
    for run in report["runs"].as_array().unwrap() {
        assert_eq!(run["runner"], "fork", "{:#}", run["runner_note"]);
    }
}
