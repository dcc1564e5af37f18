//! CMS task folders ("italy_yaml"): a contest.yaml naming the tasks, and per task a task.yaml,
//! input/inputN.txt and output/outputN.txt, compared by CMS's white-diff unless the task has a
//! checker (check/checker) that prints an outcome from 0.0 to 1.0.
//!
//! A lab exported by nimlab also carries nimlab/exercise.toml and nimlab/cases.txt (ignored by
//! CMS), so that importing it back gives the same lab.

use super::{put, put_script, write_folder};
use crate::error::{Error, Result};
use crate::exercises::Comparison;
use crate::exercises::Judging;
use crate::fsutil::{read_inside, resolve_inside};
use crate::lab::{Lab, LabExercise, Visibility};
use serde_norway::Value;
use std::path::{Path, PathBuf};

/// Refuses the import: what is wrong with `file`, a file or folder of the source (the user's
/// input), as `format!` words it.
macro_rules! refuse {
    ($file:expr, $($problem:tt)+) => {
        return Err(Error::input($file, format!($($problem)+)))
    };
}

/// What an import did, for the user.
#[derive(Debug, Default)]
pub struct ImportSummary {
    pub exercises: Vec<String>,
    pub cases: usize,
    /// Files in the task folders that nimlab has no use for.
    pub not_imported: Vec<String>,
    /// Statements, stubs or solutions taken from the built-in lab.
    pub from_built_in: Vec<String>,
}

/// The most test cases one task may have: far more than a lab needs, few enough to hold.
const MAX_CASES: u64 = 10_000;
/// The largest file nimlab reads from a task folder (a case, a statement, a program).
const MAX_FILE: u64 = 16 * 1024 * 1024;
/// The largest YAML file nimlab reads.
const MAX_YAML: u64 = 1024 * 1024;
/// The longest time limit (seconds) and memory limit (MiB) an imported task may ask for.
const MAX_SECONDS: f64 = 3_600.0;
const MAX_MEBIBYTES: f64 = 1_048_576.0;

/// The folder being imported: every file is read through it, so none is read from outside
/// it (through `..` or a symbolic link), and only regular files of bounded size are read.
struct Source {
    /// The folder, with every symbolic link resolved.
    root: PathBuf,
}

impl Source {
    fn new(src: &Path) -> Result<Source> {
        if !src.is_dir() {
            refuse!(src, "no such folder");
        }
        let root = src
            .canonicalize()
            .map_err(|e| Error::input(src, format!("cannot read the folder: {e}")))?;
        Ok(Source { root })
    }

    fn bytes(&self, path: &Path, cap: u64) -> Result<Vec<u8>> {
        read_inside(&self.root, path, cap)
    }

    fn text(&self, path: &Path) -> Result<String> {
        String::from_utf8(self.bytes(path, MAX_FILE)?)
            .map_err(|_| Error::input(path, "is not UTF-8 text"))
    }

    fn yaml(&self, path: &Path) -> Result<serde_norway::Mapping> {
        let bytes = self.bytes(path, MAX_YAML)?;
        let text = String::from_utf8(bytes).map_err(|_| Error::input(path, "is not UTF-8 text"))?;
        match serde_norway::from_str::<Value>(&text) {
            Ok(Value::Mapping(map)) => Ok(map),
            Ok(_) => refuse!(path, "expected a YAML mapping of keys to values"),
            Err(e) => refuse!(path, "malformed YAML: {e}"),
        }
    }

    /// Whether `path` is something in the folder (a link leading out of it is an error).
    fn exists(&self, path: &Path) -> Result<bool> {
        if std::fs::symlink_metadata(path).is_err() {
            return Ok(false);
        }
        resolve_inside(&self.root, path).map(|_| true)
    }

    /// A folder inside the source folder, or an error naming `path`.
    fn folder(&self, path: &Path, missing: &str) -> Result<PathBuf> {
        if std::fs::symlink_metadata(path).is_err() {
            refuse!(path, "{missing}");
        }
        let resolved = resolve_inside(&self.root, path)?;
        if !resolved.is_dir() {
            refuse!(path, "is not a folder");
        }
        Ok(resolved)
    }

    /// The names of the entries of a folder inside the source folder, sorted.
    fn entries(&self, dir: &Path) -> Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(dir)
            .map_err(|e| Error::input(dir, format!("cannot read the folder: {e}")))?
        {
            let entry = entry.map_err(|e| Error::input(dir, format!("cannot read: {e}")))?;
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
        names.sort();
        Ok(names)
    }
}

fn field<'a>(map: &'a serde_norway::Mapping, key: &str) -> Option<&'a Value> {
    map.get(Value::String(key.into()))
}

/// Whether `name` can name an exercise (and so a folder): lowercase letters, digits, `_`, `-`.
fn is_exercise_name(name: &str) -> bool {
    name != "-" && crate::lab::is_valid_name(name)
}

/// Whether `stem` can name a fixture file as the lab loader wants it: lowercase letters,
/// digits, `_` and `-` (so never `..`, a hidden file or a path).
fn is_case_stem(stem: &str) -> bool {
    stem.len() <= 200 && crate::lab::is_valid_name(stem)
}

/// The task's test case numbers that are public: "0, 1, 2", "all", a number or a list.
fn public_cases(value: Option<&Value>, count: usize, file: &Path) -> Result<Vec<bool>> {
    let mut public = vec![false; count];
    let mut mark = |index: i64| -> Result<()> {
        match usize::try_from(index).ok().filter(|&i| i < count) {
            Some(i) => {
                public[i] = true;
                Ok(())
            }
            None => refuse!(
                file,
                "public_testcases names case {index}, but n_input is {count}"
            ),
        }
    };
    match value {
        None | Some(Value::Null) => {}
        Some(Value::Number(n)) => mark(n.as_i64().unwrap_or(-1))?,
        Some(Value::Sequence(items)) => {
            for item in items {
                mark(
                    item.as_i64()
                        .ok_or_else(|| Error::input(file, "public_testcases holds a non-number"))?,
                )?;
            }
        }
        Some(Value::String(text)) if text.trim() == "all" => {
            public.iter_mut().for_each(|p| *p = true)
        }
        Some(Value::String(text)) => {
            for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                let index = word.parse().map_err(|e| {
                    Error::input(
                        file,
                        format!("public_testcases: `{word}` is not a test case number: {e}"),
                    )
                })?;
                mark(index)?;
            }
        }
        Some(other) => refuse!(
            file,
            "public_testcases must list case numbers, not {other:?}"
        ),
    }
    Ok(public)
}

/// One test case as nimlab will store it.
struct ImportedCase {
    visibility: Visibility,
    stem: String,
    input: String,
    output: String,
}

struct ImportedTask {
    name: String,
    config: String,
    statement: String,
    stub: String,
    solution: Option<String>,
    /// In CMS order.
    cases: Vec<ImportedCase>,
}

/// What task.yaml says, checked.
struct TaskYaml {
    name: String,
    title: String,
    count: usize,
    time_limit: Option<f64>,
    memory_limit: Option<f64>,
    public: Vec<bool>,
}

/// A TOML string literal.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// The task's name: task.yaml's `name`, which must be its folder's name and an exercise name.
fn task_name(task: &serde_norway::Mapping, dir: &Path, file: &Path) -> Result<String> {
    // `.` or `..` has its name only once resolved.
    let folder_name = dir
        .canonicalize()
        .unwrap_or_else(|_| dir.to_path_buf())
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match field(task, "name") {
        Some(Value::String(name)) => name.clone(),
        None => folder_name.clone(),
        Some(other) => refuse!(file, "`name` must be a string, not {other:?}"),
    };
    if name != folder_name {
        refuse!(
            file,
            "the task is named `{name}` but its folder is `{folder_name}`"
        );
    }
    if !is_exercise_name(&name) {
        refuse!(
            file,
            "task name `{name}` must use lowercase letters, digits, `_` and `-` to become an exercise"
        );
    }
    Ok(name)
}

/// `n_input`: a whole number of cases from 1 to [`MAX_CASES`].
fn case_count(task: &serde_norway::Mapping, file: &Path) -> Result<usize> {
    let value = field(task, "n_input")
        .ok_or_else(|| Error::input(file, "`n_input` (the number of test cases) is missing"))?;
    let count = value.as_u64().ok_or_else(|| {
        Error::input(
            file,
            format!(
                "`n_input` (the number of test cases) must be a whole number, not {}",
                yaml_text(value)
            ),
        )
    })?;
    if count == 0 {
        refuse!(file, "n_input is 0: the task has no test cases");
    }
    if count > MAX_CASES {
        refuse!(
            file,
            "n_input is {count}: nimlab imports at most {MAX_CASES} test cases per task"
        );
    }
    Ok(count as usize)
}

/// A YAML value as the user wrote it, short.
fn yaml_text(value: &Value) -> String {
    let text = serde_norway::to_string(value).unwrap_or_default();
    let text = text.trim();
    match text.char_indices().nth(60) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// An optional limit: a positive number no larger than `max`.
fn limit(task: &serde_norway::Mapping, key: &str, max: f64, file: &Path) -> Result<Option<f64>> {
    match field(task, key) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => match value.as_f64() {
            Some(n) if n > 0.0 && n <= max => Ok(Some(n)),
            _ => refuse!(
                file,
                "`{key}` must be a number above 0 and at most {max}, not {}",
                yaml_text(value)
            ),
        },
    }
}

fn read_task_yaml(source: &Source, dir: &Path) -> Result<TaskYaml> {
    let file = dir.join("task.yaml");
    if !source.exists(&file)? {
        refuse!(dir, "the task folder has no task.yaml");
    }
    let task = source.yaml(&file)?;
    let name = task_name(&task, dir, &file)?;
    let title = match field(&task, "title") {
        Some(Value::String(title)) => title.clone(),
        _ => name.clone(),
    };
    let count = case_count(&task, &file)?;
    for key in ["infile", "outfile"] {
        if let Some(Value::String(name)) = field(&task, key)
            && !name.is_empty()
        {
            refuse!(
                file,
                "{key} is `{name}`: the task uses files, but nimlab exercises use stdin and stdout"
            );
        }
    }
    let time_limit = limit(&task, "time_limit", MAX_SECONDS, &file)?;
    let memory_limit = limit(&task, "memory_limit", MAX_MEBIBYTES, &file)?;
    let public = public_cases(field(&task, "public_testcases"), count, &file)?;
    Ok(TaskYaml {
        name,
        title,
        count,
        time_limit,
        memory_limit,
        public,
    })
}

/// Every file in input/ and output/ must be one of the n_input cases.
fn check_case_files(source: &Source, dir: &Path, count: usize) -> Result<()> {
    for folder in ["input", "output"] {
        let path = dir.join(folder);
        let resolved = source.folder(&path, &format!("the task has no {folder}/ folder"))?;
        for file_name in source.entries(&resolved)? {
            let index = file_name
                .strip_prefix(folder)
                .and_then(|rest| rest.strip_suffix(".txt"))
                .and_then(|n| n.parse::<usize>().ok());
            match index {
                Some(i) if i < count => {}
                Some(_) => refuse!(
                    path.join(&file_name),
                    "task.yaml says n_input is {count}, so the cases are {folder}0.txt to {folder}{}.txt",
                    count - 1
                ),
                None => refuse!(
                    path.join(&file_name),
                    "not a test case file (expected {folder}N.txt)"
                ),
            }
        }
    }
    Ok(())
}

/// nimlab/cases.txt of a task exported by nimlab: each case's `sample/NAME` or `secret/NAME`.
fn exported_case_names(
    source: &Source,
    dir: &Path,
    count: usize,
) -> Result<Option<Vec<(Visibility, String)>>> {
    let file = dir.join("nimlab/cases.txt");
    if !source.exists(&file)? {
        return Ok(None);
    }
    let text = source.text(&file)?;
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() != count {
        refuse!(file, "lists {} cases, but n_input is {count}", lines.len());
    }
    let mut names = Vec::with_capacity(count);
    let mut seen = std::collections::HashSet::new();
    for (number, line) in lines.iter().enumerate() {
        let visibility = match line.split_once('/') {
            Some(("sample", _)) => Visibility::Sample,
            Some(("secret", _)) => Visibility::Secret,
            _ => refuse!(
                file,
                "line {}: `{}` is not a case name (sample/NAME or secret/NAME)",
                number + 1,
                line.escape_debug()
            ),
        };
        let stem = &line[visibility.folder().len() + 1..];
        if !is_case_stem(stem) {
            refuse!(
                file,
                "line {}: `{}` is not a case name: NAME uses lowercase letters, digits, `_` and `-`",
                number + 1,
                line.escape_debug()
            );
        }
        if !seen.insert(*line) {
            refuse!(file, "line {}: `{line}` is listed twice", number + 1);
        }
        names.push((visibility, stem.to_string()));
    }
    Ok(Some(names))
}

/// The task's cases: input/inputN.txt and output/outputN.txt, named as nimlab exported
/// them or by number (public ones become samples).
fn read_cases(source: &Source, dir: &Path, task: &TaskYaml) -> Result<Vec<ImportedCase>> {
    let count = task.count;
    let names = exported_case_names(source, dir, count)?;
    let width = (count - 1).to_string().len().max(2);
    let mut cases = Vec::with_capacity(count);
    for (i, &is_public) in task.public.iter().enumerate() {
        let input_path = dir.join(format!("input/input{i}.txt"));
        let output_path = dir.join(format!("output/output{i}.txt"));
        if !source.exists(&input_path)? {
            refuse!(input_path, "is missing (n_input is {count})");
        }
        if !source.exists(&output_path)? {
            refuse!(
                output_path,
                "is missing: every input needs its expected output"
            );
        }
        let (visibility, stem) = match &names {
            Some(names) => names[i].clone(),
            None if is_public => (Visibility::Sample, format!("{i:0width$}")),
            None => (Visibility::Secret, format!("{i:0width$}")),
        };
        cases.push(ImportedCase {
            visibility,
            stem,
            input: source.text(&input_path)?,
            output: source.text(&output_path)?,
        });
    }
    Ok(cases)
}

/// The exercise.toml: the one nimlab exported, or one made from task.yaml.
fn exercise_config(
    source: &Source,
    dir: &Path,
    task: &TaskYaml,
    order: usize,
    cases: &[ImportedCase],
    known: Option<&LabExercise>,
) -> Result<String> {
    let exported = dir.join("nimlab/exercise.toml");
    if source.exists(&exported)? {
        let text = source.text(&exported)?;
        if let Err(why) = crate::lab::config::ExerciseConfig::parse(&text) {
            refuse!(exported, "{why}");
        }
        return Ok(text);
    }
    // Only whether there is one: a checker is never read, so it may lead anywhere.
    let has_checker = ["check/checker", "cor/correttore"]
        .iter()
        .any(|checker| std::fs::symlink_metadata(dir.join(checker)).is_ok());
    let comparison = match (has_checker, known) {
        (false, _) => "lines",
        (true, Some(exercise)) => exercise.judging_label(),
        (true, None) => refuse!(
            dir,
            "the task has its own checker, which nimlab cannot run; only tasks compared by white-diff, or exported by nimlab, can be imported"
        ),
    };
    let cpu_ms = task
        .time_limit
        .map_or(2_000, |s| (s * 1000.0).round().max(1.0) as u64);
    // Room for twice the largest expected output: CMS had no output limit to copy.
    let largest = cases
        .iter()
        .map(|c| c.output.len() as u64)
        .max()
        .unwrap_or(0);
    let output_kb = (largest * 2 / 1024).max(1024);
    let memory = task.memory_limit.map_or(256, |m| m.round().max(1.0) as u64);
    Ok(format!(
        "# Imported from the CMS task `{name}`.\ntitle = {title}\norder = {order}\ncomparison = \"{comparison}\"\n\n[limits]\ncpu_ms = {cpu_ms}\nwall_ms = {wall_ms}\n# CMS's limit was {memory} MB of memory; nimlab limits address space, which Python needs more of.\nmemory_mb = {memory_mb}\noutput_kb = {output_kb}\n",
        name = task.name,
        title = toml_string(&task.title),
        wall_ms = (cpu_ms * 3).max(cpu_ms + 2_000),
        memory_mb = memory.max(256),
    ))
}

/// The first `.py` file of a folder of the task (`preferred` if it is there).
fn first_python_file(source: &Source, dir: &Path, preferred: &str) -> Result<Option<PathBuf>> {
    if !source.exists(dir)? {
        return Ok(None);
    }
    let resolved = source.folder(dir, "is missing")?;
    let names = source.entries(&resolved)?;
    let pick = names
        .iter()
        .find(|n| *n == preferred)
        .or_else(|| names.iter().find(|n| n.ends_with(".py")));
    Ok(pick.map(|name| dir.join(name)))
}

/// The statement, the starter file and the model solution: the task's own, else the
/// built-in exercise's of the same name, else a plain one.
fn task_texts(
    source: &Source,
    dir: &Path,
    task: &TaskYaml,
    known: Option<&LabExercise>,
    summary: &mut ImportSummary,
) -> Result<(String, String, Option<String>)> {
    let (name, title) = (&task.name, &task.title);
    let mut from_built_in = |what: &str| summary.from_built_in.push(format!("{name}: {what}"));
    let mut statement_file = None;
    for candidate in ["statement/statement.md", "statement.md"] {
        let path = dir.join(candidate);
        if statement_file.is_none() && source.exists(&path)? {
            statement_file = Some(path);
        }
    }
    let statement = match (statement_file, known) {
        (Some(path), _) => source.text(&path)?,
        (None, Some(exercise)) => {
            from_built_in("statement");
            exercise.statement.clone()
        }
        (None, None) => format!(
            "# {title}\n\nImported from a CMS task whose folder held no statement in Markdown.\n\nRead one test case from standard input and print the answer to standard output.\n"
        ),
    };
    let stub = match (
        first_python_file(source, &dir.join("att"), &format!("{name}.py"))?,
        known,
    ) {
        (Some(path), _) => source.text(&path)?,
        (None, Some(exercise)) => {
            from_built_in("starter file");
            exercise.stub.clone()
        }
        (None, None) => format!(
            "# -*- coding: utf-8 -*-\n\"\"\"{name}: read one test case from standard input and print the answer.\"\"\"\nfrom __future__ import print_function, division\n\nimport sys\n\n\ndef solve(text):\n    # Your code here.\n    return \"\"\n\n\nif __name__ == \"__main__\":\n    print(solve(sys.stdin.read()))\n"
        ),
    };
    let solution = match first_python_file(source, &dir.join("sol"), &format!("{name}.py"))? {
        Some(path) => Some(source.text(&path)?),
        None => known.and_then(|exercise| {
            let solution = exercise.solution.clone();
            if solution.is_some() {
                from_built_in("model solution");
            }
            solution
        }),
    };
    Ok((statement, stub, solution))
}

/// Entries of the task folder that nimlab does not use, for the summary.
fn list_unused(source: &Source, dir: &Path, summary: &mut ImportSummary) -> Result<()> {
    const USED: [&str; 10] = [
        "task.yaml",
        "input",
        "output",
        "statement",
        "statement.md",
        "att",
        "sol",
        "check",
        "cor",
        "nimlab",
    ];
    for name in source.entries(dir)? {
        if !USED.contains(&name.as_str()) {
            summary
                .not_imported
                .push(dir.join(name).display().to_string());
        }
    }
    Ok(())
}

fn import_task(
    source: &Source,
    dir: &Path,
    order: usize,
    built_in: &Lab,
    summary: &mut ImportSummary,
) -> Result<ImportedTask> {
    let task = read_task_yaml(source, dir)?;
    check_case_files(source, dir, task.count)?;
    let cases = read_cases(source, dir, &task)?;
    let known = built_in.exercise(&task.name).ok();
    let config = exercise_config(source, dir, &task, order, &cases, known)?;
    let (statement, stub, solution) = task_texts(source, dir, &task, known, summary)?;
    list_unused(source, dir, summary)?;
    summary.cases += cases.len();
    Ok(ImportedTask {
        name: task.name,
        config,
        statement,
        stub,
        solution,
        cases,
    })
}

/// The task folders to import: contest.yaml's tasks, or the folder itself when it is a task.
fn task_folders(source: &Source, src: &Path) -> Result<Vec<PathBuf>> {
    let contest_file = src.join("contest.yaml");
    if source.exists(&contest_file)? {
        let contest = source.yaml(&contest_file)?;
        let tasks = field(&contest, "tasks")
            .and_then(Value::as_sequence)
            .ok_or_else(|| {
                Error::input(&contest_file, "`tasks` (the list of task names) is missing")
            })?;
        let mut dirs: Vec<PathBuf> = Vec::with_capacity(tasks.len());
        for task in tasks {
            let task = task
                .as_str()
                .ok_or_else(|| Error::input(&contest_file, "a task name is not a string"))?;
            if !is_exercise_name(task) {
                refuse!(
                    contest_file,
                    "names task `{}`, which is not a task folder name (lowercase letters, digits, `_` and `-`)",
                    task.escape_debug()
                );
            }
            let dir = src.join(task);
            if dirs.contains(&dir) {
                refuse!(contest_file, "names task `{task}` twice");
            }
            if !source.exists(&dir)? || !dir.is_dir() {
                refuse!(
                    contest_file,
                    "names task `{task}`, but there is no folder {}",
                    dir.display()
                );
            }
            dirs.push(dir);
        }
        Ok(dirs)
    } else if source.exists(&src.join("task.yaml"))? {
        Ok(vec![src.to_path_buf()])
    } else {
        refuse!(
            src,
            "neither a CMS contest (contest.yaml) nor a task folder (task.yaml)"
        );
    }
}

/// Writes the imported tasks as a lab below `root` (a staging folder).
fn write_lab(root: &Path, src: &Path, out: &Path, tasks: &[ImportedTask]) -> Result<()> {
    for task in tasks {
        let base = format!("exercises/{}", task.name);
        put(
            root,
            &format!("{base}/exercise.toml"),
            task.config.as_bytes(),
        )?;
        put(
            root,
            &format!("{base}/README.md"),
            task.statement.as_bytes(),
        )?;
        put(root, &format!("{base}/stub.py"), task.stub.as_bytes())?;
        if let Some(solution) = &task.solution {
            put(root, &format!("{base}/solution.py"), solution.as_bytes())?;
        }
        for case in &task.cases {
            let fixture = format!(
                "fixtures/{}/{}/{}",
                task.name,
                case.visibility.folder(),
                case.stem
            );
            put(root, &format!("{fixture}.in"), case.input.as_bytes())?;
            put(root, &format!("{fixture}.out"), case.output.as_bytes())?;
        }
    }
    // The result must load as a lab, or nothing is written. The staging folder is gone by
    // the time the user reads the error: it names the lab's own place.
    if let Err(error) = Lab::from_folder(root) {
        let message = error
            .to_string()
            .replace(&root.display().to_string(), &out.display().to_string());
        refuse!(src, "the imported lab would not load: {message}");
    }
    Ok(())
}

/// Imports a CMS contest folder (contest.yaml) or a single task folder (task.yaml) as a nimlab
/// lab folder at `out`. Every file is read from inside `src`; the lab is built in a staging
/// folder beside `out` and moved into place only when it is whole, so a refused import
/// writes nothing.
pub fn import(src: &Path, out: &Path) -> Result<ImportSummary> {
    let built_in = Lab::built_in()?;
    let source = Source::new(src)?;
    let mut summary = ImportSummary::default();
    let mut tasks = Vec::new();
    for (i, dir) in task_folders(&source, src)?.iter().enumerate() {
        tasks.push(import_task(&source, dir, i + 1, &built_in, &mut summary)?);
    }
    write_folder(out, |root| write_lab(root, src, out, &tasks))?;
    summary.exercises = tasks.into_iter().map(|t| t.name).collect();
    Ok(summary)
}

/// How CMS compares outputs for this exercise: its own white-diff only where that is nimlab's
/// comparison too; otherwise nimlab is the checker.
fn needs_checker(exercise: &LabExercise) -> bool {
    !matches!(exercise.judging(), Judging::Expected(Comparison::Lines))
}

/// Exports the lab as a CMS contest folder; returns the exercises left out (interactive ones).
pub fn export(lab: &Lab, out: &Path) -> Result<Vec<String>> {
    let (exported, skipped): (Vec<&LabExercise>, Vec<&LabExercise>) = lab
        .exercises
        .iter()
        .partition(|e| !matches!(e.judging(), Judging::Interactive(_)));
    write_folder(out, |root| {
        let mut contest = String::from(
            "name: \"nimlab\"\ndescription: \"The game of Nim, exported by nimlab\"\ntasks:\n",
        );
        for exercise in &exported {
            contest.push_str(&format!("  - \"{}\"\n", exercise.name));
        }
        contest.push_str("token_mode: disabled\nusers: []\n");
        put(root, "contest.yaml", contest.as_bytes())?;
        for exercise in &exported {
            export_task(exercise, root)?;
        }
        Ok(())
    })?;
    Ok(skipped.into_iter().map(|e| e.name.clone()).collect())
}

fn export_task(exercise: &LabExercise, root: &Path) -> Result<()> {
    let name = &exercise.name;
    let limits = &exercise.config.limits;
    // Samples first: CMS's public test cases are named by number.
    let mut cases: Vec<_> = exercise.cases.iter().collect();
    cases.sort_by_key(|c| c.visibility);
    let public: Vec<String> = cases
        .iter()
        .enumerate()
        .filter(|(_, c)| c.visibility == Visibility::Sample)
        .map(|(i, _)| i.to_string())
        .collect();
    let task = format!(
        "name: \"{name}\"\ntitle: {}\ntime_limit: {}\nmemory_limit: {}\nn_input: {}\npublic_testcases: \"{}\"\ninfile: \"\"\noutfile: \"\"\ntoken_mode: disabled\n",
        serde_json::to_string(&exercise.config.title).expect("a string serializes"),
        limits.cpu_ms as f64 / 1000.0,
        limits.memory_mb,
        cases.len(),
        public.join(", ")
    );
    put(root, &format!("{name}/task.yaml"), task.as_bytes())?;
    for (i, case) in cases.iter().enumerate() {
        put(
            root,
            &format!("{name}/input/input{i}.txt"),
            case.input.text().as_bytes(),
        )?;
        put(
            root,
            &format!("{name}/output/output{i}.txt"),
            case.expected.as_bytes(),
        )?;
    }
    // The statement's images and handouts beside it, where its relative links find them.
    for (file, bytes) in &exercise.files {
        put(root, &format!("{name}/statement/{file}"), bytes)?;
    }
    put(
        root,
        &format!("{name}/statement/statement.md"),
        exercise.statement.as_bytes(),
    )?;
    put(
        root,
        &format!("{name}/att/{name}.py"),
        exercise.stub.as_bytes(),
    )?;
    if let Some(solution) = &exercise.solution {
        put(root, &format!("{name}/sol/{name}.py"), solution.as_bytes())?;
    }
    if needs_checker(exercise) {
        // CMS runs `checker INPUT ANSWER OUTPUT`; nimlab must be installed on the workers.
        put_script(
            root,
            &format!("{name}/check/checker"),
            &format!("exec nimlab checker {name} --cms \"$1\" \"$2\" \"$3\"\n"),
        )?;
    }
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    put(
        root,
        &format!("{name}/nimlab/cases.txt"),
        format!("{}\n", names.join("\n")).as_bytes(),
    )?;
    let config = render_config(exercise)?;
    put(
        root,
        &format!("{name}/nimlab/exercise.toml"),
        config.as_bytes(),
    )?;
    Ok(())
}

/// The exercise's settings as an exercise.toml (what was loaded, written back).
pub(crate) fn render_config(exercise: &LabExercise) -> Result<String> {
    let c = &exercise.config;
    let mut out = format!(
        "title = {}\norder = {}\npoints = {}\ninterpreters = {}\ncomparison = {}\n",
        toml_string(&c.title),
        c.order,
        c.points,
        toml::Value::Array(
            c.interpreters
                .iter()
                .map(|i| toml::Value::String(i.clone()))
                .collect()
        ),
        toml_string(exercise.judging_label()),
    );
    // Further study, and whether it counts in the total, only where they differ from the
    // default.
    if c.further_study {
        out.push_str("further_study = true\n");
    }
    if c.in_total() == c.further_study {
        out.push_str(&format!("in_total = {}\n", c.in_total()));
    }
    // The exercise's own settings (nim_sum's `positions`), as they were given.
    if !c.exercise_keys.is_empty() {
        out.push_str(&toml::to_string(&c.exercise_keys).map_err(|e| {
            Error::fault(format!(
                "{}: cannot write the exercise's settings: {e}",
                exercise.name
            ))
        })?);
    }
    out.push_str(&format!(
        "\n[limits]\ncpu_ms = {}\nwall_ms = {}\nmemory_mb = {}\noutput_kb = {}\n",
        c.limits.cpu_ms, c.limits.wall_ms, c.limits.memory_mb, c.limits.output_kb
    ));
    if !c.weights.is_empty() {
        out.push_str("\n[weights]\n");
        for (case, weight) in &c.weights {
            out.push_str(&format!("{} = {weight}\n", toml_string(case)));
        }
    }
    for rule in &c.forbidden {
        let kind = match rule.kind {
            crate::lab::config::ForbiddenKind::Operator => "operator",
            crate::lab::config::ForbiddenKind::Call => "call",
            crate::lab::config::ForbiddenKind::Name => "name",
        };
        out.push_str(&format!(
            "\n[[forbidden]]\nkind = \"{kind}\"\ntoken = {}\nmessage = {}\nfail = {}\n",
            toml_string(&rule.token),
            toml_string(&rule.message),
            rule.fail
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> serde_norway::Mapping {
        serde_norway::from_str(text).unwrap()
    }

    #[test]
    fn names_that_could_leave_the_lab_are_refused() {
        for bad in ["", "..", "-", "a/b", "/tmp", ".hidden", "Upper", "a b"] {
            assert!(!is_exercise_name(bad), "{bad:?}");
        }
        assert!(is_exercise_name("present_board"));
        assert!(is_case_stem("01-handout-board"));
        assert!(!is_case_stem(&"x".repeat(201)));
    }

    #[test]
    fn case_counts_are_bounded_and_named_in_the_error() {
        let file = Path::new("task/task.yaml");
        assert_eq!(case_count(&yaml("n_input: 12"), file).unwrap(), 12);
        for (text, says) in [
            ("n_input: 18446744073709551615", "at most"),
            ("n_input: 100000000000", "at most"),
            ("n_input: 0", "no test cases"),
            ("n_input: many", "whole number"),
            ("title: x", "missing"),
        ] {
            let error = case_count(&yaml(text), file).unwrap_err().to_string();
            assert!(
                error.starts_with("task/task.yaml: ") && error.contains(says),
                "{error}"
            );
        }
    }

    #[test]
    fn limits_must_be_sensible_numbers() {
        let file = Path::new("t.yaml");
        assert_eq!(
            limit(&yaml("time_limit: 1.5"), "time_limit", 60.0, file).unwrap(),
            Some(1.5)
        );
        assert_eq!(limit(&yaml("{}"), "time_limit", 60.0, file).unwrap(), None);
        for bad in [
            "time_limit: -1",
            "time_limit: .inf",
            "time_limit: .nan",
            "time_limit: 1e300",
        ] {
            assert!(
                limit(&yaml(bad), "time_limit", 60.0, file).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn an_exported_config_keeps_the_exercises_own_settings() {
        let lab = crate::lab::Lab::built_in().unwrap();
        let nim_sum = lab.exercise("nim_sum").unwrap();
        let rendered = render_config(nim_sum).unwrap();
        let config = crate::lab::config::ExerciseConfig::parse(&rendered).unwrap();
        assert_eq!(
            config
                .exercise_keys
                .get("positions")
                .and_then(|v| v.as_str()),
            Some("lab")
        );
        let optimal = render_config(lab.exercise("optimal_move").unwrap()).unwrap();
        assert!(optimal.contains("comparison = \"checker\""), "{optimal}");
    }
}
