//! Same file, same grade: every run of a submission on a case under an interpreter starts
//! Python's `random` from the same seed ([`for_case`]), whichever runner makes it, so that a
//! program drawing random numbers gets the same verdicts in `check`, in `grade`, in every
//! shard and on the website. A forked run's generator is seeded by its fork server (the run
//! message carries the seed: `forkserver_body.py`); a fresh interpreter's by nimlab's
//! `sitecustomize.py`, which `site` imports as the interpreter starts ([`Sitecustomize`]). Both
//! seed the standard library's generator with `random.seed(seed)`, so a program draws the
//! same numbers either way. (`PYTHONHASHSEED` is fixed too: `check::clean_env`.)

use super::RunSpec;
use crate::error::RunnerError;
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// nimlab's sitecustomize (also the fork server's, for the finder it defines).
pub(crate) const SITECUSTOMIZE: &str = include_str!("sitecustomize.py");

/// The variable that gives sitecustomize the seed (it takes it out of the environment).
const VARIABLE: &str = "NIMLAB_RANDOM_SEED";

/// Writes a file's bytecode where the interpreter looks for it (Python 2.7 and 3).
const COMPILE: &str = "import py_compile, sys; py_compile.compile(sys.argv[1], doraise=True)";

/// The `random` seed of every run of a case under an interpreter: the first 8 bytes of a
/// SHA-256 of the exercise, the case's name, its input and the interpreter's version as
/// `major.minor` (so a patch release of the interpreter does not change it). Neither time nor
/// order: the same in every run, shard and machine.
pub fn for_case(exercise: &str, case: &str, input: &[u8], version: &str) -> u64 {
    let minor: Vec<&str> = version.splitn(3, '.').take(2).collect();
    let mut hash = Sha256::new();
    for part in [
        b"nimlab random seed 1".as_slice(),
        exercise.as_bytes(),
        case.as_bytes(),
        minor.join(".").as_bytes(),
    ] {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part);
    }
    hash.update((input.len() as u64).to_le_bytes());
    hash.update(input);
    let digest = hash.finalize();
    u64::from_be_bytes(digest[..8].try_into().expect("a SHA-256 is 32 bytes"))
}

/// nimlab's sitecustomize in a folder of its own (made on first use, shown read-only to the
/// sandbox, removed with the last runner holding it), with its bytecode for each interpreter
/// that has run it: compiled on every start, it would cost 1 to 3 ms of each one's 15 to 20
/// (measured), against half a millisecond loaded.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sitecustomize {
    folder: Arc<OnceLock<Result<tempfile::TempDir, String>>>,
    /// The interpreters it is compiled for (or could not be).
    compiled: Arc<Mutex<HashSet<PathBuf>>>,
}

/// A run's environment and visible folders with the sitecustomize's.
pub(crate) struct Seeded {
    env: Vec<(OsString, OsString)>,
    expose: Vec<PathBuf>,
}

impl Seeded {
    /// The run of `spec`, seeded.
    pub fn spec<'a>(&'a self, spec: &RunSpec<'a>) -> RunSpec<'a> {
        RunSpec {
            program: spec.program,
            args: spec.args.clone(),
            stdin: spec.stdin,
            workdir: spec.workdir,
            env: self.env.clone(),
            limits: spec.limits,
            expose: &self.expose,
            seed: None,
            stop: spec.stop,
        }
    }
}

impl Sitecustomize {
    fn folder(&self) -> Result<&Path, RunnerError> {
        let made = self.folder.get_or_init(|| {
            let folder = tempfile::Builder::new()
                .prefix(&format!("nimlab-{}-site-", std::process::id()))
                .tempdir()
                .map_err(|e| e.to_string())?;
            std::fs::write(folder.path().join("sitecustomize.py"), SITECUSTOMIZE)
                .map_err(|e| e.to_string())?;
            Ok(folder)
        });
        match made {
            Ok(folder) => Ok(folder.path()),
            Err(why) => Err(RunnerError::System {
                what: "cannot write nimlab's sitecustomize",
                source: std::io::Error::other(why.clone()),
            }),
        }
    }

    /// Has `interpreter` write its bytecode of the sitecustomize beside it, once (`site` reads it
    /// where it is newer than the source, as with any module; the runs themselves write none).
    /// The interpreter is the machine's, the file nimlab's: nothing of a student's runs. Where
    /// it cannot, each run compiles the file itself.
    fn compile_for(&self, interpreter: &Path, folder: &Path) {
        let Ok(mut compiled) = self.compiled.lock() else {
            return;
        };
        if !compiled.insert(interpreter.to_path_buf()) {
            return;
        }
        let _ = std::process::Command::new(interpreter)
            .args(["-E", "-S", "-c", COMPILE])
            .arg(folder.join("sitecustomize.py"))
            .env_clear()
            .current_dir(folder)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
    }

    /// For a fresh interpreter's run with a seed: its environment with the seed and the
    /// sitecustomize's folder first in PYTHONPATH (the sitecustomize takes both out again), and
    /// that folder among those it sees. None for a run without a seed.
    pub fn seeded(&self, spec: &RunSpec) -> Result<Option<Seeded>, RunnerError> {
        let Some(seed) = spec.seed else {
            return Ok(None);
        };
        let folder = self.folder()?;
        self.compile_for(spec.program, folder);
        let mut path = folder.as_os_str().to_os_string();
        let mut env: Vec<(OsString, OsString)> = Vec::with_capacity(spec.env.len() + 2);
        for (key, value) in &spec.env {
            if key == "PYTHONPATH" {
                path.push(":");
                path.push(value);
            } else if key != VARIABLE {
                env.push((key.clone(), value.clone()));
            }
        }
        env.push(("PYTHONPATH".into(), path));
        env.push((VARIABLE.into(), seed.to_string().into()));
        let mut expose = spec.expose.to_vec();
        expose.push(folder.to_path_buf());
        Ok(Some(Seeded { env, expose }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_is_the_case_and_the_interpreters_minor_version() {
        let seed = for_case("optimal_move", "sample/01", b"{\"board\": [1]}\n", "3.11.7");
        assert_eq!(
            seed,
            for_case("optimal_move", "sample/01", b"{\"board\": [1]}\n", "3.11.4")
        );
        for other in [
            for_case("optimal_move", "sample/01", b"{\"board\": [1]}\n", "2.7.18"),
            for_case("optimal_move", "sample/02", b"{\"board\": [1]}\n", "3.11.7"),
            for_case("optimal_move", "sample/01", b"{\"board\": [2]}\n", "3.11.7"),
            for_case("nim_sum", "sample/01", b"{\"board\": [1]}\n", "3.11.7"),
        ] {
            assert_ne!(seed, other);
        }
        // The same in every build (a grade depends on it): SHA-256, not Rust's hasher.
        assert_eq!(
            for_case("optimal_move", "sample/01", b"", "3.11"),
            5720113688096568182
        );
    }
}
