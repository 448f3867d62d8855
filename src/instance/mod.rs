//! `csp solve`, `csp count` and `csp compare`: any CSP read from a file, XCSP3 (`.xml`,
//! `.xml.xz`, `.xml.lzma`) or DIMACS graph colouring (`.col`, with `--colors K`); and
//! `csp report`, which merges the run records of `csp compare --format jsonl`.

pub mod compare;
pub mod count;
pub mod record;
pub mod report;
pub mod solve;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::{Args, ValueEnum};
use csp_core::{Inference, LimitKind, Model, SearchConfig, Stats, Strategy, Strength, ValueOrder, VarOrder};
use csp_xcsp::{Instance, PostOptions};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::args::{LimitArgs, StrategyArgs, parse_restarts};
use crate::error::CliError;
use crate::error::usage;

/// The default strategy for instances read from files: dom/wdeg, values in ascending
/// order, maintained arc consistency (measured best over the competition set, see
/// docs/performance-xcsp.md).
pub fn default_strategy() -> Strategy {
    Strategy::new(VarOrder::DomWdeg, ValueOrder::Asc, Inference::Mac)
}

/// Where the instances come from and how to read them.
#[derive(Args, Clone, Debug)]
pub struct InstanceArgs {
    /// Number of colours for DIMACS graph-colouring files (`.col`): one variable per vertex
    /// (`v1` .. `vN`) over `0..K-1`, `!=` on every edge.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=1_000_000), allow_negative_numbers = true)]
    pub colors: Option<u32>,
    /// All-different strength for instances: value, hidden, gac. Default: gac.
    #[arg(long, value_name = "STRENGTH", allow_negative_numbers = true)]
    pub alldiff: Option<Strength>,
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
    /// recorded as a nogood, so counts stay exact. Default: none.
    #[arg(long, value_name = "POLICY", allow_negative_numbers = true)]
    pub restarts: Option<String>,
    /// Worker threads over the files given (0: one per core).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = crate::args::parse_jobs, allow_negative_numbers = true)]
    pub jobs: usize,
    /// Also print the search statistics (nodes, backtracks, time...) on standard error
    /// (they are always in the JSON output).
    #[arg(long)]
    pub stats: bool,
}

impl SearchArgs {
    /// The search configuration, with the cancel flag that SIGINT and SIGTERM raise.
    pub fn config(&self, cancel: &Arc<AtomicBool>) -> Result<SearchConfig, CliError> {
        let mut config = self.strategy.config(default_strategy(), &self.limits)?;
        if let Some(text) = &self.restarts {
            config.restarts = parse_restarts(text).map_err(usage)?;
        }
        config.limits.cancel = Some(cancel.clone());
        Ok(config)
    }
}

/// Output formats of `solve` and `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `name=value` pairs separated by spaces, in declaration order (`# ...` lines for
    /// answers without a solution).
    Line,
    /// One JSON object per answer.
    Json,
    /// The XCSP competition output: `s SATISFIABLE` and `v <instantiation>...`.
    Xcsp,
}

/// An instance ready to solve: its model, and (for XCSP3) the constraints as read, against
/// which every solution is checked before it is reported.
pub enum Loaded {
    /// An XCSP3 instance.
    Xcsp(Instance),
    /// A model built from another format (DIMACS).
    Model(Model),
}

impl Loaded {
    /// The model.
    pub fn model(&self) -> &Model {
        match self {
            Loaded::Xcsp(i) => &i.model,
            Loaded::Model(m) => m,
        }
    }

    /// Checks a solution against the constraints as read; an error names the constraint's line.
    pub fn check(&self, values: &[i32]) -> Result<(), String> {
        match self {
            Loaded::Xcsp(instance) => instance.check(values).map_err(|c| {
                format!(
                    "internal error: a solution violates the constraint at {} ({:?})",
                    c.position, c.constraint
                )
            }),
            Loaded::Model(model) => match model.violation(values) {
                None => Ok(()),
                Some(v) => Err(format!("internal error: a solution violates {v}")),
            },
        }
    }

    /// The variables a solution shows: the declared ones (not auxiliary variables).
    pub fn shown(&self) -> impl Iterator<Item = csp_core::VarId> + '_ {
        let n = match self {
            Loaded::Xcsp(i) => i.declared,
            Loaded::Model(m) => m.num_vars(),
        };
        self.model().vars().take(n)
    }

    /// The solution as `name=value` pairs.
    pub fn line(&self, values: &[i32]) -> String {
        let mut s = String::new();
        for v in self.shown() {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(self.model().name(v));
            s.push('=');
            s.push_str(&values[v.index()].to_string());
        }
        s
    }

    /// The solution as a JSON object from name to value.
    pub fn json(&self, values: &[i32]) -> Value {
        let mut map = Map::new();
        for v in self.shown() {
            map.insert(self.model().name(v).to_string(), Value::from(values[v.index()]));
        }
        Value::Object(map)
    }

    /// The `v <instantiation>` line of the XCSP competition output.
    pub fn xcsp(&self, values: &[i32]) -> String {
        let names: Vec<&str> = self.shown().map(|v| self.model().name(v)).collect();
        let vals: Vec<String> = self.shown().map(|v| values[v.index()].to_string()).collect();
        format!(
            "v <instantiation> <list> {} </list> <values> {} </values> </instantiation>",
            names.join(" "),
            vals.join(" ")
        )
    }
}

/// Whether the file is DIMACS graph colouring (by its name: `.col`, possibly compressed).
pub fn is_dimacs(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let name = name.trim_end_matches(".xz").trim_end_matches(".lzma");
    name.ends_with(".col")
}

/// Reads an instance; a usage error for a `.col` file without `--colors`.
pub fn load(path: &Path, args: &InstanceArgs) -> Result<Loaded, String> {
    if is_dimacs(path) {
        let Some(k) = args.colors else {
            return Err(format!("{}: a DIMACS .col file needs --colors K", path.display()));
        };
        let model = csp_xcsp::dimacs::read(path, k).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(Loaded::Model(model));
    }
    let mut options = PostOptions::default();
    if let Some(s) = args.alldiff {
        options.all_different = s;
    }
    let instance = Instance::from_path_with(path, options).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Loaded::Xcsp(instance))
}

/// Checks up front that `--colors` is only given where it is used, and that `.col` files have it.
pub fn check_inputs(files: &[PathBuf], args: &InstanceArgs) -> Result<(), CliError> {
    let any_col = files.iter().any(|f| is_dimacs(f));
    if any_col && args.colors.is_none() {
        return Err(usage("DIMACS .col files need --colors K"));
    }
    Ok(())
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

/// Runs `work` on every file with `jobs` workers; results in input order.
pub fn run_files<R: Send>(files: &[PathBuf], jobs: usize, work: impl Fn(&Path) -> R + Sync) -> Vec<R> {
    let mut results: Vec<Option<R>> = files.iter().map(|_| None).collect();
    crate::run::parallel_each(
        files.len(),
        jobs,
        |i| work(&files[i]),
        |i, r| {
            results[i] = Some(r);
            true
        },
    );
    results.into_iter().map(|r| r.expect("every file ran")).collect()
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
