//! `csp sudoku rate`: techniques needed, guessing, search effort, score and level.

use std::io::Write;
use std::time::Instant;

use clap::{Args, ValueEnum};
use csp_core::Limits;
use csp_sudoku::{Grid, Level, PerOrder, Rating, Status};
use serde::Serialize;

use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED};
use crate::input::{self, Input, InputArgs, error_note};
use crate::interrupt;
use crate::run::Batch;

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
    #[arg(long, value_enum, default_value_t = RateFormat::Line, allow_negative_numbers = true)]
    format: RateFormat,
    /// Stop searching after this many seconds per puzzle (fractions allowed).
    #[arg(long, value_name = "SECONDS", value_parser = crate::args::parse_seconds, allow_hyphen_values = true)]
    timeout: Option<std::time::Duration>,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = crate::args::parse_jobs, allow_negative_numbers = true)]
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
pub fn run(args: RateArgs) -> Result<u8, CliError> {
    let puzzles = input::puzzles(Input::open(args.input.file.as_deref())?, args.input.input)?;
    let per_order = PerOrder::default();
    let limits = Limits {
        time: args.timeout,
        cancel: Some(interrupt::flag()),
        ..Limits::default()
    };
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let (mut total, mut errors) = (0usize, 0usize);
    let mut by_level = [0usize; 4];
    Batch::new(args.jobs)?.run(
        puzzles,
        |puzzle: &Grid| {
            (
                puzzle.to_string(),
                csp_sudoku::rate_within(per_order.model(puzzle.order()), puzzle, &limits),
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
            write_rating(&mut out, args.format, line, result)
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

/// Writes the rating of the puzzle on `line`, or why it has none.
fn write_rating(
    out: &mut impl Write,
    format: RateFormat,
    line: usize,
    result: Result<(&String, &Rating), String>,
) -> std::io::Result<()> {
    match (format, result) {
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
            let techniques: Vec<String> = r.techniques.iter().map(|(t, n)| format!("{t}:{n}")).collect();
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
        (RateFormat::Line, Err(e)) => writeln!(out, "# {}", error_note(line, &e)),
    }
}
