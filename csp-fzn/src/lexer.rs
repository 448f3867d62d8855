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
pub(crate) fn tokens(text: &str) -> Result<Vec<(Tok, Pos)>> {
    let mut lexer = Lexer {
        chars: text.chars().collect(),
        at: 0,
        pos: Pos { line: 1, column: 1 },
    };
    let mut out = Vec::new();
    loop {
        lexer.skip_blanks();
        let pos = lexer.pos;
        let Some(c) = lexer.peek(0) else {
            out.push((Tok::Eof, pos));
            return Ok(out);
        };
        let tok = if c.is_ascii_alphabetic() || c == '_' {
            Tok::Ident(lexer.take_while(|c| c.is_ascii_alphanumeric() || c == '_'))
        } else if c.is_ascii_digit() || (c == '-' && lexer.peek(1).is_some_and(|d| d.is_ascii_digit())) {
            lexer.number(pos)?
        } else if c == '"' {
            lexer.string(pos)?
        } else if c == '\'' {
            // A quoted identifier (MiniZinc allows `'any name'`): kept with its quotes,
            // so that it is printed back as written.
            lexer.bump();
            let name = lexer.take_while(|c| c != '\'' && c != '\n');
            if lexer.bump() != Some('\'') {
                return Err(Error::syntax(pos, "unterminated quoted identifier"));
            }
            Tok::Ident(format!("'{name}'"))
        } else {
            lexer.punct(pos)?
        };
        out.push((tok, pos));
    }
}

struct Lexer {
    chars: Vec<char>,
    at: usize,
    pos: Pos,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.at += 1;
        if c == '\n' {
            self.pos.line += 1;
            self.pos.column = 1;
        } else {
            self.pos.column += 1;
        }
        Some(c)
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek(0).filter(|&c| keep(c)) {
            s.push(c);
            self.bump();
        }
        s
    }

    /// Skips white space and `%` comments.
    fn skip_blanks(&mut self) {
        while let Some(c) = self.peek(0) {
            if c.is_whitespace() {
                self.bump();
            } else if c == '%' {
                while self.peek(0).is_some_and(|c| c != '\n') {
                    self.bump();
                }
            } else {
                break;
            }
        }
    }

    fn number(&mut self, pos: Pos) -> Result<Tok> {
        let negative = self.peek(0) == Some('-');
        if negative {
            self.bump();
        }
        let radix = match (self.peek(0), self.peek(1)) {
            (Some('0'), Some('x')) => 16,
            (Some('0'), Some('o')) => 8,
            _ => 10,
        };
        if radix != 10 {
            self.bump();
            self.bump();
            let digits = self.take_while(|c| c.is_digit(radix));
            return int_literal(&digits, radix, negative, pos);
        }
        let mut text = self.take_while(|c| c.is_ascii_digit());
        let mut float = false;
        // `1..3` is a range: a dot makes a float only when a digit follows it.
        if self.peek(0) == Some('.') && self.peek(1).is_some_and(|c| c.is_ascii_digit()) {
            float = true;
            self.bump();
            text.push('.');
            text.push_str(&self.take_while(|c| c.is_ascii_digit()));
        }
        if matches!(self.peek(0), Some('e' | 'E')) {
            let sign = matches!(self.peek(1), Some('+' | '-'));
            let digit_at = if sign { 2 } else { 1 };
            if self.peek(digit_at).is_some_and(|c| c.is_ascii_digit()) {
                float = true;
                text.push('e');
                self.bump();
                if sign {
                    text.push(self.bump().unwrap_or('+'));
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
        let mut s = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => return Err(Error::syntax(pos, "unterminated string literal")),
                Some('"') => return Ok(Tok::Str(s)),
                Some('\\') => match self.bump() {
                    Some('n') => s.push('\n'),
                    Some('t') => s.push('\t'),
                    Some(c) if c != '\n' => s.push(c),
                    _ => return Err(Error::syntax(pos, "unterminated string literal")),
                },
                Some(c) => s.push(c),
            }
        }
    }

    fn punct(&mut self, pos: Pos) -> Result<Tok> {
        let two: String = [self.peek(0), self.peek(1)].iter().flatten().collect();
        for p in ["::", ".."] {
            if two == p {
                self.bump();
                self.bump();
                return Ok(Tok::Punct(p));
            }
        }
        let c = self.peek(0).unwrap_or(' ');
        let single = ["(", ")", "[", "]", "{", "}", ",", ":", ";", "="]
            .into_iter()
            .find(|p| p.starts_with(c));
        match single {
            Some(p) => {
                self.bump();
                Ok(Tok::Punct(p))
            }
            None => Err(Error::syntax(pos, format!("unexpected character `{c}`"))),
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
