//! Helpers shared by the integration tests: the real binary, the repository's files, and
//! small lab folders made for one test.
#![allow(dead_code)]

pub mod postgres;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The built-in lab's exercises in its order, read from the lab itself.
pub fn exercises() -> Vec<String> {
    let lab = nimlab_core::lab::Lab::built_in().expect("the built-in lab loads");
    lab.names().into_iter().map(str::to_string).collect()
}

/// The exercises that answer one stdin case: all but the interactive ones.
pub fn stdin_exercises() -> Vec<String> {
    let lab = nimlab_core::lab::Lab::built_in().expect("the built-in lab loads");
    lab.exercises
        .iter()
        .filter(|e| e.has_reference())
        .map(|e| e.name.clone())
        .collect()
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The nimlab binary, without colour, as a script would run it.
pub fn nimlab() -> Command {
    let mut command = Command::cargo_bin("nimlab").expect("the nimlab binary is built");
    command.env("NO_COLOR", "1").env_remove("CLICOLOR_FORCE");
    command
}

/// `nimlab check ... --format json`: the report and the exit code.
pub fn check_json(args: &[&str]) -> (Value, i32) {
    let output = nimlab()
        .arg("check")
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("nimlab runs");
    let code = output.status.code().expect("nimlab exits");
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not a JSON report ({e}); exit {code}\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (report, code)
}

/// Every hint in a report: per case and overall.
pub fn all_hints(report: &Value) -> Vec<String> {
    let mut hints: Vec<String> = report["hints"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| h.as_str().map(str::to_string))
        .collect();
    for run in report["runs"].as_array().into_iter().flatten() {
        for case in run["cases"].as_array().into_iter().flatten() {
            for hint in case["feedback"]["hints"].as_array().into_iter().flatten() {
                hints.push(hint.as_str().unwrap_or_default().to_string());
            }
        }
        if let Some(hint) = run["syntax"]["hint"].as_str() {
            hints.push(hint.to_string());
        }
    }
    hints
}

pub fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A lab folder holding copies of some built-in exercises, with `edit` applied to each
/// exercise.toml (as a TOML table).
pub fn lab_with(exercises: &[&str], edit: impl Fn(&mut toml::Table)) -> tempfile::TempDir {
    let lab = tempfile::tempdir().unwrap();
    for name in exercises {
        let exercise_dir = lab.path().join("exercises").join(name);
        copy_dir(&root().join("exercises").join(name), &exercise_dir);
        let fixtures = root().join("fixtures").join(name);
        if fixtures.exists() {
            copy_dir(&fixtures, &lab.path().join("fixtures").join(name));
        }
        let config_path = exercise_dir.join("exercise.toml");
        let mut config: toml::Table = std::fs::read_to_string(&config_path)
            .unwrap()
            .parse()
            .unwrap();
        edit(&mut config);
        std::fs::write(&config_path, toml::to_string(&config).unwrap()).unwrap();
    }
    lab
}

/// The exclusive_or exercise with its 4 sample cases only (no secret ones) and these limits:
/// quick to judge, for programs that attack the runner rather than answer.
pub fn short_lab(cpu_ms: u32, wall_ms: u32, memory_mb: u32) -> tempfile::TempDir {
    let lab = lab_with(&["exclusive_or"], |config| {
        let mut limits = toml::Table::new();
        limits.insert("cpu_ms".into(), cpu_ms.into());
        limits.insert("wall_ms".into(), wall_ms.into());
        limits.insert("memory_mb".into(), memory_mb.into());
        limits.insert("output_kb".into(), 64.into());
        config.insert("limits".into(), limits.into());
        config.remove("forbidden");
    });
    std::fs::remove_dir_all(lab.path().join("fixtures/exclusive_or/secret")).unwrap();
    lab
}

pub fn python_2_7_available() -> bool {
    static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FOUND.get_or_init(|| nimlab_interpreter_found("2.7"))
}

/// For a test that is about Python 2.7 as much as 3 (the lab demanded both): whether 2.7 is
/// here; when it is not, the test is skipped by name (see [`tool_missing`]), or fails under CI.
pub fn needs_python_2_7() -> bool {
    if python_2_7_available() {
        return true;
    }
    tool_missing(
        "Python 2.7",
        "pyenv install 2.7.18 (nimlab looks in pyenv's versions folder)",
        "its runs under Python 2.7 were not checked",
    );
    false
}

fn nimlab_interpreter_found(version: &str) -> bool {
    let (report, _) = check_json(&[
        root()
            .join("exercises/exclusive_or/solution.py")
            .to_str()
            .unwrap(),
        "--exercise",
        "exclusive_or",
        "--python",
        version,
    ]);
    report["runs"][0]["verdict"] != "skipped"
}

/// Processes whose command line mentions `needle`, from /proc.
pub fn processes_mentioning(needle: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|cmdline| String::from_utf8_lossy(cmdline).contains(needle))
        .count()
}

/// The number that follows `label` on a line of `text`.
pub fn number_after(text: &str, label: &str) -> f64 {
    let line = text
        .lines()
        .find(|l| l.contains(label))
        .unwrap_or_else(|| panic!("no line with {label:?} in:\n{text}"));
    let rest = &line[line.find(label).unwrap() + label.len()..];
    rest.split_whitespace()
        .find_map(|word| word.trim_end_matches(['x', ',']).parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no number after {label:?} in {line:?}"))
}

/// The first number of the one secret case of [`cpu_speller_lab`].
pub const SECRET_FIRST: u64 = 37;

/// The secret case that [`CPU_SPELLER`] spells.
pub const SPELLED_CASE: &str = "secret/99-spelled";

/// A present_board submission that spends 10 ms of CPU per unit of its input's first number,
/// so its CPU time for a case spells that number; it answers right, but for a board whose
/// first row is longer than 30 (only the secret case's) it adds a row, so that case fails
/// with a message.
pub const CPU_SPELLER: &str = r#"from __future__ import print_function
import sys, time
board = [int(w) for w in sys.stdin.readline().split()]
clock = getattr(time, 'process_time', time.time)
end = clock() + 0.01 * (board[0] if board else 0)
while clock() < end:
    pass
if board and board[0] > 30:
    board.append(1)
print('\n'.join(['Nim:'] + [str(i) + ':' + ' X' * n for i, n in enumerate(board, 1)]))
"#;

/// A present_board submission that answers right, but on [`SPELLED_CASE`] (and only there),
/// forked from nimlab's fork server, holds a file named [`ASKS_FOR_AN_INTERRUPT`] open and
/// waits 4 s first: long enough for an [`InterruptsForkServers`] to interrupt the server
/// (SIGINT; a run may send no signal itself), which dies with a Python traceback that names nimlab's temporary folder; that run
/// is then made again as a process of its own, which does not wait (it is its sandbox's init,
/// pid 1, or, without a sandbox, its parent is not a fork server).
pub fn server_killer() -> String {
    format!(
        r#"from __future__ import print_function
import os, sys, time
board = [int(w) for w in sys.stdin.readline().split()]
try:
    parent = open('/proc/%d/cmdline' % os.getppid(), 'rb').read()
except (IOError, OSError):
    parent = b''  # (a run cannot see its fork server)
forked = os.getpid() != 1 and (not parent or b'forkserver' in parent)
if forked and board and board[0] == {SECRET_FIRST}:
    held = open('{}', 'w')
    time.sleep(4)
print('\n'.join(['Nim:'] + [str(i) + ':' + ' X' * n for i, n in enumerate(board, 1)]))
"#,
        interrupt_request()
    )
}

/// The file a run of [`server_killer`] holds open while it waits to have its server interrupted.
pub const ASKS_FOR_AN_INTERRUPT: &str = "interrupt-my-fork-server";

/// [`ASKS_FOR_AN_INTERRUPT`] for this test process: another test binary running at the same
/// time has its own, and neither interrupts the other's servers.
fn interrupt_request() -> String {
    format!("{ASKS_FOR_AN_INTERRUPT}-{}", std::process::id())
}

/// While it lives, interrupts (SIGINT, from this side) every fork server one of whose runs
/// holds [`ASKS_FOR_AN_INTERRUPT`] open: with [`server_killer`], the server of its waiting run
/// dies mid-check, as a failing server would. (Other tests' servers are left alone.)
pub struct InterruptsForkServers {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl InterruptsForkServers {
    pub fn start() -> InterruptsForkServers {
        use std::sync::atomic::Ordering;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            // Each server once: a second SIGINT while Python unwinds from the first would cut
            // its traceback short.
            let mut interrupted = std::collections::HashSet::new();
            while !stopped.load(Ordering::Relaxed) {
                for server in fork_servers_asked_to_be_interrupted() {
                    if interrupted.insert(server) {
                        // SAFETY: a plain kill(2) of a fork server (by its arguments).
                        unsafe { libc::kill(server, libc::SIGINT) };
                    }
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        });
        InterruptsForkServers {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for InterruptsForkServers {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The running fork servers one of whose runs (a child, or a child's descendant inside its
/// sandbox) holds [`ASKS_FOR_AN_INTERRUPT`] open: only those, so that the other tests' servers,
/// running slow cases at the same time, are never interrupted.
fn fork_servers_asked_to_be_interrupted() -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut servers = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let args: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
        let server =
            args.iter().any(|a| a.ends_with(b"forkserver.py")) && !args[0].ends_with(b"bwrap");
        if server && descendants(pid).into_iter().any(holds_the_request) {
            servers.push(pid);
        }
    }
    servers
}

/// A process's children, their children, and so on.
pub fn descendants(pid: i32) -> Vec<i32> {
    let mut found = Vec::new();
    let mut next = vec![pid];
    while let Some(parent) = next.pop() {
        let children = std::fs::read_to_string(format!("/proc/{parent}/task/{parent}/children"))
            .unwrap_or_default();
        for child in children.split_whitespace().filter_map(|c| c.parse().ok()) {
            found.push(child);
            next.push(child);
        }
    }
    found
}

/// Whether a process holds [`ASKS_FOR_AN_INTERRUPT`] open.
fn holds_the_request(pid: i32) -> bool {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    fds.filter_map(Result::ok).any(|fd| {
        std::fs::read_link(fd.path()).is_ok_and(|target| target.ends_with(interrupt_request()))
    })
}

/// present_board under Python 3 alone, with its sample cases and one secret case,
/// [`SPELLED_CASE`], whose board starts with [`SECRET_FIRST`]: the secret cases a program
/// could spell out through what a report says of them.
pub fn cpu_speller_lab() -> tempfile::TempDir {
    let lab = lab_with(&["present_board"], |config| {
        config.insert(
            "interpreters".into(),
            toml::Value::Array(vec![toml::Value::String("3".into())]),
        );
    });
    let secret = lab.path().join("fixtures/present_board/secret");
    std::fs::remove_dir_all(&secret).unwrap();
    std::fs::create_dir_all(&secret).unwrap();
    let name = SPELLED_CASE.trim_start_matches("secret/");
    let board = [SECRET_FIRST, 1, 2];
    let words: Vec<String> = board.iter().map(u64::to_string).collect();
    std::fs::write(secret.join(format!("{name}.in")), words.join(" ") + "\n").unwrap();
    let mut expected = String::from("Nim:\n");
    for (row, size) in board.iter().enumerate() {
        expected.push_str(&format!("{}:{}\n", row + 1, " X".repeat(*size as usize)));
    }
    std::fs::write(secret.join(format!("{name}.out")), expected).unwrap();
    lab
}

/// Every case named `case` anywhere in `value` (a report, results.json, an API answer).
pub fn case_in<'a>(value: &'a Value, case: &str) -> Vec<&'a Value> {
    match value {
        Value::Object(fields) if fields.get("name").and_then(Value::as_str) == Some(case) => {
            vec![value]
        }
        Value::Object(fields) => fields.values().flat_map(|v| case_in(v, case)).collect(),
        Value::Array(items) => items.iter().flat_map(|v| case_in(v, case)).collect(),
        _ => Vec::new(),
    }
}

/// A tool a test needs is not installed. On a developer's machine the test is skipped, and
/// says so on the terminal as the tests run (written past the harness's capture, so a run that
/// passes still names every test it skipped and how to run it); under `CI=true`, or with
/// `NIMLAB_REQUIRE_TOOLS=1`, it fails and says how to install the tool: a test that passed
/// without its tool would pass for nothing.
pub fn tool_missing(what: &str, install: &str, untested: &str) {
    let required = std::env::var("CI").as_deref() == Ok("true")
        || std::env::var("NIMLAB_REQUIRE_TOOLS").as_deref() == Ok("1");
    assert!(
        !required,
        "{what} is not installed: {install}, or run `bash .ci/run`, which installs everything the tests need"
    );
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr().lock(),
        "skipped {test}: {what} is not installed ({untested}); to run it: {install}, or `bash .ci/run` for everything"
    );
}

/// Writes a `width` × `height` PNG, one colour, made by Python's zlib (a real image that a
/// browser decodes, so its drawn size can be measured).
pub fn write_png(path: &Path, width: u32, height: u32) {
    let script = r#"
import struct, sys, zlib
w, h = int(sys.argv[2]), int(sys.argv[3])
rows = b"".join(b"\x00" + b"\x30\x60\xc0" * w for _ in range(h))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
"#;
    let status = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(path)
        .args([width.to_string(), height.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}
