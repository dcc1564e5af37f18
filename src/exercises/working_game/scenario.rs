//! A scenario of working_game: who plays, on which board, and what the human seats type.

use crate::error::BadInput;
use serde::Deserialize;

/// A game to play: fixtures/working_game/{sample,secret}/NAME.toml.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Player 1 (moves first) and player 2. A name containing "computer" is a computer.
    pub players: [String; 2],
    pub board: Vec<u64>,
    /// What the human players type first, in order: "row elements" for a move (legal or not),
    /// anything else as it is (malformed input).
    #[serde(default)]
    pub script: Vec<String>,
    /// How the humans play once the script is used up.
    #[serde(default)]
    pub then: HumanPlay,
    #[serde(default = "default_seed")]
    pub seed: u64,
}

fn default_seed() -> u64 {
    1
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HumanPlay {
    /// A random legal move (from the scenario's seed).
    #[default]
    Random,
    /// A winning move where there is one, else a random legal move.
    Optimal,
}

/// Bounds that keep a game (and its transcript) short.
const MAX_ROWS: usize = 12;
const MAX_ROW_SIZE: u64 = 40;

impl Scenario {
    pub fn parse(text: &str) -> Result<Scenario, BadInput> {
        let scenario: Scenario =
            toml::from_str(text).map_err(|e| BadInput::new(e.to_string().trim_end()))?;
        let [first, second] = &scenario.players;
        for name in &scenario.players {
            if name.trim().is_empty() || name.contains(['\n', '\r']) {
                return Err(BadInput::new(
                    "player names must be one non-empty line each",
                ));
            }
        }
        let (a, b) = (first.to_lowercase(), second.to_lowercase());
        if a.contains(&b) || b.contains(&a) {
            // The judge tells the players apart by name in the program's output.
            return Err(BadInput::new(
                "neither player's name may contain the other's",
            ));
        }
        if scenario.board.is_empty() || scenario.board.len() > MAX_ROWS {
            return Err(BadInput::new(format!(
                "the board must have 1 to {MAX_ROWS} rows"
            )));
        }
        if scenario.board.iter().any(|&r| r > MAX_ROW_SIZE) {
            return Err(BadInput::new(format!(
                "rows hold at most {MAX_ROW_SIZE} elements"
            )));
        }
        if scenario.board.iter().all(|&r| r == 0) {
            return Err(BadInput::new("the board must have at least one element"));
        }
        Ok(scenario)
    }

    pub fn is_computer(name: &str) -> bool {
        name.to_lowercase().contains("computer")
    }
}
