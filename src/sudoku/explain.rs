//! `csp sudoku explain`: for a puzzle without a solution, a minimal set of its givens that
//! has none, printed as a grid with only those clues; for a puzzle with several, two
//! solutions that differ. The work is csp-sudoku's (`explain_givens`).

use std::io::Read;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use csp_core::Limits;
use csp_core::explain::ExplainLimits;
use csp_sudoku::{GivensExplanation, Grid, PerOrder, default_config, explain_givens, is_puzzle_line};
use serde_json::{Map, Value};

use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED, written};
use crate::interrupt;

/// Output formats of `explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExplainFormat {
    /// A `#` line, then the grid (the clues kept, or each solution).
    Grid,
    /// One JSON object per puzzle.
    Json,
}

/// Arguments of `csp sudoku explain`.
#[derive(Args)]
pub struct ExplainArgs {
    /// Puzzles, one per line (`.` `0` for blanks; a `:count` suffix is ignored), or one grid;
    /// `-` or nothing: standard input. Givens that clash (two 5s in a row) are allowed.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExplainFormat::Grid, allow_negative_numbers = true)]
    format: ExplainFormat,
    /// Seconds per puzzle for the whole explanation (fractions allowed).
    #[arg(long, value_name = "SECONDS", value_parser = crate::args::parse_seconds, allow_hyphen_values = true)]
    timeout: Option<Duration>,
    /// Nodes per solver call.
    #[arg(long, value_name = "N", value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
    node_limit: Option<u64>,
}

/// Runs `csp sudoku explain`: exit 0 when every puzzle was explained (a minimal set of
/// givens proved, or its solutions shown), 1 otherwise.
pub fn run(args: ExplainArgs) -> Result<u8, CliError> {
    let mut text = String::new();
    let read = match args.file.as_deref() {
        None => std::io::stdin().read_to_string(&mut text),
        Some(p) if p.as_os_str() == "-" => std::io::stdin().read_to_string(&mut text),
        Some(p) => std::fs::File::open(p).and_then(|mut f| f.read_to_string(&mut text)),
    };
    read.map_err(|source| CliError::Io {
        context: "cannot read the puzzles".into(),
        source,
    })?;
    let puzzles = read_puzzles(&text)?;
    let per_order = PerOrder::default();
    let mut out = std::io::stdout().lock();
    let mut code = EXIT_OK;
    for (line, grid) in puzzles {
        if interrupt::requested() {
            break;
        }
        let start = Instant::now();
        let mut config = default_config(grid.order());
        config.limits = Limits {
            nodes: args.node_limit,
            cancel: Some(interrupt::flag()),
            ..Limits::default()
        };
        let limits = ExplainLimits {
            deadline: args.timeout.and_then(|t| start.checked_add(t)),
            cancel: Some(interrupt::flag()),
        };
        config.limits.time = args.timeout;
        let report = explain_givens(per_order.model(grid.order()), &grid, &config, &limits);
        let (status, answered) = match &report.explanation {
            GivensExplanation::NoSolution { minimal, .. } => ("unsatisfiable", *minimal),
            GivensExplanation::Unique(_) => ("unique", true),
            GivensExplanation::Several(..) => ("several", true),
            GivensExplanation::Unknown(_) => ("unknown", false),
        };
        if !answered {
            code = EXIT_UNSOLVED;
        }
        let elapsed = start.elapsed().as_secs_f64();
        let lines = match args.format {
            ExplainFormat::Grid => grid_lines(line, &report.explanation, report.calls, elapsed),
            ExplainFormat::Json => {
                let mut m = Map::new();
                m.insert("line".into(), line.into());
                m.insert("status".into(), status.into());
                match &report.explanation {
                    GivensExplanation::NoSolution { clues, minimal } => {
                        m.insert("clues".into(), clues.to_string().into());
                        m.insert("givens".into(), clues.givens().into());
                        m.insert("minimal".into(), (*minimal).into());
                    }
                    GivensExplanation::Unique(s) => {
                        m.insert("solutions".into(), Value::from(vec![s.to_string()]));
                    }
                    GivensExplanation::Several(a, b) => {
                        m.insert(
                            "solutions".into(),
                            Value::from(vec![a.to_string(), b.to_string()]),
                        );
                    }
                    GivensExplanation::Unknown(_) => {}
                }
                m.insert("calls".into(), report.calls.into());
                let limit = report
                    .limit
                    .map_or(Value::Null, |k| crate::instance::record::limit_name(k).into());
                m.insert("limit".into(), limit);
                m.insert("elapsed_ms".into(), (start.elapsed().as_millis() as u64).into());
                vec![Value::Object(m).to_string()]
            }
        };
        let result = lines.iter().try_for_each(|l| {
            use std::io::Write;
            writeln!(out, "{l}")
        });
        if !written(result, "cannot write the explanation")? {
            break;
        }
    }
    Ok(code)
}

/// The puzzles of the input, unchecked (clashing givens are what is explained): one per
/// puzzle line, else the whole text as one grid.
fn read_puzzles(text: &str) -> Result<Vec<(usize, Grid)>, CliError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| is_puzzle_line(l))
        .collect();
    let parsed: Vec<Option<(usize, Grid)>> = lines
        .iter()
        .map(|&(n, l)| {
            let cells = l.split(':').next().unwrap_or(l);
            csp_sudoku::parse_puzzle_unchecked(cells).ok().map(|g| (n, g))
        })
        .collect();
    if !parsed.is_empty() && parsed.iter().all(Option::is_some) {
        return Ok(parsed.into_iter().flatten().collect());
    }
    match csp_sudoku::parse_puzzle_unchecked(text) {
        Ok(grid) => Ok(vec![(1, grid)]),
        Err(e) => Err(CliError::Failed(format!("no puzzle: {e}"))),
    }
}

/// The text of an explanation: a `#` line, then grids.
fn grid_lines(line: usize, explanation: &GivensExplanation, calls: u64, elapsed: f64) -> Vec<String> {
    let mut out = Vec::new();
    match explanation {
        GivensExplanation::NoSolution { clues, minimal } => {
            out.push(format!(
                "# line {line}: no solution; these {} givens have none either{} ({calls} solver calls, {elapsed:.3} s)",
                clues.givens(),
                if *minimal {
                    ", and each of them is needed"
                } else {
                    " (not proved minimal: a limit stopped the search)"
                }
            ));
            out.push(clues.pretty().to_string());
        }
        GivensExplanation::Unique(s) => {
            out.push(format!("# line {line}: one solution"));
            out.push(s.pretty().to_string());
        }
        GivensExplanation::Several(a, b) => {
            out.push(format!("# line {line}: several solutions; two that differ:"));
            out.push(a.pretty().to_string());
            out.push(b.pretty().to_string());
        }
        GivensExplanation::Unknown(kind) => {
            out.push(format!(
                "# line {line}: unknown: {kind} before the puzzle was decided"
            ));
        }
    }
    out
}
