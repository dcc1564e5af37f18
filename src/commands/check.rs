//! `nimlab check FILE`: one submission, every case of its exercise, under each interpreter.

use crate::cli::{CheckArgs, Format};
use nimlab_core::check::{self, CheckRequest};
use nimlab_core::error::{Error, Result};
use nimlab_core::exit;
use nimlab_core::judge::Verdict;
use nimlab_core::lab::Lab;
use nimlab_core::report::{JsonReporter, Reporter, StudentView, TextReporter};
use nimlab_core::stop::Stop;

pub fn check(lab: &Lab, args: &CheckArgs) -> Result<u8> {
    // Whether it is a file nimlab can read is the check's to say (a FIFO is refused there).
    if std::fs::symlink_metadata(&args.file).is_err() {
        return Err(Error::input(&args.file, "no such file"));
    }
    let exercise = match &args.exercise {
        Some(name) => lab.exercise(name)?,
        None => lab.detect_exercise(&args.file).ok_or_else(|| {
            Error::input(
                &args.file,
                format!(
                    "cannot tell which exercise this is from its name; pass --exercise NAME (one of: {})",
                    lab.names().join(", ")
                ),
            )
        })?,
    };
    let interpreters = args
        .python
        .clone()
        .unwrap_or_else(|| exercise.config.interpreters.clone());
    if interpreters.iter().any(|i| i.trim().is_empty()) {
        return Err(Error::usage(
            "--python: an empty interpreter name in the list",
        ));
    }
    let names = lab.names();
    // Ctrl-C stops the programs running; what was cut short is reported as not judged.
    let stop = Stop::on_ctrl_c();
    let request = CheckRequest {
        exercise,
        lab_names: &names,
        lab_exercises: &lab.exercises,
        submission: &args.file,
        shown_as: None,
        interpreters: &interpreters,
        jobs: super::jobs(args.jobs)?,
        siblings: true,
        shared: None,
        runs_side_by_side: true,
        stop: &stop,
    };
    let mut reporter: Box<dyn Reporter> = match args.format {
        Format::Text => Box::new(TextReporter::new(anstream::stdout())),
        Format::Json => Box::new(JsonReporter::new(std::io::stdout())),
    };
    // Students run `check`: what they see is theirs unless the instructor asks for all.
    if !args.instructor {
        reporter = Box::new(StudentView(reporter));
    }
    let runner = super::runner(args.runner);
    let report = check::check(&request, runner.as_ref(), reporter.as_mut())?;
    if stop.requested() {
        eprintln!("interrupted: the cases not finished before Ctrl-C were not judged");
        return Ok(exit::INTERRUPTED);
    }
    Ok(match report.verdict {
        Verdict::Accepted => exit::SUCCESS,
        Verdict::JudgeError => exit::INTERNAL,
        // Nothing could be run: a configuration problem, not a failing submission.
        Verdict::Skipped => {
            eprintln!(
                "error: none of the interpreters ({}) is installed",
                interpreters.join(", ")
            );
            exit::USAGE
        }
        _ => exit::NOT_ACCEPTED,
    })
}
