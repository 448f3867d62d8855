//! Batch runs over puzzle files: reading input, running the work on one or more
//! cores with results kept in input order, and a progress bar on a terminal.

use std::io::{BufWriter, ErrorKind, IsTerminal, Read, Write};
use std::path::Path;

use csp_sudoku::{Grid, ParseError, PuzzleReader, looks_like_row, parse_line, parse_puzzle};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::CliError;
use crate::sudoku::InputMode;

/// A puzzle read from the input, with the line it starts on.
pub type Item = (usize, Result<Grid, ParseError>);

/// Reads a whole file, or standard input for `None` and `-`. Invalid UTF-8 is kept
/// visible (as U+FFFD) so that the parser reports the line and column. A leading byte-order
/// mark is dropped, and lone carriage returns (old Mac line ends) end lines like `\n`.
pub fn read_input(path: Option<&Path>) -> Result<String, CliError> {
    let mut bytes = Vec::new();
    match path {
        None => std::io::stdin().read_to_end(&mut bytes),
        Some(p) if p == Path::new("-") => std::io::stdin().read_to_end(&mut bytes),
        Some(p) => std::fs::File::open(p).and_then(|mut f| f.read_to_end(&mut bytes)),
    }
    .map_err(|source| {
        let context = match path {
            Some(p) if p != Path::new("-") => format!("cannot read {}", p.display()),
            _ => "cannot read standard input".to_string(),
        };
        match source.kind() {
            // A FILE argument that names no readable file is a usage error, like a bad flag.
            ErrorKind::NotFound | ErrorKind::PermissionDenied | ErrorKind::IsADirectory => {
                CliError::Usage(format!("{context}: {source}"))
            }
            _ => CliError::Io { context, source },
        }
    })?;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    Ok(normalize(text))
}

/// Drops a byte-order mark and turns lone `\r` line ends into `\n` (`\r\n` is left to
/// [`str::lines`]), so that line numbers and columns count what an editor shows.
fn normalize(mut text: String) -> String {
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    if text.contains('\r') {
        text = text.replace("\r\n", "\n").replace('\r', "\n");
    }
    text
}

/// The puzzles of `text`: one per line, or the whole text as one grid. An input without
/// puzzle lines (empty, blank, or only comments) gives [`ParseError::Empty`] on line 1.
pub fn puzzles(text: &str, mode: InputMode) -> Vec<Item> {
    let first_content = text
        .lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((i, line)) = first_content else {
        return vec![(1, Err(ParseError::Empty))];
    };
    match mode {
        InputMode::Lines => PuzzleReader::new(text).collect(),
        InputMode::Grid => vec![(i + 1, parse_puzzle(text))],
        // A file of line-format puzzles starts with one; otherwise try the whole text as one
        // grid, and fall back to lines so that errors name their line.
        InputMode::Auto if parse_line(line, i + 1).is_ok() => PuzzleReader::new(text).collect(),
        InputMode::Auto => match parse_puzzle(text) {
            Ok(grid) => vec![(i + 1, Ok(grid))],
            Err(whole) => {
                let lines: Vec<Item> = PuzzleReader::new(text).collect();
                // A grid with a mistake in it: its rows are no puzzles on their own, so the
                // mistake is reported once instead of a wrong length for every row. A line too
                // long for a row (a bad line-format puzzle) means a file of puzzles instead.
                let all_rows = text
                    .lines()
                    .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                    .all(looks_like_row);
                if all_rows && lines.iter().all(|(_, p)| p.is_err()) {
                    vec![(i + 1, Err(whole))]
                } else {
                    lines
                }
            }
        },
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
    /// output error (for example a closed pipe).
    pub fn run<R: Send>(
        &self,
        items: &[Item],
        work: impl Fn(&Grid) -> R + Sync,
        mut emit: impl FnMut(usize, Result<&R, &ParseError>) -> std::io::Result<()>,
    ) -> Result<(), CliError> {
        let progress = progress_bar(items.len());
        let chunk = if self.pool.is_some() { 32 * self.jobs } else { 1 };
        for block in items.chunks(chunk) {
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
        Ok(())
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
/// to need one; hidden otherwise.
pub fn progress_bar(len: usize) -> ProgressBar {
    if len < 50 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles, {per_sec}, eta {eta}")
            .expect("a valid template"),
    );
    bar
}
