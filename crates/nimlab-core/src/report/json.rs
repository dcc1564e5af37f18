use super::{Event, Reporter};
use std::io::Write;

/// Prints the whole report as one JSON object when the check is done.
pub struct JsonReporter<W: Write> {
    out: W,
}

impl<W: Write> JsonReporter<W> {
    pub fn new(out: W) -> Self {
        JsonReporter { out }
    }
}

impl<W: Write> Reporter for JsonReporter<W> {
    fn event(&mut self, event: &Event) -> std::io::Result<()> {
        if let Event::Finished(report) = event {
            serde_json::to_writer_pretty(&mut self.out, report)?;
            writeln!(self.out)?;
            self.out.flush()?;
        }
        Ok(())
    }
}
