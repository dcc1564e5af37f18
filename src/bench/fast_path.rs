//! The fast path (`--runner fork`) paired with the process path in one run: one isolated case
//! through each runner, case by case and alternating (so load elsewhere on the machine hits
//! both alike), the fork server's start (once per submission, or student, and interpreter),
//! and a whole `nimlab check --jobs 1` with each runner against running the exercise's
//! interpreters by hand once per case.

use super::common::{self, median, ms, stdout_error, verdict};
use super::{About, Solution};
use nimlab_core::error::{Error, Result};
use nimlab_core::runner::{
    ForkRunner, ProcessRunner, RunLimits, RunSpec, RunWay, Runner, interpreter,
};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// One case through each runner, as measured.
enum OneCase {
    /// The fork server does not start here: how the run was made instead.
    NotAvailable(RunWay),
    Measured(Measured),
}

/// Times in milliseconds; of runs, the medians.
struct Measured {
    /// The isolation both runners ran in, as it describes itself.
    isolation: String,
    /// One case through each runner.
    per_process: f64,
    per_fork: f64,
    /// The runs each of those is the median of.
    runs: usize,
    /// The fork server's start, and a later server's of the same interpreter (None: it did
    /// not start).
    server_start: f64,
    later_start: Option<f64>,
}

/// A whole check (medians, in milliseconds).
struct WholeCheck {
    /// The exercise's interpreters started by hand once per case.
    hand: f64,
    /// `nimlab check --jobs 1` with each runner.
    process: f64,
    fork: f64,
}

/// Measures one case through each runner and prints it; then, where the fast path is
/// available, the whole check.
pub(super) fn run(solution: &Solution, out: &mut impl Write) -> Result<()> {
    let about = solution.about();
    match one_case(solution)? {
        OneCase::NotAvailable(way) => print_not_available(&way, out),
        OneCase::Measured(measured) => {
            print_one_case(&about, &measured, out)?;
            let whole = whole_check(solution)?;
            print_whole_check(&about, &whole, out)
        }
    }
}

fn one_case(solution: &Solution) -> Result<OneCase> {
    let process = ProcessRunner::detect();
    let fork = ForkRunner::detect();
    let cases = Cases::new(solution)?;
    // The server's start: the interpreter, the sandbox, and compiling the file, once.
    let started = Instant::now();
    if fork.compile(&cases.spec(0)).is_none() {
        let (_, way) = cases.time(&fork, 0)?;
        return Ok(OneCase::NotAvailable(way));
    }
    let server_start = ms(started.elapsed());
    let later_start = cases.later_start(&fork)?;
    let (per_process, per_fork) = cases.paired(&process, &fork)?;
    fork.finished_with(&cases.expose);
    Ok(OneCase::Measured(Measured {
        isolation: nimlab_core::runner::sandbox::Isolation::detect().summary(),
        per_process,
        per_fork,
        runs: solution.exercise.cases.len() * solution.repeat.max(2),
        server_start,
        later_start,
    }))
}

/// The exercise's cases as the runners run them, each in a working folder of its own.
struct Cases<'a> {
    solution: &'a Solution<'a>,
    scratch: tempfile::TempDir,
    /// The solution's folder, which the program may read.
    expose: [PathBuf; 1],
    limits: RunLimits,
    workdirs: Vec<PathBuf>,
}

impl<'a> Cases<'a> {
    fn new(solution: &'a Solution<'a>) -> Result<Cases<'a>> {
        let scratch = common::scratch()?;
        let expose = [solution.folder.path().to_path_buf()];
        let limits = RunLimits::from(&solution.exercise.config.limits);
        let workdirs: Vec<PathBuf> = (0..solution.exercise.cases.len())
            .map(|i| scratch.path().join("run").join(format!("case-{i}")))
            .collect();
        for workdir in &workdirs {
            std::fs::create_dir_all(workdir)
                .map_err(|e| Error::internal("cannot create a working folder", e))?;
        }
        Ok(Cases {
            solution,
            scratch,
            expose,
            limits,
            workdirs,
        })
    }

    fn spec(&self, index: usize) -> RunSpec<'_> {
        RunSpec {
            program: &self.solution.python,
            args: vec![self.solution.file.clone().into()],
            stdin: self.solution.exercise.cases[index].input.stdin(),
            workdir: &self.workdirs[index],
            env: nimlab_core::check::clean_env(&self.workdirs[index]),
            limits: self.limits,
            expose: &self.expose,
            // (Seeded as check's runs are: a fresh interpreter's start includes the seeding.)
            seed: Some(index as u64),
            stop: nimlab_core::stop::Stop::never(),
        }
    }

    /// Case `index` through `runner`, in milliseconds, and how it was run; fails unless the
    /// solution succeeds.
    fn time(&self, runner: &dyn Runner, index: usize) -> Result<(f64, RunWay)> {
        let started = Instant::now();
        let outcome = runner.run(&self.spec(index))?;
        let elapsed = ms(started.elapsed());
        if !outcome.success() {
            return Err(Error::fault(format!(
                "the model solution of {} failed while timed",
                self.solution.exercise.name
            )));
        }
        Ok((elapsed, outcome.way))
    }

    /// A later server of the same interpreter, for another submission (grade starts one per
    /// student): it loads the server's code that the first one compiled. Its start, in
    /// milliseconds.
    fn later_start(&self, fork: &ForkRunner) -> Result<Option<f64>> {
        let again = [self.expose[0].clone(), self.scratch.path().join("again")];
        std::fs::create_dir_all(&again[1])
            .map_err(|e| Error::internal("cannot create a working folder", e))?;
        let started = Instant::now();
        let later = fork.compile(&RunSpec {
            expose: &again,
            ..self.spec(0)
        });
        Ok(later.map(|_| ms(started.elapsed())))
    }

    /// One case through each runner: the medians, in milliseconds.
    fn paired(&self, process: &ProcessRunner, fork: &ForkRunner) -> Result<(f64, f64)> {
        let (mut by_process, mut by_fork) = (Vec::new(), Vec::new());
        self.time(process, 0)?;
        // All the cases through one runner, then through the other, the order alternating
        // from one repetition to the next: a process run leaves work behind for the kernel
        // (its sandbox torn down) that would fall on a fork run made right after it.
        for round in 0..self.solution.repeat.max(2) {
            for forked in [round % 2 == 1, round % 2 == 0] {
                for index in 0..self.workdirs.len() {
                    if forked {
                        let (elapsed, way) = self.time(fork, index)?;
                        if way != RunWay::Fork {
                            return Err(Error::fault(format!(
                                "the fast path fell back to a process while timed: {way:?}"
                            )));
                        }
                        by_fork.push(elapsed);
                    } else {
                        by_process.push(self.time(process, index)?.0);
                    }
                }
            }
        }
        let median_of = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        Ok((median_of(by_process), median_of(by_fork)))
    }
}

/// A whole check, each runner, against the same interpreters run by hand on the cases.
fn whole_check(solution: &Solution) -> Result<WholeCheck> {
    let interpreters: Vec<PathBuf> = solution
        .exercise
        .config
        .interpreters
        .iter()
        .filter_map(|request| interpreter::resolve(request).path)
        .collect();
    let by_hand = || -> Result<Duration> {
        let started = Instant::now();
        for python in &interpreters {
            for case in &solution.exercise.cases {
                common::run_by_hand(
                    python,
                    &solution.file,
                    solution.folder.path(),
                    case.input.stdin(),
                )?;
            }
        }
        Ok(started.elapsed())
    };
    let (mut hand, mut process, mut fork) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..solution.repeat {
        hand.push(by_hand()?);
        process.push(common::timed_check(solution, "process")?);
        fork.push(common::timed_check(solution, "fork")?);
    }
    Ok(WholeCheck {
        hand: ms(median(hand)),
        process: ms(median(process)),
        fork: ms(median(fork)),
    })
}

fn print_not_available(way: &RunWay, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "  fast path: not available here ({way:?}), so not measured"
    )
    .map_err(stdout_error)
}

fn print_one_case(about: &About, measured: &Measured, out: &mut impl Write) -> Result<()> {
    let Measured {
        ref isolation,
        per_process,
        per_fork,
        runs,
        server_start,
        later_start,
    } = *measured;
    writeln!(
        out,
        "fast path (--runner fork) paired with the process path in this run, {isolation}:",
    )
    .map_err(stdout_error)?;
    writeln!(
        out,
        "  one case, {}: process {per_process:8.2} ms, fork {per_fork:6.2} ms ({:.1}x less; {}: at most 2 ms), median of {runs} runs each",
        about.python.display(),
        per_process / per_fork,
        verdict(per_fork <= 2.0),
    ).map_err(stdout_error)?;
    writeln!(
        out,
        "  the fork server's start (once per submission, or student in grade, and interpreter): {server_start:.1} ms"
    )
    .map_err(stdout_error)?;
    if let Some(later_start) = later_start {
        writeln!(
            out,
            "  a later fork server of the same interpreter (its code compiled by the first): {later_start:.1} ms"
        )
        .map_err(stdout_error)?;
    }
    Ok(())
}

fn print_whole_check(about: &About, whole: &WholeCheck, out: &mut impl Write) -> Result<()> {
    let WholeCheck {
        hand,
        process,
        fork,
    } = *whole;
    writeln!(
        out,
        "  whole check, Python {} ({} cases each), median of {}:",
        about.interpreters.join(" and "),
        about.cases,
        about.repeat
    )
    .map_err(stdout_error)?;
    writeln!(out, "    by hand, one start per case:        {hand:8.1} ms").map_err(stdout_error)?;
    writeln!(
        out,
        "    nimlab check --jobs 1 --runner process: {process:8.1} ms  {:.2}x the hand run",
        process / hand
    )
    .map_err(stdout_error)?;
    writeln!(
        out,
        "    nimlab check --jobs 1 --runner fork:    {fork:8.1} ms  {:.2}x the hand run ({}: below 1.0)",
        fork / hand,
        verdict(fork < hand)
    ).map_err(stdout_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::common::test::{ISOLATION, about, printed};

    #[test]
    fn the_report_reads_as_a_bench_run_printed_it() {
        let about = about("exclusive_or", 12);
        let measured = Measured {
            isolation: ISOLATION.to_string(),
            per_process: 135.38,
            per_fork: 7.59,
            runs: 24,
            server_start: 273.7,
            later_start: Some(170.8),
        };
        let whole = WholeCheck {
            hand: 1357.6,
            process: 2454.4,
            fork: 520.0,
        };
        let text = printed(|out| {
            print_one_case(&about, &measured, out)?;
            print_whole_check(&about, &whole, out)
        });
        assert_eq!(
            text,
            "fast path (--runner fork) paired with the process path in this run, isolated with bubblewrap: no network, private filesystem, processes and /tmp; at most 64 processes; one memory limit for the whole run:
  one case, /root/.pyenv/versions/3.11.7/bin/python3: process   135.38 ms, fork   7.59 ms (17.8x less; goal missed: at most 2 ms), median of 24 runs each
  the fork server's start (once per submission, or student in grade, and interpreter): 273.7 ms
  a later fork server of the same interpreter (its code compiled by the first): 170.8 ms
  whole check, Python 3 and 2.7 (12 cases each), median of 1:
    by hand, one start per case:          1357.6 ms
    nimlab check --jobs 1 --runner process:   2454.4 ms  1.81x the hand run
    nimlab check --jobs 1 --runner fork:       520.0 ms  0.38x the hand run (goal met: below 1.0)
"
        );
    }

    #[test]
    fn without_a_fork_server_the_report_says_how_the_run_was_made() {
        let way = RunWay::Fallback("no server".to_string());
        assert_eq!(
            printed(|out| print_not_available(&way, out)),
            "  fast path: not available here (Fallback(\"no server\")), so not measured\n"
        );
    }
}
