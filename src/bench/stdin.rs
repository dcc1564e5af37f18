//! A stdin exercise timed: its cases run by hand, against `nimlab check` with one job and with
//! two, and what isolation adds to a run; then the fast path ([`super::fast_path`]).

use super::common::{self, median, ms, stdout_error, verdict};
use super::fast_path;
use super::{About, Solution};
use nimlab_core::error::{Error, Result};
use nimlab_core::runner::sandbox::Isolation;
use nimlab_core::runner::{ProcessRunner, RunLimits, RunSpec, Runner};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The medians of the whole runs.
struct Results {
    /// The interpreter started by hand, once per case.
    hand: Duration,
    /// `nimlab check --jobs 1`.
    one: Duration,
    /// `nimlab check --jobs 2`.
    two: Duration,
    cores: usize,
    /// None where runs cannot be isolated here.
    isolation: Option<IsolationCost>,
}

/// What isolation adds.
struct IsolationCost {
    /// To one case's run: the median of the paired differences, in milliseconds.
    per_case: f64,
    /// The paired runs (cases) the median is of.
    paired_runs: usize,
    /// To a whole `nimlab check --jobs 1`, in milliseconds.
    whole: f64,
}

/// Times the solution case by case, then its fast path, printing each part when measured.
pub(super) fn run(solution: &Solution, out: &mut impl Write) -> Result<u8> {
    let results = measure(solution)?;
    print(&solution.about(), &results, out)?;
    fast_path::run(solution, out)?;
    Ok(nimlab_core::exit::SUCCESS)
}

fn measure(solution: &Solution) -> Result<Results> {
    let nimlab = common::nimlab_binary()?;
    let timed = |jobs: usize, isolation: Option<&str>| check(solution, &nimlab, jobs, isolation);
    let isolated = Isolation::detect().is_isolated();
    // Interleaved, so a burst of load elsewhere on the machine hits all of them alike.
    let (mut hand, mut one, mut two, mut bare) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut isolation_costs = Vec::new();
    for _ in 0..solution.repeat {
        hand.push(by_hand(solution)?);
        one.push(timed(1, None)?);
        two.push(timed(2, None)?);
        if isolated {
            bare.push(timed(1, Some("none"))?);
            isolation_costs.extend(isolation_cost(solution)?);
        }
    }
    let one = median(one);
    let isolation = isolated.then(|| IsolationCost::of(isolation_costs, one, median(bare)));
    Ok(Results {
        hand: median(hand),
        one,
        two: median(two),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        isolation,
    })
}

impl IsolationCost {
    /// From the paired differences per case (ms), and the medians of `nimlab check --jobs 1`
    /// isolated and with limits only.
    fn of(mut per_case: Vec<f64>, isolated: Duration, bare: Duration) -> IsolationCost {
        per_case.sort_by(f64::total_cmp);
        IsolationCost {
            per_case: per_case[per_case.len() / 2],
            paired_runs: per_case.len(),
            whole: ms(isolated) - ms(bare),
        }
    }
}

/// The interpreter started by hand once per case, timed.
fn by_hand(solution: &Solution) -> Result<Duration> {
    let started = Instant::now();
    for case in &solution.exercise.cases {
        common::run_by_hand(
            &solution.python,
            &solution.file,
            solution.folder.path(),
            case.input.stdin(),
        )?;
    }
    Ok(started.elapsed())
}

/// `nimlab check` on the model solution, as a user would run it, timed; `isolation` sets
/// NIMLAB_ISOLATION (None: the strongest this machine allows).
fn check(
    solution: &Solution,
    nimlab: &Path,
    jobs: usize,
    isolation: Option<&str>,
) -> Result<Duration> {
    let mut command = Command::new(nimlab);
    if let Some(value) = isolation {
        command.env("NIMLAB_ISOLATION", value);
    }
    common::with_lab(&mut command, solution.lab);
    command
        .args([
            "check",
            "--format",
            "json",
            "--exercise",
            &solution.exercise.name,
            "--jobs",
            &jobs.to_string(),
            "--runner",
            "process",
            "--python",
        ])
        .arg(&solution.python)
        .arg(&solution.file)
        .stderr(Stdio::null())
        .stdout(Stdio::null());
    common::time_accepted(&mut command, "nimlab check", &solution.exercise.name)
}

/// What isolation adds to one run, to the microsecond: each case's run in the sandbox minus
/// the same case's run with limits only, timed through the runner itself (whole milliseconds
/// in reports are too coarse for this). The two runs alternate, so load elsewhere on the
/// machine hits both alike.
fn isolation_cost(solution: &Solution) -> Result<Vec<f64>> {
    let exercise = solution.exercise;
    let sandboxed = ProcessRunner::detect();
    let bare = ProcessRunner::limits_only();
    let scratch = common::scratch()?;
    let expose = [solution.folder.path().to_path_buf()];
    let time = |runner: &ProcessRunner, input: &[u8]| -> Result<f64> {
        let spec = RunSpec {
            program: &solution.python,
            args: vec![solution.file.clone().into()],
            stdin: input,
            workdir: scratch.path(),
            env: nimlab_core::check::clean_env(scratch.path()),
            limits: RunLimits::from(&exercise.config.limits),
            expose: &expose,
            seed: None,
            stop: nimlab_core::stop::Stop::never(),
        };
        let started = Instant::now();
        let outcome = runner.run(&spec)?;
        let elapsed = ms(started.elapsed());
        if !outcome.success() {
            return Err(Error::fault(format!(
                "the model solution of {} failed while timed",
                exercise.name
            )));
        }
        Ok(elapsed)
    };
    // Once each first: the sandbox's one-off costs (a worker's cgroup) are not per case.
    let warm_up = exercise.cases[0].input.stdin();
    time(&sandboxed, warm_up)?;
    time(&bare, warm_up)?;
    exercise
        .cases
        .iter()
        .map(|case| {
            let input = case.input.stdin();
            Ok(time(&sandboxed, input)? - time(&bare, input)?)
        })
        .collect()
}

fn print(about: &About, results: &Results, out: &mut impl Write) -> Result<()> {
    let Results {
        hand,
        one,
        two,
        cores,
        ref isolation,
    } = *results;
    let overhead = one.as_secs_f64() / hand.as_secs_f64();
    let speedup = one.as_secs_f64() / two.as_secs_f64();
    writeln!(
        out,
        "{}: {} cases, {} on {cores} core(s), median of {} runs",
        about.exercise,
        about.cases,
        about.python.display(),
        about.repeat
    )
    .map_err(stdout_error)?;
    writeln!(out, "  by hand, one start per case:  {:8.1} ms", ms(hand)).map_err(stdout_error)?;
    writeln!(
        out,
        "  nimlab check --jobs 1:        {:8.1} ms  {overhead:.2}x the hand run ({}: at most 1.25x)",
        ms(one),
        verdict(overhead <= 1.25)
    ).map_err(stdout_error)?;
    writeln!(
        out,
        "  nimlab check --jobs 2:        {:8.1} ms  {speedup:.2}x faster than --jobs 1 ({}: at least 1.3x)",
        ms(two),
        verdict(speedup >= 1.3)
    ).map_err(stdout_error)?;
    print_isolation(isolation.as_ref(), out)
}

fn print_isolation(isolation: Option<&IsolationCost>, out: &mut impl Write) -> Result<()> {
    let Some(&IsolationCost {
        per_case,
        paired_runs,
        whole,
    }) = isolation
    else {
        return writeln!(out, "  isolation: not available here, so not measured")
            .map_err(stdout_error);
    };
    writeln!(
        out,
        "  isolation (bubblewrap):        {per_case:8.2} ms per case, median of {paired_runs} paired runs against limits only ({}: under 5 ms); {whole:.0} ms per check in all",
        verdict(per_case < 5.0)
    ).map_err(stdout_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::common::test::{about, millis, printed};

    fn results(isolation: Option<IsolationCost>) -> Results {
        Results {
            hand: millis(1720.4),
            one: millis(1965.5),
            two: millis(1178.0),
            cores: 2,
            isolation,
        }
    }

    #[test]
    fn the_report_reads_as_a_bench_run_printed_it() {
        let isolation = IsolationCost {
            per_case: 19.01,
            paired_runs: 12,
            whole: 541.0,
        };
        let about = about("exclusive_or", 12);
        let text = printed(|out| print(&about, &results(Some(isolation)), out));
        assert_eq!(
            text,
            "exclusive_or: 12 cases, /root/.pyenv/versions/3.11.7/bin/python3 on 2 core(s), median of 1 runs
  by hand, one start per case:    1720.4 ms
  nimlab check --jobs 1:          1965.5 ms  1.14x the hand run (goal met: at most 1.25x)
  nimlab check --jobs 2:          1178.0 ms  1.67x faster than --jobs 1 (goal met: at least 1.3x)
  isolation (bubblewrap):           19.01 ms per case, median of 12 paired runs against limits only (goal missed: under 5 ms); 541 ms per check in all
"
        );
    }

    #[test]
    fn without_isolation_the_report_says_so() {
        let about = about("exclusive_or", 12);
        let text = printed(|out| print(&about, &results(None), out));
        assert!(
            text.ends_with(
                "(goal met: at least 1.3x)\n  isolation: not available here, so not measured\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn the_isolation_cost_is_the_median_difference() {
        let cost = IsolationCost::of(vec![3.0, -1.0, 2.0], millis(900.0), millis(850.0));
        assert_eq!(cost.per_case, 2.0);
        assert_eq!(cost.paired_runs, 3);
        assert!((cost.whole - 50.0).abs() < 1e-6, "{}", cost.whole);
    }
}
