//! Kattis problem packages, in the format's `legacy` version (the one judging systems such as
//! DOMjudge and Kattis's problemtools read): one folder per exercise with problem.yaml, a LaTeX
//! statement, data/{sample,secret}/*.in|.ans, the model solution as an accepted submission,
//! an input validator, and (where the default diff would judge differently) nimlab as the
//! output validator.

use super::{put, put_script, write_folder};
use crate::error::Result;
use crate::escape::{latex, latex_file_name};
use crate::exercises::Comparison;
use crate::exercises::Judging;
use crate::lab::{Lab, LabExercise};
use std::collections::BTreeSet;
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

/// Where Kattis's default validator (tokens, case-sensitive with the flag) judges as nimlab
/// does, it is used; otherwise nimlab judges. CMS's white-diff (`lines`) is not the default
/// validator: that one reads tokens and would accept a board printed on one line.
fn custom_validation(exercise: &LabExercise) -> bool {
    !matches!(exercise.judging(), Judging::Expected(Comparison::Tokens))
}

/// Inline Markdown (`code`, **bold**) as LaTeX, every character escaped.
fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, piece) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("\\texttt{{{}}}", latex(piece)));
            continue;
        }
        for (j, part) in piece.split("**").enumerate() {
            if j % 2 == 1 {
                out.push_str(&format!("\\textbf{{{}}}", latex(part)));
            } else {
                out.push_str(&latex(part));
            }
        }
    }
    out
}

/// Lines shown as they are, in a typewriter font: each character escaped (so no line can
/// end the block or run a command, as `\end{verbatim}` could inside `verbatim`), spaces kept
/// as non-breaking spaces, lines broken where the source breaks them.
fn code_block(lines: &[&str]) -> String {
    let mut out = String::from("\\begin{flushleft}\\ttfamily\n");
    for (i, line) in lines.iter().enumerate() {
        let text = latex(line).replace([' ', '\t'], "~");
        out.push_str(if text.is_empty() { "\\mbox{}" } else { &text });
        out.push_str(if i + 1 < lines.len() { "\\\\\n" } else { "\n" });
    }
    out.push_str("\\end{flushleft}\n");
    out
}

/// What part of the Markdown a line is in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    Text,
    Fenced,
    Table,
    Indented,
}

/// Whether `name`, a statement file, is an image pdfLaTeX draws with `\includegraphics` (as
/// problemtools builds statements): a PNG, JPEG or PDF.
fn drawable(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [".png", ".jpg", ".jpeg", ".pdf"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}

/// The name under which the package's statement draws the image `file`: its own where LaTeX
/// can read it as it is ([`latex_file_name`]), else a plain one made from it
/// (`nimlab-image-` and a hash of the name, with its extension), a copy the export writes
/// beside it.
fn drawn_name(file: &str) -> String {
    if let Some(plain) = latex_file_name(file) {
        return plain.to_string();
    }
    use sha2::Digest;
    let hash = sha2::Sha256::digest(file.as_bytes());
    let hex: String = hash[..8].iter().map(|b| format!("{b:02x}")).collect();
    let extension = file
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default();
    format!("nimlab-image-{hex}.{extension}")
}

/// The file a Markdown image's destination names, as a browser would ask the website for
/// it: `<...>` and a `"title"` taken off, `%XX` decoded, a leading `./` dropped.
fn image_target(destination: &str) -> String {
    let destination = destination.trim();
    let destination = match destination.strip_prefix('<') {
        Some(inner) => inner.split_once('>').map_or(inner, |(path, _)| path),
        None => destination
            .split_once(' ')
            .map_or(destination, |(path, _)| path),
    };
    let bytes = destination.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match hex {
            Some(byte) => {
                decoded.push(byte);
                i += 3;
            }
            None => {
                decoded.push(bytes[i]);
                i += 1;
            }
        }
    }
    let decoded = String::from_utf8_lossy(&decoded).into_owned();
    match decoded.strip_prefix("./") {
        Some(rest) => rest.to_string(),
        None => decoded,
    }
}

/// A line of text as LaTeX, where each Markdown image `![alt](file)` naming one of the
/// statement's `files` that LaTeX can draw becomes a centred figure (under [`drawn_name`]);
/// any other image (one LaTeX cannot draw, or a file that is not beside the statement, such
/// as `../x.png`) is named by its description and file, escaped, as a reader of the PDF can
/// find it beside the statement.
fn text_line(line: &str, files: &BTreeSet<&str>) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find("![") {
        let image = rest[start + 2..].split_once("](").and_then(|(alt, tail)| {
            tail.split_once(')')
                .map(|(target, after)| (alt, target.trim(), after))
        });
        let Some((alt, target, after)) = image else {
            break;
        };
        out.push_str(&inline(&rest[..start]));
        let file = image_target(target);
        if files.contains(file.as_str()) && drawable(&file) {
            out.push_str(&format!(
                "\\begin{{center}}\\includegraphics[width=0.6\\textwidth]{{{}}}\\end{{center}}",
                drawn_name(&file)
            ));
        } else {
            out.push_str(&inline(&format!("{alt} (file `{target}`)")));
        }
        rest = after;
    }
    out.push_str(&inline(rest));
    out
}

/// The statement as LaTeX: headings, lists, code and tables (as typewriter blocks), text and
/// the images among its `files`. Every character of the Markdown reaches the LaTeX escaped.
pub fn statement_tex(title: &str, markdown: &str, files: &BTreeSet<&str>) -> String {
    let mut out = format!("\\problemname{{{}}}\n\n", latex(title));
    let mut code: Vec<&str> = Vec::new();
    let mut block = Block::Text;
    let mut list = false;
    for line in markdown.lines() {
        let fence = line.trim_start().starts_with("```");
        let kind = match block {
            Block::Fenced if fence => {
                out.push_str(&code_block(&code));
                code.clear();
                block = Block::Text;
                continue;
            }
            Block::Fenced => Block::Fenced,
            _ if fence => Block::Fenced,
            _ if line.trim_start().starts_with('|') => Block::Table,
            _ if line.starts_with("    ") && !list => Block::Indented,
            _ => Block::Text,
        };
        if kind != block && !code.is_empty() {
            out.push_str(&code_block(&code));
            code.clear();
        }
        block = kind;
        match kind {
            Block::Fenced if fence => continue,
            Block::Fenced | Block::Table => {
                code.push(line);
                continue;
            }
            Block::Indented => {
                code.push(&line[4..]);
                continue;
            }
            Block::Text => {}
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
        if line.starts_with("# ") {
            // The title is the problem name already.
        } else if let Some(heading) = line.strip_prefix("## ") {
            out.push_str(&format!("\\section*{{{}}}\n", inline(heading)));
        } else if let Some(item) = item {
            out.push_str(&format!("\\item {}\n", text_line(item, files)));
        } else {
            out.push_str(&text_line(line, files));
            out.push('\n');
        }
    }
    if !code.is_empty() {
        out.push_str(&code_block(&code));
    }
    if list {
        out.push_str("\\end{itemize}\n");
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

/// The `build` script of a program folder: Kattis-format judges (problemtools among them)
/// take a folder as a program only when it has an executable `build` beside `run`. nimlab
/// is installed on the judging machine, so there is nothing to build; a missing nimlab is
/// said plainly when the package is loaded, not discovered at the first submission.
const BUILD: &str = "# A Kattis-format judge runs this before ./run. nimlab is an installed program: nothing\n# to build, but it must be on the judging machine's PATH.\ncommand -v nimlab >/dev/null 2>&1 || {\n    echo \"nimlab is not installed on this judging machine (it must be on PATH)\" >&2\n    exit 1\n}\n";

/// A validator program folder: `build`, `run` (calling nimlab with `arguments`), and the
/// exercise as a lab of its own in `lab/`, so the package is judged by the settings it was
/// exported with, not by whatever lab the judging machine's nimlab has built in.
fn put_validator(root: &Path, folder: &str, exercise: &LabExercise, arguments: &str) -> Result<()> {
    put_script(root, &format!("{folder}/build"), BUILD)?;
    put_script(
        root,
        &format!("{folder}/run"),
        &format!(
            "exec nimlab --lab \"$(dirname \"$0\")/lab\" checker {} {arguments}\n",
            exercise.name
        ),
    )?;
    let lab = format!("{folder}/lab/exercises/{}", exercise.name);
    put(
        root,
        &format!("{lab}/exercise.toml"),
        super::cms::render_config(exercise)?.as_bytes(),
    )?;
    put(
        root,
        &format!("{lab}/README.md"),
        with_final_newline(&exercise.statement).as_bytes(),
    )?;
    put(
        root,
        &format!("{lab}/stub.py"),
        with_final_newline(&exercise.stub).as_bytes(),
    )?;
    Ok(())
}

/// Writes one exercise's package below `root`.
fn export_package(root: &Path, exercise: &LabExercise) -> Result<()> {
    let name = &exercise.name;
    let package = package_name(name);
    let at = |relative: &str| format!("{package}/{relative}");
    put(root, &at("problem.yaml"), problem_yaml(exercise).as_bytes())?;
    // The statement's images and handouts go in its folder, as the format places them.
    // An image whose name LaTeX cannot read is drawn from a copy with a plain name.
    for (file, bytes) in &exercise.files {
        put(root, &at(&format!("problem_statement/{file}")), bytes)?;
        let drawn = drawn_name(file);
        if drawable(file) && drawn != *file {
            put(root, &at(&format!("problem_statement/{drawn}")), bytes)?;
        }
    }
    let files: BTreeSet<&str> = exercise.files.keys().map(String::as_str).collect();
    let tex = statement_tex(&exercise.config.title, &exercise.statement, &files);
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
        let submission = format!("#!/usr/bin/env python3\n{}", with_final_newline(solution));
        put(
            root,
            &at(&format!("submissions/accepted/{name}.py")),
            submission.as_bytes(),
        )?;
    }
    // nimlab must be on the judging machine's PATH for these programs.
    put_validator(
        root,
        &at("input_validators/nimlab"),
        exercise,
        "--input-validator",
    )?;
    if custom_validation(exercise) {
        put_validator(
            root,
            &at("output_validators/nimlab"),
            exercise,
            "--kattis \"$1\" \"$2\" \"$3\"",
        )?;
    }
    Ok(())
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
            export_package(root, exercise)?;
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
            &BTreeSet::new(),
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
            tex.contains("\\begin{flushleft}\\ttfamily\nNim:\\\\\n1:~X\n\\end{flushleft}"),
            "{tex}"
        );
        assert!(
            tex.contains(
                "\\begin{flushleft}\\ttfamily\n\\textbar{}~a~\\textbar{}~b~\\textbar{}\\\\\n"
            ),
            "{tex}"
        );
    }

    #[test]
    fn images_beside_the_statement_are_drawn() {
        let files: BTreeSet<&str> = [
            "board.png",
            "img/heap_1.JPG",
            "moves.svg",
            "a b.png",
            "50% #{x}~\\.png",
        ]
        .into_iter()
        .collect();
        let tex = statement_tex(
            "T",
            "The board:\n\n![A board](./board.png)\n\n- ![heap](img/heap_1.JPG) and `x`\n\n![drawn](moves.svg) ![gone](missing.png) ![x](../etc.png) ![y](/etc/z.png)\n\n![spaced](<a b.png>)\n\n![odd](50%25%20%23%7Bx%7D~%5C.png \"odd\")\n",
            &files,
        );
        assert!(
            tex.contains(
                "\\begin{center}\\includegraphics[width=0.6\\textwidth]{board.png}\\end{center}"
            ),
            "{tex}"
        );
        assert!(
            tex.contains("\\item \\begin{center}\\includegraphics[width=0.6\\textwidth]{img/heap_1.JPG}\\end{center} and \\texttt{x}"),
            "{tex}"
        );
        // Names LaTeX cannot read are drawn from copies with plain names.
        for file in ["a b.png", "50% #{x}~\\.png"] {
            let drawn = drawn_name(file);
            assert!(
                drawn.starts_with("nimlab-image-") && drawn.ends_with(".png"),
                "{drawn}"
            );
            assert!(tex.contains(&format!("{{{drawn}}}")), "{tex}");
        }
        assert_eq!(tex.matches("\\includegraphics").count(), 4, "{tex}");
        // LaTeX cannot draw an SVG; a file not beside the statement is not drawn either: they
        // are named for the reader instead, escaped.
        assert!(tex.contains("drawn (file \\texttt{moves.svg})"), "{tex}");
        assert!(tex.contains("gone (file \\texttt{missing.png})"), "{tex}");
        assert!(tex.contains("x (file \\texttt{../etc.png})"), "{tex}");
        assert!(tex.contains("y (file \\texttt{/etc/z.png})"), "{tex}");
        assert!(!tex.contains("50%"), "{tex}");
    }

    #[test]
    fn code_cannot_end_its_block_or_run_a_command() {
        for markdown in [
            "```\n\\end{verbatim}\\input{/etc/passwd}\n```\n",
            "    \\end{verbatim}\\input{/etc/passwd}\n",
            "| \\end{verbatim}\\input{/etc/passwd} |\n",
            "Text \\input{/etc/passwd} and `\\input{x}`\n",
        ] {
            let tex = statement_tex("T", markdown, &BTreeSet::new());
            assert!(!tex.contains("\\input"), "{tex}");
            assert!(!tex.contains("\\end{verbatim}"), "{tex}");
            assert!(tex.contains("\\textbackslash{}input\\{"), "{tex}");
        }
    }
}
