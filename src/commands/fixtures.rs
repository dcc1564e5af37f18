//! `nimlab fixtures verify|generate`.

use super::stdout_error;
use nimlab_core::error::Result;
use nimlab_core::exit;
use nimlab_core::lab::Lab;
use std::io::Write;
use std::path::Path;

pub fn verify(lab: &Lab, exercises: &[String]) -> Result<u8> {
    let mut out = anstream::stdout();
    let found = nimlab_core::fixtures::verify(lab, exercises, &mut out)?;
    for d in &found {
        eprintln!("{}: {}: {}", d.exercise, d.case, d.problem);
    }
    Ok(if found.is_empty() {
        exit::SUCCESS
    } else {
        exit::NOT_ACCEPTED
    })
}

pub fn generate(lab: &Lab, exercise: &str, seed: u64, count: usize, out: &Path) -> Result<u8> {
    let exercise = lab.exercise(exercise)?;
    let written = nimlab_core::fixtures::generate(exercise, seed, count, out)?;
    writeln!(
        anstream::stdout(),
        "Wrote {} case(s) to {}",
        written.len(),
        out.display()
    )
    .map_err(stdout_error)?;
    Ok(exit::SUCCESS)
}
