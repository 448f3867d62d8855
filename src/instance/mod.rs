//! `csp solve`, `csp count` and `csp compare`: any CSP read from a file, XCSP3 (`.xml`,
//! `.xml.xz`, `.xml.lzma`), DIMACS graph colouring (`.col`, with `--colors K`) or FlatZinc
//! (`.fzn`), each read by its front end ([`front_end`]); and
//! `csp report`, which merges the run records of `csp compare --format jsonl`.

pub mod compare;
pub mod count;
pub mod explain;
mod front_end;
pub mod record;
pub mod report;
pub mod solve;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::{Args, ValueEnum};
use csp_core::{
    Backjump, Inference, LimitKind, Restarts, SearchConfig, Stats, Strategy, Strength, ValueOrder, VarOrder,
};
use csp_xcsp::ReadLimits;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

pub use front_end::{InputFormat, LoadFailure, Loaded, load_within};

use crate::args::{LimitArgs, ParallelArgs, StrategyArgs, TraceArgs, checked, parse_restarts};
use crate::error::CliError;
use crate::error::usage;

/// The default strategy of `csp solve` on instance files: run robin (pick/dom, dom/wdeg,
/// frba/dom, dom/wdeg^ca.cd, one per run of [`default_restarts`]), values in ascending order,
/// maintained arc consistency. Chosen over dom/wdeg without restarts on the 2025 competition
/// problems and the frb series (docs/performance.md#the-default-strategy-for-instance-files).
pub fn default_strategy() -> Strategy {
    Strategy::new(VarOrder::RunRobin, ValueOrder::Asc, Inference::Mac)
}

/// The default strategy of `csp count` on instance files: dom/wdeg (Boussemart et al.),
/// values in ascending order, maintained arc consistency. A count has no restarts by
/// default (it searches every subtree anyway), and run robin without restarts would be
/// pick/dom alone.
pub fn default_count_strategy() -> Strategy {
    Strategy::new(VarOrder::DomWdeg, ValueOrder::Asc, Inference::Mac)
}

/// The restarts of `csp solve` on instance files without `--restarts`: geometric, 100 nodes
/// in the first run and 1.5 times more in each next one. `csp count` has none by default.
pub fn default_restarts() -> Option<Restarts> {
    Some(Restarts::Geometric {
        first: 100,
        factor: 1.5,
    })
}

/// Where the instances come from and how to read them.
#[derive(Args, Clone, Debug)]
pub struct InstanceArgs {
    /// Number of colours for DIMACS graph-colouring files (`.col`): one variable per vertex
    /// (`v1` .. `vN`) over `0..K-1`, `!=` on every edge. A vertex without an edge is not
    /// searched: `solve` gives it colour 0 (every colour, under `solve --all`) and `count`
    /// multiplies the count by K.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=1_000_000), allow_negative_numbers = true)]
    pub colors: Option<u32>,
    /// All-different strength for instances: value, hidden, gac. Default: gac.
    #[arg(long, value_name = "STRENGTH", allow_negative_numbers = true)]
    pub alldiff: Option<Strength>,
    /// The most bytes an instance file may hold (XML once decompressed, FlatZinc as it is),
    /// with suffixes K, M, G (powers of 1024). Default: 1G.
    #[arg(long, value_name = "SIZE", value_parser = parse_size, allow_hyphen_values = true)]
    pub max_input: Option<u64>,
}

/// Parses a size in bytes: a whole number, optionally followed by K, M or G (powers of 1024).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let (digits, scale) = match text.char_indices().last() {
        Some((i, 'K' | 'k')) => (&text[..i], 1u64 << 10),
        Some((i, 'M' | 'm')) => (&text[..i], 1 << 20),
        Some((i, 'G' | 'g')) => (&text[..i], 1 << 30),
        _ => (text, 1),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("expected a size in bytes such as 500M or 2G, got `{text}`"))
}

/// The search flags of `solve` and `count`: strategy, limits, restarts and workers.
#[derive(Args, Clone, Debug)]
pub struct SearchArgs {
    #[command(flatten)]
    pub strategy: StrategyArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Restarts: `none`, `luby[:SCALE]` (SCALE nodes per unit run, default 100) or
    /// `geometric[:FIRST[:FACTOR]]` (defaults 100 and 1.5). Each subtree a run finished is
    /// recorded as a nogood, so counts stay exact. Default: geometric:100:1.5 for `solve`
    /// (none with --backjump or --method tree), none for `count`.
    #[arg(long, value_name = "POLICY", allow_negative_numbers = true)]
    pub restarts: Option<String>,
    #[command(flatten)]
    pub parallel: ParallelArgs,
    /// Worker threads over the files given (0: one per core).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = crate::args::parse_jobs, allow_negative_numbers = true)]
    pub jobs: usize,
    /// Also print the search statistics (nodes, backtracks, time...) on standard error
    /// (they are always in the JSON output).
    #[arg(long)]
    pub stats: bool,
    /// The algorithm: `search` (backtracking search with the strategy flags) or `tree`
    /// (AIMA's tree-structured algorithm, for a model whose constraint graph is a forest of
    /// binary constraints; it takes no strategy flags). Default: search.
    #[arg(long, value_enum, default_value_t = Method::Search, allow_negative_numbers = true)]
    pub method: Method,
    #[command(flatten)]
    pub trace: TraceArgs,
}

/// The algorithm of `solve` and `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// Backtracking search, as the strategy flags say.
    Search,
    /// AIMA's tree-structured algorithm (§6.5): directional arc consistency, then a pass
    /// without backtracking.
    Tree,
}

impl SearchArgs {
    /// The search configuration, with the cancel flag that SIGINT and SIGTERM raise; the
    /// defaults of instance files fill what the flags leave out (`counting`: for `csp count`,
    /// without restarts).
    pub fn config(&self, cancel: &Arc<AtomicBool>, counting: bool) -> Result<SearchConfig, CliError> {
        let default = if counting {
            default_count_strategy()
        } else {
            default_strategy()
        };
        let mut config = self.strategy.config(default, &self.limits)?;
        // Backjumping does not restart, and the tree method does not search: neither takes
        // the default restarts.
        let plain = config.backjump == Backjump::None && self.method != Method::Tree;
        config.restarts = match &self.restarts {
            Some(text) => parse_restarts(text).map_err(usage)?,
            None if counting || !plain => None,
            None => default_restarts(),
        };
        config.limits.cancel = Some(cancel.clone());
        if self.method == Method::Tree {
            self.refuse_strategy_for_tree()?;
        }
        checked(config)
    }

    /// `--method tree` has no strategy: a strategy flag with it is a usage error.
    fn refuse_strategy_for_tree(&self) -> Result<(), CliError> {
        let s = &self.strategy;
        let given = [
            ("--var", s.var_order.is_some()),
            ("--val", s.value_order.is_some()),
            ("--inference", s.inference.is_some()),
            ("--tie-break", s.tie_break.is_some()),
            ("--seed", s.seed.is_some()),
            ("--probe", s.probe),
            ("--branching", s.branching.is_some()),
            ("--backjump", s.backjump.is_some()),
            ("--restarts", self.restarts.is_some()),
        ];
        match given.iter().find(|(_, set)| *set) {
            Some((flag, _)) => Err(usage(format!(
                "--method tree takes no strategy flag ({flag}): it orders the variables from the roots of the forest and assigns without backtracking"
            ))),
            None => Ok(()),
        }
    }

    /// The trace file of `--trace`, for runs on one file only.
    pub fn open_trace(&self, files: &[PathBuf]) -> Result<Option<crate::args::TraceFile>, CliError> {
        if self.trace.trace.is_some() && files.len() != 1 {
            return Err(usage(format!(
                "--trace writes the search tree of one instance; {} files were given",
                files.len()
            )));
        }
        self.trace.open()
    }
}

/// Output formats of `solve` and `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Text: for `solve`, each solution as `name=value` pairs in declaration order (`# ...`
    /// lines for answers without a solution); for `count`, the number of solutions.
    Line,
    /// One JSON object per answer.
    Json,
    /// The XCSP competition output: `s SATISFIABLE` and `v <instantiation>...`.
    Xcsp,
}

/// The limits that hold while an instance is read: the run's deadline, the cancel flag of
/// SIGINT/SIGTERM and the input size.
pub fn read_limits(args: &InstanceArgs, deadline: Option<Instant>) -> ReadLimits {
    ReadLimits {
        deadline,
        cancel: Some(cancel_flag()),
        max_input: args.max_input.unwrap_or(csp_xcsp::DEFAULT_MAX_INPUT),
        ..ReadLimits::default()
    }
}

/// Checks up front that every file exists and is not a directory (`-` is standard input,
/// once), and that `.col` files have `--colors`.
pub fn check_inputs(files: &[PathBuf], args: &InstanceArgs) -> Result<(), CliError> {
    let any_col = files.iter().any(|f| InputFormat::of(f) == InputFormat::Dimacs);
    if any_col && args.colors.is_none() {
        return Err(usage("DIMACS .col files need --colors K"));
    }
    if files.iter().filter(|f| f.as_os_str() == "-").count() > 1 {
        return Err(usage("standard input (`-`) can be read once"));
    }
    for f in files.iter().filter(|f| f.as_os_str() != "-") {
        match std::fs::metadata(f) {
            Ok(m) if m.is_dir() => return Err(usage(format!("{} is a directory", f.display()))),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(usage(format!("{}: no such file", f.display())));
            }
            // Unreadable for another reason: reported with the file's answer.
            Err(_) => {}
        }
    }
    Ok(())
}

/// When the run of one instance must end: its whole run (reading, posting and search) counts
/// against `--timeout`.
pub fn deadline(limits: &crate::args::LimitArgs, start: Instant) -> Option<Instant> {
    limits.timeout.and_then(|t| start.checked_add(t))
}

/// The search configuration for what is left of the run: the time limit is what remains
/// before the deadline (at least a moment, so that the limit is reported by the search).
pub fn remaining(config: &SearchConfig, deadline: Option<Instant>) -> SearchConfig {
    let mut config = config.clone();
    if let Some(d) = deadline {
        config.limits.time = Some(
            d.saturating_duration_since(Instant::now())
                .max(std::time::Duration::from_micros(1)),
        );
    }
    config
}

/// The flag raised by SIGINT or SIGTERM ([`crate::interrupt`]): the search stops and
/// reports what it has, and the program exits with 130 or 143.
pub fn cancel_flag() -> Arc<AtomicBool> {
    crate::interrupt::flag()
}

/// The `s` line of the XCSP competition output: a solution found, none (and no limit cut
/// the search short), or neither known.
pub fn status_line(found: bool, limit: Option<LimitKind>) -> &'static str {
    match (found, limit) {
        (true, _) => "s SATISFIABLE",
        (false, None) => "s UNSATISFIABLE",
        (false, Some(_)) => "s UNKNOWN",
    }
}

/// The statistics as a JSON object (flattened into each answer).
pub fn stats_json(stats: &Stats) -> Map<String, Value> {
    match serde_json::to_value(stats) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

/// The statistics in one line, for `--stats`.
pub fn stats_line(stats: &Stats) -> String {
    format!(
        "nodes={} backtracks={} checks={} pruned={} propagations={} max_depth={} restarts={} time={:.3}s",
        stats.nodes,
        stats.backtracks,
        stats.checks,
        stats.pruned,
        stats.propagations,
        stats.max_depth,
        stats.restarts,
        stats.elapsed.as_secs_f64()
    )
}

/// Runs `work` on every file with `jobs` workers, and hands each result to `emit` in input
/// order as soon as it and those before it are done. `emit` returns `false` to stop (the
/// reader of the output is gone): files not yet started are skipped.
pub fn run_files<R: Send>(
    files: &[PathBuf],
    jobs: usize,
    work: impl Fn(&Path) -> R + Sync,
    mut emit: impl FnMut(&Path, R) -> bool,
) {
    // Results that end before their turn wait here.
    let mut early: BTreeMap<usize, R> = BTreeMap::new();
    let mut turn = 0;
    crate::run::parallel_each(
        files.len(),
        jobs,
        |i| work(&files[i]),
        |i, r| {
            early.insert(i, r);
            while let Some(r) = early.remove(&turn) {
                if !emit(&files[turn], r) {
                    return false;
                }
                turn += 1;
            }
            true
        },
    );
}

/// A JSON object with the file name first.
pub fn object(file: &Path) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("file".into(), Value::from(file.display().to_string()));
    m
}

/// Prints a value as one JSON line.
pub fn json_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("plain data")
}

/// Prints `object` with `key` set to `raw` (JSON text) as one JSON line, its keys in order
/// as [`json_line`] has them.
pub fn json_line_with(object: &Map<String, Value>, key: &str, raw: Box<RawValue>) -> String {
    let mut fields: BTreeMap<&str, Box<RawValue>> = object
        .iter()
        .map(|(k, v)| {
            (
                k.as_str(),
                serde_json::value::to_raw_value(v).expect("plain data"),
            )
        })
        .collect();
    fields.insert(key, raw);
    json_line(&fields)
}
