//! `csp sudoku hint`: the next logical step for a partly filled grid, with its reason.

use std::io::Write;

use clap::{Args, ValueEnum};
use csp_core::Limits;
use csp_sudoku::{HintProblem, ParseError, PerOrder};

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
    #[arg(long, value_enum, default_value_t = HintFormat::Text)]
    format: HintFormat,
    /// Stop checking that a grid can be solved after this many seconds per grid (fractions allowed).
    #[arg(long, value_name = "SECONDS", value_parser = crate::args::parse_seconds, allow_hyphen_values = true)]
    timeout: Option<std::time::Duration>,
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
        // Errors: (where, what, the whole message, whether the grid is solved).
        let result = match parsed {
            Ok(grid) => csp_sudoku::checked_hint_within(per_order.model(grid.order()), grid, &limits)
                .map_err(|p| {
                    let solved = p == HintProblem::Solved;
                    (format!("line {line}"), p.to_string(), p.to_string(), solved)
                }),
            Err(e) => {
                let wrong = if matches!(e, ParseError::Conflict { .. }) {
                    "wrong entry: "
                } else {
                    ""
                };
                let (place, what) = input::located(*line, e);
                Err((place, format!("{wrong}{what}"), format!("{wrong}{e}"), false))
            }
        };
        failed |= matches!(result, Err((_, _, _, false)));
        let result_written = match (args.format, result) {
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
            (HintFormat::Text, Err((place, what, message, _))) => {
                if several {
                    writeln!(out, "# {place}: {what}")
                } else {
                    writeln!(out, "{message}")
                }
            }
            (HintFormat::Json, Ok(h)) => {
                let mut value = serde_json::to_value(&h).expect("plain data serialises");
                value["line"] = serde_json::json!(line);
                writeln!(out, "{value}")
            }
            (HintFormat::Json, Err((_, _, message, solved))) => writeln!(
                out,
                "{}",
                serde_json::json!({
                    "line": line,
                    "status": if solved { "solved" } else { "error" },
                    "error": message,
                })
            ),
        };
        if !written(result_written, "cannot write the hint")? {
            break;
        }
    }
    Ok(if failed { EXIT_UNSOLVED } else { EXIT_OK })
}
