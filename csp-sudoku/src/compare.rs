//! Comparing search strategies on a set of puzzles, as in the evaluation of the
//! seed paper (003): nodes expanded, backtracks and time per strategy.

use csp_core::{Strategy, Strength};
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
}

/// Summarises one contender's reports.
pub fn summarise(contender: &Contender, reports: &[SolveReport]) -> Summary {
    let count = |s: Status| reports.iter().filter(|r| r.status == s).count();
    let mut nodes: Vec<u64> = reports.iter().map(|r| r.stats.nodes).collect();
    nodes.sort_unstable();
    let n = reports.len().max(1) as f64;
    let sum = |f: &dyn Fn(&SolveReport) -> f64| reports.iter().map(f).sum::<f64>();
    let median = match nodes.len() {
        0 => 0.0,
        len if len % 2 == 1 => nodes[len / 2] as f64,
        len => (nodes[len / 2 - 1] + nodes[len / 2]) as f64 / 2.0,
    };
    let time_total = sum(&|r| r.stats.elapsed.as_secs_f64() * 1000.0);
    Summary {
        contender: contender.label(),
        model: contender.model.to_string(),
        strategy: contender.strategy.to_string(),
        puzzles: reports.len(),
        solved: count(Status::Solved),
        unsatisfiable: count(Status::Unsatisfiable),
        limit: count(Status::Limit),
        nodes_mean: sum(&|r| r.stats.nodes as f64) / n,
        nodes_median: median,
        nodes_max: nodes.last().copied().unwrap_or(0),
        backtracks_mean: sum(&|r| r.stats.backtracks as f64) / n,
        checks_mean: sum(&|r| r.stats.checks as f64) / n,
        time_ms_mean: time_total / n,
        time_ms_total: time_total,
    }
}
