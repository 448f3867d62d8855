//! `csp sudoku solve --method annealing|min-conflicts`: local search, which can solve
//! but cannot prove that a puzzle has no solution.

use std::io::Write;
use std::time::Instant;

use clap::ValueEnum;
use csp_sudoku::{Grid, LocalError, LocalMethod, LocalReport, LocalSettings, ParseError, Status};
use serde::Serialize;

use super::options::{SearchArgs, SolveFormat, write_text};
use crate::error::{CliError, usage};
use crate::input::{self, Input, InputArgs, error_note};
use crate::interrupt;
use crate::run::{Batch, StatusCounts};

/// How `solve` searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// Systematic backtracking search with propagation (complete: also proves "no solution").
    #[default]
    Backtracking,
    /// Simulated annealing on box permutations (the seed-001 schedule); cannot prove "no solution".
    Annealing,
    /// Min-conflicts with a random walk on the cells; cannot prove "no solution".
    MinConflicts,
}

/// The `solve` arguments that local search reads.
pub struct LocalSolve<'a> {
    /// The method (not backtracking).
    pub method: Method,
    /// `--max-steps`.
    pub max_steps: Option<u64>,
    /// Input.
    pub input: &'a InputArgs,
    /// Output format.
    pub format: SolveFormat,
    /// Model, strategy and limit flags: only `--seed`, `--timeout` and `--jobs` apply, as
    /// local search has its own formulation.
    pub search: &'a SearchArgs,
}

/// Default `--max-steps` for local search.
pub const DEFAULT_MAX_STEPS: u64 = 1_000_000;

/// One JSON line of a local-search `solve`.
#[derive(Serialize)]
struct LocalLine<'a> {
    line: usize,
    status: &'static str,
    method: &'static str,
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    stats: Option<&'a csp_sudoku::LocalSearchStats>,
}

/// Runs `solve --method annealing|min-conflicts` (or rejects `--max-steps` with backtracking).
pub fn run(args: LocalSolve<'_>) -> Result<u8, CliError> {
    let method = match args.method {
        Method::Backtracking => {
            return Err(usage(
                "--max-steps applies to --method annealing and --method min-conflicts only",
            ));
        }
        Method::Annealing => LocalMethod::Annealing,
        Method::MinConflicts => LocalMethod::MinConflicts,
    };
    let s = &args.search.strategy;
    if s.var_order.is_some() || s.value_order.is_some() || s.inference.is_some() || s.tie_break.is_some() {
        return Err(usage(format!(
            "--var, --val, --inference and --tie-break apply to backtracking, not to --method {method}"
        )));
    }
    let m = &args.search.model;
    if m.model.is_some() || m.alldiff.is_some() || m.locked.is_some() || s.probe {
        return Err(usage(format!(
            "--model, --alldiff, --locked and --probe apply to backtracking, not to --method {method}"
        )));
    }
    if s.branching.is_some() || args.search.restarts.is_some() {
        return Err(usage(format!(
            "--branching and --restarts apply to backtracking, not to --method {method}"
        )));
    }
    if args.search.limits.node_limit.is_some() {
        return Err(usage(format!(
            "--node-limit applies to backtracking; use --max-steps with --method {method}"
        )));
    }
    if args.max_steps == Some(0) {
        return Err(usage("--max-steps must be at least 1"));
    }
    let settings = LocalSettings {
        seed: s.seed.unwrap_or(0),
        max_steps: args.max_steps.unwrap_or(DEFAULT_MAX_STEPS),
        time: args.search.limits.timeout,
        cancel: Some(interrupt::flag()),
        ..LocalSettings::new(method)
    };
    let puzzles = input::puzzles(Input::open(args.input.file.as_deref())?, args.input.input)?;
    let started = Instant::now();
    let mut counts = StatusCounts::default();
    let format = args.format;
    let mut out = std::io::stdout().lock();
    Batch::new(args.search.jobs)?.run(
        puzzles,
        |puzzle: &Grid| csp_sudoku::solve_local(puzzle, &settings),
        |line, result: Result<&Result<LocalReport, LocalError>, &ParseError>| {
            let result: Result<&LocalReport, String> = match result {
                Ok(Ok(r)) => Ok(r),
                Ok(Err(e)) => Err(e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            counts.add(result.as_ref().map(|r| r.status).unwrap_or(Status::Error));
            write_local(&mut out, format, method, line, result)
        },
    )?;
    counts.report("solved", started);
    Ok(counts.exit_code(|s| s == Status::Solved))
}

fn write_local(
    out: &mut impl Write,
    format: SolveFormat,
    method: LocalMethod,
    line: usize,
    result: Result<&LocalReport, String>,
) -> std::io::Result<()> {
    match format {
        SolveFormat::Json => {
            let record = match &result {
                Ok(r) => LocalLine {
                    line,
                    status: r.status.name(),
                    method: method.name(),
                    solution: r.solution.as_ref().map(|g| g.to_string()),
                    error: (r.status != Status::Solved).then(|| limit_reason(r)),
                    stats: Some(&r.stats),
                },
                Err(e) => LocalLine {
                    line,
                    status: Status::Error.name(),
                    method: method.name(),
                    solution: None,
                    error: Some(e.clone()),
                    stats: None,
                },
            };
            writeln!(
                out,
                "{}",
                serde_json::to_string(&record).expect("plain data serialises")
            )
        }
        SolveFormat::Line | SolveFormat::Grid => match result {
            Ok(r) => write_text(
                out,
                format,
                r.solution.as_ref(),
                &format!("line {line}: limit: {}", limit_reason(r)),
            ),
            Err(e) => write_text(out, format, None, &error_note(line, &e)),
        },
    }
}

fn limit_reason(r: &LocalReport) -> String {
    let what = match r.outcome {
        csp_core::LocalOutcome::TimeLimit => "time limit",
        csp_core::LocalOutcome::Cancelled => "cancelled",
        _ => "step limit",
    };
    let left = match &r.stats {
        csp_sudoku::LocalSearchStats::Annealing(s) => format!("cost {} (best {})", s.cost, s.best_cost),
        csp_sudoku::LocalSearchStats::MinConflicts(s) => format!("{} cells in conflict", s.conflicts),
    };
    format!(
        "{what} after {} steps of {}, {left}; local search cannot prove that there is no solution",
        r.stats.steps(),
        r.method
    )
}
