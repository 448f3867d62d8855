//! `csp sudoku generate`, `rate`, `hint`, and the local-search methods of `solve`
//! (`--method annealing|min-conflicts`). The work lives in csp-sudoku; this module reads
//! input, checks arguments and formats results.

use std::io::Write;
use std::time::Instant;

use clap::{Args, ValueEnum};
use csp_sudoku::{
    GenerateConfig, GenerateError, Generated, Generator, Grid, HintProblem, Level, LocalError, LocalMethod,
    LocalReport, LocalSettings, ParseError, Rating, Status, Symmetry,
};
use rayon::prelude::*;
use serde::Serialize;

use crate::args::usage;
use crate::batch::{self, Batch};
use crate::sudoku::{InputArgs, Rules, SearchArgs, SolveFormat, Tally, write_text};
use crate::{CliError, EXIT_OK, EXIT_UNSOLVED};

/// How `solve` searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// Systematic backtracking search with propagation (complete: also proves "no solution").
    #[default]
    Backtracking,
    /// Simulated annealing on box permutations (seed 001); cannot prove "no solution".
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
pub fn solve_local(args: LocalSolve<'_>) -> Result<u8, CliError> {
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
        ..LocalSettings::new(method)
    };
    let puzzles = batch::puzzles(batch::Input::open(args.input.file.as_deref())?, args.input.input)?;
    let started = Instant::now();
    let mut tally = Tally::default();
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
            tally.add(result.as_ref().map(|r| r.status).unwrap_or(Status::Error));
            write_local(&mut out, format, method, line, result)
        },
    )?;
    tally.report("solved", started);
    Ok(tally.exit_code(|s| s == Status::Solved))
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
                line,
                r.solution.as_ref(),
                &format!("limit: {}", limit_reason(r)),
            ),
            Err(e) => write_text(out, format, line, None, &format!("error: {e}")),
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

/// Output formats of `generate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GenerateFormat {
    /// One puzzle per line (line format; whitespace-separated numbers past 35x35).
    Line,
    /// One JSON object per puzzle: `index`, `puzzle`, `solution`, `clues`, and with
    /// `--difficulty` the `score` and `level`.
    Json,
}

/// Arguments of `csp sudoku generate`.
#[derive(Args)]
pub struct GenerateArgs {
    /// Box side: 2 (4x4) to 6 (36x36).
    #[arg(long, default_value_t = 3, allow_hyphen_values = true, value_parser = crate::args::parse_generate_order)]
    order: usize,
    /// How many puzzles (or grids with --full).
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// Seed: the same seed gives the same output (with any --jobs).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Symmetry of the clues: none, rotational, mirror.
    #[arg(long, default_value_t = Symmetry::None)]
    symmetry: Symmetry,
    /// Stop removing clues at exactly this many (default: remove until minimal).
    #[arg(long, value_name = "C", allow_hyphen_values = true)]
    clues: Option<usize>,
    /// Keep only puzzles of this level: easy, medium, hard, expert (see `csp sudoku rate`).
    #[arg(long, value_name = "LEVEL")]
    difficulty: Option<Level>,
    /// Write complete grids only (no clues removed).
    #[arg(long)]
    full: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = GenerateFormat::Line)]
    format: GenerateFormat,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = crate::args::parse_jobs)]
    jobs: usize,
}

/// One JSON line of `generate`.
#[derive(Serialize)]
struct GeneratedLine {
    index: u64,
    puzzle: String,
    solution: String,
    clues: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<Level>,
}

/// A grid on one line: the line format, or whitespace-separated numbers past 35x35.
fn one_line(grid: &Grid) -> String {
    grid.to_line()
        .unwrap_or_else(|_| grid.to_numbers().split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Runs `csp sudoku generate`.
pub fn run_generate(args: GenerateArgs) -> Result<u8, CliError> {
    if args.full && (args.clues.is_some() || args.difficulty.is_some() || args.symmetry != Symmetry::None) {
        return Err(usage(
            "--full writes complete grids: it takes no --clues, --difficulty or --symmetry",
        ));
    }
    let config = GenerateConfig {
        symmetry: args.symmetry,
        clues: args.clues,
        difficulty: args.difficulty,
        seed: args.seed,
        ..GenerateConfig::new(args.order)
    };
    let generator = Generator::new(config).map_err(|e| usage(e.to_string()))?;
    let jobs = if args.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        args.jobs
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| CliError::Failed(format!("cannot start {jobs} worker threads: {e}")))?;
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let (mut made, mut clues) = (0u64, 0usize);
    let chunk = (8 * jobs) as u64;
    let mut first = 0u64;
    while first < args.count {
        let last = (first + chunk).min(args.count);
        let results: Vec<Result<Generated, GenerateError>> = pool.install(|| {
            (first..last)
                .into_par_iter()
                .map(|i| {
                    if args.full {
                        let grid = generator.full(i);
                        Ok(Generated {
                            puzzle: grid.clone(),
                            solution: grid,
                            rating: None,
                            grids: 1,
                        })
                    } else {
                        generator.puzzle(i)
                    }
                })
                .collect()
        });
        for (i, result) in (first..).zip(results) {
            let g = result.map_err(|e| {
                if e.is_usage() {
                    usage(e.to_string())
                } else {
                    CliError::Failed(format!("puzzle {}: {e}", i + 1))
                }
            })?;
            made += 1;
            clues += g.puzzle.givens();
            let text = match args.format {
                GenerateFormat::Line => one_line(&g.puzzle),
                GenerateFormat::Json => serde_json::to_string(&GeneratedLine {
                    index: i,
                    puzzle: one_line(&g.puzzle),
                    solution: one_line(&g.solution),
                    clues: g.puzzle.givens(),
                    score: g.rating.as_ref().map(|r| r.score),
                    level: g.rating.as_ref().map(|r| r.level),
                })
                .expect("plain data serialises"),
            };
            if let Err(source) = writeln!(out, "{text}") {
                if source.kind() == std::io::ErrorKind::BrokenPipe {
                    return Ok(EXIT_OK);
                }
                return Err(CliError::Io {
                    context: "cannot write the puzzles".to_string(),
                    source,
                });
            }
        }
        first = last;
    }
    let secs = started.elapsed().as_secs_f64();
    note!(
        "{made} {} of order {} (mean clues {:.1}) in {secs:.3} s ({:.1} per second)",
        if args.full { "grids" } else { "puzzles" },
        args.order,
        clues as f64 / made.max(1) as f64,
        made as f64 / secs.max(1e-9)
    );
    Ok(EXIT_OK)
}

/// Output formats of `rate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RateFormat {
    /// `score level hardest=.. guessing=.. nodes=.. backtracks=.. techniques=name:count,...`
    Line,
    /// One JSON object per puzzle.
    Json,
}

/// Arguments of `csp sudoku rate`.
#[derive(Args)]
pub struct RateArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RateFormat::Line)]
    format: RateFormat,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = crate::args::parse_jobs)]
    jobs: usize,
}

/// One JSON line of `rate`.
#[derive(Serialize)]
struct RateLine<'a> {
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    puzzle: Option<String>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    rating: Option<&'a Rating>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Runs `csp sudoku rate`.
pub fn run_rate(args: RateArgs) -> Result<u8, CliError> {
    let puzzles = batch::puzzles(batch::Input::open(args.input.file.as_deref())?, args.input.input)?;
    let rules = Rules::by_default();
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let (mut total, mut errors) = (0usize, 0usize);
    let mut by_level = [0usize; 4];
    Batch::new(args.jobs)?.run(
        puzzles,
        |puzzle: &Grid| {
            (
                puzzle.to_string(),
                csp_sudoku::rate_with(rules.get(puzzle.order()), puzzle),
            )
        },
        |line, result| {
            total += 1;
            let result: Result<(&String, &Rating), String> = match result {
                Ok((p, Ok(r))) => Ok((p, r)),
                Ok((_, Err(e))) => Err(e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            match &result {
                Ok((_, r)) => by_level[r.level as usize] += 1,
                Err(_) => errors += 1,
            }
            match (args.format, result) {
                (RateFormat::Json, result) => {
                    let record = match result {
                        Ok((p, r)) => RateLine {
                            line,
                            puzzle: Some(p.clone()),
                            rating: Some(r),
                            status: None,
                            error: None,
                        },
                        Err(e) => RateLine {
                            line,
                            puzzle: None,
                            rating: None,
                            status: Some(Status::Error.name()),
                            error: Some(e),
                        },
                    };
                    writeln!(
                        out,
                        "{}",
                        serde_json::to_string(&record).expect("plain data serialises")
                    )
                }
                (RateFormat::Line, Ok((_, r))) => {
                    let techniques: Vec<String> =
                        r.techniques.iter().map(|(t, n)| format!("{t}:{n}")).collect();
                    writeln!(
                        out,
                        "{:.1} {} hardest={} guessing={} nodes={} backtracks={} techniques={}",
                        r.score,
                        r.level,
                        r.hardest.map_or("-", |t| t.name()),
                        if r.guessing { "yes" } else { "no" },
                        r.nodes,
                        r.backtracks,
                        techniques.join(",")
                    )
                }
                (RateFormat::Line, Err(e)) => writeln!(out, "# line {line}: error: {e}"),
            }
        },
    )?;
    let secs = started.elapsed().as_secs_f64();
    let levels: Vec<String> = Level::ALL
        .iter()
        .map(|l| format!("{} {l}", by_level[*l as usize]))
        .collect();
    note!(
        "{total} puzzles: {}, {errors} error in {secs:.3} s",
        levels.join(", ")
    );
    Ok(if errors == 0 { EXIT_OK } else { EXIT_UNSOLVED })
}

/// Output formats of `hint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HintFormat {
    /// `r3c5 = 7 (hidden-single): reason`.
    Text,
    /// One JSON object per grid: `row`, `col` (1-based), `value`, `technique`, `reason`,
    /// `kind`, `unique`, and `eliminations` for elimination steps; or `error`.
    Json,
}

/// Arguments of `csp sudoku hint`.
#[derive(Args)]
pub struct HintArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = HintFormat::Text)]
    format: HintFormat,
}

/// Runs `csp sudoku hint`: exit 0 when every grid got a hint (or is already solved), 1
/// when a grid has a wrong entry, cannot be read, or needs a guess.
pub fn run_hint(args: HintArgs) -> Result<u8, CliError> {
    let puzzles: Vec<batch::Item> =
        batch::puzzles(batch::Input::open(args.input.file.as_deref())?, args.input.input)?
            .collect::<Result<_, _>>()?;
    let rules = Rules::by_default();
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for (line, parsed) in &puzzles {
        let result = match parsed {
            Ok(grid) => csp_sudoku::checked_hint(rules.get(grid.order()), grid).map_err(|p| {
                let ok = p == HintProblem::Solved;
                (p.to_string(), ok)
            }),
            Err(e @ ParseError::Conflict { .. }) => Err((format!("wrong entry: {e}"), false)),
            Err(e) => Err((e.to_string(), false)),
        };
        failed |= matches!(result, Err((_, false)));
        let written = match (args.format, result) {
            (HintFormat::Text, Ok(h)) => {
                let note = if h.unique {
                    ""
                } else {
                    " (note: this grid has more than one solution)"
                };
                match h.hint.kind {
                    csp_sudoku::HintKind::Placement => writeln!(
                        out,
                        "r{}c{} = {} ({}): {}{note}",
                        h.hint.row, h.hint.col, h.hint.value, h.hint.technique, h.hint.reason
                    ),
                    csp_sudoku::HintKind::Elimination => {
                        writeln!(out, "{}: {}{note}", h.hint.technique, h.hint.reason)
                    }
                }
            }
            (HintFormat::Text, Err((message, _))) => {
                if puzzles.len() > 1 {
                    writeln!(out, "# line {line}: {message}")
                } else {
                    writeln!(out, "{message}")
                }
            }
            (HintFormat::Json, Ok(h)) => {
                let mut value = serde_json::to_value(&h).expect("plain data serialises");
                value["line"] = serde_json::json!(line);
                writeln!(out, "{value}")
            }
            (HintFormat::Json, Err((message, solved))) => writeln!(
                out,
                "{}",
                serde_json::json!({
                    "line": line,
                    "status": if solved { "solved" } else { "error" },
                    "error": message,
                })
            ),
        };
        written.map_err(|source| CliError::Io {
            context: "cannot write the hint".to_string(),
            source,
        })?;
    }
    Ok(if failed { EXIT_UNSOLVED } else { EXIT_OK })
}
