//! The gradebook: every student's result for every exercise, and the class folder's files
//! not graded. `results.json` holds it whole; every other report is rendered from it, and
//! shards' gradebooks merge into the one a single run gives.

use crate::report::CheckReport;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Gradebook {
    pub nimlab_version: String,
    pub lab: String,
    pub exercises: Vec<ExerciseInfo>,
    /// Sorted by student.
    pub students: Vec<StudentResult>,
    /// Files under the class folder that name no student's exercise, relative to it.
    pub unattributed: Vec<String>,
    /// Files not graded because another file of the same student and exercise was.
    #[serde(default)]
    pub superseded: Vec<Superseded>,
    /// Entries nimlab did not read (links, FIFOs, unreadable folders), with the reason.
    #[serde(default)]
    pub skipped: Vec<Skipped>,
    pub isolation: String,
}

/// An entry of the class folder nimlab did not read, and why.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Skipped {
    pub file: String,
    pub reason: String,
}

/// A second file for one student's exercise, and the one graded instead.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Superseded {
    pub file: String,
    pub graded: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ExerciseInfo {
    pub name: String,
    pub title: String,
    pub points: u32,
    /// Further study: optional for students.
    #[serde(default)]
    pub optional: bool,
    /// Whether its points count in the total (gradebooks written before say nothing: all did).
    #[serde(default = "counted")]
    pub in_total: bool,
}

fn counted() -> bool {
    true
}

impl ExerciseInfo {
    /// The exercise's name as a class report heads its column: "(optional)" after further
    /// study's.
    pub fn label(&self) -> String {
        if self.optional {
            format!("{} (optional)", self.name)
        } else {
            self.name.clone()
        }
    }
}

impl Gradebook {
    /// The most a total can be: the points of the exercises that count in it.
    pub fn max_total(&self) -> u32 {
        self.exercises
            .iter()
            .filter(|e| e.in_total)
            .map(|e| e.points)
            .sum()
    }
}

impl ExerciseInfo {
    /// The lab's exercises, in its order, as a gradebook lists them.
    pub fn of_lab(lab: &crate::lab::Lab) -> Vec<ExerciseInfo> {
        lab.exercises
            .iter()
            .map(|e| ExerciseInfo {
                name: e.name.clone(),
                title: e.config.title.clone(),
                points: e.config.points,
                optional: e.config.further_study,
                in_total: e.config.in_total(),
            })
            .collect()
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StudentResult {
    /// The name the class folder gives (not unique: namesakes share it).
    pub student: String,
    /// Unique in the class: the name plus the platform's participant ID where the folder or
    /// file name has one (`Wei Zhang_1001`), else the name as written.
    #[serde(default)]
    pub student_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roster: Option<RosterEntry>,
    /// By exercise name; every exercise of the lab has an entry.
    pub exercises: BTreeMap<String, ExerciseResult>,
    pub total: f64,
}

impl StudentResult {
    /// The roster's name where there is one, else the folder's.
    pub fn display_name(&self) -> String {
        self.roster
            .as_ref()
            .map(|r| r.name.clone())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| self.student.clone())
    }

    /// The name of this student's files (`report/students/<stem>.html`).
    pub fn file_stem(&self) -> String {
        file_stem(&self.student_id)
    }
}

/// A file name for a student id, different for every id (even on a case-insensitive file
/// system) and readable: a plain id (lowercase ASCII letters, digits, `_`) as it is; any
/// other as a readable part (lowercase letters and digits, the rest as `-`) and a hash of the
/// id, `wei-zhang-1001-3f9a...`. Plain names never hold a `-` and hashed ones always do, so
/// the two kinds never meet; `Möller` and `Müller` differ by their hashes.
pub fn file_stem(id: &str) -> String {
    let plain = !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    if plain {
        return id.to_string();
    }
    let mut readable = String::new();
    for c in id.chars() {
        if c.is_ascii_alphanumeric() {
            readable.push(c.to_ascii_lowercase());
        } else if !readable.ends_with('-') {
            readable.push('-');
        }
        if readable.len() >= 40 {
            break;
        }
    }
    let readable = readable.trim_matches('-');
    let digest = Sha256::digest(id.as_bytes());
    let hash: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    if readable.is_empty() {
        format!("student-{hash}")
    } else {
        format!("{readable}-{hash}")
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Default)]
pub struct RosterEntry {
    pub name: String,
    pub id: String,
    pub section: String,
    /// The account's username, where the class comes from accounts (the website): what an
    /// LMS's Username column matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Graded,
    Missing,
    /// nimlab could not grade it (an unreadable file, say): never scored as the student's.
    Error,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExerciseResult {
    pub status: Status,
    /// Relative to the class folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The case weights passed, scaled to the exercise's points.
    pub points: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<CheckReport>,
}

impl ExerciseResult {
    pub fn verdict_label(&self) -> String {
        match (&self.status, &self.report) {
            (Status::Graded, Some(report)) => report.verdict.label().to_string(),
            (Status::Missing, _) => "missing".into(),
            _ => "not graded".into(),
        }
    }
}

/// Why shards' gradebooks cannot be merged; `part` is the index of the one at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error("nothing to merge")]
    Nothing,
    #[error("the results were made with different labs or nimlab versions and cannot be merged")]
    Mismatch { part: usize },
    #[error(
        "student `{}` is in more than one shard",
        crate::escape::terminal(student)
    )]
    Duplicate { part: usize, student: String },
}

/// Combines the results of shards into one gradebook (as one run over the whole class).
pub fn merge(parts: &[Gradebook]) -> Result<Gradebook, MergeError> {
    let Some(first) = parts.first() else {
        return Err(MergeError::Nothing);
    };
    let mut merged = first.clone();
    merged.students.clear();
    merged.unattributed.clear();
    merged.superseded.clear();
    merged.skipped.clear();
    let mut seen = BTreeMap::new();
    for (index, part) in parts.iter().enumerate() {
        if part.exercises != first.exercises || part.nimlab_version != first.nimlab_version {
            return Err(MergeError::Mismatch { part: index });
        }
        for student in &part.students {
            let mut student = student.clone();
            // Written before students had ids: the name was the id.
            if student.student_id.is_empty() {
                student.student_id = student.student.clone();
            }
            if seen.insert(student.student_id.clone(), ()).is_some() {
                return Err(MergeError::Duplicate {
                    part: index,
                    student: student.student_id,
                });
            }
            merged.students.push(student);
        }
        merged
            .unattributed
            .extend(part.unattributed.iter().cloned());
        merged.superseded.extend(part.superseded.iter().cloned());
        merged.skipped.extend(part.skipped.iter().cloned());
    }
    merged.superseded.sort();
    merged.superseded.dedup();
    merged.skipped.sort();
    merged.skipped.dedup();
    merged
        .students
        .sort_by(|a, b| (&a.student, &a.student_id).cmp(&(&b.student, &b.student_id)));
    merged.unattributed.sort();
    merged.unattributed.dedup();
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merge_refusal_names_the_shard_at_fault() {
        let book = |version: &str| Gradebook {
            nimlab_version: version.into(),
            lab: "test".into(),
            exercises: vec![],
            students: vec![StudentResult {
                student: "ada".into(),
                student_id: String::new(),
                roster: None,
                exercises: BTreeMap::new(),
                total: 0.0,
            }],
            unattributed: vec![],
            superseded: vec![],
            skipped: vec![],
            isolation: String::new(),
        };
        assert_eq!(merge(&[]).unwrap_err(), MergeError::Nothing);
        let mut other = book("1");
        other.students[0].student = "bob".into();
        assert_eq!(
            merge(&[other.clone(), book("1"), book("2")]).unwrap_err(),
            MergeError::Mismatch { part: 2 }
        );
        let error = merge(&[book("1"), other, book("1")]).unwrap_err();
        assert_eq!(
            error,
            MergeError::Duplicate {
                part: 2,
                student: "ada".into()
            }
        );
        assert_eq!(error.to_string(), "student `ada` is in more than one shard");
    }

    #[test]
    fn file_stems_never_collide_and_stay_readable() {
        let ids = [
            "Möller",
            "Müller",
            "张伟",
            "李娜",
            "Zoé",
            "Zoë",
            "a b",
            "a+b",
            "a_b",
            "Ada",
            "ada",
            "Wei Zhang_1001",
            "Wei Zhang_1002",
            ".",
            "..",
            "",
        ];
        let stems: std::collections::BTreeSet<String> =
            ids.iter().map(|id| file_stem(id).to_lowercase()).collect();
        assert_eq!(stems.len(), ids.len(), "{stems:?}");
        for stem in &stems {
            assert!(
                !stem.is_empty()
                    && stem.len() <= 80
                    && stem.bytes().all(|b| b.is_ascii_lowercase()
                        || b.is_ascii_digit()
                        || b"_-".contains(&b)),
                "{stem}"
            );
        }
        assert_eq!(file_stem("ada"), "ada");
        assert_eq!(file_stem("erin_51234"), "erin_51234");
        assert!(file_stem("Wei Zhang_1001").starts_with("wei-zhang-1001-"));
        assert!(file_stem("张伟").starts_with("student-"));
        assert!(file_stem(&"x".repeat(300)).len() < 80);
    }
}
