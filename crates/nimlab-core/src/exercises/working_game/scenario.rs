//! A scenario of working_game: who plays, on which board, and what the human seats type.

use super::questions::Mode;
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
    /// Who wins: `normal` (the player who takes the last element) or `misere` (that player
    /// loses). The referee's winner, its computers' best moves and its optimal humans follow it.
    #[serde(default)]
    pub ending: crate::nim::Ending,
    /// The lab's own answers to questions nimlab cannot read (exercise.toml's `answers`).
    #[serde(skip)]
    pub answers: Vec<Answer>,
    /// What earlier plays of this scenario found out, where nimlab restarted the game.
    #[serde(skip)]
    pub experiment: Experiment,
}

/// What the plays of a scenario so far found out, where the program's words left a reading
/// open and nimlab restarted the game to try another.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Experiment {
    /// Menu answers tried for the scenario's mode that played another mode.
    pub wrong_keys: Vec<String>,
    /// Forms of a move (as `3, 2`, `3 2`...) the program crashed on.
    pub crashed_forms: Vec<String>,
    /// Names asked before the seats were known are answered with people's names: the names
    /// of the lab's convention (a name with "computer" in it is a computer) were found to
    /// mislead the program or nimlab.
    pub neutral_names: bool,
    /// Moves are typed with the amount before the row: an earlier play typed the row first,
    /// the question not saying which comes first, and the program took it the other way.
    pub amount_first: bool,
    /// What each earlier play tried, and what came of it, for the transcript.
    pub tried: Vec<String>,
}

/// An answer an instructor gives in exercise.toml for a question of their lab's game:
///
/// ```toml
/// [[answers]]
/// question = "game type"        # words of the question, any case
/// human_vs_human = "1"
/// human_vs_computer = "2"
/// computer_vs_computer = "3"
/// # or `answer = "..."` for every scenario
/// ```
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    pub question: String,
    #[serde(default)]
    pub answer: Option<String>,
    #[serde(default)]
    pub human_vs_human: Option<String>,
    #[serde(default)]
    pub human_vs_computer: Option<String>,
    #[serde(default)]
    pub computer_vs_computer: Option<String>,
}

impl Answer {
    /// The answer for a scenario of this mode, if the question is this one.
    pub fn for_question(&self, question: &str, mode: Mode) -> Option<&str> {
        if !question
            .to_lowercase()
            .contains(&self.question.to_lowercase())
        {
            return None;
        }
        let by_mode = match mode {
            Mode::HumanVsHuman => &self.human_vs_human,
            Mode::HumanVsComputer => &self.human_vs_computer,
            Mode::ComputerVsComputer => &self.computer_vs_computer,
        };
        by_mode.as_deref().or(self.answer.as_deref())
    }
}

/// The game's settings in exercise.toml: answers for questions nimlab cannot read.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSettings {
    #[serde(default)]
    pub answers: Vec<Answer>,
}

impl GameSettings {
    pub fn parse(keys: &toml::Table) -> Result<GameSettings, BadInput> {
        let settings: GameSettings = toml::Value::Table(keys.clone())
            .try_into()
            .map_err(|e: toml::de::Error| BadInput::new(e.to_string().trim_end()))?;
        for answer in &settings.answers {
            if answer.question.trim().is_empty() {
                return Err(BadInput::new(
                    "each of `answers` needs the words of its `question`",
                ));
            }
            let any = [
                &answer.answer,
                &answer.human_vs_human,
                &answer.human_vs_computer,
                &answer.computer_vs_computer,
            ];
            if any.iter().all(|a| a.is_none()) {
                return Err(BadInput::new(format!(
                    "the answer to `{}` gives no `answer` (or one per scenario: human_vs_human, human_vs_computer, computer_vs_computer)",
                    answer.question
                )));
            }
            if any
                .iter()
                .flat_map(|a| a.iter())
                .any(|a| a.contains(['\n', '\r']))
            {
                return Err(BadInput::new(format!(
                    "the answer to `{}` must be one line",
                    answer.question
                )));
            }
        }
        Ok(settings)
    }
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

    /// Which of the lab's three scenarios this is.
    pub fn mode(&self) -> Mode {
        Mode::from_computers(self.players.iter().filter(|p| Self::is_computer(p)).count())
    }
}
