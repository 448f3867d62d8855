//! The decomposition of embarrassingly parallel search: the tree is cut level by level,
//! each subproblem split by one decision of the search's own variable and value orders,
//! until there are enough subproblems. A decision that propagation refutes is a node of
//! the decomposition and leaves no subproblem; a solution met above the cut is kept as it
//! is. The pieces stay in the order a sequential search would meet them.

use crate::config::{Backjump, SearchConfig};
use crate::model::Model;
use crate::search::{LearntWeights, Piece, Solver};
use crate::stats::{LimitKind, Stats};
use crate::var::VarId;

/// A part of the search space, as the decomposition leaves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Work {
    /// The subtree below these decisions, to search.
    Open(Vec<(VarId, i32)>),
    /// A solution the decomposition met (one value per variable).
    Solved(Vec<i32>),
}

/// What the decomposition made.
pub(super) struct Decomposition {
    /// The pieces, in the sequential search's order.
    pub(super) pieces: Vec<Work>,
    /// The decomposition's own search (its nodes are the decisions it tried).
    pub(super) stats: Stats,
    /// The limit that stopped it, if one did (`pieces` is then incomplete).
    pub(super) limit: Option<LimitKind>,
    /// The constraint weights the warm-up learnt, if one ran.
    pub(super) learnt: Option<LearntWeights>,
    /// The first solution the warm-up found, if it found one.
    pub(super) warmed_up: Option<Vec<i32>>,
}

/// The configuration that cuts the tree: the search's strategy without what would make a
/// cut depend on more than the path (restarts, backjumping), under the run's limits.
pub(super) fn splitter_config(config: &SearchConfig) -> SearchConfig {
    SearchConfig {
        restarts: None,
        backjump: Backjump::None,
        trace: None,
        live_stats: None,
        ..config.clone()
    }
}

/// Cuts the search space of `model` into at least `target` open pieces where it can (fewer
/// when the tree has fewer nodes than that at any depth).
pub(super) fn decompose(model: &Model, config: &SearchConfig, target: usize, warm_up: u64) -> Decomposition {
    let mut decomposition = Decomposition {
        pieces: vec![Work::Open(Vec::new())],
        stats: Stats::default(),
        limit: None,
        learnt: None,
        warmed_up: None,
    };
    if config.strategy.var_order.weighs_failures() && warm_up > 0 {
        run_warm_up(model, config, warm_up, &mut decomposition);
    }
    // One level a round: each round assigns at least one more variable on every open path.
    for _ in 0..=model.num_vars() {
        let open = decomposition
            .pieces
            .iter()
            .filter(|w| matches!(w, Work::Open(_)))
            .count();
        if open >= target || open == 0 {
            break;
        }
        let mut next = Vec::with_capacity(decomposition.pieces.len() * 2);
        for piece in std::mem::take(&mut decomposition.pieces) {
            let path = match piece {
                Work::Open(path) if decomposition.limit.is_none() => path,
                // What is left after a limit stays as it is.
                other => {
                    next.push(other);
                    continue;
                }
            };
            let remaining = remaining_limits(config, &decomposition.stats);
            decomposition.limit = split(
                model,
                &remaining,
                &path,
                &mut next,
                &mut decomposition.stats,
                decomposition.learnt.as_ref(),
            );
        }
        decomposition.pieces = next;
        if decomposition.limit.is_some() {
            break;
        }
    }
    decomposition
}

/// A short sequential search before the cut (`ParallelSolver::warm_up`), under an order that
/// weighs constraints by their failures (dom/wdeg): the cut and every subproblem then start
/// from the weights it learnt. Cut with the initial weights, the top of the tree is chosen
/// without what the first subtrees teach a sequential search; started from a warm-up's
/// weights, the subproblems may do better or far worse (docs/heuristics.md has both). Its
/// nodes are the decomposition's; its solutions are found again in the subproblems.
fn run_warm_up(model: &Model, config: &SearchConfig, nodes: u64, decomposition: &mut Decomposition) {
    let mut warming = config.clone();
    warming.limits.nodes = Some(config.limits.nodes.map_or(nodes, |n| n.min(nodes)));
    let mut solver = Solver::new(model, warming).expect("the configuration was checked");
    let mut first = None;
    let stopped = solver.for_each_solution(|solution| {
        first.get_or_insert_with(|| solution.to_vec());
        true
    });
    let mut own = solver.stats().clone();
    own.solutions = 0;
    decomposition.stats.accumulate(&own);
    decomposition.learnt = Some(solver.learnt_weights());
    decomposition.warmed_up = first;
    // The warm-up's own budget is no limit of the run.
    if let Some(kind) =
        stopped.filter(|&kind| kind != LimitKind::Nodes || config.limits.nodes.is_some_and(|n| n <= nodes))
    {
        decomposition.limit = Some(kind);
    }
}

/// The run's limits less what the decomposition has used: nodes, and time through the
/// solvers' own clocks (each counts from its creation).
fn remaining_limits(config: &SearchConfig, used: &Stats) -> SearchConfig {
    let mut config = config.clone();
    config.limits.nodes = config.limits.nodes.map(|n| n.saturating_sub(used.nodes));
    config.limits.time = config.limits.time.map(|t| t.saturating_sub(used.elapsed));
    config
}

/// Splits the subtree below `path` by one decision, appending its pieces to `out` in
/// order. Returns the limit that stopped it, if one did: the subtree is then appended
/// whole, so that nothing is lost.
fn split(
    model: &Model,
    config: &SearchConfig,
    path: &[(VarId, i32)],
    out: &mut Vec<Work>,
    stats: &mut Stats,
    learnt: Option<&LearntWeights>,
) -> Option<LimitKind> {
    let mut solver = Solver::new(model, config.clone()).expect("the configuration was checked");
    solver.confine(path);
    if let Some(learnt) = learnt {
        solver.inherit_weights(learnt);
    }
    solver.set_frontier(1);
    let start = out.len();
    let limit = loop {
        match solver.next_piece() {
            Piece::Frontier => {
                let mut child = path.to_vec();
                child.extend(solver.path());
                out.push(Work::Open(child));
            }
            Piece::Solution => out.push(Work::Solved(solver.solution().to_vec())),
            Piece::Exhausted => break None,
            Piece::Limit(kind) => break Some(kind),
        }
    };
    let mut own = solver.stats().clone();
    own.solutions = 0;
    own.max_depth += path.len() as u64;
    stats.accumulate(&own);
    if limit.is_some() {
        out.truncate(start);
        out.push(Work::Open(path.to_vec()));
    }
    limit
}
