//! `csp sudoku hint`: the next logical step for a partly filled grid, with its reason.

use std::io::Write;

use clap::{Args, ValueEnum};
use csp_core::Limits;
use csp_sudoku::{CheckedHint, HintKind, HintProblem, ParseError, PerOrder};
use serde::Serialize;

use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED, written};
use crate::input::{self, Input, InputArgs, NumberedPuzzle};
use crate::interrupt;

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
    #[arg(long, value_enum, default_value_t = HintFormat::Text, allow_negative_numbers = true)]
    format: HintFormat,
    /// Stop checking that a grid can be solved after this many seconds per grid (fractions allowed).
    #[arg(long, value_name = "SECONDS", value_parser = crate::args::parse_seconds, allow_hyphen_values = true)]
    timeout: Option<std::time::Duration>,
}

/// Why a grid gets no hint.
struct Problem {
    /// Where: `line L`, or the line and column of a mistake in the grid.
    place: String,
    /// What, without the place.
    what: String,
    /// The whole message, the place included where the error names one.
    message: String,
    /// Whether the grid is solved already (no failure).
    solved: bool,
}

/// The JSON line of a grid without a hint (fields in alphabetical order, as `serde_json`
/// writes the hint lines).
#[derive(Serialize)]
struct ProblemLine<'a> {
    error: &'a str,
    line: usize,
    status: &'static str,
}

/// Runs `csp sudoku hint`: exit 0 when every grid got a hint (or is already solved), 1
/// when a grid has a wrong entry, cannot be read, or needs a guess.
pub fn run(args: HintArgs) -> Result<u8, CliError> {
    let mut puzzles = input::puzzles(Input::open(args.input.file.as_deref())?, args.input.input)?;
    // Read as the hints are given; the first two tell whether lines need their number.
    let ahead: Vec<NumberedPuzzle> = puzzles.by_ref().take(2).collect::<Result<_, _>>()?;
    let several = ahead.len() > 1;
    let per_order = PerOrder::default();
    let limits = Limits {
        time: args.timeout,
        cancel: Some(interrupt::flag()),
        ..Limits::default()
    };
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for item in ahead.into_iter().map(Ok).chain(puzzles) {
        let (line, parsed) = &item?;
        if interrupt::requested() {
            break;
        }
        let result = match parsed {
            Ok(grid) => csp_sudoku::checked_hint_within(per_order.model(grid.order()), grid, &limits)
                .map_err(|p| Problem {
                    place: format!("line {line}"),
                    what: p.to_string(),
                    message: p.to_string(),
                    solved: p == HintProblem::Solved,
                }),
            Err(e) => {
                let wrong = if matches!(e, ParseError::Conflict { .. }) {
                    "wrong entry: "
                } else {
                    ""
                };
                let (place, what) = input::located(*line, e);
                Err(Problem {
                    place,
                    what: format!("{wrong}{what}"),
                    message: format!("{wrong}{e}"),
                    solved: false,
                })
            }
        };
        failed |= result.as_ref().is_err_and(|p| !p.solved);
        let result = write_hint(&mut out, args.format, several, *line, result);
        if !written(result, "cannot write the hint")? {
            break;
        }
    }
    Ok(if failed { EXIT_UNSOLVED } else { EXIT_OK })
}

/// Writes the hint for the grid on `line`, or why there is none (with the place when
/// the input holds `several` grids).
fn write_hint(
    out: &mut impl Write,
    format: HintFormat,
    several: bool,
    line: usize,
    result: Result<CheckedHint, Problem>,
) -> std::io::Result<()> {
    match (format, result) {
        (HintFormat::Text, Ok(h)) => {
            let note = if h.unique {
                ""
            } else {
                " (note: this grid has more than one solution)"
            };
            match h.hint.kind {
                HintKind::Placement => writeln!(
                    out,
                    "r{}c{} = {} ({}): {}{note}",
                    h.hint.row, h.hint.col, h.hint.value, h.hint.technique, h.hint.reason
                ),
                HintKind::Elimination => writeln!(out, "{}: {}{note}", h.hint.technique, h.hint.reason),
            }
        }
        (HintFormat::Text, Err(p)) if several => writeln!(out, "# {}: {}", p.place, p.what),
        (HintFormat::Text, Err(p)) => writeln!(out, "{}", p.message),
        (HintFormat::Json, Ok(h)) => {
            // A map, so that `line` takes its place among the hint's sorted fields.
            let mut value = serde_json::to_value(&h).expect("plain data serialises");
            value["line"] = serde_json::Value::from(line);
            writeln!(out, "{value}")
        }
        (HintFormat::Json, Err(p)) => {
            let record = ProblemLine {
                error: &p.message,
                line,
                status: if p.solved { "solved" } else { "error" },
            };
            writeln!(
                out,
                "{}",
                serde_json::to_string(&record).expect("plain data serialises")
            )
        }
    }
}
