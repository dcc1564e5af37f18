//! canvas.csv: Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID, Section,
//! then one column per assignment, with a "Points Possible" row first.
//!
//! Canvas finds each row's student by `ID` (its own user id), then `SIS User ID`, then `SIS
//! Login ID`, then the exact name. A roster's `id` is the school's student number, which is
//! Canvas's SIS user id, never its internal one: given as `ID`, it could name another
//! student of the course whose Canvas id happens to be that number. So `ID` stays empty and
//! the number goes under `SIS User ID` (which Canvas reads only followed by `SIS Login ID`,
//! left empty: nimlab does not know the Canvas login), and a row without one is found by
//! name.

use super::{Exporter, Sink, csv_bytes, points, text_cell};
use crate::error::Result;
use crate::grade::book::Gradebook;

pub struct CanvasCsv;

impl Exporter for CanvasCsv {
    fn target(&self) -> &'static str {
        "canvas.csv"
    }

    fn export(&self, book: &Gradebook, sink: &mut dyn Sink) -> Result<()> {
        let mut header = vec![
            "Student".to_string(),
            "ID".into(),
            "SIS User ID".into(),
            "SIS Login ID".into(),
            "Section".into(),
        ];
        header.extend(
            book.exercises
                .iter()
                .map(|e| text_cell(&format!("nimlab: {}", e.title))),
        );
        let mut possible = vec!["Points Possible".to_string()];
        possible.resize(header.len() - book.exercises.len(), String::new());
        possible.extend(book.exercises.iter().map(|e| e.points.to_string()));
        let mut rows = vec![header, possible];
        for student in &book.students {
            let roster = student.roster.clone().unwrap_or_default();
            let mut row = vec![
                text_cell(&student.display_name()),
                String::new(),
                text_cell(&roster.id),
                String::new(),
                text_cell(&roster.section),
            ];
            row.extend(
                book.exercises
                    .iter()
                    .map(|e| points(student.exercises[&e.name].points)),
            );
            rows.push(row);
        }
        sink.file("canvas.csv", &csv_bytes(self.target(), rows)?)
    }
}
