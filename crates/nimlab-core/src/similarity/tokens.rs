//! Python source as tokens, for comparing students' programs: names, keywords, numbers,
//! strings, operators, comments and the line structure (new lines, indents and dedents).
//!
//! It never fails: anything it cannot read (an unclosed string, a stray byte) becomes a token
//! of its own, so a broken file is still compared. It reads Python 2 and 3 alike, and knows
//! no more of the grammar than comparing needs.

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Name,
    Keyword,
    Number,
    Str,
    Op,
    Comment,
    /// The end of a logical line.
    Newline,
    Indent,
    Dedent,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub text: String,
    /// The line it starts on, from 1.
    pub line: u32,
    /// The line it ends on (a triple-quoted string spans several).
    pub end_line: u32,
}

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "exec", "finally", "for", "from", "global", "if",
    "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "print", "raise", "return",
    "try", "while", "with", "yield",
];

/// Three-character operators first, then two, so the longest is taken.
const OPERATORS: &[&str] = &[
    "**=", "//=", ">>=", "<<=", "...", "!=", "%=", "&=", "**", "*=", "+=", "-=", "->", "//", "/=",
    ":=", "<<", "<=", "<>", "==", ">=", ">>", "@=", "^=", "|=",
];

pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

/// The tokens of `source`.
pub fn tokenize(source: &str) -> Vec<Token> {
    let mut lexer = Lexer {
        chars: source.chars().collect(),
        at: 0,
        line: 1,
        depth: 0,
        indents: vec![0],
        tokens: Vec::new(),
        line_start: true,
    };
    lexer.run();
    lexer.tokens
}

struct Lexer {
    chars: Vec<char>,
    at: usize,
    line: u32,
    /// Open brackets: inside them, new lines and indentation mean nothing.
    depth: usize,
    indents: Vec<usize>,
    tokens: Vec<Token>,
    line_start: bool,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn push(&mut self, kind: Kind, text: String, line: u32) {
        self.tokens.push(Token {
            kind,
            text,
            line,
            end_line: self.line,
        });
    }

    fn run(&mut self) {
        while self.at < self.chars.len() {
            if self.line_start && self.depth == 0 && !self.indentation() {
                continue;
            }
            self.line_start = false;
            self.token();
        }
        self.end_line();
        while self.indents.len() > 1 {
            self.indents.pop();
            self.push(Kind::Dedent, String::new(), self.line);
        }
    }

    /// Reads a line's indentation; false when the line is blank or a comment (it was
    /// consumed and means nothing to the structure).
    fn indentation(&mut self) -> bool {
        let mut width = 0;
        while let Some(c) = self.peek(0) {
            match c {
                ' ' => width += 1,
                '\t' => width = (width / 8 + 1) * 8,
                '\x0c' => width = 0,
                _ => break,
            }
            self.at += 1;
        }
        match self.peek(0) {
            None => return false,
            Some('\n' | '\r') => {
                self.newline_char();
                return false;
            }
            Some('#') => {
                self.comment();
                return false;
            }
            Some('\\') if matches!(self.peek(1), Some('\n' | '\r')) => {
                self.at += 1;
                self.newline_char();
                return false;
            }
            _ => {}
        }
        let current = *self.indents.last().unwrap_or(&0);
        if width > current {
            self.indents.push(width);
            self.push(Kind::Indent, String::new(), self.line);
        } else {
            while width < *self.indents.last().unwrap_or(&0) {
                self.indents.pop();
                self.push(Kind::Dedent, String::new(), self.line);
            }
        }
        self.line_start = false;
        true
    }

    fn newline_char(&mut self) {
        if self.peek(0) == Some('\r') && self.peek(1) == Some('\n') {
            self.at += 1;
        }
        self.at += 1;
        self.line += 1;
        self.line_start = true;
    }

    /// Ends a logical line, once.
    fn end_line(&mut self) {
        if self
            .tokens
            .last()
            .is_some_and(|t| !matches!(t.kind, Kind::Newline | Kind::Indent | Kind::Dedent))
        {
            self.push(Kind::Newline, String::new(), self.line);
        }
    }

    fn comment(&mut self) {
        let start = self.at;
        while self.peek(0).is_some_and(|c| c != '\n' && c != '\r') {
            self.at += 1;
        }
        let text: String = self.chars[start..self.at].iter().collect();
        self.push(Kind::Comment, text, self.line);
    }

    fn token(&mut self) {
        let Some(c) = self.peek(0) else { return };
        match c {
            '\n' | '\r' => {
                if self.depth == 0 {
                    self.end_line();
                }
                self.newline_char();
                self.line_start = self.depth == 0;
            }
            ' ' | '\t' | '\x0c' => self.at += 1,
            '#' => self.comment(),
            '\\' if matches!(self.peek(1), Some('\n' | '\r')) => {
                self.at += 1;
                self.newline_char();
                self.line_start = false;
            }
            '"' | '\'' => self.string(0),
            c if c.is_ascii_digit()
                || (c == '.' && self.peek(1).is_some_and(|d| d.is_ascii_digit())) =>
            {
                self.number()
            }
            c if c.is_alphabetic() || c == '_' => self.word(),
            _ => self.operator(),
        }
    }

    fn word(&mut self) {
        let start = self.at;
        while self
            .peek(0)
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            self.at += 1;
        }
        let text: String = self.chars[start..self.at].iter().collect();
        // String prefixes: r"", b'', f"", u'', rb"" ...
        if text.len() <= 2
            && text.chars().all(|c| "rRbBuUfF".contains(c))
            && matches!(self.peek(0), Some('"' | '\''))
        {
            self.at = start;
            return self.string(text.len());
        }
        let kind = if is_keyword(&text) {
            Kind::Keyword
        } else {
            Kind::Name
        };
        self.push(kind, text, self.line);
    }

    fn number(&mut self) {
        let start = self.at;
        while let Some(c) = self.peek(0) {
            let exponent_sign = matches!(c, '+' | '-')
                && self.at > start
                && matches!(self.chars[self.at - 1], 'e' | 'E')
                && !self.chars[start..self.at]
                    .iter()
                    .any(|c| matches!(c, 'x' | 'X'));
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' || exponent_sign {
                self.at += 1;
            } else {
                break;
            }
        }
        let text: String = self.chars[start..self.at].iter().collect();
        self.push(Kind::Number, text.to_ascii_lowercase(), self.line);
    }

    /// A string literal, its prefix `prefix` characters long; the token is its contents.
    fn string(&mut self, prefix: usize) {
        let line = self.line;
        self.at += prefix;
        let quote = self.peek(0).unwrap_or('"');
        let triple = self.peek(1) == Some(quote) && self.peek(2) == Some(quote);
        self.at += if triple { 3 } else { 1 };
        let start = self.at;
        let mut end = None;
        while let Some(c) = self.peek(0) {
            if c == '\\' {
                self.at += 2;
                continue;
            }
            if c == '\n' {
                if !triple {
                    break;
                }
                self.line += 1;
            }
            if c == quote
                && (!triple || (self.peek(1) == Some(quote) && self.peek(2) == Some(quote)))
            {
                end = Some(self.at);
                self.at += if triple { 3 } else { 1 };
                break;
            }
            self.at += 1;
        }
        let stop = end.unwrap_or(self.at.min(self.chars.len()));
        let text: String = self.chars[start..stop.max(start)].iter().collect();
        self.push(Kind::Str, text, line);
    }

    fn operator(&mut self) {
        for op in OPERATORS {
            let len = op.chars().count();
            if self.chars[self.at..]
                .iter()
                .take(len)
                .copied()
                .eq(op.chars())
            {
                self.at += len;
                return self.push(Kind::Op, (*op).to_string(), self.line);
            }
        }
        let c = self.chars[self.at];
        self.at += 1;
        match c {
            '(' | '[' | '{' => self.depth += 1,
            ')' | ']' | '}' => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        self.push(Kind::Op, c.to_string(), self.line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<(Kind, String)> {
        tokenize(source)
            .into_iter()
            .map(|t| (t.kind, t.text))
            .collect()
    }

    #[test]
    fn a_function_is_names_keywords_operators_and_its_blocks() {
        let tokens = kinds("def f(a):\n    return a ^ 1  # xor\n");
        let texts: Vec<&str> = tokens.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            texts,
            [
                "def", "f", "(", "a", ")", ":", "", "", "return", "a", "^", "1", "# xor", "", ""
            ]
        );
        assert_eq!(tokens[6].0, Kind::Newline);
        assert_eq!(tokens[7].0, Kind::Indent);
        assert_eq!(tokens.last().unwrap().0, Kind::Dedent);
    }

    #[test]
    fn brackets_join_lines_and_strings_keep_their_lines() {
        let tokens = tokenize("x = [1,\n  2]\ns = '''a\nb'''\ny = r'\\d' + u\"é\"\n");
        let newlines = tokens.iter().filter(|t| t.kind == Kind::Newline).count();
        assert_eq!(newlines, 3);
        let strings: Vec<&Token> = tokens.iter().filter(|t| t.kind == Kind::Str).collect();
        assert_eq!(strings[0].text, "a\nb");
        assert_eq!((strings[0].line, strings[0].end_line), (3, 4));
        assert_eq!(strings[1].text, "\\d");
        assert_eq!(strings[2].text, "é");
        assert_eq!(strings[2].line, 5);
    }

    #[test]
    fn broken_source_is_still_read_to_the_end() {
        for source in [
            "s = 'open\nx = 1\n",
            "\"\"\"never closed",
            "x = )))\n\ty\n  z",
            "\\",
            "é ü 1e+5 0x1e+1",
        ] {
            let tokens = tokenize(source);
            assert!(!tokens.is_empty(), "{source:?}");
        }
        let numbers: Vec<String> = tokenize("1e+5 0x1e+1")
            .into_iter()
            .filter(|t| t.kind == Kind::Number)
            .map(|t| t.text)
            .collect();
        assert_eq!(numbers, ["1e+5", "0x1e", "1"]);
    }
}
