//! Commands that show the lab: `list`, `show`, `init`, `reference`.

use super::stdout_error;
use nimlab_core::error::{Error, Result};
use nimlab_core::exit;
use nimlab_core::lab::{Lab, Visibility};
use std::io::{Read, Write};
use std::path::Path;

pub fn list(lab: &Lab) -> Result<u8> {
    let mut out = anstream::stdout();
    for exercise in &lab.exercises {
        let samples = exercise
            .cases
            .iter()
            .filter(|c| c.visibility == Visibility::Sample)
            .count();
        let secrets = exercise.cases.len() - samples;
        writeln!(
            out,
            "{:<14} {:<34} {:>2} sample, {:>2} secret  ({})",
            exercise.name,
            exercise.config.title,
            samples,
            secrets,
            exercise.judging_label()
        )
        .map_err(stdout_error)?;
    }
    Ok(exit::SUCCESS)
}

pub fn show(lab: &Lab, exercise: &str) -> Result<u8> {
    let exercise = lab.exercise(exercise)?;
    write!(anstream::stdout(), "{}", exercise.statement).map_err(stdout_error)?;
    Ok(exit::SUCCESS)
}

pub fn init(lab: &Lab, dir: &Path) -> Result<u8> {
    let files = nimlab_core::pack::init(lab, dir)?;
    writeln!(
        anstream::stdout(),
        "Wrote {files} files to {}. Start with its README.md.",
        dir.display()
    )
    .map_err(stdout_error)?;
    Ok(exit::SUCCESS)
}

pub fn reference(lab: &Lab, exercise: &str) -> Result<u8> {
    let exercise = lab.exercise(exercise)?;
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| Error::input("stdin", format!("cannot read the case ({e})")))?;
    let answer = exercise.reference(&input)?;
    anstream::stdout()
        .write_all(answer.as_bytes())
        .map_err(stdout_error)?;
    Ok(exit::SUCCESS)
}
