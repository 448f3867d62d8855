//! What parallel search (`ParallelSolver`) asks of a solver: a search confined to a
//! subproblem, and a frontier that cuts a search into subproblems.
//!
//! - A subproblem is a path of decisions `var = value` from the root. A solver confined to
//!   it ([`Solver::confine`]) takes the path as givens: assigned at the root, never nodes,
//!   propagated with the model's givens before the first node. Its search is then the
//!   subtree below the path, and restarts, nogoods and trail replay work as on any root.
//! - A frontier ([`Solver::set_frontier`]) stops the descent at a depth: a node there is
//!   reported ([`Piece::Frontier`]) instead of searched below, and the search goes on with
//!   its next sibling. The frontier nodes and the solutions above the frontier, in the
//!   order the search meets them, partition the solutions of the subtree, so a
//!   decomposition loses and repeats none.

use super::Solver;
use super::driver::{Phase, Step};
use super::weights::LearntWeights;
use crate::stats::LimitKind;
use crate::var::VarId;

/// What one step of a search cut at a frontier met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// A node at the frontier: [`Solver::path`] leads to it.
    Frontier,
    /// A solution above the frontier ([`Solver::solution`]).
    Solution,
    /// The subtree is searched.
    Exhausted,
    /// A limit stopped the search.
    Limit(LimitKind),
}

impl Solver<'_> {
    /// Confines the search to the subtree below `path`: each variable is fixed to its value
    /// at the root, as a given. Call it before the search starts.
    pub(crate) fn confine(&mut self, path: &[(VarId, i32)]) {
        debug_assert!(!matches!(self.phase, Phase::Searching), "the search has started");
        self.confined = path.to_vec();
    }

    /// Assigns the confined path's variables at the root, as givens. Returns `false` if the
    /// path contradicts the givens or a domain.
    pub(super) fn load_confined(&mut self) -> bool {
        let path = std::mem::take(&mut self.confined);
        let holds = path.iter().all(|&(var, value)| {
            if self.state.assigned[var.index()] {
                return self.state.value[var.index()] == value;
            }
            if !self.store.contains(var, value) {
                return false;
            }
            self.store.fix(var, value);
            self.mark_assigned(var, value);
            true
        });
        self.confined = path;
        holds
    }

    /// Whether the root has variables fixed by [`Solver::confine`].
    pub(super) fn is_confined(&self) -> bool {
        !self.confined.is_empty()
    }

    /// Cuts the search at `depth` decisions below the root: see [`Piece::Frontier`].
    pub(crate) fn set_frontier(&mut self, depth: usize) {
        self.frontier = depth;
        // The compiled loop has no frontier.
        self.plan.compiled_fc = false;
    }

    /// Runs the search to its next frontier node, solution, exhaustion or limit.
    pub(crate) fn next_piece(&mut self) -> Piece {
        match self.advance() {
            // The loop reports a frontier node as a step like a solution: the assignment is
            // not complete.
            Step::Solution if self.state.num_unassigned > 0 => Piece::Frontier,
            Step::Solution => Piece::Solution,
            Step::Exhausted => Piece::Exhausted,
            Step::Limit(kind) => Piece::Limit(kind),
        }
    }

    /// The decisions from the root to the current node, in order.
    pub(crate) fn path(&self) -> Vec<(VarId, i32)> {
        self.state
            .frames
            .iter()
            .map(|frame| (frame.var, self.state.value[frame.var.index()]))
            .collect()
    }

    /// The constraint weights this search learnt from its failures (dom/wdeg), for the next
    /// subproblem of the same thread.
    pub(crate) fn learnt_weights(&self) -> LearntWeights {
        self.weights.learnt()
    }

    /// Starts from the weights another search of the same model learnt. Call it before the
    /// search starts.
    pub(crate) fn inherit_weights(&mut self, learnt: &LearntWeights) {
        debug_assert!(!matches!(self.phase, Phase::Searching), "the search has started");
        self.weights.inherit(learnt, self.orders.scopes.as_ref());
    }

    /// Replaces the node limit (`None`: none), counted in this solver's nodes, for a caller
    /// that hands out a shared budget in parts.
    pub(crate) fn set_node_limit(&mut self, nodes: Option<u64>) {
        self.config.limits.nodes = nodes;
    }
}
