//! `nimlab fixtures verify|generate`: keeping fixtures honest, and making new ones.

use crate::judge::Verdict;
use crate::judge::compare;
use crate::lab::config::Comparison;
use crate::lab::{Lab, LabExercise};
use anyhow::{Context, Result, bail};
use rand::SeedableRng;
use std::path::Path;

/// One fixture that disagrees with the reference.
#[derive(Debug)]
pub struct Disagreement {
    pub exercise: String,
    pub case: String,
    pub problem: String,
}

/// Checks every case of `exercise` against its reference; for checker exercises, that both the
/// stored answer and the reference's answer pass the checker. Returns how many were checked.
pub fn verify_exercise(exercise: &LabExercise, found: &mut Vec<Disagreement>) -> usize {
    if exercise.config.comparison == Comparison::Game {
        return verify_games(exercise, found);
    }
    let Some(module) = exercise.module.filter(|m| m.has_reference()) else {
        return 0;
    };
    let config = &exercise.config;
    let mut report = |case: &str, problem: String| {
        found.push(Disagreement {
            exercise: exercise.name.clone(),
            case: case.to_string(),
            problem,
        })
    };
    // Stored answers are written in the lab's default naming.
    let mut default_config = config.clone();
    default_config.positions = Default::default();
    for case in &exercise.cases {
        let reference = match module.reference(&case.input, &default_config) {
            Ok(answer) => answer,
            Err(bad) => {
                report(
                    &case.name,
                    format!("the reference cannot read the .in file: {bad}"),
                );
                continue;
            }
        };
        if config.comparison == Comparison::Checker {
            for (what, answer) in [
                ("the stored .out", &case.stored_expected),
                ("the reference's answer", &reference),
            ] {
                match module.check(&case.input, answer, config) {
                    Ok(Ok(())) => {}
                    Ok(Err(why)) => {
                        report(&case.name, format!("the checker rejects {what}: {why}"))
                    }
                    Err(bad) => report(
                        &case.name,
                        format!("the checker cannot read the .in file: {bad}"),
                    ),
                }
            }
            continue;
        }
        let mode = match config.comparison {
            Comparison::Game => continue,
            other => other,
        };
        if let Err(mismatch) = compare::compare(mode, &reference, &case.stored_expected) {
            report(
                &case.name,
                format!(
                    "the .out file disagrees with the reference: {} (reference: {})",
                    mismatch.message,
                    reference.trim_end()
                ),
            );
        }
    }
    exercise.cases.len()
}

/// Plays every scenario against the model solution, under each interpreter installed.
fn verify_games(exercise: &LabExercise, found: &mut Vec<Disagreement>) -> usize {
    let mut report = |case: &str, problem: String| {
        found.push(Disagreement {
            exercise: exercise.name.clone(),
            case: case.to_string(),
            problem,
        })
    };
    let Some(solution) = &exercise.solution else {
        report(
            "solution.py",
            "there is no model solution to play the scenarios against".into(),
        );
        return 0;
    };
    let played = tempfile::tempdir().and_then(|dir| {
        let file = dir.path().join(format!("{}.py", exercise.name));
        std::fs::write(&file, solution)?;
        let request = crate::check::CheckRequest {
            exercise,
            lab_names: &[],
            submission: &file,
            interpreters: &exercise.config.interpreters,
            jobs: crate::cli::default_jobs(),
            siblings: false,
        };
        crate::check::check(
            &request,
            &crate::runner::ProcessRunner::detect(),
            &mut crate::report::Silent,
        )
        .map_err(std::io::Error::other)
    });
    match played {
        Ok(result) => {
            for run in result.runs.iter().filter(|r| r.verdict != Verdict::Skipped) {
                for case in run.cases.iter().filter(|c| c.verdict != Verdict::Accepted) {
                    report(
                        &case.name,
                        format!(
                            "the model solution is not accepted under {} ({}): {}",
                            run.label(),
                            case.verdict.label(),
                            case.message
                        ),
                    );
                }
                if let Some(message) = &run.message {
                    report("solution.py", format!("under {}: {message}", run.label()));
                }
            }
        }
        Err(e) => report("solution.py", format!("cannot play the scenarios: {e}")),
    }
    exercise.cases.len()
}

pub fn verify(
    lab: &Lab,
    names: &[String],
    out: &mut impl std::io::Write,
) -> Result<Vec<Disagreement>> {
    let chosen: Vec<&LabExercise> = if names.is_empty() {
        lab.exercises.iter().collect()
    } else {
        names
            .iter()
            .map(|n| lab.exercise(n))
            .collect::<Result<_, _>>()?
    };
    let mut found = Vec::new();
    for exercise in chosen {
        let before = found.len();
        let checked = verify_exercise(exercise, &mut found);
        let problems = found.len() - before;
        let status = if exercise.config.comparison == Comparison::Game {
            match problems {
                0 => format!("{checked} scenario(s) played; the model solution passes them all"),
                n => format!("{n} problem(s) in {checked} scenario(s)"),
            }
        } else {
            match (exercise.module.is_some_and(|m| m.has_reference()), problems) {
                (false, _) => "no stdin reference (not checked)".to_string(),
                (true, 0) => format!("{checked} case(s) agree with the reference"),
                (true, n) => format!("{n} problem(s) in {checked} case(s)"),
            }
        };
        writeln!(out, "{:<14} {status}", exercise.name)?;
    }
    Ok(found)
}

/// Writes `count` new cases made from `seed`: the same seed always gives the same cases.
pub fn generate(
    exercise: &LabExercise,
    seed: u64,
    count: usize,
    dir: &Path,
) -> Result<Vec<String>> {
    let Some(module) = exercise.module.filter(|m| m.has_reference()) else {
        bail!(
            "{} has no stdin reference: its cases cannot be generated",
            exercise.name
        );
    };
    std::fs::create_dir_all(dir)
        .with_context(|| format!("{}: cannot create the folder", dir.display()))?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut written = Vec::new();
    for n in 1..=count {
        let input = module
            .generate(&mut rng)
            .expect("stdin exercises generate cases");
        let output = module.reference(&input, &exercise.config).map_err(|e| {
            anyhow::anyhow!(
                "the generator made a case the reference rejects ({e}); this is a nimlab bug"
            )
        })?;
        let stem = format!("gen-{seed}-{n:03}");
        for (ext, text) in [("in", &input), ("out", &output)] {
            let path = dir.join(format!("{stem}.{ext}"));
            crate::fsutil::write_new(&path, text.as_bytes())
                .with_context(|| format!("{}: cannot write", path.display()))?;
        }
        written.push(stem);
    }
    Ok(written)
}
