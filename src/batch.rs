//! Batch runs over puzzle files: reading input, running the work on one or more
//! cores with results kept in input order, and a progress bar on a terminal.
//!
//! A file of line-format puzzles is read a line at a time as the work goes on: memory
//! stays flat however long the file, and results appear while it is being read.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, ErrorKind, IsTerminal, Write};
use std::path::{Path, PathBuf};

use csp_sudoku::{Grid, ParseError, PuzzleReader, is_puzzle_line, looks_like_row, parse_line, parse_puzzle};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::CliError;
use crate::sudoku::InputMode;

/// A puzzle read from the input, with the line it starts on.
pub type Item = (usize, Result<Grid, ParseError>);

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
fn whole_text(text: &str, mode: InputMode, first_line: usize) -> Vec<Item> {
    match mode {
        InputMode::Lines => PuzzleReader::new(text).collect(),
        InputMode::Grid => vec![(first_line, parse_puzzle(text))],
        // Try the whole text as one grid, and fall back to lines so that errors name
        // their line.
        InputMode::Auto => match parse_puzzle(text) {
            Ok(grid) => vec![(first_line, Ok(grid))],
            Err(whole) => {
                let lines: Vec<Item> = PuzzleReader::new(text).collect();
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
    listed: std::vec::IntoIter<Item>,
}

impl Puzzles {
    fn listed(items: Vec<Item>) -> Puzzles {
        Puzzles {
            first: None,
            input: None,
            listed: items.into_iter(),
        }
    }

    /// How many puzzles there are, for a progress bar: exact for a whole text, the puzzle
    /// lines of a file counted on a second read, unknown for standard input.
    fn len_hint(&self) -> Option<u64> {
        let Some(input) = &self.input else {
            return Some(self.listed.len() as u64);
        };
        let file = BufReader::new(File::open(input.file.as_ref()?).ok()?);
        Some(
            file.lines()
                .map_while(Result::ok)
                .filter(|l| is_puzzle_line(l))
                .count() as u64,
        )
    }
}

/// Puzzles read already (for runs over the same puzzles more than once).
impl From<Vec<Item>> for Puzzles {
    fn from(items: Vec<Item>) -> Puzzles {
        Puzzles::listed(items)
    }
}

impl Iterator for Puzzles {
    type Item = Result<Item, CliError>;

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

/// Runs work over puzzles on a pool of threads.
pub struct Batch {
    pool: Option<rayon::ThreadPool>,
    jobs: usize,
}

impl Batch {
    /// `jobs` worker threads; 0 means one per core, 1 runs on the calling thread.
    pub fn new(jobs: usize) -> Result<Batch, CliError> {
        let jobs = if jobs == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            jobs
        };
        let pool = if jobs > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(jobs)
                    .build()
                    .map_err(|e| CliError::Failed(format!("cannot start {jobs} worker threads: {e}")))?,
            )
        } else {
            None
        };
        Ok(Batch { pool, jobs })
    }

    /// Applies `work` to every readable puzzle and passes each result, in input order, to
    /// `emit` (unreadable puzzles are passed as their parse error). Stops at the first
    /// output error (for example a closed pipe), and at an input error once the puzzles
    /// read before it are done.
    pub fn run<R: Send>(
        &self,
        mut puzzles: Puzzles,
        work: impl Fn(&Grid) -> R + Sync,
        mut emit: impl FnMut(usize, Result<&R, &ParseError>) -> std::io::Result<()>,
    ) -> Result<(), CliError> {
        let progress = progress_bar(|| puzzles.len_hint());
        let chunk = if self.pool.is_some() { 32 * self.jobs } else { 1 };
        let mut block: Vec<Item> = Vec::with_capacity(chunk);
        let mut input_error = None;
        while input_error.is_none() {
            block.clear();
            for item in puzzles.by_ref().take(chunk) {
                match item {
                    Ok(item) => block.push(item),
                    Err(e) => input_error = Some(e),
                }
            }
            if block.is_empty() {
                break;
            }
            let results: Vec<Option<R>> = match &self.pool {
                Some(pool) => pool.install(|| {
                    block
                        .par_iter()
                        .map(|(_, p)| p.as_ref().ok().map(&work))
                        .collect()
                }),
                None => block.iter().map(|(_, p)| p.as_ref().ok().map(&work)).collect(),
            };
            for ((line, parsed), result) in block.iter().zip(&results) {
                let outcome = match (parsed, result) {
                    (Err(e), _) => Err(e),
                    (Ok(_), Some(r)) => Ok(r),
                    (Ok(_), None) => unreachable!("every readable puzzle has a result"),
                };
                if let Err(source) = emit(*line, outcome) {
                    progress.finish_and_clear();
                    if source.kind() == std::io::ErrorKind::BrokenPipe {
                        return Ok(()); // the reader has seen enough (e.g. `| head`)
                    }
                    return Err(CliError::Io {
                        context: "cannot write the results".to_string(),
                        source,
                    });
                }
            }
            progress.inc(block.len() as u64);
        }
        progress.finish_and_clear();
        input_error.map_or(Ok(()), Err)
    }
}

/// Standard output for per-puzzle results: written a line at a time on a terminal, and in
/// blocks into a file or pipe (where a write per line costs a system call per puzzle).
/// Pass it to [`finish_output`] at the end.
pub fn results_output() -> Box<dyn Write> {
    let stdout = std::io::stdout();
    if stdout.is_terminal() {
        Box::new(stdout.lock())
    } else {
        Box::new(BufWriter::with_capacity(1 << 16, stdout.lock()))
    }
}

/// Writes out what [`results_output`] still holds; a closed pipe is no error, as in
/// [`Batch::run`].
pub fn finish_output(mut out: impl Write) -> Result<(), CliError> {
    match out.flush() {
        Err(source) if source.kind() != ErrorKind::BrokenPipe => Err(CliError::Io {
            context: "cannot write the results".to_string(),
            source,
        }),
        _ => Ok(()),
    }
}

/// A progress bar on standard error when it is a terminal and the batch is long enough
/// to need one (`len`, asked only then: `None` when unknown shows a count); hidden
/// otherwise.
pub fn progress_bar(len: impl FnOnce() -> Option<u64>) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template) = match len() {
        Some(len) if len < 50 => return ProgressBar::hidden(),
        Some(len) => (
            ProgressBar::new(len),
            "{bar:40} {pos}/{len} puzzles, {per_sec}, eta {eta}",
        ),
        None => (ProgressBar::no_length(), "{spinner} {pos} puzzles, {per_sec}"),
    };
    bar.set_style(ProgressStyle::with_template(template).expect("a valid template"));
    bar
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
