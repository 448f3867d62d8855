//! `csp sudoku solve` by backtracking search; `--method` hands over to local search.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use csp_core::Stats;
use csp_sudoku::{Grid, ParseError, SolveReport, Status};
use serde::Serialize;

use super::local::{self, LocalSolve, Method};
use super::options::{SearchArgs, SolveFormat, write_text};
use crate::error::CliError;
use crate::input::{self, Input, InputArgs, error_note};
use crate::run::{self, Batch, StatusCounts};

/// Arguments of `csp sudoku solve`.
#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SolveFormat::Line, allow_negative_numbers = true)]
    format: SolveFormat,
    #[command(flatten)]
    search: SearchArgs,
    /// Search method: backtracking (complete), annealing or min-conflicts (local search).
    #[arg(long, value_enum, default_value_t = Method::Backtracking, allow_negative_numbers = true)]
    method: Method,
    /// Step limit per puzzle for annealing and min-conflicts. Default: 1000000.
    #[arg(long, value_name = "K", value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
    max_steps: Option<u64>,
}

/// One JSON line of `solve`.
#[derive(Serialize)]
struct SolveLine<'a> {
    line: usize,
    status: &'static str,
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(flatten)]
    stats: &'a Stats,
}

/// Runs `csp sudoku solve`.
pub fn run(args: SolveArgs) -> Result<u8, CliError> {
    if args.method != Method::Backtracking || args.max_steps.is_some() {
        return local::run(LocalSolve {
            method: args.method,
            max_steps: args.max_steps,
            input: &args.input,
            format: args.format,
            search: &args.search,
        });
    }
    let per_order = args.search.per_order()?;
    let puzzles = input::puzzles(Input::open(args.input.file.as_deref())?, args.input.input)?;
    let started = Instant::now();
    let mut counts = StatusCounts::default();
    let format = args.format;
    let mut out = run::results_output();
    let parallelism = args.search.parallel.parallelism();
    Batch::new(args.search.jobs)?.run(
        puzzles,
        |puzzle: &Grid| {
            let order = puzzle.order();
            csp_sudoku::solve_with(
                per_order.model(order),
                puzzle,
                per_order.config(order),
                parallelism,
            )
        },
        |line, result: Result<&SolveReport, &ParseError>| {
            counts.add(result.map_or(Status::Error, |r| r.status));
            write_solve(&mut out, format, line, result)
        },
    )?;
    run::finish_output(out)?;
    counts.report("solved", started);
    Ok(counts.exit_code(|s| s == Status::Solved))
}

fn write_solve(
    out: &mut impl Write,
    format: SolveFormat,
    line: usize,
    result: Result<&SolveReport, &ParseError>,
) -> std::io::Result<()> {
    match format {
        SolveFormat::Json => {
            let empty = Stats::default();
            let record = match result {
                Ok(r) => SolveLine {
                    line,
                    status: r.status.name(),
                    solution: r.solution.as_ref().map(|g| g.to_string()),
                    error: r.limit.map(|l| l.to_string()),
                    stats: &r.stats,
                },
                Err(e) => SolveLine {
                    line,
                    status: Status::Error.name(),
                    solution: None,
                    error: Some(e.to_string()),
                    stats: &empty,
                },
            };
            writeln!(
                out,
                "{}",
                serde_json::to_string(&record).expect("plain data serialises")
            )
        }
        SolveFormat::Line | SolveFormat::Grid => match result {
            Ok(r) => {
                let why = match r.limit {
                    Some(limit) => format!("line {line}: limit: {limit} after {} nodes", r.stats.nodes),
                    None => format!("line {line}: unsatisfiable: the puzzle has no solution"),
                };
                write_text(out, format, r.solution.as_ref(), &why)
            }
            Err(e) => write_text(out, format, None, &error_note(line, e)),
        },
    }
}
