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
    crate::common::short_lab(1000, 2000, 256)
}

/// The answer every hostile program also prints, so its other behaviour is what is judged.
const ANSWER: &str = "
import sys
a, b = [int(w) for w in sys.stdin.read().split()]
print(1 if a != b else 0)
";

/// The hostile corpus: every program the tests below attack with, by name, also run under
/// both runners by the differential test (fresh_runs.rs). `@PORT@`, `@HOME@` (a Python
/// string) and `@MARKER@` stand for values a test fills in.
pub(crate) fn corpus() -> Vec<(&'static str, String)> {
    vec![
        ("forkbomb", "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n".to_string()),
        ("stdoutflood", "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n".to_string()),
        ("stderrflood", format!("{ANSWER}\nwhile True:\n    sys.stderr.write('y' * 65536)\n")),
        ("grandchild", format!("import os, sys, time\ntry:\n    if os.fork() == 0:\n        os.setsid()\n        if os.fork() == 0:\n            time.sleep(60)\n        os._exit(0)\nexcept OSError as e:\n    sys.stderr.write('refused: %s' % e)\n{ANSWER}")),
        ("unhandled_fork", format!("import os\nos.fork()\n{ANSWER}")),
        ("diskwalker", "import os\nfound = []\nfor top, dirs, files in os.walk('/'):\n    if top.startswith('/proc') or top.startswith('/sys'):\n        dirs[:] = []\n        continue\n    for f in files:\n        if f.endswith('.out') or f.endswith('.toml') or 'fixtures' in top or top.startswith('/root') or top.startswith('/home'):\n            found.append(os.path.join(top, f))\nprint(found[:20])\n".to_string()),
        ("connect", "import socket\ntry:\n    socket.create_connection(('127.0.0.1', @PORT@), timeout=1)\n    print('connected')\nexcept OSError as e:\n    print('refused', e.errno)\n".to_string()),
        ("killer", "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nos.killpg(0, signal.SIGKILL)\n".to_string()),
        ("writer", "import os\nresults = []\nfor path in [@HOME@ + '/@MARKER@', os.path.join(os.path.dirname(os.path.abspath(__file__)), '@MARKER@'), '/tmp/@MARKER@', '@MARKER@']:\n    try:\n        open(path, 'w').write('x')\n        results.append('wrote')\n    except (IOError, OSError):\n        results.append('refused')\nprint(results)\n".to_string()),
        ("sleeper", "import time\ntime.sleep(600)\n".to_string()),
        ("tty", "try:\n    open('/dev/tty', 'w').write('hello')\n    print('opened')\nexcept (IOError, OSError) as e:\n    print('no tty')\n".to_string()),
        ("hog", "table = []\nwhile True:\n    table.append(' ' * 10000000)\n".to_string()),
        ("children", format!("import os\nresults = []\nfor attempt in (os.fork, lambda: os.memfd_create('hold')):\n    try:\n        attempt()\n        results.append('made')\n    except OSError as e:\n        results.append(e.errno)\nassert results == [1, 1], results\nblock = b'x' * (300 * 1024 * 1024)\n{ANSWER}")),
        ("devshm", format!("import os, sys\ntry:\n    with open('/dev/shm/@MARKER@', 'wb') as f:\n        for i in range(100):\n            f.write(b'x' * (10 * 1024 * 1024))\nexcept (IOError, OSError) as e:\n    print('refused', e.errno)\n    sys.exit(0)\n{ANSWER}")),
        ("holdonly", format!("held = b'x' * (40 * 1024 * 1024)\n{ANSWER}")),
        ("scratchfill", format!("held = b'x' * (40 * 1024 * 1024)\nfor name in ['a', '/tmp/b']:\n    with open(name, 'wb') as f:\n        for i in range(16):\n            f.write(b'y' * (1024 * 1024))\n{ANSWER}")),
        ("segfault", "import ctypes\nctypes.string_at(0)\n".to_string()),
        ("marks", LEAVES_AND_LOOKS.to_string()),
        ("outside", OUTSIDE_THE_LIST.to_string()),
        ("stashes", STASHES.to_string()),
        ("finds", FINDS.to_string()),
    ]
}

/// One program of the corpus.
fn corpus_program(name: &str) -> String {
    corpus()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, program)| program)
        .unwrap_or_else(|| panic!("no program {name} in the corpus"))
}

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
    let h = hostile("forkbomb", &corpus_program("forkbomb"));
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
    let out = hostile("stdoutflood", &corpus_program("stdoutflood"));
    assert!(
        verdicts(&run(&out, lab.path()))
            .iter()
            .all(|v| v == "output_limit")
    );
    let err = hostile("stderrflood", &corpus_program("stderrflood"));
    let report = run(&err, lab.path());
    assert!(
        verdicts(&report).iter().all(|v| v == "time_limit"),
        "{:?}",
        verdicts(&report)
    );
}

/// A program may start no process (nor thread): its fork is refused, as the lab's contest
/// server allowed one process per run. One that goes on after the refusal is judged as usual,
/// and nothing outlives the run.
#[test]
fn a_program_cannot_start_a_process_that_could_outlive_the_run() {
    let lab = quick_lab();
    let h = hostile("grandchild", &corpus_program("grandchild"));
    let report = run(&h, lab.path());
    assert_eq!(report["verdict"], "accepted", "{report:#}");
    let unhandled = hostile("unhandled_fork", &corpus_program("unhandled_fork"));
    let report = run(&unhandled, lab.path());
    assert!(
        verdicts(&report).iter().all(|v| v == "runtime_error"),
        "{report:#}"
    );
    assert!(report.to_string().contains("PermissionError"), "{report:#}");
    // The student is told why.
    assert!(
        crate::common::all_hints(&report)
            .iter()
            .any(|h| h.contains("sandbox refused")),
        "{report:#}"
    );
}

#[test]
fn the_disk_holds_no_expected_outputs_or_home_files_for_a_program() {
    let lab = quick_lab();
    let h = hostile("diskwalker", &corpus_program("diskwalker"));
    let report = run(&h, lab.path());
    let seen = got(&report);
    // Nothing of the lab, the fixtures or anyone's home: only the interpreter's own files (and,
    // for a system Python, the system's read-only /usr, whose packages may hold `.out` files).
    assert!(
        !seen.contains("fixtures") && !seen.contains("/home"),
        "{seen}"
    );
    assert!(
        seen.split(", ")
            .all(|p| !p.contains(".out'") || p.trim_start_matches(['[', '\'']).starts_with("/usr/")),
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
        &corpus_program("connect").replace("@PORT@", &port.to_string()),
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
    let h = hostile("killer", &corpus_program("killer"));
    let report = run(&h, lab.path());
    // nimlab lived to report it. Signals to any other process are refused (the filter), in
    // both runners alike: the program ends on the error its kill raised.
    assert!(
        verdicts(&report).iter().all(|v| v == "runtime_error"),
        "{:?}",
        verdicts(&report)
    );
    assert!(report.to_string().contains("PermissionError"), "{report:#}");
}

#[test]
fn writes_outside_the_scratch_folder_go_nowhere() {
    let lab = quick_lab();
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let marker = format!("nimlab-pwned-{}", std::process::id());
    let h = hostile(
        "writer",
        &corpus_program("writer")
            .replace("@HOME@", &format!("{home:?}"))
            .replace("@MARKER@", &marker),
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
    let h = hostile("sleeper", &corpus_program("sleeper"));
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
    let h = hostile("tty", &corpus_program("tty"));
    let report = run(&h, lab.path());
    assert_eq!(got(&report).trim(), "no tty", "{report:#}");
}

#[test]
fn a_memory_hog_is_reported_as_such() {
    let lab = quick_lab();
    let h = hostile("hog", &corpus_program("hog"));
    let report = run(&h, lab.path());
    assert!(
        verdicts(&report).iter().all(|v| v == "memory_limit"),
        "{:?}",
        verdicts(&report)
    );
}

// One run's memory is bounded as a whole: its processes, its tmpfs folders, memfd files; and
// /dev/shm holds nothing. Each attack would hold gigabytes if it could, and prints the answer
// only when it got them all.

/// quick_lab with this memory limit, and time enough (for the kernel to end a run's processes
/// one by one, for the text report's runs) on a busy machine.
fn patient_lab(memory_mb: u32) -> tempfile::TempDir {
    crate::common::short_lab(4000, 8000, memory_mb)
}

/// Memory is bounded for the whole run, in files held in memory too: a program can neither start
/// children to hold more (they are refused) nor make memory files (memfd_create is refused), and
/// what it holds itself is judged against the limit.
#[test]
fn memory_cannot_be_held_outside_the_program() {
    let lab = patient_lab(256);
    let h = hostile("children", &corpus_program("children"));
    let report = run(&h, lab.path());
    assert!(
        verdicts(&report).iter().all(|v| v == "memory_limit"),
        "{report:#}"
    );
    assert!(
        report["runs"][0]["cases"][0]["message"]
            .as_str()
            .unwrap()
            .contains("ran out of memory: the limit is 256 MB"),
        "{report:#}"
    );
}

#[test]
fn dev_shm_holds_nothing() {
    let lab = quick_lab();
    let marker = format!("nimlab-shm-{}", std::process::id());
    let h = hostile(
        "devshm",
        &corpus_program("devshm").replace("@MARKER@", &marker),
    );
    let report = run(&h, lab.path());
    // Refused (read-only) where nimlab makes /dev read-only; a memory cgroup would count it.
    for case in report["runs"][0]["cases"].as_array().unwrap() {
        let refused = case["verdict"] == "wrong_answer"
            && case["feedback"]["got"]
                .as_str()
                .is_none_or(|got| got.starts_with("refused 30"));
        assert!(refused || case["verdict"] == "memory_limit", "{case:#}");
    }
    assert!(!Path::new("/dev/shm").join(&marker).exists());
}

#[test]
fn files_in_the_working_folder_and_tmp_count_within_the_limit() {
    // 40 MB held fits in 64 MB; with 16 MiB written in each scratch folder it does not.
    let lab = patient_lab(64);
    let fits = hostile("holdonly", &corpus_program("holdonly"));
    assert_eq!(run(&fits, lab.path())["verdict"], "accepted");
    let h = hostile("scratchfill", &corpus_program("scratchfill"));
    let report = run(&h, lab.path());
    assert!(
        verdicts(&report).iter().all(|v| v == "memory_limit"),
        "{report:#}"
    );
}

// A crash reads as the signal that ended the program, also through bubblewrap (which passes a
// death by signal N on as exit status 128 + N).

#[test]
fn a_segfault_is_reported_as_sigsegv() {
    let lab = quick_lab();
    let h = hostile("segfault", &corpus_program("segfault"));
    let report = run(&h, lab.path());
    for case in report["runs"][0]["cases"].as_array().unwrap() {
        assert_eq!(case["verdict"], "runtime_error", "{case:#}");
        assert_eq!(
            case["message"].as_str().unwrap(),
            "the program was killed by SIGSEGV (segmentation fault)",
            "{case:#}"
        );
    }
}

// Terminal injection: whatever a program prints, and the name of its folder, reach the text
// report as visible escapes, piped or on a terminal; none reaches the terminal raw, and none
// is silently dropped.

/// Escape sequences a program might print: a window title, an OSC 52 clipboard write, a
/// screen clear, and a carriage return that would overwrite "wrong" with "accepted".
const INJECTION: &str = r"\x1b]0;pwned-title\x07\x1b]52;c;cHduZWQ=\x07\x1b[2Jwrong\raccepted";

/// A program printing INJECTION (wrong answer) on case 01 and raising it (runtime error) on
/// the others, in a folder whose name holds escapes too.
fn injector(name: &str) -> Hostile {
    let h = hostile(name, "");
    let folder = h.dir.path().join("sub\x1b]0;folder-title\x07\rX");
    std::fs::create_dir(&folder).unwrap();
    let file = folder.join(h.file.file_name().unwrap());
    std::fs::write(
        &file,
        format!(
            "import sys\na, b = [int(w) for w in sys.stdin.read().split()]\nif a == b == 0:\n    print('{INJECTION}')\nelse:\n    raise ValueError('{INJECTION}')\n"
        ),
    )
    .unwrap();
    Hostile { file, ..h }
}

fn check_text_args<'a>(file: &'a Path, lab: &'a Path) -> [&'a str; 6] {
    [
        "check",
        file.to_str().unwrap(),
        "--python",
        "3",
        "--lab",
        lab.to_str().unwrap(),
    ]
}

/// The report shows every escape as text and holds no control character but newlines.
fn assert_shown_escaped(text: &str, folder_name_shown: bool) {
    for raw in ['\x1b', '\x07', '\r', '\u{9b}'] {
        assert!(!text.contains(raw), "{raw:?} reached the terminal:\n{text}");
    }
    let shown = INJECTION;
    // The case line's message and the feedback's `got:` line (wrong answer, case 01).
    assert!(
        text.contains(&format!("got `{shown}`")),
        "the wrong answer is not shown whole:\n{text}"
    );
    assert!(
        text.contains(&format!("got:      {shown}")),
        "the got: line is not shown whole:\n{text}"
    );
    // The runtime error's summary (case 02) and its traceback's last line.
    assert!(
        text.contains(&format!("ValueError: {shown} (line 6)")),
        "the runtime error is not shown whole:\n{text}"
    );
    if folder_name_shown {
        assert!(
            text.contains(r"sub\x1b]0;folder-title\x07\rX"),
            "the folder's name is not shown escaped:\n{text}"
        );
    }
}

#[test]
fn escapes_from_a_program_are_shown_not_obeyed_in_the_piped_text_report() {
    let lab = patient_lab(256);
    let h = injector("injectorpiped");
    let output = nimlab()
        .args(check_text_args(&h.file, lab.path()))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(processes_mentioning(&h.marker), 0);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("wrong answer") && text.contains("runtime error"));
    assert_shown_escaped(&text, true);
}

/// Runs nimlab with its stdout on a pseudo-terminal (colours on) and returns what the
/// terminal received.
fn on_a_terminal(args: &[&str]) -> (String, Option<i32>) {
    use std::io::Read;
    use std::os::fd::{FromRawFd, OwnedFd};
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty fills in two new descriptors; the other arguments may be null.
    let r = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(r, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both were just opened and are owned by nothing else.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("nimlab"))
        .args(args)
        .env_remove("NO_COLOR")
        .env("TERM", "xterm-256color")
        .env("CLICOLOR_FORCE", "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::from(slave))
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Once nimlab (the only holder of the other end) exits, reading fails with EIO.
    let mut received = Vec::new();
    let mut master = std::fs::File::from(master);
    let mut buf = [0u8; 4096];
    while let Ok(n) = master.read(&mut buf) {
        if n == 0 {
            break;
        }
        received.extend_from_slice(&buf[..n]);
    }
    let code = child.wait().unwrap().code();
    (String::from_utf8(received).unwrap(), code)
}

/// The text without nimlab's own colours (SGR sequences, `ESC [ digits ; m`), and with the
/// terminal's line endings back to newlines; any other escape sequence stays.
fn without_own_styles(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after.find(|c: char| !c.is_ascii_digit() && c != ';');
        match end {
            Some(end) if after[end..].starts_with('m') => rest = &after[end + 1..],
            _ => {
                out.push_str("\x1b[");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.replace("\r\n", "\n")
}

#[test]
fn escapes_from_a_program_are_shown_not_obeyed_on_a_terminal() {
    let lab = patient_lab(256);
    let h = injector("injectortty");
    let (received, code) = on_a_terminal(&check_text_args(&h.file, lab.path()));
    assert_eq!(code, Some(1), "{received}");
    assert_eq!(processes_mentioning(&h.marker), 0);
    assert!(
        received.contains("\x1b[31m") || received.contains("\x1b[32m"),
        "no colours: nimlab did not take this for a terminal:\n{received}"
    );
    assert_shown_escaped(&without_own_styles(&received), true);
}

#[test]
fn a_syntax_error_line_is_shown_escaped() {
    let lab = patient_lab(256);
    let h = hostile("syntaxinjector", "print('\x1b]0;pwned\x07\x1b[2J' +)\n");
    let output = nimlab()
        .args(check_text_args(&h.file, lab.path()))
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("syntax error"), "{text}");
    assert!(
        text.contains(r"print('\x1b]0;pwned\x07\x1b[2J' +)"),
        "the source line is not shown escaped:\n{text}"
    );
    assert!(!text.contains('\x1b') && !text.contains('\x07'), "{text}");
}

#[test]
fn a_game_transcript_is_shown_escaped() {
    let lab = lab_with(&["working_game"], |_| {});
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("working_game.py");
    std::fs::write(
        &file,
        format!(
            "import sys\nsys.stdout.write('{INJECTION}\\n')\nsys.stdout.flush()\nname = input('name? \\x1b]52;c;cHduZWQ=\\x07')\n"
        ),
    )
    .unwrap();
    for (text, terminal) in [
        (
            String::from_utf8(
                nimlab()
                    .args(check_text_args(&file, lab.path()))
                    .output()
                    .unwrap()
                    .stdout,
            )
            .unwrap(),
            false,
        ),
        (
            without_own_styles(&on_a_terminal(&check_text_args(&file, lab.path())).0),
            true,
        ),
    ] {
        assert!(text.contains("the game ("), "{text}");
        for raw in ['\x1b', '\x07', '\r'] {
            assert!(
                !text.contains(raw),
                "{raw:?} reached the terminal ({terminal}):\n{text}"
            );
        }
        // The transcript shows the program's bytes as escapes (in feedback's own notation).
        assert!(
            text.contains("]0;pwned-title") && text.contains("wrong\\raccepted"),
            "{text}"
        );
        assert!(text.contains("name? \\u{1b}]52;c;cHduZWQ="), "{text}");
    }
    assert_eq!(processes_mentioning(dir.path().to_str().unwrap()), 0);
}

#[test]
fn without_a_memory_cgroup_each_process_is_limited_and_doctor_says_so() {
    let doctor = nimlab()
        .arg("doctor")
        .env("NIMLAB_ISOLATION", "none")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        text.contains("[ ] memory limit for the whole run"),
        "{text}"
    );
    let lab = patient_lab(256);
    let h = hostile(
        "hogunisolated",
        "table = []\nwhile True:\n    table.append(' ' * 10000000)\n",
    );
    let output = nimlab()
        .env("NIMLAB_ISOLATION", "none")
        .args(["check", h.file.to_str().unwrap(), "--python", "3"])
        .args(["--lab", lab.path().to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        report["isolation"]
            .as_str()
            .unwrap()
            .starts_with("not isolated"),
        "{report:#}"
    );
    assert!(
        verdicts(&report).iter().all(|v| v == "memory_limit"),
        "{report:#}"
    );
    assert_eq!(processes_mentioning(&h.marker), 0);
}

#[test]
fn a_game_that_fills_memory_is_told_so_not_that_it_crashed() {
    let lab = lab_with(&["working_game"], |config| {
        let mut limits = toml::Table::new();
        limits.insert("cpu_ms".into(), 4000.into());
        limits.insert("wall_ms".into(), 8000.into());
        limits.insert("memory_mb".into(), 256.into());
        limits.insert("output_kb".into(), 64.into());
        config.insert("limits".into(), limits.into());
    });
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("working_game.py");
    // Asks for the first name, then holds far more than the limit, a block at a time.
    std::fs::write(
        &file,
        "import sys\nsys.stdout.write('Player 1? ')\nsys.stdout.flush()\nsys.stdin.readline()\nheld = []\nwhile True:\n    held.append(bytearray(20 * 1024 * 1024))\n",
    )
    .unwrap();
    let (report, _) = check_json(&[
        file.to_str().unwrap(),
        "--python",
        "3",
        "--lab",
        lab.path().to_str().unwrap(),
    ]);
    let sample = &report["runs"][0]["cases"][0];
    assert_eq!(sample["verdict"], "memory_limit", "{report:#}");
    assert!(
        sample["message"]
            .as_str()
            .unwrap()
            .contains("ran out of memory"),
        "{report:#}"
    );
}

/// Tries to leave a mark, in every way the lab's first hostile probes found, on the process
/// that forked it (or, run fresh, on nothing it can reach), each mark a number taken from the
/// case's input; then prints what a run can see of such marks on itself. x86_64 system call
/// numbers.
const LEAVES_AND_LOOKS: &str = r#"import ctypes, os, resource, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = [int(w) for w in sys.stdin.read().split()]
mark = 3 + a + 2 * b
# (Run fresh, the program's parent is outside its namespace: a pid that is nobody's.)
parent = os.getppid() or 999999

def call(number, *args):
    if libc.syscall(number, *args) < 0:
        raise OSError(ctypes.get_errno(), "refused")
    return "ok"

def attempt(name, f):
    try:
        return "%s=%s" % (name, f())
    except Exception:
        return name + "=refused"

def time_wait():
    s = socket.socket()
    s.bind(("127.0.0.1", 40000 + mark))
    s.listen(1)
    c = socket.create_connection(("127.0.0.1", 40000 + mark))
    s.accept()[0].close()
    c.close()
    return "ok"

def coredump_filter():
    with open("/proc/%d/coredump_filter" % parent, "w") as f:
        f.write("%x" % mark)
    return "ok"

limit = (ctypes.c_ulong * 2)(64 + mark, 64 + mark)
one_cpu = ctypes.c_ulong(1)
tries = [
    attempt("prlimit", lambda: call(302, parent, 7, limit, None)),
    attempt("time_wait", time_wait),
    attempt("persistent_keyring", lambda: call(250, 22, -1, -3)),
    attempt("keyring_permissions", lambda: call(250, 5, -3, 0x3f3f0000 + mark)),
    attempt("affinity", lambda: call(203, parent, 8, ctypes.byref(one_cpu))),
    attempt("nice", lambda: call(141, 0, parent, mark % 19)),
    attempt("own_nice", lambda: call(141, 0, 0, mark % 19)),
    attempt("ioprio", lambda: call(251, 1, parent, (2 << 13) | (mark % 8))),
    attempt("coredump_filter", coredump_filter),
]

def read(path):
    with open(path) as f:
        return f.read()

stat = read("/proc/self/stat").rsplit(")", 1)[1].split()
status = dict(l.split(":", 1) for l in read("/proc/self/status").splitlines() if ":" in l)
seen = [
    "nofile=%r" % (resource.getrlimit(resource.RLIMIT_NOFILE),),
    "tcp=%d" % len(read("/proc/net/tcp").splitlines()),
    "coredump_filter=%s" % read("/proc/self/coredump_filter").strip(),
    "nice=%s" % stat[16],
    "cpus=%s" % status["Cpus_allowed_list"].strip(),
    "processes=%d" % len([p for p in os.listdir("/proc") if p.isdigit()]),
]
print(" ".join(tries))
print(" ".join(seen))
"#;

/// The cases' reports under one runner and interpreter, one case at a time (so by one fork
/// server): each case's output.
fn outputs(file: &Path, lab: &Path, python: &str, runner: &str) -> Vec<String> {
    let (report, code) = check_json(&[
        file.to_str().unwrap(),
        "--python",
        python,
        "--jobs",
        "1",
        "--runner",
        runner,
        "--lab",
        lab.to_str().unwrap(),
    ]);
    assert!(code == 0 || code == 1, "exit {code}: {report:#}");
    let run = &report["runs"][0];
    assert_eq!(run["runner"], runner, "{report:#}");
    run["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            let got = case["feedback"]["got"].as_str();
            got.unwrap_or_else(|| panic!("{case:#}")).to_string()
        })
        .collect()
}

/// Every channel the fork runner once left between runs (the server's limits, TIME_WAIT
/// sockets, keyrings, affinity, nice, I/O priority, the server's coredump_filter) is closed:
/// each attempt is refused, and each case of one server sees exactly what a fresh interpreter
/// sees, under 3 and 2.7.
#[test]
fn no_run_leaves_a_mark_for_the_next() {
    if std::env::consts::ARCH != "x86_64" {
        return; // (the program calls the kernel by its x86_64 numbers)
    }
    let lab = quick_lab();
    let h = hostile("marks", &corpus_program("marks"));
    for python in ["3", "2.7"] {
        if python == "2.7" && !crate::common::python_2_7_available() {
            continue;
        }
        let forked = outputs(&h.file, lab.path(), python, "fork");
        let fresh = outputs(&h.file, lab.path(), python, "process");
        for (case, (forked, fresh)) in forked.iter().zip(&fresh).enumerate() {
            assert_eq!(
                forked, fresh,
                "{python}, case {case}: forked and fresh differ"
            );
            let tries = forked.lines().next().unwrap();
            for attempt in tries.split(' ') {
                assert!(
                    attempt.ends_with("=refused"),
                    "{python}, case {case}: a mark was left: {attempt}"
                );
            }
        }
        // What a run sees of itself is the same in every case: nothing came from the last.
        let seen: Vec<&str> = forked.iter().map(|o| o.lines().nth(1).unwrap()).collect();
        assert!(seen.windows(2).all(|w| w[0] == w[1]), "{python}: {seen:#?}");
        assert!(seen[0].contains("processes=1"), "{python}: {seen:?}");
    }
}

/// Calls a lab program does not need are refused, the same way in both runners (one file, one
/// verdict), under 3 and 2.7: new processes and threads, signals to others, tracing, mounts,
/// namespaces, sockets, and changes to a file's mode, times, links or attributes.
const OUTSIDE_THE_LIST: &str = r#"import ctypes, os, socket, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
sys.stdin.read()

def attempt(name, f):
    try:
        f()
        return name + "=ok"
    except Exception as e:
        return "%s=%s" % (name, getattr(e, "errno", type(e).__name__))

def call(number, *args):
    if libc.syscall(number, *args) < 0:
        raise OSError(ctypes.get_errno(), "refused")

def thread():
    t = threading.Thread(target=lambda: None)
    t.start()
    t.join()

def fork():
    if os.fork() == 0:
        os._exit(0)

print(" ".join([
    attempt("fork", fork),
    attempt("thread", thread),
    attempt("kill", lambda: os.kill(os.getppid() or 1, 0)),
    attempt("ptrace", lambda: call(101, 16, os.getppid() or 1, 0, 0)),
    attempt("mount", lambda: call(165, b"none", b"/tmp", b"tmpfs", 0, None)),
    attempt("unshare", lambda: call(272, 0x20000)),
    attempt("socketpair", lambda: socket.socketpair()),
    attempt("chmod", lambda: os.chmod("/tmp", 0o700)),
    attempt("utime", lambda: os.utime("/tmp", (1, 1))),
    attempt("symlink", lambda: os.symlink("/tmp", "link")),
    attempt("mkfifo", lambda: os.mkfifo("fifo")),
    attempt("setxattr", lambda: call(188, b"/tmp", b"user.mark", b"1", 1, 0)),
    attempt("memfd", lambda: call(319, b"x", 0)),
    attempt("shmget", lambda: call(29, 0, 4096, 0o1600)),
    attempt("bpf", lambda: call(321, 0, None, 0)),
]))
"#;

#[test]
fn calls_outside_the_list_are_refused_alike_forked_and_fresh() {
    if std::env::consts::ARCH != "x86_64" {
        return;
    }
    let lab = quick_lab();
    let h = hostile("outside", &corpus_program("outside"));
    for python in ["3", "2.7"] {
        if python == "2.7" && !crate::common::python_2_7_available() {
            continue;
        }
        let forked = outputs(&h.file, lab.path(), python, "fork");
        let fresh = outputs(&h.file, lab.path(), python, "process");
        assert_eq!(forked, fresh, "{python}");
        for attempt in forked[0].split_whitespace() {
            // EPERM (1), or the error Python 3 and 2 raise when a thread cannot start.
            assert!(
                attempt.ends_with("=1")
                    || attempt.ends_with("=RuntimeError")
                    || attempt.ends_with("=error"),
                "{python}: not refused: {attempt} in {}",
                forked[0]
            );
        }
    }
}

/// A make_move that tries to hide each case's input (secret cases included) wherever a later
/// run of the same student could find it: files in /tmp, beside its working folder and in its
/// home, the server's limits, TIME_WAIT ports, keyrings, System V shared memory, nice,
/// affinity and coredump_filter. x86_64 system call numbers.
const STASHES: &str = r#"import ctypes, os, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
data = sys.stdin.read()
mark = sum(bytearray(data.encode("utf-8"))) % 1000
stash = ("STASH" + data).encode("utf-8")
parent = os.getppid() or 999999

def quietly(f):
    try:
        f()
    except Exception:
        pass

def write(path):
    with open(path, "wb") as f:
        f.write(stash)

for folder in ("/tmp", os.path.dirname(os.getcwd()), os.environ.get("HOME", "."), "."):
    quietly(lambda: write(os.path.join(folder, "stash-%d" % mark)))
quietly(lambda: libc.syscall(302, parent, 7, (ctypes.c_ulong * 2)(100 + mark, 100 + mark), None))
def time_wait():
    s = socket.socket()
    s.bind(("127.0.0.1", 20000 + mark))
    s.listen(1)
    c = socket.create_connection(("127.0.0.1", 20000 + mark))
    s.accept()[0].close()
    c.close()
quietly(time_wait)
for ring in (-3, -4, -5):
    quietly(lambda: libc.syscall(248, b"user", b"stash", stash, len(stash), ring))
quietly(lambda: libc.shmget(0x5354 + mark, 4096, 0o1666))
quietly(lambda: libc.syscall(141, 0, parent, mark % 19))
quietly(lambda: libc.syscall(203, parent, 8, ctypes.byref(ctypes.c_ulong(1 + mark % 2))))
quietly(lambda: write("/proc/%d/coredump_filter" % parent))
print('{"board": [0]}')
"#;

/// A present_board that prints all it can find of what STASHES hid.
const FINDS: &str = r#"import ctypes, os, resource, sys
libc = ctypes.CDLL(None, use_errno=True)
sys.stdin.read()

def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except Exception as e:
        return type(e).__name__

found = []
for folder in ("/tmp", os.path.dirname(os.getcwd()), os.environ.get("HOME", "."), "."):
    for name in sorted(os.listdir(folder)):
        if name.startswith("stash"):
            found.append(read(os.path.join(folder, name)))
found.append("nofile=%r" % (resource.getrlimit(resource.RLIMIT_NOFILE),))
found.append("tcp=%d" % len(read("/proc/net/tcp").splitlines()))
key = ctypes.create_string_buffer(4096)
for ring in (-3, -4, -5):
    serial = libc.syscall(250, 10, ring, b"user", b"stash", 0)
    if serial > 0:
        found.append(key.raw[: libc.syscall(250, 11, serial, key, 4096)])
found.append("shm=%d" % len(read("/proc/sysvipc/shm").splitlines()))
stat = read("/proc/self/stat").rsplit(")", 1)[1].split()
found.append("nice=%s" % stat[16])
found.append(read("/proc/self/status").split("Cpus_allowed_list:")[1].split()[0])
found.append("coredump_filter=" + read("/proc/self/coredump_filter").strip())
print("\n".join(str(f) for f in found))
"#;

/// In `grade`, one fork server serves each student's exercises in turn: nothing make_move's
/// runs hide of their (secret) inputs reaches what present_board's runs show the student.
/// present_board's reports are the same as for a student who handed in nothing else.
#[test]
fn secret_inputs_never_reach_another_exercises_feedback() {
    if std::env::consts::ARCH != "x86_64" {
        return;
    }
    let class = tempfile::tempdir().unwrap();
    for (file, text) in [
        ("ann_1_make_move.py", STASHES),
        ("ann_1_present_board.py", FINDS),
        ("ben_2_present_board.py", FINDS),
    ] {
        std::fs::write(class.path().join(file), text).unwrap();
    }
    let out = class.path().join("out");
    let pythons = if crate::common::python_2_7_available() {
        "3,2.7"
    } else {
        "3"
    };
    let output = nimlab()
        .arg("grade")
        .arg(class.path())
        .arg("--out")
        .arg(&out)
        .args(["--python", pythons, "--jobs", "1", "--runner", "fork"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let shown = |student: &str| -> Vec<String> {
        let entry = results["students"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["student"] == student)
            .unwrap();
        let report = &entry["exercises"]["present_board"]["report"];
        let mut got = Vec::new();
        for run in report["runs"].as_array().unwrap() {
            assert_eq!(run["runner"], "fork", "{run:#}");
            for case in run["cases"].as_array().unwrap() {
                got.push(format!("{} {}", case["name"], case["feedback"]["got"]));
            }
        }
        got
    };
    let (ann, ben) = (shown("ann"), shown("ben"));
    assert!(!ann.is_empty());
    assert_eq!(
        ann, ben,
        "ann's present_board found what her make_move left"
    );
    assert!(!results.to_string().contains("STASH{"), "a stash was found");
}

/// A program that answers right only where every signal it might rely on has its default
/// action: SIGINT Python's KeyboardInterrupt, the others their system default.
const CHECKS_ITS_SIGNALS: &str = "
import signal, sys
a, b = [int(w) for w in sys.stdin.read().split()]
wrong = []
if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
    wrong.append('SIGINT')
for name in ('SIGQUIT', 'SIGHUP', 'SIGCHLD', 'SIGTERM'):
    if signal.getsignal(getattr(signal, name)) != signal.SIG_DFL:
        wrong.append(name)
print(1 if a != b else 0)
if wrong:
    print('ignored: ' + ' '.join(wrong))
";

/// A shell starts a background job with SIGINT and SIGQUIT ignored, and `nohup` ignores
/// SIGHUP: a run starts with every signal's default action all the same, under both runners,
/// so a program behaves the same however nimlab was started. (And nimlab started with SIGCHLD
/// ignored still waits for its programs, instead of hanging.)
#[test]
fn a_run_starts_with_every_signals_default_action_however_nimlab_was_started() {
    use std::os::unix::process::CommandExt;
    let lab = quick_lab();
    let h = hostile("signals", CHECKS_ITS_SIGNALS);
    for runner in ["fork", "process"] {
        let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("nimlab"));
        command.args([
            "check",
            h.file.to_str().unwrap(),
            "--python",
            "3",
            "--runner",
            runner,
            "--format",
            "json",
            "--lab",
            lab.path().to_str().unwrap(),
        ]);
        // SAFETY: signal(2) between fork and exec, as a shell does for a background job.
        unsafe {
            command.pre_exec(|| {
                for signal in [libc::SIGINT, libc::SIGQUIT, libc::SIGHUP, libc::SIGCHLD] {
                    libc::signal(signal, libc::SIG_IGN);
                }
                Ok(())
            });
        }
        let output = command.output().unwrap();
        let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
            panic!("{runner}: {e}: {}", String::from_utf8_lossy(&output.stderr))
        });
        assert_eq!(
            verdicts(&report),
            ["accepted"; 4],
            "{runner}: {}",
            got(&report)
        );
    }
}
