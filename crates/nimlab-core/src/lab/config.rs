//! `exercise.toml`: what an instructor can set per exercise.

use crate::exercises::Comparison;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The settings every exercise has. Keys beyond these belong to the exercise itself
/// ([`crate::exercises::Exercise::settings`]), which refuses the ones it does not know.
#[derive(Debug, Clone, Deserialize)]
pub struct ExerciseConfig {
    pub title: String,
    /// Position in the lab's running order (the handout's order).
    pub order: u32,
    /// What the exercise is worth in a gradebook; case weights are scaled to it.
    #[serde(default = "default_points")]
    pub points: u32,
    /// Further study: beyond the lab's own exercises, optional for students.
    #[serde(default)]
    pub further_study: bool,
    /// Whether its points count in a gradebook's total: by default every exercise's do but
    /// further study's; a lab folder may say otherwise either way.
    #[serde(default)]
    in_total: Option<bool>,
    /// Interpreters the submission must work under: versions ("3", "2.7") or paths.
    #[serde(default = "default_interpreters")]
    pub interpreters: Vec<String>,
    /// How outputs compare with the expected ones, for exercises judged that way.
    #[serde(default)]
    comparison: ComparisonSetting,
    #[serde(default)]
    pub limits: Limits,
    /// Case weights by case name (`secret/05-big`); a case not named weighs 1.
    #[serde(default)]
    pub weights: BTreeMap<String, u32>,
    #[serde(default)]
    pub forbidden: Vec<Forbidden>,
    /// The keys left for the exercise's own settings.
    #[serde(flatten)]
    pub exercise_keys: toml::Table,
}

fn default_points() -> u32 {
    10
}

fn default_interpreters() -> Vec<String> {
    vec!["3".into(), "2.7".into()]
}

/// `comparison` as exercise.toml may write it. Labs written before exercises chose their
/// own judging also say "checker" or "game"; the loader only checks that the exercise agrees.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ComparisonSetting {
    #[default]
    Lines,
    Exact,
    Tokens,
    Json,
    Checker,
    Game,
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
    /// The comparison chosen for outputs compared with an expected output.
    pub fn comparison(&self) -> Comparison {
        match self.comparison {
            ComparisonSetting::Exact => Comparison::Exact,
            ComparisonSetting::Tokens => Comparison::Tokens,
            ComparisonSetting::Json => Comparison::Json,
            _ => Comparison::Lines,
        }
    }

    /// Does this exercise's score count in a gradebook's total?
    pub fn in_total(&self) -> bool {
        self.in_total.unwrap_or(!self.further_study)
    }

    /// What the file says `comparison` is, to check it against the exercise's judging.
    pub fn comparison_setting(&self) -> ComparisonSetting {
        self.comparison
    }

    pub fn parse(text: &str) -> Result<Self, crate::error::BadInput> {
        use crate::error::BadInput;
        let config: ExerciseConfig =
            toml::from_str(text).map_err(|e| BadInput::new(e.to_string().trim_end()))?;
        if config.interpreters.is_empty() {
            return Err(BadInput::new(
                "`interpreters` must name at least one interpreter",
            ));
        }
        let l = &config.limits;
        if l.cpu_ms == 0 || l.wall_ms == 0 || l.memory_mb == 0 || l.output_kb == 0 {
            return Err(BadInput::new(
                "every limit in [limits] must be greater than zero",
            ));
        }
        if l.wall_ms < l.cpu_ms {
            return Err(BadInput::new(
                "limits.wall_ms must be at least limits.cpu_ms",
            ));
        }
        for rule in &config.forbidden {
            if rule.token.trim().is_empty() {
                return Err(BadInput::new("a [[forbidden]] entry has an empty `token`"));
            }
        }
        Ok(config)
    }
}

impl From<&Limits> for crate::runner::RunLimits {
    fn from(l: &Limits) -> Self {
        crate::runner::RunLimits {
            cpu: std::time::Duration::from_millis(l.cpu_ms),
            wall: std::time::Duration::from_millis(l.wall_ms),
            memory_bytes: l.memory_mb * 1024 * 1024,
            output_bytes: l.output_kb * 1024,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_fill_in() {
        let config = ExerciseConfig::parse("title = \"T\"\norder = 1\n").unwrap();
        assert_eq!(config.comparison(), Comparison::Lines);
        assert_eq!(config.interpreters, vec!["3", "2.7"]);
        assert_eq!(config.limits, Limits::default());
    }

    #[test]
    fn further_study_is_left_out_of_the_total_unless_the_lab_says_otherwise() {
        let plain = ExerciseConfig::parse("title = \"T\"\norder = 1\n").unwrap();
        assert!(!plain.further_study && plain.in_total());
        let optional =
            ExerciseConfig::parse("title = \"T\"\norder = 10\nfurther_study = true\n").unwrap();
        assert!(optional.further_study && !optional.in_total());
        let counted = ExerciseConfig::parse(
            "title = \"T\"\norder = 10\nfurther_study = true\nin_total = true\n",
        )
        .unwrap();
        assert!(counted.in_total());
        let left_out =
            ExerciseConfig::parse("title = \"T\"\norder = 3\nin_total = false\n").unwrap();
        assert!(!left_out.in_total());
    }

    #[test]
    fn bad_values_are_refused_and_other_keys_left_to_the_exercise() {
        let config =
            ExerciseConfig::parse("title = \"T\"\norder = 1\ncomparsion = \"json\"\n").unwrap();
        assert!(config.exercise_keys.contains_key("comparsion"));
        let err = ExerciseConfig::parse("title = \"T\"\norder = 1\ncomparison = \"fuzzy\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("fuzzy"), "{err}");
        let err = ExerciseConfig::parse("title = \"T\"\norder = 1\n[limits]\ncpu_ms = 0\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("greater than zero"), "{err}");
    }
}
