//! Running a command over many puzzles: a pool of threads with results kept in input
//! order, the standard output for results, a progress bar on a terminal, and the
//! summary of outcomes with the exit code it gives.

use std::collections::VecDeque;
use std::io::{BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use csp_sudoku::{Grid, ParseError, Status};
use indicatif::{ProgressBar, ProgressStyle};

use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED, written};
use crate::input::Puzzles;
use crate::interrupt;

/// Runs work over puzzles on a pool of threads.
pub struct Batch {
    pool: Option<rayon::ThreadPool>,
    jobs: usize,
}

impl Batch {
    /// `jobs` worker threads; 0 means one per core, 1 runs on the calling thread.
    pub fn new(jobs: usize) -> Result<Batch, CliError> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let jobs = if jobs == 0 { cores } else { jobs };
        if jobs > cores {
            // Allowed (the output is the same), but each thread gets a share of a core and
            // they wait on each other for the results' order.
            note!(
                "warning: -j {jobs} runs more worker threads than the {cores} cores here; it is slower than -j 0"
            );
        }
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
    /// `emit` (unreadable puzzles are passed as their parse error) as soon as it and every
    /// result before it are done. At most 32 puzzles per worker are read ahead. Stops at the
    /// first output error (for example a closed pipe), at an input error once the puzzles
    /// read before it are done, and at a signal ([`interrupt`]): then no new puzzle is
    /// taken, and the results found already are passed on up to the first puzzle not
    /// started.
    pub fn run<R: Send>(
        &self,
        puzzles: Puzzles,
        work: impl Fn(&Grid) -> R + Sync,
        emit: impl FnMut(usize, Result<&R, &ParseError>) -> std::io::Result<()>,
    ) -> Result<(), CliError> {
        let progress = progress_bar(|| puzzles.len_hint());
        let results = Results::default();
        let (wake, woken) = mpsc::channel::<()>();
        // Each answer is kept as soon as it is found (`None` for a puzzle not started
        // because of a signal); the writing thread is woken only for the one it waits for.
        let solve = |group: Vec<(u64, Grid)>, wake: &mpsc::Sender<()>| {
            for (seq, grid) in group {
                let answer = (!interrupt::requested()).then(|| work(&grid));
                results
                    .found
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((seq, answer));
                if results.awaited.load(Ordering::SeqCst) == seq {
                    let _ = wake.send(());
                }
            }
        };
        let ended = match &self.pool {
            None => pass_on(
                puzzles,
                (1, 1),
                |group| solve(group, &wake),
                (&results, &woken),
                emit,
                &progress,
            ),
            Some(pool) => pool.in_place_scope_fifo(|scope| {
                let start = |group| {
                    let (wake, solve) = (wake.clone(), &solve);
                    scope.spawn_fifo(move |_| solve(group, &wake));
                };
                pass_on(
                    puzzles,
                    (32 * self.jobs, GROUP),
                    start,
                    (&results, &woken),
                    emit,
                    &progress,
                )
            }),
        };
        progress.finish_and_clear();
        if let Some((signal, _)) = interrupt::received() {
            note!("interrupted by {signal}: no new puzzle taken, every answer found written");
        }
        ended
    }
}

/// Puzzles a worker takes at a time: enough to keep the cost of handing them over small
/// next to a 9x9 puzzle's.
const GROUP: usize = 8;

/// Answers found by the workers and not taken by the writing thread yet.
struct Results<R> {
    /// (sequence number, answer).
    found: Mutex<Vec<(u64, Option<R>)>>,
    /// The sequence number of the answer the writing thread waits for (`u64::MAX`: none).
    awaited: AtomicU64,
}

impl<R> Default for Results<R> {
    fn default() -> Results<R> {
        Results {
            found: Mutex::new(Vec::new()),
            awaited: AtomicU64::new(u64::MAX),
        }
    }
}

/// A puzzle read and not passed on yet.
enum Pending<R> {
    /// It could not be read.
    Unreadable(usize, ParseError),
    /// It is being worked on.
    Working(usize),
    /// Its result (`None`: not started because of a signal).
    Done(usize, Option<R>),
}

/// The loop of [`Batch::run`]: reads puzzles while fewer than `ahead` wait, hands the
/// readable ones to `start` in groups of up to `group` with their sequence numbers, and
/// passes results on in input order as `results` brings them.
fn pass_on<R>(
    mut puzzles: Puzzles,
    (ahead, group): (usize, usize),
    mut start: impl FnMut(Vec<(u64, Grid)>),
    (results, woken): (&Results<R>, &mpsc::Receiver<()>),
    mut emit: impl FnMut(usize, Result<&R, &ParseError>) -> std::io::Result<()>,
    progress: &ProgressBar,
) -> Result<(), CliError> {
    let mut pending: VecDeque<Pending<R>> = VecDeque::with_capacity(ahead);
    // The sequence number of the front of `pending`.
    let mut front = 0u64;
    let mut more = true;
    let mut input_error = None;
    let mut starting: Vec<(u64, Grid)> = Vec::with_capacity(group);
    loop {
        while more && pending.len() < ahead && !interrupt::requested() {
            match puzzles.next() {
                None => more = false,
                Some(Err(e)) => {
                    input_error = Some(e);
                    more = false;
                }
                Some(Ok((line, Ok(grid)))) => {
                    pending.push_back(Pending::Working(line));
                    starting.push((front + pending.len() as u64 - 1, grid));
                    if starting.len() == group {
                        start(std::mem::replace(&mut starting, Vec::with_capacity(group)));
                    }
                }
                Some(Ok((line, Err(e)))) => pending.push_back(Pending::Unreadable(line, e)),
            }
        }
        if !starting.is_empty() {
            start(std::mem::replace(&mut starting, Vec::with_capacity(group)));
        }
        while let Some(next) = pending.front() {
            let (line, outcome) = match next {
                Pending::Working(_) => break,
                Pending::Done(_, None) => return Ok(()),
                Pending::Done(line, Some(r)) => (*line, Ok(r)),
                Pending::Unreadable(line, e) => (*line, Err(e)),
            };
            // A closed pipe (the reader has seen enough) ends the batch quietly.
            if !written(emit(line, outcome), "cannot write the results")? {
                return Ok(());
            }
            progress.inc(1);
            pending.pop_front();
            front += 1;
        }
        if pending.is_empty() {
            if !more || interrupt::requested() {
                return input_error.map_or(Ok(()), Err);
            }
            continue;
        }
        // Take the answers found; if the front's is not among them, wait for it. A wake-up
        // missed in a race costs one timeout.
        results.awaited.store(front, Ordering::SeqCst);
        let found = std::mem::take(&mut *results.found.lock().unwrap_or_else(|e| e.into_inner()));
        if !found.iter().any(|&(seq, _)| seq == front) {
            let _ = woken.recv_timeout(Duration::from_millis(10));
        }
        results.awaited.store(u64::MAX, Ordering::SeqCst);
        for (seq, answer) in found {
            let at = usize::try_from(seq - front).expect("a pending puzzle");
            if let Pending::Working(line) = pending[at] {
                pending[at] = Pending::Done(line, answer);
            }
        }
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

/// The number of worker threads `-j N` asks for: `N`, or one per core for 0.
pub fn worker_count(jobs: usize) -> usize {
    if jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        jobs
    }
}

/// The stack of each worker thread: as large as the main thread's, so that what one thread
/// reads, every thread reads (the XCSP3 reader bounds its own depth; this bounds nothing else).
pub const WORKER_STACK: usize = 16 << 20;

/// Runs `work(i)` for every `i` in `0..count` on `jobs` worker threads (0: one per core)
/// and hands each result to `emit` on the calling thread as soon as it is done, in the
/// order the runs end. `emit` returns whether to go on: after `false` no new run starts.
/// With one worker everything runs on the calling thread, in index order.
pub fn parallel_each<R: Send>(
    count: usize,
    jobs: usize,
    work: impl Fn(usize) -> R + Sync,
    mut emit: impl FnMut(usize, R) -> bool,
) {
    let workers = worker_count(jobs).min(count).max(1);
    if workers == 1 {
        for i in 0..count {
            if !emit(i, work(i)) {
                return;
            }
        }
        return;
    }
    let next = AtomicU64::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (send, receive) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        let mut started = 0;
        for _ in 0..workers {
            let send = send.clone();
            let (next, stop, work) = (&next, &stop, &work);
            let spawned =
                std::thread::Builder::new()
                    .stack_size(WORKER_STACK)
                    .spawn_scoped(scope, move || {
                        while !stop.load(Ordering::SeqCst) {
                            let i = next.fetch_add(1, Ordering::SeqCst) as usize;
                            if i >= count || send.send((i, work(i))).is_err() {
                                break;
                            }
                        }
                    });
            match spawned {
                Ok(_) => started += 1,
                // Fewer workers than asked: the others share the work.
                Err(_) => break,
            }
        }
        drop(send);
        if started == 0 {
            for i in 0..count {
                if !emit(i, work(i)) {
                    return;
                }
            }
            return;
        }
        for (i, result) in receive {
            if !stop.load(Ordering::SeqCst) && !emit(i, result) {
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
}
