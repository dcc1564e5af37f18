//! `nimlab import`, `export` and `checker`: the lab in and out of contest systems.

use super::stdout_error;
use crate::cli::CheckerArgs;
use crate::error::{Error, Result};
use crate::exit;
use crate::lab::Lab;
use std::io::{Read, Write};
use std::path::Path;

pub fn import_cms(src: &Path, out: &Path) -> Result<u8> {
    let summary = crate::interop::cms::import(src, out)?;
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
    let skipped = crate::interop::cms::export(lab, out)?;
    exported("a CMS contest", out, &skipped)
}

pub fn export_kattis(lab: &Lab, out: &Path) -> Result<u8> {
    let skipped = crate::interop::kattis::export(lab, out)?;
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

/// Exit codes of the Kattis validator protocol.
const KATTIS_ACCEPTED: u8 = 42;
const KATTIS_WRONG: u8 = 43;

fn read(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| Error::unreadable(path, &e))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

pub fn checker(lab: &Lab, args: &CheckerArgs) -> Result<u8> {
    use crate::interop::{Decision, decide, input_is_valid};
    let exercise = lab.exercise(&args.exercise)?;
    if args.input_validator {
        let mut input = String::new();
        std::io::stdin()
            .read_to_string(&mut input)
            .map_err(|e| Error::input("stdin", format!("cannot read the case ({e})")))?;
        return Ok(match input_is_valid(exercise, &input) {
            Ok(()) => KATTIS_ACCEPTED,
            Err(why) => {
                eprintln!("invalid case: {why}");
                KATTIS_WRONG
            }
        });
    }
    if let Some(paths) = &args.kattis {
        let (input, answer, feedback) = (read(&paths[0])?, read(&paths[1])?, &paths[2]);
        let mut output = Vec::new();
        std::io::stdin()
            .read_to_end(&mut output)
            .map_err(|e| Error::input("stdin", format!("cannot read the output ({e})")))?;
        let decision = decide(exercise, &input, &answer, &String::from_utf8_lossy(&output))?;
        let (code, message) = match decision {
            Decision::Accepted => (KATTIS_ACCEPTED, "accepted".to_string()),
            Decision::Wrong(why) => (KATTIS_WRONG, why),
        };
        let message_file = feedback.join("judgemessage.txt");
        std::fs::write(&message_file, format!("{message}\n"))
            .map_err(|e| Error::unwritable(&message_file, e))?;
        return Ok(code);
    }
    let paths = args.cms.as_ref().expect("clap requires one protocol");
    let (input, answer, output) = (read(&paths[0])?, read(&paths[1])?, read(&paths[2])?);
    let (outcome, message) = match decide(exercise, &input, &answer, &output)? {
        Decision::Accepted => ("1.0", "Output is correct".to_string()),
        Decision::Wrong(why) => ("0.0", why),
    };
    println!("{outcome}");
    eprintln!("{message}");
    Ok(exit::SUCCESS)
}
