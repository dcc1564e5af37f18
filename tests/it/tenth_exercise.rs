//! Adding an exercise takes one module, one registry line and its data. This test adds a
//! tenth exercise, a second interactive one, to the lab: the module is below, the registry
//! line is `registry()`, the data is tests/data/tenth-exercise/. Nothing else in nimlab
//! changes, and the whole pipeline (loading, fixture checks, judging) serves it.

use crate::common;

use nimlab_core::check::{CheckRequest, check};
use nimlab_core::error::BadInput;
use nimlab_core::exercises::Comparison;
use nimlab_core::exercises::{
    self, Exercise, HintContext, Interactive, Judging, Parsed, Played, Settings, TranscriptEntry,
};
use nimlab_core::judge::Verdict;
use nimlab_core::lab::Lab;
use nimlab_core::report::Silent;
use nimlab_core::runner::{Pause, ProcessRunner, Session};
use std::path::Path;

/// The new exercise: the program asks for words and prints each one backwards.
#[derive(Debug)]
struct ReverseEcho;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Words {
    words: Vec<String>,
}

impl Exercise for ReverseEcho {
    fn name(&self) -> &'static str {
        "reverse_echo"
    }

    fn judging(&self, _: Comparison) -> Judging<'_> {
        Judging::Interactive(self)
    }

    fn reference(&self, _: &str, _: &Settings) -> Result<String, BadInput> {
        Err(BadInput::new("reverse_echo is a conversation"))
    }

    fn generate(&self, _: &mut rand_chacha::ChaCha8Rng) -> Option<String> {
        None
    }
}

impl Interactive for ReverseEcho {
    fn label(&self) -> &'static str {
        "conversation"
    }

    fn scenario(
        &self,
        text: &str,
        _: &nimlab_core::exercises::Settings,
    ) -> Result<Parsed, BadInput> {
        let words: Words = toml::from_str(text).map_err(|e| BadInput::new(e.to_string()))?;
        Ok(Parsed::new(words))
    }

    fn play(&self, scenario: &Parsed, program: &mut dyn Session) -> Played {
        let words = &scenario
            .get::<Words>()
            .expect("parsed by this module")
            .words;
        let mut transcript = Vec::new();
        let outcome = converse(words, program, &mut transcript);
        let (verdict, message) = match outcome {
            Ok(()) => (Verdict::Accepted, String::new()),
            Err(why) => why,
        };
        Played {
            verdict,
            message,
            broken_rule: (verdict == Verdict::WrongAnswer).then(|| "echo".to_string()),
            transcript,
            moves: words.len(),
            detail: None,
        }
    }

    fn hints(&self, _: &Played, _: &HintContext) -> Vec<String> {
        vec!["Print each word backwards on its own line: word[::-1].".into()]
    }
}

/// Types each word and reads the answer; then an empty line must end the program.
fn converse(
    words: &[String],
    program: &mut dyn Session,
    transcript: &mut Vec<TranscriptEntry>,
) -> Result<(), (Verdict, String)> {
    let resume = |program: &mut dyn Session, transcript: &mut Vec<TranscriptEntry>| {
        let (pause, out) = program
            .resume()
            .map_err(|e| (Verdict::JudgeError, e.to_string()))?;
        let text = String::from_utf8_lossy(&out).into_owned();
        transcript.push(TranscriptEntry::Program(text.clone()));
        Ok::<_, (Verdict, String)>((pause, text))
    };
    let wrong = |why: String| Err((Verdict::WrongAnswer, why));
    if resume(program, transcript)?.0 != Pause::Waiting {
        return wrong("the program never asked for a word".into());
    }
    for word in words {
        transcript.push(TranscriptEntry::Typed(word.clone()));
        let _ = program.type_line(word);
        let (pause, text) = resume(program, transcript)?;
        let reversed: String = word.chars().rev().collect();
        if text.lines().next() != Some(reversed.as_str()) {
            return wrong(format!("`{word}` backwards is `{reversed}`"));
        }
        if pause != Pause::Waiting {
            return wrong("the program ended before the last word".into());
        }
    }
    transcript.push(TranscriptEntry::Typed(String::new()));
    let _ = program.type_line("");
    match resume(program, transcript)?.0 {
        Pause::Exited => Ok(()),
        _ => wrong("an empty line must end the program".into()),
    }
}

static REVERSE_ECHO: ReverseEcho = ReverseEcho;

/// The registry line: the built-in exercises and the new one.
fn registry() -> Vec<&'static dyn Exercise> {
    let mut registry = exercises::all().to_vec();
    registry.push(&REVERSE_ECHO);
    registry
}

/// The built-in lab's files with the new exercise's data beside them.
fn lab_with_tenth(dir: &Path) -> Lab {
    let root = common::root();
    common::copy_dir(&root.join("exercises"), &dir.join("exercises"));
    common::copy_dir(&root.join("fixtures"), &dir.join("fixtures"));
    let data = root.join("tests/data/tenth-exercise");
    common::copy_dir(&data.join("exercises"), &dir.join("exercises"));
    common::copy_dir(&data.join("fixtures"), &dir.join("fixtures"));
    Lab::from_folder_with(dir, &registry()).expect("the lab with ten exercises loads")
}

fn check_file(lab: &Lab, source: &str) -> nimlab_core::report::CheckReport {
    let exercise = lab.exercise("reverse_echo").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("reverse_echo.py");
    std::fs::write(&file, source).unwrap();
    let names = lab.names();
    let request = CheckRequest {
        exercise,
        lab_names: &names,
        lab_exercises: &lab.exercises,
        submission: &file,
        shown_as: None,
        interpreters: &["3".to_string()],
        jobs: 2,
        siblings: false,
        shared: None,
        runs_side_by_side: false,
        stop: &nimlab_core::stop::Stop::new(),
    };
    check(&request, &ProcessRunner::detect(), &mut Silent).unwrap()
}

#[test]
fn a_tenth_interactive_exercise_is_one_module_one_registry_line_and_its_data() {
    let dir = tempfile::tempdir().unwrap();
    let lab = lab_with_tenth(dir.path());
    // The built-in lab's nine and its two of further study, and this one.
    assert_eq!(lab.exercises.len(), 12);
    let exercise = lab.exercise("reverse_echo").unwrap();
    assert_eq!(exercise.judging_label(), "conversation");
    assert_eq!(exercise.cases.len(), 2);

    // `fixtures verify` plays the scenarios against the model solution.
    let mut disagreements = Vec::new();
    let played = nimlab_core::fixtures::verify_exercise(exercise, &mut disagreements);
    assert_eq!(played, 2);
    assert!(
        disagreements.is_empty(),
        "{:?}",
        disagreements.iter().map(|d| &d.problem).collect::<Vec<_>>()
    );

    let solution = exercise.solution.clone().unwrap();
    let report = check_file(&lab, &solution);
    assert_eq!(report.verdict, Verdict::Accepted, "{report:#?}");

    // A program that echoes without reversing fails, and the module's hint reaches the student.
    let wrong = solution.replace("word[::-1]", "word");
    let report = check_file(&lab, &wrong);
    assert_eq!(report.verdict, Verdict::WrongAnswer);
    let sample = &report.runs[0].cases[0];
    let feedback = sample.feedback.as_ref().unwrap();
    assert!(
        sample.message.contains("backwards is `min`"),
        "{}",
        sample.message
    );
    assert!(feedback.hints.iter().any(|h| h.contains("word[::-1]")));
    assert_eq!(feedback.broken_rule.as_deref(), Some("echo"));
}

#[test]
fn without_its_module_the_tenth_exercise_is_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let root = common::root();
    let data = root.join("tests/data/tenth-exercise");
    common::copy_dir(&data.join("exercises"), &dir.path().join("exercises"));
    common::copy_dir(&data.join("fixtures"), &dir.path().join("fixtures"));
    // Unknown to nimlab, the exercise is compared with expected outputs: its .toml
    // scenarios are not fixtures of that kind, and the error names the file.
    let error = Lab::from_folder(dir.path()).unwrap_err().to_string();
    assert!(
        error.contains("01-") && error.contains(".in or .out"),
        "{error}"
    );
}
