//! nimlab's one error type. Each error knows whose fault it is, and so the exit code that
//! ends the command ([`Error::exit_code`]): the user's usage or configuration (2), or nimlab's
//! own failure (3). A student's failing program is never an error: it is a verdict.

use crate::exit;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The command line asks for something that cannot be done.
    #[error("{0}")]
    Usage(String),
    /// A file or folder given to nimlab is missing, unreadable or malformed.
    #[error("{file}: {problem}")]
    Input { file: String, problem: String },
    /// The lab (built in or `--lab`) is malformed.
    #[error(transparent)]
    Lab(#[from] LabError),
    /// nimlab could not do its own work: a scratch folder, a report, a process.
    #[error("{what}: {source}")]
    Internal {
        what: String,
        #[source]
        source: std::io::Error,
    },
    /// nimlab's own failure that no system call reports: a report that cannot be rendered,
    /// a judge error, a model solution that fails while timed.
    #[error("{0}")]
    Fault(String),
    #[error(transparent)]
    Runner(#[from] RunnerError),
    /// Standard output was closed by whoever read it (`nimlab list | head -1`): the command
    /// stops there, quietly, as command-line tools do; nobody's failure.
    #[error("standard output was closed")]
    ClosedOutput,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    /// A problem with a file the user named.
    pub fn input(file: impl AsRef<Path>, problem: impl Into<String>) -> Self {
        Error::Input {
            file: file.as_ref().display().to_string(),
            problem: problem.into(),
        }
    }

    /// A file the user named that cannot be read.
    pub fn unreadable(file: impl AsRef<Path>, source: &std::io::Error) -> Self {
        let problem = match source.kind() {
            std::io::ErrorKind::NotFound => "no such file or folder".to_string(),
            _ => format!("cannot read: {source}"),
        };
        Error::input(file, problem)
    }

    /// nimlab's own failure to do something it needs.
    pub fn internal(what: impl Into<String>, source: std::io::Error) -> Self {
        Error::Internal {
            what: what.into(),
            source,
        }
    }

    /// nimlab's own failure, told in a message of its own.
    pub fn fault(message: impl Into<String>) -> Self {
        Error::Fault(message.into())
    }

    /// A file nimlab was told to write and could not.
    pub fn unwritable(file: impl AsRef<Path>, source: std::io::Error) -> Self {
        Error::internal(format!("{}: cannot write", file.as_ref().display()), source)
    }

    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) | Error::Input { .. } | Error::Lab(_) => exit::USAGE,
            Error::Internal { .. } | Error::Fault(_) | Error::Runner(_) => exit::INTERNAL,
            Error::ClosedOutput => exit::SUCCESS,
        }
    }
}

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
    #[error("cannot create the run's working folder {}: {source}", folder.display())]
    Workdir {
        folder: PathBuf,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_knows_whose_fault_it_is() {
        let io = || std::io::Error::other("disk full");
        assert_eq!(Error::usage("--jobs must be at least 1").exit_code(), 2);
        assert_eq!(Error::input("roster.csv", "no header").exit_code(), 2);
        assert_eq!(
            Error::from(LabError::invalid("x", "bad")).exit_code(),
            exit::USAGE
        );
        assert_eq!(Error::unwritable("out/gradebook.csv", io()).exit_code(), 3);
        assert_eq!(
            Error::unwritable("out/gradebook.csv", io()).to_string(),
            "out/gradebook.csv: cannot write: disk full"
        );
        let fault = Error::fault("junit.xml: cannot write: bad XML");
        assert_eq!(fault.exit_code(), exit::INTERNAL);
        assert_eq!(fault.to_string(), "junit.xml: cannot write: bad XML");
        assert_eq!(
            Error::from(RunnerError::System {
                what: "cannot watch",
                source: io()
            })
            .exit_code(),
            exit::INTERNAL
        );
        let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
        assert_eq!(
            Error::unreadable("a.py", &missing).to_string(),
            "a.py: no such file or folder"
        );
    }
}
