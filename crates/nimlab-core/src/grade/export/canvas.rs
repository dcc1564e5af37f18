//! canvas.csv: Canvas's gradebook import: Student, ID, Section, then one column per
//! assignment, with a "Points Possible" row first.

use super::{Exporter, Sink, csv_bytes, points, text_cell};
use crate::error::Result;
use crate::grade::book::Gradebook;

pub struct CanvasCsv;

impl Exporter for CanvasCsv {
    fn target(&self) -> &'static str {
        "canvas.csv"
    }

    fn export(&self, book: &Gradebook, sink: &mut dyn Sink) -> Result<()> {
        let mut header = vec!["Student".to_string(), "ID".into(), "Section".into()];
        header.extend(
            book.exercises
                .iter()
                .map(|e| text_cell(&format!("nimlab: {}", e.title))),
        );
        let mut possible = vec!["Points Possible".to_string(), String::new(), String::new()];
        possible.extend(book.exercises.iter().map(|e| e.points.to_string()));
        let mut rows = vec![header, possible];
        for student in &book.students {
            let roster = student.roster.clone().unwrap_or_default();
            let mut row = vec![
                text_cell(&student.display_name()),
                text_cell(&roster.id),
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
