//! `nimlab doctor`: which protections hold here, and which interpreters are found.

use super::stdout_error;
use nimlab_core::error::Result;
use nimlab_core::exit;
use nimlab_core::runner::interpreter;
use nimlab_core::runner::sandbox::Isolation;
use std::io::Write;

pub fn doctor(interpreters: &[String]) -> Result<u8> {
    let mut out = anstream::stdout();
    let mut say = |line: String| writeln!(out, "{line}").map_err(stdout_error);
    let isolation = Isolation::detect();
    say(format!("nimlab {}", env!("CARGO_PKG_VERSION")))?;
    say(format!("\n{}", isolation.summary()))?;
    for (protection, active) in isolation.protections() {
        say(format!(
            "  [{}] {protection}",
            if active { "x" } else { " " }
        ))?;
    }
    say("\ninterpreters:".into())?;
    let mut found = 0;
    for request in interpreters {
        match interpreter::probe(request) {
            None => say(format!(
                "  {request:<5} not found (looked on PATH and in pyenv's versions)"
            ))?,
            Some(probe) => {
                found += 1;
                let start = probe.start.map_or("?".into(), |d| {
                    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
                });
                say(format!(
                    "  {request:<5} Python {:<8} starts in {start:>8}  {}",
                    probe.version,
                    probe.path.display()
                ))?;
            }
        }
    }
    Ok(if found > 0 {
        exit::SUCCESS
    } else {
        exit::USAGE
    })
}
