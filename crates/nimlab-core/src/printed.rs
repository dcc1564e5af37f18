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

/// Bytes without the terminal's escape sequences: colours and cursor moves (`ESC [ … m`,
/// `ESC [2J`, `ESC [H`), titles and links (`ESC ] … BEL` or `ESC ] … ESC \\`) and the short
/// two-byte ones (`ESC 7`, `ESC (B`). What they surround is kept; a sequence cut off at the end
/// is dropped. For reading what a program says as a person at a terminal would.
pub fn without_escape_sequences(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    const ESC: u8 = 0x1b;
    if !bytes.contains(&ESC) {
        return std::borrow::Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != ESC {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        i += 1;
        match bytes.get(i) {
            // CSI: parameters and intermediates, then one final byte.
            Some(b'[') => {
                i += 1;
                while i < bytes.len() && (0x20..=0x3f).contains(&bytes[i]) {
                    i += 1;
                }
                if i < bytes.len() && (0x40..=0x7e).contains(&bytes[i]) {
                    i += 1;
                }
            }
            // OSC (and the other strings: DCS, SOS, PM, APC), up to BEL or ESC \.
            Some(b']' | b'P' | b'X' | b'^' | b'_') => {
                i += 1;
                while i < bytes.len() {
                    if bytes[i] == 0x07 {
                        i += 1;
                        break;
                    }
                    if bytes[i] == ESC && bytes.get(i + 1) == Some(&b'\\') {
                        i += 2;
                        break;
                    }
                    i += 1;
                }
            }
            // nF (`ESC ( B`): intermediates, then one final byte; else Fp, Fe, Fs (`ESC 7`).
            Some(_) => {
                while i < bytes.len() && (0x20..=0x2f).contains(&bytes[i]) {
                    i += 1;
                }
                if i < bytes.len() && (0x30..=0x7e).contains(&bytes[i]) {
                    i += 1;
                }
            }
            None => {}
        }
    }
    std::borrow::Cow::Owned(out)
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
    fn escape_sequences_are_taken_out_and_what_they_surround_kept() {
        let strip =
            |bytes: &[u8]| String::from_utf8(without_escape_sequences(bytes).into_owned()).unwrap();
        assert_eq!(strip(b"\x1b[1;32mRow 1:\x1b[0m ***\n"), "Row 1: ***\n");
        assert_eq!(strip(b"\x1b[2J\x1b[HNim\n"), "Nim\n");
        assert_eq!(
            strip(b"\x1b]0;Nim\x07a\x1b]8;;http://x\x1b\\b\x1b(Bc\x1b7d"),
            "abcd"
        );
        assert_eq!(strip(b"\x1b[38;5;208mHeap\x1b[?25l 3\x1b["), "Heap 3");
        assert_eq!(
            strip("\u{25cf}\x1b[m\u{25cf}".as_bytes()),
            "\u{25cf}\u{25cf}"
        );
        assert!(matches!(
            without_escape_sequences(b"plain"),
            std::borrow::Cow::Borrowed(_)
        ));
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
