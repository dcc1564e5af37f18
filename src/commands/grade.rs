//! `nimlab grade` and `nimlab merge`: a class folder into a gradebook and reports.

use super::stdout_error;
use crate::cli::GradeArgs;
use crate::error::{Error, Result};
use crate::exit;
use crate::lab::Lab;
use std::io::Write;
use std::path::PathBuf;

pub fn grade(lab: &Lab, args: &GradeArgs) -> Result<u8> {
    use std::io::IsTerminal;
    let jobs = super::jobs(args.jobs)?;
    // Ctrl-C stops the programs running and keeps what has finished.
    crate::stop::on_ctrl_c();
    let progress = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
    let options = crate::grade::GradeOptions {
        dir: &args.dir,
        out: &args.out,
        interpreters: args.python.clone(),
        jobs,
        roster: args.roster.as_deref(),
        shard: args.shard,
        force: args.force,
        progress,
    };
    let book = crate::grade::grade(lab, &options)?;
    let graded = book
        .students
        .iter()
        .flat_map(|s| s.exercises.values())
        .filter(|r| r.status == crate::grade::Status::Graded)
        .count();
    let mut out = anstream::stdout();
    let mut say = |line: String| writeln!(out, "{line}").map_err(stdout_error);
    say(format!(
        "Graded {graded} submission(s) of {} student(s) into {}",
        book.students.len(),
        args.out.display()
    ))?;
    for file in &book.unattributed {
        say(format!("  not attributed to a student's exercise: {file}"))?;
    }
    for file in &book.superseded {
        say(format!(
            "  not graded, another file counts: {} (graded instead: {})",
            file.file, file.graded
        ))?;
    }
    say(format!("  {}", book.isolation))?;
    if crate::stop::requested() {
        eprintln!("interrupted: the reports hold the submissions graded before Ctrl-C");
        return Ok(exit::INTERRUPTED);
    }
    Ok(exit::SUCCESS)
}

pub fn merge(parts: &[PathBuf], out: &std::path::Path) -> Result<u8> {
    let mut books = Vec::new();
    for part in parts {
        let file = part.join("results.json");
        let bytes = std::fs::read(&file).map_err(|e| Error::unreadable(&file, &e))?;
        books.push(serde_json::from_slice(&bytes).map_err(|e| {
            Error::input(
                &file,
                format!("not a results.json written by nimlab grade ({e})"),
            )
        })?);
    }
    let merged = crate::grade::merge(&books)?;
    crate::grade::export::write_all(&merged, out)?;
    writeln!(
        anstream::stdout(),
        "Merged {} shard(s), {} student(s), into {}",
        parts.len(),
        merged.students.len(),
        out.display()
    )
    .map_err(stdout_error)?;
    Ok(exit::SUCCESS)
}
