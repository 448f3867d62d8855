//! Running a command over many puzzles: a pool of threads with results kept in input
//! order, the standard output for results, a progress bar on a terminal, and the
//! summary of outcomes with the exit code it gives.

use std::io::{BufWriter, IsTerminal, Write};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use csp_sudoku::{Grid, ParseError, Status};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED, written};
use crate::input::{NumberedPuzzle, Puzzles};
use crate::interrupt;

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
    /// output error (for example a closed pipe), at an input error once the puzzles read
    /// before it are done, and at a signal ([`interrupt`]): then no new puzzle is taken, and
    /// the results computed already are passed on up to the first puzzle not started.
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
        // `None` for a puzzle not started because of a signal.
        let work = |(_, parsed): &NumberedPuzzle| match parsed {
            Ok(grid) if !interrupt::requested() => Some(Some(work(grid))),
            Ok(_) => Some(None),
            Err(_) => None,
        };
        while input_error.is_none() && !interrupt::requested() {
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
            let results: Vec<Option<Option<R>>> = match &self.pool {
                Some(pool) => pool.install(|| block.par_iter().map(work).collect()),
                None => block.iter().map(work).collect(),
            };
            for ((line, parsed), result) in block.iter().zip(&results) {
                let outcome = match (parsed, result) {
                    (Err(e), _) => Err(e),
                    (Ok(_), Some(Some(r))) => Ok(r),
                    (Ok(_), Some(None)) => break,
                    (Ok(_), None) => unreachable!("every readable puzzle has a result"),
                };
                // A closed pipe (the reader has seen enough) ends the batch quietly.
                let open = written(emit(*line, outcome), "cannot write the results");
                if !matches!(open, Ok(true)) {
                    progress.finish_and_clear();
                    return open.map(|_| ());
                }
                progress.inc(1);
            }
        }
        progress.finish_and_clear();
        if let Some((signal, _)) = interrupt::received() {
            note!("interrupted by {signal}: no new puzzle taken, every answer found written");
        }
        input_error.map_or(Ok(()), Err)
    }
}

/// Standard output for per-puzzle results: written a line at a time on a terminal, and in
/// blocks into a file or pipe (where a write per line costs a system call per puzzle). A
/// block is written out at least once a second, so that a slow batch shows its answers
/// soon after they are found, and a killed run keeps them. Pass it to [`finish_output`]
/// at the end.
pub enum ResultsOutput {
    /// A terminal: each line as it is written.
    Terminal(std::io::StdoutLock<'static>),
    /// A file or pipe: blocks, flushed by a thread once a second.
    Blocks(TimedWriter),
}

/// A buffered standard output that a background thread flushes once a second.
pub struct TimedWriter {
    shared: Arc<Mutex<Buffered>>,
    /// Dropping it ends the flushing thread.
    stop: Option<mpsc::Sender<()>>,
    flusher: Option<std::thread::JoinHandle<()>>,
}

struct Buffered {
    out: BufWriter<std::io::Stdout>,
    /// A failure of the flushing thread, reported by the next write.
    failed: Option<std::io::Error>,
}

/// The standard output for per-puzzle results; see [`ResultsOutput`].
pub fn results_output() -> ResultsOutput {
    let stdout = std::io::stdout();
    if stdout.is_terminal() {
        return ResultsOutput::Terminal(stdout.lock());
    }
    let shared = Arc::new(Mutex::new(Buffered {
        out: BufWriter::with_capacity(1 << 16, stdout),
        failed: None,
    }));
    // Answers found are written out even if the program is ended while waiting for input.
    let on_exit = Arc::clone(&shared);
    interrupt::on_exit(Some(Box::new(move || {
        let _ = on_exit.lock().unwrap_or_else(|e| e.into_inner()).out.flush();
    })));
    let (stop, ticks) = mpsc::channel::<()>();
    let flusher = {
        let shared = Arc::clone(&shared);
        std::thread::spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = ticks.recv_timeout(Duration::from_secs(1)) {
                let mut buffered = shared.lock().unwrap_or_else(|e| e.into_inner());
                if buffered.failed.is_none() && !buffered.out.buffer().is_empty() {
                    buffered.failed = buffered.out.flush().err();
                }
            }
        })
    };
    ResultsOutput::Blocks(TimedWriter {
        shared,
        stop: Some(stop),
        flusher: Some(flusher),
    })
}

impl TimedWriter {
    fn with<T>(
        &self,
        f: impl FnOnce(&mut BufWriter<std::io::Stdout>) -> std::io::Result<T>,
    ) -> std::io::Result<T> {
        let mut buffered = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = buffered.failed.take() {
            return Err(e);
        }
        f(&mut buffered.out)
    }
}

impl Write for ResultsOutput {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            ResultsOutput::Terminal(out) => out.write(buf),
            ResultsOutput::Blocks(out) => out.with(|o| o.write(buf)),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            ResultsOutput::Terminal(out) => out.write_all(buf),
            ResultsOutput::Blocks(out) => out.with(|o| o.write_all(buf)),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            ResultsOutput::Terminal(out) => out.flush(),
            ResultsOutput::Blocks(out) => out.with(|o| o.flush()),
        }
    }
}

impl Drop for TimedWriter {
    fn drop(&mut self) {
        interrupt::on_exit(None);
        drop(self.stop.take());
        if let Some(flusher) = self.flusher.take() {
            let _ = flusher.join();
        }
    }
}

/// Writes out what [`results_output`] still holds; a closed pipe is no error, as in
/// [`Batch::run`].
pub fn finish_output(mut out: impl Write) -> Result<(), CliError> {
    written(out.flush(), "cannot write the results").map(|_| ())
}

/// A progress bar on standard error when it is a terminal, for `len` items of slow work:
/// shown from the start and redrawn every second, so that the elapsed time shows even
/// while the first item is being made. Hidden otherwise.
pub fn steady_progress(len: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let template = format!("{{spinner}} {{pos}}/{{len}} {what}, {{elapsed}} elapsed, eta {{eta}}");
    bar.set_style(ProgressStyle::with_template(&template).expect("a valid template"));
    bar.enable_steady_tick(Duration::from_secs(1));
    bar
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
