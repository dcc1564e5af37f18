//! What grading announces as it goes, and the reporters that show it: a progress bar on a
//! terminal, and the summary `nimlab grade` prints. Grading itself prints nothing.
//!
//! Every name shown comes from the class folder, so students chose it: it reaches the
//! terminal escaped, each on its line (`escape::one_line`), piped or not.

use super::book::{ExerciseResult, Gradebook, Status};
use super::discovery::Found;
use crate::escape;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

pub enum GradeEvent<'a> {
    /// The class folder was surveyed: this many submissions will be graded.
    Surveyed { submissions: usize },
    /// A worker started on a submission.
    Started(&'a Found),
    /// A submission's result is in (from the cache or a fresh check).
    Finished {
        submission: &'a Found,
        result: &'a ExerciseResult,
    },
    /// Every report is written into `out`.
    Done {
        book: &'a Gradebook,
        out: &'a Path,
        /// Ctrl-C stopped grading: the reports hold what finished before.
        interrupted: bool,
    },
}

/// Consumes grade events; called from every worker thread at once.
pub trait GradeReporter: Sync {
    fn event(&self, event: &GradeEvent<'_>) -> std::io::Result<()>;
}

/// Several reporters, each given every event.
pub struct Reporters<'a>(pub Vec<&'a dyn GradeReporter>);

impl GradeReporter for Reporters<'_> {
    fn event(&self, event: &GradeEvent<'_>) -> std::io::Result<()> {
        for reporter in &self.0 {
            reporter.event(event)?;
        }
        Ok(())
    }
}

/// Announces nothing.
pub struct Quiet;

impl GradeReporter for Quiet {
    fn event(&self, _: &GradeEvent<'_>) -> std::io::Result<()> {
        Ok(())
    }
}

/// A progress bar on stderr, drawn only where stderr is a terminal and not in CI.
pub struct Progress {
    bar: indicatif::ProgressBar,
}

impl Progress {
    pub fn on_stderr() -> Progress {
        use std::io::IsTerminal;
        let shown = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
        let target = if shown {
            indicatif::ProgressDrawTarget::stderr()
        } else {
            indicatif::ProgressDrawTarget::hidden()
        };
        let bar = indicatif::ProgressBar::with_draw_target(Some(0), target);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} submissions, {elapsed} ({msg})",
            )
            .expect("a valid template"),
        );
        Progress { bar }
    }

    /// The line the bar shows beside it while `found` is graded.
    pub fn message(found: &Found) -> String {
        format!(
            "{} {}",
            escape::one_line(&found.student.name),
            found.exercise
        )
    }
}

impl GradeReporter for Progress {
    fn event(&self, event: &GradeEvent<'_>) -> std::io::Result<()> {
        match event {
            GradeEvent::Surveyed { submissions } => self.bar.set_length(*submissions as u64),
            GradeEvent::Started(found) => self.bar.set_message(Progress::message(found)),
            GradeEvent::Finished { .. } => self.bar.inc(1),
            GradeEvent::Done { .. } => self.bar.finish_and_clear(),
        }
        Ok(())
    }
}

/// What `nimlab grade` prints when done: how many were graded, and every file not graded
/// with the reason.
pub struct Summary<W: Write + Send> {
    out: Mutex<W>,
}

impl<W: Write + Send> Summary<W> {
    pub fn new(out: W) -> Self {
        Summary {
            out: Mutex::new(out),
        }
    }
}

impl<W: Write + Send> GradeReporter for Summary<W> {
    fn event(&self, event: &GradeEvent<'_>) -> std::io::Result<()> {
        let GradeEvent::Done {
            book,
            out: folder,
            interrupted,
        } = event
        else {
            return Ok(());
        };
        let mut out = self.out.lock().expect("no reporter panics");
        let graded = book
            .students
            .iter()
            .flat_map(|s| s.exercises.values())
            .filter(|r| r.status == Status::Graded)
            .count();
        writeln!(
            out,
            "Graded {graded} submission(s) of {} student(s) into {}",
            book.students.len(),
            escape::one_line(&folder.display().to_string())
        )?;
        for file in &book.unattributed {
            writeln!(
                out,
                "  not attributed to a student's exercise: {}",
                escape::one_line(file)
            )?;
        }
        for file in &book.superseded {
            writeln!(
                out,
                "  not graded, another file counts: {} (graded instead: {})",
                escape::one_line(&file.file),
                escape::one_line(&file.graded)
            )?;
        }
        for file in &book.skipped {
            writeln!(
                out,
                "  not read: {}: {}",
                escape::one_line(&file.file),
                file.reason
            )?;
        }
        writeln!(out, "  {}", book.isolation)?;
        out.flush()?;
        if *interrupted {
            writeln!(
                std::io::stderr(),
                "interrupted: the reports hold the submissions graded before Ctrl-C"
            )?;
        }
        Ok(())
    }
}
