//! What a check is asked to do.

use super::workspace::SharedWorkspace;
use crate::lab::LabExercise;
use crate::stop::Stop;
use std::path::Path;

pub struct CheckRequest<'a> {
    pub exercise: &'a LabExercise,
    /// Every exercise name in the lab, to recognise imports of sibling exercises.
    pub lab_names: &'a [&'a str],
    /// The lab's exercises, to recognise a file meant for another one (may be empty).
    pub lab_exercises: &'a [LabExercise],
    pub submission: &'a Path,
    /// The name the report gives the submission, its tracebacks naming the file alone: the
    /// website's uploads, kept in a private folder. None: its path as given, and tracebacks
    /// naming its own folder.
    pub shown_as: Option<&'a str>,
    pub interpreters: &'a [String],
    pub jobs: usize,
    /// Whether the `.py` files beside the submission are its own (a student's folder) and may
    /// be imported; not where the folder holds other students' files.
    pub siblings: bool,
    /// A folder shared with the student's other checks (grade), so that the interpreters kept
    /// for one of them serve the others; None for a folder of the check's own.
    pub shared: Option<&'a SharedWorkspace>,
    /// Whether each interpreter's run may go on a thread of its own, beside the others (given
    /// two jobs or more): for a one-off check, whose interpreters start for it anyway. Not
    /// where a thread's kept interpreters serve check after check (grade, the website's
    /// judges): a new thread would start its interpreter again for every submission.
    pub runs_side_by_side: bool,
    /// Stops the check's programs at once and leaves its unfinished cases not judged.
    pub stop: &'a Stop,
}
