//! Every byte a student chose reaches a medium only through one of these: shown, never
//! stripped, and never able to act on the medium (move a terminal's cursor, start a
//! spreadsheet formula, open an HTML tag, run a LaTeX command).

use std::borrow::Cow;

/// Bytes as text: invalid UTF-8 as `\xNN`, and what [`terminal`] escapes escaped.
pub fn bytes(raw: &[u8]) -> String {
    let mut out = String::with_capacity(raw.len());
    for chunk in raw.utf8_chunks() {
        out.push_str(&terminal(chunk.valid()));
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// Whether a character could act on a terminal (or reorder what it shows) instead of
/// being shown: C0 and C1 controls but newline and tab, DEL, the bidirectional overrides,
/// isolates and marks, and the line and paragraph separators (which readers that split
/// lines by Unicode's rules, as Python's `splitlines` does, take for a new line).
fn acts_on_terminal(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(
            c,
            '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{061c}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

/// Text for a terminal: ESC, CR, BEL, backspace and the rest shown as escapes (`\x1b`,
/// `\r`), so a program's output can neither restyle the screen nor overwrite a verdict.
pub fn terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acts_on_terminal) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\r' => out.push_str("\\r"),
            c if acts_on_terminal(c) && (c as u32) < 0x100 => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if acts_on_terminal(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Text that must stay on one line: a log line, or a cell of a table printed with tabs
/// (`users list`). What [`terminal`] escapes, and newline and tab too (`\n`, `\t`), so
/// outside text can neither forge a log line nor add a row or column to a table.
pub fn one_line(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| acts_on_terminal(c) || c == '\n' || c == '\t')
    {
        return Cow::Borrowed(text);
    }
    let shown = terminal(text);
    Cow::Owned(shown.replace('\n', "\\n").replace('\t', "\\t"))
}

/// Outside text quoted inside nimlab's own sentence (a log line, an error page): on one
/// line ([`one_line`]), at most `max` characters (then `...`), between double quotes, so a
/// reader sees where nimlab's words end and the other party's begin (a quote inside is
/// `\"`).
pub fn quoted(text: &str, max: usize) -> String {
    let line = one_line(text).replace('"', "\\\"");
    match line.char_indices().nth(max) {
        Some((cut, _)) => format!("\"{}...\"", &line[..cut]),
        None => format!("\"{line}\""),
    }
}

/// A CSV cell a spreadsheet will show as text: a cell starting with `=`, `+`, `-`, `@`,
/// tab or CR would be read as a formula, so it gets a leading `'` (as spreadsheet vendors
/// and OWASP advise). Only for text cells: numbers nimlab writes itself are left alone.
pub fn csv_cell(text: &str) -> Cow<'_, str> {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => Cow::Owned(format!("'{text}")),
        _ => Cow::Borrowed(text),
    }
}

/// Text inside HTML elements or quoted attributes.
pub fn html(text: &str) -> Cow<'_, str> {
    if !text.contains(['&', '<', '>', '"', '\'']) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Text in a LaTeX paragraph or `\texttt{}`: every special character as its command, so
/// nothing can end a group or run a command.
pub fn latex(text: &str) -> String {
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
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            '|' => out.push_str("\\textbar{}"),
            c if c.is_control() && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// A file's path as LaTeX reads it inside `\includegraphics{}` (under pdfLaTeX, and under
/// plasTeX as problemtools' HTML statements use it), for the few names that can be written
/// there as they are: ASCII letters, digits, `.`, `_` and `-`, in relative parts joined by
/// `/`, with no part that is empty, `.` or `..`. Any other character (a space, `%`, `#`,
/// braces, `~`, a backslash, a non-ASCII letter) means something else to LaTeX, and no
/// escape of it is read as the same file name by both, so such a name is `None`: the file
/// needs another name to be drawn.
pub fn latex_file_name(path: &str) -> Option<&str> {
    let plain = path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'/'));
    let relative = path
        .split('/')
        .all(|part| !part.is_empty() && part != "." && part != "..");
    (plain && relative).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latex_file_names_are_plain_and_stay_below_their_folder() {
        for name in ["board.png", "img/heap_1.JPG", "a-b.c.pdf"] {
            assert_eq!(latex_file_name(name), Some(name));
        }
        for name in [
            "a b.png",
            "50%.png",
            "#1.png",
            "{x}.png",
            "~.png",
            "a\\input.png",
            "é.png",
            "../up.png",
            "/etc/x.png",
            "img//x.png",
            "./x.png",
            "",
        ] {
            assert_eq!(latex_file_name(name), None, "{name}");
        }
    }

    #[test]
    fn terminal_shows_what_would_act_on_the_screen() {
        assert_eq!(terminal("plain\ttext\n"), "plain\ttext\n");
        assert_eq!(terminal("\x1b]0;owned\x07"), "\\x1b]0;owned\\x07");
        assert_eq!(terminal("wrong\raccepted"), "wrong\\raccepted");
        assert_eq!(terminal("\u{9b}2J"), "\\x9b2J");
        assert_eq!(terminal("a\u{202e}b"), "a\\u{202e}b");
        assert_eq!(terminal("\x7f"), "\\x7f");
    }

    #[test]
    fn one_line_keeps_outside_text_on_its_line() {
        assert_eq!(one_line("Ada Lovelace"), "Ada Lovelace");
        assert_eq!(
            one_line("Eve\nmallory\tinstructor\x1b[2J\x07"),
            "Eve\\nmallory\\tinstructor\\x1b[2J\\x07"
        );
        // A reader splitting lines by Unicode's rules sees no new row; no mark reorders it.
        assert_eq!(
            one_line("Eve\u{2028}mallory\u{2029}\u{200f}x\u{61c}"),
            "Eve\\u{2028}mallory\\u{2029}\\u{200f}x\\u{61c}"
        );
        assert_eq!(quoted("a\nb", 10), "\"a\\nb\"");
        assert_eq!(quoted("abcdef", 3), "\"abc...\"");
        assert_eq!(quoted("say \"hi\"", 20), "\"say \\\"hi\\\"\"");
    }

    #[test]
    fn bytes_keep_invalid_utf8_visible() {
        assert_eq!(bytes(b"ok\xff\x1b[2J\n"), "ok\\xff\\x1b[2J\n");
    }

    #[test]
    fn csv_cells_never_start_a_formula() {
        for hostile in ["=HYPERLINK(\"x\")", "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"] {
            assert!(csv_cell(hostile).starts_with('\''), "{hostile}");
        }
        assert_eq!(csv_cell("Ada Lovelace"), "Ada Lovelace");
        assert_eq!(csv_cell(""), "");
    }

    #[test]
    fn html_and_latex_escape_their_specials() {
        assert_eq!(
            html("<b a='1'>&</b>"),
            "&lt;b a=&#39;1&#39;&gt;&amp;&lt;/b&gt;"
        );
        assert_eq!(
            latex("\\end{verbatim}\\input{/etc/passwd}"),
            "\\textbackslash{}end\\{verbatim\\}\\textbackslash{}input\\{/etc/passwd\\}"
        );
    }
}
