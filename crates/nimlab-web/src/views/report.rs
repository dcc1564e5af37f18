//! What `nimlab check` says, in HTML: each interpreter's run, each case's feedback, the
//! differences and a game's transcript.

use super::layout::{badge, verdict_class};
use maud::{Markup, html};
use nimlab_core::judge::Verdict;
use nimlab_core::lab::Visibility;
use nimlab_core::report::{CaseFeedback, CaseReport, CheckReport, RunReport, TranscriptEntry};

/// What `nimlab check` says, in HTML.
pub fn report_view(report: &CheckReport) -> Markup {
    html! {
        p class={"verdict " (verdict_class(Some(report.verdict)))} {
            strong { (capitalized(report.verdict.label())) }
            " · score " (report.score) "/" (report.max_score)
        }
        @if !report.warnings.is_empty() {
            h2 { "Warnings" }
            @for warning in &report.warnings {
                p class=(if warning.fails { "error" } else { "hint" }) {
                    "line " (warning.line) ": " strong { @if warning.fails { "not allowed" } @else { "warning" } } ": " (prose(&warning.message))
                }
            }
        }
        @for hint in &report.hints { p.hint { strong { "Hint: " } (prose(hint)) } }
        @for (index, run) in report.runs.iter().enumerate() { (run_view(run, &report.runs[..index])) }
        p.small.dim { (report.isolation) }
    }
}

/// A message as the terminal report writes it, with `code` in backticks: the backticks
/// become code spans (escaped like everything else); an unpaired one stays as it is.
pub fn prose(text: &str) -> Markup {
    let parts: Vec<&str> = text.split('`').collect();
    let paired = parts.len() % 2 == 1;
    html! {
        @for (index, part) in parts.iter().enumerate() {
            @if index % 2 == 1 && (paired || index + 1 < parts.len()) { code { (part) } }
            @else if index % 2 == 1 { "`" (part) }
            @else { (part) }
        }
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Feedback on more failed samples than this is folded away: the first ones matter.
const OPEN_FEEDBACK: usize = 2;

/// A failed sample case as the same failure under another interpreter would be.
fn failure_key(case: &CaseReport) -> Option<(&str, &str, Verdict)> {
    case.feedback
        .as_ref()
        .map(|f| (case.name.as_str(), f.got.as_str(), case.verdict))
}

/// One interpreter's run; a failure already shown under an `earlier` run is only named.
fn run_view(run: &RunReport, earlier: &[RunReport]) -> Markup {
    let seen: std::collections::HashSet<(&str, &str, Verdict)> = earlier
        .iter()
        .flat_map(|r| r.cases.iter().filter_map(failure_key))
        .collect();
    let (repeated, failures): (Vec<&CaseReport>, Vec<&CaseReport>) = run
        .cases
        .iter()
        .filter(|c| c.feedback.is_some())
        .partition(|c| failure_key(c).is_some_and(|key| seen.contains(&key)));
    let failures: Vec<(&CaseReport, &CaseFeedback)> = failures
        .into_iter()
        .filter_map(|c| c.feedback.as_ref().map(|f| (c, f)))
        .collect();
    let cases_shown = !matches!(run.verdict, Verdict::Skipped | Verdict::SyntaxError);
    html! {
        section.run {
            h2 { (run.label()) " " (badge(run.verdict)) " "
                 @if run.verdict != Verdict::Skipped { span.small.dim { "score " (run.score) "/" (run.max_score) } } }
            @if let Some(message) = &run.message {
                pre tabindex="0" { (message) }
                @if let Some(syntax) = &run.syntax {
                    @if let Some(line) = &syntax.source_line { pre tabindex="0" { (line) } }
                    @if let Some(hint) = &syntax.hint { p.hint { strong { "Hint: " } (prose(hint)) } }
                }
            }
            @if cases_shown {
                // What went wrong first (with its hints), then every case.
                @for (index, (case, feedback)) in failures.iter().enumerate() {
                    (case_view(case, feedback, index < OPEN_FEEDBACK))
                }
                div.scroll tabindex="0" { table {
                    thead { tr { th { "Case" } th { "Verdict" } th.num { "CPU" } th.wide { "What happened" } } }
                    tbody {
                        @for case in &run.cases {
                            tr {
                                td { code { (case.name) } }
                                td { (badge(case.verdict)) }
                                // What the report holds: a student's holds a secret case's verdict alone.
                                td.num.small { @if let Some(ms) = case.time_ms { (ms) " ms" } }
                                td.wide.small { (prose(&case.message)) }
                            }
                        }
                    }
                } }
                @if !repeated.is_empty() {
                    p.small.dim {
                        "Under " (run.label()) ", "
                        (repeated.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", "))
                        " failed the same way as above."
                    }
                }
            }
        }
    }
}

/// Trailing spaces and tabs made visible, since they can be the whole difference.
fn visible(line: &str) -> String {
    let line = line.trim_end_matches('\n');
    let body = line.trim_end_matches(' ');
    format!(
        "{}{}",
        body.replace('\t', "→"),
        "·".repeat(line.len() - body.len())
    )
}

fn lines_visible(text: &str) -> String {
    text.lines().map(visible).collect::<Vec<_>>().join("\n")
}

/// The whole expected output and the whole of what the program printed (as clipped for
/// every report), each as a block.
fn whole_outputs(feedback: &CaseFeedback, secret: bool) -> Markup {
    html! {
        p.small.dim {
            @if feedback.one_of_many { "One right answer (of many):" }
            @else if secret { "The whole expected output:" }
            @else { "Expected:" }
        }
        pre tabindex="0" { (lines_visible(&feedback.expected)) }
        p.small.dim { @if secret { "The whole of what the program printed:" } @else { "Your program printed:" } }
        pre tabindex="0" { @if feedback.got.is_empty() { span.dim { "(nothing)" } } @else { (lines_visible(&feedback.got)) } }
    }
}

fn case_view(case: &CaseReport, feedback: &CaseFeedback, open: bool) -> Markup {
    let game = feedback.transcript.is_some();
    // Only staff get a secret case's feedback (a student's report has its verdict alone):
    // they see every detail of it, none folded away within the case.
    let secret = case.visibility == Visibility::Secret;
    html! {
        details.case open[open] {
            summary { code { (case.name) } " " (badge(case.verdict)) }
            @if !case.message.is_empty() { p { (prose(&case.message)) } }
            p.small.dim { @if game { "The scenario:" } @else { "The input:" } }
            pre tabindex="0" { (feedback.input) }
            @if let Some(transcript) = &feedback.transcript {
                p.small.dim { "The game (" span.typed { "» " } "is what nimlab typed):" }
                pre tabindex="0" { (transcript_view(transcript)) }
            }
            @if let Some(difference) = &feedback.first_difference {
                p.small.dim { "First difference, line " (difference.line) ":" }
                pre tabindex="0" {
                    "expected: " (difference.expected.as_deref().map_or("(no more lines)".into(), visible)) "\n"
                    "got:      " (difference.got.as_deref().map_or("(no more lines)".into(), visible))
                }
                @if !feedback.got.is_empty() {
                    p.small.dim { "Diff (- expected, + got):" }
                    pre.diff tabindex="0" { (diff(&feedback.expected, &feedback.got)) }
                }
                // The diff shows the lines around each difference; the whole of both, for
                // the reader who needs the rest.
                @if secret {
                    (whole_outputs(feedback, true))
                } @else {
                    details.whole {
                        summary.small { "The whole expected output, and what the program printed" }
                        (whole_outputs(feedback, false))
                    }
                }
            } @else if !game && (case.verdict == Verdict::WrongAnswer || secret) {
                (whole_outputs(feedback, secret))
            }
            @if let Some(stderr) = &feedback.stderr {
                p.small.dim { "The program's error output ends with:" }
                pre tabindex="0" { (stderr) }
            }
            @for hint in &feedback.hints { p.hint { strong { "Hint: " } (prose(hint)) } }
        }
    }
}

fn transcript_view(transcript: &[TranscriptEntry]) -> Markup {
    html! {
        @for entry in transcript {
            @match entry {
                TranscriptEntry::Program(text) => { (text) }
                TranscriptEntry::Typed(text) => { span.typed { "» " (text) } "\n" }
                TranscriptEntry::Broken(text) => { span.broken { "✗ " (text) } "\n" }
                TranscriptEntry::Judge(text) => { span.dim { "(nimlab: " (text) ")" } "\n" }
            }
        }
    }
}

fn diff(expected: &str, got: &str) -> Markup {
    const MAX_LINES: usize = 24;
    let diff = similar::TextDiff::from_lines(expected, got);
    let mut lines = Vec::new();
    for group in diff.grouped_ops(1) {
        for op in group {
            for change in diff.iter_changes(&op) {
                let (sign, class) = match change.tag() {
                    similar::ChangeTag::Delete => ("-", "del"),
                    similar::ChangeTag::Insert => ("+", "ins"),
                    similar::ChangeTag::Equal => (" ", "dim"),
                };
                lines.push((class, format!("{sign} {}", visible(change.value()))));
            }
        }
    }
    let cut = lines.len() > MAX_LINES;
    lines.truncate(MAX_LINES);
    html! {
        @for (class, line) in &lines { span class=(class) { (line) } "\n" }
        @if cut { span.dim { "…" } }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backticks_in_messages_become_code_and_stay_escaped() {
        assert_eq!(
            prose("use `//` not `/`").into_string(),
            "use <code>//</code> not <code>/</code>"
        );
        assert_eq!(
            prose("a `<b>` and one ` left").into_string(),
            "a <code>&lt;b&gt;</code> and one ` left"
        );
        assert_eq!(prose("plain").into_string(), "plain");
    }
}
