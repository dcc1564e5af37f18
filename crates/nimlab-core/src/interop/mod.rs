//! Moving labs between nimlab and contest systems: CMS task folders (import and export),
//! Kattis problem packages (export), and nimlab as the checker inside those systems.

pub mod checker;
pub mod cms;
pub mod kattis;

use crate::error::{BadInput, Error, Result};
pub(crate) use crate::fsutil::write_folder;
use crate::judge::{Verdict, output_judge};
use crate::lab::{Case, CaseInput, LabExercise, Visibility};
use std::path::Path;

/// A checker's decision on one output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Accepted,
    Wrong(String),
}

/// Judges `output` for the case `input` with the expected `answer`, as nimlab would: by the
/// exercise's comparison mode or its checker. An error means the exercise has no output to
/// check (the caller's), or nimlab could not judge it (a judge error, nimlab's own).
pub fn decide(exercise: &LabExercise, input: &str, answer: &str, output: &str) -> Result<Decision> {
    let Ok(judge) = output_judge(exercise.judging()) else {
        return Err(Error::usage(format!(
            "{} is interactive: it has no output to check",
            exercise.name
        )));
    };
    let case = Case {
        name: "case".into(),
        visibility: Visibility::Secret,
        input: CaseInput::Stdin(input.to_string()),
        expected: answer.to_string(),
        stored_expected: answer.to_string(),
        weight: 1,
    };
    let judgement = judge.judge(&case, output);
    match judgement.verdict {
        Verdict::Accepted => Ok(Decision::Accepted),
        Verdict::JudgeError => Err(Error::fault(judgement.message)),
        _ => Ok(Decision::Wrong(judgement.message)),
    }
}

/// Whether `input` is a case the exercise can be asked: its reference reads it.
pub fn input_is_valid(exercise: &LabExercise, input: &str) -> Result<(), BadInput> {
    match exercise.module.filter(|_| exercise.has_reference()) {
        Some(module) => module.reference(input, &exercise.settings).map(|_| ()),
        None => Ok(()),
    }
}

/// Writes a file below `root`, creating its folders. `relative` must stay below `root`: a
/// path with `..`, `.`, or a root is refused, whatever built it. Every failure is nimlab's:
/// the folder being written is its own staging folder.
pub(crate) fn put(root: &Path, relative: &str, contents: &[u8]) -> Result<()> {
    use std::path::Component;
    let below = Path::new(relative)
        .components()
        .all(|c| matches!(c, Component::Normal(_)));
    if !below || relative.is_empty() {
        return Err(Error::fault(format!(
            "`{relative}`: not a path inside the folder being written"
        )));
    }
    let path = root.join(relative);
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder)
            .map_err(|e| Error::internal(format!("{}: cannot create", folder.display()), e))?;
    }
    std::fs::write(&path, contents).map_err(|e| Error::unwritable(&path, e))
}

/// Writes an executable shell script below `root`.
pub(crate) fn put_script(root: &Path, relative: &str, body: &str) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    put(root, relative, format!("#!/bin/sh\n{body}").as_bytes())?;
    let path = root.join(relative);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| Error::internal(format!("{}: cannot make it executable", path.display()), e))
}
