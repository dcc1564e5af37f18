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

/// At most `lines` lines and `chars` bytes of a text, saying what was cut. A line that does
/// not fit is shown up to the limit, never dropped whole: one very long line (a float
/// printed where an integer was expected) is often the whole answer.
pub fn clip(text: &str, lines: usize, chars: usize) -> String {
    let mut out = String::new();
    let total_lines = text.lines().count();
    for (i, line) in text.lines().enumerate() {
        if i == lines {
            out.push_str(&format!("… ({} more line(s) not shown)\n", total_lines - i));
            return out;
        }
        let room = chars.saturating_sub(out.len());
        if line.len() > room {
            let mut cut = room;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            out.push_str(&line[..cut]);
            let rest = line[cut..].chars().count();
            let more_lines = total_lines - i - 1;
            let lines_note = if more_lines > 0 {
                format!(" and {more_lines} more line(s)")
            } else {
                String::new()
            };
            out.push_str(&format!(
                "… ({rest} more character(s) of this line{lines_note} not shown)\n"
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

    #[test]
    fn a_line_too_long_is_shown_up_to_the_limit_not_hidden() {
        let long = "1.5".repeat(10_000);
        let clipped = clip(&format!("{long}\nsecond\n"), 40, 4_000);
        assert!(clipped.starts_with("1.51.51.5"), "{clipped}");
        assert!(
            clipped.ends_with(
                "… (26000 more character(s) of this line and 1 more line(s) not shown)\n"
            ),
            "{clipped}"
        );
        // Cut on a character, not inside one.
        let clipped = clip(&"é".repeat(10), 5, 5);
        assert_eq!(
            clipped,
            "éé… (8 more character(s) of this line not shown)\n"
        );
        assert_eq!(
            clip("a\nb\nc\n", 2, 100),
            "a\nb\n… (1 more line(s) not shown)\n"
        );
        assert_eq!(clip("a\nb\n", 2, 100), "a\nb\n");
    }
}
