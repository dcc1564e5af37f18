//! CMS task folders ("italy_yaml"): a contest.yaml naming the tasks, and per task a task.yaml,
//! input/inputN.txt and output/outputN.txt, compared by CMS's white-diff unless the task has a
//! checker (check/checker) that prints an outcome from 0.0 to 1.0.
//!
//! A lab exported by nimlab also carries nimlab/exercise.toml and nimlab/cases.txt (ignored by
//! CMS), so that importing it back gives the same lab.

use super::{put, put_script, write_folder};
use crate::exercises::Judging;
use crate::lab::config::Comparison;
use crate::lab::{Lab, LabExercise, Visibility};
use anyhow::{Context, Result, bail};
use serde_norway::Value;
use std::path::{Path, PathBuf};

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

fn read_yaml(path: &Path) -> Result<serde_norway::Mapping> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read", path.display()))?;
    match serde_norway::from_str::<Value>(&text) {
        Ok(Value::Mapping(map)) => Ok(map),
        Ok(_) => bail!(
            "{}: expected a YAML mapping of keys to values",
            path.display()
        ),
        Err(e) => bail!("{}: malformed YAML: {e}", path.display()),
    }
}

fn field<'a>(map: &'a serde_norway::Mapping, key: &str) -> Option<&'a Value> {
    map.get(Value::String(key.into()))
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
            None => bail!(
                "{}: public_testcases names case {index}, but n_input is {count}",
                file.display()
            ),
        }
    };
    match value {
        None | Some(Value::Null) => {}
        Some(Value::Number(n)) => mark(n.as_i64().unwrap_or(-1))?,
        Some(Value::Sequence(items)) => {
            for item in items {
                mark(item.as_i64().with_context(|| {
                    format!("{}: public_testcases holds a non-number", file.display())
                })?)?;
            }
        }
        Some(Value::String(text)) if text.trim() == "all" => {
            public.iter_mut().for_each(|p| *p = true)
        }
        Some(Value::String(text)) => {
            for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                let index = word.parse().with_context(|| {
                    format!(
                        "{}: public_testcases: `{word}` is not a test case number",
                        file.display()
                    )
                })?;
                mark(index)?;
            }
        }
        Some(other) => bail!(
            "{}: public_testcases must list case numbers, not {other:?}",
            file.display()
        ),
    }
    Ok(public)
}

struct ImportedTask {
    name: String,
    config: String,
    statement: String,
    stub: String,
    solution: Option<String>,
    /// (visibility, stem, input, output) in CMS order.
    cases: Vec<(Visibility, String, String, String)>,
}

fn text_file(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))?;
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{}: is not UTF-8 text", path.display()))
}

fn first_python_file(dir: &Path, preferred: &str) -> Option<PathBuf> {
    let preferred = dir.join(preferred);
    if preferred.is_file() {
        return Some(preferred);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    files.sort();
    files.into_iter().next()
}

/// A TOML string literal.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

fn import_task(
    dir: &Path,
    order: usize,
    built_in: &Lab,
    summary: &mut ImportSummary,
) -> Result<ImportedTask> {
    let file = dir.join("task.yaml");
    if !file.is_file() {
        bail!("{}: the task folder has no task.yaml", dir.display());
    }
    let task = read_yaml(&file)?;
    let folder_name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match field(&task, "name") {
        Some(Value::String(name)) => name.clone(),
        None => folder_name.clone(),
        Some(other) => bail!("{}: `name` must be a string, not {other:?}", file.display()),
    };
    if name != folder_name {
        bail!(
            "{}: the task is named `{name}` but its folder is `{folder_name}`",
            file.display()
        );
    }
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
    if !valid {
        bail!(
            "{}: task name `{name}` must use lowercase letters, digits, `_` and `-` to become an exercise",
            file.display()
        );
    }
    let title = match field(&task, "title") {
        Some(Value::String(title)) => title.clone(),
        _ => name.clone(),
    };
    let count = field(&task, "n_input")
        .and_then(Value::as_u64)
        .with_context(|| {
            format!(
                "{}: `n_input` (the number of test cases) is missing or not a number",
                file.display()
            )
        })? as usize;
    if count == 0 {
        bail!(
            "{}: n_input is 0: the task has no test cases",
            file.display()
        );
    }
    for key in ["infile", "outfile"] {
        if let Some(Value::String(name)) = field(&task, key)
            && !name.is_empty()
        {
            bail!(
                "{}: {key} is `{name}`: the task uses files, but nimlab exercises use stdin and stdout",
                file.display()
            );
        }
    }
    let number = |key: &str| -> Result<Option<f64>> {
        match field(&task, key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => value
                .as_f64()
                .map(Some)
                .with_context(|| format!("{}: `{key}` must be a number", file.display())),
        }
    };
    let time_limit = number("time_limit")?;
    let memory_limit = number("memory_limit")?;
    let public = public_cases(field(&task, "public_testcases"), count, &file)?;

    // Every input/output file must be one of the n_input cases, and every case must have both.
    for folder in ["input", "output"] {
        let path = dir.join(folder);
        let entries = std::fs::read_dir(&path)
            .with_context(|| format!("{}: the task has no {folder}/ folder", path.display()))?;
        for entry in entries.filter_map(Result::ok) {
            let file_name = entry.file_name().to_string_lossy().into_owned();
            let index = file_name
                .strip_prefix(folder)
                .and_then(|rest| rest.strip_suffix(".txt"))
                .and_then(|n| n.parse::<usize>().ok());
            match index {
                Some(i) if i < count => {}
                Some(_) => bail!(
                    "{}: task.yaml says n_input is {count}, so the cases are {folder}0.txt to {folder}{}.txt",
                    entry.path().display(),
                    count - 1
                ),
                None => bail!(
                    "{}: not a test case file (expected {folder}N.txt)",
                    entry.path().display()
                ),
            }
        }
    }
    let exported = dir.join("nimlab");
    let names: Option<Vec<String>> = match std::fs::read_to_string(exported.join("cases.txt")) {
        Ok(text) => {
            let names: Vec<String> = text.lines().map(str::to_string).collect();
            if names.len() != count {
                bail!(
                    "{}: lists {} cases, but n_input is {count}",
                    exported.join("cases.txt").display(),
                    names.len()
                );
            }
            Some(names)
        }
        Err(_) => None,
    };
    let width = (count - 1).to_string().len().max(2);
    let mut cases = Vec::new();
    for (i, &is_public) in public.iter().enumerate() {
        let input_path = dir.join(format!("input/input{i}.txt"));
        let output_path = dir.join(format!("output/output{i}.txt"));
        if !input_path.is_file() {
            bail!("{}: is missing (n_input is {count})", input_path.display());
        }
        if !output_path.is_file() {
            bail!(
                "{}: is missing: every input needs its expected output",
                output_path.display()
            );
        }
        let (visibility, stem) = match &names {
            Some(names) => {
                let (folder, stem) = names[i].split_once('/').with_context(|| {
                    format!(
                        "{}: `{}` is not a case name",
                        exported.join("cases.txt").display(),
                        names[i]
                    )
                })?;
                let visibility = if folder == "sample" {
                    Visibility::Sample
                } else {
                    Visibility::Secret
                };
                (visibility, stem.to_string())
            }
            None if is_public => (Visibility::Sample, format!("{i:0width$}")),
            None => (Visibility::Secret, format!("{i:0width$}")),
        };
        cases.push((
            visibility,
            stem,
            text_file(&input_path)?,
            text_file(&output_path)?,
        ));
    }
    summary.cases += cases.len();

    let known = built_in.exercise(&name).ok();
    let has_checker = ["check/checker", "cor/correttore"]
        .iter()
        .any(|c| dir.join(c).exists());
    let config = match std::fs::read_to_string(exported.join("exercise.toml")) {
        Ok(config) => config,
        Err(_) => {
            let comparison = match (has_checker, known) {
                (false, _) => "lines",
                (true, Some(exercise)) => exercise.judging_label(),
                (true, None) => bail!(
                    "{}: the task has its own checker, which nimlab cannot run; only tasks compared by white-diff, or exported by nimlab, can be imported",
                    dir.display()
                ),
            };
            let cpu_ms = time_limit.map_or(2_000, |s| (s * 1000.0).round().max(1.0) as u64);
            // Room for twice the largest expected output: CMS had no output limit to copy.
            let largest = cases.iter().map(|c| c.3.len() as u64).max().unwrap_or(0);
            let output_kb = (largest * 2 / 1024).max(1024);
            let memory = memory_limit.map_or(256, |m| m.round().max(1.0) as u64);
            format!(
                "# Imported from the CMS task `{name}`.\ntitle = {}\norder = {order}\ncomparison = \"{comparison}\"\n\n[limits]\ncpu_ms = {cpu_ms}\nwall_ms = {}\n# CMS's limit was {memory} MB of memory; nimlab limits address space, which Python needs more of.\nmemory_mb = {}\noutput_kb = {output_kb}\n",
                toml_string(&title),
                (cpu_ms * 3).max(cpu_ms + 2_000),
                memory.max(256),
            )
        }
    };
    let mut from_built_in = |what: &str| summary.from_built_in.push(format!("{name}: {what}"));
    let statement = match ["statement/statement.md", "statement.md"]
        .iter()
        .map(|p| dir.join(p))
        .find(|p| p.is_file())
    {
        Some(path) => text_file(&path)?,
        None => match known {
            Some(exercise) => {
                from_built_in("statement");
                exercise.statement.clone()
            }
            None => format!(
                "# {title}\n\nImported from a CMS task whose folder held no statement in Markdown.\n\nRead one test case from standard input and print the answer to standard output.\n"
            ),
        },
    };
    let stub = match first_python_file(&dir.join("att"), &format!("{name}.py")) {
        Some(path) => text_file(&path)?,
        None => match known {
            Some(exercise) => {
                from_built_in("starter file");
                exercise.stub.clone()
            }
            None => format!(
                "# -*- coding: utf-8 -*-\n\"\"\"{name}: read one test case from standard input and print the answer.\"\"\"\nfrom __future__ import print_function, division\n\nimport sys\n\n\ndef solve(text):\n    # Your code here.\n    return \"\"\n\n\nif __name__ == \"__main__\":\n    print(solve(sys.stdin.read()))\n"
            ),
        },
    };
    let solution = match first_python_file(&dir.join("sol"), &format!("{name}.py")) {
        Some(path) => Some(text_file(&path)?),
        None => known.and_then(|exercise| {
            let solution = exercise.solution.clone();
            if solution.is_some() {
                from_built_in("model solution");
            }
            solution
        }),
    };
    let used = [
        "task.yaml",
        "input",
        "output",
        "statement",
        "att",
        "sol",
        "check",
        "cor",
        "nimlab",
    ];
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.filter_map(Result::ok) {
            let file_name = entry.file_name().to_string_lossy().into_owned();
            if !used.contains(&file_name.as_str()) && file_name != "statement.md" {
                summary
                    .not_imported
                    .push(entry.path().display().to_string());
            }
        }
    }
    Ok(ImportedTask {
        name,
        config,
        statement,
        stub,
        solution,
        cases,
    })
}

/// Imports a CMS contest folder (contest.yaml) or a single task folder (task.yaml) as a nimlab
/// lab folder at `out`.
pub fn import(src: &Path, out: &Path) -> Result<ImportSummary> {
    let built_in = Lab::built_in()?;
    let mut summary = ImportSummary::default();
    let task_dirs: Vec<PathBuf> = if src.join("contest.yaml").is_file() {
        let file = src.join("contest.yaml");
        let contest = read_yaml(&file)?;
        let tasks = field(&contest, "tasks")
            .and_then(Value::as_sequence)
            .with_context(|| {
                format!(
                    "{}: `tasks` (the list of task names) is missing",
                    file.display()
                )
            })?;
        let mut dirs = Vec::new();
        for task in tasks {
            let task = task
                .as_str()
                .with_context(|| format!("{}: a task name is not a string", file.display()))?;
            let dir = src.join(task);
            if !dir.is_dir() {
                bail!(
                    "{}: names task `{task}`, but there is no folder {}",
                    file.display(),
                    dir.display()
                );
            }
            dirs.push(dir);
        }
        dirs
    } else if src.join("task.yaml").is_file() {
        vec![src.to_path_buf()]
    } else if src.is_dir() {
        bail!(
            "{}: neither a CMS contest (contest.yaml) nor a task folder (task.yaml)",
            src.display()
        );
    } else {
        bail!("{}: no such folder", src.display());
    };
    let mut tasks = Vec::new();
    for (i, dir) in task_dirs.iter().enumerate() {
        tasks.push(import_task(dir, i + 1, &built_in, &mut summary)?);
    }
    write_folder(out, |root| {
        for task in &tasks {
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
            for (visibility, stem, input, output) in &task.cases {
                let fixture = format!("fixtures/{}/{}/{stem}", task.name, visibility.folder());
                put(root, &format!("{fixture}.in"), input.as_bytes())?;
                put(root, &format!("{fixture}.out"), output.as_bytes())?;
            }
        }
        // The result must load as a lab, or nothing is written.
        Lab::from_folder(root).context("the imported lab does not load")?;
        Ok(())
    })?;
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
        serde_json::to_string(&exercise.config.title)?,
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
fn render_config(exercise: &LabExercise) -> Result<String> {
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
    // The exercise's own settings (nim_sum's `positions`), as they were given.
    if !c.exercise_keys.is_empty() {
        out.push_str(&toml::to_string(&c.exercise_keys)?);
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
