//! Errors of the core library. The command line adds context with anyhow at the edge.

use std::path::PathBuf;

/// Something wrong with a lab folder (the built-in one or an instructor's `--lab`).
#[derive(Debug, thiserror::Error)]
pub enum LabError {
    #[error("{file}: {problem}")]
    Invalid { file: String, problem: String },
    #[error("{file}: cannot read: {source}")]
    Read {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("unknown exercise `{name}`; this lab has: {known}")]
    UnknownExercise { name: String, known: String },
}

impl LabError {
    pub fn invalid(file: impl Into<String>, problem: impl Into<String>) -> Self {
        LabError::Invalid {
            file: file.into(),
            problem: problem.into(),
        }
    }
}

/// A test case's stdin that an exercise cannot read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

impl BadInput {
    pub fn new(message: impl Into<String>) -> Self {
        BadInput(message.into())
    }
}

/// nimlab's own failure while running a program: never the student's fault.
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    #[error("cannot start {program}: {source}")]
    Spawn {
        program: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{what}: {source}")]
    System {
        what: &'static str,
        #[source]
        source: std::io::Error,
    },
}

impl RunnerError {
    pub fn system(what: &'static str) -> Self {
        RunnerError::System {
            what,
            source: std::io::Error::last_os_error(),
        }
    }
}
