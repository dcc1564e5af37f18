//! Runs untrusted programs under limits. Everything above sees only [`Runner`] (a whole run,
//! or a [`Session`] to talk with), so a faster or more isolated implementation, or the
//! [`ScriptedRunner`] of tests, can replace `ProcessRunner` without touching the judges.

mod child;
pub mod filter;
pub mod fork;
pub mod identity;
pub mod interactive;
pub mod interpreter;
mod process;
pub mod sandbox;
pub mod scripted;
pub mod seed;
mod watch;

pub use fork::ForkRunner;
pub use interactive::Pause;
pub use process::ProcessRunner;
pub use scripted::ScriptedRunner;

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

impl RunLimits {
    /// The whole seconds of CPU time given to the kernel's own limit (RLIMIT_CPU): a backstop
    /// behind nimlab's watch, which stops a busy program at the CPU limit by its exact CPU
    /// time. The kernel's limit counts clock ticks, each charged to whatever runs when it
    /// falls: on a loaded machine a busy program among many short ones is charged for more
    /// than it ran (1.8 s measured charged as 3 s), and a kernel limit at the CPU limit would
    /// kill, as a crash, a program within it. A single-threaded program is charged at most
    /// the time that passes, so the kernel's limit waits for the wall-clock limit too.
    pub fn kernel_cpu_seconds(&self) -> u64 {
        let whole = |d: Duration| d.as_secs() + u64::from(d.subsec_nanos() > 0);
        whole(self.cpu).max(whole(self.wall)).max(1)
    }
}

/// One program to run: what, with which stdin (a whole run's; a session is typed to
/// instead), where, and under which limits.
#[derive(Debug)]
pub struct RunSpec<'a> {
    pub program: &'a Path,
    pub args: Vec<OsString>,
    pub stdin: &'a [u8],
    /// The run's working folder: made by the runner where the run needs one on this side.
    pub workdir: &'a Path,
    /// The whole environment: nothing of nimlab's own is passed on.
    pub env: Vec<(OsString, OsString)>,
    pub limits: RunLimits,
    /// Folders the program may read (its own files); in a sandbox nothing else is visible.
    pub expose: &'a [std::path::PathBuf],
    /// The seed Python's `random` starts from (see [`seed`]); None: from the system's
    /// randomness, as a fresh interpreter's does.
    pub seed: Option<u64>,
    /// Stops the run at once when set (Ctrl-C, a server stopping): reported as a wall-clock
    /// stop, which the caller knows not to blame on the program.
    pub stop: &'a crate::stop::Stop,
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
    /// For a run stopped at the wall-clock limit: whether it was working (runnable) then, as
    /// opposed to sleeping or waiting.
    pub working_at_wall_limit: Option<bool>,
    /// How the run was made.
    pub way: RunWay,
}

/// How a run was made: a process of its own, or forked from an interpreter kept running for
/// the program (see [`ForkRunner`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum RunWay {
    #[default]
    Process,
    Fork,
    /// A process of its own because the fork path could not make this run: why.
    Fallback(String),
}

impl RunOutcome {
    pub fn success(&self) -> bool {
        self.termination == Termination::Exited(0)
    }
}

pub trait Runner: Sync {
    /// Runs a program to its end on the spec's stdin.
    fn run(&self, spec: &RunSpec) -> Result<RunOutcome, RunnerError>;

    /// Starts a program to talk with: the caller types lines and reads what it prints.
    fn start(&self, spec: &RunSpec) -> Result<Box<dyn Session>, RunnerError>;

    /// How programs are contained.
    fn isolation(&self) -> &sandbox::Isolation;

    /// What compiling the program of `spec` (its first argument) says, as the syntax probe's
    /// JSON (see `syntax.rs`), where this runner can tell without a run of its own: a
    /// fork server compiles the program once anyway. None: the caller runs the probe.
    fn compile(&self, _spec: &RunSpec) -> Option<Vec<u8>> {
        None
    }

    /// No more runs will show these folders (a submission's check is over): a runner that
    /// keeps interpreters running for them lets them go.
    fn finished_with(&self, _expose: &[std::path::PathBuf]) {}

    /// The folder checks should make their scratch folders in, where this runner serves every
    /// submission made there from interpreters it keeps warm for the life of the process;
    /// None where it does not (scratch folders then go anywhere).
    fn workspace_root(&self) -> Option<&std::path::Path> {
        None
    }
}

/// A running program that a judge talks with.
pub trait Session {
    /// Lets the program run until it pauses; returns why, and what it printed meanwhile.
    fn resume(&mut self) -> Result<(Pause, Vec<u8>), RunnerError>;

    /// Types one line, as a person would at the keyboard.
    fn type_line(&mut self, line: &str) -> Result<(), RunnerError>;

    /// Ends the session, stopping the program if it still runs, and says how it ended. Its
    /// stdout was handed out by `resume`, so the outcome's is empty.
    fn finish(&mut self) -> Result<RunOutcome, RunnerError>;
}
