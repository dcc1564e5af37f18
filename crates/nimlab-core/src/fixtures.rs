//! `nimlab fixtures verify|generate`: keeping fixtures honest, and making new ones.

use crate::error::{Error, Result};
use crate::judge::{OutputJudge, Verdict, output_judge};
use crate::lab::{Case, Lab, LabExercise};
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
    match output_judge(exercise.judging()) {
        Ok(judge) => verify_answers(exercise, judge.as_ref(), found),
        Err(_played) => verify_by_model_solution(exercise, found),
    }
}

/// Judges the stored .out and the reference's answer of every case as a submission's output
/// would be judged: both must be right.
fn verify_answers(
    exercise: &LabExercise,
    judge: &dyn OutputJudge,
    found: &mut Vec<Disagreement>,
) -> usize {
    let Some(module) = exercise.module else {
        return 0;
    };
    let mut report = |case: &str, problem: String| {
        found.push(Disagreement {
            exercise: exercise.name.clone(),
            case: case.to_string(),
            problem,
        })
    };
    // Stored answers are written as the exercise's default settings answer them.
    let default_settings = match module.settings(&toml::Table::new()) {
        Ok(settings) => settings,
        Err(bad) => {
            report("exercise.toml", format!("no default settings: {bad}"));
            return 0;
        }
    };
    for case in &exercise.cases {
        let reference = match module.reference(case.input.text(), &default_settings) {
            Ok(answer) => answer,
            Err(bad) => {
                report(
                    &case.name,
                    format!("the reference cannot read the .in file: {bad}"),
                );
                continue;
            }
        };
        // The stored .out, judged against the reference's answer as a submission's output
        // would be; where many answers are right, the reference's own answer must be one.
        let against_reference = Case {
            expected: reference.clone(),
            ..case.clone()
        };
        let mut answers = vec![("the stored .out", &case.stored_expected)];
        if judge.one_of_many() {
            answers.push(("the reference's answer", &reference));
        }
        for (what, answer) in answers {
            let judgement = judge.judge(&against_reference, answer);
            let why = judgement.message;
            let problem = match judgement.verdict {
                Verdict::Accepted => continue,
                Verdict::JudgeError => format!("the checker cannot read the .in file ({why})"),
                _ if judge.one_of_many() => format!("the checker rejects {what}: {why}"),
                _ => format!(
                    "the .out file disagrees with the reference: {why} (reference: {})",
                    reference.trim_end()
                ),
            };
            report(&case.name, problem);
        }
    }
    exercise.cases.len()
}

/// Runs the model solution on every case (an interactive exercise's scenarios), under each
/// interpreter installed: every case must accept it.
fn verify_by_model_solution(exercise: &LabExercise, found: &mut Vec<Disagreement>) -> usize {
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
            lab_exercises: &[],
            submission: &file,
            shown_as: None,
            interpreters: &exercise.config.interpreters,
            jobs: crate::pool::default_jobs(),
            siblings: false,
            shared: None,
            runs_side_by_side: true,
            stop: crate::stop::Stop::never(),
        };
        crate::check::check(
            &request,
            &crate::runner::ProcessRunner::detect(),
            &mut crate::report::Silent,
        )
        .map_err(|e| std::io::Error::other(e.to_string()))
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
        let proof = exercise.module.and_then(|module| module.proof());
        if let Some(Err(problem)) = &proof {
            found.push(Disagreement {
                exercise: exercise.name.clone(),
                case: "proof".into(),
                problem: problem.clone(),
            });
        }
        let problems = found.len() - before;
        let status = if output_judge(exercise.judging()).is_err() {
            match problems {
                0 => format!("{checked} scenario(s) played; the model solution passes them all"),
                n => format!("{n} problem(s) in {checked} scenario(s)"),
            }
        } else {
            match (exercise.has_reference(), problems) {
                (false, _) => "no stdin reference (not checked)".to_string(),
                (true, 0) => format!("{checked} case(s) agree with the reference"),
                (true, n) => format!("{n} problem(s) in {checked} case(s)"),
            }
        };
        let status = match proof {
            Some(Ok(proved)) => format!("{status}; {proved}"),
            _ => status,
        };
        writeln!(out, "{:<14} {status}", exercise.name)
            .map_err(|e| Error::internal("cannot write to stdout", e))?;
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
    let Some(module) = exercise.module.filter(|_| exercise.has_reference()) else {
        return Err(Error::usage(format!(
            "{} has no stdin reference: its cases cannot be generated",
            exercise.name
        )));
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::input(dir, format!("cannot create the folder: {e}")))?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut written = Vec::new();
    for n in 1..=count {
        let input = module
            .generate(&mut rng)
            .expect("stdin exercises generate cases");
        let output = module.reference(&input, &exercise.settings).map_err(|e| {
            Error::internal(
                "the generator made a case the reference rejects (a nimlab bug)",
                std::io::Error::other(e.to_string()),
            )
        })?;
        let stem = format!("gen-{seed}-{n:03}");
        for (ext, text) in [("in", &input), ("out", &output)] {
            let path = dir.join(format!("{stem}.{ext}"));
            crate::fsutil::write_new(&path, text.as_bytes())
                .map_err(|e| Error::input(&path, format!("cannot write: {e}")))?;
        }
        written.push(stem);
    }
    Ok(written)
}
