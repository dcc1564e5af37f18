//! How alike students' programs are, exercise by exercise (`nimlab similarity`,
//! `similarity.json`, `similarity.html`): evidence for a person to weigh, never a verdict.
//!
//! Every program is read as fingerprints in nine views ([`fingerprint`]), the lab's own code
//! taken out. A fingerprint counts for as much as it is rare in this class: one that every
//! student wrote says nothing, one that only two wrote says much. A pair's closeness is the
//! rarity its programs share, against how much they could share; its score says how far that
//! closeness stands out among the class's pairs for this exercise, most of which are honest,
//! so an exercise where everyone writes the same line ranks its pairs low. Rarity shared in
//! several views at once counts for more: a copy keeps its source's code, layout, names and
//! words together, where honest answers that meet mostly meet in one. Flagged pairs
//! come with their reasons in words and the fragments they share ([`evidence`]), and pairs
//! flagged together make clusters.

pub mod class;
pub mod evidence;
pub mod fingerprint;
pub mod html;
pub mod tokens;

use fingerprint::{Program, Template, VIEW_COUNT, VIEWS};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// What the report says of itself, wherever it is shown.
pub const CAUTION: &str = "A high score says that two programs are closer than this class's \
     independent answers to the exercise usually are. It is evidence for a person to weigh \
     with the programs side by side, never a verdict: students who worked from the same \
     example, or a short exercise with few ways to write it, can be close honestly.";

/// Below this many programs nothing is rarer than anything else: no pair can stand out.
pub const FEWEST: usize = 3;

/// What a report says of an exercise with fewer than [`FEWEST`] programs.
pub const TOO_FEW: &str = "too few students to tell what is usual: no pair can stand out";

/// Scores from this one up are flagged: shown with their evidence and put in clusters.
pub const FLAG_SCORE: f64 = 0.5;

/// Pairs below the flag shown with their evidence too, per exercise, the closest first: a
/// disguised copy of a common answer can rank there, and a person should look.
pub const NEXT_CLOSEST: usize = 10;

/// How much each view weighs in a pair's closeness (code, lines, statements, names, words,
/// layout, rhythm, paragraphs, outputs).
/// Names, words and layout weigh more than their fingerprints' number says: a copy keeps
/// them where its code is the class's usual code (measured on the labelled classes of
/// tests/data, the hand-written one most). Rhythm and paragraphs share one weight: a copy
/// keeps its source's blank lines unless its spacing was redone.
const VIEW_WEIGHTS: [f64; VIEW_COUNT] = [1.0, 0.5, 0.5, 1.4, 3.0, 2.5, 0.5, 0.5, 1.0];

/// "1 pair", "3 pairs": a count with its noun, for the reports.
pub fn counted(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// One student's file for one exercise.
#[derive(Debug, Clone, Default)]
pub struct Submission {
    /// The student's id, as the class folder names them.
    pub student: String,
    pub source: String,
    /// Where graded results are known: each case it failed, with the wrong output
    /// ([`crate::grade::mistakes::wrong_outputs`]).
    pub outputs: Vec<String>,
}

/// What `similarity.json` holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Similarity {
    pub nimlab_version: String,
    pub lab: String,
    pub caution: String,
    pub flag_score: f64,
    pub exercises: Vec<ExerciseSummary>,
    /// Every pair with a score above 0, by exercise (in the lab's order), then score,
    /// highest first; a pair not listed scores 0.
    pub pairs: Vec<Pair>,
    pub clusters: Vec<Cluster>,
    /// Entries of the class folder not compared (links, FIFOs), with the reason, as
    /// `grade` lists them.
    #[serde(default)]
    pub not_read: Vec<crate::grade::book::Skipped>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExerciseSummary {
    pub exercise: String,
    /// Students who handed it in.
    pub students: usize,
    pub flagged: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    pub exercise: String,
    /// Student ids, `a` before `b` in sorted order.
    pub a: String,
    pub b: String,
    /// In [0, 1]: how far this pair's closeness stands out among the class's pairs.
    pub score: f64,
    pub flagged: bool,
    /// For a flagged pair, and the [`NEXT_CLOSEST`] below the flag: why, in words an
    /// instructor can check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// For the same pairs: the lines of each program that match, most telling first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fragments: Vec<evidence::Fragment>,
}

impl Pair {
    /// Whether this is one of the [`NEXT_CLOSEST`] pairs below the flag that the reports show
    /// with their evidence.
    pub fn is_closest_below_the_flag(&self) -> bool {
        !self.flagged && !self.reasons.is_empty()
    }
}

/// Students of one exercise linked by flagged pairs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cluster {
    pub exercise: String,
    pub students: Vec<String>,
    /// The highest score among its pairs.
    pub score: f64,
}

/// One exercise's pairs and clusters. `submissions` one per student; `lab_code` the lab's
/// starter, model and statement code for it.
pub fn exercise_pairs(
    exercise: &str,
    lab_code: &[&str],
    submissions: &[Submission],
) -> (Vec<Pair>, Vec<Cluster>) {
    let template = Template::new(lab_code.iter().copied());
    let programs: Vec<Program> = submissions
        .iter()
        .map(|s| {
            let mut program = template.program(&s.source);
            program.add_outputs(&s.outputs);
            program
        })
        .collect();
    let class = Class::new(&programs);
    let closeness = class.closeness();
    let scores = calibrate(&closeness, programs.len());
    let mut pairs = Vec::new();
    // A pair that stands no higher than the class's middle pair scores 0 and is not listed.
    for (&(i, j), &score) in scores.iter().filter(|(_, score)| **score > 0.0) {
        let (a, b) = (&submissions[i].student, &submissions[j].student);
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        pairs.push(Pair {
            exercise: exercise.to_string(),
            a: a.clone(),
            b: b.clone(),
            score,
            flagged: score >= FLAG_SCORE,
            reasons: Vec::new(),
            fragments: Vec::new(),
        });
    }
    pairs.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then_with(|| (&x.a, &x.b).cmp(&(&y.a, &y.b)))
    });
    let index: HashMap<&str, usize> = submissions
        .iter()
        .enumerate()
        .map(|(at, s)| (s.student.as_str(), at))
        .collect();
    let flagged = pairs.iter().filter(|p| p.flagged).count();
    for pair in pairs.iter_mut().take(flagged + NEXT_CLOSEST) {
        let found = evidence::Found::new(
            &class,
            index[pair.a.as_str()],
            index[pair.b.as_str()],
            submissions,
        );
        pair.reasons = found.reasons();
        pair.fragments = found.fragments;
    }
    let clusters = clusters(exercise, &pairs);
    (pairs, clusters)
}

/// A class's programs for one exercise, with how rare each fingerprint is among them.
pub struct Class<'a> {
    pub programs: &'a [Program],
    /// By view: in how many programs each fingerprint is.
    pub counts: [HashMap<u64, u32>; VIEW_COUNT],
    /// By view and program: the rarity of all its fingerprints together.
    totals: [Vec<f64>; VIEW_COUNT],
}

impl<'a> Class<'a> {
    pub fn new(programs: &'a [Program]) -> Class<'a> {
        let mut counts: [HashMap<u64, u32>; VIEW_COUNT] = Default::default();
        for program in programs {
            for (view, set) in program.sets.iter().enumerate() {
                for &hash in set {
                    *counts[view].entry(hash).or_default() += 1;
                }
            }
        }
        let mut class = Class {
            programs,
            counts,
            totals: Default::default(),
        };
        for view in 0..VIEWS.len() {
            class.totals[view] = programs
                .iter()
                .map(|p| p.sets[view].iter().map(|&h| class.rarity(view, h)).sum())
                .collect();
        }
        class
    }

    /// How much sharing a fingerprint tells: none when every program has it, and split
    /// among the others who have it too (a fingerprint ten share says little of any two).
    pub fn rarity(&self, view: usize, hash: u64) -> f64 {
        let n = self.programs.len() as f64;
        let count = f64::from(self.counts[view].get(&hash).copied().unwrap_or(1));
        (n / count).ln().max(0.0) / (count - 1.0).max(1.0)
    }

    /// Every pair's closeness, for pairs that share anything rare: the rarity they share, by
    /// how much of the smaller program's rarity that is, by the number of views they share it
    /// in.
    fn closeness(&self) -> HashMap<(usize, usize), f64> {
        let n = self.programs.len();
        // Dense: a class's pairs fit, and common fingerprints touch most of them.
        let mut shared = vec![[0f32; VIEW_COUNT]; n * n];
        let common = (n / 3).max(10);
        for view in VIEWS.map(|v| v as usize) {
            let mut holders: HashMap<u64, Vec<u32>> = HashMap::new();
            for (i, program) in self.programs.iter().enumerate() {
                for &hash in &program.sets[view] {
                    holders.entry(hash).or_default().push(i as u32);
                }
            }
            for (hash, holders) in holders {
                let rarity = self.rarity(view, hash) as f32;
                // What a third of the class wrote tells almost nothing of any two of them
                // (its rarity is near 0) and would cost a pair count for most pairs.
                if holders.len() < 2 || rarity <= 0.0 || holders.len() > common {
                    continue;
                }
                for (x, &i) in holders.iter().enumerate() {
                    let row = i as usize * n;
                    for &j in &holders[x + 1..] {
                        shared[row + j as usize][view] += rarity;
                    }
                }
            }
        }
        let typical: Vec<f64> = (0..VIEWS.len()).map(|v| median(&self.totals[v])).collect();
        let weighed = |v: usize, rarity: f64| VIEW_WEIGHTS[v] * rarity / (typical[v] + 1.0);
        // All that each program could share: what the smaller of a pair holds bounds theirs.
        let own: Vec<f64> = (0..n)
            .map(|i| {
                (0..VIEWS.len())
                    .map(|v| weighed(v, self.totals[v][i]))
                    .sum()
            })
            .collect();
        let mut closeness = HashMap::new();
        for i in 0..n {
            for j in i + 1..n {
                let by_view = shared[i * n + j];
                if by_view.iter().all(|&x| x == 0.0) {
                    continue;
                }
                let value: f64 = (0..VIEWS.len())
                    .map(|v| weighed(v, f64::from(by_view[v])))
                    .sum();
                // A copy shares most of what is rare in it; two honest answers that met on
                // one rare line share a little of much.
                let part = (value / own[i].min(own[j]).max(f64::MIN_POSITIVE)).min(1.0);
                // And a copy shares in many views at once (its code, layout, names, words),
                // where two honest answers that met mostly meet in one or two.
                let views = by_view.iter().filter(|&&shared| shared > 0.0).count();
                closeness.insert((i, j), value * part * views as f64);
            }
        }
        closeness
    }
}

fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

/// Scores in [0, 1] from closeness: how many spreads of the class's typical pair a pair
/// stands above the middle one, so the score reads the same in a large exercise and a small.
/// Pairs that share nothing rare count in the middle and the spread as zeros.
fn calibrate(
    closeness: &HashMap<(usize, usize), f64>,
    programs: usize,
) -> HashMap<(usize, usize), f64> {
    let all_pairs = (programs * programs.saturating_sub(1) / 2).max(closeness.len());
    let mut values: Vec<f64> = closeness.values().copied().collect();
    values.resize(all_pairs, 0.0);
    let middle = median(&values);
    let deviations: Vec<f64> = values.iter().map(|v| (v - middle).abs()).collect();
    let top = values.iter().copied().fold(0.0, f64::max);
    let spread = (1.4826 * median(&deviations)).max(top / 20.0).max(0.02);
    closeness
        .iter()
        .map(|(&pair, &value)| {
            let standing = ((value - middle) / spread).max(0.0);
            (pair, 1.0 - (-standing / 8.0).exp())
        })
        .collect()
}

/// Students linked by flagged pairs, largest groups first.
fn clusters(exercise: &str, pairs: &[Pair]) -> Vec<Cluster> {
    let mut group: HashMap<&str, usize> = HashMap::new();
    let mut members: Vec<(Vec<&str>, f64)> = Vec::new();
    for pair in pairs.iter().filter(|p| p.flagged) {
        match (
            group.get(pair.a.as_str()).copied(),
            group.get(pair.b.as_str()).copied(),
        ) {
            (None, None) => {
                group.insert(&pair.a, members.len());
                group.insert(&pair.b, members.len());
                members.push((vec![&pair.a, &pair.b], pair.score));
            }
            (Some(g), None) | (None, Some(g)) => {
                let new = if group.contains_key(pair.a.as_str()) {
                    &pair.b
                } else {
                    &pair.a
                };
                group.insert(new, g);
                members[g].0.push(new);
            }
            (Some(g), Some(h)) if g != h => {
                let moved = std::mem::take(&mut members[h].0);
                for student in &moved {
                    group.insert(student, g);
                }
                members[g].0.extend(moved);
                members[g].1 = members[g].1.max(members[h].1);
            }
            _ => {}
        }
    }
    let mut clusters: Vec<Cluster> = members
        .into_iter()
        .filter(|(students, _)| !students.is_empty())
        .map(|(mut students, score)| {
            students.sort_unstable();
            Cluster {
                exercise: exercise.to_string(),
                students: students.into_iter().map(str::to_string).collect(),
                score,
            }
        })
        .collect();
    clusters.sort_by(|x, y| {
        y.students
            .len()
            .cmp(&x.students.len())
            .then_with(|| y.score.total_cmp(&x.score))
    });
    clusters
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn a_count_of_one_takes_the_singular() {
        assert_eq!(counted(1, "pair"), "1 pair");
        assert_eq!(counted(0, "pair"), "0 pairs");
        assert_eq!(counted(54, "student"), "54 students");
    }
}
