//! misere_game (further study): working_game under misère rules, where the player who takes
//! the last element loses. The same referee plays it, with the ending a setting of every
//! scenario: it names the other player the winner, and holds computers (and optimal humans)
//! to the misère strategy.

use super::working_game::WorkingGame;
use super::{Comparison, Exercise, HintContext, Interactive, Judging, Parsed, Played, Settings};
use crate::error::BadInput;
use crate::nim::Ending;
use crate::runner::Session;
use rand_chacha::ChaCha8Rng;

#[derive(Debug)]
pub struct MisereGame;

impl Exercise for MisereGame {
    fn name(&self) -> &'static str {
        "misere_game"
    }

    fn judging(&self, _: Comparison) -> Judging<'_> {
        Judging::Interactive(self)
    }

    /// The same settings as working_game: answers to questions nimlab cannot read.
    fn settings(&self, keys: &toml::Table) -> Result<Settings, BadInput> {
        WorkingGame.settings(keys)
    }

    fn reference(&self, _: &str, _: &Settings) -> Result<String, BadInput> {
        Err(BadInput::new(
            "misere_game is interactive: it is judged by playing games against it, not by a single stdin case",
        ))
    }

    fn generate(&self, _: &mut ChaCha8Rng) -> Option<String> {
        None
    }
}

impl Interactive for MisereGame {
    fn label(&self) -> &'static str {
        "game"
    }

    /// A working_game scenario, played under misère rules whatever it says.
    fn scenario(&self, text: &str, settings: &Settings) -> Result<Parsed, BadInput> {
        WorkingGame.scenario_with(text, settings, Some(Ending::Misere))
    }

    fn play(&self, scenario: &Parsed, program: &mut dyn Session) -> Played {
        WorkingGame.play(scenario, program)
    }

    fn hints(&self, played: &Played, context: &HintContext) -> Vec<String> {
        Interactive::hints(&WorkingGame, played, context)
    }

    fn replay(&self, played: &Played) -> Option<Parsed> {
        WorkingGame.replay(played)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercises::working_game::scenario::Scenario;

    #[test]
    fn every_scenario_is_played_under_misere_rules() {
        let settings = MisereGame.settings(&toml::Table::new()).unwrap();
        let parsed = MisereGame
            .scenario(
                "players = [\"Ada\", \"Computer\"]\nboard = [3, 1]\n",
                &settings,
            )
            .unwrap();
        assert_eq!(parsed.get::<Scenario>().unwrap().ending, Ending::Misere);
        let normal = WorkingGame
            .scenario(
                "players = [\"Ada\", \"Computer\"]\nboard = [3, 1]\n",
                &settings,
            )
            .unwrap();
        assert_eq!(normal.get::<Scenario>().unwrap().ending, Ending::Normal);
    }
}
