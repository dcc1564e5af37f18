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
    after_help = "Exit codes: 0 all accepted or done, 1 some case not accepted (or a fixture wrong), 2 usage or configuration error, 3 nimlab's own failure, 130 interrupted (Ctrl-C)."
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
    /// Make a lab from a contest system's task folders
    #[command(subcommand)]
    Import(ImportCommand),
    /// Write the lab in a contest system's format
    #[command(subcommand)]
    Export(ExportCommand),
    /// Judge one output as a contest system's checker (output validator) would
    Checker(CheckerArgs),
    /// Grade a class folder into a gradebook and reports
    Grade(GradeArgs),
    /// Combine the outputs of `grade --shard` runs into the reports one run gives
    Merge {
        /// The shards' output folders
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        #[arg(long, value_name = "OUT")]
        out: PathBuf,
    },
    /// Show which protections are active and which interpreters are found
    Doctor {
        /// Interpreters to look for, comma-separated (versions or paths)
        #[arg(
            long,
            value_delimiter = ',',
            value_name = "LIST",
            default_value = "3,2.7"
        )]
        python: Vec<String>,
    },
}

#[derive(Debug, Args)]
pub struct GradeArgs {
    /// The class folder: DIR/<student>/<exercise>.py, or flat <student>_..._<exercise>.py files
    pub dir: PathBuf,
    /// Where the gradebook and reports go (a cache there makes re-runs fast)
    #[arg(long, value_name = "OUT")]
    pub out: PathBuf,
    /// Interpreters, comma-separated (default: each exercise's own)
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub python: Option<Vec<String>>,
    /// Submissions graded at once (default: the number of cores)
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// A CSV with a `student` column (and `name`, `id`, `section`): who should have submitted
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    /// Grade only the K-th of N shards of the students (merge the outputs with `nimlab merge`)
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Grade everything again, ignoring the cache
    #[arg(long)]
    pub force: bool,
}

fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let (k, n) = text
        .split_once('/')
        .ok_or("write the shard as K/N, like 2/4")?;
    let (k, n): (usize, usize) = (
        k.trim()
            .parse()
            .map_err(|_| format!("`{k}` is not a shard number"))?,
        n.trim()
            .parse()
            .map_err(|_| format!("`{n}` is not a number of shards"))?,
    );
    if n == 0 || k == 0 || k > n {
        return Err(format!("shard {k}/{n}: K must be from 1 to N"));
    }
    Ok((k, n))
}

#[derive(Debug, Subcommand)]
pub enum ImportCommand {
    /// A CMS contest folder (contest.yaml) or task folder (task.yaml)
    Cms {
        src: PathBuf,
        /// The lab folder to create (use it with --lab)
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// A CMS contest folder (italy_yaml tasks); nimlab is the checker where needed
    Cms {
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Kattis problem packages (legacy format), one folder per exercise
    Kattis {
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("protocol").required(true))]
pub struct CheckerArgs {
    pub exercise: String,
    /// Kattis output validator: INPUT ANSWER FEEDBACK_DIR, the output on stdin; exits 42
    /// (accepted) or 43 (wrong answer)
    #[arg(long, num_args = 3, value_names = ["INPUT", "ANSWER", "FEEDBACK_DIR"], group = "protocol")]
    pub kattis: Option<Vec<PathBuf>>,
    /// CMS checker: INPUT ANSWER OUTPUT; prints the outcome (1.0 or 0.0), the message on stderr
    #[arg(long, num_args = 3, value_names = ["INPUT", "ANSWER", "OUTPUT"], group = "protocol")]
    pub cms: Option<Vec<PathBuf>>,
    /// Kattis input validator: the case on stdin; exits 42 when it is a valid case, 43 if not
    #[arg(long, group = "protocol")]
    pub input_validator: bool,
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
        Command::Import(ImportCommand::Cms { src, out }) => {
            let summary = crate::interop::cms::import(&src, &out)?;
            writeln!(
                stdout,
                "Imported {} exercise(s) with {} case(s) into {}: {}",
                summary.exercises.len(),
                summary.cases,
                out.display(),
                summary.exercises.join(", ")
            )?;
            for what in &summary.from_built_in {
                writeln!(stdout, "  taken from the built-in lab: {what}")?;
            }
            for file in &summary.not_imported {
                writeln!(stdout, "  not imported: {file}")?;
            }
            writeln!(
                stdout,
                "Use it with: nimlab --lab {} check FILE",
                out.display()
            )?;
            Ok(exit::SUCCESS)
        }
        Command::Export(command) => {
            let (format, out, skipped) = match command {
                ExportCommand::Cms { out } => (
                    "a CMS contest",
                    out.clone(),
                    crate::interop::cms::export(&lab, &out)?,
                ),
                ExportCommand::Kattis { out } => (
                    "Kattis problem packages",
                    out.clone(),
                    crate::interop::kattis::export(&lab, &out)?,
                ),
            };
            writeln!(stdout, "Wrote {format} to {}", out.display())?;
            for name in skipped {
                writeln!(
                    stdout,
                    "  left out {name}: it is interactive, judged by nimlab's game judge only"
                )?;
            }
            Ok(exit::SUCCESS)
        }
        Command::Checker(args) => checker(&lab, &args),
        Command::Doctor { python } => doctor(&python, &mut stdout),
        Command::Grade(args) => grade(&lab, &args, &mut stdout),
        Command::Merge { parts, out } => {
            let mut books = Vec::new();
            for part in &parts {
                let file = part.join("results.json");
                let bytes = std::fs::read(&file)
                    .with_context(|| format!("{}: cannot read", file.display()))?;
                books.push(serde_json::from_slice(&bytes).with_context(|| {
                    format!(
                        "{}: not a results.json written by nimlab grade",
                        file.display()
                    )
                })?);
            }
            let merged = crate::grade::merge(&books)?;
            crate::grade::export::write_all(&merged, &out)?;
            writeln!(
                stdout,
                "Merged {} shard(s), {} student(s), into {}",
                parts.len(),
                merged.students.len(),
                out.display()
            )?;
            Ok(exit::SUCCESS)
        }
    }
}

/// Ctrl-C stops the running programs (the runner's loops watch the flag) so that nimlab ends
/// as usual: its scratch folders removed, its reports whole.
fn stop_on_ctrl_c() {
    let _ = ctrlc::set_handler(|| {
        crate::runner::STOP.store(true, std::sync::atomic::Ordering::Relaxed)
    });
}

fn grade(lab: &Lab, args: &GradeArgs, out: &mut impl Write) -> Result<u8> {
    use std::io::IsTerminal;
    let jobs = args.jobs.unwrap_or_else(default_jobs);
    if jobs == 0 {
        bail!("--jobs must be at least 1");
    }
    // Ctrl-C stops the programs running and keeps what has finished.
    stop_on_ctrl_c();
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
    writeln!(
        out,
        "Graded {graded} submission(s) of {} student(s) into {}",
        book.students.len(),
        args.out.display()
    )?;
    for file in &book.unattributed {
        writeln!(out, "  not attributed to a student's exercise: {file}")?;
    }
    for file in &book.superseded {
        writeln!(
            out,
            "  not graded, another file counts: {} (graded instead: {})",
            file.file, file.graded
        )?;
    }
    writeln!(out, "  {}", book.isolation)?;
    if crate::runner::stopping() {
        writeln!(
            std::io::stderr(),
            "interrupted: the reports hold the submissions graded before Ctrl-C"
        )?;
        return Ok(exit::INTERRUPTED);
    }
    Ok(exit::SUCCESS)
}

fn doctor(interpreters: &[String], out: &mut impl Write) -> Result<u8> {
    use crate::runner::sandbox::Isolation;
    let isolation = Isolation::detect();
    writeln!(out, "nimlab {}", env!("CARGO_PKG_VERSION"))?;
    writeln!(out, "\n{}", isolation.summary())?;
    for (protection, active) in isolation.protections() {
        writeln!(out, "  [{}] {protection}", if active { "x" } else { " " })?;
    }
    writeln!(out, "\ninterpreters:")?;
    let mut found = 0;
    for request in interpreters {
        let resolved = crate::runner::interpreter::resolve(request);
        let Some(path) = resolved.path else {
            writeln!(
                out,
                "  {request:<5} not found (looked on PATH and in pyenv's versions)"
            )?;
            continue;
        };
        found += 1;
        let version = std::process::Command::new(&path)
            .args([
                "-c",
                "import sys; print('%d.%d.%d' % tuple(sys.version_info[:3]))",
            ])
            .env_clear()
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "?".into());
        // The median of a few starts: what every case pays before the student's code runs.
        let mut starts: Vec<std::time::Duration> = (0..5)
            .filter_map(|_| {
                let started = std::time::Instant::now();
                let status = std::process::Command::new(&path)
                    .args(["-c", "pass"])
                    .env_clear()
                    .status()
                    .ok()?;
                status.success().then(|| started.elapsed())
            })
            .collect();
        starts.sort();
        let start = starts.get(starts.len() / 2).map_or("?".into(), |d| {
            format!("{:.1} ms", d.as_secs_f64() * 1000.0)
        });
        writeln!(
            out,
            "  {request:<5} Python {version:<8} starts in {start:>8}  {}",
            path.display()
        )?;
    }
    Ok(if found > 0 {
        exit::SUCCESS
    } else {
        exit::USAGE
    })
}

/// `nimlab checker`: the protocol chosen on the command line, run by the interop module.
fn checker(lab: &Lab, args: &CheckerArgs) -> Result<u8> {
    use crate::interop::checker::{Protocol, run};
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
        (None, None) => bail!("choose a protocol: --kattis, --cms or --input-validator"),
    };
    run(lab.exercise(&args.exercise)?, &protocol)
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
        siblings: true,
    };
    let mut reporter: Box<dyn Reporter> = match args.format {
        Format::Text => Box::new(TextReporter::new(anstream::stdout())),
        Format::Json => Box::new(JsonReporter::new(std::io::stdout())),
    };
    stop_on_ctrl_c();
    let report = check::check(&request, &ProcessRunner::detect(), reporter.as_mut())?;
    if crate::runner::stopping() {
        let _ = writeln!(
            std::io::stderr(),
            "interrupted: the cases not finished before Ctrl-C were not judged"
        );
        return Ok(exit::INTERRUPTED);
    }
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
