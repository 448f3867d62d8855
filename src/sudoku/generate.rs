//! `csp sudoku generate`: puzzles with a unique solution, or complete grids.

use std::io::Write;
use std::time::Instant;

use clap::{Args, ValueEnum};
use csp_core::LimitKind;
use csp_sudoku::{GenerateConfig, GenerateError, Generated, Generator, Level, Symmetry};
use rayon::prelude::*;
use serde::Serialize;

use crate::error::{CliError, EXIT_OK, usage, written};
use crate::interrupt;
use crate::run;

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
    #[arg(long, default_value_t = 1, value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
    count: u64,
    /// Seed: the same seed gives the same output (with any --jobs).
    #[arg(long, default_value_t = 0, value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
    seed: u64,
    /// Symmetry of the clues: none, rotational, mirror.
    #[arg(long, default_value_t = Symmetry::None, allow_negative_numbers = true)]
    symmetry: Symmetry,
    /// Stop removing clues at exactly this many (default: remove until minimal).
    #[arg(long, value_name = "C", value_parser = crate::args::parse_count, allow_hyphen_values = true)]
    clues: Option<usize>,
    /// Keep only puzzles of this level: easy, medium, hard, expert (see `csp sudoku rate`).
    #[arg(long, value_name = "LEVEL", allow_negative_numbers = true)]
    difficulty: Option<Level>,
    /// Write complete grids only (no clues removed).
    #[arg(long)]
    full: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = GenerateFormat::Line, allow_negative_numbers = true)]
    format: GenerateFormat,
    /// Give up on a puzzle (or grid) after this many seconds (fractions allowed).
    #[arg(long, value_name = "SECONDS", value_parser = crate::args::parse_seconds, allow_hyphen_values = true)]
    timeout: Option<std::time::Duration>,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = crate::args::parse_jobs, allow_negative_numbers = true)]
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

/// The generator the flags ask for, or a usage error.
fn generator(args: &GenerateArgs) -> Result<Generator, CliError> {
    if args.full && (args.clues.is_some() || args.difficulty.is_some() || args.symmetry != Symmetry::None) {
        return Err(usage(
            "--full writes complete grids: it takes no --clues, --difficulty or --symmetry",
        ));
    }
    if args.count == 0 {
        return Err(usage("--count must be at least 1"));
    }
    let config = GenerateConfig {
        symmetry: args.symmetry,
        clues: args.clues,
        difficulty: args.difficulty,
        seed: args.seed,
        time: args.timeout,
        cancel: Some(interrupt::flag()),
        ..GenerateConfig::new(args.order)
    };
    Generator::new(config).map_err(|e| usage(e.to_string()))
}

/// Puzzle (or with `full`, complete grid) number `index`.
fn make(generator: &Generator, full: bool, index: u64) -> Result<Generated, GenerateError> {
    if !full {
        return generator.puzzle(index);
    }
    let grid = generator.full_within(index)?;
    Ok(Generated {
        puzzle: grid.clone(),
        solution: grid,
        rating: None,
        grids: 1,
    })
}

/// The output line of puzzle number `index`.
fn output_line(format: GenerateFormat, index: u64, made: &Generated) -> String {
    match format {
        GenerateFormat::Line => made.puzzle.to_string(),
        GenerateFormat::Json => serde_json::to_string(&GeneratedLine {
            index,
            puzzle: made.puzzle.to_string(),
            solution: made.solution.to_string(),
            clues: made.puzzle.givens(),
            score: made.rating.as_ref().map(|r| r.score),
            level: made.rating.as_ref().map(|r| r.level),
        })
        .expect("plain data serialises"),
    }
}

/// The failure of puzzle number `index`.
fn failure(index: u64, error: GenerateError) -> CliError {
    match error {
        e if e.is_usage() => usage(e.to_string()),
        GenerateError::Limit(LimitKind::Time) => {
            CliError::Failed(format!("puzzle {}: not made within --timeout", index + 1))
        }
        e => CliError::Failed(format!("puzzle {}: {e}", index + 1)),
    }
}

/// Runs `csp sudoku generate`.
pub fn run(args: GenerateArgs) -> Result<u8, CliError> {
    let generator = generator(&args)?;
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
    let progress = run::steady_progress(args.count, if args.full { "grids" } else { "puzzles" });
    while first < args.count && !interrupt::requested() {
        let last = (first + chunk).min(args.count);
        let results: Vec<Result<Generated, GenerateError>> = pool.install(|| {
            (first..last)
                .into_par_iter()
                .map(|i| make(&generator, args.full, i))
                .collect()
        });
        for (i, result) in (first..).zip(results) {
            let g = match result {
                Ok(g) => g,
                // A signal: what was made is written, and the summary says how much.
                Err(GenerateError::Limit(LimitKind::Cancelled)) => break,
                Err(e) => {
                    progress.finish_and_clear();
                    return Err(failure(i, e));
                }
            };
            progress.inc(1);
            made += 1;
            clues += g.puzzle.givens();
            let text = output_line(args.format, i, &g);
            if !written(writeln!(out, "{text}"), "cannot write the puzzles")? {
                return Ok(EXIT_OK);
            }
        }
        first = last;
    }
    progress.finish_and_clear();
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
