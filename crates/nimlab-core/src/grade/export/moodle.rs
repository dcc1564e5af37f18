//! moodle.csv: Moodle's grade import: a column that identifies the user, then one per grade
//! item (mapped to grade items in Moodle's import form).

use super::{Exporter, Sink, csv_bytes, points, text_cell};
use crate::error::Result;
use crate::grade::book::Gradebook;

pub struct MoodleCsv;

impl Exporter for MoodleCsv {
    fn target(&self) -> &'static str {
        "moodle.csv"
    }

    fn export(&self, book: &Gradebook, sink: &mut dyn Sink) -> Result<()> {
        // Moodle matches every row by one field: ID numbers only when the roster gives every
        // student one (a row without would match nobody), else nimlab's ids for all.
        let with_ids = !book.students.is_empty()
            && book
                .students
                .iter()
                .all(|s| s.roster.as_ref().is_some_and(|r| !r.id.is_empty()));
        let key = if with_ids { "ID number" } else { "Username" };
        let mut header = vec![key.to_string()];
        header.extend(book.exercises.iter().map(|e| text_cell(&e.title)));
        let mut rows = vec![header];
        for student in &book.students {
            // Without ID numbers for all: the account's username where the class has
            // accounts (the website), else the student's id: unique, where names may not be.
            let roster = student.roster.as_ref();
            let id = if with_ids {
                roster.map(|r| r.id.clone())
            } else {
                roster.and_then(|r| r.username.clone())
            }
            .unwrap_or_else(|| student.student_id.clone());
            let mut row = vec![text_cell(&id)];
            row.extend(
                book.exercises
                    .iter()
                    .map(|e| points(student.exercises[&e.name].points)),
            );
            rows.push(row);
        }
        sink.file("moodle.csv", &csv_bytes(self.target(), rows)?)
    }
}
