//! One run of a campaign as a record: the JSON line `csp compare --format jsonl` writes
//! for each run as it ends, which `--resume` and `csp report` read back. Fields may be
//! added; readers take missing ones as their defaults.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::Path;

use csp_core::{LimitKind, Model, Outcome, SearchConfig, Solver, Stats};
use serde::{Deserialize, Serialize};

use crate::error::CliError;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunStatus {
    /// A solution was found (or, counting, every solution was counted and there is one).
    Solved,
    /// Optimising: the best solution is proved optimal.
    Optimal,
    /// Optimising: solutions were found, but a limit stopped the proof of optimality.
    Feasible,
    /// Proved to have no solution.
    Unsatisfiable,
    /// A node or time limit stopped the search first.
    Limit,
    /// The instance could not be read or its search could not start.
    Error,
}

impl RunStatus {
    /// Whether the run answered: a solution or a proof that there is none.
    pub fn answered(self) -> bool {
        matches!(
            self,
            RunStatus::Solved | RunStatus::Optimal | RunStatus::Unsatisfiable
        )
    }

    /// The status as the comparison tables count it.
    pub fn summary_status(self) -> csp_sudoku::Status {
        match self {
            RunStatus::Solved | RunStatus::Optimal => csp_sudoku::Status::Solved,
            RunStatus::Feasible => csp_sudoku::Status::Limit,
            RunStatus::Unsatisfiable => csp_sudoku::Status::Unsatisfiable,
            RunStatus::Limit => csp_sudoku::Status::Limit,
            RunStatus::Error => csp_sudoku::Status::Error,
        }
    }
}

/// What one search gave.
pub struct Ended {
    /// How it ended.
    pub status: RunStatus,
    /// The limit that stopped it, if one did.
    pub limit: Option<LimitKind>,
    /// Its statistics.
    pub stats: Stats,
}

/// Runs one search on `model`: the first solution, or every solution with `count`; the
/// optimum of a model with an objective (unless counting).
pub fn search(model: &Model, config: SearchConfig, count: bool) -> Ended {
    let mut solver = match Solver::new(model, config) {
        Ok(solver) => solver,
        Err(_) => {
            return Ended {
                status: RunStatus::Error,
                limit: None,
                stats: Stats::default(),
            };
        }
    };
    let (status, limit) = if !count && model.objective().is_some() {
        match solver.optimize() {
            Ok(o) => match (o.proved, o.best.is_some()) {
                (true, true) => (RunStatus::Optimal, None),
                (true, false) => (RunStatus::Unsatisfiable, None),
                (false, true) => (RunStatus::Feasible, o.limit),
                (false, false) => (RunStatus::Limit, o.limit),
            },
            Err(_) => (RunStatus::Error, None),
        }
    } else if count {
        let c = solver.count();
        match (c.limit, c.solutions) {
            (Some(limit), _) => (RunStatus::Limit, Some(limit)),
            (None, 0) => (RunStatus::Unsatisfiable, None),
            (None, _) => (RunStatus::Solved, None),
        }
    } else {
        match solver.solve() {
            Outcome::Solved(_) => (RunStatus::Solved, None),
            Outcome::Unsatisfiable => (RunStatus::Unsatisfiable, None),
            Outcome::Limit(limit) => (RunStatus::Limit, Some(limit)),
        }
    };
    Ended {
        status,
        limit,
        stats: solver.stats().clone(),
    }
}

/// A limit's name in records: `nodes`, `time`, `solutions` or `cancelled`.
pub fn limit_name(limit: LimitKind) -> String {
    serde_json::to_value(limit)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// One run of `csp compare`: which instance, strategy and seed, the limits it ran under,
/// how it ended and its statistics (flattened: `nodes`, `backtracks`, ..., `elapsed_ms`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunRecord {
    /// The instance file, as given on the command line.
    pub file: String,
    /// The strategy, `var/value/inference`.
    pub strategy: String,
    /// The search's seed.
    pub seed: u64,
    /// How the run ended.
    pub status: RunStatus,
    /// The limit that stopped it (`nodes`, `time`), if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
    /// The node limit it ran under.
    #[serde(default)]
    pub node_limit: u64,
    /// The time limit it ran under, in seconds.
    #[serde(default)]
    pub timeout_s: f64,
    /// Whether it counted every solution instead of finding one.
    #[serde(default)]
    pub count: bool,
    /// Why the run could not be made, for status `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The search statistics.
    #[serde(flatten)]
    pub stats: Stats,
}

/// What identifies a run in a campaign: file, strategy and seed.
pub type RunKey = (String, String, u64);

impl RunRecord {
    /// The run's key.
    pub fn key(&self) -> RunKey {
        (self.file.clone(), self.strategy.clone(), self.seed)
    }

    /// The record as one line of JSON, with its line end.
    pub fn line(&self) -> String {
        let mut line = serde_json::to_string(self).expect("plain data");
        line.push('\n');
        line
    }

    /// The run's time in seconds.
    pub fn seconds(&self) -> f64 {
        self.stats.elapsed.as_secs_f64()
    }
}

/// The records of a file of JSON lines, and the length of its complete lines: a last line
/// without its line end (a run cut off while it was written) is left out.
pub struct RecordFile {
    /// The records, in file order.
    pub records: Vec<RunRecord>,
    /// The bytes up to the end of the last complete line.
    pub complete_len: u64,
    /// Whether a cut-off last line was left out.
    pub partial: bool,
}

/// Reads a file of records; a line that is no record is an error naming its line.
pub fn read_records(path: &Path) -> Result<RecordFile, CliError> {
    let io = |source| CliError::Io {
        context: format!("cannot read {}", path.display()),
        source,
    };
    let mut reader = BufReader::new(std::fs::File::open(path).map_err(io)?);
    let mut out = RecordFile {
        records: Vec::new(),
        complete_len: 0,
        partial: false,
    };
    let mut line = String::new();
    for number in 1.. {
        line.clear();
        if reader.read_line(&mut line).map_err(io)? == 0 {
            break;
        }
        if !line.ends_with('\n') {
            out.partial = true;
            break;
        }
        out.complete_len += line.len() as u64;
        if line.trim().is_empty() {
            continue;
        }
        let record = serde_json::from_str(&line).map_err(|e| {
            CliError::Failed(format!(
                "{}, line {number}: not a run record: {e}",
                path.display()
            ))
        })?;
        out.records.push(record);
    }
    Ok(out)
}

/// Where the records of `csp compare --format jsonl` go: standard output, or the file
/// of `--resume`, appended to. Each record is written whole with one write and flushed,
/// so that a killed run leaves whole lines (and at worst one cut-off last line, which
/// [`read_records`] leaves out).
pub enum RecordSink {
    /// Standard output.
    Stdout,
    /// A file opened for appending.
    File(std::fs::File, std::path::PathBuf),
}

impl RecordSink {
    /// Opens `path` for `--resume`: reads the records it holds, cuts off a partial last
    /// line, and returns them with the sink that appends to it. A missing file is created.
    pub fn resume(path: &Path) -> Result<(RecordSink, Vec<RunRecord>), CliError> {
        let existing = if path.exists() {
            read_records(path)?
        } else {
            RecordFile {
                records: Vec::new(),
                complete_len: 0,
                partial: false,
            }
        };
        let io = |source| CliError::Io {
            context: format!("cannot write {}", path.display()),
            source,
        };
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        if existing.partial {
            note!(
                "{}: the last line was cut off (a run stopped while it was written); it is run again",
                path.display()
            );
            file.set_len(existing.complete_len).map_err(io)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok((RecordSink::File(file, path.to_path_buf()), existing.records))
    }

    /// Writes one record and flushes it.
    pub fn write(&mut self, record: &RunRecord) -> Result<bool, CliError> {
        let line = record.line();
        match self {
            RecordSink::Stdout => {
                let mut out = std::io::stdout().lock();
                crate::error::written(
                    out.write_all(line.as_bytes()).and_then(|()| out.flush()),
                    "cannot write the results",
                )
            }
            RecordSink::File(file, path) => {
                let context = format!("cannot write {}", path.display());
                crate::error::written(
                    file.write_all(line.as_bytes()).and_then(|()| file.flush()),
                    &context,
                )
            }
        }
    }
}

/// The keys of `records`.
pub fn keys(records: &[RunRecord]) -> HashSet<RunKey> {
    records.iter().map(RunRecord::key).collect()
}
