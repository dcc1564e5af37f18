//! `nimlab classroom` and `nimlab init --ci github`: a student's repository graded for GitHub
//! Classroom, read back the way its autograding reporter reads it (for each id in `runners`,
//! env `<ID>_RESULTS`, base64 of the results' JSON; `Total points: S/M` with S the sum of
//! the tests' scores and M the sum of `max_score`).

use crate::common::{nimlab, root};
use base64::Engine;
use serde_json::Value;
use std::path::Path;

/// The `result=` output a step appended to its GITHUB_OUTPUT file, decoded as the reporter
/// decodes `<ID>_RESULTS`: base64, then JSON.
fn decode_output(github_output: &Path) -> (String, Value) {
    let text = std::fs::read_to_string(github_output).unwrap();
    let encoded = text
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("result="))
        .expect("a result= line in GITHUB_OUTPUT");
    let json = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .expect("the result is base64");
    let json = String::from_utf8(json).expect("the JSON is UTF-8");
    let value: Value = serde_json::from_str(&json).expect("the result is JSON");
    (json, value)
}

/// What the reporter prints for these runners' results, `Total points: S/M`, and S, M: as
/// its notify-classroom.js does, adding in floating point and printing the numbers as
/// JavaScript does (for these magnitudes, as Rust's `Display` does), and leaving out a runner
/// whose `max_score` is 0.
fn reporter_total(runners: &[&Value]) -> (String, f64, f64) {
    let mut score = 0.0;
    let mut max = 0.0;
    for results in runners {
        assert_eq!(results["version"], 1);
        assert!(
            ["pass", "fail", "error"].contains(&results["status"].as_str().unwrap()),
            "{results}"
        );
        let runner_max = results["max_score"].as_f64().unwrap();
        if runner_max == 0.0 {
            continue;
        }
        max += runner_max;
        for test in results["tests"].as_array().unwrap() {
            for field in ["name", "status", "message"] {
                assert!(test[field].is_string(), "{field} in {test}");
            }
            assert!(
                ["pass", "fail", "error"].contains(&test["status"].as_str().unwrap()),
                "{test}"
            );
            score += test["score"].as_f64().unwrap();
        }
    }
    (format!("Total points: {score}/{max}"), score, max)
}

/// Points as nimlab shows them: to the hundredth, without trailing zeros.
fn shown(points: f64) -> String {
    let text = format!("{points:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn model(exercise: &str) -> Vec<u8> {
    std::fs::read(root().join("exercises").join(exercise).join("solution.py")).unwrap()
}

/// A bin_num that passes every sample by heart and fails every secret case, raising an error
/// that holds the case's input: the input must not reach the student.
fn bin_num_by_heart() -> (String, Vec<String>) {
    let lab = nimlab_core::lab::Lab::built_in().unwrap();
    let exercise = lab.exercise("bin_num").unwrap();
    let mut known = Vec::new();
    let mut secrets = Vec::new();
    for case in &exercise.cases {
        let input = case.input.text().to_string();
        if case.visibility == nimlab_core::lab::Visibility::Sample {
            known.push((input, case.stored_expected.clone()));
        } else {
            secrets.push(input.trim().to_string());
        }
    }
    let table = serde_json::to_string(&known).unwrap();
    let program = format!(
        "import json, sys\n\
         data = sys.stdin.read()\n\
         for given, answer in json.loads({table:?}):\n    \
             if given == data:\n        \
                 sys.stdout.write(answer)\n        \
                 sys.exit(0)\n\
         raise ValueError(data)\n"
    );
    (program, secrets)
}

/// `nimlab grade` on the repository's exercise files as one student's: their total, and the
/// most a total can be.
fn graded_by_nimlab_grade(dir: &Path) -> (f64, f64) {
    let class = tempfile::tempdir().unwrap();
    let student = class.path().join("class/ada");
    std::fs::create_dir_all(&student).unwrap();
    for name in ["present_board", "exclusive_or", "bin_num", "make_move"] {
        let file = format!("{name}.py");
        std::fs::copy(dir.join(&file), student.join(&file)).unwrap();
    }
    nimlab()
        .args(["grade", "--python", "3", "--out"])
        .arg(class.path().join("out"))
        .arg(class.path().join("class"))
        .assert()
        .success();
    let book: Value =
        serde_json::from_slice(&std::fs::read(class.path().join("out/results.json")).unwrap())
            .unwrap();
    let counted: f64 = book["exercises"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["in_total"] != false)
        .map(|e| e["points"].as_f64().unwrap())
        .sum();
    (book["students"][0]["total"].as_f64().unwrap(), counted)
}

/// A workflow step's `run:` as GitHub runs it (bash -e), in the repository, with the nimlab
/// under test on the PATH: its stdout.
fn run_step(dir: &Path, run: &str, github_output: &Path) -> String {
    let bin = assert_cmd::cargo::cargo_bin("nimlab");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = std::process::Command::new("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", run])
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env("GITHUB_OUTPUT", github_output)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// A student's repository: two model solutions, a bin_num that knows only the samples, a
/// wrong make_move whose error holds a terminal escape, a bell and quotes, and a Python file
/// that is no exercise. Also the secret cases' inputs that must not reach the student.
fn student_repository() -> (tempfile::TempDir, Vec<String>) {
    let repo = tempfile::tempdir().unwrap();
    let dir = repo.path();
    std::fs::write(dir.join("present_board.py"), model("present_board")).unwrap();
    std::fs::write(dir.join("exclusive_or.py"), model("exclusive_or")).unwrap();
    let (by_heart, secrets) = bin_num_by_heart();
    std::fs::write(dir.join("bin_num.py"), &by_heart).unwrap();
    std::fs::write(
        dir.join("make_move.py"),
        "raise ValueError('bad \\x1b[2J \"quoted\" \\x07')\n",
    )
    .unwrap();
    std::fs::write(dir.join("notes.py"), "print('not an exercise')\n").unwrap();
    (repo, secrets)
}

#[test]
fn the_reporter_reads_nimlabs_points_and_no_secret_input() {
    let (repo, secrets) = student_repository();
    let dir = repo.path();
    let github_output = dir.join("github_output");
    std::fs::write(&github_output, "earlier=kept\n").unwrap();
    let output = nimlab()
        .args(["classroom", "--python", "3"])
        .arg(dir)
        .arg("--output")
        .arg(dir.join("result.b64"))
        .env("GITHUB_OUTPUT", &github_output)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Appended, as GitHub expects.
    assert!(
        std::fs::read_to_string(&github_output)
            .unwrap()
            .starts_with("earlier=kept\n")
    );
    let (json, results) = decode_output(&github_output);
    assert_eq!(
        std::fs::read_to_string(dir.join("result.b64"))
            .unwrap()
            .trim(),
        base64::engine::general_purpose::STANDARD.encode(&json)
    );
    let (reporter_line, score, max) = reporter_total(&[&results]);
    // The reporter's sum of hundredths may carry a floating-point tail (24.740000000000002);
    // to the hundredth it is the total nimlab prints.
    let total_line = format!("Total points: {}/{}", shown(score), shown(max));
    assert!(
        stdout.contains(&total_line),
        "{total_line} ({reporter_line}) in\n{stdout}"
    );
    assert_eq!(results["status"], "fail");

    // The same files graded by `nimlab grade`: the same total, of the same points.
    let (total, counted) = graded_by_nimlab_grade(dir);
    // Scores are hundredths; a sum of them in floating point is too, to the hundredth.
    assert_eq!((score * 100.0).round() / 100.0, total);
    assert_eq!(max, counted);
    // Two model solutions, full marks; bin_num's samples alone give it part of its points.
    let lab = nimlab_core::lab::Lab::built_in().unwrap();
    let points = |name: &str| f64::from(lab.exercise(name).unwrap().config.points);
    assert!(score > points("present_board") + points("exclusive_or"));
    assert!(score < points("present_board") + points("exclusive_or") + points("bin_num"));

    let test = |name: &str| {
        let title = &lab.exercise(name).unwrap().config.title;
        results["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| &t["name"] == title)
            .unwrap_or_else(|| panic!("{title} in {results}"))
            .clone()
    };
    assert_eq!(test("present_board")["status"], "pass");
    assert_eq!(test("bin_num")["status"], "fail");
    assert_eq!(test("make_move")["status"], "fail");
    assert_eq!(test("nim_sum")["message"], "no submission");
    assert_eq!(test("nim_sum")["score"], 0.0);
    let bin_num = test("bin_num")["message"].as_str().unwrap().to_string();
    assert!(
        bin_num.contains("secret/"),
        "a secret case named: {bin_num}"
    );
    for secret in &secrets {
        assert!(!json.contains(secret.as_str()), "{secret} in {json}");
        assert!(!stdout.contains(secret.as_str()), "{secret} in {stdout}");
    }
    // Control characters and quotes are escaped in the JSON, and shown as escapes on stdout.
    assert!(
        json.contains(r#"bad \u001b[2J \"quoted\" \u0007"#),
        "{json}"
    );
    assert!(!json.contains('\x1b') && !stdout.contains('\x1b'));
}

#[test]
fn a_missing_repository_is_named() {
    let missing = tempfile::tempdir().unwrap().path().join("nowhere");
    let output = nimlab().arg("classroom").arg(&missing).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("nowhere") && stderr.contains("no such folder"),
        "{stderr}"
    );
}

#[test]
fn the_workflow_grades_a_scratch_repository() {
    let repo = tempfile::tempdir().unwrap();
    let dir = repo.path();
    let git = std::process::Command::new("git")
        .args(["init", "--quiet"])
        .current_dir(dir)
        .status();
    assert!(git.is_ok_and(|s| s.success()), "git init");
    std::fs::write(dir.join("present_board.py"), model("present_board")).unwrap();
    std::fs::write(dir.join("exclusive_or.py"), model("exclusive_or")).unwrap();
    nimlab()
        .args(["init", "--ci", "github", "--wheel", A_WHEEL])
        .current_dir(dir)
        .assert()
        .success();
    let path = dir.join(".github/workflows/classroom.yml");
    let text = std::fs::read_to_string(&path).unwrap();
    refuses_to_overwrite(dir, &path, &text);
    let workflow: serde_norway::Value = serde_norway::from_str(&text).unwrap();
    let steps = workflow["jobs"]["grade"]["steps"].as_sequence().unwrap();
    let reporter = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("classroom-resources/autograding-grading-reporter@"))
        })
        .expect("the reporter step");
    let runners: Vec<&str> = reporter["with"]["runners"]
        .as_str()
        .unwrap()
        .split(',')
        .map(str::trim)
        .collect();
    assert_eq!(runners, ["nimlab"]);
    let github_output = dir.join("github_output");
    let mut decoded = Vec::new();
    for runner in &runners {
        // The reporter reads <ID>_RESULTS, which must be the output of the step with that id.
        let env = reporter["env"][format!("{}_RESULTS", runner.to_uppercase()).as_str()]
            .as_str()
            .unwrap();
        assert_eq!(env, format!("${{{{ steps.{runner}.outputs.result }}}}"));
        let step = steps
            .iter()
            .find(|s| s["id"].as_str() == Some(runner))
            .expect("the step the runner names");
        let stdout = run_step(dir, step["run"].as_str().unwrap(), &github_output);
        let (_, results) = decode_output(&github_output);
        decoded.push((results, stdout));
    }
    let values: Vec<&Value> = decoded.iter().map(|(v, _)| v).collect();
    let (total_line, score, _) = reporter_total(&values);
    assert!(
        decoded[0].1.contains(&total_line),
        "{total_line} in {}",
        decoded[0].1
    );
    let lab = nimlab_core::lab::Lab::built_in().unwrap();
    let points = |name: &str| f64::from(lab.exercise(name).unwrap().config.points);
    assert_eq!(score, points("present_board") + points("exclusive_or"));
    // The reporter step runs whatever nimlab's step did.
    assert_eq!(reporter["if"].as_str(), Some("always()"));
}

/// `nimlab init --ci github` again: refused, naming the file, which is left as it was.
fn refuses_to_overwrite(dir: &Path, path: &Path, text: &str) {
    let again = nimlab()
        .args(["init", "--ci", "github", "--wheel", A_WHEEL])
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(
        stderr.contains(".github/workflows/classroom.yml") && stderr.contains("already exists"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(path).unwrap(), text);
}

/// A wheel where a course might keep it.
const A_WHEEL: &str =
    "https://lab.example.edu/~course/nimlab-0.1.0-py3-none-manylinux_2_34_x86_64.whl?dl=1";

/// Without `--wheel`, no workflow: its install step would take a package named nimlab from
/// PyPI, where nimlab is not published and the name could be anyone's. A URL with every
/// character allowed (and a sha256 pin) reaches the step's shell line unchanged through
/// YAML.
#[test]
fn the_workflow_needs_its_wheel_and_keeps_the_url_as_given() {
    let repo = tempfile::tempdir().unwrap();
    nimlab()
        .args(["init", "--ci", "github"])
        .current_dir(repo.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--ci github needs --wheel"));
    assert!(!repo.path().join(".github").exists());
    let pinned = format!(
        "https://lab.example.edu/~c/a%20b/nimlab-0.1.0+x,y@z-py3-none-any.whl?t=1&u=2#sha256={}",
        "ab".repeat(32)
    );
    nimlab()
        .args(["init", "--ci", "github", "--wheel", &pinned])
        .current_dir(repo.path())
        .assert()
        .success();
    let text =
        std::fs::read_to_string(repo.path().join(".github/workflows/classroom.yml")).unwrap();
    let workflow: serde_norway::Value = serde_norway::from_str(&text).unwrap();
    let install = workflow["jobs"]["grade"]["steps"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|s| s["name"].as_str() == Some("Install nimlab"))
        .unwrap()["run"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(install, format!("pip install '{pinned}'"));
}

/// A `--wheel` that would be code in the install step's shell line (a quote, a space, `$`,
/// an option), or that is no wheel (a package's name, a folder), is refused, and nothing is
/// written.
#[test]
fn a_wheel_named_with_what_would_be_code_is_refused() {
    let repo = tempfile::tempdir().unwrap();
    for hostile in [
        "x' ; rm -rf ~.whl",
        "a b.whl",
        "$(id).whl",
        "-e.whl",
        "",
        "a\nb.whl",
        "nimlab",
        "nimlab==0.1.0",
        ".",
        "x.whl#egg=y",
        "https://lab.example.edu/get?f=nimlab-0.1.0-py3-none-any.whl",
    ] {
        nimlab()
            .args(["init", "--ci", "github", &format!("--wheel={hostile}")])
            .current_dir(repo.path())
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "the address or path of a nimlab wheel",
            ));
    }
    assert!(
        !repo.path().join(".github").exists(),
        "a refused --wheel writes nothing"
    );
}

/// `--wheel`: the workflow installs nimlab from the wheel it names, and its steps, run as
/// written in a virtual environment with no nimlab of the test's on PATH, grade the
/// repository with the nimlab the wheel brought.
#[test]
fn with_a_wheel_the_workflow_installs_it_and_grades_with_it() {
    let Some(wheel) = std::env::var_os("NIMLAB_WHEEL")
        .map(std::path::PathBuf::from)
        .filter(|p| p.is_file())
    else {
        crate::common::tool_missing(
            "nimlab's wheel",
            "maturin build --profile dev --locked --out target/wheels, then NIMLAB_WHEEL=target/wheels/nimlab-*.whl",
            "the workflow was not run with the wheel it installs",
        );
        return;
    };
    let repo = tempfile::tempdir().unwrap();
    let dir = repo.path();
    std::fs::write(dir.join("present_board.py"), model("present_board")).unwrap();
    let wheel_in_repo = dir.join("ci").join(wheel.file_name().unwrap());
    std::fs::create_dir(dir.join("ci")).unwrap();
    std::fs::copy(&wheel, &wheel_in_repo).unwrap();
    let named = format!("ci/{}", wheel.file_name().unwrap().to_string_lossy());
    nimlab()
        .args(["init", "--ci", "github", "--wheel", &named])
        .current_dir(dir)
        .assert()
        .success();
    let text = std::fs::read_to_string(dir.join(".github/workflows/classroom.yml")).unwrap();
    assert!(!text.contains("NOT YET WORKING"), "{text}");
    let workflow: serde_norway::Value = serde_norway::from_str(&text).unwrap();
    let steps = workflow["jobs"]["grade"]["steps"].as_sequence().unwrap();
    let run_of = |name: &str| {
        steps
            .iter()
            .find(|s| s["name"].as_str() == Some(name))
            .and_then(|s| s["run"].as_str())
            .unwrap_or_else(|| panic!("no step {name}: {text}"))
            .to_string()
    };
    // setup-python's part: a Python whose pip installs into an environment of its own.
    let venv = dir.join(".venv");
    let made = std::process::Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let path = format!("{}:/usr/bin:/bin", venv.join("bin").display());
    let github_output = dir.join("github_output");
    for step in ["Install nimlab", "Grade with nimlab"] {
        let output = std::process::Command::new("bash")
            .args([
                "--noprofile",
                "--norc",
                "-eo",
                "pipefail",
                "-c",
                &run_of(step),
            ])
            .current_dir(dir)
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
            .env("PIP_NO_INDEX", "1")
            .env("GITHUB_OUTPUT", &github_output)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{step}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    assert!(
        venv.join("bin/nimlab").is_file(),
        "the wheel's nimlab did the grading"
    );
    let (_, results) = decode_output(&github_output);
    let lab = nimlab_core::lab::Lab::built_in().unwrap();
    let points = f64::from(lab.exercise("present_board").unwrap().config.points);
    let (_, score, _) = reporter_total(&[&results]);
    assert_eq!(score, points, "{results:#}");
}
