//! What each command does: one function per command, each turning its parsed arguments into
//! calls on the library and its exit code. Nothing here judges; see `lib.rs` for the flow.

mod bench;
mod check;
mod classroom;
mod deadline;
mod doctor;
mod fixtures;
mod grade;
mod interop;
mod lab;
mod lti;
mod serve;
mod similarity;
mod users;

use crate::cli::{Cli, Command, ExportCommand, FixturesCommand, ImportCommand};
use nimlab_core::error::{Error, Result};
use nimlab_core::lab::Lab;

/// Runs one command line; returns the exit code (see [`nimlab_core::exit`]).
pub fn run(cli: Cli) -> Result<u8> {
    if let Command::ReapCgroups { owner, roots } = &cli.command {
        nimlab_core::runner::sandbox::reap_when_gone(*owner, roots)?;
        return Ok(nimlab_core::exit::SUCCESS);
    }
    let lab = Lab::load(cli.lab.as_deref())?;
    match cli.command {
        Command::Check(args) => check::check(&lab, &args),
        Command::List => lab::list(&lab),
        Command::Show { exercise } => lab::show(&lab, &exercise),
        Command::Init { dir, ci: None, .. } => {
            lab::init(&lab, dir.as_deref().unwrap_or(".".as_ref()))
        }
        Command::Init {
            dir,
            ci: Some(ci),
            wheel,
        } => classroom::init_ci(ci, dir.as_deref().unwrap_or(".".as_ref()), wheel.as_deref()),
        Command::Reference { exercise } => lab::reference(&lab, &exercise),
        Command::Fixtures(FixturesCommand::Verify { exercises }) => {
            fixtures::verify(&lab, &exercises)
        }
        Command::Fixtures(FixturesCommand::Generate {
            exercise,
            seed,
            count,
            out,
        }) => fixtures::generate(&lab, &exercise, seed, count, &out),
        Command::Bench(args) => bench::bench(&lab, &args),
        Command::Import(ImportCommand::Cms { src, out }) => interop::import_cms(&src, &out),
        Command::Export(ExportCommand::Cms { out }) => interop::export_cms(&lab, &out),
        Command::Export(ExportCommand::Kattis { out }) => interop::export_kattis(&lab, &out),
        Command::Export(ExportCommand::Submissions { db, out, from }) => {
            serve::export_submissions(&lab, &db, &out, from)
        }
        Command::Checker(args) => interop::checker(&lab, &args),
        Command::Grade(args) => grade::grade(&lab, &args),
        Command::Classroom(args) => classroom::classroom(&lab, &args),
        Command::Similarity(args) => similarity::similarity(&lab, &args),
        Command::Merge { parts, out } => grade::merge(&parts, &out),
        Command::Doctor { python } => doctor::doctor(&python),
        Command::Serve(args) => serve::serve(lab, &args),
        Command::Users(command) => users::users(&command),
        Command::Lti(command) => lti::lti(&command),
        Command::Deadline(command) => deadline::deadline(&lab, &command),
        Command::Backup { db, out } => serve::backup(&db, &out),
        Command::Restore { backup, db } => serve::restore(&backup, &db),
        Command::ReapCgroups { .. } => unreachable!("handled before the lab is loaded"),
    }
}

/// The jobs a command runs at once: `--jobs`, or one per core.
fn jobs(requested: Option<usize>) -> Result<usize> {
    match requested {
        Some(0) => Err(Error::usage("--jobs must be at least 1")),
        Some(n) => Ok(n),
        None => Ok(nimlab_core::pool::default_jobs()),
    }
}

/// The runner a `--runner` choice names, with the strongest isolation this machine allows.
fn runner(choice: crate::cli::RunnerChoice) -> Box<dyn nimlab_core::runner::Runner> {
    match choice {
        crate::cli::RunnerChoice::Fork => Box::new(nimlab_core::runner::ForkRunner::detect()),
        crate::cli::RunnerChoice::Process => Box::new(nimlab_core::runner::ProcessRunner::detect()),
    }
}

/// Writes to stdout; a closed stdout (`nimlab list | head`) is not nimlab's failure.
fn stdout_error(source: std::io::Error) -> Error {
    if source.kind() == std::io::ErrorKind::BrokenPipe {
        return Error::ClosedOutput;
    }
    Error::internal("cannot write to stdout", source)
}
