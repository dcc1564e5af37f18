//! `nimlab bench --class N`: a generated class (every student hands in every model solution)
//! graded with `nimlab grade`, against running the interpreter by hand on the same stdin
//! cases.

use super::Runner;
use super::common::{self, stdout_error};
use nimlab_core::error::{Error, Result};
use nimlab_core::lab::{Lab, LabExercise};
use nimlab_core::runner::interpreter;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// What grading the class took.
struct Results {
    students: usize,
    /// The exercises with a model solution, which each student hands in.
    exercises: usize,
    /// Of them, those with stdin cases (which the hand run runs).
    stdin_exercises: usize,
    /// The interpreters, as `nimlab grade --python` was given them.
    python: String,
    cores: usize,
    /// The class graded with each runner, one after the other.
    graded: Vec<Graded>,
    by_hand: ByHand,
}

/// The class graded with one runner: once, and again with the cache.
struct Graded {
    runner: Runner,
    /// The jobs `nimlab grade` runs at once with this runner.
    jobs: usize,
    /// Seconds.
    first: f64,
    again: f64,
}

/// The interpreter started by hand once per stdin case, on a sample of the students.
struct ByHand {
    cases: usize,
    sample: usize,
    /// Seconds per student.
    per_student: f64,
}

/// Grades a class of `students` under the interpreters of `python_request` with `runner`
/// (None: both), and prints the report.
pub(super) fn run(
    lab: &Lab,
    students: usize,
    python_request: &str,
    runner: Option<Runner>,
    out: &mut impl Write,
) -> Result<u8> {
    let results = measure(lab, students, python_request, runner)?;
    print(&results, out)?;
    Ok(nimlab_core::exit::SUCCESS)
}

fn measure(
    lab: &Lab,
    students: usize,
    python_request: &str,
    runner: Option<Runner>,
) -> Result<Results> {
    if students == 0 {
        return Err(Error::usage("--class needs at least one student"));
    }
    let pythons = pythons(python_request)?;
    let python = std::env::join_paths(&pythons)
        .map_err(|_| Error::usage("an interpreter's path holds a colon"))?;
    let python = python.to_string_lossy().replace(':', ",");
    let dir = common::scratch()?;
    let class_dir = dir.path().join("class");
    write_class_of_solutions(lab, &class_dir, students)?;
    let exercises: Vec<_> = lab
        .exercises
        .iter()
        .filter(|e| e.solution.is_some())
        .collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let by_hand = by_hand(&class_dir, dir.path(), students, &pythons, &exercises)?;
    let nimlab = common::nimlab_binary()?;
    let runners = match runner {
        Some(runner) => vec![runner],
        None => vec![Runner::Process, Runner::Fork],
    };
    let mut graded = Vec::new();
    for runner in runners {
        let out_dir = dir.path().join(format!("out-{}", runner.name()));
        let grade = || grade(lab, &nimlab, &class_dir, &out_dir, &python, runner);
        let (first, again) = (grade()?, grade()?);
        let jobs = nimlab_core::grade::default_jobs(runner == Runner::Fork);
        graded.push(Graded {
            runner,
            jobs,
            first,
            again,
        });
    }
    Ok(Results {
        students,
        exercises: exercises.len(),
        stdin_exercises: exercises.iter().filter(|e| e.has_reference()).count(),
        python,
        cores,
        graded,
        by_hand,
    })
}

/// One interpreter or several (3,2.7): each submission is graded under each.
fn pythons(request: &str) -> Result<Vec<PathBuf>> {
    request
        .split(',')
        .map(|request| {
            interpreter::resolve(request.trim())
                .path
                .ok_or_else(|| Error::usage(format!("Python {request} is not installed here")))
        })
        .collect()
}

/// The generated class in `class_dir` (every exercise with a model solution, handed in by
/// each student), for another measurement; how many exercises each student hands in.
pub(super) fn write_class_of_solutions(
    lab: &Lab,
    class_dir: &Path,
    students: usize,
) -> Result<usize> {
    let exercises: Vec<_> = lab
        .exercises
        .iter()
        .filter(|e| e.solution.is_some())
        .collect();
    write_class(class_dir, students, &exercises)?;
    Ok(exercises.len())
}

/// A folder per student in `class_dir`, each with every exercise's model solution.
fn write_class(class_dir: &Path, students: usize, exercises: &[&LabExercise]) -> Result<()> {
    for i in 0..students {
        let folder = class_dir.join(format!("s{i:04}"));
        std::fs::create_dir_all(&folder)
            .map_err(|e| Error::internal(format!("{}: cannot create", folder.display()), e))?;
        for exercise in exercises {
            let file = folder.join(format!("{}.py", exercise.name));
            std::fs::write(&file, exercise.solution.as_deref().unwrap_or(""))
                .map_err(|e| Error::unwritable(&file, e))?;
        }
    }
    Ok(())
}

/// By hand: one interpreter start per stdin case, one after another, on a sample of the
/// students (they are all alike), scaled to the class.
fn by_hand(
    class_dir: &Path,
    dir: &Path,
    students: usize,
    pythons: &[PathBuf],
    exercises: &[&LabExercise],
) -> Result<ByHand> {
    let sample = students.min(10);
    let started = Instant::now();
    let mut cases = 0;
    for (i, python) in (0..sample).flat_map(|i| pythons.iter().map(move |p| (i, p))) {
        for exercise in exercises.iter().filter(|e| e.has_reference()) {
            let file = class_dir.join(format!("s{i:04}/{}.py", exercise.name));
            for case in &exercise.cases {
                common::run_by_hand(python, &file, dir, case.input.stdin())?;
                cases += 1;
            }
        }
    }
    Ok(ByHand {
        cases,
        sample,
        per_student: started.elapsed().as_secs_f64() / sample as f64,
    })
}

/// `nimlab grade` of the class into `out_dir`, timed in seconds.
fn grade(
    lab: &Lab,
    nimlab: &Path,
    class_dir: &Path,
    out_dir: &Path,
    python: &str,
    runner: Runner,
) -> Result<f64> {
    let mut command = Command::new(nimlab);
    common::with_lab(&mut command, lab);
    let started = Instant::now();
    let status = command
        .arg("grade")
        .arg(class_dir)
        .arg("--out")
        .arg(out_dir)
        .arg("--python")
        .arg(python)
        .arg("--runner")
        .arg(runner.name())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| Error::internal("cannot run nimlab grade", e))?;
    if !status.success() {
        return Err(Error::fault(format!("nimlab grade failed ({status})")));
    }
    Ok(started.elapsed().as_secs_f64())
}

fn print(results: &Results, out: &mut impl Write) -> Result<()> {
    let Results {
        students,
        exercises,
        stdin_exercises,
        python,
        cores,
        graded,
        by_hand,
    } = results;
    let submissions = students * exercises;
    writeln!(
        out,
        "class of {students} students x {exercises} exercises = {submissions} submissions, {python} ({cores} core(s))",
    ).map_err(stdout_error)?;
    for Graded {
        runner,
        jobs,
        first,
        ..
    } in graded
    {
        writeln!(
            out,
            "  nimlab grade --runner {} (--jobs {jobs}, isolated where possible): {first:.1} s, {:.1} submissions/s",
            runner.name(),
            submissions as f64 / first
        ).map_err(stdout_error)?;
    }
    writeln!(
        out,
        "  by hand, one interpreter start per stdin case ({} cases for {} students), one core: {:.2} s per student, {:.1} submissions/s for the {stdin_exercises} stdin exercises",
        by_hand.cases,
        by_hand.sample,
        by_hand.per_student,
        *stdin_exercises as f64 / by_hand.per_student
    ).map_err(stdout_error)?;
    for Graded { runner, again, .. } in graded {
        writeln!(
            out,
            "  re-run with the cache: {again:.2} s (--runner {})",
            runner.name()
        )
        .map_err(stdout_error)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::common::test::{PYTHON, printed};

    #[test]
    fn the_report_reads_as_a_bench_run_printed_it() {
        let results = Results {
            students: 1,
            exercises: 9,
            stdin_exercises: 8,
            python: PYTHON.to_string(),
            cores: 2,
            graded: vec![
                Graded {
                    runner: Runner::Process,
                    jobs: 2,
                    first: 18.3,
                    again: 0.14,
                },
                Graded {
                    runner: Runner::Fork,
                    jobs: 3,
                    first: 4.4,
                    again: 0.13,
                },
            ],
            by_hand: ByHand {
                cases: 139,
                sample: 1,
                per_student: 24.55,
            },
        };
        assert_eq!(
            printed(|out| print(&results, out)),
            "class of 1 students x 9 exercises = 9 submissions, /root/.pyenv/versions/3.11.7/bin/python3 (2 core(s))
  nimlab grade --runner process (--jobs 2, isolated where possible): 18.3 s, 0.5 submissions/s
  nimlab grade --runner fork (--jobs 3, isolated where possible): 4.4 s, 2.0 submissions/s
  by hand, one interpreter start per stdin case (139 cases for 1 students), one core: 24.55 s per student, 0.3 submissions/s for the 8 stdin exercises
  re-run with the cache: 0.14 s (--runner process)
  re-run with the cache: 0.13 s (--runner fork)
"
        );
    }
}
