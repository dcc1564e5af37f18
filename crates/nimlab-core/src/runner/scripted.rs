//! A runner that runs nothing: each run or session is answered by a script written in Rust.
//! With it, check, grade and the game judge are tested without Python or processes.

use super::sandbox::Isolation;
use super::{Pause, RunOutcome, RunSpec, Runner, Session, Termination};
use crate::error::RunnerError;
use std::time::Duration;

type RunScript = dyn Fn(&RunSpec) -> RunOutcome + Sync;
type SessionScript = dyn Fn(&RunSpec) -> Box<dyn Session> + Sync;

/// Answers `run` with one function of the spec, and `start` with another.
pub struct ScriptedRunner {
    run: Box<RunScript>,
    start: Option<Box<SessionScript>>,
    isolation: Isolation,
}

impl ScriptedRunner {
    /// Every run ends as `script` says.
    pub fn new(script: impl Fn(&RunSpec) -> RunOutcome + Sync + 'static) -> Self {
        ScriptedRunner {
            run: Box::new(script),
            start: None,
            isolation: Isolation::LimitsOnly {
                reason: "scripted: nothing runs".into(),
            },
        }
    }

    /// Sessions are the ones `script` makes.
    pub fn with_sessions(
        mut self,
        script: impl Fn(&RunSpec) -> Box<dyn Session> + Sync + 'static,
    ) -> Self {
        self.start = Some(Box::new(script));
        self
    }
}

impl Runner for ScriptedRunner {
    fn run(&self, spec: &RunSpec) -> Result<RunOutcome, RunnerError> {
        Ok((self.run)(spec))
    }

    fn start(&self, spec: &RunSpec) -> Result<Box<dyn Session>, RunnerError> {
        match &self.start {
            Some(script) => Ok(script(spec)),
            None => Err(RunnerError::Spawn {
                program: spec.program.to_path_buf(),
                source: std::io::Error::other("this scripted runner has no sessions"),
            }),
        }
    }

    fn isolation(&self) -> &Isolation {
        &self.isolation
    }
}

/// A finished run as a script describes it: how it ended, and what it printed.
pub fn outcome(termination: Termination, stdout: &str, stderr: &str) -> RunOutcome {
    RunOutcome {
        termination,
        stdout: stdout.as_bytes().to_vec(),
        stderr: stderr.as_bytes().to_vec(),
        stderr_truncated: false,
        cpu: Duration::from_millis(1),
        wall: Duration::from_millis(1),
        max_rss_bytes: 0,
        out_of_memory: false,
        working_at_wall_limit: None,
        way: super::RunWay::Process,
    }
}

/// A program that answers every line typed to it with a function of that line, starting with
/// `greeting`; it ends when the function says `None`.
pub struct Conversation<F> {
    pending: Option<String>,
    reply: F,
    typed: Option<String>,
    ended: bool,
}

impl<F: FnMut(&str) -> Option<String>> Conversation<F> {
    pub fn new(greeting: &str, reply: F) -> Self {
        Conversation {
            pending: Some(greeting.to_string()),
            reply,
            typed: None,
            ended: false,
        }
    }
}

impl<F: FnMut(&str) -> Option<String>> Session for Conversation<F> {
    fn resume(&mut self) -> Result<(Pause, Vec<u8>), RunnerError> {
        if self.ended {
            return Ok((Pause::Exited, Vec::new()));
        }
        if let Some(line) = self.typed.take() {
            match (self.reply)(&line) {
                Some(text) => self.pending = Some(text),
                None => {
                    self.ended = true;
                    return Ok((Pause::Exited, Vec::new()));
                }
            }
        }
        let text = self.pending.take().unwrap_or_default();
        Ok((Pause::Waiting, text.into_bytes()))
    }

    fn type_line(&mut self, line: &str) -> Result<(), RunnerError> {
        self.typed = Some(line.to_string());
        Ok(())
    }

    fn finish(&mut self) -> Result<RunOutcome, RunnerError> {
        self.ended = true;
        Ok(outcome(Termination::Exited(0), "", ""))
    }
}
