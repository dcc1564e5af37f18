//! The terminal report: one line per case, then feedback on failed sample cases.

use super::TranscriptEntry as Entry;
use super::{CaseFeedback, CaseReport, CheckReport, Event, Reporter, RunReport};
use crate::escape::terminal;
use crate::lab::Visibility;
use crate::verdict::Verdict;
use anstyle::{AnsiColor, Style};
use std::collections::HashSet;
use std::io::Write;

const GOOD: Style = AnsiColor::Green.on_default();
const BAD: Style = AnsiColor::Red.on_default();
const NOTE: Style = AnsiColor::Yellow.on_default();
const DIM: Style = Style::new().dimmed();
const BOLD: Style = Style::new().bold();
/// Feedback on more failed samples than this would bury the first one.
const MAX_FEEDBACK_PER_RUN: usize = 2;

/// Writes to any stream; colour codes are removed by `anstream` where they don't belong.
pub struct TextReporter<W: Write> {
    out: W,
}

impl<W: Write> TextReporter<W> {
    pub fn new(out: W) -> Self {
        TextReporter { out }
    }
}

fn verdict_style(verdict: Verdict) -> Style {
    match verdict {
        Verdict::Accepted => GOOD,
        Verdict::Skipped | Verdict::JudgeError | Verdict::NotJudged => NOTE,
        _ => BAD,
    }
}

fn mark(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Accepted => "ok",
        Verdict::Skipped => "--",
        Verdict::NotJudged => "??",
        _ => "XX",
    }
}

/// Trailing spaces and tabs made visible, since they can be the whole difference; very long
/// lines cut; control characters shown as escapes.
fn visible(line: &str) -> String {
    const MAX_CHARS: usize = 100;
    let line = terminal(line.trim_end_matches('\n'));
    let line = line.as_ref();
    if line.chars().count() > MAX_CHARS {
        let kept: String = line.chars().take(MAX_CHARS).collect();
        return format!("{kept}… ({} characters in all)", line.chars().count());
    }
    let body = line.trim_end_matches(' ');
    let trailing = line.len() - body.len();
    format!("{}{}", body.replace('\t', "→"), "·".repeat(trailing))
}

impl<W: Write> TextReporter<W> {
    fn run(&mut self, run: &RunReport) -> std::io::Result<()> {
        let out = &mut self.out;
        writeln!(out)?;
        let path = run
            .path
            .as_deref()
            .map(|p| format!("  ({})", terminal(p)))
            .unwrap_or_default();
        writeln!(out, "{BOLD}{}{BOLD:#}{DIM}{path}{DIM:#}", run.label())?;
        if let Some(message) = &run.message {
            let style = verdict_style(run.verdict);
            writeln!(
                out,
                "  {style}{}{style:#}: {}",
                run.verdict.label(),
                terminal(message)
            )?;
            if let Some(syntax) = &run.syntax {
                if let Some(line) = &syntax.source_line {
                    writeln!(out, "      {}", terminal(line))?;
                }
                if let Some(hint) = &syntax.hint {
                    writeln!(out, "  {NOTE}hint:{NOTE:#} {}", terminal(hint))?;
                }
            }
            if run.verdict == Verdict::Skipped || run.verdict == Verdict::SyntaxError {
                return Ok(());
            }
        }
        let width = run
            .cases
            .iter()
            .map(|c| terminal(&c.name).len())
            .max()
            .unwrap_or(0);
        for case in &run.cases {
            let style = verdict_style(case.verdict);
            // What the report holds is shown: a student's view of a secret case holds its
            // verdict alone (`report::student`).
            let time = match case.time_ms {
                Some(ms) => format!(" {DIM}{ms:>5} ms{DIM:#}"),
                None => " ".repeat(9),
            };
            let rest = match case.message.as_str() {
                "" if case.time_ms.is_none() => String::new(),
                "" => time,
                message => format!("{time}  {}", terminal(message)),
            };
            let verdict = if rest.is_empty() {
                case.verdict.label().to_string()
            } else {
                format!("{:<21}", case.verdict.label())
            };
            writeln!(
                out,
                "  {style}{}{style:#} {:width$}  {style}{verdict}{style:#}{rest}",
                mark(case.verdict),
                terminal(&case.name),
            )?;
        }
        writeln!(out, "  score {}/{}", run.score, run.max_score)?;
        if let Some(note) = &run.runner_note {
            let note = terminal(note).replace('\n', "\n          ");
            writeln!(out, "  {DIM}runner:{DIM:#} {note}")?;
        }
        Ok(())
    }

    fn feedback<'a>(&mut self, report: &'a CheckReport) -> std::io::Result<()> {
        // Failures of earlier runs: the same failure (verdict, message and output) under
        // another interpreter is only named; one that differs is shown whole. A hint is
        // written once.
        let mut earlier: HashSet<(&str, Verdict, &str, &str)> = HashSet::new();
        let mut hinted: HashSet<&'a str> = HashSet::new();
        let mut header = false;
        for run in &report.runs {
            let failures: Vec<(&CaseReport, &CaseFeedback)> = run
                .cases
                .iter()
                // The terminal shows the samples' feedback; the instructor's JSON and the
                // website keep the secret cases' too.
                .filter(|c| c.visibility == Visibility::Sample)
                .filter_map(|c| c.feedback.as_ref().map(|f| (c, f)))
                .collect();
            if failures.is_empty() {
                continue;
            }
            if !header {
                writeln!(self.out, "\n{BOLD}Feedback on failed sample cases{BOLD:#}")?;
                header = true;
            }
            let key = |(c, f): &(&'a CaseReport, &'a CaseFeedback)| {
                (
                    c.name.as_str(),
                    c.verdict,
                    c.message.as_str(),
                    f.got.as_str(),
                )
            };
            let (same, new): (Vec<_>, Vec<_>) =
                failures.iter().partition(|f| earlier.contains(&key(f)));
            for (case, feedback) in new.iter().take(MAX_FEEDBACK_PER_RUN) {
                self.case_feedback(run, case, feedback, &mut hinted)?;
            }
            if new.len() > MAX_FEEDBACK_PER_RUN {
                writeln!(
                    self.out,
                    "\n{DIM}({} more failed sample case(s) under {}: fix the ones above first){DIM:#}",
                    new.len() - MAX_FEEDBACK_PER_RUN,
                    run.label()
                )?;
            }
            if !same.is_empty() {
                let names: Vec<_> = same.iter().map(|(c, _)| terminal(&c.name)).collect();
                writeln!(
                    self.out,
                    "\n{DIM}Under {}, {} failed the same way as under an interpreter above.{DIM:#}",
                    run.label(),
                    names.join(", ")
                )?;
                // The same failure can still get advice of its own (Python 2's input()).
                for (_, feedback) in &same {
                    for hint in &feedback.hints {
                        if hinted.insert(hint.as_str()) {
                            writeln!(self.out, "   {NOTE}hint:{NOTE:#} {}", terminal(hint))?;
                        }
                    }
                }
            }
            earlier.extend(failures.iter().map(key));
        }
        Ok(())
    }

    fn case_feedback<'a>(
        &mut self,
        run: &RunReport,
        case: &CaseReport,
        feedback: &'a CaseFeedback,
        hinted: &mut HashSet<&'a str>,
    ) -> std::io::Result<()> {
        let out = &mut self.out;
        let style = verdict_style(case.verdict);
        writeln!(
            out,
            "\n── {BOLD}{}{BOLD:#} under {}: {style}{}{style:#}",
            terminal(&case.name),
            run.label(),
            case.verdict.label()
        )?;
        if !case.message.is_empty() {
            writeln!(out, "   {}", terminal(&case.message))?;
        }
        let input_label = if feedback.transcript.is_some() {
            "scenario:"
        } else {
            "input:"
        };
        writeln!(out, "   {DIM}{input_label}{DIM:#}")?;
        for line in feedback.input.lines() {
            writeln!(out, "     {}", terminal(line))?;
        }
        if let Some(transcript) = &feedback.transcript {
            write_transcript(out, transcript)?;
        }
        match &feedback.first_difference {
            Some(diff) => {
                writeln!(out, "   {DIM}first difference, line {}:{DIM:#}", diff.line)?;
                let side = |s: &Option<String>| match s {
                    Some(line) => visible(line),
                    None => "(no more lines)".into(),
                };
                writeln!(out, "     expected: {GOOD}{}{GOOD:#}", side(&diff.expected))?;
                writeln!(out, "     got:      {BAD}{}{BAD:#}", side(&diff.got))?;
                if !feedback.got.is_empty() {
                    write_diff(out, &feedback.expected, &feedback.got)?;
                }
            }
            None if case.verdict == Verdict::WrongAnswer && feedback.transcript.is_none() => {
                let label = if feedback.one_of_many {
                    "one right answer (of many):"
                } else {
                    "expected:"
                };
                writeln!(out, "   {DIM}{label}{DIM:#}")?;
                for line in feedback.expected.lines() {
                    writeln!(out, "     {GOOD}{}{GOOD:#}", visible(line))?;
                }
                writeln!(out, "   {DIM}got:{DIM:#}")?;
                if feedback.got.is_empty() {
                    writeln!(out, "     {DIM}(nothing){DIM:#}")?;
                }
                for line in feedback.got.lines() {
                    writeln!(out, "     {BAD}{}{BAD:#}", visible(line))?;
                }
            }
            None => {}
        }
        if let Some(stderr) = &feedback.stderr {
            writeln!(out, "   {DIM}the program's error output ends with:{DIM:#}")?;
            for line in stderr.lines() {
                writeln!(out, "     {}", terminal(line))?;
            }
        }
        for hint in &feedback.hints {
            if hinted.insert(hint.as_str()) {
                writeln!(out, "   {NOTE}hint:{NOTE:#} {}", terminal(hint))?;
            }
        }
        Ok(())
    }
}

/// The game as it went: the program's output as printed, what nimlab typed after `» `, and
/// where a rule broke after `✗ `. A long game shows its end, where things went wrong.
fn write_transcript(out: &mut impl Write, transcript: &[Entry]) -> std::io::Result<()> {
    const MAX_LINES: usize = 60;
    let mut lines: Vec<String> = vec![String::new()];
    for entry in transcript {
        match entry {
            Entry::Program(text) => {
                for (i, piece) in text.split('\n').enumerate() {
                    if i > 0 {
                        lines.push(String::new());
                    }
                    lines
                        .last_mut()
                        .expect("never empty")
                        .push_str(&terminal(piece));
                }
            }
            Entry::Typed(text) => {
                let last = lines.last_mut().expect("never empty");
                last.push_str(&format!("{NOTE}» {}{NOTE:#}", terminal(text)));
                lines.push(String::new());
            }
            Entry::Judge(text) => {
                if !lines.last().expect("never empty").is_empty() {
                    lines.push(String::new());
                }
                *lines.last_mut().expect("never empty") =
                    format!("{DIM}(nimlab: {}){DIM:#}", terminal(text));
                lines.push(String::new());
            }
            Entry::Broken(text) => {
                if !lines.last().expect("never empty").is_empty() {
                    lines.push(String::new());
                }
                *lines.last_mut().expect("never empty") =
                    format!("{BAD}✗ {}{BAD:#}", terminal(text));
                lines.push(String::new());
            }
        }
    }
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    writeln!(out, "   {DIM}the game (» is what nimlab typed):{DIM:#}")?;
    let skip = lines.len().saturating_sub(MAX_LINES);
    if skip > 0 {
        writeln!(out, "     {DIM}… ({skip} earlier line(s) not shown){DIM:#}")?;
    }
    for line in &lines[skip..] {
        writeln!(out, "     {line}")?;
    }
    Ok(())
}

/// A coloured line diff around the changes (- expected, + got).
fn write_diff(out: &mut impl Write, expected: &str, got: &str) -> std::io::Result<()> {
    const MAX_LINES: usize = 24;
    let diff = similar::TextDiff::from_lines(expected, got);
    writeln!(out, "   {DIM}diff (- expected, + got):{DIM:#}")?;
    let mut written = 0;
    for group in diff.grouped_ops(1) {
        for op in group {
            for change in diff.iter_changes(&op) {
                if written == MAX_LINES {
                    return writeln!(out, "     {DIM}…{DIM:#}");
                }
                let (sign, style) = match change.tag() {
                    similar::ChangeTag::Delete => ("-", GOOD),
                    similar::ChangeTag::Insert => ("+", BAD),
                    similar::ChangeTag::Equal => (" ", DIM),
                };
                writeln!(
                    out,
                    "     {style}{sign} {}{style:#}",
                    visible(change.value())
                )?;
                written += 1;
            }
        }
    }
    Ok(())
}

impl<W: Write> Reporter for TextReporter<W> {
    fn event(&mut self, event: &Event) -> std::io::Result<()> {
        match event {
            Event::Started {
                exercise,
                title,
                submission,
            } => writeln!(
                self.out,
                "{BOLD}{}{BOLD:#} ({}): {}",
                terminal(exercise),
                terminal(title),
                terminal(submission)
            )?,
            Event::CaseFinished { .. } => {}
            Event::RunFinished(run) => self.run(run)?,
            Event::Finished(report) => {
                if !report.warnings.is_empty() {
                    writeln!(self.out, "\n{BOLD}Warnings{BOLD:#}")?;
                    for warning in &report.warnings {
                        let (style, word) = if warning.fails {
                            (BAD, "not allowed")
                        } else {
                            (NOTE, "warning")
                        };
                        writeln!(
                            self.out,
                            "  line {}: {style}{word}{style:#}: {}",
                            warning.line,
                            terminal(&warning.message)
                        )?;
                    }
                }
                self.feedback(report)?;
                for hint in &report.hints {
                    writeln!(self.out, "\n{NOTE}hint:{NOTE:#} {}", terminal(hint))?;
                }
                let style = if report.isolation.starts_with("not isolated") {
                    NOTE
                } else {
                    DIM
                };
                writeln!(self.out, "\n{style}{}{style:#}", report.isolation)?;
                let style = verdict_style(report.verdict);
                writeln!(
                    self.out,
                    "{BOLD}Verdict:{BOLD:#} {style}{}{style:#}, score {}/{}",
                    report.verdict.label(),
                    report.score,
                    report.max_score
                )?;
            }
        }
        self.out.flush()
    }
}
