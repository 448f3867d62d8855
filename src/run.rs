//! Running a command over many puzzles: a pool of threads with results kept in input
//! order, the standard output for results, a progress bar on a terminal, and the
//! summary of outcomes with the exit code it gives.

use std::io::{BufWriter, IsTerminal, Write};
use std::time::Instant;

use csp_sudoku::{Grid, ParseError, Status};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED, written};
use crate::input::{NumberedPuzzle, Puzzles};

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
        let mut block: Vec<NumberedPuzzle> = Vec::with_capacity(chunk);
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
                // A closed pipe (the reader has seen enough) ends the batch quietly.
                let open = written(emit(*line, outcome), "cannot write the results");
                if !matches!(open, Ok(true)) {
                    progress.finish_and_clear();
                    return open.map(|_| ());
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
    written(out.flush(), "cannot write the results").map(|_| ())
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

/// Counts outcomes for the summary and the exit code.
#[derive(Default)]
pub struct StatusCounts {
    total: usize,
    by_status: [usize; 5],
}

impl StatusCounts {
    /// Counts one puzzle.
    pub fn add(&mut self, status: Status) {
        self.total += 1;
        self.by_status[status as usize] += 1;
    }

    fn count(&self, status: Status) -> usize {
        self.by_status[status as usize]
    }

    /// The summary line on standard error.
    pub fn report(&self, verb: &str, started: Instant) {
        let secs = started.elapsed().as_secs_f64();
        let rate = if secs > 0.0 { self.total as f64 / secs } else { 0.0 };
        let mut parts = vec![format!("{} {verb}", self.count(Status::Solved))];
        for status in [
            Status::Capped,
            Status::Unsatisfiable,
            Status::Limit,
            Status::Error,
        ] {
            if self.count(status) > 0 || matches!(status, Status::Unsatisfiable | Status::Error) {
                parts.push(format!("{} {}", self.count(status), status.name()));
            }
        }
        note!(
            "{} puzzles: {} in {secs:.3} s ({rate:.0} puzzles/s)",
            self.total,
            parts.join(", ")
        );
    }

    /// 0 when no puzzle failed to read and every status counted is `ok`, else 1.
    pub fn exit_code(&self, ok: impl Fn(Status) -> bool) -> u8 {
        let all_ok = [
            Status::Solved,
            Status::Unsatisfiable,
            Status::Capped,
            Status::Limit,
            Status::Error,
        ]
        .into_iter()
        .all(|s| self.count(s) == 0 || ok(s));
        if all_ok && self.count(Status::Error) == 0 {
            EXIT_OK
        } else {
            EXIT_UNSOLVED
        }
    }
}
