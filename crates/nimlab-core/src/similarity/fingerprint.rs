//! What a program is compared by: its fingerprints, in nine views.
//!
//! - `Code`: runs of tokens with the student's own names, strings and comments taken out, so
//!   renaming and re-commenting change nothing. `x += y` reads as `x = x + y`.
//! - `Lines`: runs of statement shapes (what each line does, at which depth), which a
//!   line-by-line paraphrase keeps.
//! - `Statements`: each statement as the `Code` view reads it, in any order, which
//!   reordering keeps.
//! - `Names`: the names a student chose (the lab's own names count for nothing).
//! - `Words`: runs of words in comments and strings.
//! - `Layout`: runs of lines as they look, every word a placeholder but spacing, blank lines,
//!   quotes and comments' places kept: a habit of the hand that wrote them, which a copy keeps
//!   unless its spacing was redone.
//! - `Rhythm`: runs of lines as depth and kind (code, comment, code with a comment), blank
//!   lines and spacing aside: where comments sit, which a line-by-line paraphrase keeps.
//! - `Paragraphs`: the same with blank lines kept, which a paraphrase keeps too unless its
//!   spacing was redone.
//! - `Outputs`: where graded results are given, each failed case with the wrong output.
//!
//! Each fingerprint is a hash with the lines it covers. The lab's starter and model code go
//! through the same views and their fingerprints are taken out of every student's. Lines
//! that only debug (a print to standard error, a print left commented out) are read as if
//! they were not there: a copy that added them changed no answer.

use super::tokens::{Kind, Token, tokenize};
use std::collections::HashSet;

/// The views, in the order a [`Program`] holds them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum View {
    Code,
    Lines,
    Statements,
    Names,
    Words,
    Layout,
    Rhythm,
    Paragraphs,
    Outputs,
}

/// How many views there are.
pub const VIEW_COUNT: usize = 9;

pub const VIEWS: [View; VIEW_COUNT] = [
    View::Code,
    View::Lines,
    View::Statements,
    View::Names,
    View::Words,
    View::Layout,
    View::Rhythm,
    View::Paragraphs,
    View::Outputs,
];

/// Tokens per fingerprint of each view (names are one each).
const CODE_RUN: usize = 8;
const LINES_RUN: usize = 4;
const WORDS_RUN: usize = 3;
const LAYOUT_RUN: usize = 3;
const RHYTHM_RUN: usize = 6;

/// Names every program may use: they say what a program does, not who wrote it. Sorted, for
/// a binary search.
const BUILTINS: &[&str] = &[
    "abs",
    "all",
    "any",
    "bin",
    "bool",
    "chr",
    "dict",
    "divmod",
    "enumerate",
    "eval",
    "filter",
    "float",
    "format",
    "functools",
    "hex",
    "input",
    "int",
    "isinstance",
    "iter",
    "json",
    "len",
    "list",
    "map",
    "math",
    "max",
    "min",
    "next",
    "oct",
    "operator",
    "ord",
    "pow",
    "print",
    "range",
    "raw_input",
    "reduce",
    "reversed",
    "round",
    "self",
    "set",
    "sorted",
    "str",
    "sum",
    "sys",
    "tuple",
    "type",
    "xrange",
    "zip",
];

fn is_builtin(name: &str) -> bool {
    BUILTINS.binary_search(&name).is_ok()
}

/// One fingerprint: a hash and the lines it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    pub hash: u64,
    pub first_line: u32,
    pub last_line: u32,
}

/// A program's fingerprints in every view, the lab's own taken out.
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// By view, in the program's order.
    pub marks: [Vec<Mark>; VIEW_COUNT],
    /// By view: the distinct hashes, sorted.
    pub sets: [Vec<u64>; VIEW_COUNT],
}

/// What the lab gives every student: its fingerprints and names, taken out of theirs.
#[derive(Debug, Default)]
pub struct Template {
    hashes: [HashSet<u64>; VIEW_COUNT],
    names: HashSet<String>,
}

impl Template {
    /// From the lab's own code for an exercise: its starter, its model solution, the code in
    /// its statement.
    pub fn new<'a>(sources: impl IntoIterator<Item = &'a str>) -> Template {
        let mut template = Template::default();
        let texts: Vec<&str> = sources.into_iter().collect();
        let sources: Vec<Vec<Token>> = texts.iter().map(|s| tokenize(s)).collect();
        for tokens in &sources {
            for token in tokens.iter().filter(|t| t.kind == Kind::Name) {
                template.names.insert(token.text.clone());
            }
        }
        for (tokens, source) in sources.iter().zip(&texts) {
            let marks = views(tokens, source, &template.names);
            for (set, marks) in template.hashes.iter_mut().zip(marks) {
                set.extend(marks.iter().map(|m| m.hash));
            }
        }
        template
    }

    /// The fingerprints of `source`, the lab's taken out.
    pub fn program(&self, source: &str) -> Program {
        let tokens = tokenize(source);
        let mut program = Program::default();
        for (view, marks) in views(&tokens, source, &self.names).into_iter().enumerate() {
            let marks: Vec<Mark> = marks
                .into_iter()
                .filter(|m| !self.hashes[view].contains(&m.hash))
                .collect();
            let mut set: Vec<u64> = marks.iter().map(|m| m.hash).collect();
            set.sort_unstable();
            set.dedup();
            program.marks[view] = marks;
            program.sets[view] = set;
        }
        program
    }
}

fn views(tokens: &[Token], source: &str, lab_names: &HashSet<String>) -> [Vec<Mark>; VIEW_COUNT] {
    // Debugging output changes no answer: read the program as if it were not there.
    let debugging = debugging_lines(tokens);
    let tokens: std::borrow::Cow<[Token]> = if debugging.is_empty() {
        tokens.into()
    } else {
        tokens
            .iter()
            // Blocks still open and close where they did.
            .filter(|t| {
                matches!(t.kind, Kind::Indent | Kind::Dedent) || !debugging.contains(&t.line)
            })
            .cloned()
            .collect()
    };
    let code = code_tokens(&tokens, lab_names);
    let (rhythm, paragraphs) = rhythm(source, &debugging);
    [
        runs(&code, CODE_RUN),
        runs(&line_shapes(&code), LINES_RUN),
        statements(&code),
        chosen_names(&tokens, lab_names),
        runs(&words(&tokens), WORDS_RUN),
        runs(&layout(source, &debugging), LAYOUT_RUN),
        runs(&rhythm, RHYTHM_RUN),
        runs(&paragraphs, RHYTHM_RUN),
        // Outputs come from grading, not the source.
        Vec::new(),
    ]
}

/// The lines that only debug: a statement that prints to standard error, and a comment that
/// is a print or a debugger's call left commented out.
fn debugging_lines(tokens: &[Token]) -> HashSet<u32> {
    let mut lines = HashSet::new();
    let mut code_lines = HashSet::new();
    let mut statement: Vec<&Token> = Vec::new();
    for token in tokens {
        match token.kind {
            Kind::Comment => continue,
            Kind::Newline | Kind::Indent | Kind::Dedent => {
                if is_debugging(&statement) {
                    let (first, last) =
                        (statement[0].line, statement[statement.len() - 1].end_line);
                    lines.extend(first..=last);
                }
                statement.clear();
            }
            _ => {
                code_lines.extend(token.line..=token.end_line);
                statement.push(token);
            }
        }
    }
    if is_debugging(&statement) {
        lines.extend(statement[0].line..=statement[statement.len() - 1].end_line);
    }
    for comment in tokens.iter().filter(|t| t.kind == Kind::Comment) {
        let text = comment.text.trim_start_matches('#').trim_start();
        let commented_out = [
            "print(",
            "print ",
            "pprint",
            "sys.stderr",
            "breakpoint(",
            "pdb.",
        ]
        .iter()
        .any(|start| text.starts_with(start));
        if commented_out && !code_lines.contains(&comment.line) {
            lines.insert(comment.line);
        }
    }
    lines
}

/// `print(..., file=sys.stderr)`, `print >>sys.stderr, ...` or `sys.stderr.write(...)`, alone
/// on its line: code after a `;` could hide there.
fn is_debugging(statement: &[&Token]) -> bool {
    let text = |at: usize| statement.get(at).map_or("", |t| t.text.as_str());
    if statement
        .iter()
        .any(|t| t.kind == Kind::Op && t.text == ";")
    {
        return false;
    }
    match text(0) {
        "print" => statement.iter().any(|t| t.text == "stderr"),
        "sys" => text(1) == "." && text(2) == "stderr",
        _ => false,
    }
}

impl Program {
    /// Adds the wrong outputs a grading found (each a failed case, its verdict and output).
    pub fn add_outputs(&mut self, outputs: &[String]) {
        let view = View::Outputs as usize;
        self.marks[view] = outputs
            .iter()
            .map(|o| Mark {
                hash: hash(o.as_bytes()),
                first_line: 0,
                last_line: 0,
            })
            .collect();
        let mut set: Vec<u64> = self.marks[view].iter().map(|m| m.hash).collect();
        set.sort_unstable();
        set.dedup();
        self.sets[view] = set;
    }
}

/// A token as a view reads it: its hash and its lines.
type Unit = (u64, u32, u32);

fn unit(text: &str, token: &Token) -> Unit {
    (hash(text.as_bytes()), token.line, token.end_line)
}

/// FNV-1a: fast, stable from run to run, plenty for a class's few thousand fingerprints.
pub(super) fn hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Every run of `k` units in a row as one mark (the whole sequence where it is shorter).
fn runs(units: &[Unit], k: usize) -> Vec<Mark> {
    if units.is_empty() {
        return Vec::new();
    }
    let k = k.min(units.len());
    units
        .windows(k)
        .map(|window| {
            let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
            for (unit_hash, _, _) in window {
                h = (h.rotate_left(5) ^ unit_hash).wrapping_mul(0x5851_f42d_4c95_7f2d);
            }
            Mark {
                hash: h,
                first_line: window.iter().map(|u| u.1).min().unwrap_or(0),
                last_line: window.iter().map(|u| u.2).max().unwrap_or(0),
            }
        })
        .collect()
}

/// Whether a string token is a statement of its own (a docstring, or a string left as a
/// comment): it says nothing about the code.
fn is_docstring(tokens: &[Token], at: usize) -> bool {
    let before = at
        .checked_sub(1)
        .map(|i| tokens[i].kind)
        .filter(|k| *k != Kind::Comment);
    let after = tokens.get(at + 1).map(|t| t.kind);
    matches!(
        before,
        None | Some(Kind::Newline | Kind::Indent | Kind::Dedent)
    ) && matches!(after, None | Some(Kind::Newline))
}

/// Which tokens are parentheses around a single name, number or string that call nothing:
/// `x = x ^ (y)` is `x = x ^ y`, a rewrite that changes no meaning.
fn redundant_parentheses(tokens: &[Token]) -> Vec<bool> {
    let mut redundant = vec![false; tokens.len()];
    let is = |at: usize, text: &str| tokens[at].kind == Kind::Op && tokens[at].text == text;
    for at in 1..tokens.len().saturating_sub(1) {
        let atom = matches!(tokens[at].kind, Kind::Name | Kind::Number | Kind::Str);
        if !atom || !is(at - 1, "(") || !is(at + 1, ")") {
            continue;
        }
        // `f(x)`, `a[0](x)`, `"%d" (x)`: a call or an operand, not a grouping.
        let grouping = at < 2
            || match tokens[at - 2].kind {
                Kind::Name | Kind::Number | Kind::Str => false,
                Kind::Op => !matches!(tokens[at - 2].text.as_str(), ")" | "]"),
                _ => true,
            };
        if grouping {
            redundant[at - 1] = true;
            redundant[at + 1] = true;
        }
    }
    redundant
}

/// The code as the `Code` view reads it: the student's names and long strings as
/// placeholders, comments and docstrings gone, augmented assignments written out, a single
/// name in parentheses unwrapped, halving by bits read as by division.
fn code_tokens(tokens: &[Token], lab_names: &HashSet<String>) -> Vec<Unit> {
    let redundant = redundant_parentheses(tokens);
    let mut out = Vec::with_capacity(tokens.len());
    let mut previous: Option<&Token> = None;
    let mut skip_newline = false;
    for (at, token) in tokens.iter().enumerate() {
        if redundant[at] {
            continue;
        }
        match token.kind {
            Kind::Comment => continue,
            Kind::Newline if skip_newline => {
                skip_newline = false;
                continue;
            }
            Kind::Str if is_docstring(tokens, at) => {
                skip_newline = true;
                continue;
            }
            _ => skip_newline = false,
        }
        // `x += e` is `x = x + e`.
        if token.kind == Kind::Op
            && token.text.len() >= 2
            && token.text.ends_with('=')
            && !matches!(token.text.as_str(), "==" | "!=" | "<=" | ">=" | ":=")
            && previous.is_some_and(|p| p.kind == Kind::Name)
        {
            let name = previous.map_or("", |p| placeholder(p, lab_names));
            out.push(unit("=", token));
            out.push(unit(name, token));
            out.push(unit(&token.text[..token.text.len() - 1], token));
            previous = Some(token);
            continue;
        }
        let attribute = previous.is_some_and(|p| p.kind == Kind::Op && p.text == ".");
        // `n & 1` is `n % 2` and `n >> 1` is `n // 2` for the whole numbers of the lab.
        let halving =
            previous.is_some_and(|p| p.kind == Kind::Op && matches!(p.text.as_str(), "&" | ">>"));
        if token.kind == Kind::Number && token.text == "1" && halving {
            out.push(unit("2", token));
            previous = Some(token);
            continue;
        }
        let next = (at + 1..tokens.len()).find(|&n| !redundant[n]);
        let bit_op = token.kind == Kind::Op
            && next.is_some_and(|n| tokens[n].kind == Kind::Number && tokens[n].text == "1");
        let text: std::borrow::Cow<str> = match token.kind {
            Kind::Op if bit_op && token.text == "&" => "%".into(),
            Kind::Op if bit_op && token.text == ">>" => "//".into(),
            // A method or attribute (`.append`) is Python's or a module's name, not the student's.
            Kind::Name if attribute => token.text.as_str().into(),
            Kind::Name => placeholder(token, lab_names).into(),
            Kind::Newline => "\n".into(),
            Kind::Indent => "{".into(),
            Kind::Dedent => "}".into(),
            Kind::Str if token.text.chars().count() <= 2 => format!("'{}'", token.text).into(),
            Kind::Str => "'S'".into(),
            _ => token.text.as_str().into(),
        };
        out.push(unit(&text, token));
        previous = Some(token);
    }
    out
}

/// A name as the `Code` view writes it: the lab's and Python's own as they are, a student's
/// as `V`.
fn placeholder<'a>(token: &'a Token, lab_names: &HashSet<String>) -> &'a str {
    if is_builtin(&token.text) || lab_names.contains(&token.text) {
        &token.text
    } else {
        "V"
    }
}

/// Each logical line's shape: its depth and what it starts with (a keyword, an assignment,
/// a call of one of Python's names).
fn line_shapes(code: &[Unit]) -> Vec<Unit> {
    let ends = [hash(b"\n"), hash(b"{"), hash(b"}")];
    let markers = [hash(b"="), hash(b"(")];
    let mut shapes = Vec::new();
    let mut line: Vec<Unit> = Vec::new();
    for &token in code {
        if ends.contains(&token.0) {
            if !line.is_empty() {
                shapes.push(shape(&line, &markers));
                line.clear();
            }
            shapes.push(token);
            continue;
        }
        line.push(token);
    }
    if !line.is_empty() {
        shapes.push(shape(&line, &markers));
    }
    shapes
}

fn shape(line: &[Unit], markers: &[u64; 2]) -> Unit {
    let first = line[0];
    let assigns = line.iter().any(|u| u.0 == markers[0]);
    let calls = line.iter().filter(|u| u.0 == markers[1]).count().min(3) as u64;
    let h = first.0.rotate_left(7) ^ u64::from(assigns) ^ (calls << 1);
    (
        h,
        first.1,
        line.iter().map(|u| u.2).max().unwrap_or(first.2),
    )
}

/// Each logical line of the code as one mark (lines of a single token, as `else:` or
/// `return V`, say nothing alone and are left out).
fn statements(code: &[Unit]) -> Vec<Mark> {
    let ends = [hash(b"\n"), hash(b"{"), hash(b"}")];
    code.split(|unit| ends.contains(&unit.0))
        .filter(|line| line.len() > 2)
        .map(|line| runs(line, line.len())[0])
        .collect()
}

/// The names a student chose, each once, where first used.
fn chosen_names(tokens: &[Token], lab_names: &HashSet<String>) -> Vec<Mark> {
    let mut seen = HashSet::new();
    let attribute =
        |at: usize| at > 0 && tokens[at - 1].kind == Kind::Op && tokens[at - 1].text == ".";
    tokens
        .iter()
        .enumerate()
        .filter(|(at, t)| t.kind == Kind::Name && !attribute(*at))
        .map(|(_, t)| t)
        .filter(|t| t.text.chars().count() > 2)
        .filter(|t| !is_builtin(&t.text) && !lab_names.contains(&t.text))
        .filter(|t| seen.insert(t.text.to_lowercase()))
        .map(|t| Mark {
            hash: hash(t.text.to_lowercase().as_bytes()),
            first_line: t.line,
            last_line: t.end_line,
        })
        .collect()
}

/// Each line as it looks: a run of letters, digits or underscores as `a`, a comment's text
/// as `c`, a string's as `s` between its quotes, spacing and punctuation as written, trailing
/// spaces as `~`; a blank line as nothing. Lines in `skipped` are read as absent.
fn layout(source: &str, skipped: &HashSet<u32>) -> Vec<Unit> {
    let mut out = Vec::new();
    let mut look = String::new();
    for (at, line) in source.lines().enumerate() {
        let number = at as u32 + 1;
        if skipped.contains(&number) {
            continue;
        }
        look.clear();
        let mut chars = line.trim_end().chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_alphanumeric() || c == '_' {
                while chars
                    .peek()
                    .is_some_and(|&n| n.is_alphanumeric() || n == '_')
                {
                    chars.next();
                }
                look.push('a');
            } else if c == '#' {
                look.push_str("#c");
                break;
            } else if c == '"' || c == '\'' {
                look.push(c);
                look.push('s');
                let mut escaped = false;
                for n in chars.by_ref() {
                    if n == c && !escaped {
                        look.push(c);
                        break;
                    }
                    escaped = n == '\\' && !escaped;
                }
            } else {
                look.push(c);
            }
        }
        if line.len() != line.trim_end().len() && !line.trim().is_empty() {
            look.push('~');
        }
        out.push((hash(look.as_bytes()), number, number));
    }
    out
}

/// Each line that is not blank as its depth of indentation and whether it is code, a
/// comment, or code with a comment after it: where a student puts comments, which a copy
/// whose every line was rewritten keeps. Returned twice: as it is (the rhythm), and with each
/// run of blank lines (up to three) a unit too (the paragraphs). Lines in `skipped` are read
/// as absent.
fn rhythm(source: &str, skipped: &HashSet<u32>) -> (Vec<Unit>, Vec<Unit>) {
    let (mut rhythm, mut paragraphs) = (Vec::new(), Vec::new());
    // The indentation of each open block, outermost first: depth counts blocks, not spaces.
    let mut indents: Vec<usize> = vec![0];
    let mut blanks: u8 = 0;
    for (at, line) in source.lines().enumerate() {
        let text = line.trim();
        if skipped.contains(&(at as u32 + 1)) {
            continue;
        }
        if text.is_empty() {
            blanks = blanks.saturating_add(1);
            continue;
        }
        if blanks > 0 {
            paragraphs.push((hash(&[b'b', blanks.min(3)]), at as u32, at as u32));
        }
        blanks = 0;
        let indent = line.len() - line.trim_start().len();
        while indents.len() > 1 && indents.last().is_some_and(|&i| indent < i) {
            indents.pop();
        }
        if indents.last().is_some_and(|&i| indent > i) {
            indents.push(indent);
        }
        let kind = if text.starts_with('#') {
            b'c'
        } else if text.contains(" #") || text.contains("\t#") {
            b'#'
        } else {
            b'x'
        };
        let depth = u16::try_from(indents.len())
            .unwrap_or(u16::MAX)
            .to_le_bytes();
        let number = at as u32 + 1;
        let unit = (hash(&[depth[0], depth[1], kind]), number, number);
        rhythm.push(unit);
        paragraphs.push(unit);
    }
    (rhythm, paragraphs)
}

/// The words of comments and strings, lower case.
fn words(tokens: &[Token]) -> Vec<Unit> {
    let mut out = Vec::new();
    for token in tokens
        .iter()
        .filter(|t| matches!(t.kind, Kind::Comment | Kind::Str))
    {
        for word in token
            .text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            out.push(unit(&word.to_lowercase(), token));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const STUB: &str = "def nim_sum(board):\n    \"\"\"Return the XOR.\"\"\"\n    return 0\n";

    fn shared(a: &Program, b: &Program, view: View) -> usize {
        let set: HashSet<u64> = a.sets[view as usize].iter().copied().collect();
        b.sets[view as usize]
            .iter()
            .filter(|h| set.contains(h))
            .count()
    }

    #[test]
    fn renaming_and_comments_change_nothing_in_the_code_view() {
        let template = Template::new([STUB]);
        let a = template.program(
            "def nim_sum(board):\n    total = 0\n    for row in board:\n        total ^= row\n    return total\n",
        );
        let b = template.program(
            "def nim_sum(board):\n    # the xor of all rows\n    acc = 0\n    for r in board:\n        acc = acc ^ r  # fold\n    return acc\n",
        );
        assert!(!a.sets[0].is_empty());
        assert_eq!(a.sets[0], b.sets[0]);
        assert_eq!(shared(&a, &b, View::Names), 0);
    }

    #[test]
    fn rewrites_that_keep_the_meaning_change_nothing_in_the_code_view() {
        let template = Template::new([STUB]);
        let plain = template.program(
            "def f(a, b):\n    r = 0\n    while a > 0:\n        r += a % 2\n        a = a // 2\n    return r\n",
        );
        let rewritten = template.program(
            "def f(a, b):\n    r = (0)\n    while (a) > 0:\n        r = r + a & 1\n        a = a >> (1)\n    return (r)\n",
        );
        assert_eq!(plain.sets[0], rewritten.sets[0]);
        // A call keeps its parentheses.
        let called = template.program("def f(a, b):\n    return g(a)\n");
        let bare = template.program("def f(a, b):\n    return g a\n");
        assert_ne!(called.sets[0], bare.sets[0]);
    }

    #[test]
    fn the_labs_own_code_counts_for_nothing() {
        let template = Template::new([STUB]);
        let program = template.program(STUB);
        for view in VIEWS {
            assert!(program.sets[view as usize].is_empty(), "{view:?}");
        }
    }

    #[test]
    fn words_and_names_a_student_chose_are_kept() {
        let template = Template::new([STUB]);
        let program = template.program(
            "def nim_sum(board):\n    # somamos as linhas uma a uma\n    acumulador = 0\n    return acumulador\n",
        );
        assert_eq!(program.marks[View::Names as usize].len(), 1);
        assert!(program.marks[View::Words as usize].len() >= 3);
        assert_eq!(program.marks[View::Words as usize][0].first_line, 2);
    }

    #[test]
    fn layout_keeps_spacing_and_blank_lines_but_not_names() {
        let template = Template::new([STUB]);
        let tight = "def nim_sum(board):\n\n    s=0\n\n    for r in board:\n        s=s^r  # xor\n\n    return s\n";
        let renamed = "def nim_sum(board):\n\n    acc=0\n\n    for row in board:\n        acc=acc^row  # fold\n\n    return acc\n";
        let spaced = "def nim_sum(board):\n    s = 0\n    for r in board:\n        s = s ^ r  # xor\n    return s\n";
        let [tight, renamed, spaced] = [tight, renamed, spaced].map(|p| template.program(p));
        let view = View::Layout as usize;
        assert!(!tight.sets[view].is_empty());
        assert_eq!(tight.sets[view], renamed.sets[view]);
        assert_eq!(shared(&tight, &spaced, View::Layout), 0);
        // The code view reads the spaced program as the tight one.
        assert_eq!(
            tight.sets[View::Code as usize],
            spaced.sets[View::Code as usize]
        );
    }

    #[test]
    fn rhythm_keeps_where_comments_sit_whatever_the_words_and_spacing() {
        let template = Template::new([STUB]);
        let commented = "def nim_sum(board):\n    # start at zero\n    s = 0\n    # every row\n    for r in board:\n        s ^= r  # fold it\n    # done\n    return s\n";
        let paraphrased = "def nim_sum(board):\n  # nothing yet\n  acc=0\n\n  # each heap\n  for h in board:\n    acc=acc^h # xor\n  # the answer\n  return acc\n";
        let bare =
            "def nim_sum(board):\n    s = 0\n    for r in board:\n        s ^= r\n    return s\n";
        let [commented, paraphrased, bare] =
            [commented, paraphrased, bare].map(|p| template.program(p));
        let view = View::Rhythm as usize;
        assert!(!commented.sets[view].is_empty());
        assert_eq!(commented.sets[view], paraphrased.sets[view]);
        assert_eq!(shared(&commented, &bare, View::Rhythm), 0);
    }
    #[test]
    fn debugging_lines_are_read_as_if_they_were_not_there() {
        let template = Template::new([STUB]);
        let plain = "import sys\ndef nim_sum(board):\n    s=0\n    for r in board:\n        s^=r\n    return s  # the total\n";
        let debugged = "import sys\ndef nim_sum(board):\n    s=0\n    for r in board:\n        # print(r, s)\n        s^=r\n        print(\"s =\", s,\n              file=sys.stderr)\n    sys.stderr.write(\"done\\n\")\n    return s  # the total\n";
        let (plain_program, debugged_program) =
            (template.program(plain), template.program(debugged));
        for view in [
            View::Code,
            View::Layout,
            View::Rhythm,
            View::Paragraphs,
            View::Words,
        ] {
            let set: HashSet<u64> = debugged_program.sets[view as usize]
                .iter()
                .copied()
                .collect();
            let kept = plain_program.sets[view as usize]
                .iter()
                .all(|h| set.contains(h));
            assert!(
                kept,
                "{view:?}: the debugged copy lost some of the plain program's marks"
            );
        }
        // A print to standard output is an answer, and a comment in words is not code.
        let tokens =
            tokenize("print(s)\n# prints the total\nprint(s, file=out)\nprint >>sys.stderr, s\n");
        assert_eq!(debugging_lines(&tokens), HashSet::from([4]));
        // Code cannot hide behind a debugging print on the same line.
        let tokens = tokenize("print(0, file=sys.stderr); total = total ^ row\n");
        assert!(debugging_lines(&tokens).is_empty());
    }

    #[test]
    fn paragraphs_keep_blank_lines_where_rhythm_sets_them_aside() {
        let template = Template::new([STUB]);
        let spaced = "def nim_sum(board):\n\n    s = 0\n\n\n    for r in board:\n        s ^= r\n\n    return s\n";
        let paraphrased = "def nim_sum(board):\n\n    acc = 0\n\n\n    for h in board:\n        acc = acc ^ h\n\n    return acc\n";
        let packed =
            "def nim_sum(board):\n    s = 0\n    for r in board:\n        s ^= r\n    return s\n";
        let [spaced, paraphrased, packed] =
            [spaced, paraphrased, packed].map(|p| template.program(p));
        assert!(!spaced.sets[View::Paragraphs as usize].is_empty());
        assert_eq!(
            spaced.sets[View::Paragraphs as usize],
            paraphrased.sets[View::Paragraphs as usize]
        );
        assert_eq!(shared(&spaced, &packed, View::Paragraphs), 0);
        assert_eq!(
            spaced.sets[View::Rhythm as usize],
            packed.sets[View::Rhythm as usize]
        );
    }

    #[test]
    fn builtins_are_sorted_for_the_binary_search() {
        assert!(BUILTINS.windows(2).all(|w| w[0] < w[1]));
        assert!(is_builtin("range") && is_builtin("zip") && is_builtin("abs"));
        assert!(!is_builtin("total"));
    }
}
