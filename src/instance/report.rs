//! `csp report FILE...`: merges the records of `csp compare --format jsonl` (the parts
//! of a sharded campaign, or a resumed one) into the tables of a comparison (runs
//! answered, PAR-2, total and median nodes, wins per pair of strategies) and its charts
//! (cactus plots against time and nodes, a log-log scatter plot of two strategies).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::record::{RunKey, RunRecord, read_records};
use crate::chart::cactus::CactusSeries;
use crate::chart::scatter::{Pair, Scatter};
use crate::error::{CliError, EXIT_OK, usage, written};

/// Output formats of `csp report`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Aligned text tables.
    Table,
    /// One JSON object.
    Json,
}

/// Arguments of `csp report`.
#[derive(Args)]
pub struct ReportArgs {
    /// Files of run records (`csp compare --format jsonl`), merged.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Draw the cactus plots and the scatter plot into this SVG file.
    #[arg(long, value_name = "FILE", allow_negative_numbers = true)]
    svg: Option<PathBuf>,
    /// The two strategies of the scatter plot, `A,B`. Default: the first two by name.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "A,B",
        allow_negative_numbers = true
    )]
    scatter: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Table, allow_negative_numbers = true)]
    format: ReportFormat,
}

/// One strategy's figures over the merged runs.
#[derive(Serialize)]
struct StrategyRow {
    strategy: String,
    runs: usize,
    answered: usize,
    solved: usize,
    unsatisfiable: usize,
    limit: usize,
    error: usize,
    /// Penalised average runtime: a run's seconds when it answered, twice its time limit
    /// otherwise, averaged.
    par2_s: f64,
    nodes_total: u64,
    nodes_median: f64,
    time_s_total: f64,
}

/// The whole report.
#[derive(Serialize)]
struct Report {
    runs: usize,
    instances: usize,
    strategies: Vec<StrategyRow>,
    /// `wins[a][b]`: instances (file and seed) where `a` answered and `b` did not, or
    /// both answered and `a` took fewer nodes.
    wins: BTreeMap<String, BTreeMap<String, usize>>,
}

fn median(sorted: &[u64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2] as f64,
        n => (sorted[n / 2 - 1] + sorted[n / 2]) as f64 / 2.0,
    }
}

/// Whether run `a` beats run `b` on the same instance.
fn beats(a: &RunRecord, b: &RunRecord) -> bool {
    match (a.status.answered(), b.status.answered()) {
        (true, false) => true,
        (true, true) => a.stats.nodes < b.stats.nodes,
        _ => false,
    }
}

fn report(by_strategy: &BTreeMap<String, BTreeMap<(String, u64), RunRecord>>, runs: usize) -> Report {
    let instances: BTreeSet<&(String, u64)> = by_strategy.values().flat_map(|m| m.keys()).collect();
    let strategies = by_strategy
        .iter()
        .map(|(name, runs)| {
            let count = |s| runs.values().filter(|r| r.status == s).count();
            use super::record::RunStatus as S;
            let mut nodes: Vec<u64> = runs.values().map(|r| r.stats.nodes).collect();
            nodes.sort_unstable();
            let par2: f64 = runs
                .values()
                .map(|r| {
                    if r.status.answered() {
                        r.seconds()
                    } else {
                        2.0 * r.timeout_s
                    }
                })
                .sum();
            StrategyRow {
                strategy: name.clone(),
                runs: runs.len(),
                answered: count(S::Solved) + count(S::Unsatisfiable),
                solved: count(S::Solved),
                unsatisfiable: count(S::Unsatisfiable),
                limit: count(S::Limit),
                error: count(S::Error),
                par2_s: par2 / runs.len().max(1) as f64,
                nodes_total: nodes.iter().sum(),
                nodes_median: median(&nodes),
                time_s_total: runs.values().map(RunRecord::seconds).sum(),
            }
        })
        .collect();
    let mut wins = BTreeMap::new();
    for (a, runs_a) in by_strategy {
        let row: &mut BTreeMap<String, usize> = wins.entry(a.clone()).or_default();
        for (b, runs_b) in by_strategy {
            if a != b {
                let won = runs_a
                    .iter()
                    .filter(|(key, ra)| runs_b.get(*key).is_some_and(|rb| beats(ra, rb)))
                    .count();
                row.insert(b.clone(), won);
            }
        }
    }
    Report {
        runs,
        instances: instances.len(),
        strategies,
        wins,
    }
}

fn table(r: &Report, files: usize, duplicates: usize) -> String {
    let mut s = format!(
        "{} runs on {} instances (file and seed), merged from {files} file(s){}\n",
        r.runs,
        r.instances,
        if duplicates > 0 {
            format!("; {duplicates} repeated runs left out")
        } else {
            String::new()
        }
    );
    let width = r
        .strategies
        .iter()
        .map(|row| row.strategy.len())
        .max()
        .unwrap_or(8)
        .max(8);
    s.push_str(&format!(
        "{:<width$} {:>6} {:>9} {:>7} {:>7} {:>6} {:>6} {:>10} {:>14} {:>12}\n",
        "strategy",
        "runs",
        "answered",
        "solved",
        "unsat",
        "limit",
        "error",
        "PAR-2 s",
        "nodes total",
        "nodes median"
    ));
    for row in &r.strategies {
        s.push_str(&format!(
            "{:<width$} {:>6} {:>9} {:>7} {:>7} {:>6} {:>6} {:>10.3} {:>14} {:>12.1}\n",
            row.strategy,
            row.runs,
            row.answered,
            row.solved,
            row.unsatisfiable,
            row.limit,
            row.error,
            row.par2_s,
            row.nodes_total,
            row.nodes_median
        ));
    }
    if r.strategies.len() > 1 {
        s.push_str("\nwins: the row's strategy answered where the column's did not, or with fewer nodes\n");
        let labels: Vec<String> = (0..r.strategies.len())
            .map(|i| format!("[{}] {}", i + 1, r.strategies[i].strategy))
            .collect();
        let width = labels.iter().map(String::len).max().unwrap_or(0);
        s.push_str(&format!("{:<width$}", ""));
        for i in 0..r.strategies.len() {
            s.push_str(&format!(" {:>6}", format!("[{}]", i + 1)));
        }
        s.push('\n');
        for (a, label) in r.strategies.iter().zip(&labels) {
            s.push_str(&format!("{label:<width$}"));
            for b in &r.strategies {
                let cell = r.wins[&a.strategy]
                    .get(&b.strategy)
                    .map_or("-".to_string(), usize::to_string);
                s.push_str(&format!(" {cell:>6}"));
            }
            s.push('\n');
        }
    }
    s
}

/// Runs `csp report`.
pub fn run(args: ReportArgs) -> Result<u8, CliError> {
    if let Some(missing) = args.files.iter().find(|f| !f.is_file()) {
        return Err(usage(format!("{}: no such file", missing.display())));
    }
    if !args.scatter.is_empty() && args.scatter.len() != 2 {
        return Err(usage("--scatter takes two strategies: A,B"));
    }
    // strategy -> (file, seed) -> run; the first record of a run is kept.
    let mut by_strategy: BTreeMap<String, BTreeMap<(String, u64), RunRecord>> = BTreeMap::new();
    let (mut runs, mut duplicates) = (0, 0);
    let mut seen: BTreeSet<RunKey> = BTreeSet::new();
    for path in &args.files {
        let read = read_records(path)?;
        if read.partial {
            note!("{}: the last line was cut off; it is left out", path.display());
        }
        for r in read.records {
            if !seen.insert(r.key()) {
                duplicates += 1;
                continue;
            }
            runs += 1;
            by_strategy
                .entry(r.strategy.clone())
                .or_default()
                .insert((r.file.clone(), r.seed), r);
        }
    }
    if duplicates > 0 {
        note!("{duplicates} runs appear more than once; the first record of each is used");
    }
    // Checked before anything is written, with or without --svg: a misspelt strategy is
    // an error whichever output was asked for.
    for s in &args.scatter {
        if !by_strategy.contains_key(s) {
            return Err(usage(format!("--scatter: no run of strategy `{s}`")));
        }
    }
    if !args.scatter.is_empty() && args.svg.is_none() {
        note!("--scatter draws into the chart of --svg FILE; without it there is no chart");
    }
    let merged = report(&by_strategy, runs);
    let text = match args.format {
        ReportFormat::Table => table(&merged, args.files.len(), duplicates),
        ReportFormat::Json => format!("{}\n", serde_json::to_string_pretty(&merged).expect("plain data")),
    };
    written(
        std::io::stdout().lock().write_all(text.as_bytes()),
        "cannot write the report",
    )?;
    if let Some(path) = &args.svg {
        let names: Vec<&String> = by_strategy.keys().collect();
        let pair = match &args.scatter[..] {
            [a, b] => Some((a, b)),
            _ => (names.len() >= 2).then(|| (names[0], names[1])),
        };
        let svg = chart(&by_strategy, runs_per_strategy(&merged), pair);
        std::fs::write(path, svg).map_err(|source| CliError::Io {
            context: format!("cannot write {}", path.display()),
            source,
        })?;
    }
    Ok(EXIT_OK)
}

fn runs_per_strategy(r: &Report) -> usize {
    r.strategies.iter().map(|s| s.runs).max().unwrap_or(0)
}

/// The cactus plots and, for `pair`, the scatter plot of nodes run by run.
fn chart(
    by_strategy: &BTreeMap<String, BTreeMap<(String, u64), RunRecord>>,
    runs: usize,
    pair: Option<(&String, &String)>,
) -> String {
    let series: Vec<CactusSeries> = by_strategy
        .iter()
        .map(|(name, runs)| {
            let answered = runs.values().filter(|r| r.status.answered());
            CactusSeries {
                name: name.clone(),
                seconds: answered.clone().map(RunRecord::seconds).collect(),
                nodes: answered.map(|r| r.stats.nodes.max(1) as f64).collect(),
            }
        })
        .collect();
    let scatter = pair.map(|(a, b)| {
        let (runs_a, runs_b) = (&by_strategy[a], &by_strategy[b]);
        let pairs = runs_a
            .iter()
            .filter_map(|(key, ra)| {
                runs_b.get(key).map(|rb| Pair {
                    a: ra.stats.nodes.max(1) as f64,
                    b: rb.stats.nodes.max(1) as f64,
                    both_answered: ra.status.answered() && rb.status.answered(),
                })
            })
            .collect();
        Scatter {
            figure: "nodes".into(),
            a: a.clone(),
            b: b.clone(),
            pairs,
        }
    });
    crate::chart::campaign_chart(&series, runs, scatter.as_ref())
}
