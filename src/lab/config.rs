//! `exercise.toml`: what an instructor can set per exercise.

use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExerciseConfig {
    pub title: String,
    /// Position in the lab's running order (the handout's order).
    pub order: u32,
    /// What the exercise is worth in a gradebook; case weights are scaled to it.
    #[serde(default = "default_points")]
    pub points: u32,
    /// Interpreters the submission must work under: versions ("3", "2.7") or paths.
    #[serde(default = "default_interpreters")]
    pub interpreters: Vec<String>,
    #[serde(default)]
    pub comparison: Comparison,
    /// Which name the lab gives a board with nim-sum zero (only nim_sum reads it).
    #[serde(default)]
    pub positions: PositionNaming,
    #[serde(default)]
    pub limits: Limits,
    /// Case weights by case name (`secret/05-big`); a case not named weighs 1.
    #[serde(default)]
    pub weights: BTreeMap<String, u32>,
    #[serde(default)]
    pub forbidden: Vec<Forbidden>,
}

fn default_points() -> u32 {
    10
}

fn default_interpreters() -> Vec<String> {
    vec!["3".into(), "2.7".into()]
}

/// How a program's output is compared with the expected output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Comparison {
    /// CMS white-diff: whitespace runs and trailing blank lines don't matter; lines do.
    #[default]
    Lines,
    Exact,
    /// Only the sequence of whitespace-separated tokens matters.
    Tokens,
    /// Both sides parse as JSON and are equal as values.
    Json,
    /// The exercise's own checker decides (many answers can be right).
    Checker,
    /// The program is played against interactively (working_game).
    Game,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionNaming {
    /// The lab's own naming: nim-sum zero is an "N-position".
    #[default]
    Lab,
    /// The textbook naming: nim-sum zero is a "P-position" (previous player wins).
    Textbook,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    pub cpu_ms: u64,
    /// Also stops a program that sleeps or waits without using the CPU.
    pub wall_ms: u64,
    pub memory_mb: u64,
    pub output_kb: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            cpu_ms: 2_000,
            wall_ms: 5_000,
            memory_mb: 256,
            output_kb: 1_024,
        }
    }
}

/// A construct the statement asks students not to use.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Forbidden {
    pub kind: ForbiddenKind,
    /// The operator (`^`), function (`bin`) or name to look for.
    pub token: String,
    /// Said to the student next to the line number.
    pub message: String,
    /// When true a use fails the submission; otherwise it is a warning.
    #[serde(default)]
    pub fail: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForbiddenKind {
    /// An operator token, outside strings and comments.
    Operator,
    /// A call of a function by name: `bin(`.
    Call,
    /// Any use of an identifier.
    Name,
}

impl ExerciseConfig {
    pub fn parse(text: &str) -> Result<Self, String> {
        let config: ExerciseConfig = toml::from_str(text).map_err(|e| e.to_string())?;
        if config.interpreters.is_empty() {
            return Err("`interpreters` must name at least one interpreter".into());
        }
        let l = &config.limits;
        if l.cpu_ms == 0 || l.wall_ms == 0 || l.memory_mb == 0 || l.output_kb == 0 {
            return Err("every limit in [limits] must be greater than zero".into());
        }
        if l.wall_ms < l.cpu_ms {
            return Err("limits.wall_ms must be at least limits.cpu_ms".into());
        }
        for rule in &config.forbidden {
            if rule.token.trim().is_empty() {
                return Err("a [[forbidden]] entry has an empty `token`".into());
            }
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_fill_in() {
        let config = ExerciseConfig::parse("title = \"T\"\norder = 1\n").unwrap();
        assert_eq!(config.comparison, Comparison::Lines);
        assert_eq!(config.interpreters, vec!["3", "2.7"]);
        assert_eq!(config.limits, Limits::default());
    }

    #[test]
    fn unknown_keys_and_bad_values_are_refused() {
        let err =
            ExerciseConfig::parse("title = \"T\"\norder = 1\ncomparsion = \"json\"\n").unwrap_err();
        assert!(err.contains("comparsion"), "{err}");
        let err = ExerciseConfig::parse("title = \"T\"\norder = 1\ncomparison = \"fuzzy\"\n")
            .unwrap_err();
        assert!(err.contains("fuzzy"), "{err}");
        let err =
            ExerciseConfig::parse("title = \"T\"\norder = 1\n[limits]\ncpu_ms = 0\n").unwrap_err();
        assert!(err.contains("greater than zero"), "{err}");
    }
}
