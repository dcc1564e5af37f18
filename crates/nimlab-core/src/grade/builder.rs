//! The one way a gradebook is assembled, by `nimlab grade` from a class folder and by the
//! website (`nimlab serve`) from its database: every student with a result for every
//! exercise of the lab, a graded one scored by the one rule ([`points`]), and the total.

use super::book::{
    ExerciseInfo, ExerciseResult, Gradebook, RosterEntry, Skipped, Status, StudentResult,
    Superseded,
};
use crate::lab::{Lab, LabExercise};
use crate::report::CheckReport;
use std::collections::BTreeMap;

/// A score as a gradebook holds it: to the hundredth.
fn hundredths(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// What an exercise worth `points` scores when its passed cases weigh `score` of
/// `max_score`: that share of its points, to the hundredth. With no weight at all (a
/// `max_score` of 0) it scores 0.
pub fn points(points: u32, score: u32, max_score: u32) -> f64 {
    scaled_points(points, score, max_score, 1.0)
}

/// [`points`] of which `factor` counts (the deadline rule's share for late work, see
/// [`crate::deadline::timeliness`]), to the hundredth.
pub fn scaled_points(points: u32, score: u32, max_score: u32, factor: f64) -> f64 {
    if max_score == 0 {
        return 0.0;
    }
    hundredths(f64::from(points) * f64::from(score) / f64::from(max_score) * factor)
}

/// A graded submission of `exercise` (named `file`) whose passed cases weigh `score` of
/// `max_score`, of which `factor` counts (1 but for late work), with its report where there
/// is one.
pub fn graded(
    exercise: &LabExercise,
    file: String,
    (score, max_score): (u32, u32),
    factor: f64,
    report: Option<CheckReport>,
) -> ExerciseResult {
    ExerciseResult {
        status: Status::Graded,
        file: Some(file),
        points: scaled_points(exercise.config.points, score, max_score, factor),
        error: None,
        report,
    }
}

/// A submission handed in (`file`) that nimlab could not grade, and why: never scored as the
/// student's.
pub fn not_graded(file: String, error: String) -> ExerciseResult {
    ExerciseResult {
        status: Status::Error,
        file: Some(file),
        points: 0.0,
        error: Some(error),
        report: None,
    }
}

/// An exercise the student handed nothing in for.
pub fn missing() -> ExerciseResult {
    ExerciseResult {
        status: Status::Missing,
        file: None,
        points: 0.0,
        error: None,
        report: None,
    }
}

/// Assembles a gradebook student by student, in the order they are added.
pub struct GradebookBuilder<'a> {
    lab: &'a Lab,
    isolation: String,
    students: Vec<StudentResult>,
    unattributed: Vec<String>,
    superseded: Vec<Superseded>,
    skipped: Vec<Skipped>,
}

impl<'a> GradebookBuilder<'a> {
    /// An empty gradebook of `lab`, whose programs ran under `isolation`.
    pub fn new(lab: &'a Lab, isolation: String) -> Self {
        GradebookBuilder {
            lab,
            isolation,
            students: Vec::new(),
            unattributed: Vec::new(),
            superseded: Vec::new(),
            skipped: Vec::new(),
        }
    }

    /// Adds a student (`student` as the class names them, `student_id` unique in it) with
    /// their results by exercise name: every exercise of the lab gets an entry, [`missing`]
    /// where `results` has none, and the total is the sum of the points of the exercises
    /// that count in it (not further study's, unless the lab says so).
    pub fn student(
        &mut self,
        student: String,
        student_id: String,
        roster: Option<RosterEntry>,
        mut results: BTreeMap<String, ExerciseResult>,
    ) {
        let exercises: BTreeMap<String, ExerciseResult> = self
            .lab
            .exercises
            .iter()
            .map(|exercise| {
                let result = results.remove(&exercise.name).unwrap_or_else(missing);
                (exercise.name.clone(), result)
            })
            .collect();
        let total = hundredths(
            self.lab
                .exercises
                .iter()
                .filter(|exercise| exercise.config.in_total())
                .map(|exercise| exercises[&exercise.name].points)
                .sum::<f64>(),
        );
        self.students.push(StudentResult {
            student,
            student_id,
            roster,
            exercises,
            total,
        });
    }

    /// The class folder's files that were not graded: named by no student's exercise, set
    /// aside for another file of the same exercise, or not read.
    pub fn files_not_graded(
        &mut self,
        unattributed: Vec<String>,
        superseded: Vec<Superseded>,
        skipped: Vec<Skipped>,
    ) {
        self.unattributed = unattributed;
        self.superseded = superseded;
        self.skipped = skipped;
    }

    pub fn finish(self) -> Gradebook {
        Gradebook {
            nimlab_version: env!("CARGO_PKG_VERSION").to_string(),
            lab: self.lab.origin.to_string(),
            exercises: ExerciseInfo::of_lab(self.lab),
            students: self.students,
            unattributed: self.unattributed,
            superseded: self.superseded,
            skipped: self.skipped,
            isolation: self.isolation,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_the_share_of_the_weights_to_the_hundredth() {
        assert_eq!(points(10, 3, 3), 10.0);
        assert_eq!(points(10, 1, 3), 3.33);
        assert_eq!(points(10, 2, 3), 6.67);
        assert_eq!(points(7, 0, 5), 0.0);
        assert_eq!(points(10, 0, 0), 0.0);
    }

    #[test]
    fn further_study_is_scored_but_left_out_of_the_total() {
        let lab = Lab::built_in().unwrap();
        let full = |name: &str| {
            let exercise = lab.exercise(name).unwrap();
            (
                name.to_string(),
                graded(exercise, format!("{name}.py"), (1, 1), 1.0, None),
            )
        };
        let mut builder = GradebookBuilder::new(&lab, String::new());
        let results = BTreeMap::from([full("present_board"), full("misere_move")]);
        builder.student("Ada".into(), "ada".into(), None, results);
        let book = builder.finish();
        let ada = &book.students[0];
        assert_eq!(ada.exercises["misere_move"].points, 10.0);
        assert_eq!(ada.total, 10.0);
        let info = |name: &str| book.exercises.iter().find(|e| e.name == name).unwrap();
        assert!(info("misere_move").optional && !info("misere_move").in_total);
        assert_eq!(info("misere_game").label(), "misere_game (optional)");
        assert!(!info("present_board").optional && info("present_board").in_total);
        let nine: u32 = book.exercises[..9].iter().map(|e| e.points).sum();
        assert_eq!(book.max_total(), nine);
    }
}
