//! The messages nimlab and its fork server send each other over the control socket (described
//! in `PROTOCOL.md`, beside this file). A message begins with its tag, one byte that says what
//! it is; each of its fields follows after a NUL byte. This is the one place the tags' bytes
//! are written: the rest of the fork runner reads and writes messages through [`Tag`],
//! [`Message`] and [`encode`]. (The server's side is `forkserver_body.py`, and `forkserver.py`
//! for [`Tag::Code`].)

/// What a message is: the byte it begins with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tag {
    /// `C`: nimlab asks the server to compile a program (its path); the server answers with
    /// the same tag (whether it compiled, whether it can serve it, the syntax probe's JSON).
    Compile,
    /// `R`: nimlab asks for a run (program, working folder, CPU seconds, seed, arguments,
    /// environment).
    Run,
    /// `D`: the one byte that carries a run's three descriptors (SCM_RIGHTS), after [`Tag::Run`].
    Descriptors,
    /// `W`: nimlab holds the child's pidfd: the server may reap it.
    Watching,
    /// `B`: the server's own code, as it compiled it at its start (or nothing), sent once.
    Code,
    /// `N`: the server cannot make this run (why).
    Refused,
    /// `H`: sent by the forked child itself, about to run the program (the kernel adds its pid).
    Ready,
    /// `F`: sent by the forked child itself, which could not get ready (why).
    Failed,
    /// `X`: the child has ended and been reaped: its status, CPU times and peak memory.
    Exited,
    /// `S`: whether the server could empty the run's folders and undo its traces (`1` or `0`).
    Settled,
    /// `U`: nimlab asks a warm interpreter (a zygote) for a server of one submission: the
    /// folder its runs' working folders go in, then each folder its runs are shown.
    Enter,
    /// `E`: sent by the submission's server, forked from the zygote, ready to serve.
    Entered,
    /// `L`: nimlab is done with the submission: its server ends.
    Leave,
    /// `Z`: the zygote has reaped the submission's server (its status), and is idle again.
    Left,
}

impl Tag {
    /// Every tag.
    #[cfg(test)]
    pub(super) const ALL: [Tag; 14] = [
        Tag::Compile,
        Tag::Run,
        Tag::Descriptors,
        Tag::Watching,
        Tag::Code,
        Tag::Refused,
        Tag::Ready,
        Tag::Failed,
        Tag::Exited,
        Tag::Settled,
        Tag::Enter,
        Tag::Entered,
        Tag::Leave,
        Tag::Left,
    ];

    /// The byte a message with this tag begins with.
    pub(super) const fn byte(self) -> u8 {
        match self {
            Tag::Compile => b'C',
            Tag::Run => b'R',
            Tag::Descriptors => b'D',
            Tag::Watching => b'W',
            Tag::Code => b'B',
            Tag::Refused => b'N',
            Tag::Ready => b'H',
            Tag::Failed => b'F',
            Tag::Exited => b'X',
            Tag::Settled => b'S',
            Tag::Enter => b'U',
            Tag::Entered => b'E',
            Tag::Leave => b'L',
            Tag::Left => b'Z',
        }
    }

    /// The tag `byte` stands for, if it is one.
    pub(super) const fn from_byte(byte: u8) -> Option<Tag> {
        Some(match byte {
            b'C' => Tag::Compile,
            b'R' => Tag::Run,
            b'D' => Tag::Descriptors,
            b'W' => Tag::Watching,
            b'B' => Tag::Code,
            b'N' => Tag::Refused,
            b'H' => Tag::Ready,
            b'F' => Tag::Failed,
            b'X' => Tag::Exited,
            b'S' => Tag::Settled,
            b'U' => Tag::Enter,
            b'E' => Tag::Entered,
            b'L' => Tag::Leave,
            b'Z' => Tag::Left,
            _ => return None,
        })
    }
}

/// A message as received: its tag, and what follows the NUL byte after the tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Message<'a> {
    pub tag: Tag,
    /// Everything after the tag's NUL byte (its fields); None when the message is its tag
    /// alone.
    pub body: Option<&'a [u8]>,
}

impl<'a> Message<'a> {
    /// Reads a message; None when its first field is not one byte that is a [`Tag`].
    pub fn parse(bytes: &'a [u8]) -> Option<Message<'a>> {
        let (head, body) = match bytes.iter().position(|&b| b == 0) {
            Some(at) => (&bytes[..at], Some(&bytes[at + 1..])),
            None => (bytes, None),
        };
        let [byte] = head else {
            return None;
        };
        Some(Message {
            tag: Tag::from_byte(*byte)?,
            body,
        })
    }

    /// The fields after the tag (none when the message is its tag alone).
    pub fn fields(&self) -> Vec<&'a [u8]> {
        self.fields_upto(usize::MAX)
    }

    /// The fields after the tag, at most `count` of them: the last holds the rest of the
    /// message, NUL bytes and all.
    pub fn fields_upto(&self, count: usize) -> Vec<&'a [u8]> {
        match self.body {
            Some(body) => body.splitn(count, |&b| b == 0).collect(),
            None => Vec::new(),
        }
    }

    /// What follows the tag, as text (a refusal's reason): empty when nothing does.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(self.body.unwrap_or_default()).into_owned()
    }
}

/// A message to send: `tag`, then each field after a NUL byte. (A field holding a NUL byte
/// would be read as two: callers refuse such fields before.)
pub(super) fn encode(tag: Tag, fields: &[&[u8]]) -> Vec<u8> {
    let length = 1 + fields.iter().map(|f| f.len() + 1).sum::<usize>();
    let mut message = Vec::with_capacity(length);
    message.push(tag.byte());
    for field in fields {
        message.push(0);
        message.extend_from_slice(field);
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tag_is_its_own_byte_and_reads_back() {
        for tag in Tag::ALL {
            assert_eq!(Tag::from_byte(tag.byte()), Some(tag), "{tag:?}");
            let others = Tag::ALL.iter().filter(|t| t.byte() == tag.byte()).count();
            assert_eq!(others, 1, "{tag:?} shares its byte");
        }
    }

    #[test]
    fn a_message_reads_back_as_it_was_encoded() {
        let field_lists: [&[&[u8]]; 5] = [
            &[],
            &[b""],
            &[b"/lab/present_board.py"],
            &[b"1", b"", b"{\"version\": \"3.11.2\"}"],
            &[b"a b", "é".as_bytes(), b"\xff\x01"],
        ];
        for tag in Tag::ALL {
            for fields in field_lists {
                let bytes = encode(tag, fields);
                assert_eq!(bytes[0], tag.byte());
                let message = Message::parse(&bytes).expect("a known tag");
                assert_eq!(message.tag, tag);
                assert_eq!(message.fields(), fields, "{tag:?}");
                assert_eq!(message.body.is_none(), fields.is_empty(), "{tag:?}");
            }
        }
    }

    #[test]
    fn messages_are_the_bytes_the_server_reads_and_writes() {
        assert_eq!(encode(Tag::Watching, &[]), b"W");
        assert_eq!(encode(Tag::Compile, &[b"/p.py"]), b"C\0/p.py");
        let run: [&[u8]; 7] = [b"/p.py", b"/w", b"2", b"", b"1", b"/p.py", b"0"];
        let joined = [[b"R".as_slice()].as_slice(), &run].concat().join(&0u8);
        assert_eq!(encode(Tag::Run, &run), joined);
        let exited = [b"X".as_slice(), b"0", b"120", b"40", b"9000"].join(&0u8);
        let exited = Message::parse(&exited).unwrap();
        assert_eq!(exited.tag, Tag::Exited);
        let fields: Vec<&[u8]> = vec![b"0", b"120", b"40", b"9000"];
        assert_eq!(exited.fields(), fields);
        let refused = Message::parse(b"N\0cannot fork: \xffno").unwrap();
        assert_eq!(
            (refused.tag, refused.text()),
            (Tag::Refused, "cannot fork: \u{fffd}no".into())
        );
        let ready = Message::parse(b"H").unwrap();
        assert_eq!(
            (ready.tag, ready.body, ready.text()),
            (Tag::Ready, None, String::new())
        );
    }

    #[test]
    fn the_last_field_asked_for_keeps_the_rest() {
        let code = Message::parse(b"B\x003.11.2 30b02f0\0\xe3\0\0\x01").unwrap();
        assert_eq!(code.tag, Tag::Code);
        assert_eq!(code.body, Some(b"3.11.2 30b02f0\0\xe3\0\0\x01".as_slice()));
        let compiled = Message::parse(b"C\x001\x001\0{\"a\": 1}\0more").unwrap();
        let fields: Vec<&[u8]> = vec![b"1", b"1", b"{\"a\": 1}\0more"];
        assert_eq!(compiled.fields_upto(3), fields);
    }

    #[test]
    fn an_unknown_tag_is_not_a_message() {
        for bytes in [
            b"".as_slice(),
            b"\0",
            b"Q",
            b"Q\0reason",
            b"h",
            b"RR\0x",
            b"HX",
            b"\0H",
        ] {
            assert_eq!(Message::parse(bytes), None, "{bytes:?}");
        }
        for byte in 0..=u8::MAX {
            if !b"CRDWBNHFXSUELZ".contains(&byte) {
                assert_eq!(Tag::from_byte(byte), None, "{byte}");
            }
        }
    }
}
