//! FlatZinc tokens, each with its place in the text.

use crate::error::{Error, Pos, Result};

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    /// An identifier or a keyword (`var`, `array`, `constraint`, ...).
    Ident(String),
    /// An integer literal (decimal, `0x` hexadecimal or `0o` octal, with its sign).
    Int(i64),
    /// A float literal.
    Float(f64),
    /// A string literal, escapes resolved.
    Str(String),
    /// Punctuation: `( ) [ ] { } , : :: ; = ..`.
    Punct(&'static str),
    /// The end of the text.
    Eof,
}

impl std::fmt::Display for Tok {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "`{s}`"),
            Tok::Int(i) => write!(f, "`{i}`"),
            Tok::Float(x) => write!(f, "`{x}`"),
            Tok::Str(s) => write!(f, "{s:?}"),
            Tok::Punct(p) => write!(f, "`{p}`"),
            Tok::Eof => f.write_str("the end of the file"),
        }
    }
}

/// Splits `text` into tokens; the last one is [`Tok::Eof`].
#[cfg(test)]
pub(crate) fn tokens(text: &str) -> Result<Vec<(Tok, Pos)>> {
    let mut lexer = Lexer::new(text);
    let mut out = Vec::new();
    loop {
        let (tok, pos) = lexer.token()?;
        let end = tok == Tok::Eof;
        out.push((tok, pos));
        if end {
            return Ok(out);
        }
    }
}

/// The tokens of a text, one at a time: the parser asks for each as it goes, so that
/// reading holds the text and the syntax tree, never a list of every token.
///
/// The text is walked as bytes: every token but string literals and quoted identifiers
/// is ASCII, and those two keep their bytes whole, so a character is never split.
pub(crate) struct Lexer<'a> {
    text: &'a [u8],
    at: usize,
    pos: Pos,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text: text.as_bytes(),
            at: 0,
            pos: Pos { line: 1, column: 1 },
        }
    }

    /// Where the next token starts, or the end.
    pub(crate) fn pos(&self) -> Pos {
        self.pos
    }

    /// The next token and its place; [`Tok::Eof`] at the end, and again after it.
    pub(crate) fn token(&mut self) -> Result<(Tok, Pos)> {
        self.skip_blanks();
        let pos = self.pos;
        let Some(c) = self.peek(0) else {
            return Ok((Tok::Eof, pos));
        };
        let tok = if c.is_ascii_alphabetic() || c == b'_' {
            Tok::Ident(self.take_while(|c| c.is_ascii_alphanumeric() || c == b'_'))
        } else if c.is_ascii_digit() || (c == b'-' && self.peek(1).is_some_and(|d| d.is_ascii_digit())) {
            self.number(pos)?
        } else if c == b'"' {
            self.string(pos)?
        } else if c == b'\'' {
            // A quoted identifier (MiniZinc allows `'any name'`): kept with its quotes,
            // so that it is printed back as written.
            self.bump();
            let name = self.take_while(|c| c != b'\'' && c != b'\n');
            if self.bump() != Some(b'\'') {
                return Err(Error::syntax(pos, "unterminated quoted identifier"));
            }
            Tok::Ident(format!("'{name}'"))
        } else {
            self.punct(pos)?
        };
        Ok((tok, pos))
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.text.get(self.at + ahead).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek(0)?;
        self.at += 1;
        if c == b'\n' {
            self.pos.line += 1;
            self.pos.column = 1;
        } else if c & 0xC0 != 0x80 {
            // Columns count characters: a UTF-8 continuation byte is not one.
            self.pos.column += 1;
        }
        Some(c)
    }

    /// The bytes from here on that `keep` accepts, as text. `keep` rejects every byte of
    /// a multi-byte character or accepts every one, so the text is whole characters.
    fn take_while(&mut self, keep: impl Fn(u8) -> bool) -> String {
        let start = self.at;
        while self.peek(0).is_some_and(&keep) {
            self.bump();
        }
        String::from_utf8_lossy(&self.text[start..self.at]).into_owned()
    }

    /// Skips white space and `%` comments.
    fn skip_blanks(&mut self) {
        while let Some(c) = self.peek(0) {
            if c.is_ascii_whitespace() {
                self.bump();
            } else if c == b'%' {
                while self.peek(0).is_some_and(|c| c != b'\n') {
                    self.bump();
                }
            } else {
                break;
            }
        }
    }

    fn number(&mut self, pos: Pos) -> Result<Tok> {
        let negative = self.peek(0) == Some(b'-');
        if negative {
            self.bump();
        }
        let radix = match (self.peek(0), self.peek(1)) {
            (Some(b'0'), Some(b'x')) => 16,
            (Some(b'0'), Some(b'o')) => 8,
            _ => 10,
        };
        if radix != 10 {
            self.bump();
            self.bump();
            let digits = self.take_while(|c| char::from(c).is_digit(radix));
            return int_literal(&digits, radix, negative, pos);
        }
        let mut text = self.take_while(|c| c.is_ascii_digit());
        let mut float = false;
        // `1..3` is a range: a dot makes a float only when a digit follows it.
        if self.peek(0) == Some(b'.') && self.peek(1).is_some_and(|c| c.is_ascii_digit()) {
            float = true;
            self.bump();
            text.push('.');
            text.push_str(&self.take_while(|c| c.is_ascii_digit()));
        }
        if matches!(self.peek(0), Some(b'e' | b'E')) {
            let sign = matches!(self.peek(1), Some(b'+' | b'-'));
            let digit_at = if sign { 2 } else { 1 };
            if self.peek(digit_at).is_some_and(|c| c.is_ascii_digit()) {
                float = true;
                text.push('e');
                self.bump();
                if sign {
                    text.push(char::from(self.bump().unwrap_or(b'+')));
                }
                text.push_str(&self.take_while(|c| c.is_ascii_digit()));
            }
        }
        if float {
            let value: f64 = text
                .parse()
                .map_err(|_| Error::syntax(pos, format!("bad float literal `{text}`")))?;
            return Ok(Tok::Float(if negative { -value } else { value }));
        }
        int_literal(&text, 10, negative, pos)
    }

    fn string(&mut self, pos: Pos) -> Result<Tok> {
        self.bump();
        let mut bytes = Vec::new();
        loop {
            match self.bump() {
                None | Some(b'\n') => return Err(Error::syntax(pos, "unterminated string literal")),
                Some(b'"') => return Ok(Tok::Str(String::from_utf8_lossy(&bytes).into_owned())),
                Some(b'\\') => match self.bump() {
                    Some(b'n') => bytes.push(b'\n'),
                    Some(b't') => bytes.push(b'\t'),
                    Some(c) if c != b'\n' => bytes.push(c),
                    _ => return Err(Error::syntax(pos, "unterminated string literal")),
                },
                Some(c) => bytes.push(c),
            }
        }
    }

    fn punct(&mut self, pos: Pos) -> Result<Tok> {
        for p in ["::", ".."] {
            if self.text[self.at..].starts_with(p.as_bytes()) {
                self.bump();
                self.bump();
                return Ok(Tok::Punct(p));
            }
        }
        let c = self.peek(0).unwrap_or(b' ');
        let single = ["(", ")", "[", "]", "{", "}", ",", ":", ";", "="]
            .into_iter()
            .find(|p| p.as_bytes()[0] == c);
        match single {
            Some(p) => {
                self.bump();
                Ok(Tok::Punct(p))
            }
            None => {
                // The whole character, not its first byte.
                let rest = String::from_utf8_lossy(&self.text[self.at..(self.at + 4).min(self.text.len())]);
                let shown = rest.chars().next().unwrap_or(' ');
                Err(Error::syntax(pos, format!("unexpected character `{shown}`")))
            }
        }
    }
}

fn int_literal(digits: &str, radix: u32, negative: bool, pos: Pos) -> Result<Tok> {
    if digits.is_empty() {
        return Err(Error::syntax(pos, "a number without digits"));
    }
    let magnitude = i128::from_str_radix(digits, radix)
        .map_err(|_| Error::syntax(pos, format!("the integer `{digits}` does not fit in 64 bits")))?;
    let value = if negative { -magnitude } else { magnitude };
    i64::try_from(value)
        .map(Tok::Int)
        .map_err(|_| Error::syntax(pos, format!("the integer {value} does not fit in 64 bits")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        tokens(text).unwrap().into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn ranges_floats_and_negatives() {
        assert_eq!(
            toks("1..-3 2.5e3 -0x1F 0o17 % comment\nx_1"),
            vec![
                Tok::Int(1),
                Tok::Punct(".."),
                Tok::Int(-3),
                Tok::Float(2500.0),
                Tok::Int(-31),
                Tok::Int(15),
                Tok::Ident("x_1".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn positions() {
        let t = tokens("var\n  int: x;").unwrap();
        assert_eq!(t[1].1, Pos { line: 2, column: 3 });
        let err = tokens("x\n  $").unwrap_err();
        assert_eq!(err.pos(), Some(Pos { line: 2, column: 3 }));
    }
}
