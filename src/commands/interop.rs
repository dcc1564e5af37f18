//! `nimlab import`, `export` and `checker`: the lab in and out of contest systems.

use super::stdout_error;
use crate::cli::CheckerArgs;
use nimlab_core::error::{Error, Result};
use nimlab_core::exit;
use nimlab_core::lab::Lab;
use std::io::Write;
use std::path::{Path, PathBuf};

pub fn import_cms(src: &Path, out: &Path) -> Result<u8> {
    let summary = nimlab_core::interop::cms::import(src, out)?;
    let mut stdout = anstream::stdout();
    let mut say = |line: String| writeln!(stdout, "{line}").map_err(stdout_error);
    say(format!(
        "Imported {} exercise(s) with {} case(s) into {}: {}",
        summary.exercises.len(),
        summary.cases,
        out.display(),
        summary.exercises.join(", ")
    ))?;
    for what in &summary.from_built_in {
        say(format!("  taken from the built-in lab: {what}"))?;
    }
    for file in &summary.not_imported {
        say(format!("  not imported: {file}"))?;
    }
    say(format!(
        "Use it with: nimlab --lab {} check FILE",
        out.display()
    ))?;
    Ok(exit::SUCCESS)
}

pub fn export_cms(lab: &Lab, out: &Path) -> Result<u8> {
    let skipped = nimlab_core::interop::cms::export(lab, out)?;
    exported("a CMS contest", out, &skipped)
}

pub fn export_kattis(lab: &Lab, out: &Path) -> Result<u8> {
    let skipped = nimlab_core::interop::kattis::export(lab, out)?;
    exported("Kattis problem packages", out, &skipped)
}

fn exported(format: &str, out: &Path, skipped: &[String]) -> Result<u8> {
    let mut stdout = anstream::stdout();
    writeln!(stdout, "Wrote {format} to {}", out.display()).map_err(stdout_error)?;
    for name in skipped {
        writeln!(
            stdout,
            "  left out {name}: it is interactive, judged by nimlab's game judge only"
        )
        .map_err(stdout_error)?;
    }
    Ok(exit::SUCCESS)
}

/// `nimlab checker`: the protocol chosen on the command line, run by the interop module.
pub fn checker(lab: &Lab, args: &CheckerArgs) -> Result<u8> {
    use nimlab_core::interop::checker::{Protocol, run};
    let files = |paths: &[PathBuf]| (paths[0].clone(), paths[1].clone(), paths[2].clone());
    let protocol = match (&args.kattis, &args.cms) {
        _ if args.input_validator => Protocol::InputValidator,
        (Some(paths), _) => {
            let (input, answer, feedback) = files(paths);
            Protocol::Kattis {
                input,
                answer,
                feedback,
            }
        }
        (None, Some(paths)) => {
            let (input, answer, output) = files(paths);
            Protocol::Cms {
                input,
                answer,
                output,
            }
        }
        (None, None) => {
            return Err(Error::usage(
                "choose a protocol: --kattis, --cms or --input-validator",
            ));
        }
    };
    run(lab.exercise(&args.exercise)?, &protocol)
}
