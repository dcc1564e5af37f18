//! The syntax probe: before any case runs, the file is compiled under the interpreter, which
//! says its version and whether the file compiles. A runner that keeps an interpreter for
//! the cases compiles it there, once.

use super::workspace::{clean_env, workspace_error};
use crate::error::Error;
use crate::runner::{RunSpec, Runner};
use crate::stop::Stop;
use crate::syntax::{self, ProbePlace, SyntaxCheck};
use std::path::{Path, PathBuf};

/// What the probe needs of the check.
pub(super) struct Probe<'a> {
    pub runner: &'a dyn Runner,
    pub program: &'a Path,
    pub source: &'a [u8],
    pub expose: &'a [PathBuf],
    pub stop: &'a Stop,
}

/// How the probe went, and whether the runner compiled the file in the process that will
/// run the cases (a fork server).
pub(super) struct ProbeResult {
    pub probed: Probed,
    pub in_server: bool,
}

pub(super) enum Probed {
    /// The interpreter's answer.
    Answered(SyntaxCheck),
    /// Stopped by a stop request: nothing was judged.
    Interrupted,
    /// The probe itself failed: nimlab's fault.
    Failed(String),
}

impl Probe<'_> {
    /// Compiles the program under `interpreter`. `first_case`, the first case's run, lets a
    /// runner that keeps an interpreter (the calling thread's, which runs the cases) compile
    /// it there; otherwise the probe is a run of its own, in `workspace/probe`.
    pub(super) fn run(
        &self,
        interpreter: &Path,
        workspace: &Path,
        first_case: Option<RunSpec>,
    ) -> Result<ProbeResult, Error> {
        let probe_dir = workspace.join("probe");
        std::fs::create_dir_all(&probe_dir).map_err(workspace_error)?;
        let compiled = first_case.and_then(|spec| self.runner.compile(&spec));
        let in_server = compiled.is_some();
        let checked = match compiled {
            Some(answer) => syntax::interpret(interpreter, &answer, b"", self.source),
            None => syntax::check(
                self.runner,
                interpreter,
                self.program,
                self.source,
                ProbePlace {
                    workdir: &probe_dir,
                    env: clean_env(&probe_dir),
                    expose: self.expose,
                    stop: self.stop,
                },
            ),
        };
        let probed = match checked {
            Ok(check) => Probed::Answered(check),
            Err(_) if self.stop.requested() => Probed::Interrupted,
            Err(why) => Probed::Failed(why.to_string()),
        };
        Ok(ProbeResult { probed, in_server })
    }
}
