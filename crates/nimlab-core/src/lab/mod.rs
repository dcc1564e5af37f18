//! A lab: its exercises (statements, stubs, model solutions, settings) and their fixtures.
//!
//! Two sources share one loader: the lab embedded in the binary, so `nimlab` works from any
//! folder, and an instructor's folder of the same layout given with `--lab`.

pub mod config;

use crate::error::{BadInput, LabError};
use crate::exercises::{self, Exercise, Interactive, Judging, Parsed, Settings};
use config::{ComparisonSetting, ExerciseConfig};
use include_dir::{Dir, include_dir};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

static BUILT_IN_EXERCISES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../exercises");
static BUILT_IN_FIXTURES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../fixtures");

/// No lab file is this large; a bigger one is a mistake, not a fixture.
const MAX_LAB_FILE_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabOrigin {
    BuiltIn,
    Folder(PathBuf),
}

impl std::fmt::Display for LabOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LabOrigin::BuiltIn => write!(f, "the built-in lab"),
            LabOrigin::Folder(path) => write!(f, "{}", path.display()),
        }
    }
}

#[derive(Debug)]
pub struct Lab {
    pub origin: LabOrigin,
    /// In the lab's running order.
    pub exercises: Vec<LabExercise>,
    /// What judges by this lab: a SHA-256 over its files and nimlab's version (the exercises'
    /// judging is compiled in), in hex. Processes judging for one website compare it.
    pub digest: String,
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Shown to students in full.
    Sample,
    /// Graded; students see only the verdict.
    Secret,
}

impl Visibility {
    pub fn folder(self) -> &'static str {
        match self {
            Visibility::Sample => "sample",
            Visibility::Secret => "secret",
        }
    }
}

/// What a case gives the program.
#[derive(Debug, Clone)]
pub enum CaseInput {
    /// Its whole stdin (a `.in` file).
    Stdin(String),
    /// A scenario that an interactive exercise plays (a `.toml` file), parsed once by it.
    Scenario { text: String, parsed: Parsed },
}

impl CaseInput {
    /// The case as its fixture file holds it: what a student is shown as the input.
    pub fn text(&self) -> &str {
        match self {
            CaseInput::Stdin(text) | CaseInput::Scenario { text, .. } => text,
        }
    }

    /// The stdin of a batch run (a scenario has none: it is typed).
    pub fn stdin(&self) -> &[u8] {
        match self {
            CaseInput::Stdin(text) => text.as_bytes(),
            CaseInput::Scenario { .. } => b"",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Case {
    /// `sample/01-handout-board`: the folder and the file stem.
    pub name: String,
    pub visibility: Visibility,
    pub input: CaseInput,
    /// The expected output, adapted to the exercise's settings (see `Exercise::expected`).
    pub expected: String,
    /// The `.out` file as stored.
    pub stored_expected: String,
    pub weight: u32,
}

#[derive(Debug)]
pub struct LabExercise {
    pub name: String,
    pub config: ExerciseConfig,
    pub statement: String,
    pub stub: String,
    pub solution: Option<String>,
    pub cases: Vec<Case>,
    /// The built-in reference, judging and hints, when nimlab knows this exercise.
    pub module: Option<&'static dyn Exercise>,
    /// The exercise's own settings, read by its module from exercise.toml.
    pub settings: Settings,
    /// The other files of the exercise's folder (images and handouts the statement links
    /// to), by their path in it (`board.png`, `img/board.png`); see [`is_statement_file`].
    pub files: BTreeMap<String, Vec<u8>>,
}

impl LabExercise {
    pub fn max_score(&self) -> u32 {
        self.cases.iter().map(|c| c.weight).sum()
    }

    /// How this exercise's runs are judged: as its module says, or (for an exercise nimlab
    /// does not know) by comparing with the expected output.
    pub fn judging(&self) -> Judging<'static> {
        let comparison = self.config.comparison();
        match self.module {
            Some(module) => module.judging(comparison),
            None => Judging::Expected(comparison),
        }
    }

    /// The reference answer for one stdin case.
    pub fn reference(&self, input: &str) -> Result<String, crate::error::Error> {
        let module = self.module.ok_or_else(|| {
            crate::error::Error::usage(format!(
                "`{}` has no reference built into nimlab",
                self.name
            ))
        })?;
        module
            .reference(input, &self.settings)
            .map_err(|e| crate::error::Error::input("stdin", e.to_string()))
    }

    /// Whether cases have a stdin reference (not a game, and known to nimlab).
    pub fn has_reference(&self) -> bool {
        self.module.is_some() && !matches!(self.judging(), Judging::Interactive(_))
    }

    /// The word `nimlab list` shows for how the exercise is judged.
    pub fn judging_label(&self) -> &'static str {
        self.judging().label()
    }
}

impl Lab {
    pub fn built_in() -> Result<Lab, LabError> {
        let mut files = BTreeMap::new();
        collect_embedded(&BUILT_IN_EXERCISES, "exercises", &mut files);
        collect_embedded(&BUILT_IN_FIXTURES, "fixtures", &mut files);
        parse(LabOrigin::BuiltIn, files, exercises::all())
    }

    pub fn from_folder(root: &Path) -> Result<Lab, LabError> {
        Lab::from_folder_with(root, exercises::all())
    }

    /// A lab folder whose exercises nimlab knows from `registry` (the built-in one, or one a
    /// test or an extension adds its own exercise modules to).
    pub fn from_folder_with(
        root: &Path,
        registry: &[&'static dyn Exercise],
    ) -> Result<Lab, LabError> {
        let label = root.display().to_string();
        if !root.join("exercises").is_dir() {
            return Err(LabError::invalid(
                label,
                "not a lab folder: it has no `exercises/` folder",
            ));
        }
        let mut files = BTreeMap::new();
        for top in ["exercises", "fixtures"] {
            let dir = root.join(top);
            if !dir.exists() {
                continue;
            }
            for entry in walkdir::WalkDir::new(&dir).sort_by_file_name() {
                let entry = entry.map_err(|e| {
                    let file = e.path().unwrap_or(&dir).display().to_string();
                    LabError::Read {
                        file,
                        source: e.into(),
                    }
                })?;
                if !entry.file_type().is_file() {
                    continue;
                }
                let path = entry.path();
                let file = path.display().to_string();
                let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
                if size > MAX_LAB_FILE_BYTES {
                    return Err(LabError::invalid(file, "file is larger than 64 MiB"));
                }
                let bytes =
                    std::fs::read(path).map_err(|source| LabError::Read { file, source })?;
                let relative = path
                    .strip_prefix(root)
                    .expect("walked below the root")
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                files.insert(relative, bytes);
            }
        }
        parse(LabOrigin::Folder(root.to_path_buf()), files, registry)
    }

    /// The built-in lab, or the folder given with `--lab`.
    pub fn load(folder: Option<&Path>) -> Result<Lab, LabError> {
        match folder {
            Some(root) => Lab::from_folder(root),
            None => Lab::built_in(),
        }
    }

    pub fn exercise(&self, name: &str) -> Result<&LabExercise, LabError> {
        self.exercises
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| LabError::UnknownExercise {
                name: name.to_string(),
                known: self.names().join(", "),
            })
    }

    pub fn names(&self) -> Vec<&str> {
        self.exercises.iter().map(|e| e.name.as_str()).collect()
    }

    /// The exercise a submission is for: named by its file name (`present_board.py`, or a
    /// name holding it between separators like `ada_present_board.py`), or else by its folder
    /// (`present_board/solution.py`, as in the lab's own layout).
    pub fn detect_exercise(&self, file: &Path) -> Option<&LabExercise> {
        let stem = file.file_stem()?.to_string_lossy().to_lowercase();
        let folder = std::path::absolute(file).ok().and_then(|p| {
            p.parent()?
                .file_name()
                .map(|n| n.to_string_lossy().to_lowercase())
        });
        self.exercise_named_in(&stem)
            .or_else(|| folder.and_then(|f| self.exercise_named_in(&f)))
    }

    /// The exercise a file's own name names (`make_move.py`, `lab2_make_move.py`), without
    /// looking at its folder: in a student's repository the folder is named by the
    /// assignment, not by an exercise.
    pub fn exercise_named_by_file(&self, file_name: &str) -> Option<&LabExercise> {
        let stem = Path::new(file_name)
            .file_stem()?
            .to_string_lossy()
            .to_lowercase();
        self.exercise_named_in(&stem)
    }

    fn exercise_named_in(&self, name: &str) -> Option<&LabExercise> {
        if let Ok(exact) = self.exercise(name) {
            return Some(exact);
        }
        let words: Vec<&str> = name
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let mut found = self.exercises.iter().filter(|exercise| {
            let parts: Vec<&str> = exercise.name.split('_').collect();
            words.windows(parts.len()).any(|window| window == parts)
        });
        let first = found.next()?;
        // Two exercises named in one name is ambiguous: ask for --exercise.
        found.next().is_none().then_some(first)
    }
}

fn collect_embedded(dir: &Dir<'static>, top: &str, files: &mut BTreeMap<String, Vec<u8>>) {
    for entry in dir.entries() {
        match entry {
            include_dir::DirEntry::Dir(sub) => collect_embedded(sub, top, files),
            include_dir::DirEntry::File(file) => {
                let relative = format!("{top}/{}", file.path().display());
                files.insert(relative, file.contents().to_vec());
            }
        }
    }
}

/// Names a lab file in error messages the way its user knows it.
struct Namer<'a>(&'a LabOrigin);

impl Namer<'_> {
    fn name(&self, relative: &str) -> String {
        match self.0 {
            LabOrigin::BuiltIn => format!("{relative} (built-in lab)"),
            LabOrigin::Folder(root) => root.join(relative).display().to_string(),
        }
    }
}

fn text(namer: &Namer, relative: &str, bytes: &[u8]) -> Result<String, LabError> {
    String::from_utf8(bytes.to_vec())
        .map_err(|_| LabError::invalid(namer.name(relative), "is not valid UTF-8 text"))
}

/// Whether `name` can name an exercise or a fixture: lowercase letters, digits, `_` and `-`
/// (so never a path, `..` or a hidden file).
pub(crate) fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

/// See [`Lab::digest`]: each file's path and length before its bytes, so no two labs'
/// files run together into the same stream.
fn digest(files: &BTreeMap<String, Vec<u8>>) -> String {
    use sha2::Digest;
    let mut hash = sha2::Sha256::new();
    hash.update(concat!("nimlab ", env!("CARGO_PKG_VERSION"), "\0").as_bytes());
    for (relative, bytes) in files {
        hash.update(relative.as_bytes());
        hash.update([0]);
        hash.update((bytes.len() as u64).to_be_bytes());
        hash.update(bytes);
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn parse(
    origin: LabOrigin,
    files: BTreeMap<String, Vec<u8>>,
    registry: &[&'static dyn Exercise],
) -> Result<Lab, LabError> {
    let namer = Namer(&origin);
    let mut by_exercise: BTreeMap<String, BTreeMap<String, &[u8]>> = BTreeMap::new();
    let mut fixture_files: BTreeMap<String, Vec<(String, &[u8])>> = BTreeMap::new();
    for (relative, bytes) in &files {
        let parts: Vec<&str> = relative.split('/').collect();
        match parts.as_slice() {
            ["exercises", name, rest @ ..] if !rest.is_empty() => {
                by_exercise
                    .entry(name.to_string())
                    .or_default()
                    .insert(rest.join("/"), bytes);
            }
            ["fixtures", name, rest @ ..] if !rest.is_empty() => {
                fixture_files
                    .entry(name.to_string())
                    .or_default()
                    .push((relative.clone(), bytes));
            }
            // Top-level notes (a README) are not part of any exercise.
            [_, file] if file.ends_with(".md") => {}
            _ => {
                return Err(LabError::invalid(
                    namer.name(relative),
                    "does not belong to an exercise: lab files live in exercises/<name>/ and fixtures/<name>/",
                ));
            }
        }
    }
    if by_exercise.is_empty() {
        return Err(LabError::invalid(
            namer.name("exercises"),
            "the lab has no exercises",
        ));
    }
    for name in fixture_files.keys() {
        if !by_exercise.contains_key(name) {
            return Err(LabError::invalid(
                namer.name(&format!("fixtures/{name}")),
                format!("there is no exercise `{name}` (no exercises/{name}/)"),
            ));
        }
    }
    let mut exercises = Vec::new();
    for (name, own) in &by_exercise {
        let fixtures = fixture_files.remove(name).unwrap_or_default();
        let module = registry.iter().copied().find(|m| m.name() == name);
        exercises.push(parse_exercise(&namer, name, module, own, &fixtures)?);
    }
    exercises.sort_by(|a, b| (a.config.order, &a.name).cmp(&(b.config.order, &b.name)));
    Ok(Lab {
        origin,
        exercises,
        digest: digest(&files),
    })
}

fn parse_exercise(
    namer: &Namer,
    name: &str,
    module: Option<&'static dyn Exercise>,
    own: &BTreeMap<String, &[u8]>,
    fixtures: &[(String, &[u8])],
) -> Result<LabExercise, LabError> {
    let dir = format!("exercises/{name}");
    if !is_valid_name(name) {
        return Err(LabError::invalid(
            namer.name(&dir),
            "exercise names use lowercase letters, digits, `_` and `-` only",
        ));
    }
    let read = |file: &str| -> Result<Option<String>, LabError> {
        own.get(file)
            .map(|bytes| text(namer, &format!("{dir}/{file}"), bytes))
            .transpose()
    };
    let require = |file: &str| -> Result<String, LabError> {
        read(file)?
            .ok_or_else(|| LabError::invalid(namer.name(&format!("{dir}/{file}")), "is missing"))
    };
    let config_file = format!("{dir}/exercise.toml");
    let invalid_config = |problem: String| LabError::invalid(namer.name(&config_file), problem);
    let config = ExerciseConfig::parse(&require("exercise.toml")?)
        .map_err(|e| invalid_config(e.to_string()))?;
    let settings = match module {
        Some(module) => module.settings(&config.exercise_keys),
        None => exercises::no_settings(&config.exercise_keys),
    }
    .map_err(|e| invalid_config(e.to_string()))?;
    let judging = match module {
        Some(module) => module.judging(config.comparison()),
        None => Judging::Expected(config.comparison()),
    };
    // Older labs name the judging in exercise.toml; it must be the exercise's own.
    match (config.comparison_setting(), judging) {
        (ComparisonSetting::Checker, Judging::Checker(_))
        | (ComparisonSetting::Game, Judging::Interactive(_)) => {}
        (ComparisonSetting::Checker, _) => {
            return Err(invalid_config(format!(
                "comparison = \"checker\" needs a checker built into nimlab, and `{name}` has none"
            )));
        }
        (ComparisonSetting::Game, _) => {
            return Err(invalid_config(format!(
                "comparison = \"game\" needs a game judge built into nimlab, and `{name}` has none"
            )));
        }
        _ => {}
    }
    // A setting may ask for other files (textbook naming swaps statement, stub, solution).
    let variant_name = module.and_then(|m| m.variant(&settings));
    let variant = |file: &str| -> Result<Option<String>, LabError> {
        if let Some(variant_name) = variant_name {
            let (stem, ext) = file.rsplit_once('.').expect("file names have an extension");
            if let Some(found) = read(&format!("{stem}.{variant_name}.{ext}"))? {
                return Ok(Some(found));
            }
        }
        read(file)
    };
    let statement = variant("README.md")?
        .ok_or_else(|| LabError::invalid(namer.name(&format!("{dir}/README.md")), "is missing"))?;
    let stub = variant("stub.py")?
        .ok_or_else(|| LabError::invalid(namer.name(&format!("{dir}/stub.py")), "is missing"))?;
    let solution = variant("solution.py")?;

    let cases = parse_cases(namer, name, &config, module, &settings, judging, fixtures)?;
    for case_name in config.weights.keys() {
        if !cases.iter().any(|c| &c.name == case_name) {
            return Err(LabError::invalid(
                namer.name(&config_file),
                format!("[weights] names case `{case_name}`, which fixtures/{name}/ does not have"),
            ));
        }
    }
    Ok(LabExercise {
        name: name.to_string(),
        config,
        statement,
        stub,
        solution,
        cases,
        module,
        settings,
        files: statement_files(own),
    })
}

fn statement_files(own: &BTreeMap<String, &[u8]>) -> BTreeMap<String, Vec<u8>> {
    own.iter()
        .filter(|(path, _)| is_statement_file(path))
        .map(|(path, bytes)| (path.clone(), bytes.to_vec()))
        .collect()
}

/// Whether a file of an exercise's folder (`relative` to it) goes with its statement, for
/// students to read: not the exercise's own files (exercise.toml, the statements, and any
/// Python file at the top, which holds the starter and the model solutions), nothing whose
/// name starts with `solution`, and nothing hidden.
pub fn is_statement_file(relative: &str) -> bool {
    let parts: Vec<&str> = relative.split('/').collect();
    let top = parts.len() == 1;
    !parts.iter().any(|part| {
        part.is_empty() || part.starts_with('.') || part.to_lowercase().starts_with("solution")
    }) && !(top && (relative == "exercise.toml" || relative.ends_with(".py")))
        && !(top && relative.starts_with("README") && relative.ends_with(".md"))
}

/// A case's `.in` and `.out` files, as (path, bytes), as far as found.
type Pair<'a> = (Option<(&'a str, &'a [u8])>, Option<(&'a str, &'a [u8])>);

fn parse_cases(
    namer: &Namer,
    name: &str,
    config: &ExerciseConfig,
    module: Option<&'static dyn Exercise>,
    settings: &Settings,
    judging: Judging,
    fixtures: &[(String, &[u8])],
) -> Result<Vec<Case>, LabError> {
    // (visibility, stem) -> (.in, .out)
    let mut pairs: BTreeMap<(Visibility, String), Pair> = BTreeMap::new();
    let mut cases = Vec::new();
    for (relative, bytes) in fixtures {
        let rest = &relative[format!("fixtures/{name}/").len()..];
        if rest.ends_with(".md") && !rest.contains('/') {
            continue;
        }
        let fixture = Fixture::place(namer, relative, rest, bytes)?;
        if let Judging::Interactive(interactive) = judging {
            cases.push(scenario_case(namer, &fixture, interactive, settings)?);
            continue;
        }
        pair_up(namer, &mut pairs, &fixture)?;
    }
    for (key, pair) in pairs {
        cases.push(stdin_case(namer, name, module, settings, key, pair)?);
    }
    for case in &mut cases {
        case.weight = config.weights.get(&case.name).copied().unwrap_or(1);
    }
    Ok(cases)
}

/// A fixture file, placed: the visibility its folder gives, and its name's stem and extension.
struct Fixture<'f> {
    relative: &'f str,
    bytes: &'f [u8],
    visibility: Visibility,
    stem: &'f str,
    ext: &'f str,
}

impl<'f> Fixture<'f> {
    /// Places `relative` (`rest` below the exercise's fixtures folder): in `sample/` or
    /// `secret/`, under a valid name with an extension.
    fn place(
        namer: &Namer,
        relative: &'f str,
        rest: &'f str,
        bytes: &'f [u8],
    ) -> Result<Fixture<'f>, LabError> {
        let (folder, file) = rest.split_once('/').unwrap_or(("", rest));
        let visibility = match folder {
            "sample" => Visibility::Sample,
            "secret" => Visibility::Secret,
            _ => {
                return Err(LabError::invalid(
                    namer.name(relative),
                    "fixtures go in a `sample/` or `secret/` folder",
                ));
            }
        };
        let Some((stem, ext)) = file.rsplit_once('.') else {
            return Err(LabError::invalid(
                namer.name(relative),
                "a fixture file ends in .in or .out",
            ));
        };
        if file.contains('/') || !is_valid_name(stem) {
            return Err(LabError::invalid(
                namer.name(relative),
                "fixture names use lowercase letters, digits, `_` and `-` only (like 03-empty-row.in)",
            ));
        }
        Ok(Fixture {
            relative,
            bytes,
            visibility,
            stem,
            ext,
        })
    }
}

/// The case of a game's scenario: one .toml file, read by the exercise's judge.
fn scenario_case(
    namer: &Namer,
    fixture: &Fixture,
    interactive: &dyn Interactive,
    settings: &Settings,
) -> Result<Case, LabError> {
    let relative = fixture.relative;
    if fixture.ext != "toml" {
        return Err(LabError::invalid(
            namer.name(relative),
            "this exercise is judged by playing games: its fixtures are .toml scenarios",
        ));
    }
    let text = text(namer, relative, fixture.bytes)?;
    let parsed = interactive
        .scenario(&text, settings)
        .map_err(|problem: BadInput| LabError::invalid(namer.name(relative), problem.0))?;
    Ok(Case {
        name: format!("{}/{}", fixture.visibility.folder(), fixture.stem),
        visibility: fixture.visibility,
        input: CaseInput::Scenario { text, parsed },
        expected: String::new(),
        stored_expected: String::new(),
        weight: 1,
    })
}

/// Files a fixture as its case's .in or .out.
fn pair_up<'f>(
    namer: &Namer,
    pairs: &mut BTreeMap<(Visibility, String), Pair<'f>>,
    fixture: &Fixture<'f>,
) -> Result<(), LabError> {
    let slot = pairs
        .entry((fixture.visibility, fixture.stem.to_string()))
        .or_default();
    match fixture.ext {
        "in" => slot.0 = Some((fixture.relative, fixture.bytes)),
        "out" => slot.1 = Some((fixture.relative, fixture.bytes)),
        _ => {
            return Err(LabError::invalid(
                namer.name(fixture.relative),
                "a fixture file ends in .in or .out",
            ));
        }
    }
    Ok(())
}

/// The case of a program run on stdin: its .in, and its .out adapted to the settings.
fn stdin_case(
    namer: &Namer,
    name: &str,
    module: Option<&'static dyn Exercise>,
    settings: &Settings,
    (visibility, stem): (Visibility, String),
    pair: Pair,
) -> Result<Case, LabError> {
    let case_name = format!("{}/{stem}", visibility.folder());
    let fixture = |ext: &str| namer.name(&format!("fixtures/{name}/{case_name}.{ext}"));
    let (input, output) = match pair {
        (Some(input), Some(output)) => (input, output),
        (Some(_), None) => {
            return Err(LabError::invalid(
                fixture("in"),
                "has no matching .out file",
            ));
        }
        (None, _) => {
            return Err(LabError::invalid(
                fixture("out"),
                "has no matching .in file",
            ));
        }
    };
    let input_text = text(namer, input.0, input.1)?;
    let stored_expected = text(namer, output.0, output.1)?;
    let expected = match module {
        Some(module) => module
            .expected(&input_text, &stored_expected, settings)
            .map_err(|e| LabError::invalid(fixture("in"), e.to_string()))?,
        None => stored_expected.clone(),
    };
    Ok(Case {
        name: case_name,
        visibility,
        input: CaseInput::Stdin(input_text),
        expected,
        stored_expected,
        weight: 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lab from `(path, text)` files, as a folder would give them.
    fn lab(files: &[(&str, &str)]) -> Result<Lab, LabError> {
        let files = files
            .iter()
            .map(|(path, text)| (path.to_string(), text.as_bytes().to_vec()))
            .collect();
        parse(
            LabOrigin::Folder(PathBuf::from("/lab")),
            files,
            exercises::all(),
        )
    }

    const PRESENT_BOARD: [(&str, &str); 5] = [
        (
            "exercises/present_board/exercise.toml",
            "title = \"Board\"\norder = 1\n",
        ),
        ("exercises/present_board/README.md", "# Board\n"),
        ("exercises/present_board/stub.py", "pass\n"),
        ("fixtures/present_board/sample/01-one.in", "1 2\n"),
        ("fixtures/present_board/sample/01-one.out", "1: *\n2: **\n"),
    ];

    fn with(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
        let mut files = PRESENT_BOARD.to_vec();
        for (path, text) in extra {
            files.retain(|(p, _)| p != path);
            files.push((path, text));
        }
        files
    }

    #[test]
    fn the_built_in_lab_has_the_nine_exercises_in_the_handouts_order_then_further_study() {
        let lab = Lab::built_in().unwrap();
        assert_eq!(
            lab.names(),
            [
                "present_board",
                "make_move",
                "exclusive_or",
                "bin_num",
                "bitwise_xor",
                "nim_sum",
                "optimal_move",
                "ui",
                "working_game",
                "misere_move",
                "misere_game"
            ]
        );
        assert!(lab.exercises.iter().all(|e| e.module.is_some()));
        // The lab's nine count in the total; further study is optional and does not.
        let optional: Vec<&str> = lab
            .exercises
            .iter()
            .filter(|e| e.config.further_study && !e.config.in_total())
            .map(|e| e.name.as_str())
            .collect();
        assert_eq!(optional, ["misere_move", "misere_game"]);
        assert!(
            lab.exercises[..9]
                .iter()
                .all(|e| !e.config.further_study && e.config.in_total())
        );
    }

    #[test]
    fn a_statements_files_are_the_folders_other_files() {
        let lab = lab(&with(&[
            ("exercises/present_board/board.png", "png"),
            ("exercises/present_board/img/notes.txt", "notes"),
            ("exercises/present_board/solution.py", "pass\n"),
            ("exercises/present_board/solution.textbook.py", "pass\n"),
            ("exercises/present_board/README.textbook.md", "# B\n"),
            ("exercises/present_board/helper.py", "pass\n"),
            ("exercises/present_board/Solutions.txt", "answers"),
            ("exercises/present_board/img/solution.png", "answers"),
            ("exercises/present_board/.secret", "hidden"),
        ]))
        .unwrap();
        let files: Vec<&str> = lab.exercises[0].files.keys().map(String::as_str).collect();
        assert_eq!(files, ["board.png", "img/notes.txt"]);
    }

    #[test]
    fn a_small_folder_loads_with_its_case() {
        let lab = lab(&PRESENT_BOARD).unwrap();
        let exercise = lab.exercise("present_board").unwrap();
        assert_eq!(exercise.cases.len(), 1);
        assert_eq!(exercise.cases[0].input.text(), "1 2\n");
        assert_eq!(exercise.judging_label(), "lines");
    }

    #[test]
    fn an_unknown_key_is_refused_naming_the_file_and_key() {
        let files = with(&[(
            "exercises/present_board/exercise.toml",
            "title = \"Board\"\norder = 1\npositons = \"lab\"\n",
        )]);
        let error = lab(&files).unwrap_err().to_string();
        assert!(
            error.contains("/lab/exercises/present_board/exercise.toml")
                && error.contains("positons"),
            "{error}"
        );
    }

    #[test]
    fn a_setting_belongs_to_the_exercise_that_reads_it() {
        // `positions` is nim_sum's: present_board does not know it.
        let files = with(&[(
            "exercises/present_board/exercise.toml",
            "title = \"Board\"\norder = 1\npositions = \"textbook\"\n",
        )]);
        assert!(lab(&files).unwrap_err().to_string().contains("positions"));
    }

    #[test]
    fn judging_named_in_the_file_must_be_the_exercises_own() {
        let files = with(&[(
            "exercises/present_board/exercise.toml",
            "title = \"Board\"\norder = 1\ncomparison = \"checker\"\n",
        )]);
        let error = lab(&files).unwrap_err().to_string();
        assert!(error.contains("needs a checker"), "{error}");
    }

    #[test]
    fn an_input_without_its_output_is_refused() {
        let mut files = PRESENT_BOARD.to_vec();
        files.retain(|(p, _)| !p.ends_with(".out"));
        let error = lab(&files).unwrap_err().to_string();
        assert!(
            error.contains("01-one") && error.contains("no matching .out"),
            "{error}"
        );
    }

    #[test]
    fn textbook_naming_swaps_nim_sums_files_and_answers() {
        let built_in = Lab::built_in().unwrap();
        let nim_sum = built_in.exercise("nim_sum").unwrap();
        let mut files: Vec<(String, String)> = vec![
            (
                "exercises/nim_sum/exercise.toml".into(),
                "title = \"Nim-sum\"\norder = 6\ncomparison = \"json\"\npositions = \"textbook\"\n"
                    .into(),
            ),
            ("exercises/nim_sum/README.md".into(), "lab naming\n".into()),
            (
                "exercises/nim_sum/README.textbook.md".into(),
                "textbook naming\n".into(),
            ),
            ("exercises/nim_sum/stub.py".into(), "pass\n".into()),
        ];
        let zero_sum = r#"{"type": "is_p_position", "input": [1, 1]}"#;
        files.push(("fixtures/nim_sum/sample/01.in".into(), zero_sum.into()));
        // Stored in the lab's naming: a nim-sum of zero is not a P-position there.
        files.push(("fixtures/nim_sum/sample/01.out".into(), "false\n".into()));
        let files: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let lab = lab(&files).unwrap();
        let exercise = lab.exercise("nim_sum").unwrap();
        assert_eq!(exercise.statement, "textbook naming\n");
        assert_eq!(exercise.cases[0].expected, "true\n");
        assert_eq!(nim_sum.reference(zero_sum).unwrap(), "false\n");
    }
}
