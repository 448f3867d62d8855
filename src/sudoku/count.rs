//! `csp sudoku count`: the solutions of every puzzle, up to a cap.

use std::io::Write;
use std::time::Instant;

use clap::{Args, ValueEnum};
use csp_sudoku::{CountReport, Grid, ParseError, Status};
use serde::Serialize;

use super::options::SearchArgs;
use crate::error::{CliError, usage};
use crate::input::{self, Input, InputArgs, error_note};
use crate::run::{self, Batch, StatusCounts};

/// Output formats of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum CountFormat {
    /// One number per puzzle.
    Line,
    /// One JSON object per line.
    Json,
}

/// Arguments of `csp sudoku count`.
#[derive(Args)]
pub struct CountArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Stop counting at this many solutions (2 checks uniqueness). Default: count all, which
    /// never ends on nearly empty 9x9 grids (the empty one has about 6.7e21 solutions).
    #[arg(long, value_name = "K", value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
    limit: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CountFormat::Line, allow_negative_numbers = true)]
    format: CountFormat,
    #[command(flatten)]
    search: SearchArgs,
}

/// One JSON line of `count`.
#[derive(Serialize)]
struct CountLine {
    line: usize,
    status: &'static str,
    solutions: Option<u64>,
    nodes: u64,
    backtracks: u64,
    /// Restarts made (with `--restarts`).
    #[serde(skip_serializing_if = "is_zero")]
    restarts: u64,
    /// Decisions on the places of a value (with branching on places).
    #[serde(skip_serializing_if = "is_zero")]
    place_decisions: u64,
    /// Backjumps, and the levels they went over (with `--backjump`).
    #[serde(skip_serializing_if = "is_zero")]
    backjumps: u64,
    #[serde(skip_serializing_if = "is_zero")]
    levels_skipped: u64,
    elapsed_ms: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Runs `csp sudoku count`.
pub fn run(args: CountArgs) -> Result<u8, CliError> {
    if args.limit == Some(0) {
        return Err(usage("--limit must be at least 1"));
    }
    let per_order = args.search.per_order()?;
    let mut input = Input::open(args.input.file.as_deref())?;
    let stated = input.keep_stated_counts();
    let puzzles = input::puzzles(input, args.input.input)?;
    let started = Instant::now();
    let mut counts = StatusCounts::default();
    let format = args.format;
    let cap = args.limit;
    let mut out = run::results_output();
    let parallelism = args.search.parallel.parallelism();
    Batch::new(args.search.jobs)?.run(
        puzzles,
        |puzzle: &Grid| {
            let order = puzzle.order();
            csp_sudoku::count_with(
                per_order.model(order),
                puzzle,
                per_order.config(order),
                cap,
                parallelism,
            )
        },
        |line, result: Result<&CountReport, &ParseError>| {
            counts.add(result.map_or(Status::Error, |r| r.status));
            let said = stated.lock().unwrap_or_else(|e| e.into_inner()).remove(&line);
            if let (Some(said), Ok(report)) = (said, result) {
                check_stated(line, said, report, cap);
            }
            write_count(&mut out, format, line, result)
        },
    )?;
    run::finish_output(out)?;
    counts.report("counted", started);
    Ok(counts.exit_code(|s| s != Status::Limit))
}

/// Warns when the count a line states after its puzzle disagrees with the one found: a
/// count that ended (not stopped by a limit) must equal it, or, at the cap, not be below it.
fn check_stated(line: usize, said: u64, report: &CountReport, cap: Option<u64>) {
    if report.status == Status::Limit {
        return;
    }
    let capped = cap.is_some_and(|cap| report.solutions >= cap);
    let agrees = if capped {
        said >= report.solutions
    } else {
        said == report.solutions
    };
    if !agrees {
        let found = if capped { "at least" } else { "exactly" };
        note!(
            "# line {line}: warning: the line says {said} solutions; the puzzle has {found} {}",
            report.solutions
        );
    }
}

fn write_count(
    out: &mut impl Write,
    format: CountFormat,
    line: usize,
    result: Result<&CountReport, &ParseError>,
) -> std::io::Result<()> {
    match format {
        CountFormat::Json => {
            let record = match result {
                Ok(r) => CountLine {
                    line,
                    status: r.status.name(),
                    solutions: Some(r.solutions),
                    nodes: r.stats.nodes,
                    backtracks: r.stats.backtracks,
                    restarts: r.stats.restarts,
                    place_decisions: r.stats.place_decisions,
                    backjumps: r.stats.backjumps,
                    levels_skipped: r.stats.levels_skipped,
                    elapsed_ms: r.stats.elapsed.as_secs_f64() * 1000.0,
                    error: r.limit.map(|l| l.to_string()),
                },
                Err(e) => CountLine {
                    line,
                    status: Status::Error.name(),
                    solutions: None,
                    nodes: 0,
                    backtracks: 0,
                    restarts: 0,
                    place_decisions: 0,
                    backjumps: 0,
                    levels_skipped: 0,
                    elapsed_ms: 0.0,
                    error: Some(e.to_string()),
                },
            };
            writeln!(
                out,
                "{}",
                serde_json::to_string(&record).expect("plain data serialises")
            )
        }
        CountFormat::Line => match result {
            Ok(r) if r.status == Status::Limit => writeln!(
                out,
                "# line {line}: limit: {} after {} solutions",
                r.limit.map_or_else(String::new, |l| l.to_string()),
                r.solutions
            ),
            Ok(r) => writeln!(out, "{}", r.solutions),
            Err(e) => writeln!(out, "# {}", error_note(line, e)),
        },
    }
}
