//! mistakes.json: each exercise's failing students grouped by cause ([`Mistakes`]).

use super::{Exporter, Sink, unrenderable};
use crate::error::Result;
use crate::grade::book::Gradebook;
use crate::grade::mistakes::Mistakes;

pub struct MistakesJson;

impl Exporter for MistakesJson {
    fn target(&self) -> &'static str {
        "mistakes.json"
    }

    fn export(&self, book: &Gradebook, sink: &mut dyn Sink) -> Result<()> {
        let bytes = serde_json::to_vec_pretty(&Mistakes::of(book))
            .map_err(|e| unrenderable(self.target(), e))?;
        sink.file("mistakes.json", &bytes)
    }
}
