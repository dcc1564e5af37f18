//! A game exercise timed: each scenario's whole judged game, the program's CPU time and the
//! judge's; then its whole check with each runner.

use super::common::{self, median, ms, stdout_error};
use super::{About, Solution};
use nimlab_core::error::{Error, Result};
use nimlab_core::exercises::{Interactive, Parsed};
use nimlab_core::lab::{Case, CaseInput};
use nimlab_core::runner::{ProcessRunner, RunLimits, RunSpec, Runner};
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// One scenario, the medians of its games.
struct Scenario {
    name: String,
    moves: usize,
    /// The whole game.
    wall: Duration,
    /// The program's CPU time.
    program: Duration,
    /// The judge's CPU time.
    judge: Duration,
}

/// One game played.
struct Game {
    moves: usize,
    wall: Duration,
    program: Duration,
    judge: Duration,
}

/// Per game on average over the scenarios, in milliseconds.
struct Average {
    game: f64,
    program: f64,
    judge: f64,
}

/// The whole check with each runner (medians, in milliseconds).
struct WholeCheck {
    by_process: f64,
    by_fork: f64,
}

/// Times the solution's games, each scenario's line printed as it is measured, then its
/// whole check.
pub(super) fn run(
    solution: &Solution,
    interactive: &dyn Interactive,
    out: &mut impl Write,
) -> Result<u8> {
    let about = solution.about();
    print_header(&about, out)?;
    let player = Player::new(solution)?;
    let mut scenarios = Vec::new();
    for case in &solution.exercise.cases {
        let scenario = player.time(case, interactive)?;
        print_scenario(&scenario, out)?;
        scenarios.push(scenario);
    }
    print_average(&average(&scenarios), out)?;
    let whole = whole_check(solution)?;
    print_whole_check(&about, &whole, out)?;
    Ok(nimlab_core::exit::SUCCESS)
}

/// CPU time this thread has used: the judge's own work, apart from the program's.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: fills a timespec on the stack.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// What the solution's games are played with.
struct Player<'a> {
    solution: &'a Solution<'a>,
    runner: ProcessRunner,
    limits: RunLimits,
    env: Vec<(OsString, OsString)>,
    /// The solution's folder, which the program may read.
    folder: PathBuf,
    /// The program's working folder is separate from its own files (a sandbox replaces it).
    scratch: tempfile::TempDir,
}

impl<'a> Player<'a> {
    fn new(solution: &'a Solution<'a>) -> Result<Player<'a>> {
        let limits = RunLimits::from(&solution.exercise.config.limits);
        let runner = ProcessRunner::detect();
        let env = vec![
            ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
            ("PYTHONUNBUFFERED".into(), "1".into()),
            ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
        ];
        let folder = solution
            .file
            .parent()
            .expect("a file in a folder")
            .to_path_buf();
        Ok(Player {
            solution,
            runner,
            limits,
            env,
            folder,
            scratch: common::scratch()?,
        })
    }

    /// Plays `case`'s scenario as many times as asked: the medians.
    fn time(&self, case: &Case, interactive: &dyn Interactive) -> Result<Scenario> {
        let CaseInput::Scenario {
            parsed: scenario, ..
        } = &case.input
        else {
            return Err(Error::fault(format!(
                "{}: an interactive case without a scenario",
                case.name
            )));
        };
        let (mut walls, mut programs, mut judges, mut moves) =
            (Vec::new(), Vec::new(), Vec::new(), 0);
        for _ in 0..self.solution.repeat {
            let game = self.play(case, scenario, interactive)?;
            walls.push(game.wall);
            programs.push(game.program);
            judges.push(game.judge);
            moves = game.moves;
        }
        Ok(Scenario {
            name: case.name.clone(),
            moves,
            wall: median(walls),
            program: median(programs),
            judge: median(judges),
        })
    }

    /// One game of `case`, judged; fails unless the solution is accepted.
    fn play(&self, case: &Case, scenario: &Parsed, interactive: &dyn Interactive) -> Result<Game> {
        let started = Instant::now();
        let judge_started = thread_cpu();
        let spec = RunSpec {
            program: &self.solution.python,
            args: vec![self.solution.file.clone().into()],
            stdin: b"",
            env: self.env.clone(),
            workdir: self.scratch.path(),
            expose: std::slice::from_ref(&self.folder),
            seed: None,
            limits: self.limits,
            stop: nimlab_core::stop::Stop::never(),
        };
        let mut session = self.runner.start(&spec)?;
        let result = interactive.play(scenario, session.as_mut());
        let end = session.finish()?;
        let judge = thread_cpu() - judge_started;
        let wall = started.elapsed();
        if result.verdict != nimlab_core::judge::Verdict::Accepted {
            return Err(Error::fault(format!(
                "{}: the model solution was not accepted: {}",
                case.name, result.message
            )));
        }
        Ok(Game {
            moves: result.moves,
            wall,
            program: end.cpu,
            judge,
        })
    }
}

fn average(scenarios: &[Scenario]) -> Average {
    let (mut game, mut program, mut judge) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for scenario in scenarios {
        game += scenario.wall;
        program += scenario.program;
        judge += scenario.judge;
    }
    let n = scenarios.len() as f64;
    Average {
        game: ms(game) / n,
        program: ms(program) / n,
        judge: ms(judge) / n,
    }
}

/// A game exercise's whole check with each runner, under the exercise's interpreters.
fn whole_check(solution: &Solution) -> Result<WholeCheck> {
    let (mut by_process, mut by_fork) = (Vec::new(), Vec::new());
    for _ in 0..solution.repeat {
        by_process.push(common::timed_check(solution, "process")?);
        by_fork.push(common::timed_check(solution, "fork")?);
    }
    Ok(WholeCheck {
        by_process: ms(median(by_process)),
        by_fork: ms(median(by_fork)),
    })
}

fn print_header(about: &About, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "{}: {} scenarios, {}, median of {} runs per scenario",
        about.exercise,
        about.cases,
        about.python.display(),
        about.repeat
    )
    .map_err(stdout_error)?;
    writeln!(
        out,
        "  {:<44} {:>6} {:>10} {:>12} {:>10}",
        "scenario", "moves", "game ms", "program ms", "judge ms"
    )
    .map_err(stdout_error)
}

fn print_scenario(scenario: &Scenario, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "  {:<44} {:>6} {:>10.1} {:>12.1} {:>10.1}",
        scenario.name,
        scenario.moves,
        ms(scenario.wall),
        ms(scenario.program),
        ms(scenario.judge)
    )
    .map_err(stdout_error)
}

fn print_average(average: &Average, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "  per game on average: {:.1} ms in all, of which the program used {:.1} ms of CPU and the judge {:.1} ms",
        average.game, average.program, average.judge
    ).map_err(stdout_error)
}

fn print_whole_check(about: &About, whole: &WholeCheck, out: &mut impl Write) -> Result<()> {
    let WholeCheck {
        by_process,
        by_fork,
    } = *whole;
    writeln!(
        out,
        "  whole check, Python {} ({} games each), median of {}: --runner process {by_process:.1} ms, --runner fork {by_fork:.1} ms ({:.1}x less; {}: under 500 ms)",
        about.interpreters.join(" and "),
        about.cases,
        about.repeat,
        by_process / by_fork,
        common::verdict(by_fork < 500.0)
    ).map_err(stdout_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::common::test::{about, millis, printed};

    fn scenario(name: &str, moves: usize, wall: f64, program: f64, judge: f64) -> Scenario {
        Scenario {
            name: name.to_string(),
            moves,
            wall: millis(wall),
            program: millis(program),
            judge: millis(judge),
        }
    }

    #[test]
    fn the_report_reads_as_a_bench_run_printed_it() {
        let about = about("working_game", 15);
        let average = Average {
            game: 131.8,
            program: 82.6,
            judge: 9.5,
        };
        let whole = WholeCheck {
            by_process: 4532.0,
            by_fork: 1237.4,
        };
        let text = printed(|out| {
            print_header(&about, out)?;
            print_scenario(
                &scenario("sample/01-human-vs-computer", 10, 109.0, 77.9, 17.4),
                out,
            )?;
            print_scenario(
                &scenario("sample/02-human-vs-human", 4, 175.3, 107.5, 12.2),
                out,
            )?;
            print_average(&average, out)?;
            print_whole_check(&about, &whole, out)
        });
        assert_eq!(
            text,
            "working_game: 15 scenarios, /root/.pyenv/versions/3.11.7/bin/python3, median of 1 runs per scenario
  scenario                                      moves    game ms   program ms   judge ms
  sample/01-human-vs-computer                      10      109.0         77.9       17.4
  sample/02-human-vs-human                          4      175.3        107.5       12.2
  per game on average: 131.8 ms in all, of which the program used 82.6 ms of CPU and the judge 9.5 ms
  whole check, Python 3 and 2.7 (15 games each), median of 1: --runner process 4532.0 ms, --runner fork 1237.4 ms (3.7x less; goal missed: under 500 ms)
"
        );
    }

    #[test]
    fn the_average_is_over_the_scenarios() {
        let average = average(&[
            scenario("a", 1, 100.0, 60.0, 10.0),
            scenario("b", 2, 200.0, 80.0, 20.0),
        ]);
        assert!((average.game - 150.0).abs() < 1e-6);
        assert!((average.program - 70.0).abs() < 1e-6);
        assert!((average.judge - 15.0).abs() < 1e-6);
    }
}
