//! results.json: the whole gradebook, from which `nimlab merge` rebuilds every other report.

use super::{Exporter, Sink};
use crate::grade::book::Gradebook;
use anyhow::Result;

pub struct ResultsJson;

impl Exporter for ResultsJson {
    fn target(&self) -> &'static str {
        "results.json"
    }

    fn export(&self, book: &Gradebook, sink: &mut dyn Sink) -> Result<()> {
        sink.file("results.json", &serde_json::to_vec_pretty(book)?)
    }
}
