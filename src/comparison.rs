//! The outputs of both `compare` commands (Sudoku puzzles and instances from files): the
//! table and the CSV of the rows (the SVG chart is in `chart.rs`); and the rule both apply
//! to a field that a flag cannot run in full ([`fitting`]).

use std::io::Write;

use clap::ValueEnum;
use csp_sudoku::Summary;

use crate::error::{CliError, usage};

/// What a flag needs of a field's entries, in the words of its messages.
pub struct Needs<'a> {
    /// The flag, as given (`--backjump cbj`).
    pub flag: &'a str,
    /// The inference it needs (`none or fc`).
    pub needs: &'a str,
    /// What an entry it cannot run has (`has mac`, after its name).
    pub has: &'a str,
    /// The entries it cannot run, in the plural (`contenders under mac`).
    pub which: &'a str,
}

/// The field without the entries `misfit` says the flag cannot run: when the field was given
/// (`chosen`), the first of them is a usage error; otherwise they are left out, with a note.
/// `name` names an entry in messages.
pub fn fitting<T>(
    mut field: Vec<T>,
    chosen: bool,
    misfit: impl Fn(&T) -> bool,
    name: impl Fn(&T) -> String,
    rule: Needs<'_>,
) -> Result<Vec<T>, CliError> {
    let Needs {
        flag,
        needs,
        has,
        which,
    } = rule;
    if let Some(entry) = field.iter().find(|e| misfit(e)).filter(|_| chosen) {
        return Err(usage(format!(
            "{flag} needs inference {needs} ({} {has})",
            name(entry)
        )));
    }
    let before = field.len();
    field.retain(|e| !misfit(e));
    if field.len() < before {
        note!(
            "{flag}: the {} {which} are left out (it needs {needs})",
            before - field.len()
        );
    }
    Ok(field)
}

/// Output formats of both `compare` commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    /// An aligned text table.
    Table,
    /// Comma-separated values with a header line.
    Csv,
    /// One JSON array of summaries.
    Json,
    /// JSON lines: one summary per line for `csp sudoku compare`; one record per run, as
    /// it ends, for `csp compare`.
    Jsonl,
}

/// Writes the rows in `format`, all at once.
pub fn write_rows(
    out: &mut impl Write,
    format: CompareFormat,
    rows: &[Summary],
    labels: Labels,
) -> std::io::Result<()> {
    let names = rows.iter().map(|r| r.contender.as_str());
    let mut writer = RowWriter::start(out, format, labels, names)?;
    for row in rows {
        writer.row(row)?;
    }
    writer.finish()
}

/// Writes a comparison's rows one by one as they are ready, each flushed: a long
/// comparison shows its results as they come, and a reader that goes away (`| head`)
/// ends it at the next row.
pub struct RowWriter<W: Write> {
    out: W,
    format: CompareFormat,
    labels: Labels,
    /// The table's first column: as wide as the widest contender's name.
    width: usize,
    rows: usize,
}

impl<W: Write> RowWriter<W> {
    /// Writes the header (table and CSV) or the array's start (JSON). `names` are the
    /// contenders' names, for the table's first column.
    pub fn start<'a>(
        mut out: W,
        format: CompareFormat,
        labels: Labels,
        names: impl Iterator<Item = &'a str>,
    ) -> std::io::Result<Self> {
        let width = names.map(str::len).max().unwrap_or(8).max(8);
        match format {
            CompareFormat::Table => table_header(&mut out, width, labels)?,
            CompareFormat::Csv => csv_header(&mut out, labels)?,
            CompareFormat::Json => write!(out, "[")?,
            CompareFormat::Jsonl => {}
        }
        out.flush()?;
        Ok(RowWriter {
            out,
            format,
            labels,
            width,
            rows: 0,
        })
    }

    /// Writes one row and flushes it.
    pub fn row(&mut self, r: &Summary) -> std::io::Result<()> {
        match self.format {
            CompareFormat::Table => table_row(&mut self.out, self.width, self.labels, r)?,
            CompareFormat::Csv => csv_row(&mut self.out, self.labels, r)?,
            CompareFormat::Json => {
                // The layout of `serde_json::to_string_pretty` on the whole array.
                let separator = if self.rows == 0 { "\n" } else { ",\n" };
                let pretty = serde_json::to_string_pretty(&labelled(r, self.labels)).expect("plain data");
                write!(self.out, "{separator}  {}", pretty.replace('\n', "\n  "))?;
            }
            CompareFormat::Jsonl => writeln!(
                self.out,
                "{}",
                serde_json::to_string(&labelled(r, self.labels)).expect("plain data")
            )?,
        }
        self.rows += 1;
        self.out.flush()
    }

    /// Ends the output (the JSON array's end).
    pub fn finish(mut self) -> std::io::Result<()> {
        if self.format == CompareFormat::Json {
            let end = if self.rows == 0 { "]" } else { "\n]" };
            writeln!(self.out, "{end}")?;
        }
        self.out.flush()
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

/// A row as JSON, with the words of what is compared: the runs are `puzzles` or
/// `instances`, and a comparison without models has no `model` field.
fn labelled(r: &Summary, labels: Labels) -> serde_json::Value {
    let mut v = serde_json::to_value(r).expect("plain data");
    if let Some(m) = v.as_object_mut() {
        if !labels.model_column {
            m.remove("model");
        }
        if let Some(runs) = m.remove("puzzles") {
            m.insert(labels.runs.to_string(), runs);
        }
    }
    v
}

/// The error of writing the chart to `path`.
pub fn svg_error(path: &std::path::Path, source: std::io::Error) -> CliError {
    CliError::Io {
        context: format!("cannot write {}", path.display()),
        source,
    }
}

/// The table's header line.
fn table_header(out: &mut impl Write, width: usize, labels: Labels) -> std::io::Result<()> {
    let answered = labels.answered;
    let a = answered.len() + 1;
    writeln!(
        out,
        "{:<width$} {answered:>a$} {:>7} {:>12} {:>10} {:>10} {:>12} {:>10} {:>10}",
        "strategy", "limit", "nodes mean", "median", "max", "backtracks", "ms mean", "ms total"
    )
}

/// One contender's line of the table.
fn table_row(out: &mut impl Write, width: usize, labels: Labels, r: &Summary) -> std::io::Result<()> {
    let a = labels.answered.len() + 1;
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
    )
}

/// The CSV's header line.
fn csv_header(out: &mut impl Write, labels: Labels) -> std::io::Result<()> {
    let model = if labels.model_column { "model," } else { "" };
    writeln!(
        out,
        "{model}strategy,{},solved,unsatisfiable,limit,nodes_mean,nodes_median,nodes_max,backtracks_mean,checks_mean,time_ms_mean,time_ms_total",
        labels.runs
    )
}

/// One contender's CSV line.
fn csv_row(out: &mut impl Write, labels: Labels, r: &Summary) -> std::io::Result<()> {
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
    )
}
