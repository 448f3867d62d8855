//! Reading puzzles: the input flags, files and standard input a line at a time, and the
//! puzzles of an input (one per line, or the whole input as one grid).
//!
//! A file of line-format puzzles is read a line at a time as the work goes on: memory
//! stays flat however long the file, and results appear while it is being read.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, ErrorKind};
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use csp_sudoku::{Grid, ParseError, PuzzleReader, is_puzzle_line, looks_like_row, parse_line, parse_puzzle};

use crate::error::CliError;

/// Where puzzles come from and how to read them.
#[derive(Args, Clone, Debug)]
pub struct InputArgs {
    /// Puzzle file; `-` or nothing reads standard input.
    pub file: Option<PathBuf>,
    /// How to read the input: `lines` (one puzzle per line), `grid` (the whole input is one
    /// puzzle, as rows or numbers), `auto` (lines, unless the first puzzle line is no puzzle).
    #[arg(long, value_enum, default_value_t = InputMode::Auto)]
    pub input: InputMode,
}

/// See [`InputArgs::input`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputMode {
    /// Decide from the content.
    Auto,
    /// One puzzle per line.
    Lines,
    /// One puzzle in the whole input.
    Grid,
}

/// A puzzle read from the input, with the line it starts on.
pub type NumberedPuzzle = (usize, Result<Grid, ParseError>);

/// The lines of a file, or of standard input for `None` and `-`, read as they are needed.
/// Invalid UTF-8 is kept visible (as U+FFFD) so that the parser reports the line and
/// column. A leading byte-order mark is dropped, and lone carriage returns (old Mac line
/// ends) end lines like `\n`, so that line numbers and columns count what an editor shows.
pub struct Input {
    reader: Box<dyn BufRead>,
    /// The file read, if any (`None` for standard input).
    file: Option<PathBuf>,
    bytes: Vec<u8>,
    line: String,
    /// Lines that followed a lone `\r` on the last line read, still to be returned.
    pending: VecDeque<String>,
    /// The number of the last line returned.
    number: usize,
}

impl Input {
    /// Opens a file, or standard input for `None` and `-`.
    pub fn open(path: Option<&Path>) -> Result<Input, CliError> {
        let file = path.filter(|p| *p != Path::new("-")).map(Path::to_path_buf);
        let reader: Box<dyn BufRead> = match &file {
            None => Box::new(std::io::stdin().lock()),
            Some(p) => Box::new(BufReader::new(File::open(p).map_err(|e| read_error(Some(p), e))?)),
        };
        Ok(Input {
            reader,
            file,
            bytes: Vec::new(),
            line: String::new(),
            pending: VecDeque::new(),
            number: 0,
        })
    }

    /// The next line and its number (from 1), without its line end; `None` at the end.
    pub fn next_line(&mut self) -> Result<Option<(usize, &str)>, CliError> {
        if let Some(line) = self.pending.pop_front() {
            self.line = line;
        } else {
            self.bytes.clear();
            let read = self
                .reader
                .read_until(b'\n', &mut self.bytes)
                .map_err(|e| read_error(self.file.as_deref(), e))?;
            if read == 0 {
                return Ok(None);
            }
            let mut bytes = &self.bytes[..];
            if self.number == 0 {
                bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
            }
            bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
            bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
            self.line.clear();
            self.line.push_str(&String::from_utf8_lossy(bytes));
            if let Some(at) = self.line.find('\r') {
                self.pending
                    .extend(self.line[at + 1..].split('\r').map(String::from));
                self.line.truncate(at);
            }
        }
        self.number += 1;
        Ok(Some((self.number, &self.line)))
    }

    /// Appends the lines not read yet to `text`, each with its `\n`.
    fn read_rest(&mut self, text: &mut String) -> Result<(), CliError> {
        while let Some((_, line)) = self.next_line()? {
            text.push_str(line);
            text.push('\n');
        }
        Ok(())
    }
}

/// The error of a file (or of standard input, for `None`) that cannot be read. A file that
/// names nothing readable is a usage error, like a bad flag.
fn read_error(path: Option<&Path>, source: std::io::Error) -> CliError {
    let context = match path {
        Some(p) => format!("cannot read {}", p.display()),
        None => "cannot read standard input".to_string(),
    };
    match source.kind() {
        ErrorKind::NotFound | ErrorKind::PermissionDenied | ErrorKind::IsADirectory => {
            CliError::Usage(format!("{context}: {source}"))
        }
        _ => CliError::Io { context, source },
    }
}

/// The puzzles of an input: one per line, or the whole input as one grid. An input
/// without puzzle lines (empty, blank, or only comments) gives [`ParseError::Empty`] on
/// line 1.
///
/// The input is read up to its first puzzle line here (so that an unreadable file fails
/// before any output); the rest of a file of lines is read as the puzzles are taken.
pub fn puzzles(mut input: Input, mode: InputMode) -> Result<Puzzles, CliError> {
    // The text read so far, in case the input turns out to be one grid.
    let mut text = String::new();
    let (number, first) = loop {
        let Some((number, line)) = input.next_line()? else {
            return Ok(Puzzles::listed(vec![(1, Err(ParseError::Empty))]));
        };
        text.push_str(line);
        text.push('\n');
        if is_puzzle_line(line) {
            break (number, line.to_string());
        }
    };
    let lines = match mode {
        InputMode::Lines => true,
        InputMode::Grid => false,
        // A file of line-format puzzles starts with one.
        InputMode::Auto => parse_line(&first, number).is_ok(),
    };
    if lines {
        return Ok(Puzzles {
            first: Some((number, first)),
            input: Some(input),
            listed: Vec::new().into_iter(),
        });
    }
    input.read_rest(&mut text)?;
    Ok(Puzzles::listed(whole_text(&text, mode, number)))
}

/// The puzzles of a whole text whose first puzzle line, `first_line`, is no line-format
/// puzzle (or `mode` says the text is one grid).
fn whole_text(text: &str, mode: InputMode, first_line: usize) -> Vec<NumberedPuzzle> {
    match mode {
        InputMode::Lines => PuzzleReader::new(text).collect(),
        InputMode::Grid => vec![(first_line, parse_puzzle(text))],
        // Try the whole text as one grid, and fall back to lines so that errors name
        // their line.
        InputMode::Auto => match parse_puzzle(text) {
            Ok(grid) => vec![(first_line, Ok(grid))],
            Err(whole) => {
                let lines: Vec<NumberedPuzzle> = PuzzleReader::new(text).collect();
                // A grid with a mistake in it: its rows are no puzzles on their own, so the
                // mistake is reported once instead of a wrong length for every row. A line too
                // long for a row (a bad line-format puzzle) means a file of puzzles instead.
                let all_rows = text.lines().filter(|l| is_puzzle_line(l)).all(looks_like_row);
                if all_rows && lines.iter().all(|(_, p)| p.is_err()) {
                    vec![(first_line, Err(whole))]
                } else {
                    lines
                }
            }
        },
    }
}

/// The puzzles of an input (see [`puzzles`]), in input order; an error ends them.
pub struct Puzzles {
    /// The first puzzle line of a file of lines, read by [`puzzles`].
    first: Option<(usize, String)>,
    /// The rest of a file of lines.
    input: Option<Input>,
    /// The puzzles of a whole text, read at once.
    listed: std::vec::IntoIter<NumberedPuzzle>,
}

impl Puzzles {
    fn listed(items: Vec<NumberedPuzzle>) -> Puzzles {
        Puzzles {
            first: None,
            input: None,
            listed: items.into_iter(),
        }
    }

    /// How many puzzles there are, for a progress bar: exact for a whole text, the puzzle
    /// lines of a regular file counted on a second read, unknown for anything else. A pipe,
    /// a FIFO, `/dev/stdin` or a process substitution is never opened a second time: that
    /// would take lines the batch has not read yet.
    pub fn len_hint(&self) -> Option<u64> {
        let Some(input) = &self.input else {
            return Some(self.listed.len() as u64);
        };
        let path = input.file.as_ref()?;
        if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
            return None;
        }
        let file = BufReader::new(File::open(path).ok()?);
        Some(
            file.lines()
                .map_while(Result::ok)
                .filter(|l| is_puzzle_line(l))
                .count() as u64,
        )
    }
}

/// Puzzles read already (for runs over the same puzzles more than once).
impl From<Vec<NumberedPuzzle>> for Puzzles {
    fn from(items: Vec<NumberedPuzzle>) -> Puzzles {
        Puzzles::listed(items)
    }
}

impl Iterator for Puzzles {
    type Item = Result<NumberedPuzzle, CliError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some((number, line)) = self.first.take() {
            return Some(Ok((number, parse_line(&line, number))));
        }
        let Some(input) = &mut self.input else {
            return self.listed.next().map(Ok);
        };
        loop {
            match input.next_line() {
                Ok(Some((number, line))) if is_puzzle_line(line) => {
                    return Some(Ok((number, parse_line(line, number))));
                }
                Ok(Some(_)) => {}
                Ok(None) => return None,
                Err(e) => {
                    self.input = None;
                    return Some(Err(e));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of `bytes` as [`Input`] reads them from a file.
    fn lines_of(bytes: &[u8]) -> Vec<(usize, String)> {
        let path = std::env::temp_dir().join(format!("csp-batch-input-{}.txt", std::process::id()));
        std::fs::write(&path, bytes).expect("a temporary file");
        let mut input = Input::open(Some(&path)).expect("readable");
        let mut lines = Vec::new();
        while let Some((number, line)) = input.next_line().expect("readable") {
            lines.push((number, line.to_string()));
        }
        std::fs::remove_file(&path).expect("removable");
        lines
    }

    #[test]
    fn lines_are_numbered_as_an_editor_shows_them() {
        let read = lines_of(b"\xef\xbb\xbfa\r\nb\rc\r\r\nd\n\xefe\xff\n\xef\xbb\xbff");
        let expected = [
            "a",
            "b",
            "c",
            "",
            "d",
            "\u{fffd}e\u{fffd}",
            // A byte-order mark is dropped only at the start of the input.
            "\u{feff}f",
        ];
        let expected: Vec<(usize, String)> = expected
            .iter()
            .enumerate()
            .map(|(i, l)| (i + 1, l.to_string()))
            .collect();
        assert_eq!(read, expected);
        assert_eq!(lines_of(b""), []);
        assert_eq!(lines_of(b"\n"), [(1, String::new())]);
    }
}
