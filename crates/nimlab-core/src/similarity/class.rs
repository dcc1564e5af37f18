//! A class folder's similarity: its submissions found as `grade` finds them, each exercise
//! compared on its own (two at a time, one per core).

use super::{ExerciseSummary, Similarity, Submission, exercise_pairs};
use crate::error::{Error, Result};
use crate::grade::book::Skipped;
use crate::grade::discovery;
use crate::lab::{Lab, LabExercise};
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

/// No student's exercise is this long; the rest of a longer file is not compared.
const MAX_SOURCE_BYTES: u64 = 256 * 1024;

/// What was found but not compared: the entries `grade` would not read either.
fn not_read(class: &discovery::Class) -> Vec<Skipped> {
    let mut not_read = class.skipped.clone();
    not_read.extend(class.submissions.iter().filter_map(|found| {
        found.unreadable.as_ref().map(|reason| Skipped {
            file: found.relative.clone(),
            reason: reason.clone(),
        })
    }));
    not_read.sort();
    not_read.dedup();
    not_read
}

/// Each program compared, by (exercise, student id), for showing pairs side by side.
pub type Sources = HashMap<(String, String), String>;

/// The similarity of the class in `dir`; `skip` is a folder inside it not to look into (the
/// output's); `results`, the folder where `nimlab grade` wrote this class's results.json,
/// whose wrong outputs count as evidence too.
pub fn analyse(
    lab: &Lab,
    dir: &Path,
    skip: Option<&Path>,
    results: Option<&Path>,
) -> Result<(Similarity, Sources)> {
    let class = discovery::survey(lab, dir, None, skip)?;
    let outputs = match results {
        Some(folder) => wrong_outputs(folder)?,
        None => HashMap::new(),
    };
    let mut by_exercise: HashMap<&str, Vec<Submission>> = HashMap::new();
    for found in class.submissions.iter().filter(|f| f.unreadable.is_none()) {
        by_exercise
            .entry(found.exercise.as_str())
            .or_default()
            .push(Submission {
                student: found.student.id.clone(),
                source: read_source(&found.file)?,
                outputs: outputs
                    .get(&(found.student.id.clone(), found.exercise.clone()))
                    .cloned()
                    .unwrap_or_default(),
            });
    }
    let exercises: Vec<&LabExercise> = lab
        .exercises
        .iter()
        .filter(|e| by_exercise.contains_key(e.name.as_str()))
        .collect();
    let results = compare_all(&exercises, &by_exercise);
    let mut report = Similarity {
        nimlab_version: env!("CARGO_PKG_VERSION").to_string(),
        lab: lab.origin.to_string(),
        caution: super::CAUTION.to_string(),
        flag_score: super::FLAG_SCORE,
        exercises: Vec::new(),
        pairs: Vec::new(),
        clusters: Vec::new(),
        not_read: not_read(&class),
    };
    for (exercise, (pairs, clusters)) in exercises.iter().zip(results) {
        report.exercises.push(ExerciseSummary {
            exercise: exercise.name.clone(),
            students: by_exercise[exercise.name.as_str()].len(),
            flagged: pairs.iter().filter(|p| p.flagged).count(),
        });
        report.pairs.extend(pairs);
        report.clusters.extend(clusters);
    }
    let sources = by_exercise
        .into_iter()
        .flat_map(|(exercise, submissions)| {
            submissions
                .into_iter()
                .map(move |s| ((exercise.to_string(), s.student), s.source))
        })
        .collect();
    Ok((report, sources))
}

type Compared = (Vec<super::Pair>, Vec<super::Cluster>);

/// Every exercise's pairs, in the order given, on as many threads as there are cores.
fn compare_all(
    exercises: &[&LabExercise],
    by_exercise: &HashMap<&str, Vec<Submission>>,
) -> Vec<Compared> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(vec![None; exercises.len()]);
    std::thread::scope(|scope| {
        for _ in 0..crate::pool::default_jobs().min(exercises.len()).max(1) {
            scope.spawn(|| {
                loop {
                    let at = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(exercise) = exercises.get(at) else {
                        break;
                    };
                    let code = lab_code(exercise);
                    let code: Vec<&str> = code.iter().map(String::as_str).collect();
                    let compared =
                        exercise_pairs(&exercise.name, &code, &by_exercise[exercise.name.as_str()]);
                    done.lock().unwrap_or_else(|e| e.into_inner())[at] = Some(compared);
                }
            });
        }
    });
    done.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect()
}

/// The code the lab gives for an exercise: its starter, its model solution, and every
/// fenced block of its statement.
pub fn lab_code(exercise: &LabExercise) -> Vec<String> {
    let mut code = vec![exercise.stub.clone()];
    code.extend(exercise.solution.clone());
    let mut block: Option<String> = None;
    for line in exercise.statement.lines() {
        match (&mut block, line.trim_start().starts_with("```")) {
            (None, true) => block = Some(String::new()),
            (Some(_), true) => code.extend(block.take()),
            (Some(text), false) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, false) => {}
        }
    }
    code
}

/// Every graded submission's wrong outputs in `folder`/results.json, by (student id,
/// exercise).
fn wrong_outputs(folder: &Path) -> Result<HashMap<(String, String), Vec<String>>> {
    let path = folder.join("results.json");
    let bytes = std::fs::read(&path).map_err(|e| Error::unreadable(&path, &e))?;
    let book: crate::grade::Gradebook = serde_json::from_slice(&bytes).map_err(|e| {
        Error::input(
            &path,
            format!("not a results.json written by nimlab grade: {e}"),
        )
    })?;
    let mut outputs = HashMap::new();
    for student in &book.students {
        let id = crate::grade::mistakes::student_id(student);
        for (exercise, result) in &student.exercises {
            if let Some(report) = &result.report {
                let wrong = crate::grade::mistakes::wrong_outputs(report);
                outputs.insert((id.to_string(), exercise.clone()), wrong);
            }
        }
    }
    Ok(outputs)
}

/// A student's file as text (bytes that are not UTF-8 replaced), its first 256 KiB.
fn read_source(path: &Path) -> Result<String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_SOURCE_BYTES).read_to_end(&mut bytes))
        .map_err(|e| Error::input(path, format!("cannot read: {e}")))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
