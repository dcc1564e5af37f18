//! working_game: the whole game, judged by playing it. `scenario` reads the fixtures,
//! `referee` plays a scenario and checks the lab's rules as the game goes, `hints` explains
//! a game that went wrong; this file is what the rest of nimlab sees of it.

mod display;
mod hints;
pub mod questions;
pub mod referee;
pub mod scenario;

use super::{Exercise, HintContext, Interactive, Judging, Parsed, Played, Settings};
use crate::error::BadInput;
use crate::exercises::Comparison;
use crate::runner::Session;
use rand_chacha::ChaCha8Rng;
use referee::GameResult;
use scenario::{GameSettings, Scenario};

#[derive(Debug)]
pub struct WorkingGame;

impl Exercise for WorkingGame {
    fn name(&self) -> &'static str {
        "working_game"
    }

    fn judging(&self, _: Comparison) -> Judging<'_> {
        Judging::Interactive(self)
    }

    /// exercise.toml may give answers to the questions of the lab's own game.
    fn settings(&self, keys: &toml::Table) -> Result<Settings, BadInput> {
        GameSettings::parse(keys).map(Parsed::new)
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

impl WorkingGame {
    /// Reads a scenario with the lab's answers, its ending set to `ending` where one is given
    /// (an exercise that plays every game under one rule), else as the file says.
    pub fn scenario_with(
        &self,
        text: &str,
        settings: &Settings,
        ending: Option<crate::nim::Ending>,
    ) -> Result<Parsed, BadInput> {
        let mut scenario = Scenario::parse(text)?;
        if let Some(game) = settings.get::<GameSettings>() {
            scenario.answers = game.answers.clone();
        }
        if let Some(ending) = ending {
            scenario.ending = ending;
        }
        Ok(Parsed::new(scenario))
    }
}

impl Interactive for WorkingGame {
    fn label(&self) -> &'static str {
        "game"
    }

    fn scenario(&self, text: &str, settings: &Settings) -> Result<Parsed, BadInput> {
        self.scenario_with(text, settings, None)
    }

    fn play(&self, scenario: &Parsed, program: &mut dyn Session) -> Played {
        let scenario = scenario
            .get::<Scenario>()
            .expect("working_game's scenarios are parsed by working_game");
        let result = referee::play(scenario, program);
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

    fn replay(&self, played: &Played) -> Option<Parsed> {
        let result = played.detail.as_ref()?.get::<GameResult>()?;
        result.replay.clone().map(Parsed::new)
    }
}

/// The rule's name as reports and JSON carry it (`turn_order`).
fn rule_name(rule: referee::Rule) -> String {
    serde_json::to_value(rule)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}
