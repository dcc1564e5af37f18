//! What the measurements share: medians, scratch folders, and running the interpreter or
//! nimlab itself as a user would.

use super::Solution;
use nimlab_core::error::{Error, Result};
use nimlab_core::lab::Lab;
use nimlab_core::runner::interpreter;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub(super) fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

pub(super) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// How a measurement stands against its goal, in the report.
pub(super) fn verdict(ok: bool) -> &'static str {
    if ok { "goal met" } else { "goal missed" }
}

/// A report line that cannot be written.
pub(super) fn stdout_error(source: std::io::Error) -> Error {
    Error::internal("cannot write to stdout", source)
}

/// A scratch folder for the measurement.
pub(super) fn scratch() -> Result<tempfile::TempDir> {
    tempfile::tempdir().map_err(|e| Error::internal("cannot create a temporary folder", e))
}

/// The nimlab binary, run as a user would.
pub(super) fn nimlab_binary() -> Result<PathBuf> {
    std::env::current_exe().map_err(|e| Error::internal("cannot find the nimlab binary", e))
}

/// The Python `request` names, or a usage error.
pub(super) fn python(request: &str) -> Result<PathBuf> {
    interpreter::resolve(request)
        .path
        .ok_or_else(|| Error::usage(format!("Python {request} is not installed here")))
}

/// `program` could not be started, or talked to.
fn spawn_error(program: &Path) -> impl Fn(std::io::Error) -> Error {
    let program = program.to_path_buf();
    move |source| Error::internal(format!("cannot start {}", program.display()), source)
}

/// Runs `python file` once in `dir` with `stdin`, as a person would by hand: no sandbox, no
/// limits, the output read and dropped.
pub(super) fn run_by_hand(python: &Path, file: &Path, dir: &Path, stdin: &[u8]) -> Result<()> {
    let mut child = Command::new(python)
        .arg(file)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(spawn_error(python))?;
    let mut input = child.stdin.take().expect("stdin is piped");
    input.write_all(stdin).map_err(spawn_error(python))?;
    // Closed, so that the program reads to its end.
    drop(input);
    child.wait_with_output().map_err(spawn_error(python))?;
    Ok(())
}

/// Adds `--lab FOLDER` to a nimlab `command` when the lab is a folder (not the built-in one).
pub(super) fn with_lab(command: &mut Command, lab: &Lab) {
    if let nimlab_core::lab::LabOrigin::Folder(root) = &lab.origin {
        command.arg("--lab").arg(root);
    }
}

/// `nimlab check --format json --jobs 1 --runner RUNNER` on the model solution, under the
/// exercise's interpreters, timed; fails unless the solution is accepted.
pub(super) fn timed_check(solution: &Solution, runner: &str) -> Result<Duration> {
    let nimlab = nimlab_binary()?;
    let mut command = Command::new(nimlab);
    with_lab(&mut command, solution.lab);
    command.args([
        "check",
        "--format",
        "json",
        "--exercise",
        &solution.exercise.name,
        "--jobs",
        "1",
        "--runner",
        runner,
    ]);
    command
        .arg(&solution.file)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    time_accepted(
        &mut command,
        &format!("nimlab check --runner {runner}"),
        &solution.exercise.name,
    )
}

/// Runs `command` (`what`, a `nimlab check` of `exercise`'s model solution) and times it;
/// fails unless the solution is accepted.
pub(super) fn time_accepted(command: &mut Command, what: &str, exercise: &str) -> Result<Duration> {
    let started = Instant::now();
    let status = command
        .status()
        .map_err(|e| Error::internal(format!("cannot run {what}"), e))?;
    let elapsed = started.elapsed();
    if !status.success() {
        return Err(Error::fault(format!(
            "{what} did not accept the model solution of {exercise} (exit {status})"
        )));
    }
    Ok(elapsed)
}

/// For the report tests: what was timed, and what a print function writes.
#[cfg(test)]
pub(super) mod test {
    use super::super::About;
    use std::time::Duration;

    /// The interpreter in the reports the tests compare with.
    pub const PYTHON: &str = "/root/.pyenv/versions/3.11.7/bin/python3";

    /// How the isolation describes itself in those reports.
    pub const ISOLATION: &str = "isolated with bubblewrap: no network, private filesystem, processes and /tmp; at most 64 processes; one memory limit for the whole run";

    /// `exercise` with `cases` cases, timed once under [`PYTHON`].
    pub fn about(exercise: &str, cases: usize) -> About {
        About {
            exercise: exercise.to_string(),
            cases,
            python: PYTHON.into(),
            interpreters: vec!["3".to_string(), "2.7".to_string()],
            repeat: 1,
        }
    }

    pub fn millis(ms: f64) -> Duration {
        Duration::from_secs_f64(ms / 1000.0)
    }

    /// What `print` writes, as text.
    pub fn printed(print: impl FnOnce(&mut Vec<u8>) -> nimlab_core::error::Result<()>) -> String {
        let mut out = Vec::new();
        print(&mut out).expect("written");
        String::from_utf8(out).expect("text")
    }
}
