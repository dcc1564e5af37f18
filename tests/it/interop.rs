//! CMS import and export, Kattis export, and nimlab as a checker inside those systems.

use crate::common;

use crate::common::{check_json, nimlab, root, stdin_exercises};
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn cms_data() -> PathBuf {
    let dir = root().join("tests/data/lab-cms");
    assert!(dir.is_dir(), "{} is missing", dir.display());
    dir
}

/// A command that finds this build's `nimlab` on PATH, as a judging system would.
fn with_nimlab_on_path(program: &Path) -> Command {
    let bin = assert_cmd::cargo::cargo_bin("nimlab");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut command = Command::new(program);
    command.env("PATH", path);
    command
}

fn import(src: &Path, out: &Path) -> std::process::Output {
    nimlab()
        .args(["import", "cms"])
        .arg(src)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// Per-case verdicts of one submission under a lab.
fn verdicts(file: &Path, exercise: &str, lab: &Path) -> Vec<(String, String)> {
    let (report, _) = check_json(&[
        file.to_str().unwrap(),
        "--exercise",
        exercise,
        "--python",
        "3",
        "--lab",
        lab.to_str().unwrap(),
    ]);
    report["runs"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_labs_cms_contest_imports_into_a_lab_its_model_solutions_pass() {
    let dir = tempfile::tempdir().unwrap();
    let lab = dir.path().join("lab");
    let output = import(&cms_data(), &lab);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("Imported 7 exercise(s) with 46 case(s)")
    );
    nimlab()
        .arg("--lab")
        .arg(&lab)
        .args(["fixtures", "verify"])
        .assert()
        .success();
    for exercise in [
        "present_board",
        "make_move",
        "exclusive_or",
        "bin_num",
        "bitwise_xor",
        "nim_sum",
        "ui",
    ] {
        let solution = root().join(format!("exercises/{exercise}/solution.py"));
        let (report, code) = check_json(&[
            solution.to_str().unwrap(),
            "--exercise",
            exercise,
            "--lab",
            lab.to_str().unwrap(),
        ]);
        assert_eq!(report["verdict"], "accepted", "{exercise}: {report:#}");
        assert_eq!(code, 0);
        // CMS's public test cases are the samples (in this contest, all of them).
        let cases = report["runs"][0]["cases"].as_array().unwrap();
        assert!(
            cases.iter().all(|c| c["visibility"] == "sample"),
            "{exercise}"
        );
    }
    let config =
        std::fs::read_to_string(lab.join("exercises/present_board/exercise.toml")).unwrap();
    assert!(
        config.contains("cpu_ms = 1000") && config.contains("comparison = \"lines\""),
        "{config}"
    );
}

/// A CMS contest in `contest/` of a temporary folder; imports go beside it, so whatever a
/// test does stays inside that folder.
struct Contest {
    dir: tempfile::TempDir,
    contest: PathBuf,
}

impl Contest {
    fn path(&self) -> &Path {
        &self.contest
    }

    /// The temporary folder that holds the contest (and whatever an import writes).
    fn outer(&self) -> &Path {
        self.dir.path()
    }
}

/// A copy of one CMS task as a contest of its own, changed by `edit`.
fn cms_task_copy(edit: impl Fn(&Path)) -> Contest {
    let dir = tempfile::tempdir().unwrap();
    let contest = dir.path().join("contest");
    common::copy_dir(
        &cms_data().join("exclusive_or"),
        &contest.join("exclusive_or"),
    );
    std::fs::write(
        contest.join("contest.yaml"),
        "name: \"t\"\ntasks:\n  - \"exclusive_or\"\n",
    )
    .unwrap();
    edit(&contest.join("exclusive_or"));
    Contest { dir, contest }
}

/// Every path below `dir` (links not followed) with its kind and contents: what a test
/// compares to show that nothing was written.
fn snapshot(dir: &Path) -> Vec<(PathBuf, String)> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(|e| {
            let e = e.unwrap();
            let what = if e.path_is_symlink() {
                format!(
                    "link to {}",
                    std::fs::read_link(e.path()).unwrap().display()
                )
            } else if e.file_type().is_file() {
                String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()).into_owned()
            } else {
                format!("{:?}", e.file_type())
            };
            (e.path().to_path_buf(), what)
        })
        .collect()
}

/// The import of `src` is refused with exit 2 and a message holding every needle, and the
/// folder around `src` (where the lab would go) is left exactly as it was.
fn assert_import_refused(src: &Path, needles: &[&str]) {
    let outer = src.parent().unwrap();
    let before = snapshot(outer);
    let out = outer.join("imported-lab");
    let output = import(src, &out);
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    for needle in needles {
        assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
    }
    assert!(!out.exists(), "nothing is written when an import fails");
    assert_eq!(
        before,
        snapshot(outer),
        "a refused import changed {}",
        outer.display()
    );
}

#[test]
fn malformed_or_partial_cms_folders_are_refused_naming_the_file() {
    let bad_yaml = cms_task_copy(|task| {
        std::fs::write(
            task.join("task.yaml"),
            "name: \"exclusive_or\"\nn_input: [4\n",
        )
        .unwrap()
    });
    assert_import_refused(
        bad_yaml.path(),
        &["exclusive_or/task.yaml", "malformed YAML"],
    );

    let no_count = cms_task_copy(|task| {
        std::fs::write(
            task.join("task.yaml"),
            "name: \"exclusive_or\"\ntitle: \"X\"\n",
        )
        .unwrap()
    });
    assert_import_refused(no_count.path(), &["task.yaml", "n_input"]);

    let missing_output =
        cms_task_copy(|task| std::fs::remove_file(task.join("output/output2.txt")).unwrap());
    assert_import_refused(missing_output.path(), &["output/output2.txt", "is missing"]);

    let extra_input =
        cms_task_copy(|task| std::fs::write(task.join("input/input7.txt"), "1 1\n").unwrap());
    assert_import_refused(extra_input.path(), &["input/input7.txt", "n_input is 4"]);

    let stray_file =
        cms_task_copy(|task| std::fs::write(task.join("output/notes.txt"), "x").unwrap());
    assert_import_refused(
        stray_file.path(),
        &["output/notes.txt", "not a test case file"],
    );

    let file_io = cms_task_copy(|task| {
        let yaml = std::fs::read_to_string(task.join("task.yaml"))
            .unwrap()
            .replace("infile: \"\"", "infile: \"input.txt\"");
        std::fs::write(task.join("task.yaml"), yaml).unwrap();
    });
    assert_import_refused(file_io.path(), &["infile is `input.txt`"]);

    let bad_public = cms_task_copy(|task| {
        let yaml = std::fs::read_to_string(task.join("task.yaml"))
            .unwrap()
            .replace("public_testcases: 0, 1, 2, 3", "public_testcases: 0, 9");
        std::fs::write(task.join("task.yaml"), yaml).unwrap();
    });
    assert_import_refused(bad_public.path(), &["public_testcases names case 9"]);

    let unknown_checker = cms_task_copy(|task| {
        std::fs::create_dir_all(task.join("check")).unwrap();
        std::fs::write(task.join("check/checker"), "#!/bin/sh\n").unwrap();
        let yaml = std::fs::read_to_string(task.join("task.yaml"))
            .unwrap()
            .replace("exclusive_or", "mystery");
        std::fs::write(task.join("task.yaml"), yaml).unwrap();
        std::fs::rename(task, task.with_file_name("mystery")).unwrap();
    });
    std::fs::write(
        unknown_checker.path().join("contest.yaml"),
        "tasks:\n  - mystery\n",
    )
    .unwrap();
    assert_import_refused(unknown_checker.path(), &["own checker"]);

    let missing_task = cms_task_copy(|_| {});
    std::fs::write(
        missing_task.path().join("contest.yaml"),
        "tasks:\n  - exclusive_or\n  - chess\n",
    )
    .unwrap();
    assert_import_refused(missing_task.path(), &["contest.yaml", "chess"]);
}

#[test]
fn extra_files_in_a_task_folder_are_reported_not_imported() {
    let src = cms_task_copy(|task| std::fs::write(task.join("statement.pdf"), "%PDF").unwrap());
    let out = src.outer().join("lab-with-extras");
    let output = import(src.path(), &out);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("not imported:")
            && String::from_utf8_lossy(&output.stdout).contains("statement.pdf")
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn importing_into_a_folder_that_is_not_empty_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("keep.txt"), "mine").unwrap();
    let output = import(&cms_data(), dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not empty"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("keep.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn export_then_import_gives_the_same_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let (exported, reimported) = (dir.path().join("cms"), dir.path().join("lab"));
    nimlab()
        .args(["export", "cms", "--out"])
        .arg(&exported)
        .assert()
        .success()
        .stdout(predicate::str::contains("left out working_game"))
        .stdout(predicate::str::contains("left out misere_game"));
    // Further study is exported as such, so the imported lab keeps it out of the total.
    let misere = std::fs::read_to_string(exported.join("misere_move/nimlab/exercise.toml"))
        .unwrap_or_default();
    assert!(misere.contains("further_study = true"), "{misere}");
    let output = import(&exported, &reimported);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    nimlab()
        .arg("--lab")
        .arg(&reimported)
        .args(["fixtures", "verify"])
        .assert()
        .success();
    let exercises = stdin_exercises();
    let submissions: Vec<(PathBuf, &str)> = exercises
        .iter()
        .map(|e| {
            (
                root().join(format!("exercises/{e}/solution.py")),
                e.as_str(),
            )
        })
        .chain([
            (
                root().join("tests/submissions/zero_based_row/make_move.py"),
                "make_move",
            ),
            (
                root().join("tests/submissions/target_size/optimal_move.py"),
                "optimal_move",
            ),
            (
                root().join("tests/submissions/python_repr/make_move.py"),
                "make_move",
            ),
            (
                root().join("tests/submissions/reversed_digits/bin_num.py"),
                "bin_num",
            ),
            (
                root().join("tests/submissions/debug_print/present_board.py"),
                "present_board",
            ),
        ])
        .collect();
    for (file, exercise) in submissions {
        let built_in = verdicts(&file, exercise, &root());
        let round_trip = verdicts(&file, exercise, &reimported);
        assert_eq!(built_in, round_trip, "{}", file.display());
    }
}

#[test]
fn exported_cms_checkers_judge_as_nimlab_does() {
    let dir = tempfile::tempdir().unwrap();
    let exported = dir.path().join("cms");
    nimlab()
        .args(["export", "cms", "--out"])
        .arg(&exported)
        .assert()
        .success();
    let task = exported.join("optimal_move");
    // input0 is the handout's board [5, 4, 3, 2, 1]: [3, 1] wins, [1, 2] does not.
    for (output, outcome) in [("[3, 1]\n", "1.0"), ("[1, 2]\n", "0.0")] {
        let answer_file = dir.path().join("team-output.txt");
        std::fs::write(&answer_file, output).unwrap();
        let result = with_nimlab_on_path(&task.join("check/checker"))
            .arg(task.join("input/input0.txt"))
            .arg(task.join("output/output0.txt"))
            .arg(&answer_file)
            .output()
            .unwrap();
        assert!(
            result.status.success(),
            "{}",
            String::from_utf8_lossy(&result.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&result.stdout).lines().next(),
            Some(outcome),
            "{output}"
        );
    }
    // present_board is compared by CMS's own white-diff: no checker is needed.
    assert!(!exported.join("present_board/check").exists());
    assert!(
        exported.join("make_move/check/checker").exists(),
        "JSON answers need nimlab's comparison"
    );
}

fn kattis_name_ok(name: &str) -> bool {
    let bytes = name.as_bytes();
    let inner_ok = bytes
        .iter()
        .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(b));
    (2..=255).contains(&bytes.len())
        && inner_ok
        && bytes[0].is_ascii_alphanumeric()
        && bytes[bytes.len() - 1].is_ascii_alphanumeric()
}

#[test]
// A story told in order: each of the format's rules checked in turn on one export.
#[allow(clippy::too_many_lines)]
fn kattis_packages_follow_the_legacy_format_rules() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("kattis");
    nimlab()
        .args(["export", "kattis", "--out"])
        .arg(&out)
        .assert()
        .success();
    let packages: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(
        packages.len(),
        9,
        "every stdin exercise (further study's misere_move too), not the interactive games"
    );
    assert!(out.join("miseremove").is_dir() && !out.join("miseregame").exists());
    let allowed_keys = [
        "problem_format_version",
        "type",
        "name",
        "uuid",
        "author",
        "source",
        "source_url",
        "license",
        "rights_owner",
        "limits",
        "validation",
        "validator_flags",
        "grading",
        "keywords",
    ];
    for package in &packages {
        let name = package.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
            "package name {name}"
        );
        // Every file: a valid name; text as UTF-8 without BOM, LF only, ending in a newline.
        for entry in walkdir::WalkDir::new(package).min_depth(1) {
            let entry = entry.unwrap();
            let file_name = entry.file_name().to_string_lossy().into_owned();
            assert!(kattis_name_ok(&file_name), "{}", entry.path().display());
            if entry.file_type().is_file() {
                let bytes = std::fs::read(entry.path()).unwrap();
                let text = String::from_utf8(bytes)
                    .unwrap_or_else(|_| panic!("{} is not UTF-8", entry.path().display()));
                assert!(
                    !text.starts_with('\u{feff}') && !text.contains('\r'),
                    "{}",
                    entry.path().display()
                );
                assert!(
                    text.is_empty() || text.ends_with('\n'),
                    "{} has no final newline",
                    entry.path().display()
                );
            }
        }
        let yaml: serde_norway::Value =
            serde_norway::from_str(&std::fs::read_to_string(package.join("problem.yaml")).unwrap())
                .unwrap();
        let map = yaml.as_mapping().unwrap();
        for key in map.keys() {
            assert!(
                allowed_keys.contains(&key.as_str().unwrap()),
                "{name}: unknown key {key:?}"
            );
        }
        let validation = map
            .get("validation")
            .and_then(|v| v.as_str())
            .unwrap_or("default");
        assert!(
            validation == "default" || validation == "custom",
            "{name}: {validation}"
        );
        let license = map
            .get("license")
            .and_then(|v| v.as_str())
            .unwrap_or("unknown");
        assert!(
            license == "unknown" || license == "public domain" || map.contains_key("rights_owner"),
            "{name}"
        );
        let statement =
            std::fs::read_to_string(package.join("problem_statement/problem.en.tex")).unwrap();
        assert!(statement.contains("\\problemname{"), "{name}");
        let pairs = |group: &str| -> usize {
            let dir = package.join("data").join(group);
            let files: Vec<String> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            for file in &files {
                let (stem, ext) = file.rsplit_once('.').unwrap();
                let partner = if ext == "in" { "ans" } else { "in" };
                assert!(ext == "in" || ext == "ans", "{name}: {file}");
                assert!(
                    files.contains(&format!("{stem}.{partner}")),
                    "{name}: {file} has no .{partner}"
                );
            }
            files.len() / 2
        };
        assert!(pairs("secret") > 0 && pairs("sample") > 0, "{name}");
        let accepted: Vec<PathBuf> = std::fs::read_dir(package.join("submissions/accepted"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert!(!accepted.is_empty(), "{name}");
        for submission in &accepted {
            let first = std::fs::read_to_string(submission)
                .unwrap()
                .lines()
                .next()
                .unwrap()
                .to_string();
            assert!(
                first.starts_with("#!") && first.contains("python3"),
                "{}: the language is told by the shebang",
                submission.display()
            );
        }
        assert!(
            package
                .join("input_validators")
                .read_dir()
                .unwrap()
                .next()
                .is_some(),
            "{name}"
        );
        assert_eq!(
            package.join("output_validators").exists(),
            validation == "custom",
            "{name}"
        );
    }
}

#[test]
fn kattis_validators_accept_the_answers_and_reject_wrong_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("kattis");
    nimlab()
        .args(["export", "kattis", "--out"])
        .arg(&out)
        .assert()
        .success();
    for package in ["makemove", "optimalmove", "binnum", "nimsum", "miseremove"] {
        let package = out.join(package);
        let validator = package.join("output_validators/nimlab/run");
        let input_validator = package.join("input_validators/nimlab/run");
        for entry in std::fs::read_dir(package.join("data/secret")).unwrap() {
            let input = entry.unwrap().path();
            if input.extension().is_none_or(|x| x != "in") {
                continue;
            }
            let answer = input.with_extension("ans");
            let status = with_nimlab_on_path(&input_validator)
                .stdin(std::fs::File::open(&input).unwrap())
                .status()
                .unwrap();
            assert_eq!(status.code(), Some(42), "{}", input.display());
            for (output, code) in [
                (std::fs::read(&answer).unwrap(), 42),
                (b"[]\n".to_vec(), 43),
            ] {
                let feedback = tempfile::tempdir().unwrap();
                let output_file = feedback.path().join("team.out");
                std::fs::write(&output_file, &output).unwrap();
                let status = with_nimlab_on_path(&validator)
                    .arg(&input)
                    .arg(&answer)
                    .arg(format!("{}/", feedback.path().display()))
                    .stdin(std::fs::File::open(&output_file).unwrap())
                    .status()
                    .unwrap();
                assert_eq!(status.code(), Some(code), "{}", input.display());
                assert!(feedback.path().join("judgemessage.txt").exists());
            }
        }
        // A case that is not valid input is refused by the input validator.
        let mut child = with_nimlab_on_path(&input_validator)
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"not a case")
            .unwrap();
        assert_eq!(child.wait().unwrap().code(), Some(43));
    }
}

#[test]
fn the_checker_command_speaks_both_protocols() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    let answer = dir.path().join("ans");
    let output = dir.path().join("out");
    std::fs::write(&input, "{\"board\": [5, 4, 3, 2, 1]}\n").unwrap();
    std::fs::write(&answer, "[1, 1]\n").unwrap();
    std::fs::write(&output, "[5, 1]\n").unwrap();
    nimlab()
        .args(["checker", "optimal_move", "--cms"])
        .args([&input, &answer, &output])
        .assert()
        .success()
        .stdout("1.0\n");
    std::fs::write(&output, "[5, 2]\n").unwrap();
    nimlab()
        .args(["checker", "optimal_move", "--cms"])
        .args([&input, &answer, &output])
        .assert()
        .success()
        .stdout("0.0\n")
        .stderr(predicate::str::contains("illegal"));
    let feedback = dir.path().join("feedback");
    std::fs::create_dir(&feedback).unwrap();
    nimlab()
        .args(["checker", "optimal_move", "--kattis"])
        .args([&input, &answer, &feedback])
        .write_stdin("[1, 4]\n")
        .assert()
        .code(43);
    let message = std::fs::read_to_string(feedback.join("judgemessage.txt")).unwrap();
    assert!(message.contains("nim-sum"), "{message}");
    nimlab()
        .args(["checker", "optimal_move", "--kattis"])
        .args([&input, &answer, &feedback])
        .write_stdin("[3, 1]")
        .assert()
        .code(42);
    // A protocol must be chosen.
    nimlab().args(["checker", "optimal_move"]).assert().code(2);
}

/// The lab exported as a CMS contest into `contest/` of a temporary folder.
fn exported_contest() -> Contest {
    let dir = tempfile::tempdir().unwrap();
    let contest = dir.path().join("contest");
    nimlab()
        .args(["export", "cms", "--out"])
        .arg(&contest)
        .assert()
        .success();
    Contest { dir, contest }
}

#[test]
fn case_names_in_cases_txt_cannot_write_outside_the_new_lab() {
    // Where `secret/../../../../victim/01` would land from the staging folder beside the lab.
    for (line, needle) in [
        ("secret/../../../../victim/01", "not a case name"),
        ("secret/../../x", "not a case name"),
        ("secret/a/b", "not a case name"),
        ("secret/", "not a case name"),
        ("secret/.hidden", "not a case name"),
        ("secret/x.in", "not a case name"),
        ("sample/Upper", "not a case name"),
        ("/etc/x", "not a case name"),
        ("elsewhere/01", "not a case name"),
        ("secret/01-powers-of-two", "listed twice"),
    ] {
        let contest = exported_contest();
        let victim = contest.outer().join("victim");
        std::fs::create_dir(&victim).unwrap();
        std::fs::write(victim.join("01.out"), "another lab's expected output\n").unwrap();
        let cases = contest.path().join("optimal_move/nimlab/cases.txt");
        let text = std::fs::read_to_string(&cases).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        let last = lines.len() - 1;
        // The last line: the cases before it are read first, as an attack would have them.
        if needle == "listed twice" {
            lines[last] = "secret/01-powers-of-two";
        } else {
            lines[last] = line;
        }
        std::fs::write(&cases, format!("{}\n", lines.join("\n"))).unwrap();
        assert_import_refused(
            contest.path(),
            &[
                "optimal_move/nimlab/cases.txt",
                &format!("line {}", last + 1),
                needle,
            ],
        );
        assert_eq!(
            std::fs::read_to_string(victim.join("01.out")).unwrap(),
            "another lab's expected output\n",
            "{line}"
        );
    }
}

#[test]
fn case_files_that_link_out_of_the_source_folder_are_refused() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join(".gitconfig");
    std::fs::write(&secret, "[user]\n\temail = teacher@example.org\n").unwrap();
    // output0.txt -> a private file: it must never become a sample students see.
    for file in ["output/output0.txt", "input/input3.txt"] {
        let contest = cms_task_copy(|task| {
            std::fs::remove_file(task.join(file)).unwrap();
            std::os::unix::fs::symlink(&secret, task.join(file)).unwrap();
        });
        assert_import_refused(
            contest.path(),
            &[&format!("exclusive_or/{file}"), "leads out"],
        );
    }
    // A link through `..` that climbs out is refused as well.
    let climbing = cms_task_copy(|task| {
        std::fs::remove_file(task.join("output/output1.txt")).unwrap();
        let up = "../".repeat(task.components().count() + 2);
        std::os::unix::fs::symlink(
            format!("{up}{}", secret.display()),
            task.join("output/output1.txt"),
        )
        .unwrap();
    });
    assert_import_refused(climbing.path(), &["output/output1.txt", "leads out"]);
    // A task folder, or the input folder, that is a link out of the contest.
    let elsewhere = tempfile::tempdir().unwrap();
    common::copy_dir(
        &cms_data().join("exclusive_or"),
        &elsewhere.path().join("exclusive_or"),
    );
    let linked_task = cms_task_copy(|task| {
        std::fs::remove_dir_all(task).unwrap();
        std::os::unix::fs::symlink(elsewhere.path().join("exclusive_or"), task).unwrap();
    });
    assert_import_refused(linked_task.path(), &["exclusive_or", "leads out"]);
    let linked_folder = cms_task_copy(|task| {
        std::fs::remove_dir_all(task.join("input")).unwrap();
        std::os::unix::fs::symlink(
            elsewhere.path().join("exclusive_or/input"),
            task.join("input"),
        )
        .unwrap();
    });
    assert_import_refused(linked_folder.path(), &["exclusive_or/input", "leads out"]);
    // A link that stays inside the contest folder is read as the file it leads to.
    let inside = cms_task_copy(|task| {
        std::fs::create_dir(task.join("../common-inputs")).unwrap();
        std::fs::rename(
            task.join("input/input0.txt"),
            task.join("../common-inputs/in0.txt"),
        )
        .unwrap();
        std::os::unix::fs::symlink("../../common-inputs/in0.txt", task.join("input/input0.txt"))
            .unwrap();
    });
    let out = inside.outer().join("lab");
    let output = import(inside.path(), &out);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(out.join("fixtures/exclusive_or/sample/00.in")).unwrap(),
        std::fs::read_to_string(cms_data().join("exclusive_or/input/input0.txt")).unwrap()
    );
    assert_eq!(
        std::fs::read_to_string(&secret).unwrap(),
        "[user]\n\temail = teacher@example.org\n"
    );
}

#[test]
fn a_fifo_or_a_device_in_the_source_folder_is_refused_without_waiting() {
    let fifo = cms_task_copy(|task| {
        std::fs::remove_file(task.join("input/input1.txt")).unwrap();
        let path =
            std::ffi::CString::new(task.join("input/input1.txt").as_os_str().as_encoded_bytes())
                .unwrap();
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
    });
    let started = std::time::Instant::now();
    assert_import_refused(fifo.path(), &["input/input1.txt", "not a regular file"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    // /dev/zero is outside the folder; a link to it is refused before anything is read.
    let zero = cms_task_copy(|task| {
        std::fs::remove_file(task.join("output/output2.txt")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", task.join("output/output2.txt")).unwrap();
    });
    assert_import_refused(zero.path(), &["output/output2.txt", "leads out"]);
}

#[test]
fn contest_task_names_cannot_leave_the_contest_folder() {
    for task in ["../outside/x", "/tmp", "..", "a/b", "Exclusive_Or"] {
        let contest = cms_task_copy(|_| {});
        // A real, valid task waits at the place the name points to.
        let outside = contest.outer().join("outside/x");
        common::copy_dir(&cms_data().join("exclusive_or"), &outside);
        std::fs::write(
            contest.path().join("contest.yaml"),
            format!("tasks:\n  - {}\n", serde_json::to_string(task).unwrap()),
        )
        .unwrap();
        assert_import_refused(
            contest.path(),
            &[
                "contest.yaml",
                &format!("`{task}`"),
                "not a task folder name",
            ],
        );
    }
    let twice = cms_task_copy(|_| {});
    std::fs::write(
        twice.path().join("contest.yaml"),
        "tasks:\n  - exclusive_or\n  - exclusive_or\n",
    )
    .unwrap();
    assert_import_refused(twice.path(), &["contest.yaml", "twice"]);
}

#[test]
fn huge_or_odd_numbers_in_task_yaml_are_clear_errors() {
    let with = |key: &str, value: &str| {
        cms_task_copy(|task| {
            let yaml = std::fs::read_to_string(task.join("task.yaml")).unwrap();
            let yaml: String = yaml
                .lines()
                .filter(|l| !l.starts_with(&format!("{key}:")))
                .map(|l| format!("{l}\n"))
                .collect();
            std::fs::write(task.join("task.yaml"), format!("{yaml}{key}: {value}\n")).unwrap();
        })
    };
    for (value, needle) in [
        ("18446744073709551615", "at most 10000 test cases"),
        ("100000000000", "at most 10000 test cases"),
        ("-1", "must be a whole number, not -1"),
        ("2.5", "must be a whole number, not 2.5"),
        ("\"four\"", "must be a whole number"),
    ] {
        assert_import_refused(
            with("n_input", value).path(),
            &["exclusive_or/task.yaml", "n_input", needle],
        );
    }
    for (key, value) in [
        ("time_limit", ".inf"),
        ("time_limit", "-1"),
        ("time_limit", "1e300"),
        ("memory_limit", "0"),
        ("memory_limit", ".nan"),
    ] {
        assert_import_refused(
            with(key, value).path(),
            &["exclusive_or/task.yaml", key, "must be a number above 0"],
        );
    }
}

#[test]
fn a_refused_import_leaves_no_folder_behind() {
    // The lab would go two new folders deep; a case's expected output is not text.
    let contest = cms_task_copy(|task| {
        std::fs::write(task.join("output/output3.txt"), [0xff, 0xfe]).unwrap();
    });
    let before = snapshot(contest.outer());
    let out = contest.outer().join("new/deeper/lab");
    let output = import(contest.path(), &out);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("output/output3.txt") && stderr.contains("not UTF-8"),
        "{stderr}"
    );
    assert_eq!(before, snapshot(contest.outer()));
    // A lab that fails only once written (a task of nimlab's own whose checker nimlab does
    // not have under the new name) is refused after staging: the staging folder and the
    // new folders made for it are gone.
    let contest = exported_contest();
    let task = contest.path().join("mystery");
    std::fs::rename(contest.path().join("optimal_move"), &task).unwrap();
    for file in [contest.path().join("contest.yaml"), task.join("task.yaml")] {
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(&file, text.replace("optimal_move", "mystery")).unwrap();
    }
    let before = snapshot(contest.outer());
    let out = contest.outer().join("new/deeper/lab");
    let output = import(contest.path(), &out);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("would not load") && stderr.contains("new/deeper/lab/exercises/mystery"),
        "{stderr}"
    );
    assert!(
        !stderr.contains(".nimlab-out-"),
        "names the staging folder: {stderr}"
    );
    assert_eq!(before, snapshot(contest.outer()));
    // A broken exercise.toml from a nimlab export is named as the file it came from.
    let contest = exported_contest();
    let config = contest.path().join("optimal_move/nimlab/exercise.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text.replace("comparison = \"checker\"", "comparison = \"bogus\""),
    )
    .unwrap();
    assert_import_refused(
        contest.path(),
        &["optimal_move/nimlab/exercise.toml", "bogus"],
    );
}

/// An optimal_move case in `dir`: input and answer files, and an empty feedback folder.
fn optimal_move_case(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let (input, answer, feedback) = (dir.join("in"), dir.join("ans"), dir.join("feedback"));
    std::fs::write(&input, "{\"board\": [5, 4, 3, 2, 1]}\n").unwrap();
    std::fs::write(&answer, "[1, 1]\n").unwrap();
    std::fs::create_dir(&feedback).unwrap();
    (input, answer, feedback)
}

#[test]
fn the_kattis_checker_never_writes_through_a_planted_link() {
    let dir = tempfile::tempdir().unwrap();
    let (input, answer, feedback) = optimal_move_case(dir.path());
    let target = dir.path().join("precious.txt");
    std::fs::write(&target, "do not touch\n").unwrap();
    let message = feedback.join("judgemessage.txt");
    let dangling = dir.path().join("created-through-the-link.txt");
    for (link_to, needle) in [(&target, "symbolic link"), (&dangling, "symbolic link")] {
        std::fs::remove_file(&message).ok();
        std::os::unix::fs::symlink(link_to, &message).unwrap();
        for output in ["[3, 1]\n", "[5, 2]\n"] {
            let result = nimlab()
                .args(["checker", "optimal_move", "--kattis"])
                .args([&input, &answer, &feedback])
                .write_stdin(output)
                .output()
                .unwrap();
            // Neither accepted (42) nor wrong (43): the judging system reports its own error.
            assert_eq!(result.status.code(), Some(2), "{output}");
            let stderr = String::from_utf8_lossy(&result.stderr);
            assert!(
                stderr.contains("judgemessage.txt") && stderr.contains(needle),
                "{stderr}"
            );
        }
    }
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "do not touch\n");
    assert!(!dangling.exists(), "a file was created through the link");
    // A hard link to another file, or a FIFO, is refused too (the FIFO without waiting).
    std::fs::remove_file(&message).unwrap();
    std::fs::hard_link(&target, &message).unwrap();
    nimlab()
        .args(["checker", "optimal_move", "--kattis"])
        .args([&input, &answer, &feedback])
        .write_stdin("[3, 1]\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("hard link"));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "do not touch\n");
    std::fs::remove_file(&message).unwrap();
    let path = std::ffi::CString::new(message.as_os_str().as_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
    nimlab()
        .args(["checker", "optimal_move", "--kattis"])
        .args([&input, &answer, &feedback])
        .write_stdin("[3, 1]\n")
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("FIFO"));
    // The feedback file of its own is appended to, as the Kattis format allows.
    std::fs::remove_file(&message).unwrap();
    std::fs::write(&message, "earlier\n").unwrap();
    nimlab()
        .args(["checker", "optimal_move", "--kattis"])
        .args([&input, &answer, &feedback])
        .write_stdin("[3, 1]\n")
        .assert()
        .code(42);
    assert_eq!(
        std::fs::read_to_string(&message).unwrap(),
        "earlier\naccepted\n"
    );
}

#[test]
fn checker_messages_quote_only_the_start_of_a_huge_output() {
    let dir = tempfile::tempdir().unwrap();
    let (input, answer, feedback) = (
        dir.path().join("in"),
        dir.path().join("ans"),
        dir.path().join("feedback"),
    );
    std::fs::write(&input, "{\"type\": \"num_bin\", \"value\": 5}\n").unwrap();
    std::fs::write(&answer, "[1, 0, 1]\n").unwrap();
    std::fs::create_dir(&feedback).unwrap();
    // A 100,000-digit answer where a list was expected (within bin_num's output limit).
    let huge = format!("{}\n", "9".repeat(100_000));
    nimlab()
        .args(["checker", "bin_num", "--kattis"])
        .args([&input, &answer, &feedback])
        .write_stdin(huge.clone())
        .assert()
        .code(43);
    let message = std::fs::read_to_string(feedback.join("judgemessage.txt")).unwrap();
    assert!(message.len() < 600, "{} bytes: {message}", message.len());
    assert!(
        message.contains("999") && message.contains("more"),
        "{message}"
    );
    // The CMS protocol's message is bounded the same way.
    let output = dir.path().join("out");
    std::fs::write(&output, &huge).unwrap();
    let result = nimlab()
        .args(["checker", "bin_num", "--cms"])
        .args([&input, &answer, &output])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&result.stdout), "0.0\n");
    assert!(result.stderr.len() < 600, "{} bytes", result.stderr.len());
}

#[test]
fn the_kattis_checker_stops_reading_past_the_output_limit() {
    let dir = tempfile::tempdir().unwrap();
    let (input, answer, feedback) = optimal_move_case(dir.path());
    let bin = assert_cmd::cargo::cargo_bin("nimlab");
    // 300 MB of output under a 100 MB address-space limit: reading it all would fail.
    let mut child = Command::new("bash")
        .arg("-c")
        .arg("ulimit -v 100000; exec \"$0\" checker optimal_move --kattis \"$1\" \"$2\" \"$3\"")
        .arg(&bin)
        .args([&input, &answer, &feedback])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let chunk = vec![b'7'; 1 << 20];
        let mut written = 0usize;
        for _ in 0..300 {
            // The checker stops reading and exits: the pipe breaks, as it should.
            if stdin.write_all(&chunk).is_err() {
                break;
            }
            written += chunk.len();
        }
        written
    });
    let output = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    assert_eq!(
        output.status.code(),
        Some(43),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(written < 300 << 20, "the checker read all {written} bytes");
    let message = std::fs::read_to_string(feedback.join("judgemessage.txt")).unwrap();
    assert!(
        message.contains("longer than the exercise's limit of 64 KB"),
        "{message}"
    );
}

#[test]
fn exported_statements_cannot_inject_latex() {
    let lab = common::lab_with(&["make_move"], |_| {});
    let readme = lab.path().join("exercises/make_move/README.md");
    let statement = std::fs::read_to_string(&readme).unwrap();
    std::fs::write(
        &readme,
        format!(
            "{statement}\n```\n\\end{{verbatim}}\\input{{/etc/passwd}}\n```\n\n    \\end{{verbatim}}\\write18{{touch x}}\n\n| \\end{{verbatim}}\\input{{/etc/shadow}} |\n\nText \\include{{/etc/hosts}} `\\def\\x{{}}`\n"
        ),
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    nimlab()
        .arg("--lab")
        .arg(lab.path())
        .args(["export", "kattis", "--out"])
        .arg(out.path().join("kattis"))
        .assert()
        .success();
    let tex = std::fs::read_to_string(
        out.path()
            .join("kattis/makemove/problem_statement/problem.en.tex"),
    )
    .unwrap();
    for command in [
        "\\input",
        "\\write18",
        "\\include",
        "\\def",
        "\\end{verbatim}",
    ] {
        assert!(!tex.contains(command), "{command} in:\n{tex}");
    }
    assert!(
        tex.contains("\\textbackslash{}end\\{verbatim\\}\\textbackslash{}input\\{/etc/passwd\\}"),
        "the code is shown, escaped:\n{tex}"
    );
}

#[test]
fn a_single_task_folder_imports_even_when_named_dot() {
    let contest = cms_task_copy(|_| {});
    let out = contest.outer().join("lab");
    nimlab()
        .current_dir(contest.path().join("exclusive_or"))
        .args(["import", "cms", ".", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Imported 1 exercise(s) with 4 case(s)",
        ));
    assert!(out.join("fixtures/exclusive_or/sample/00.in").is_file());
}
