//! The command line: clap definitions and what each command does with the library.

use crate::check::{self, CheckRequest};
use crate::exit;
use crate::judge::Verdict;
use crate::lab::Lab;
use crate::report::{JsonReporter, Reporter, TextReporter};
use crate::runner::ProcessRunner;
use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(
    name = "nimlab",
    version,
    about = "Checks and grades the game-of-Nim lab's Python exercises",
    after_help = "Exit codes: 0 all accepted or done, 1 some case not accepted (or a fixture wrong), 2 usage or configuration error, 3 nimlab's own failure."
)]
pub struct Cli {
    /// Use the lab in this folder (exercises/ and fixtures/) instead of the built-in one
    #[arg(long, global = true, value_name = "DIR")]
    pub lab: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check a submission on every case of its exercise
    Check(CheckArgs),
    /// List the lab's exercises
    List,
    /// Print an exercise's statement
    Show { exercise: String },
    /// Write a student pack (statements, starter files, sample cases) into a new folder
    Init { dir: PathBuf },
    /// Print the reference answer for one case read from stdin
    Reference { exercise: String },
    /// Verify or generate fixtures
    #[command(subcommand)]
    Fixtures(FixturesCommand),
    /// Measure nimlab's own cost against running the interpreter by hand
    Bench(crate::bench::BenchArgs),
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The Python file to check
    pub file: PathBuf,
    /// The exercise (detected from the file name when left out)
    #[arg(long)]
    pub exercise: Option<String>,
    /// Interpreters to run under, comma-separated: versions (3, 2.7) or paths
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub python: Option<Vec<String>>,
    /// Cases run at once (default: the number of cores)
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum FixturesCommand {
    /// Check every fixture against the reference implementation
    Verify {
        /// Only these exercises
        exercises: Vec<String>,
    },
    /// Make new cases from a seed (the same seed gives the same cases)
    Generate {
        exercise: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 10)]
        count: usize,
        /// Folder to write NAME.in/NAME.out pairs into (existing files are never replaced)
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "error: {error:#}");
            ExitCode::from(exit::USAGE)
        }
    }
}

pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub fn run(cli: Cli) -> Result<u8> {
    let lab = Lab::load(cli.lab.as_deref())?;
    let mut stdout = anstream::stdout();
    match cli.command {
        Command::Check(args) => check(&lab, args),
        Command::List => {
            for exercise in &lab.exercises {
                let samples = exercise
                    .cases
                    .iter()
                    .filter(|c| c.visibility == crate::lab::Visibility::Sample)
                    .count();
                let secrets = exercise.cases.len() - samples;
                writeln!(
                    stdout,
                    "{:<14} {:<34} {:>2} sample, {:>2} secret  ({})",
                    exercise.name,
                    exercise.config.title,
                    samples,
                    secrets,
                    serde_json::to_value(exercise.config.comparison)?
                        .as_str()
                        .unwrap_or("")
                )?;
            }
            Ok(exit::SUCCESS)
        }
        Command::Show { exercise } => {
            let exercise = lab.exercise(&exercise)?;
            write!(stdout, "{}", exercise.statement)?;
            Ok(exit::SUCCESS)
        }
        Command::Init { dir } => {
            let files = crate::pack::init(&lab, &dir)?;
            writeln!(
                stdout,
                "Wrote {files} files to {}. Start with its README.md.",
                dir.display()
            )?;
            Ok(exit::SUCCESS)
        }
        Command::Reference { exercise } => {
            let exercise = lab.exercise(&exercise)?;
            let module = exercise.module.with_context(|| {
                format!("`{}` has no reference built into nimlab", exercise.name)
            })?;
            let mut input = String::new();
            std::io::stdin()
                .read_to_string(&mut input)
                .context("stdin: cannot read the case (is it UTF-8 text?)")?;
            let answer = module
                .reference(&input, &exercise.config)
                .map_err(|e| anyhow::anyhow!("stdin: {e}"))?;
            stdout.write_all(answer.as_bytes())?;
            Ok(exit::SUCCESS)
        }
        Command::Fixtures(FixturesCommand::Verify { exercises }) => {
            let found = crate::fixtures::verify(&lab, &exercises, &mut stdout)?;
            for d in &found {
                writeln!(
                    std::io::stderr(),
                    "{}: {}: {}",
                    d.exercise,
                    d.case,
                    d.problem
                )?;
            }
            Ok(if found.is_empty() {
                exit::SUCCESS
            } else {
                exit::NOT_ACCEPTED
            })
        }
        Command::Fixtures(FixturesCommand::Generate {
            exercise,
            seed,
            count,
            out,
        }) => {
            let exercise = lab.exercise(&exercise)?;
            let written = crate::fixtures::generate(exercise, seed, count, &out)?;
            writeln!(
                stdout,
                "Wrote {} case(s) to {}",
                written.len(),
                out.display()
            )?;
            Ok(exit::SUCCESS)
        }
        Command::Bench(args) => crate::bench::run(&lab, &args, &mut stdout),
    }
}

fn check(lab: &Lab, args: CheckArgs) -> Result<u8> {
    if !args.file.is_file() {
        bail!("{}: no such file", args.file.display());
    }
    let exercise = match &args.exercise {
        Some(name) => lab.exercise(name)?,
        None => lab.detect_exercise(&args.file).with_context(|| {
            format!(
                "{}: cannot tell which exercise this is from its name; pass --exercise NAME (one of: {})",
                args.file.display(),
                lab.names().join(", ")
            )
        })?,
    };
    let interpreters = args
        .python
        .clone()
        .unwrap_or_else(|| exercise.config.interpreters.clone());
    if interpreters.iter().any(|i| i.trim().is_empty()) {
        bail!("--python: an empty interpreter name in the list");
    }
    let jobs = args.jobs.unwrap_or_else(default_jobs);
    if jobs == 0 {
        bail!("--jobs must be at least 1");
    }
    let names = lab.names();
    let request = CheckRequest {
        exercise,
        lab_names: &names,
        submission: &args.file,
        interpreters: &interpreters,
        jobs,
    };
    let mut reporter: Box<dyn Reporter> = match args.format {
        Format::Text => Box::new(TextReporter::new(anstream::stdout())),
        Format::Json => Box::new(JsonReporter::new(std::io::stdout())),
    };
    let report = check::check(&request, &ProcessRunner, reporter.as_mut())?;
    Ok(match report.verdict {
        Verdict::Accepted => exit::SUCCESS,
        Verdict::JudgeError => exit::INTERNAL,
        // Nothing could be run: a configuration problem, not a failing submission.
        Verdict::Skipped => {
            let _ = writeln!(
                std::io::stderr(),
                "error: none of the interpreters ({}) is installed",
                interpreters.join(", ")
            );
            exit::USAGE
        }
        _ => exit::NOT_ACCEPTED,
    })
}
