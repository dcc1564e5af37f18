//! `nimlab bench`: what nimlab's harness costs on top of the interpreter itself, and what a
//! second job gains. Measured on whole commands, as a user would time them.
//!
//! Whose fault a failure is: a request that cannot be timed (no solution, no such Python) is
//! the user's (exit 2); a measurement that cannot be made (a scratch folder, a process that
//! does not start, a model solution that fails while timed) is nimlab's (exit 3).
//!
//! Each kind of measurement has its module: [`stdin`] (an exercise's cases by hand and through
//! `nimlab check`) with [`fast_path`] (the fork runner against the process runner), [`game`]
//! (a game exercise's scenarios), [`class`] (`nimlab grade` on a generated class), [`compare`] (this build against another on the
//! same work, alternating) and [`website`] (students submitting to `nimlab serve` at once). In each, the functions that
//! measure return plain data and separate ones print it.

mod class;
mod common;
mod compare;
mod fast_path;
mod game;
mod similarity;
mod stdin;
mod website;

use nimlab_core::error::{Error, Result};
use nimlab_core::lab::{Lab, LabExercise};
use std::io::Write;
use std::path::PathBuf;

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
    /// With [`What::Website`]'s judges: the PostgreSQL server to make a scratch database on.
    pub db: Option<PathBuf>,
    /// Another nimlab binary to time against this one on the same work, alternating.
    pub compare: Option<PathBuf>,
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
    /// server's default). With `judges`, one web process and that many judge processes on a
    /// scratch PostgreSQL database (`workers` each; None: the cores shared between them).
    Website {
        students: usize,
        workers: Option<usize>,
        judges: Option<usize>,
    },
    /// `nimlab similarity` on a generated class of `students`.
    Similarity { students: usize },
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

/// Measures what `options` asks and prints the report to `out`.
pub fn run(lab: &Lab, options: &Options, out: &mut impl Write) -> Result<u8> {
    if options.compare.is_some() && matches!(options.what, What::Website { .. }) {
        return Err(Error::usage(
            "--compare times check or grade (--class); the website is not compared",
        ));
    }
    if let What::Website {
        students,
        workers,
        judges,
    } = options.what
    {
        let judges = match judges {
            None => None,
            Some(judges) => Some(website::Judges::new(judges, options.db.as_deref())?),
        };
        return website::run(lab, students, workers, judges, out);
    }
    if options.repeat == 0 {
        return Err(Error::usage("--repeat must be at least 1"));
    }
    if let Some(other) = &options.compare {
        return compare::run(lab, options, other, out);
    }
    if let What::Similarity { students } = options.what {
        return similarity::run(lab, students, options.repeat, out);
    }
    if let What::Class { students, runner } = options.what {
        return class::run(lab, students, &options.python, runner, out);
    }
    let solution = Solution::write(lab, options)?;
    by_judging(&solution, out)
}

/// A game exercise is timed game by game; any other, case by case.
fn by_judging(solution: &Solution, out: &mut impl Write) -> Result<u8> {
    match nimlab_core::judge::output_judge(solution.exercise.judging()) {
        Ok(_) => stdin::run(solution, out),
        Err(referee) => game::run(solution, referee, out),
    }
}

/// An exercise's model solution, written alone to a scratch folder, to be timed.
struct Solution<'a> {
    lab: &'a Lab,
    exercise: &'a LabExercise,
    /// The interpreter `--python` names.
    python: PathBuf,
    /// The solution's file, in `folder`.
    file: PathBuf,
    folder: tempfile::TempDir,
    /// Repetitions of each measurement.
    repeat: usize,
}

/// What was timed, as the reports name it.
#[derive(Debug, Clone)]
struct About {
    exercise: String,
    cases: usize,
    /// The interpreter `--python` names.
    python: PathBuf,
    /// The exercise's own interpreters, which a whole `nimlab check` runs it under.
    interpreters: Vec<String>,
    repeat: usize,
}

impl<'a> Solution<'a> {
    fn about(&self) -> About {
        About {
            exercise: self.exercise.name.clone(),
            cases: self.exercise.cases.len(),
            python: self.python.clone(),
            interpreters: self.exercise.config.interpreters.clone(),
            repeat: self.repeat,
        }
    }

    /// The model solution of the exercise `options` names, written out; a usage error when
    /// there is nothing to time.
    fn write(lab: &'a Lab, options: &Options) -> Result<Solution<'a>> {
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
        let python = common::python(&options.python)?;
        let folder = common::scratch()?;
        let file = folder.path().join(format!("{}.py", exercise.name));
        std::fs::write(&file, solution)
            .map_err(|e| Error::internal("cannot write the solution to time", e))?;
        Ok(Solution {
            lab,
            exercise,
            python,
            file,
            folder,
            repeat: options.repeat,
        })
    }
}
