//! Runs untrusted programs under limits. The judges only see `Runner`, so a faster or more
//! isolated implementation can replace `ProcessRunner` without touching them.

pub mod interactive;
pub mod interpreter;
mod process;
pub mod sandbox;

pub use process::ProcessRunner;

use crate::error::RunnerError;
use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunLimits {
    pub cpu: Duration,
    pub wall: Duration,
    pub memory_bytes: u64,
    pub output_bytes: u64,
}

impl From<&crate::lab::config::Limits> for RunLimits {
    fn from(l: &crate::lab::config::Limits) -> Self {
        RunLimits {
            cpu: Duration::from_millis(l.cpu_ms),
            wall: Duration::from_millis(l.wall_ms),
            memory_bytes: l.memory_mb * 1024 * 1024,
            output_bytes: l.output_kb * 1024,
        }
    }
}

/// One program to run: what, with which stdin, where, and under which limits.
#[derive(Debug)]
pub struct RunSpec<'a> {
    pub program: &'a Path,
    pub args: Vec<OsString>,
    pub stdin: &'a [u8],
    pub workdir: &'a Path,
    /// The whole environment: nothing of nimlab's own is passed on.
    pub env: Vec<(OsString, OsString)>,
    pub limits: RunLimits,
    /// Folders the program may read (its own files); in a sandbox nothing else is visible.
    pub expose: &'a [std::path::PathBuf],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    Exited(i32),
    Signaled(i32),
    /// Stopped by nimlab when the wall-clock limit passed.
    WallTimeout,
    /// Stopped by nimlab when it had used its CPU time.
    CpuTimeout,
    /// Stopped by nimlab when stdout passed the output limit.
    OutputLimit,
}

#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub termination: Termination,
    /// At most the output limit.
    pub stdout: Vec<u8>,
    /// The last part of stderr (where a traceback ends).
    pub stderr: Vec<u8>,
    pub stderr_truncated: bool,
    pub cpu: Duration,
    pub wall: Duration,
    pub max_rss_bytes: u64,
    /// The kernel killed a process of the run because the run's memory (its memory cgroup)
    /// passed the limit.
    pub out_of_memory: bool,
}

impl RunOutcome {
    pub fn success(&self) -> bool {
        self.termination == Termination::Exited(0)
    }
}

/// Set when nimlab is interrupted (Ctrl-C): running programs are stopped at once.
pub static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub(crate) fn stopping() -> bool {
    STOP.load(std::sync::atomic::Ordering::Relaxed)
}

pub trait Runner: Sync {
    fn run(&self, spec: &RunSpec) -> Result<RunOutcome, RunnerError>;

    /// How programs are contained.
    fn isolation(&self) -> &sandbox::Isolation;
}
