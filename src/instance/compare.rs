//! `csp compare FILE...`: every chosen strategy on every instance, as a table, CSV, JSON or
//! an SVG chart (as `csp sudoku compare` does over puzzles).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use csp_core::{Limits, Outcome, SearchConfig, Solver, Stats, Strategy};
use csp_sudoku::{Status, Summary, summarise_runs};

use super::{InstanceArgs, Loaded, load};
use crate::args::{parse_restarts, parse_seconds};
use crate::comparison::{CompareFormat, Labels, svg_error, write_rows};
use crate::error::usage;
use crate::error::{CliError, EXIT_OK};

/// Arguments of `csp compare`.
#[derive(Args)]
pub struct CompareArgs {
    /// Instance files: XCSP3 (`.xml`, `.xml.xz`, `.xml.lzma`) or DIMACS (`.col`, with --colors).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Strategies, comma separated `var/value/inference`, or `textbook` for all 18.
    /// Default: the 18 textbook strategies, dom-wdeg/asc/mac and dom-wdeg-fixed/asc/mac.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "STRATEGIES",
        allow_negative_numbers = true
    )]
    strategies: Vec<String>,
    /// Count every solution instead of finding the first.
    #[arg(long)]
    count: bool,
    /// Restarts for every strategy (see `csp solve --help`). Default: none.
    #[arg(long, value_name = "POLICY", allow_negative_numbers = true)]
    restarts: Option<String>,
    /// Node limit per instance and strategy, so that hopeless combinations end.
    #[arg(long, default_value_t = 100_000, value_name = "N", value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
    node_limit: u64,
    /// Time limit per instance and strategy, in seconds.
    #[arg(long, default_value = "5", value_parser = parse_seconds, allow_hyphen_values = true, value_name = "SECONDS")]
    timeout: Duration,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Table, allow_negative_numbers = true)]
    format: CompareFormat,
    /// Also draw the comparison as an SVG chart into this file.
    #[arg(long, value_name = "FILE", allow_negative_numbers = true)]
    svg: Option<PathBuf>,
    #[command(flatten)]
    instance: InstanceArgs,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = crate::args::parse_jobs, allow_negative_numbers = true)]
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

/// One run: how it ended and its statistics.
#[derive(Clone)]
struct Run {
    status: Status,
    stats: Stats,
}

fn run_one(loaded: &Loaded, config: &SearchConfig, count: bool) -> Run {
    let Ok(mut solver) = Solver::new(loaded.model(), config.clone()) else {
        return Run {
            status: Status::Limit,
            stats: Stats::default(),
        };
    };
    let status = if count {
        let c = solver.count();
        match (c.limit, c.solutions) {
            (Some(_), _) => Status::Limit,
            (None, 0) => Status::Unsatisfiable,
            (None, _) => Status::Solved,
        }
    } else {
        match solver.solve() {
            Outcome::Solved(_) => Status::Solved,
            Outcome::Unsatisfiable => Status::Unsatisfiable,
            Outcome::Limit(_) => Status::Limit,
        }
    };
    Run {
        status,
        stats: solver.stats().clone(),
    }
}

fn summarise(strategy: &Strategy, runs: &[Run]) -> Summary {
    let runs: Vec<(Status, &Stats)> = runs.iter().map(|r| (r.status, &r.stats)).collect();
    summarise_runs(
        strategy.to_string(),
        "instance".into(),
        strategy.to_string(),
        &runs,
    )
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
                            // SIGINT and SIGTERM stop the runs in progress as at a limit;
                            // the rest then stop at once.
                            cancel: Some(super::cancel_flag()),
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
    let written = write_rows(&mut out, args.format, &summaries, LABELS);
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

/// Instances, whose model is the file's.
const LABELS: Labels = Labels {
    answered: "answered",
    runs: "instances",
    model_column: false,
};
