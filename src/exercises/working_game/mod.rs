//! working_game: the whole game, judged by playing it. `scenario` reads the fixtures,
//! `referee` plays a scenario and checks the lab's rules as the game goes, `hints` explains
//! a game that went wrong; this file is what the rest of nimlab sees of it.

mod hints;
pub mod referee;
pub mod scenario;

use super::{Exercise, HintContext, Interactive, Judging, Parsed, Played, Settings};
use crate::error::BadInput;
use crate::lab::config::Comparison;
use crate::runner::interactive::Pause;
use crate::runner::{Session, Termination};
use rand_chacha::ChaCha8Rng;
use referee::{Ending, GameResult, Program};
use scenario::Scenario;

#[derive(Debug)]
pub struct WorkingGame;

impl Exercise for WorkingGame {
    fn name(&self) -> &'static str {
        "working_game"
    }

    fn judging(&self, _: Comparison) -> Judging<'_> {
        Judging::Interactive(self)
    }

    fn reference(&self, _: &str, _: &Settings) -> Result<String, BadInput> {
        Err(BadInput::new(
            "working_game is interactive: it is judged by playing games against it, not by a single stdin case",
        ))
    }

    fn generate(&self, _: &mut ChaCha8Rng) -> Option<String> {
        None
    }
}

impl Interactive for WorkingGame {
    fn label(&self) -> &'static str {
        "game"
    }

    fn scenario(&self, text: &str) -> Result<Parsed, BadInput> {
        Scenario::parse(text)
            .map(Parsed::new)
            .map_err(BadInput::new)
    }

    fn play(&self, scenario: &Parsed, program: &mut dyn Session) -> Played {
        let scenario = scenario
            .get::<Scenario>()
            .expect("working_game's scenarios are parsed by working_game");
        let result = referee::play(scenario, &mut Referee(program));
        Played {
            verdict: result.verdict,
            message: result.message.clone(),
            broken_rule: result.broken.as_ref().map(|b| rule_name(b.rule)),
            transcript: result.transcript.clone(),
            moves: result.moves,
            detail: Some(Parsed::new(result)),
        }
    }

    fn hints(&self, played: &Played, context: &HintContext) -> Vec<String> {
        let Some(result) = played.detail.as_ref().and_then(|d| d.get::<GameResult>()) else {
            return Vec::new();
        };
        hints::hints(
            result,
            context.stderr,
            context.file,
            context.source,
            context.lab_names,
        )
    }
}

/// The rule's name as reports and JSON carry it (`turn_order`).
fn rule_name(rule: referee::Rule) -> String {
    serde_json::to_value(rule)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The referee's view of a running program.
struct Referee<'a>(&'a mut dyn Session);

impl Program for Referee<'_> {
    fn resume(&mut self) -> Result<(Pause, String), String> {
        self.0
            .resume()
            .map(|(pause, bytes)| (pause, crate::feedback::text::printable(&bytes)))
            .map_err(|e| e.to_string())
    }

    fn type_line(&mut self, line: &str) -> Result<(), String> {
        self.0.type_line(line).map_err(|e| e.to_string())
    }

    fn ending(&mut self) -> Ending {
        let crashed = |summary: String| Ending {
            crashed: true,
            crash_summary: Some(summary),
        };
        match self.0.finish() {
            Ok(end) => match end.termination {
                Termination::Exited(0)
                | Termination::WallTimeout
                | Termination::CpuTimeout
                | Termination::OutputLimit => Ending {
                    crashed: false,
                    crash_summary: None,
                },
                Termination::Exited(code) => crashed(
                    crate::feedback::traceback::traceback_summary(&end.stderr)
                        .unwrap_or_else(|| format!("the program exited with status {code}")),
                ),
                Termination::Signaled(signal) => {
                    crashed(format!("the program was killed by signal {signal}"))
                }
            },
            Err(e) => crashed(format!("nimlab lost the program: {e}")),
        }
    }
}
