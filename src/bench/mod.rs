//! `nimlab bench`: what nimlab's harness costs on top of the interpreter itself, and what a
//! second job gains. Measured on whole commands, as a user would time them.

//!
//! Whose fault a failure is: a request that cannot be timed (no solution, no such Python) is
//! the user's (exit 2); a measurement that cannot be made (a scratch folder, a process that
//! does not start, a model solution that fails while timed) is nimlab's (exit 3).

use crate::error::{Error, Result};
use crate::lab::Lab;
use crate::runner::interpreter;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod website;

/// What `nimlab bench` measures, and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// The exercise whose model solution and cases are timed.
    pub exercise: String,
    /// The interpreter (a version or a path); for a class, one or several (`3,2.7`).
    pub python: String,
    /// Repetitions of each measurement; the median is reported.
    pub repeat: usize,
    pub what: What,
}

/// The kind of measurement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    /// The exercise's model solution, by hand and through nimlab.
    Exercise,
    /// A generated class of `students` graded, with `runner` only or (None) with both.
    Class {
        students: usize,
        runner: Option<Runner>,
    },
    /// The website, with `students` submitting at once; `workers` judging (None: the
    /// server's default).
    Website {
        students: usize,
        workers: Option<usize>,
    },
}

/// How `nimlab grade` starts a case's program, for a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runner {
    Process,
    Fork,
}

impl Runner {
    /// The value of `--runner`.
    fn name(self) -> &'static str {
        match self {
            Runner::Process => "process",
            Runner::Fork => "fork",
        }
    }
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A report line that cannot be written.
fn stdout_error(source: std::io::Error) -> Error {
    Error::internal("cannot write to stdout", source)
}

/// A scratch folder for the measurement.
fn scratch() -> Result<tempfile::TempDir> {
    tempfile::tempdir().map_err(|e| Error::internal("cannot create a temporary folder", e))
}

/// The nimlab binary, run as a user would.
fn nimlab_binary() -> Result<std::path::PathBuf> {
    std::env::current_exe().map_err(|e| Error::internal("cannot find the nimlab binary", e))
}

/// The Python `request` names, or a usage error.
fn python(request: &str) -> Result<std::path::PathBuf> {
    interpreter::resolve(request)
        .path
        .ok_or_else(|| Error::usage(format!("Python {request} is not installed here")))
}

/// `program` could not be started, or talked to.
fn spawn_error(program: &std::path::Path) -> impl Fn(std::io::Error) -> Error {
    let program = program.to_path_buf();
    move |source| Error::internal(format!("cannot start {}", program.display()), source)
}

/// Runs `python file` once in `dir` with `stdin`, as a person would by hand: no sandbox, no
/// limits, the output read and dropped.
fn run_by_hand(
    python: &std::path::Path,
    file: &std::path::Path,
    dir: &std::path::Path,
    stdin: &[u8],
) -> Result<()> {
    let mut child = Command::new(python)
        .arg(file)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(spawn_error(python))?;
    let mut input = child.stdin.take().expect("stdin is piped");
    input.write_all(stdin).map_err(spawn_error(python))?;
    // Closed, so that the program reads to its end.
    drop(input);
    child.wait_with_output().map_err(spawn_error(python))?;
    Ok(())
}

pub fn run(lab: &Lab, options: &Options, out: &mut impl Write) -> Result<u8> {
    if let What::Website { students, workers } = options.what {
        return website::run(lab, students, workers, out);
    }
    if options.repeat == 0 {
        return Err(Error::usage("--repeat must be at least 1"));
    }
    if let What::Class { students, runner } = options.what {
        let runners = match runner {
            Some(runner) => vec![runner.name()],
            None => vec![Runner::Process.name(), Runner::Fork.name()],
        };
        return class(lab, students, &options.python, &runners, out);
    }
    let exercise = lab.exercise(&options.exercise)?;
    let solution = exercise
        .solution
        .as_ref()
        .ok_or_else(|| Error::usage(format!("{} has no solution.py to time", exercise.name)))?;
    if exercise.cases.is_empty() {
        return Err(Error::usage(format!(
            "{} has no stdin cases to time",
            exercise.name
        )));
    }
    let python = python(&options.python)?;
    let dir = scratch()?;
    let file = dir.path().join(format!("{}.py", exercise.name));
    std::fs::write(&file, solution)
        .map_err(|e| Error::internal("cannot write the solution to time", e))?;
    if let crate::exercises::Judging::Interactive(interactive) = exercise.judging() {
        games(exercise, interactive, &python, &file, options.repeat, out)?;
        return games_fast_path(lab, exercise, &file, options.repeat, out);
    }
    let nimlab = nimlab_binary()?;

    let by_hand = || -> Result<Duration> {
        let started = Instant::now();
        for case in &exercise.cases {
            run_by_hand(&python, &file, dir.path(), case.input.stdin())?;
        }
        Ok(started.elapsed())
    };
    // `nimlab check` on the model solution, as a user would run it; `isolation` sets
    // NIMLAB_ISOLATION (None: the strongest this machine allows).
    let check_command = |jobs: usize, isolation: Option<&str>| {
        let mut command = Command::new(&nimlab);
        if let Some(value) = isolation {
            command.env("NIMLAB_ISOLATION", value);
        }
        if let crate::lab::LabOrigin::Folder(root) = &lab.origin {
            command.arg("--lab").arg(root);
        }
        command
            .args([
                "check",
                "--format",
                "json",
                "--exercise",
                &exercise.name,
                "--jobs",
                &jobs.to_string(),
                "--runner",
                "process",
                "--python",
            ])
            .arg(&python)
            .arg(&file)
            .stderr(Stdio::null());
        command
    };
    let timed = |jobs: usize, isolation: Option<&str>| -> Result<Duration> {
        let mut command = check_command(jobs, isolation);
        command.stdout(Stdio::null());
        time_accepted(&mut command, "nimlab check", &exercise.name)
    };
    let isolated = crate::runner::sandbox::Isolation::detect().is_isolated();
    // Interleaved, so a burst of load elsewhere on the machine hits all of them alike.
    let (mut hand, mut one, mut two, mut bare) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut isolation_costs = Vec::new();
    for _ in 0..options.repeat {
        hand.push(by_hand()?);
        one.push(timed(1, None)?);
        two.push(timed(2, None)?);
        if isolated {
            bare.push(timed(1, Some("none"))?);
            isolation_costs.extend(isolation_cost(exercise, &python, &file)?);
        }
    }
    let (hand, one, two) = (median(hand), median(one), median(two));
    let overhead = one.as_secs_f64() / hand.as_secs_f64();
    let speedup = one.as_secs_f64() / two.as_secs_f64();
    let verdict = |ok: bool| if ok { "goal met" } else { "goal missed" };
    writeln!(
        out,
        "{}: {} cases, {} on {} core(s), median of {} runs",
        exercise.name,
        exercise.cases.len(),
        python.display(),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        options.repeat
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
    if isolated {
        isolation_costs.sort_by(f64::total_cmp);
        let per_case = isolation_costs[isolation_costs.len() / 2];
        let whole = ms(one) - ms(median(bare));
        writeln!(
            out,
            "  isolation (bubblewrap):        {per_case:8.2} ms per case, median of {} paired runs against limits only ({}: under 5 ms); {whole:.0} ms per check in all",
            isolation_costs.len(),
            verdict(per_case < 5.0)
        ).map_err(stdout_error)?;
    } else {
        writeln!(out, "  isolation: not available here, so not measured").map_err(stdout_error)?;
    }
    fast_path(lab, exercise, &python, &file, options.repeat, out)?;
    Ok(crate::exit::SUCCESS)
}

/// What isolation adds to one run, to the microsecond: each case's run in the sandbox minus
/// the same case's run with limits only, timed through the runner itself (whole milliseconds
/// in reports are too coarse for this). The two runs alternate, so load elsewhere on the
/// machine hits both alike.
fn isolation_cost(
    exercise: &crate::lab::LabExercise,
    python: &std::path::Path,
    file: &std::path::Path,
) -> Result<Vec<f64>> {
    use crate::runner::{ProcessRunner, RunLimits, RunSpec, Runner};
    let sandboxed = ProcessRunner::detect();
    let bare = ProcessRunner::limits_only();
    let scratch = scratch()?;
    let expose = [file.parent().expect("a file in a folder").to_path_buf()];
    let time = |runner: &ProcessRunner, input: &[u8]| -> Result<f64> {
        let spec = RunSpec {
            program: python,
            args: vec![file.into()],
            stdin: input,
            workdir: scratch.path(),
            env: crate::check::clean_env(scratch.path()),
            limits: RunLimits::from(&exercise.config.limits),
            expose: &expose,
            seed: None,
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

/// Times each scenario of a game exercise: the whole judged game, the program's CPU time, and
/// the judge's CPU time.
fn games(
    exercise: &crate::lab::LabExercise,
    interactive: &dyn crate::exercises::Interactive,
    python: &std::path::Path,
    file: &std::path::Path,
    repeat: usize,
    out: &mut impl Write,
) -> Result<u8> {
    use crate::lab::CaseInput;
    use crate::runner::{ProcessRunner, RunSpec, Runner};
    writeln!(
        out,
        "{}: {} scenarios, {}, median of {repeat} runs per scenario",
        exercise.name,
        exercise.cases.len(),
        python.display()
    )
    .map_err(stdout_error)?;
    writeln!(
        out,
        "  {:<44} {:>6} {:>10} {:>12} {:>10}",
        "scenario", "moves", "game ms", "program ms", "judge ms"
    )
    .map_err(stdout_error)?;
    let limits = crate::runner::RunLimits::from(&exercise.config.limits);
    let runner = ProcessRunner::detect();
    let env: Vec<(std::ffi::OsString, std::ffi::OsString)> = vec![
        ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
        ("PYTHONUNBUFFERED".into(), "1".into()),
        ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
    ];
    let folder = file.parent().expect("a file in a folder").to_path_buf();
    // The program's working folder is separate from its own files (a sandbox replaces it).
    let scratch = scratch()?;
    let workdir = scratch.path();
    let (mut total_game, mut total_program, mut total_judge) =
        (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for case in &exercise.cases {
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
        for _ in 0..repeat {
            let started = Instant::now();
            let judge_started = thread_cpu();
            let spec = RunSpec {
                program: python,
                args: vec![file.into()],
                stdin: b"",
                env: env.clone(),
                workdir,
                expose: std::slice::from_ref(&folder),
                seed: None,
                limits,
            };
            let mut session = runner.start(&spec)?;
            let result = interactive.play(scenario, session.as_mut());
            let end = session.finish()?;
            judges.push(thread_cpu() - judge_started);
            walls.push(started.elapsed());
            programs.push(end.cpu);
            moves = result.moves;
            if result.verdict != crate::judge::Verdict::Accepted {
                return Err(Error::fault(format!(
                    "{}: the model solution was not accepted: {}",
                    case.name, result.message
                )));
            }
        }
        let (wall, program, judge) = (median(walls), median(programs), median(judges));
        total_game += wall;
        total_program += program;
        total_judge += judge;
        writeln!(
            out,
            "  {:<44} {moves:>6} {:>10.1} {:>12.1} {:>10.1}",
            case.name,
            ms(wall),
            ms(program),
            ms(judge)
        )
        .map_err(stdout_error)?;
    }
    let n = exercise.cases.len() as f64;
    writeln!(
        out,
        "  per game on average: {:.1} ms in all, of which the program used {:.1} ms of CPU and the judge {:.1} ms",
        ms(total_game) / n,
        ms(total_program) / n,
        ms(total_judge) / n
    ).map_err(stdout_error)?;
    Ok(crate::exit::SUCCESS)
}

/// Grades a generated class (every student hands in every model solution) with
/// `nimlab grade`, against running the interpreter by hand on the same stdin cases.
fn class(
    lab: &Lab,
    students: usize,
    python_request: &str,
    runners: &[&str],
    out: &mut impl Write,
) -> Result<u8> {
    if students == 0 {
        return Err(Error::usage("--class needs at least one student"));
    }
    // One interpreter or several (3,2.7): each submission is graded under each.
    let pythons = python_request
        .split(',')
        .map(|request| {
            interpreter::resolve(request.trim())
                .path
                .ok_or_else(|| Error::usage(format!("Python {request} is not installed here")))
        })
        .collect::<Result<Vec<_>>>()?;
    let python = std::env::join_paths(&pythons)
        .map_err(|_| Error::usage("an interpreter's path holds a colon"))?;
    let python = python.to_string_lossy().replace(':', ",");
    let dir = scratch()?;
    let class_dir = dir.path().join("class");
    let exercises: Vec<_> = lab
        .exercises
        .iter()
        .filter(|e| e.solution.is_some())
        .collect();
    for i in 0..students {
        let folder = class_dir.join(format!("s{i:04}"));
        std::fs::create_dir_all(&folder)
            .map_err(|e| Error::internal(format!("{}: cannot create", folder.display()), e))?;
        for exercise in &exercises {
            let file = folder.join(format!("{}.py", exercise.name));
            std::fs::write(&file, exercise.solution.as_deref().unwrap_or(""))
                .map_err(|e| Error::unwritable(&file, e))?;
        }
    }
    let submissions = students * exercises.len();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // By hand: one interpreter start per stdin case, one after another, on a sample of the
    // students (they are all alike), scaled to the class.
    let sample = students.min(10);
    let started = Instant::now();
    let mut cases_run = 0;
    for (i, python) in (0..sample).flat_map(|i| pythons.iter().map(move |p| (i, p))) {
        for exercise in exercises.iter().filter(|e| e.has_reference()) {
            let file = class_dir.join(format!("s{i:04}/{}.py", exercise.name));
            for case in &exercise.cases {
                run_by_hand(python, &file, dir.path(), case.input.stdin())?;
                cases_run += 1;
            }
        }
    }
    let by_hand_per_student = started.elapsed().as_secs_f64() / sample as f64;
    let nimlab = nimlab_binary()?;
    let grade = |out_dir: &std::path::Path, runner: &str| -> Result<f64> {
        let mut command = Command::new(&nimlab);
        if let crate::lab::LabOrigin::Folder(root) = &lab.origin {
            command.arg("--lab").arg(root);
        }
        let started = Instant::now();
        let status = command
            .arg("grade")
            .arg(&class_dir)
            .arg("--out")
            .arg(out_dir)
            .arg("--python")
            .arg(&python)
            .arg("--runner")
            .arg(runner)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| Error::internal("cannot run nimlab grade", e))?;
        if !status.success() {
            return Err(Error::fault(format!("nimlab grade failed ({status})")));
        }
        Ok(started.elapsed().as_secs_f64())
    };
    let mut graded = Vec::new();
    for runner in runners {
        let out_dir = dir.path().join(format!("out-{runner}"));
        let first = grade(&out_dir, runner)?;
        let again = grade(&out_dir, runner)?;
        graded.push((runner, first, again));
    }
    let stdin_exercises = exercises.iter().filter(|e| e.has_reference()).count();
    writeln!(
        out,
        "class of {students} students x {} exercises = {submissions} submissions, {python} ({cores} core(s))",
        exercises.len(),
    ).map_err(stdout_error)?;
    for (runner, first, _) in &graded {
        let jobs = crate::grade::default_jobs(**runner == "fork");
        writeln!(
            out,
            "  nimlab grade --runner {runner} (--jobs {jobs}, isolated where possible): {first:.1} s, {:.1} submissions/s",
            submissions as f64 / first
        ).map_err(stdout_error)?;
    }
    writeln!(
        out,
        "  by hand, one interpreter start per stdin case ({} cases for {sample} students), one core: {:.2} s per student, {:.1} submissions/s for the {stdin_exercises} stdin exercises",
        cases_run,
        by_hand_per_student,
        stdin_exercises as f64 / by_hand_per_student
    ).map_err(stdout_error)?;
    for (runner, _, again) in &graded {
        writeln!(
            out,
            "  re-run with the cache: {again:.2} s (--runner {runner})"
        )
        .map_err(stdout_error)?;
    }
    Ok(crate::exit::SUCCESS)
}

/// `nimlab check --format json --jobs 1 --runner RUNNER` on a file, timed; fails unless the
/// file is accepted.
fn timed_check(
    lab: &Lab,
    exercise: &crate::lab::LabExercise,
    file: &std::path::Path,
    runner: &str,
    python: Option<&std::path::Path>,
) -> Result<Duration> {
    let nimlab = nimlab_binary()?;
    let mut command = Command::new(nimlab);
    if let crate::lab::LabOrigin::Folder(root) = &lab.origin {
        command.arg("--lab").arg(root);
    }
    command.args([
        "check",
        "--format",
        "json",
        "--exercise",
        &exercise.name,
        "--jobs",
        "1",
        "--runner",
        runner,
    ]);
    if let Some(python) = python {
        command.arg("--python").arg(python);
    }
    command
        .arg(file)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    time_accepted(
        &mut command,
        &format!("nimlab check --runner {runner}"),
        &exercise.name,
    )
}

/// Runs `command` (`what`, a `nimlab check` of `exercise`'s model solution) and times it;
/// fails unless the solution is accepted.
fn time_accepted(command: &mut Command, what: &str, exercise: &str) -> Result<Duration> {
    let started = Instant::now();
    let status = command
        .status()
        .map_err(|e| Error::internal(format!("cannot run {what}"), e))?;
    let elapsed = started.elapsed();
    if !status.success() {
        return Err(Error::fault(format!(
            "{what} did not accept the model solution of {exercise} (exit {status})"
        )));
    }
    Ok(elapsed)
}

/// The fast path (`--runner fork`) paired with the process path in one run: one isolated
/// case through each runner, case by case and alternating (so load elsewhere on the machine
/// hits both alike), the fork server's start (once per submission, or student, and interpreter), and a
/// whole `nimlab check --jobs 1` with each runner against running the exercise's
/// interpreters by hand once per case.
fn fast_path(
    lab: &Lab,
    exercise: &crate::lab::LabExercise,
    python: &std::path::Path,
    file: &std::path::Path,
    repeat: usize,
    out: &mut impl Write,
) -> Result<()> {
    use crate::runner::{ForkRunner, ProcessRunner, RunLimits, RunSpec, RunWay, Runner};
    let process = ProcessRunner::detect();
    let fork = ForkRunner::detect();
    let scratch = scratch()?;
    let expose = [file
        .parent()
        .ok_or_else(|| Error::fault("the solution has no folder"))?
        .to_path_buf()];
    let limits = RunLimits::from(&exercise.config.limits);
    let workdirs: Vec<std::path::PathBuf> = (0..exercise.cases.len())
        .map(|i| scratch.path().join("run").join(format!("case-{i}")))
        .collect();
    for workdir in &workdirs {
        std::fs::create_dir_all(workdir)
            .map_err(|e| Error::internal("cannot create a working folder", e))?;
    }
    let spec = |index: usize| RunSpec {
        program: python,
        args: vec![file.into()],
        stdin: exercise.cases[index].input.stdin(),
        workdir: &workdirs[index],
        env: crate::check::clean_env(&workdirs[index]),
        limits,
        expose: &expose,
        // (Seeded as check's runs are: a fresh interpreter's start includes the seeding.)
        seed: Some(index as u64),
    };
    let time = |runner: &dyn Runner, index: usize| -> Result<(f64, RunWay)> {
        let started = Instant::now();
        let outcome = runner.run(&spec(index))?;
        let elapsed = ms(started.elapsed());
        if !outcome.success() {
            return Err(Error::fault(format!(
                "the model solution of {} failed while timed",
                exercise.name
            )));
        }
        Ok((elapsed, outcome.way))
    };
    // The server's start: the interpreter, the sandbox, and compiling the file, once.
    let started = Instant::now();
    if fork.compile(&spec(0)).is_none() {
        let (_, way) = time(&fork, 0)?;
        writeln!(
            out,
            "  fast path: not available here ({way:?}), so not measured"
        )
        .map_err(stdout_error)?;
        return Ok(());
    }
    let server_start = ms(started.elapsed());
    // A later server of the same interpreter, for another submission (grade starts one per
    // student): it loads the server's code that the first one compiled.
    let again = [expose[0].clone(), scratch.path().join("again")];
    std::fs::create_dir_all(&again[1])
        .map_err(|e| Error::internal("cannot create a working folder", e))?;
    let started = Instant::now();
    let later = fork.compile(&RunSpec {
        expose: &again,
        ..spec(0)
    });
    let later_start = later.map(|_| ms(started.elapsed()));
    let (mut by_process, mut by_fork) = (Vec::new(), Vec::new());
    time(&process, 0)?;
    // All the cases through one runner, then through the other, the order alternating from
    // one repetition to the next: a process run leaves work behind for the kernel (its
    // sandbox torn down) that would fall on a fork run made right after it.
    for round in 0..repeat.max(2) {
        for forked in [round % 2 == 1, round % 2 == 0] {
            for index in 0..exercise.cases.len() {
                if forked {
                    let (elapsed, way) = time(&fork, index)?;
                    if way != RunWay::Fork {
                        return Err(Error::fault(format!(
                            "the fast path fell back to a process while timed: {way:?}"
                        )));
                    }
                    by_fork.push(elapsed);
                } else {
                    by_process.push(time(&process, index)?.0);
                }
            }
        }
    }
    fork.finished_with(&expose);
    let median_of = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (per_process, per_fork) = (median_of(by_process), median_of(by_fork));
    let verdict = |ok: bool| if ok { "goal met" } else { "goal missed" };
    writeln!(
        out,
        "fast path (--runner fork) paired with the process path in this run, {}:",
        crate::runner::sandbox::Isolation::detect().summary()
    )
    .map_err(stdout_error)?;
    writeln!(
        out,
        "  one case, {}: process {per_process:8.2} ms, fork {per_fork:6.2} ms ({:.1}x less; {}: at most 2 ms), median of {} runs each",
        python.display(),
        per_process / per_fork,
        verdict(per_fork <= 2.0),
        exercise.cases.len() * repeat.max(2)
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
    // A whole check, each runner, against the same interpreters run by hand on the cases.
    let interpreters: Vec<std::path::PathBuf> = exercise
        .config
        .interpreters
        .iter()
        .filter_map(|request| interpreter::resolve(request).path)
        .collect();
    let dir = file
        .parent()
        .ok_or_else(|| Error::fault("the solution has no folder"))?;
    let by_hand = || -> Result<Duration> {
        let started = Instant::now();
        for python in &interpreters {
            for case in &exercise.cases {
                run_by_hand(python, file, dir, case.input.stdin())?;
            }
        }
        Ok(started.elapsed())
    };
    let (mut hand, mut checked_process, mut checked_fork) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..repeat {
        hand.push(by_hand()?);
        checked_process.push(timed_check(lab, exercise, file, "process", None)?);
        checked_fork.push(timed_check(lab, exercise, file, "fork", None)?);
    }
    let (hand, checked_process, checked_fork) = (
        ms(median(hand)),
        ms(median(checked_process)),
        ms(median(checked_fork)),
    );
    let names: Vec<String> = exercise.config.interpreters.clone();
    writeln!(
        out,
        "  whole check, Python {} ({} cases each), median of {repeat}:",
        names.join(" and "),
        exercise.cases.len()
    )
    .map_err(stdout_error)?;
    writeln!(out, "    by hand, one start per case:        {hand:8.1} ms").map_err(stdout_error)?;
    writeln!(
        out,
        "    nimlab check --jobs 1 --runner process: {checked_process:8.1} ms  {:.2}x the hand run",
        checked_process / hand
    )
    .map_err(stdout_error)?;
    writeln!(
        out,
        "    nimlab check --jobs 1 --runner fork:    {checked_fork:8.1} ms  {:.2}x the hand run ({}: below 1.0)",
        checked_fork / hand,
        verdict(checked_fork < hand)
    ).map_err(stdout_error)?;
    Ok(())
}

/// A game exercise's whole check with each runner, under the exercise's interpreters.
fn games_fast_path(
    lab: &Lab,
    exercise: &crate::lab::LabExercise,
    file: &std::path::Path,
    repeat: usize,
    out: &mut impl Write,
) -> Result<u8> {
    let (mut by_process, mut by_fork) = (Vec::new(), Vec::new());
    for _ in 0..repeat {
        by_process.push(timed_check(lab, exercise, file, "process", None)?);
        by_fork.push(timed_check(lab, exercise, file, "fork", None)?);
    }
    let (by_process, by_fork) = (ms(median(by_process)), ms(median(by_fork)));
    let verdict = if by_fork < 500.0 {
        "goal met"
    } else {
        "goal missed"
    };
    writeln!(
        out,
        "  whole check, Python {} ({} games each), median of {repeat}: --runner process {by_process:.1} ms, --runner fork {by_fork:.1} ms ({:.1}x less; {verdict}: under 500 ms)",
        exercise.config.interpreters.join(" and "),
        exercise.cases.len(),
        by_process / by_fork
    ).map_err(stdout_error)?;
    Ok(crate::exit::SUCCESS)
}
