//! What a program printed, made fit to show: every byte visible, long texts clipped.

/// Bytes shown as text: invalid UTF-8 as `\xNN`, control characters escaped, nothing lost.
pub fn printable(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\n' | '\t' => out.push(c),
                '\r' => out.push_str("\\r"),
                c if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// At most `lines` lines and `chars` characters of a text, saying what was cut.
pub fn clip(text: &str, lines: usize, chars: usize) -> String {
    let mut out = String::new();
    let total_lines = text.lines().count();
    for (i, line) in text.lines().enumerate() {
        if i == lines || out.len() + line.len() > chars {
            let shown = i;
            out.push_str(&format!(
                "… ({} more line(s) not shown)\n",
                total_lines - shown
            ));
            return out;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_escapes_what_a_terminal_should_not_see() {
        assert_eq!(printable(b"ok\n"), "ok\n");
        assert_eq!(printable(b"a\xffb"), "a\\xffb");
        assert_eq!(printable(b"\x1b[31mred"), "\\u{1b}[31mred");
        assert_eq!(printable("caf\u{e9}".as_bytes()), "caf\u{e9}");
    }
}
