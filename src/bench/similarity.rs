//! `nimlab bench --similarity N`: `nimlab similarity` on a generated class of N students, each
//! handing in every exercise (the model solution with names of their own, comments and
//! debugging lines), and one exercise compared again as when one upload arrives on the
//! website. Goals: a class of 300 in under 5 s, an upload in under 100 ms.

use super::common::{self, median, ms, stdout_error, verdict};
use nimlab_core::error::{Error, Result};
use nimlab_core::lab::Lab;
use nimlab_core::similarity::{Submission, class, exercise_pairs, tokens};
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CLASS_GOAL: Duration = Duration::from_secs(5);
const UPLOAD_GOAL: Duration = Duration::from_millis(100);

pub(super) fn run(lab: &Lab, students: usize, repeat: usize, out: &mut impl Write) -> Result<u8> {
    let folder = common::scratch()?;
    let class_dir = folder.path().join("class");
    let programs = generate(lab, students, &class_dir)?;
    let mut whole = Vec::new();
    for _ in 0..repeat {
        whole.push(time_command(&class_dir, &folder.path().join("out"))?);
    }
    let (exercise, submissions) = programs
        .iter()
        .max_by_key(|(_, s)| s.iter().map(|s| s.source.len()).sum::<usize>())
        .ok_or_else(|| Error::usage("the lab has no exercise with a model solution"))?;
    let lab_exercise = lab.exercise(exercise)?;
    let code = class::lab_code(lab_exercise);
    let code: Vec<&str> = code.iter().map(String::as_str).collect();
    let mut upload = Vec::new();
    for _ in 0..repeat {
        let started = Instant::now();
        let _ = exercise_pairs(exercise, &code, submissions);
        upload.push(started.elapsed());
    }
    let (whole, upload) = (median(whole), median(upload));
    let lines = [
        format!(
            "similarity of a generated class: {students} students x {} exercises, {repeat} rounds, median",
            programs.len()
        ),
        format!(
            "  nimlab similarity, the whole class: {:.0} ms (goal for 300 students: under {} s: {})",
            ms(whole),
            CLASS_GOAL.as_secs(),
            verdict(students < 300 || whole < CLASS_GOAL)
        ),
        format!(
            "  one upload compared with its class ({exercise}, the longest programs): {:.1} ms (goal: under {} ms: {})",
            ms(upload),
            UPLOAD_GOAL.as_millis(),
            verdict(upload < UPLOAD_GOAL)
        ),
    ];
    for line in lines {
        writeln!(out, "{line}").map_err(stdout_error)?;
    }
    Ok(nimlab_core::exit::SUCCESS)
}

/// Times `nimlab similarity` on the class, writing its reports to `out`.
fn time_command(class_dir: &Path, out: &Path) -> Result<Duration> {
    let binary = common::nimlab_binary()?;
    let started = Instant::now();
    let status = Command::new(&binary)
        .arg("similarity")
        .arg(class_dir)
        .arg("--out")
        .arg(out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .status()
        .map_err(|e| Error::internal("cannot start nimlab similarity", e))?;
    let took = started.elapsed();
    if !status.success() {
        return Err(Error::internal(
            "nimlab similarity failed on the generated class",
            std::io::Error::other(status.to_string()),
        ));
    }
    Ok(took)
}

/// Writes the class: every student's version of every model solution. Returns them by
/// exercise.
fn generate(lab: &Lab, students: usize, dir: &Path) -> Result<BTreeMap<String, Vec<Submission>>> {
    let mut programs: BTreeMap<String, Vec<Submission>> = BTreeMap::new();
    for student in 0..students {
        let folder = dir.join(format!("student-{student:04}"));
        std::fs::create_dir_all(&folder)
            .map_err(|e| Error::internal("cannot write the generated class", e))?;
        for exercise in &lab.exercises {
            let Some(solution) = &exercise.solution else {
                continue;
            };
            let seed = (student as u64 + 1) * 7919 + exercise.name.len() as u64;
            let source = vary(solution, &exercise.stub, seed);
            std::fs::write(folder.join(format!("{}.py", exercise.name)), &source)
                .map_err(|e| Error::internal("cannot write the generated class", e))?;
            programs
                .entry(exercise.name.clone())
                .or_default()
                .push(Submission {
                    student: format!("student-{student:04}"),
                    source,
                    outputs: Vec::new(),
                });
        }
    }
    Ok(programs)
}

/// A student's version of `solution`: the names the starter does not give renamed their
/// way, a comment or a debugging line here and there.
fn vary(solution: &str, stub: &str, seed: u64) -> String {
    let mut random = seed | 1;
    let mut next = move || {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        random
    };
    let given: HashSet<String> = tokens::tokenize(stub).into_iter().map(|t| t.text).collect();
    let style = next() % 4;
    let mut renamed: BTreeMap<String, String> = BTreeMap::new();
    let mut out = String::new();
    for line in solution.lines() {
        let mut text = line.to_string();
        for token in tokens::tokenize(line) {
            if token.kind == tokens::Kind::Name && !given.contains(&token.text) {
                let fresh = renamed
                    .entry(token.text.clone())
                    .or_insert_with(|| match style {
                        0 => token.text.clone(),
                        1 => format!("{}_{}", token.text, seed % 97),
                        2 => format!("my{}", token.text),
                        _ => format!("v{}", seed % 1000),
                    })
                    .clone();
                text = replace_word(&text, &token.text, &fresh);
            }
        }
        let indent: String = text.chars().take_while(|c| c.is_whitespace()).collect();
        match next() % 10 {
            0 => out.push_str(&format!("{indent}# step {}\n", next() % 100)),
            1 if text.trim_start().starts_with("return") => {
                out.push_str(&format!("{indent}print(\"debug\", {})\n", next() % 10))
            }
            _ => {}
        }
        out.push_str(&text);
        out.push('\n');
    }
    out
}

/// `text` with the whole word `word` replaced by `by`.
fn replace_word(text: &str, word: &str, by: &str) -> String {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(word) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + word.len()..].chars().next();
        out.push_str(&rest[..at]);
        if before.is_some_and(is_word) || after.is_some_and(is_word) {
            out.push_str(word);
        } else {
            out.push_str(by);
        }
        rest = &rest[at + word.len()..];
    }
    out.push_str(rest);
    out
}
