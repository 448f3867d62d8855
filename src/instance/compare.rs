//! `csp compare FILE...`: every chosen strategy on every instance, as a table, CSV, JSON or
//! an SVG chart (as `csp sudoku compare` does over puzzles).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};
use csp_core::{Limits, Outcome, SearchConfig, Solver, Stats, Strategy};
use csp_sudoku::Summary;

use super::{InstanceArgs, Loaded, load};
use crate::args::{parse_restarts, parse_seconds};
use crate::error::usage;
use crate::error::{CliError, EXIT_OK};

/// Output formats of `compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    /// An aligned text table.
    Table,
    /// Comma-separated values with a header line.
    Csv,
    /// One JSON array of summaries.
    Json,
}

/// Arguments of `csp compare`.
#[derive(Args)]
pub struct CompareArgs {
    /// Instance files: XCSP3 (`.xml`, `.xml.xz`, `.xml.lzma`) or DIMACS (`.col`, with --colors).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Strategies, comma separated `var/value/inference`, or `textbook` for all 18.
    /// Default: the 18 textbook strategies, dom-wdeg/asc/mac and dom-wdeg-fixed/asc/mac.
    #[arg(long, value_delimiter = ',', value_name = "STRATEGIES")]
    strategies: Vec<String>,
    /// Count every solution instead of finding the first.
    #[arg(long)]
    count: bool,
    /// Restarts for every strategy (see `csp solve --help`). Default: none.
    #[arg(long, value_name = "POLICY")]
    restarts: Option<String>,
    /// Node limit per instance and strategy, so that hopeless combinations end.
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    node_limit: u64,
    /// Time limit per instance and strategy, in seconds.
    #[arg(long, default_value = "5", value_parser = parse_seconds, allow_hyphen_values = true, value_name = "SECONDS")]
    timeout: Duration,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Table)]
    format: CompareFormat,
    /// Also draw the comparison as an SVG chart into this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    instance: InstanceArgs,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = crate::args::parse_jobs)]
    jobs: usize,
}

fn strategies(args: &CompareArgs) -> Result<Vec<Strategy>, CliError> {
    let mut out = Vec::new();
    for s in &args.strategies {
        if s == "textbook" {
            out.extend(Strategy::textbook());
        } else {
            out.push(
                s.parse()
                    .map_err(|e: csp_core::ParseNameError| usage(e.to_string()))?,
            );
        }
    }
    if out.is_empty() {
        out = Strategy::textbook();
        out.push("dom-wdeg/asc/mac".parse().expect("a strategy"));
        out.push("dom-wdeg-fixed/asc/mac".parse().expect("a strategy"));
    }
    Ok(out)
}

/// One run: the outcome kind and the statistics.
#[derive(Clone)]
struct Run {
    /// 0 solved, 1 unsatisfiable, 2 limit.
    kind: u8,
    stats: Stats,
}

fn run_one(loaded: &Loaded, config: &SearchConfig, count: bool) -> Run {
    let Ok(mut solver) = Solver::new(loaded.model(), config.clone()) else {
        return Run {
            kind: 2,
            stats: Stats::default(),
        };
    };
    let kind = if count {
        let c = solver.count();
        match (c.limit, c.solutions) {
            (Some(_), _) => 2,
            (None, 0) => 1,
            (None, _) => 0,
        }
    } else {
        match solver.solve() {
            Outcome::Solved(_) => 0,
            Outcome::Unsatisfiable => 1,
            Outcome::Limit(_) => 2,
        }
    };
    Run {
        kind,
        stats: solver.stats().clone(),
    }
}

fn summarise(strategy: &Strategy, runs: &[Run]) -> Summary {
    let n = runs.len().max(1) as f64;
    let mut nodes: Vec<u64> = runs.iter().map(|r| r.stats.nodes).collect();
    nodes.sort_unstable();
    let median = match nodes.len() {
        0 => 0.0,
        k if k % 2 == 1 => nodes[k / 2] as f64,
        k => (nodes[k / 2 - 1] + nodes[k / 2]) as f64 / 2.0,
    };
    let total_ms: f64 = runs.iter().map(|r| r.stats.elapsed.as_secs_f64() * 1000.0).sum();
    Summary {
        contender: strategy.to_string(),
        model: "instance".into(),
        strategy: strategy.to_string(),
        puzzles: runs.len(),
        solved: runs.iter().filter(|r| r.kind == 0).count(),
        unsatisfiable: runs.iter().filter(|r| r.kind == 1).count(),
        limit: runs.iter().filter(|r| r.kind == 2).count(),
        nodes_mean: nodes.iter().sum::<u64>() as f64 / n,
        nodes_median: median,
        nodes_max: nodes.last().copied().unwrap_or(0),
        backtracks_mean: runs.iter().map(|r| r.stats.backtracks).sum::<u64>() as f64 / n,
        checks_mean: runs.iter().map(|r| r.stats.checks).sum::<u64>() as f64 / n,
        time_ms_mean: total_ms / n,
        time_ms_total: total_ms,
    }
}

/// Runs `csp compare`.
pub fn run(args: CompareArgs) -> Result<u8, CliError> {
    super::check_inputs(&args.files, &args.instance)?;
    let field = strategies(&args)?;
    let restarts = match &args.restarts {
        Some(t) => parse_restarts(t).map_err(usage)?,
        None => None,
    };
    let mut loaded = Vec::new();
    for f in &args.files {
        match load(f, &args.instance) {
            Ok(l) => loaded.push(l),
            Err(e) => note!("skipped: {e}"),
        }
    }
    if loaded.is_empty() {
        return Err(CliError::Failed("no readable instance".into()));
    }
    let svg = match &args.svg {
        Some(path) => Some((
            path,
            std::fs::File::create(path).map_err(|source| svg_error(path, source))?,
        )),
        None => None,
    };
    // Every (strategy, instance) pair, run on the workers.
    let jobs: Vec<(usize, usize)> = (0..field.len())
        .flat_map(|s| (0..loaded.len()).map(move |i| (s, i)))
        .collect();
    let keys: Vec<PathBuf> = jobs.iter().map(|_| PathBuf::new()).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let runs: Vec<std::sync::Mutex<Option<Run>>> = jobs.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let workers = if args.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        args.jobs
    };
    std::thread::scope(|s| {
        for _ in 0..workers.min(jobs.len()).max(1) {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if k >= jobs.len() {
                        break;
                    }
                    let (si, ii) = jobs[k];
                    let config = SearchConfig {
                        strategy: field[si],
                        restarts,
                        limits: Limits {
                            nodes: Some(args.node_limit),
                            time: Some(args.timeout),
                            ..Limits::default()
                        },
                        ..SearchConfig::default()
                    };
                    let r = run_one(&loaded[ii], &config, args.count);
                    *runs[k].lock().expect("no panic") = Some(r);
                }
            });
        }
    });
    drop(keys);
    let runs: Vec<Run> = runs
        .into_iter()
        .map(|m| m.into_inner().expect("no panic").expect("ran"))
        .collect();
    let summaries: Vec<Summary> = field
        .iter()
        .enumerate()
        .map(|(si, s)| summarise(s, &runs[si * loaded.len()..(si + 1) * loaded.len()]))
        .collect();
    let mut out = std::io::stdout().lock();
    let written = match args.format {
        CompareFormat::Table => write_table(&mut out, &summaries),
        CompareFormat::Csv => write_csv(&mut out, &summaries),
        CompareFormat::Json => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&summaries).expect("plain data")
        ),
    };
    written.map_err(|source| CliError::Io {
        context: "cannot write the results".into(),
        source,
    })?;
    if let Some((path, mut file)) = svg {
        file.write_all(crate::chart::nodes_chart(&summaries).as_bytes())
            .map_err(|source| svg_error(path, source))?;
    }
    Ok(EXIT_OK)
}

fn svg_error(path: &std::path::Path, source: std::io::Error) -> CliError {
    CliError::Io {
        context: format!("cannot write {}", path.display()),
        source,
    }
}

fn write_table(out: &mut impl Write, rows: &[Summary]) -> std::io::Result<()> {
    let width = rows.iter().map(|r| r.contender.len()).max().unwrap_or(8).max(8);
    writeln!(
        out,
        "{:<width$} {:>9} {:>7} {:>12} {:>10} {:>10} {:>12} {:>10} {:>10}",
        "strategy", "answered", "limit", "nodes mean", "median", "max", "backtracks", "ms mean", "ms total"
    )?;
    for r in rows {
        writeln!(
            out,
            "{:<width$} {:>9} {:>7} {:>12.1} {:>10.1} {:>10} {:>12.1} {:>10.3} {:>10.1}",
            r.contender,
            format!("{}/{}", r.solved + r.unsatisfiable, r.puzzles),
            r.limit,
            r.nodes_mean,
            r.nodes_median,
            r.nodes_max,
            r.backtracks_mean,
            r.time_ms_mean,
            r.time_ms_total
        )?;
    }
    Ok(())
}

fn write_csv(out: &mut impl Write, rows: &[Summary]) -> std::io::Result<()> {
    writeln!(
        out,
        "strategy,instances,solved,unsatisfiable,limit,nodes_mean,nodes_median,nodes_max,backtracks_mean,checks_mean,time_ms_mean,time_ms_total"
    )?;
    for r in rows {
        writeln!(
            out,
            "{},{},{},{},{},{:.3},{:.1},{},{:.3},{:.3},{:.4},{:.3}",
            r.strategy,
            r.puzzles,
            r.solved,
            r.unsatisfiable,
            r.limit,
            r.nodes_mean,
            r.nodes_median,
            r.nodes_max,
            r.backtracks_mean,
            r.checks_mean,
            r.time_ms_mean,
            r.time_ms_total
        )?;
    }
    Ok(())
}
