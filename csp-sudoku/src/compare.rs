//! Comparing search strategies on a set of puzzles, as in the evaluation of the
//! seed paper (003): nodes expanded, backtracks and time per strategy.

use csp_core::{Stats, Strategy, Strength};
use serde::Serialize;

use crate::defaults::default_strategy;
use crate::model::ModelKind;
use crate::solve::{SolveReport, Status};

/// One contender: a model and a search strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Contender {
    /// The model.
    pub model: ModelKind,
    /// The strategy.
    pub strategy: Strategy,
}

impl Contender {
    /// `model:var/value/inference`, for example `pairwise:mrv/asc/fc`.
    pub fn label(&self) -> String {
        format!("{}:{}", self.model, self.strategy)
    }
}

/// The default field: the 18 textbook strategies on the pairwise model, then the
/// default strategy on the all-different model at each strength.
pub fn default_contenders() -> Vec<Contender> {
    let textbook = Strategy::textbook().into_iter().map(|strategy| Contender {
        model: ModelKind::Pairwise,
        strategy,
    });
    let alldiff = Strength::ALL.into_iter().map(|s| Contender {
        model: ModelKind::AllDiff(s),
        strategy: default_strategy(),
    });
    textbook.chain(alldiff).collect()
}

/// Figures of one contender over a puzzle set. Node, backtrack and time figures are
/// over every puzzle, those stopped by a limit included (their figures are then lower
/// bounds), so a strategy cannot look cheap by giving up.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// `model:strategy`.
    pub contender: String,
    /// The model name.
    pub model: String,
    /// The strategy as `var/value/inference`.
    pub strategy: String,
    /// Puzzles run.
    pub puzzles: usize,
    /// Puzzles solved.
    pub solved: usize,
    /// Puzzles proved to have no solution.
    pub unsatisfiable: usize,
    /// Puzzles stopped by a limit.
    pub limit: usize,
    /// Mean nodes per puzzle.
    pub nodes_mean: f64,
    /// Median nodes per puzzle.
    pub nodes_median: f64,
    /// Most nodes on one puzzle.
    pub nodes_max: u64,
    /// Mean backtracks per puzzle.
    pub backtracks_mean: f64,
    /// Mean constraint checks per puzzle.
    pub checks_mean: f64,
    /// Mean time per puzzle, milliseconds.
    pub time_ms_mean: f64,
    /// Total time, milliseconds.
    pub time_ms_total: f64,
    /// Solutions found in all (when counting: every solution of every run).
    pub solutions: u64,
}

/// Summarises one contender's reports.
pub fn summarise(contender: &Contender, reports: &[SolveReport]) -> Summary {
    let runs: Vec<(Status, &Stats)> = reports.iter().map(|r| (r.status, &r.stats)).collect();
    summarise_runs(
        contender.label(),
        contender.model.to_string(),
        contender.strategy.to_string(),
        &runs,
    )
}

/// Summarises runs of any model (each a status and its statistics): the figures of a
/// comparison row, for Sudoku puzzles as for instances read from files.
pub fn summarise_runs(
    contender: String,
    model: String,
    strategy: String,
    runs: &[(Status, &Stats)],
) -> Summary {
    let count = |s: Status| runs.iter().filter(|r| r.0 == s).count();
    let mut nodes: Vec<u64> = runs.iter().map(|r| r.1.nodes).collect();
    nodes.sort_unstable();
    let n = runs.len().max(1) as f64;
    let sum = |f: &dyn Fn(&Stats) -> f64| runs.iter().map(|r| f(r.1)).sum::<f64>();
    let median = match nodes.len() {
        0 => 0.0,
        len if len % 2 == 1 => nodes[len / 2] as f64,
        len => (nodes[len / 2 - 1] + nodes[len / 2]) as f64 / 2.0,
    };
    let time_total = sum(&|s| s.elapsed.as_secs_f64() * 1000.0);
    Summary {
        contender,
        model,
        strategy,
        puzzles: runs.len(),
        solved: count(Status::Solved),
        unsatisfiable: count(Status::Unsatisfiable),
        limit: count(Status::Limit),
        nodes_mean: sum(&|s| s.nodes as f64) / n,
        nodes_median: median,
        nodes_max: nodes.last().copied().unwrap_or(0),
        backtracks_mean: sum(&|s| s.backtracks as f64) / n,
        checks_mean: sum(&|s| s.checks as f64) / n,
        time_ms_mean: time_total / n,
        time_ms_total: time_total,
        solutions: runs.iter().map(|r| r.1.solutions).sum(),
    }
}
