use super::Exercise;
use crate::error::BadInput;
use crate::lab::config::ExerciseConfig;
use rand_chacha::ChaCha8Rng;

/// The full interactive game. It has no stdin case to answer: it is judged by playing.
#[derive(Debug)]
pub struct WorkingGame;

impl Exercise for WorkingGame {
    fn name(&self) -> &'static str {
        "working_game"
    }

    fn has_reference(&self) -> bool {
        false
    }

    fn reference(&self, _: &str, _: &ExerciseConfig) -> Result<String, BadInput> {
        Err(BadInput::new(
            "working_game is interactive: it is judged by playing games against it, not by a single stdin case",
        ))
    }

    fn generate(&self, _: &mut ChaCha8Rng) -> Option<String> {
        None
    }
}
