//! The exported Kattis packages checked by Kattis's own tool, problemtools' `verifyproblem`,
//! with nimlab's validators in use: the format is judged by the program that consumes it.
//!
//! verifyproblem is found through NIMLAB_VERIFYPROBLEM or in the virtual environment that
//! .ci/run installs (~/.cache/nimlab/problemtools-venv). Without it these tests are skipped by
//! name, or fail under CI (see `common::tool_missing`).

use crate::common::{lab_with, nimlab, root, write_png};
use std::path::{Path, PathBuf};
use std::process::Command;

fn verifyproblem() -> Option<PathBuf> {
    let candidate = match std::env::var_os("NIMLAB_VERIFYPROBLEM") {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(std::env::var_os("HOME")?)
            .join(".cache/nimlab/problemtools-venv/bin/verifyproblem"),
    };
    if candidate.is_file() {
        return Some(candidate);
    }
    crate::common::tool_missing(
        &format!(
            "problemtools' verifyproblem (looked for at {})",
            candidate.display()
        ),
        "python3 -m venv ~/.cache/nimlab/problemtools-venv && ~/.cache/nimlab/problemtools-venv/bin/pip install problemtools (or set NIMLAB_VERIFYPROBLEM to one installed elsewhere)",
        "the Kattis packages were not checked by problemtools",
    );
    None
}

/// A place for one check: the exported packages, problemtools' configuration and its
/// scratch files, all in one temporary folder.
struct Workspace {
    dir: tempfile::TempDir,
}

impl Workspace {
    fn new() -> Workspace {
        let dir = tempfile::tempdir().unwrap();
        nimlab()
            .args(["export", "kattis", "--out"])
            .arg(dir.path().join("kattis"))
            .assert()
            .success();
        // problemtools runs Python 3 with PyPy unless its languages.yaml says otherwise;
        // nimlab's lab runs under CPython.
        let config = dir.path().join("config/problemtools");
        std::fs::create_dir_all(&config).unwrap();
        std::fs::write(
            config.join("languages.yaml"),
            "python3:\n    name: 'Python 3 (CPython)'\n    compile: 'python3 -m py_compile {files}'\n    run: 'python3 \"{mainfile}\"'\n",
        )
        .unwrap();
        std::fs::create_dir(dir.path().join("tmp")).unwrap();
        Workspace { dir }
    }

    fn package(&self, name: &str) -> PathBuf {
        self.dir.path().join("kattis").join(name)
    }

    /// `verifyproblem PACKAGE -p PARTS`, with this build's nimlab on PATH: exit code and
    /// everything it printed.
    fn verify(&self, tool: &Path, package: &Path, parts: &[&str]) -> (i32, String) {
        let bin = assert_cmd::cargo::cargo_bin("nimlab");
        let path = format!(
            "{}:{}",
            bin.parent().unwrap().display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let output = Command::new(tool)
            .arg(package)
            .arg("-p")
            .args(parts)
            .env("PATH", path)
            .env("XDG_CONFIG_HOME", self.dir.path().join("config"))
            .env("TMPDIR", self.dir.path().join("tmp"))
            .current_dir(self.dir.path())
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        (output.status.code().unwrap_or(-1), text)
    }
}

/// Every check of verifyproblem but the statement's (which needs LaTeX).
const ALL_BUT_STATEMENT: [&str; 5] = ["config", "data", "validators", "graders", "submissions"];

#[test]
fn every_exported_package_passes_verifyproblem() {
    let Some(tool) = verifyproblem() else { return };
    let work = Workspace::new();
    let packages: Vec<PathBuf> = std::fs::read_dir(work.dir.path().join("kattis"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(packages.len(), 9);
    for package in &packages {
        let (code, report) = work.verify(&tool, package, &ALL_BUT_STATEMENT);
        let name = package.file_name().unwrap().to_string_lossy();
        assert_eq!(code, 0, "{name}:\n{report}");
        assert!(report.contains(" 0 errors"), "{name}:\n{report}");
        // problemtools found nimlab's programs: one input validator, and an output
        // validator wherever the package asks for custom validation.
        assert!(
            report.contains("Checking 1 input validator"),
            "{name}:\n{report}"
        );
        assert!(
            !report.contains("no validator programs found"),
            "{name}:\n{report}"
        );
        assert!(
            report.contains("OK: AC"),
            "{name}: the model solution ran:\n{report}"
        );
    }
}

/// The model solution's main block, printing with `print_line` instead.
fn solution_printing(exercise: &str, print_line: &str) -> String {
    let solution =
        std::fs::read_to_string(root().join(format!("exercises/{exercise}/solution.py"))).unwrap();
    let (before, _) = solution
        .rsplit_once("    print(json.dumps(")
        .expect("the solution prints JSON");
    format!("#!/usr/bin/env python3\n{before}    {print_line}\n")
}

fn add_submission(package: &Path, verdict: &str, name: &str, source: &str) {
    let folder = package.join("submissions").join(verdict);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join(name), source).unwrap();
}

#[test]
// A story told in order: one package, and each verdict verifyproblem gives it checked in turn.
#[allow(clippy::too_many_lines)]
fn verifyproblem_judges_with_nimlabs_validator() {
    let Some(tool) = verifyproblem() else { return };
    let work = Workspace::new();

    // make_move: the right answer written as compact JSON differs from every stored answer
    // token by token; a move that does not change the board is wrong.
    let make_move = work.package("makemove");
    add_submission(
        &make_move,
        "accepted",
        "compact.py",
        &solution_printing(
            "make_move",
            "print(json.dumps(result, separators=(\",\", \":\")))",
        ),
    );
    add_submission(
        &make_move,
        "wrong_answer",
        "board_unchanged.py",
        &solution_printing("make_move", "print(json.dumps([board_before, True]))"),
    );

    // optimal_move: another winning move than the stored one (the last row that wins, and
    // on a losing board one element from the last row) is right; one element from the
    // first row is not.
    let optimal_move = work.package("optimalmove");
    let mover = |pick_last: bool| {
        format!(
            r#"#!/usr/bin/env python3
import json
import sys

board = json.loads(sys.stdin.read())["board"]
total = 0
for size in board:
    total ^= size
rows = [i for i, size in enumerate(board) if size > 0]
move = None
if {pick_last}:
    for i, size in enumerate(board):
        if total ^ size < size:
            move = [i + 1, size - (total ^ size)]
    if move is None:
        move = [rows[-1] + 1, 1]
else:
    move = [rows[0] + 1, 1]
print(json.dumps(move, separators=(",", ":")))
"#,
            pick_last = if pick_last { "True" } else { "False" }
        )
    };
    add_submission(
        &optimal_move,
        "accepted",
        "last_winning_row.py",
        &mover(true),
    );
    add_submission(&optimal_move, "wrong_answer", "first_row.py", &mover(false));

    for (package, accepted, wrong) in [
        (
            &make_move,
            "accepted/compact.py",
            "wrong_answer/board_unchanged.py",
        ),
        (
            &optimal_move,
            "accepted/last_winning_row.py",
            "wrong_answer/first_row.py",
        ),
    ] {
        let (code, report) = work.verify(&tool, package, &["submissions"]);
        assert_eq!(code, 0, "{}:\n{report}", package.display());
        assert!(report.contains(" 0 errors"), "{report}");
        let verdict_of = |submission: &str| {
            report
                .lines()
                .find(|l| l.contains(submission) && l.contains("OK:"))
                .unwrap_or_else(|| panic!("no verdict for {submission}:\n{report}"))
                .to_string()
        };
        assert!(verdict_of(accepted).contains("OK: AC"), "{report}");
        assert!(verdict_of(wrong).contains("OK: WA"), "{report}");
    }

    // The same package judged by Kattis's default validator rejects the compact answer: the
    // verdicts above are nimlab's validator's, not the default diff's.
    let default_diff = work.dir.path().join("kattis/makemovedefault");
    std::fs::rename(&make_move, &default_diff).unwrap();
    std::fs::remove_dir_all(default_diff.join("output_validators")).unwrap();
    let yaml = std::fs::read_to_string(default_diff.join("problem.yaml")).unwrap();
    std::fs::write(
        default_diff.join("problem.yaml"),
        yaml.replace("validation: custom", "validation: default"),
    )
    .unwrap();
    let (code, report) = work.verify(&tool, &default_diff, &["submissions"]);
    assert_ne!(code, 0, "{report}");
    assert!(
        report
            .lines()
            .any(|l| l.contains("compact.py") && l.contains("WA")),
        "{report}"
    );
}

/// A stand-in for TeX's `kpsewhich`, which plasTeX asks where a file is: the file as named,
/// or found in `$TEXINPUTS` (this machine may have no TeX installed; plasTeX needs no more).
const KPSEWHICH: &str = r#"#!/bin/sh
case "$1" in /*) [ -f "$1" ] && echo "$1"; exit 0;; esac
IFS=:
for d in $TEXINPUTS .; do [ -n "$d" ] && [ -f "$d/$1" ] && { echo "$d/$1"; exit 0; }; done
exit 1
"#;

#[test]
fn a_statements_images_are_drawn_in_the_kattis_statement_whatever_their_names() {
    let Some(tool) = verifyproblem() else { return };
    let problem2html = tool.with_file_name("problem2html");
    assert!(problem2html.is_file(), "{}", problem2html.display());
    let lab = lab_with(&["present_board"], |_| {});
    let statement = lab.path().join("exercises/present_board");
    // A plain name, one full of LaTeX's special characters, and one in a subfolder with a
    // space; and a file outside the statement's folder that the statement points at.
    let odd = "50% & #1 {x}~$^.png";
    std::fs::create_dir(statement.join("img")).unwrap();
    for name in ["board.png", odd, "img/heap one.png"] {
        write_png(&statement.join(name), 40, 20);
    }
    write_png(&lab.path().join("outside.png"), 40, 20);
    let readme = statement.join("README.md");
    let text = std::fs::read_to_string(&readme).unwrap();
    std::fs::write(
        &readme,
        format!(
            "{text}\n![A board](board.png)\n\n![Odd](50%25%20&%20%231%20%7Bx%7D~$%5E.png)\n\n- ![A heap](<img/heap one.png>)\n\n![Outside](../../outside.png)\n\nThe last words.\n"
        ),
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    nimlab()
        .args(["export", "kattis", "--lab"])
        .arg(lab.path())
        .arg("--out")
        .arg(out.path())
        .assert()
        .success();
    let package = out.path().join("presentboard");
    let tex = std::fs::read_to_string(package.join("problem_statement/problem.en.tex")).unwrap();
    assert_eq!(tex.matches("\\includegraphics").count(), 3, "{tex}");
    assert!(tex.contains("{board.png}"), "{tex}");
    assert!(
        tex.contains("Outside (file \\texttt{../../outside.png})"),
        "{tex}"
    );
    // Nothing outside the package was written, nor the outside file copied into it.
    let written: Vec<_> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(written, ["presentboard"]);
    assert!(!package.join("outside.png").exists());
    assert!(package.join("problem_statement").join(odd).is_file());

    // problemtools' HTML statement (plasTeX reads the LaTeX as Kattis shows it): the
    // document is read to its end and draws the three images.
    let bin = out.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let kpsewhich = bin.join("kpsewhich");
    std::fs::write(&kpsewhich, KPSEWHICH).unwrap();
    std::fs::set_permissions(
        &kpsewhich,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let html = out.path().join("html");
    let output = Command::new(&problem2html)
        .arg("-d")
        .arg(&html)
        .arg(&package)
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .env("TMPDIR", out.path())
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{said}");
    assert!(!said.contains("ERROR"), "{said}");
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert_eq!(page.matches("<img ").count(), 3, "{said}\n{page}");
    assert!(page.contains("The last words."), "{page}");
}
