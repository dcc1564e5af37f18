//! Kattis problem packages, in the format's `legacy` version (the one judging systems such as
//! DOMjudge and Kattis's problemtools read): one folder per exercise with problem.yaml, a LaTeX
//! statement, data/{sample,secret}/*.in|.ans, the model solution as an accepted submission,
//! an input validator, and (where the default diff would judge differently) nimlab as the
//! output validator.

use super::{put, put_script, write_folder};
use crate::exercises::Judging;
use crate::lab::config::Comparison;
use crate::lab::{Lab, LabExercise};
use anyhow::Result;
use std::path::Path;

/// A package folder's name: lowercase letters and digits only.
pub fn package_name(exercise: &str) -> String {
    exercise
        .chars()
        .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        .collect()
}

/// Text files in a package end with a newline.
fn with_final_newline(text: &str) -> String {
    if text.is_empty() || text.ends_with('\n') {
        text.to_string()
    } else {
        format!("{text}\n")
    }
}

/// Where Kattis's default validator (tokens, case-sensitive with the flag) would judge as
/// nimlab does, it is used; otherwise nimlab judges.
fn custom_validation(exercise: &LabExercise) -> bool {
    !matches!(
        exercise.judging(),
        Judging::Expected(Comparison::Tokens | Comparison::Lines)
    )
}

fn escape_latex(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '_' | '%' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out.push_str("\\^{}"),
            '~' => out.push_str("\\~{}"),
            c => out.push(c),
        }
    }
    out
}

/// Inline Markdown (`code`, **bold**) as LaTeX.
fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, piece) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("\\texttt{{{}}}", escape_latex(piece)));
            continue;
        }
        for (j, part) in piece.split("**").enumerate() {
            if j % 2 == 1 {
                out.push_str(&format!("\\textbf{{{}}}", escape_latex(part)));
            } else {
                out.push_str(&escape_latex(part));
            }
        }
    }
    out
}

/// The statement as LaTeX: headings, lists, code and tables (as verbatim blocks) and text.
pub fn statement_tex(title: &str, markdown: &str) -> String {
    let mut out = format!("\\problemname{{{}}}\n\n", escape_latex(title));
    let mut verbatim = false;
    let mut table = false;
    let mut list = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            out.push_str(if verbatim {
                "\\end{verbatim}\n"
            } else {
                "\\begin{verbatim}\n"
            });
            verbatim = !verbatim;
            continue;
        }
        if verbatim {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let is_table = line.trim_start().starts_with('|');
        if is_table != table {
            out.push_str(if table {
                "\\end{verbatim}\n"
            } else {
                "\\begin{verbatim}\n"
            });
            table = is_table;
        }
        if table {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let item = line.strip_prefix("- ").or_else(|| line.strip_prefix("* "));
        if item.is_some() != list && !(list && line.starts_with("  ")) {
            out.push_str(if list {
                "\\end{itemize}\n"
            } else {
                "\\begin{itemize}\n"
            });
            list = !list;
        }
        if let Some(heading) = line.strip_prefix("# ") {
            // The title is the problem name already.
            let _ = heading;
        } else if let Some(heading) = line.strip_prefix("## ") {
            out.push_str(&format!("\\section*{{{}}}\n", inline(heading)));
        } else if let Some(item) = item {
            out.push_str(&format!("\\item {}\n", inline(item)));
        } else if line.starts_with("    ") {
            out.push_str(&format!(
                "\\begin{{verbatim}}\n{}\n\\end{{verbatim}}\n",
                line.trim_start()
            ));
        } else {
            out.push_str(&inline(line));
            out.push('\n');
        }
    }
    for (open, end) in [
        (verbatim || table, "\\end{verbatim}\n"),
        (list, "\\end{itemize}\n"),
    ] {
        if open {
            out.push_str(end);
        }
    }
    out
}

fn problem_yaml(exercise: &LabExercise) -> String {
    let c = &exercise.config;
    let validation = if custom_validation(exercise) {
        "validation: custom\n".to_string()
    } else {
        "validation: default\nvalidator_flags: case_sensitive\n".to_string()
    };
    format!(
        "problem_format_version: legacy\nname: {}\nsource: nimlab\nlicense: educational\nrights_owner: nimlab\n{validation}limits:\n  memory: {}\n  output: {}\n",
        serde_json::to_string(&c.title).expect("a string serializes"),
        c.limits.memory_mb,
        c.limits.output_kb.div_ceil(1024).max(1),
    )
}

/// Exports every stdin exercise as a Kattis problem package below `out`; returns the
/// exercises left out (interactive ones).
pub fn export(lab: &Lab, out: &Path) -> Result<Vec<String>> {
    let (exported, skipped): (Vec<&LabExercise>, Vec<&LabExercise>) = lab
        .exercises
        .iter()
        .partition(|e| !matches!(e.judging(), Judging::Interactive(_)));
    write_folder(out, |root| {
        for exercise in &exported {
            let name = &exercise.name;
            let package = package_name(name);
            let at = |relative: &str| format!("{package}/{relative}");
            put(root, &at("problem.yaml"), problem_yaml(exercise).as_bytes())?;
            let tex = statement_tex(&exercise.config.title, &exercise.statement);
            put(
                root,
                &at("problem_statement/problem.en.tex"),
                tex.as_bytes(),
            )?;
            for case in &exercise.cases {
                // Case names are `sample/NAME` and `secret/NAME`, as the data folders are.
                let stem = &case.name;
                put(
                    root,
                    &at(&format!("data/{stem}.in")),
                    with_final_newline(case.input.text()).as_bytes(),
                )?;
                put(
                    root,
                    &at(&format!("data/{stem}.ans")),
                    with_final_newline(&case.expected).as_bytes(),
                )?;
            }
            if let Some(solution) = &exercise.solution {
                // Kattis tells Python 3 from Python 2 by the first line.
                let submission =
                    format!("#!/usr/bin/env python3\n{}", with_final_newline(solution));
                put(
                    root,
                    &at(&format!("submissions/accepted/{name}.py")),
                    submission.as_bytes(),
                )?;
            }
            // nimlab must be on the judging machine's PATH for these programs.
            put_script(
                root,
                &at("input_validators/nimlab/run"),
                &format!("exec nimlab checker {name} --input-validator\n"),
            )?;
            if custom_validation(exercise) {
                put_script(
                    root,
                    &at("output_validators/nimlab/run"),
                    &format!("exec nimlab checker {name} --kattis \"$1\" \"$2\" \"$3\"\n"),
                )?;
            }
        }
        Ok(())
    })?;
    Ok(skipped.into_iter().map(|e| e.name.clone()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_names_are_lowercase_letters_and_digits() {
        assert_eq!(package_name("present_board"), "presentboard");
        assert_eq!(package_name("ui"), "ui");
    }

    #[test]
    fn markdown_becomes_latex() {
        let tex = statement_tex(
            "A & B",
            "# A & B\n\nTake `x ^ y` **now**: 50%.\n\n## Input\n\n- one\n- two\n\n```\nNim:\n1: X\n```\n| a | b |\n| --- | --- |\n",
        );
        assert!(tex.starts_with("\\problemname{A \\& B}\n"), "{tex}");
        assert!(
            tex.contains("Take \\texttt{x \\^{} y} \\textbf{now}: 50\\%."),
            "{tex}"
        );
        assert!(tex.contains("\\section*{Input}"), "{tex}");
        assert!(
            tex.contains("\\begin{itemize}\n\\item one\n\\item two\n\\end{itemize}"),
            "{tex}"
        );
        assert!(
            tex.contains("\\begin{verbatim}\nNim:\n1: X\n\\end{verbatim}"),
            "{tex}"
        );
        assert!(
            tex.contains("\\begin{verbatim}\n| a | b |\n| --- | --- |\n\\end{verbatim}"),
            "{tex}"
        );
    }
}
