//! nimlab as the checker inside a contest system: Kattis's output and input validator
//! protocols and CMS's checker protocol.
//!
//! What arrives here comes from a contestant's program, so it is handled as hostile: the
//! output is read up to the exercise's output limit and no further, the message quotes at
//! most a few hundred bytes of it, and the feedback file is never written through a link
//! planted in the feedback folder.

use super::{Decision, decide, input_is_valid};
use crate::error::{BadInput, Error, Result};
use crate::exit;
use crate::lab::LabExercise;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Exit codes of the Kattis validator protocol.
pub const KATTIS_ACCEPTED: u8 = 42;
pub const KATTIS_WRONG: u8 = 43;

/// The most nimlab reads of a case given to the input validator: the lab's cases are a line
/// or a small JSON document.
const INPUT_CAP: u64 = 16 * 1024 * 1024;
/// The most nimlab reads of an output, whatever the exercise's limit says.
const OUTPUT_CEILING: u64 = 64 * 1024 * 1024;
/// The longest message written for the judge or the contestant, in bytes.
const MESSAGE_CAP: usize = 400;
/// Words (runs without whitespace) longer than this are shortened in a message.
const WORD_CAP: usize = 60;

/// How the contest system calls nimlab.
#[derive(Debug, Clone)]
pub enum Protocol {
    /// Kattis output validator: `INPUT ANSWER FEEDBACK_DIR`, the output on stdin; exits 42
    /// (accepted) or 43 (wrong answer) and explains in FEEDBACK_DIR/judgemessage.txt.
    Kattis {
        input: PathBuf,
        answer: PathBuf,
        feedback: PathBuf,
    },
    /// CMS checker: `INPUT ANSWER OUTPUT`; prints the outcome (1.0 or 0.0) on stdout and the
    /// message on stderr.
    Cms {
        input: PathBuf,
        answer: PathBuf,
        output: PathBuf,
    },
    /// Kattis input validator: the case on stdin; exits 42 when valid, 43 if not.
    InputValidator,
}

/// Runs the checker for one exercise; returns the exit code the protocol asks for.
pub fn run(exercise: &LabExercise, protocol: &Protocol) -> Result<u8> {
    match protocol {
        Protocol::InputValidator => validate_input(exercise),
        Protocol::Kattis {
            input,
            answer,
            feedback,
        } => {
            let (input, answer) = (read_case_file(input)?, read_case_file(answer)?);
            let decision =
                decide_bounded(exercise, &input, &answer, std::io::stdin().lock(), "stdin")?;
            let (code, message) = match decision {
                Decision::Accepted => (KATTIS_ACCEPTED, "accepted".to_string()),
                Decision::Wrong(why) => (KATTIS_WRONG, why),
            };
            append_feedback(&feedback.join("judgemessage.txt"), &message)?;
            Ok(code)
        }
        Protocol::Cms {
            input,
            answer,
            output,
        } => {
            let (input, answer) = (read_case_file(input)?, read_case_file(answer)?);
            let file = std::fs::File::open(output)
                .map_err(|e| Error::input(output, format!("cannot read: {e}")))?;
            let label = output.display().to_string();
            let (outcome, message) = match decide_bounded(exercise, &input, &answer, file, &label)?
            {
                Decision::Accepted => ("1.0", "Output is correct".to_string()),
                Decision::Wrong(why) => ("0.0", why),
            };
            writeln!(std::io::stdout(), "{outcome}")
                .map_err(|e| Error::internal("cannot write to stdout", e))?;
            writeln!(std::io::stderr(), "{message}")
                .map_err(|e| Error::internal("cannot write to stderr", e))?;
            Ok(exit::SUCCESS)
        }
    }
}

fn validate_input(exercise: &LabExercise) -> Result<u8> {
    let (bytes, complete) = read_capped(std::io::stdin().lock(), INPUT_CAP)
        .map_err(|e| Error::input("stdin", format!("cannot read the case: {e}")))?;
    let verdict = if !complete {
        Err(BadInput::new(format!(
            "the case is longer than {} MiB",
            INPUT_CAP / 1024 / 1024
        )))
    } else {
        input_is_valid(exercise, &String::from_utf8_lossy(&bytes))
    };
    Ok(match verdict {
        Ok(()) => KATTIS_ACCEPTED,
        Err(why) => {
            writeln!(
                std::io::stderr(),
                "invalid case: {}",
                bounded_message(&why.to_string())
            )
            .map_err(|e| Error::internal("cannot write to stderr", e))?;
            KATTIS_WRONG
        }
    })
}

/// A case's input or expected answer: the package's own file, read whole.
fn read_case_file(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| Error::input(path, format!("cannot read: {e}")))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The most of an output nimlab reads: the exercise's output limit, within a ceiling.
fn output_cap(exercise: &LabExercise) -> u64 {
    exercise
        .config
        .limits
        .output_kb
        .saturating_mul(1024)
        .min(OUTPUT_CEILING)
}

/// Judges an output read from `source` (named `label` in errors), reading no more than the
/// exercise's output limit: a longer output is wrong without being read to its end.
fn decide_bounded(
    exercise: &LabExercise,
    input: &str,
    answer: &str,
    source: impl Read,
    label: &str,
) -> Result<Decision> {
    let cap = output_cap(exercise);
    let (output, complete) = read_capped(source, cap)
        .map_err(|e| Error::input(label, format!("cannot read the output: {e}")))?;
    if !complete {
        return Ok(Decision::Wrong(format!(
            "the output is longer than the exercise's limit of {} KB",
            cap / 1024
        )));
    }
    Ok(
        match decide(exercise, input, answer, &String::from_utf8_lossy(&output))? {
            Decision::Wrong(why) => Decision::Wrong(bounded_message(&why)),
            accepted => accepted,
        },
    )
}

/// Reads at most `cap` bytes; `false` when there was more.
pub(crate) fn read_capped(source: impl Read, cap: u64) -> std::io::Result<(Vec<u8>, bool)> {
    let mut bytes = Vec::new();
    source.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    let complete = bytes.len() as u64 <= cap;
    bytes.truncate(usize::try_from(cap).unwrap_or(usize::MAX));
    Ok((bytes, complete))
}

/// A message that quotes at most a little of what the program printed: each long word cut
/// to its start, and the whole cut to [`MESSAGE_CAP`] bytes.
pub fn bounded_message(message: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let length = word.chars().count();
        if length > WORD_CAP {
            let start: String = word.chars().take(WORD_CAP / 2).collect();
            out.push_str(&format!(
                "{start}… ({} more characters)",
                length - WORD_CAP / 2
            ));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in message.chars() {
        if c.is_whitespace() {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    if out.len() > MESSAGE_CAP {
        let mut end = MESSAGE_CAP;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        let total = out.len();
        out.truncate(end);
        out.push_str(&format!("… (message cut: {total} bytes)"));
    }
    out
}

/// Appends `message` to the feedback file as Kattis allows, refusing a symbolic link, a
/// FIFO or a file with other names (a hard link) planted there: the message goes only to a
/// regular file of the feedback folder's own. A planted file is the caller's error; a file
/// that cannot be written otherwise is nimlab's.
fn append_feedback(path: &Path, message: &str) -> Result<()> {
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => {
                Error::input(path, "is a symbolic link; nimlab does not write through it")
            }
            Some(libc::ENXIO) => {
                Error::input(path, "is a FIFO, not a file; nimlab does not write to it")
            }
            _ => cannot_write(path, e),
        })?;
    let meta = file
        .metadata()
        .map_err(|e| Error::internal(format!("{}: cannot inspect", path.display()), e))?;
    if !meta.is_file() {
        return Err(Error::input(
            path,
            "is not a regular file; nimlab does not write to it",
        ));
    }
    if meta.nlink() > 1 {
        return Err(Error::input(
            path,
            "has other names (a hard link); nimlab does not write to it",
        ));
    }
    writeln!(file, "{message}").map_err(|e| cannot_write(path, e))
}

fn cannot_write(path: &Path, error: std::io::Error) -> Error {
    Error::internal(
        format!("{}: cannot write the feedback", path.display()),
        error,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_quote_only_the_start_of_long_words() {
        let long = format!("expected 101, got {}", "9".repeat(1_000_000));
        let short = bounded_message(&long);
        assert!(short.len() < MESSAGE_CAP + 40, "{}", short.len());
        assert!(short.starts_with("expected 101, got 999"), "{short}");
        assert!(short.contains("more characters"), "{short}");
        assert_eq!(bounded_message("expected 1, got 2"), "expected 1, got 2");
        let many = "word ".repeat(500);
        let cut = bounded_message(&many);
        assert!(cut.contains("message cut"), "{cut}");
        assert!(cut.len() < MESSAGE_CAP + 40);
    }

    #[test]
    fn reading_stops_past_the_cap() {
        let (bytes, complete) = read_capped(&b"abcdef"[..], 4).unwrap();
        assert_eq!((bytes.as_slice(), complete), (&b"abcd"[..], false));
        let (bytes, complete) = read_capped(&b"abcd"[..], 4).unwrap();
        assert_eq!((bytes.as_slice(), complete), (&b"abcd"[..], true));
    }
}
