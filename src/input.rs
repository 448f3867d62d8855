//! Reading puzzles: the input flags, files and standard input a line at a time, and the
//! puzzles of an input (one per line, or the whole input as one grid).
//!
//! A file of line-format puzzles is read a line at a time as the work goes on: memory
//! stays flat however long the file, and results appear while it is being read.

use std::fs::File;
use std::io::{BufRead, BufReader, ErrorKind};
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use csp_sudoku::{
    Grid, MAX_LINE_BYTES, ParseError, is_puzzle_line, looks_like_row, parse_counted_at, parse_line,
    parse_puzzle_from,
};

use crate::error::CliError;
use crate::interrupt;

/// Where puzzles come from and how to read them.
#[derive(Args, Clone, Debug)]
pub struct InputArgs {
    /// Puzzle file; `-` or nothing reads standard input.
    pub file: Option<PathBuf>,
    /// How to read the input: `lines` (one puzzle per line), `grid` (the whole input is one
    /// puzzle, as rows or numbers), `auto` (lines, unless the first puzzle line is no puzzle).
    #[arg(long, value_enum, default_value_t = InputMode::Auto, allow_negative_numbers = true)]
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
///
/// Memory stays flat whatever arrives: a line is kept up to [`MAX_LINE_BYTES`] only. A
/// longer line is returned as [`Line::TooLong`] as soon as it is that long, and the rest
/// of it is dropped as it is read (so `/dev/zero` is reported at once).
pub struct Input {
    reader: Box<dyn BufRead>,
    /// The file read, if any (`None` for standard input).
    file: Option<PathBuf>,
    bytes: Vec<u8>,
    line: String,
    /// The last line ended with `\r`: a `\n` right after it belongs to that line end.
    after_cr: bool,
    /// The last line was too long: the rest of it is still to be dropped.
    skipping: bool,
    /// The number of the last line returned.
    number: usize,
    /// Where the counts that lines state after their puzzle are kept, when asked for
    /// ([`Input::keep_stated_counts`]).
    stated: Option<StatedCounts>,
}

/// The number of solutions lines state after their puzzle (`puzzle:count[:solution]`), by
/// line number: kept from when a line is read until its result takes it, so it holds the
/// lines read ahead only.
pub type StatedCounts = std::sync::Arc<std::sync::Mutex<std::collections::BTreeMap<usize, u64>>>;

/// A line of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// The line, without its line end.
    Text(&'a str),
    /// A line longer than any puzzle ([`MAX_LINE_BYTES`]); its text is not kept.
    TooLong,
}

/// The most of one line that is read past [`MAX_LINE_BYTES`] to find its end: an input
/// with no line end within it (`/dev/zero`) is not lines of text, and the rest of it is not
/// read (at the speed of memory this is a tenth of a second).
const MAX_SKIPPED_BYTES: usize = 64 << 20;

/// The most text kept while deciding whether an input is one grid: far more than any grid
/// takes (a 64x64 grid of numbers with separators is under 32 KB).
const MAX_GRID_BYTES: usize = 1 << 20;

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
            after_cr: false,
            skipping: false,
            number: 0,
            stated: None,
        })
    }

    /// Keeps the counts the lines state after their puzzle, for the caller to take.
    pub fn keep_stated_counts(&mut self) -> StatedCounts {
        self.stated.get_or_insert_with(StatedCounts::default).clone()
    }

    /// The next line and its number (from 1); `None` at the end.
    pub fn next_line(&mut self) -> Result<Option<(usize, Line<'_>)>, CliError> {
        let read = self
            .read_bytes()
            .map_err(|e| read_error(self.file.as_deref(), e))?;
        let Some(fits) = read else {
            return Ok(None);
        };
        self.number += 1;
        if !fits {
            return Ok(Some((self.number, Line::TooLong)));
        }
        let mut bytes = &self.bytes[..];
        if self.number == 1 {
            bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
        }
        self.line.clear();
        self.line.push_str(&String::from_utf8_lossy(bytes));
        Ok(Some((self.number, Line::Text(&self.line))))
    }

    /// Reads the next line into `bytes`, without its line end: `Some(true)` when it fits in
    /// [`MAX_LINE_BYTES`], `Some(false)` as soon as it does not (its rest is dropped by the
    /// next read), `None` at the end of the input.
    fn read_bytes(&mut self) -> std::io::Result<Option<bool>> {
        self.bytes.clear();
        if self.skipping {
            self.skipping = false;
            if !self.consume_line(false)? {
                return Ok(None);
            }
        }
        let mut any = false;
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(any.then_some(self.bytes.len() <= MAX_LINE_BYTES));
            }
            if std::mem::take(&mut self.after_cr) && buf[0] == b'\n' {
                self.reader.consume(1);
                continue;
            }
            any = true;
            match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(at) => {
                    self.after_cr = buf[at] == b'\r';
                    self.bytes.extend_from_slice(&buf[..at]);
                    self.reader.consume(at + 1);
                    return Ok(Some(self.bytes.len() <= MAX_LINE_BYTES));
                }
                None => {
                    let len = buf.len();
                    self.bytes.extend_from_slice(buf);
                    self.reader.consume(len);
                    if self.bytes.len() > MAX_LINE_BYTES || interrupt::requested() {
                        self.skipping = true;
                        return Ok(Some(false));
                    }
                }
            }
        }
    }

    /// Drops input up to and including the next line end; `false` if the input ended
    /// first. `any` says whether part of the line was read already. An error past
    /// [`MAX_SKIPPED_BYTES`] without a line end.
    fn consume_line(&mut self, mut any: bool) -> std::io::Result<bool> {
        let mut skipped = 0;
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(any);
            }
            any = true;
            match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(at) => {
                    self.after_cr = buf[at] == b'\r';
                    self.reader.consume(at + 1);
                    return Ok(true);
                }
                None => {
                    let len = buf.len();
                    self.reader.consume(len);
                    skipped += len;
                    // An endless line (`/dev/zero`) ends on a signal, or here.
                    if interrupt::requested() {
                        return Ok(false);
                    }
                    if skipped > MAX_SKIPPED_BYTES {
                        return Err(std::io::Error::new(
                            ErrorKind::InvalidData,
                            format!(
                                "line {}: no line end within {} MiB: this is no text of lines, the rest is not read",
                                self.number,
                                MAX_SKIPPED_BYTES >> 20
                            ),
                        ));
                    }
                }
            }
        }
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

/// Where a bad puzzle is, and what is wrong with it: the error's own `line L` or
/// `line L, column C` when it names one (a grid's mistake is on one of its lines), else
/// the puzzle's `line`. One location, never two.
pub fn located(line: usize, error: &impl std::fmt::Display) -> (String, String) {
    let text = error.to_string();
    let own = text.strip_prefix("line ").and_then(|rest| rest.split_once(": "));
    if let Some((place, what)) = own {
        let numbers = place
            .split(", column ")
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if numbers {
            return (format!("line {place}"), what.to_string());
        }
    }
    (format!("line {line}"), text)
}

/// The comment line (without its `# `) of a puzzle that could not be read or run:
/// `line L, column C: error: what`.
pub fn error_note(line: usize, error: &impl std::fmt::Display) -> String {
    let (place, what) = located(line, error);
    format!("{place}: error: {what}")
}

/// The error of a line longer than any puzzle.
fn too_long(line: usize) -> ParseError {
    ParseError::TooLong {
        line,
        max: MAX_LINE_BYTES,
    }
}

/// The puzzles of an input: one per line, or the whole input as one grid. An input
/// without puzzle lines (empty, blank, or only comments) gives [`ParseError::Empty`] on
/// line 1.
///
/// The input is read up to its first puzzle line here (so that an unreadable file fails
/// before any output); the rest of a file of lines is read as the puzzles are taken. In
/// auto mode, a first line that is no puzzle may be the first row of a grid: the input is
/// read on only while its lines could be rows and stay within a grid's size, and is taken
/// as lines as soon as one could not, so memory stays flat for a file of lines.
pub fn puzzles(mut input: Input, mode: InputMode) -> Result<Puzzles, CliError> {
    let stated = input.stated.clone();
    // Comments and blank lines before the first puzzle line are passed over.
    let (number, first) = loop {
        match input.next_line()? {
            None => return Ok(Puzzles::listed(vec![(1, Err(ParseError::Empty))])),
            Some((number, Line::TooLong)) => break (number, None),
            Some((number, Line::Text(line))) if is_puzzle_line(line) => {
                break (number, Some(line.to_string()));
            }
            Some(_) => {}
        }
    };
    let Some(first) = first else {
        // No grid has a line that long.
        let error = vec![(number, Err(too_long(number)))];
        return Ok(match mode {
            InputMode::Grid => Puzzles::listed(error),
            _ => Puzzles::streaming(error, input),
        });
    };
    let lines = match mode {
        InputMode::Lines => true,
        InputMode::Grid => false,
        // A file of line-format puzzles starts with one; a line too long for a grid's row
        // starts no grid.
        InputMode::Auto => parse_line(&first, number).is_ok() || !looks_like_row(&first),
    };
    if lines {
        let first = line_puzzle(&first, number, stated.as_ref());
        return Ok(Puzzles::streaming(vec![(number, first)], input));
    }
    // One grid, or perhaps one: its text, the lines before the first puzzle line left out.
    // Comments and blank lines are kept as empty lines (the parser passes over both).
    let mut text = first;
    text.push('\n');
    while let Some((at, line)) = input.next_line()? {
        let row = match line {
            Line::Text(l) if !is_puzzle_line(l) => Some(""),
            Line::Text(l) if mode == InputMode::Grid || looks_like_row(l) => Some(l),
            _ => None,
        };
        match row {
            Some(row) if text.len() + row.len() < MAX_GRID_BYTES => {
                text.push_str(row);
                text.push('\n');
            }
            _ if mode == InputMode::Grid => {
                return Ok(Puzzles::listed(vec![(number, Err(too_long(number)))]));
            }
            // Not a grid: a file of lines whose first one is bad.
            _ => {
                let mut ready = numbered_lines(&text, number, stated.as_ref());
                ready.push((
                    at,
                    match line {
                        Line::Text(l) => line_puzzle(l, at, stated.as_ref()),
                        Line::TooLong => Err(too_long(at)),
                    },
                ));
                return Ok(Puzzles::streaming(ready, input));
            }
        }
    }
    Ok(Puzzles::listed(whole_text(&text, mode, number, stated.as_ref())))
}

/// The puzzles of the lines of `text`, whose first line is line `first_line`.
fn numbered_lines(text: &str, first_line: usize, stated: Option<&StatedCounts>) -> Vec<NumberedPuzzle> {
    text.lines()
        .zip(first_line..)
        .filter(|(line, _)| is_puzzle_line(line))
        .map(|(line, number)| (number, line_puzzle(line, number, stated)))
        .collect()
}

/// The line-format puzzle of line `number`. Fields after it (`puzzle:count[:solution]`) are
/// not needed to solve it, but they are checked: a malformed one, a solution that does not
/// solve the puzzle, or a field too many gets a warning on standard error (the puzzle is
/// read without them); a well-formed count is kept in `stated`, if given.
fn line_puzzle(line: &str, number: usize, stated: Option<&StatedCounts>) -> Result<Grid, ParseError> {
    let puzzle = parse_line(line, number);
    if puzzle.is_ok() && line.contains(':') {
        match parse_counted_at(line, number) {
            Ok(counted) => {
                if let Some(stated) = stated {
                    let mut stated = stated.lock().unwrap_or_else(|e| e.into_inner());
                    stated.insert(number, counted.count);
                }
            }
            Err(e) => {
                let (place, what) = located(number, &e);
                note!("# {place}: warning: {what}; the puzzle is read without the fields after it");
            }
        }
    }
    puzzle
}

/// The puzzles of a whole text, which starts on line `first_line` with a line that is no
/// line-format puzzle (or `mode` says the text is one grid).
fn whole_text(
    text: &str,
    mode: InputMode,
    first_line: usize,
    stated: Option<&StatedCounts>,
) -> Vec<NumberedPuzzle> {
    match mode {
        InputMode::Lines => numbered_lines(text, first_line, stated),
        InputMode::Grid => vec![(first_line, parse_puzzle_from(text, first_line))],
        // Try the whole text as one grid, and fall back to lines so that errors name
        // their line.
        InputMode::Auto => match parse_puzzle_from(text, first_line) {
            Ok(grid) => vec![(first_line, Ok(grid))],
            Err(whole) => {
                let lines = numbered_lines(text, first_line, stated);
                // A grid with a mistake in it: its rows are no puzzles on their own, so the
                // mistake is reported once instead of a wrong length for every row. A line too
                // long for a row (a bad line-format puzzle) means a file of puzzles instead.
                // Lines of separators only hold no grid either: each says so.
                let all_rows = text.lines().filter(|l| is_puzzle_line(l)).all(looks_like_row);
                let cells = whole != ParseError::Empty;
                if cells && all_rows && lines.iter().all(|(_, p)| p.is_err()) {
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
    /// Puzzles read already: the whole input, or the lines read before the rest.
    ready: std::vec::IntoIter<NumberedPuzzle>,
    /// The rest of a file of lines.
    input: Option<Input>,
}

impl Puzzles {
    fn listed(items: Vec<NumberedPuzzle>) -> Puzzles {
        Puzzles {
            ready: items.into_iter(),
            input: None,
        }
    }

    fn streaming(ready: Vec<NumberedPuzzle>, input: Input) -> Puzzles {
        Puzzles {
            ready: ready.into_iter(),
            input: Some(input),
        }
    }

    /// How many puzzles there are, for a progress bar: exact for a whole text, the puzzle
    /// lines of a regular file counted on a second read, unknown for anything else. A pipe,
    /// a FIFO, `/dev/stdin` or a process substitution is never opened a second time: that
    /// would take lines the batch has not read yet.
    pub fn len_hint(&self) -> Option<u64> {
        let Some(input) = &self.input else {
            return Some(self.ready.len() as u64);
        };
        let path = input.file.as_ref()?;
        if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
            return None;
        }
        let mut file = Input::open(Some(path)).ok()?;
        let mut count = 0;
        while let Some((_, line)) = file.next_line().ok()? {
            count += u64::from(match line {
                Line::Text(l) => is_puzzle_line(l),
                Line::TooLong => true,
            });
        }
        Some(count)
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
        if let Some(item) = self.ready.next() {
            return Some(Ok(item));
        }
        let input = self.input.as_mut()?;
        // Taken out for the loop, which borrows the input (an `Arc`: no copy of the counts).
        let stated = input.stated.clone();
        loop {
            match input.next_line() {
                Ok(Some((number, Line::Text(line)))) if is_puzzle_line(line) => {
                    return Some(Ok((number, line_puzzle(line, number, stated.as_ref()))));
                }
                Ok(Some((number, Line::TooLong))) => return Some(Ok((number, Err(too_long(number))))),
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
            let Line::Text(line) = line else {
                panic!("line {number} is too long")
            };
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
