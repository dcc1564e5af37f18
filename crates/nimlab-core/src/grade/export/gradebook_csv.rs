//! gradebook.csv: one row per student, one column per exercise, and the total.

use super::{Exporter, Sink, csv_bytes, points, text_cell};
use crate::error::Result;
use crate::grade::book::Gradebook;

pub struct GradebookCsv;

impl Exporter for GradebookCsv {
    fn target(&self) -> &'static str {
        "gradebook.csv"
    }

    fn export(&self, book: &Gradebook, sink: &mut dyn Sink) -> Result<()> {
        let mut header = vec!["student".to_string(), "student_id".into()];
        header.extend(book.exercises.iter().map(|e| text_cell(&e.name)));
        header.push("total".into());
        let mut rows = vec![header];
        for student in &book.students {
            let mut row = vec![text_cell(&student.student), text_cell(&student.student_id)];
            row.extend(
                book.exercises
                    .iter()
                    .map(|e| points(student.exercises[&e.name].points)),
            );
            row.push(points(student.total));
            rows.push(row);
        }
        sink.file("gradebook.csv", &csv_bytes(self.target(), rows)?)
    }
}
