//! The outputs of both `compare` commands (Sudoku puzzles and instances from files): the
//! table and the CSV of the rows; the SVG chart is in `chart.rs`.

use std::io::Write;

use clap::ValueEnum;
use csp_sudoku::Summary;

use crate::error::CliError;

/// Output formats of both `compare` commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    /// An aligned text table.
    Table,
    /// Comma-separated values with a header line.
    Csv,
    /// One JSON array of summaries.
    Json,
}

/// Writes the rows in `format`.
pub fn write_rows(
    out: &mut impl Write,
    format: CompareFormat,
    rows: &[Summary],
    labels: Labels,
) -> std::io::Result<()> {
    match format {
        CompareFormat::Table => write_table(out, rows, labels),
        CompareFormat::Csv => write_csv(out, rows, labels),
        CompareFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(rows).expect("plain data")),
    }
}

/// What the rows count, as the table and the CSV name it.
#[derive(Clone, Copy)]
pub struct Labels {
    /// The table's column of answered runs ("solved", "answered").
    pub answered: &'static str,
    /// The CSV's column of runs ("puzzles", "instances").
    pub runs: &'static str,
    /// Whether the CSV starts with the model column.
    pub model_column: bool,
}

/// The error of writing the chart to `path`.
pub fn svg_error(path: &std::path::Path, source: std::io::Error) -> CliError {
    CliError::Io {
        context: format!("cannot write {}", path.display()),
        source,
    }
}

/// One row per contender, aligned.
fn write_table(out: &mut impl Write, rows: &[Summary], labels: Labels) -> std::io::Result<()> {
    let width = rows.iter().map(|r| r.contender.len()).max().unwrap_or(8).max(8);
    let answered = labels.answered;
    let a = answered.len() + 1;
    writeln!(
        out,
        "{:<width$} {answered:>a$} {:>7} {:>12} {:>10} {:>10} {:>12} {:>10} {:>10}",
        "strategy", "limit", "nodes mean", "median", "max", "backtracks", "ms mean", "ms total"
    )?;
    for r in rows {
        writeln!(
            out,
            "{:<width$} {:>a$} {:>7} {:>12.1} {:>10.1} {:>10} {:>12.1} {:>10.3} {:>10.1}",
            r.contender,
            format!("{}/{}", r.solved + r.unsatisfiable, r.puzzles),
            r.limit,
            r.nodes_mean,
            r.nodes_median,
            r.nodes_max,
            r.backtracks_mean,
            r.time_ms_mean,
            r.time_ms_total
        )?;
    }
    Ok(())
}

/// One CSV line per contender.
fn write_csv(out: &mut impl Write, rows: &[Summary], labels: Labels) -> std::io::Result<()> {
    let model = if labels.model_column { "model," } else { "" };
    writeln!(
        out,
        "{model}strategy,{},solved,unsatisfiable,limit,nodes_mean,nodes_median,nodes_max,backtracks_mean,checks_mean,time_ms_mean,time_ms_total",
        labels.runs
    )?;
    for r in rows {
        if labels.model_column {
            write!(out, "{},", r.model)?;
        }
        writeln!(
            out,
            "{},{},{},{},{},{:.3},{:.1},{},{:.3},{:.3},{:.4},{:.3}",
            r.strategy,
            r.puzzles,
            r.solved,
            r.unsatisfiable,
            r.limit,
            r.nodes_mean,
            r.nodes_median,
            r.nodes_max,
            r.backtracks_mean,
            r.checks_mean,
            r.time_ms_mean,
            r.time_ms_total
        )?;
    }
    Ok(())
}
