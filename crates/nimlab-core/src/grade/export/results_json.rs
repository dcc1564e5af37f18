//! results.json: the whole gradebook, from which `nimlab merge` rebuilds every other report.

use super::{Exporter, Sink, unrenderable};
use crate::error::Result;
use crate::grade::book::Gradebook;

pub struct ResultsJson;

impl Exporter for ResultsJson {
    fn target(&self) -> &'static str {
        "results.json"
    }

    fn export(&self, book: &Gradebook, sink: &mut dyn Sink) -> Result<()> {
        let bytes = serde_json::to_vec_pretty(book).map_err(|e| unrenderable(self.target(), e))?;
        sink.file("results.json", &bytes)
    }
}
