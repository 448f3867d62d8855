//! Command-line arguments shared by every search command: the strategy, the limits and
//! the search-tree trace.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use csp_core::{
    Backjump, Branching, Inference, Limits, Restarts, SearchConfig, Strategy, TieBreak, Trace, ValueOrder,
    VarOrder,
};

use crate::error::{CliError, usage};

/// Strategy flags. Each command fills in its own defaults for flags left out.
#[derive(Args, Clone, Debug, Default)]
pub struct StrategyArgs {
    /// Variable order: static, mrv, mrv-degree, dom-wdeg, dom-wdeg-all, dom-wdeg-fixed,
    /// wdeg-cacd, chs, frb-dom, frba-dom, pick-dom, activity, impact, run-robin (a
    /// different one of pick-dom, dom-wdeg, frba-dom, wdeg-cacd at each restart).
    #[arg(long = "var", value_name = "ORDER", allow_negative_numbers = true)]
    pub var_order: Option<VarOrder>,
    /// Value order: asc, lcv, desc, random, saved (the value in the last solution, or
    /// before any the last value assigned, first).
    #[arg(long = "val", value_name = "ORDER", allow_negative_numbers = true)]
    pub value_order: Option<ValueOrder>,
    /// Inference: none, fc, mac.
    #[arg(long, value_name = "KIND", allow_negative_numbers = true)]
    pub inference: Option<Inference>,
    /// Tie-breaking in the variable order: lowest, random. Default: lowest (random for
    /// `csp queens solve` without --var, --val or --inference).
    #[arg(long, value_name = "RULE", allow_negative_numbers = true)]
    pub tie_break: Option<TieBreak>,
    /// Seed for random tie-breaks, value orders and restarts. Default: 0.
    #[arg(long, value_name = "S", value_parser = parse_whole, allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// Failed-value probing after each propagation (with --inference mac): values of
    /// two-valued variables whose propagation fails are removed. Probes are not nodes.
    #[arg(long)]
    pub probe: bool,
    /// What a decision branches on: `variables` (one branch per value of the chosen
    /// variable) or `places` (where the chosen variable has three values or more, a value
    /// that only two variables of a permutation all-different can still take, if there is
    /// one: the one, then the other). Default: variables (places from 25x25 up for `csp
    /// sudoku solve|count`).
    #[arg(long, value_name = "KIND", allow_negative_numbers = true)]
    pub branching: Option<Branching>,
    /// Last-conflict reasoning: the last K variables whose values all failed are chosen
    /// first while they are unassigned (0: off). Default: 0.
    #[arg(long, value_name = "K", value_parser = parse_last_conflict, allow_hyphen_values = true)]
    pub last_conflict: Option<u32>,
    /// Backjumping: `none`, `bj` (Gaschnig's: from a dead end, back to the deepest level
    /// its values clashed with) or `cbj` (conflict-directed, Prosser 1993), with
    /// --inference none or fc (BT-CBJ, FC-CBJ), without restarts. Default: none.
    #[arg(long, value_name = "KIND", allow_negative_numbers = true)]
    pub backjump: Option<Backjump>,
}

/// Parallel search flags.
#[derive(Args, Clone, Copy, Debug)]
pub struct ParallelArgs {
    /// Search on N threads: the root is cut into subproblems (30 a thread) by the search's
    /// own orders and a pool of threads searches them; counts and solution sets are the
    /// sequential ones, `nodes` the sum over the decomposition and the subproblems. 0: one
    /// thread per core. Default: 1 (the sequential search, exactly).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_threads, allow_hyphen_values = true)]
    pub threads: usize,
    /// With --threads: `solve` returns the sequential search's first solution, not the first
    /// found (on one thread under a strategy that learns, restarts or draws at random).
    #[arg(long)]
    pub deterministic: bool,
    /// With --threads: how many subproblems per thread the decomposition aims at.
    #[arg(long, value_name = "K", default_value_t = csp_core::SUBPROBLEMS_PER_THREAD, value_parser = parse_per_thread, allow_hyphen_values = true)]
    pub subproblems: usize,
    /// With --threads, under a dom/wdeg order: a sequential search of N nodes before the cut,
    /// whose constraint weights the cut and the subproblems start from. Default: 0 (none).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_whole, allow_hyphen_values = true)]
    pub warm_up: u64,
}

/// Parses `--subproblems`: 1 to 10,000.
pub fn parse_per_thread(text: &str) -> Result<usize, String> {
    let k = parse_count(text)?;
    if !(1..=10_000).contains(&k) {
        return Err(format!("1 to 10000 subproblems a thread, got {k}"));
    }
    Ok(k)
}

impl ParallelArgs {
    /// The threads and order asked for, 0 threads read as one per core.
    pub fn parallelism(&self) -> csp_core::Parallelism {
        let threads = match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        csp_core::Parallelism {
            threads,
            deterministic: self.deterministic,
            subproblems_per_thread: self.subproblems,
            warm_up: self.warm_up,
        }
    }
}

/// Parses `--threads`: 0 (one per core) up to [`csp_core::MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let threads = parse_count(text)?;
    if threads > csp_core::MAX_THREADS {
        return Err(format!(
            "at most {} threads, got {threads} (0 runs one per core)",
            csp_core::MAX_THREADS
        ));
    }
    Ok(threads)
}

/// Limit flags.
#[derive(Args, Clone, Debug, Default)]
pub struct LimitArgs {
    /// Stop after this many search nodes (each puzzle, board or instance on its own).
    #[arg(long, value_name = "N", value_parser = parse_whole, allow_hyphen_values = true)]
    pub node_limit: Option<u64>,
    /// Stop after this many seconds (each puzzle, board or instance on its own; fractions
    /// allowed).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,
}

/// Parses a positive number of seconds.
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !secs.is_finite() || secs <= 0.0 {
        return Err(format!(
            "the timeout must be a positive number of seconds, got `{text}`"
        ));
    }
    Duration::try_from_secs_f64(secs).map_err(|_| format!("the timeout `{text}` is too large"))
}

/// Parses a count or a seed: a whole number from 0 up. Negative numbers are read as
/// values (not as flags) so that the message can say what is wrong with them.
pub fn parse_whole(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| {
        let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        if digits {
            format!("`{text}` is too large (at most {})", u64::MAX)
        } else {
            format!("must be a whole number >= 0, got `{text}`")
        }
    })
}

/// The most variables `--last-conflict` may record.
pub const MAX_LAST_CONFLICT: u32 = 1000;

/// Parses `--last-conflict K`: 0 (off) to [`MAX_LAST_CONFLICT`].
pub fn parse_last_conflict(text: &str) -> Result<u32, String> {
    let k = parse_whole(text)?;
    u32::try_from(k)
        .ok()
        .filter(|&k| k <= MAX_LAST_CONFLICT)
        .ok_or_else(|| format!("at most {MAX_LAST_CONFLICT} variables, got {k} (0 turns it off)"))
}

/// Parses a count held in a `usize`: [`parse_whole`], then its size.
pub fn parse_count(text: &str) -> Result<usize, String> {
    let count = parse_whole(text)?;
    usize::try_from(count).map_err(|_| format!("`{text}` is too large (at most {})", usize::MAX))
}

/// The most worker threads `--jobs` accepts: far more than any machine has cores, and few
/// enough that starting them does not stall the run.
pub const MAX_JOBS: usize = 1024;

/// Parses `--jobs`: 0 (one per core) up to [`MAX_JOBS`].
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    let jobs = parse_count(text)?;
    if jobs > MAX_JOBS {
        return Err(format!(
            "at most {MAX_JOBS} worker threads, got {jobs} (0 runs one per core)"
        ));
    }
    Ok(jobs)
}

/// Parses `generate --order`: a box side (its range is checked by the generator).
pub fn parse_generate_order(text: &str) -> Result<usize, String> {
    text.parse().map_err(|_| {
        format!(
            "`{text}` is not a box side: expected a whole number from {} to {} (4x4 to 36x36)",
            csp_sudoku::MIN_GENERATE_ORDER,
            csp_sudoku::MAX_GENERATE_ORDER
        )
    })
}

/// Parses a restart policy: `none`, `luby[:SCALE]` or `geometric[:FIRST[:FACTOR]]`
/// ([`Restarts::parse`]).
pub fn parse_restarts(text: &str) -> Result<Option<Restarts>, String> {
    Restarts::parse(text).map_err(|e| e.to_string())
}

impl StrategyArgs {
    /// The strategy, with `default` filling the parts not given.
    pub fn strategy(&self, default: Strategy) -> Strategy {
        Strategy::new(
            self.var_order.unwrap_or(default.var_order),
            self.value_order.unwrap_or(default.value_order),
            self.inference.unwrap_or(default.inference),
        )
    }

    /// A whole search configuration; a usage error for flags that do not fit together.
    pub fn config(&self, default: Strategy, limits: &LimitArgs) -> Result<SearchConfig, CliError> {
        let strategy = self.strategy(default);
        if self.probe && strategy.inference != csp_core::Inference::Mac {
            return Err(usage(format!(
                "--probe needs --inference mac (the strategy is {strategy})"
            )));
        }
        if self.branching == Some(Branching::Places) && strategy.inference == csp_core::Inference::None {
            return Err(usage(format!(
                "--branching places needs --inference fc or mac (the strategy is {strategy})"
            )));
        }
        let config = SearchConfig {
            strategy,
            tie_break: self.tie_break.unwrap_or(TieBreak::Lowest),
            restarts: None,
            seed: self.seed.unwrap_or(0),
            limits: limits.limits(),
            probing: self.probe,
            branching: self.branching.unwrap_or(Branching::Variables),
            max_trail: SearchConfig::DEFAULT_MAX_TRAIL,
            last_conflict: self.last_conflict.unwrap_or(0),
            backjump: self.backjump.unwrap_or(Backjump::None),
            trace: None,
            live_stats: None,
        };
        checked(config)
    }
}

/// The configuration if its options fit together (`SearchConfig::check`), else a usage
/// error that says why: for what the commands add to [`StrategyArgs::config`] (restarts).
pub fn checked(config: SearchConfig) -> Result<SearchConfig, CliError> {
    match config.check() {
        Ok(()) => Ok(config),
        Err(e) => Err(usage(format!("{e} (the strategy is {})", config.strategy))),
    }
}

/// The search-tree flag.
#[derive(Args, Clone, Debug, Default)]
pub struct TraceArgs {
    /// Write the search tree into FILE, one JSON line per node (`id`, `parent`, `depth`,
    /// `var`, `value`, `status`, `restart`); `csp tree FILE --svg OUT` draws it.
    #[arg(long, value_name = "FILE", allow_negative_numbers = true)]
    pub trace: Option<PathBuf>,
}

/// A trace being written, and where.
pub struct TraceFile {
    trace: Trace,
    path: PathBuf,
}

impl TraceArgs {
    /// The trace file, created (empty) now so that a path that cannot be written fails
    /// before any search; `None` without `--trace`.
    pub fn open(&self) -> Result<Option<TraceFile>, CliError> {
        let Some(path) = &self.trace else {
            return Ok(None);
        };
        let file = std::fs::File::create(path).map_err(|source| CliError::Io {
            context: format!("cannot write the trace {}", path.display()),
            source,
        })?;
        Ok(Some(TraceFile {
            trace: Trace::json_lines(std::io::BufWriter::with_capacity(1 << 16, file)),
            path: path.clone(),
        }))
    }
}

impl TraceFile {
    /// The trace, for the search configuration.
    pub fn trace(&self) -> Trace {
        self.trace.clone()
    }

    /// Writes out the lines still buffered, or says why they could not be written.
    pub fn finish(&self) -> Result<(), CliError> {
        self.trace.finish().map_err(|source| CliError::Io {
            context: format!("cannot write the trace {}", self.path.display()),
            source,
        })
    }
}

impl LimitArgs {
    /// The limits as the engine takes them, a signal cancelling the search.
    pub fn limits(&self) -> Limits {
        Limits {
            nodes: self.node_limit,
            time: self.timeout,
            cancel: Some(crate::interrupt::flag()),
            ..Limits::default()
        }
    }
}
