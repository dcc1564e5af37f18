//! Hostile submissions: each is contained. It gets the right verdict, a report is still
//! produced, no process is left, no file is written outside its scratch folder, no connection
//! is made, and the other cases are judged as usual.
//!
//! These tests need the sandbox (bubblewrap, installed by .ci/run): without it nimlab runs
//! programs with limits only, and says so.

use crate::common::{check_json, lab_with, nimlab, processes_mentioning};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The exclusive_or exercise with its 4 sample cases only and short limits.
fn quick_lab() -> tempfile::TempDir {
    let lab = lab_with(&["exclusive_or"], |config| {
        let mut limits = toml::Table::new();
        limits.insert("cpu_ms".into(), 1000.into());
        limits.insert("wall_ms".into(), 2000.into());
        limits.insert("memory_mb".into(), 256.into());
        limits.insert("output_kb".into(), 64.into());
        config.insert("limits".into(), limits.into());
        config.remove("forbidden");
    });
    std::fs::remove_dir_all(lab.path().join("fixtures/exclusive_or/secret")).unwrap();
    lab
}

/// The answer every hostile program also prints, so its other behaviour is what is judged.
const ANSWER: &str = "
import sys
a, b = [int(w) for w in sys.stdin.read().split()]
print(1 if a != b else 0)
";

struct Hostile {
    dir: tempfile::TempDir,
    file: PathBuf,
    marker: String,
}

/// Writes `program` as `<marker>_exclusive_or.py` in a fresh folder.
fn hostile(name: &str, program: &str) -> Hostile {
    let dir = tempfile::tempdir().unwrap();
    let marker = format!("hostile_{name}_{}", std::process::id());
    let file = dir.path().join(format!("{marker}_exclusive_or.py"));
    std::fs::write(&file, program).unwrap();
    Hostile { dir, file, marker }
}

fn run(h: &Hostile, lab: &Path) -> Value {
    let started = std::time::Instant::now();
    let (report, code) = check_json(&[
        h.file.to_str().unwrap(),
        "--python",
        "3",
        "--jobs",
        "2",
        "--lab",
        lab.to_str().unwrap(),
    ]);
    assert!(
        code == 0 || code == 1,
        "{}: exit {code}: {report:#}",
        h.marker
    );
    assert!(
        started.elapsed().as_secs() < 30,
        "{}: nimlab took {:?}",
        h.marker,
        started.elapsed()
    );
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(
        processes_mentioning(&h.marker),
        0,
        "{}: a process outlived the check",
        h.marker
    );
    // Every case is judged: the report is whole.
    assert_eq!(
        report["runs"][0]["cases"].as_array().unwrap().len(),
        4,
        "{}",
        h.marker
    );
    report
}

fn verdicts(report: &Value) -> Vec<String> {
    report["runs"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap().to_string())
        .collect()
}

fn got(report: &Value) -> String {
    report["runs"][0]["cases"][0]["feedback"]["got"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_sandbox_is_active_for_these_tests() {
    let output = nimlab().arg("doctor").output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("isolated with bubblewrap") && !text.contains("[ ]"),
        "the hostile corpus needs every protection (install bubblewrap; run as a user that may make pids cgroups):\n{text}"
    );
}

#[test]
fn a_fork_bomb_is_contained() {
    let lab = quick_lab();
    let h = hostile(
        "forkbomb",
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
    );
    let report = run(&h, lab.path());
    assert!(
        verdicts(&report)
            .iter()
            .all(|v| v == "time_limit" || v == "runtime_error"),
        "{:?}",
        verdicts(&report)
    );
    // The time reported is the whole tree's, not just the first process's.
    for case in report["runs"][0]["cases"].as_array().unwrap() {
        assert!(
            case["time_ms"].as_u64().unwrap() >= 1000 || case["wall_ms"].as_u64().unwrap() >= 2000,
            "{case:#}"
        );
    }
    // The machine still works: a good program is accepted right after.
    let good = hostile("afterbomb", ANSWER);
    assert_eq!(run(&good, lab.path())["verdict"], "accepted");
}

#[test]
fn floods_of_stdout_and_stderr_are_bounded() {
    let lab = quick_lab();
    let out = hostile(
        "stdoutflood",
        "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n",
    );
    assert!(
        verdicts(&run(&out, lab.path()))
            .iter()
            .all(|v| v == "output_limit")
    );
    let err = hostile(
        "stderrflood",
        &format!("{ANSWER}\nwhile True:\n    sys.stderr.write('y' * 65536)\n"),
    );
    let report = run(&err, lab.path());
    assert!(
        verdicts(&report).iter().all(|v| v == "time_limit"),
        "{:?}",
        verdicts(&report)
    );
}

#[test]
fn a_detached_grandchild_does_not_outlive_the_run() {
    let lab = quick_lab();
    let h = hostile(
        "grandchild",
        &format!(
            "import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        time.sleep(60)\n    os._exit(0)\n{ANSWER}"
        ),
    );
    let report = run(&h, lab.path());
    assert_eq!(report["verdict"], "accepted", "{report:#}");
}

#[test]
fn the_disk_holds_no_expected_outputs_or_home_files_for_a_program() {
    let lab = quick_lab();
    let h = hostile(
        "diskwalker",
        "import os\nfound = []\nfor top, dirs, files in os.walk('/'):\n    if top.startswith('/proc') or top.startswith('/sys'):\n        dirs[:] = []\n        continue\n    for f in files:\n        if f.endswith('.out') or f.endswith('.toml') or 'fixtures' in top or top.startswith('/root') or top.startswith('/home'):\n            found.append(os.path.join(top, f))\nprint(found[:20])\n",
    );
    let report = run(&h, lab.path());
    let seen = got(&report);
    // Nothing of the lab, the fixtures or anyone's home: only the interpreter's own files.
    assert!(
        !seen.contains("fixtures") && !seen.contains(".out'") && !seen.contains("/home"),
        "{seen}"
    );
    assert!(!seen.contains(lab.path().to_str().unwrap()), "{seen}");
    assert!(
        seen.split(", ")
            .all(|p| !p.contains("/root") || p.contains("/.pyenv/versions/")),
        "{seen}"
    );
}

#[test]
fn no_connection_reaches_a_server_on_loopback() {
    let lab = quick_lab();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let h = hostile(
        "connect",
        &format!(
            "import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), timeout=1)\n    print('connected')\nexcept OSError as e:\n    print('refused', e.errno)\n"
        ),
    );
    let report = run(&h, lab.path());
    assert!(got(&report).starts_with("refused"), "{}", got(&report));
    assert!(
        listener.accept().is_err(),
        "a connection reached the server"
    );
}

#[test]
fn killing_its_parent_and_group_harms_only_itself() {
    let lab = quick_lab();
    let h = hostile(
        "killer",
        "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nos.killpg(0, signal.SIGKILL)\n",
    );
    let report = run(&h, lab.path());
    // nimlab lived to report it. In the sandbox the parent is out of reach and the program,
    // as its namespace's init, outlives its own signals; it printed nothing.
    assert!(
        verdicts(&report).iter().all(|v| v == "wrong_answer"),
        "{:?}",
        verdicts(&report)
    );
}

#[test]
fn writes_outside_the_scratch_folder_go_nowhere() {
    let lab = quick_lab();
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let marker = format!("nimlab-pwned-{}", std::process::id());
    let h = hostile(
        "writer",
        &format!(
            "import os\nresults = []\nfor path in [{home:?} + '/{marker}', os.path.join(os.path.dirname(os.path.abspath(__file__)), '{marker}'), '/tmp/{marker}', '{marker}']:\n    try:\n        open(path, 'w').write('x')\n        results.append('wrote')\n    except (IOError, OSError):\n        results.append('refused')\nprint(results)\n"
        ),
    );
    let report = run(&h, lab.path());
    // Its own working folder and /tmp are writable (and vanish); the rest is read-only.
    assert_eq!(
        got(&report).trim(),
        "['refused', 'refused', 'wrote', 'wrote']",
        "{report:#}"
    );
    for path in [
        format!("{home}/{marker}"),
        format!("/tmp/{marker}"),
        h.dir.path().join(&marker).display().to_string(),
    ] {
        assert!(!Path::new(&path).exists(), "{path} was written");
    }
}

#[test]
fn a_program_that_sleeps_is_stopped_by_the_wall_clock() {
    let lab = quick_lab();
    let h = hostile("sleeper", "import time\ntime.sleep(600)\n");
    let report = run(&h, lab.path());
    assert!(
        verdicts(&report).iter().all(|v| v == "time_limit"),
        "{:?}",
        verdicts(&report)
    );
}

#[test]
fn there_is_no_terminal_to_open() {
    let lab = quick_lab();
    let h = hostile(
        "tty",
        "try:\n    open('/dev/tty', 'w').write('hello')\n    print('opened')\nexcept (IOError, OSError) as e:\n    print('no tty')\n",
    );
    let report = run(&h, lab.path());
    assert_eq!(got(&report).trim(), "no tty", "{report:#}");
}

#[test]
fn a_memory_hog_is_reported_as_such() {
    let lab = quick_lab();
    let h = hostile(
        "hog",
        "table = []\nwhile True:\n    table.append(' ' * 10000000)\n",
    );
    let report = run(&h, lab.path());
    assert!(
        verdicts(&report).iter().all(|v| v == "memory_limit"),
        "{:?}",
        verdicts(&report)
    );
}
