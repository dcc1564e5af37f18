//! The wheel: `pip install nimlab-….whl` into a virtual environment gives a student the
//! `nimlab` command, the lab inside, on a machine with Python and no Rust. The wheel is the
//! one maturin builds from this checkout (`.ci/run` builds it and names it in `NIMLAB_WHEEL`).

use crate::common::{root, tool_missing};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The wheel to install, or None where none was built (the test is then skipped on purpose).
fn wheel() -> Option<PathBuf> {
    // (Named from the repository's top, where the tests run, or absolute: pip runs elsewhere.)
    let wheel = std::env::var_os("NIMLAB_WHEEL")
        .map(PathBuf::from)
        .filter(|path| path.is_file())
        .map(|path| std::fs::canonicalize(path).unwrap());
    if wheel.is_none() {
        tool_missing(
            "nimlab's wheel",
            "pip install maturin && maturin build --profile dev --locked --out target/wheels, then NIMLAB_WHEEL=target/wheels/nimlab-*.whl",
            "the wheel was not installed and tried",
        );
    }
    wheel
}

/// Runs `program` with only `path` to find commands on, in `here`, as a student's shell
/// without Rust would.
fn run(program: &str, args: &[&str], path: &str, home: &Path, here: &Path) -> Output {
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(here)
        .env_clear()
        .env("PATH", path)
        .env("HOME", home)
        .env("LANG", "C.UTF-8")
        .env("NO_COLOR", "1");
    // Python 2.7, where this machine has it through pyenv: a student may have it too.
    if let Some(pyenv) = std::env::var_os("PYENV_ROOT")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".pyenv")))
    {
        command.env("PYENV_ROOT", pyenv);
    }
    command.output().unwrap()
}

fn shown(output: &Output) -> String {
    format!(
        "{:?}\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A student's machine in `scratch`: a home, a virtual environment with the wheel installed,
/// and a PATH of that environment and the system tools nimlab uses, with no cargo on it.
/// Returns the PATH and the home.
fn a_students_machine(scratch: &Path, wheel: &Path) -> (String, PathBuf) {
    let home = scratch.join("home");
    std::fs::create_dir(&home).unwrap();
    let venv = scratch.join("venv");
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", shown(&made));
    // The student's PATH: the environment's commands, and the system's tools nimlab uses
    // (bubblewrap, a shell), each linked into a folder of its own; no cargo anywhere.
    let tools = scratch.join("tools");
    std::fs::create_dir(&tools).unwrap();
    for tool in ["bwrap", "sh"] {
        if let Some(found) = ["/usr/bin", "/bin"]
            .iter()
            .map(|dir| Path::new(dir).join(tool))
            .find(|p| p.exists())
        {
            std::os::unix::fs::symlink(found, tools.join(tool)).unwrap();
        }
    }
    let path = format!("{}:{}", venv.join("bin").display(), tools.display());
    let pip = venv.join("bin/pip");
    let installed = run(
        pip.to_str().unwrap(),
        &[
            "install",
            "--no-index",
            "--no-deps",
            "--disable-pip-version-check",
            wheel.to_str().unwrap(),
        ],
        &path,
        &home,
        scratch,
    );
    assert!(installed.status.success(), "{}", shown(&installed));
    let no_cargo = run(
        "sh",
        &["-c", "command -v cargo || command -v rustc"],
        &path,
        &home,
        scratch,
    );
    assert!(
        !no_cargo.status.success(),
        "cargo is on the student's PATH: {}",
        shown(&no_cargo)
    );
    (path, home)
}

#[test]
fn the_wheel_installs_nimlab_for_a_student_with_python_and_no_rust() {
    let Some(wheel) = wheel() else {
        return;
    };
    let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("nimlab-")
            && name.contains("-py3-none-manylinux_")
            && name.ends_with("_x86_64.whl"),
        "a wheel for any Python 3 on x86_64 Linux with a manylinux tag: {name}"
    );
    let scratch = tempfile::tempdir().unwrap();
    let (path, home) = a_students_machine(scratch.path(), &wheel);

    let version = run("nimlab", &["--version"], &path, &home, scratch.path());
    assert!(
        version.status.success()
            && String::from_utf8_lossy(&version.stdout)
                .starts_with(&format!("nimlab {}", env!("CARGO_PKG_VERSION"))),
        "{}",
        shown(&version)
    );
    let init = run("nimlab", &["init", "my-lab"], &path, &home, scratch.path());
    assert!(init.status.success(), "{}", shown(&init));
    let lab = scratch.path().join("my-lab");
    assert!(lab.join("present_board.py").is_file(), "{}", shown(&init));

    // The starter file as handed out: not done yet, so not accepted (exit 1), with a report.
    let starter = run("nimlab", &["check", "present_board.py"], &path, &home, &lab);
    assert_eq!(starter.status.code(), Some(1), "{}", shown(&starter));
    assert!(
        String::from_utf8_lossy(&starter.stdout).contains("present_board"),
        "{}",
        shown(&starter)
    );
    // The lab's model solution in its place: accepted (exit 0).
    std::fs::copy(
        root().join("exercises/present_board/solution.py"),
        lab.join("present_board.py"),
    )
    .unwrap();
    let solved = run("nimlab", &["check", "present_board.py"], &path, &home, &lab);
    assert_eq!(solved.status.code(), Some(0), "{}", shown(&solved));
    let said = String::from_utf8_lossy(&solved.stdout);
    assert!(
        said.contains("accepted") || said.contains("Accepted"),
        "{}",
        shown(&solved)
    );
}
