//! Why a pair was flagged, in words an instructor can check against the two programs, and the
//! fragments of each that match.

use super::fingerprint::{Mark, View};
use super::{Class, Submission};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap, HashSet};

/// Fragments kept per pair, the largest first.
const FRAGMENTS: usize = 12;

/// Lines of one program that match lines of the other.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fragment {
    /// First and last line in `a`'s file, from 1.
    pub a_lines: [u32; 2],
    pub b_lines: [u32; 2],
    /// How many other students' programs have this too (the most of any of its parts).
    pub others: u32,
}

/// What a pair shares that is rare in its class.
pub struct Found {
    pub fragments: Vec<Fragment>,
    students: usize,
    /// The two students' ids.
    who: [String; 2],
    /// Lines of each program in rare code the other shares.
    code_lines: [BTreeSet<u32>; 2],
    code_others: u32,
    /// Lines of each in statement shapes the other shares (where the code differs).
    shape_lines: [BTreeSet<u32>; 2],
    shape_others: u32,
    /// Lines of each laid out alike (spacing, blank lines) where few others lay them out so.
    layout_lines: [BTreeSet<u32>; 2],
    layout_others: u32,
    /// Lines of each with comments (and blank lines) in the same places, at the same depths.
    rhythm_lines: [BTreeSet<u32>; 2],
    rhythm_others: u32,
    /// Whether the pattern they share keeps blank lines too.
    blank_lines_alike: bool,
    names: Vec<(String, u32)>,
    words: Vec<(String, u32)>,
    /// Failed cases with the same wrong output: the case, the output, how many others.
    outputs: Vec<(String, String, u32)>,
}

impl Found {
    pub fn new(class: &Class, i: usize, j: usize, submissions: &[Submission]) -> Found {
        let students = class.programs.len();
        let (mut code, code_fragments) = shared_marks(class, View::Code, i, j);
        // Statements alike in another order are the same code too.
        let (statements, statement_fragments) = shared_marks(class, View::Statements, i, j);
        for (lines, more) in code.0.iter_mut().zip(statements.0) {
            lines.extend(more);
        }
        code.1 = code.1.max(statements.1);
        let (shapes, shape_fragments) = shared_marks(class, View::Lines, i, j);
        let (layout, layout_fragments) = shared_marks(class, View::Layout, i, j);
        let (mut rhythm, rhythm_fragments) = shared_marks(class, View::Rhythm, i, j);
        // Blank lines in the same places are the same pattern, read more closely.
        let (paragraphs, paragraph_fragments) = shared_marks(class, View::Paragraphs, i, j);
        let blank_lines_alike = !paragraphs.0[0].is_empty();
        for (lines, more) in rhythm.0.iter_mut().zip(paragraphs.0) {
            lines.extend(more);
        }
        rhythm.1 = rhythm.1.max(paragraphs.1);
        let mut fragments = merge(
            code_fragments
                .into_iter()
                .chain(statement_fragments)
                .chain(shape_fragments)
                .chain(layout_fragments)
                .chain(rhythm_fragments)
                .chain(paragraph_fragments)
                .collect(),
        );
        fragments.truncate(FRAGMENTS);
        Found {
            fragments,
            students,
            who: [
                submissions[i].student.clone(),
                submissions[j].student.clone(),
            ],
            code_lines: code.0,
            code_others: code.1,
            shape_lines: shapes.0,
            shape_others: shapes.1,
            layout_lines: layout.0,
            layout_others: layout.1,
            rhythm_lines: rhythm.0,
            rhythm_others: rhythm.1,
            blank_lines_alike,
            names: shared_texts(class, View::Names, i, j, &submissions[i].source),
            words: shared_texts(class, View::Words, i, j, &submissions[i].source),
            outputs: shared_outputs(class, j, &submissions[i].outputs),
        }
    }

    /// "no other student of the 54 wrote", "at most 3 other students of the 54 wrote".
    fn others(&self, count: u32) -> String {
        match count {
            0 => format!("no other student of the {} wrote", self.students),
            1 => format!("only 1 other student of the {} wrote", self.students),
            n => format!("at most {n} other students of the {} wrote", self.students),
        }
    }

    /// Lines in the same pattern of indentation and comments (and blank lines), where their
    /// layout differs.
    fn rhythm_reason(&self) -> Option<String> {
        let rhythm_only = self.rhythm_lines[0]
            .difference(&self.layout_lines[0])
            .count();
        (rhythm_only > 0).then(|| {
            format!(
                "{} of {}'s {} the same pattern of indentation{} as {}'s, a pattern that {}",
                lines_counted(rhythm_only, !self.layout_lines[0].is_empty()),
                self.who[0],
                if rhythm_only == 1 {
                    "follows"
                } else {
                    "follow"
                },
                if self.blank_lines_alike {
                    ", comments and blank lines"
                } else {
                    " and comments"
                },
                self.who[1],
                self.others(self.rhythm_others),
            )
        })
    }

    /// The reasons, most telling first.
    pub fn reasons(&self) -> Vec<String> {
        let mut reasons = Vec::new();
        let others = |count: u32| self.others(count);
        if !self.code_lines[0].is_empty() {
            reasons.push(format!(
                "{} lines of {}'s program and {} of {}'s are the same code once names, comments and spacing are set aside, code that {}",
                self.code_lines[0].len(),
                self.who[0],
                self.code_lines[1].len(),
                self.who[1],
                others(self.code_others),
            ));
        }
        let shape_only = self.shape_lines[0].difference(&self.code_lines[0]).count();
        if shape_only > 0 {
            reasons.push(format!(
                "{} of {}'s {} the same things in the same order as {}'s, written differently, an order that {}",
                lines_counted(shape_only, !self.code_lines[0].is_empty()),
                self.who[0],
                if shape_only == 1 { "does" } else { "do" },
                self.who[1],
                others(self.shape_others),
            ));
        }
        if !self.layout_lines[0].is_empty() {
            reasons.push(format!(
                "{} of {}'s lines and {} of {}'s are laid out alike, the same spacing, blank lines and quotes line for line, a layout that {}",
                self.layout_lines[0].len(),
                self.who[0],
                self.layout_lines[1].len(),
                self.who[1],
                others(self.layout_others),
            ));
        }
        reasons.extend(self.rhythm_reason());
        if !self.names.is_empty() {
            let names: Vec<String> = self.names.iter().map(|(n, _)| format!("`{n}`")).collect();
            let most = self.names.iter().map(|(_, c)| *c).max().unwrap_or(0);
            reasons.push(format!(
                "both chose the names {}, which {}",
                names.join(", "),
                others(most).replace(" wrote", " used"),
            ));
        }
        if !self.words.is_empty() {
            let lines: Vec<String> = self.words.iter().map(|(w, _)| format!("“{w}”")).collect();
            let most = self.words.iter().map(|(_, c)| *c).max().unwrap_or(0);
            reasons.push(format!(
                "the same words in comments or messages, as in {}'s {}, which {}",
                self.who[0],
                lines.join(" and "),
                others(most),
            ));
        }
        for (case, output, count) in &self.outputs {
            reasons.push(format!(
                "both failed case {case} with the same wrong output, “{}”, which {}",
                clip(output, 80),
                others(*count).replace(" wrote", " gave"),
            ));
        }
        reasons
    }
}

/// "1 line", "3 lines", or "1 more line", "3 more lines" after a reason that counted others.
fn lines_counted(count: usize, more: bool) -> String {
    super::counted(count, if more { "more line" } else { "line" })
}

/// Wrong outputs the two share that few others gave, as (case, output, others).
fn shared_outputs(class: &Class, j: usize, outputs: &[String]) -> Vec<(String, String, u32)> {
    let v = View::Outputs as usize;
    let limit = rare_limit(class.programs.len());
    let in_b: HashSet<u64> = class.programs[j].sets[v].iter().copied().collect();
    outputs
        .iter()
        .filter_map(|output| {
            let hash = super::fingerprint::hash(output.as_bytes());
            let count = class.counts[v].get(&hash).copied().unwrap_or(2);
            if !in_b.contains(&hash) || count > limit {
                return None;
            }
            let mut parts = output.splitn(3, '\t');
            let case = parts.next().unwrap_or_default().to_string();
            let shown = parts.nth(1).unwrap_or_default().replace('\t', " ");
            Some((case, shown.trim().to_string(), count - 2))
        })
        .take(3)
        .collect()
}

/// How many students at most may share a fingerprint for it to count as evidence.
fn rare_limit(students: usize) -> u32 {
    (students as u32 / 10).max(2)
}

type Lines = ([BTreeSet<u32>; 2], u32);

/// Marks of view `view` that programs `i` and `j` share and few others have: the lines they
/// cover in each, the most others that share any, and each as a fragment.
fn shared_marks(class: &Class, view: View, i: usize, j: usize) -> (Lines, Vec<Fragment>) {
    let v = view as usize;
    let limit = rare_limit(class.programs.len());
    let mut first_in_b: HashMap<u64, &Mark> = HashMap::new();
    for mark in &class.programs[j].marks[v] {
        first_in_b.entry(mark.hash).or_insert(mark);
    }
    let mut lines: [BTreeSet<u32>; 2] = Default::default();
    let mut most = 0;
    let mut fragments = Vec::new();
    for mark in &class.programs[i].marks[v] {
        let Some(other) = first_in_b.get(&mark.hash) else {
            continue;
        };
        let count = class.counts[v].get(&mark.hash).copied().unwrap_or(2);
        if count > limit {
            continue;
        }
        lines[0].extend(mark.first_line..=mark.last_line);
        lines[1].extend(other.first_line..=other.last_line);
        most = most.max(count - 2);
        fragments.push(Fragment {
            a_lines: [mark.first_line, mark.last_line],
            b_lines: [other.first_line, other.last_line],
            others: count - 2,
        });
    }
    ((lines, most), fragments)
}

/// Overlapping or touching fragments as one, the longest first.
fn merge(mut fragments: Vec<Fragment>) -> Vec<Fragment> {
    fragments.sort_by_key(|f| (f.a_lines, f.b_lines));
    let mut merged: Vec<Fragment> = Vec::new();
    for fragment in fragments {
        let touches = |x: [u32; 2], y: [u32; 2]| y[0] <= x[1] + 1 && x[0] <= y[1] + 1;
        match merged
            .iter_mut()
            .rev()
            .find(|m| touches(m.a_lines, fragment.a_lines) && touches(m.b_lines, fragment.b_lines))
        {
            Some(m) => {
                m.a_lines = [
                    m.a_lines[0].min(fragment.a_lines[0]),
                    m.a_lines[1].max(fragment.a_lines[1]),
                ];
                m.b_lines = [
                    m.b_lines[0].min(fragment.b_lines[0]),
                    m.b_lines[1].max(fragment.b_lines[1]),
                ];
                m.others = m.others.max(fragment.others);
            }
            None => merged.push(fragment),
        }
    }
    merged.sort_by_key(|f| (std::cmp::Reverse(f.a_lines[1] - f.a_lines[0]), f.a_lines));
    merged
}

/// Names or words the two share that few others have, quoted from `a`'s source (names as
/// written, words by the line they are on, clipped), each with how many others share it.
fn shared_texts(class: &Class, view: View, i: usize, j: usize, source: &str) -> Vec<(String, u32)> {
    let v = view as usize;
    let limit = rare_limit(class.programs.len());
    let in_b: HashSet<u64> = class.programs[j].sets[v].iter().copied().collect();
    let lines: Vec<&str> = source.lines().collect();
    let mut seen_lines = HashSet::new();
    let mut out = Vec::new();
    for mark in &class.programs[i].marks[v] {
        // A run of words may begin in the lab's docstring and end in the student's comment:
        // the line it ends on is the student's.
        let at = match view {
            View::Words => mark.last_line,
            _ => mark.first_line,
        };
        let count = class.counts[v].get(&mark.hash).copied().unwrap_or(2);
        if !in_b.contains(&mark.hash) || count > limit || !seen_lines.insert(at) {
            continue;
        }
        let line = lines
            .get(at.saturating_sub(1) as usize)
            .map_or("", |l| l.trim());
        let text = match view {
            View::Names => name_on(line, mark),
            _ => clip(line, 80),
        };
        if !text.is_empty() && !out.iter().any(|(t, _)| *t == text) {
            out.push((text, count - 2));
        }
        if out.len() == 4 {
            break;
        }
    }
    out
}

/// The name a `Names` mark stands for, found on its line by its hash (the view hashes a
/// name in lower case).
fn name_on(line: &str, mark: &Mark) -> String {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find(|word| super::fingerprint::hash(word.to_lowercase().as_bytes()) == mark.hash)
        .unwrap_or_default()
        .to_string()
}

fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut clipped: String = text.chars().take(max).collect();
    clipped.push('…');
    clipped
}
