//! Inference after each assignment, one file per kind: [`none`] (plain backtracking,
//! which tests values against the assigned neighbours instead), [`forward_check`] and
//! [`mac`]. This module makes the node and dispatches once per node on the kind.

pub(super) mod forward_check;
pub(super) mod mac;
pub(super) mod none;

use super::Solver;
use crate::config::Inference;
use crate::var::VarId;

impl Solver<'_> {
    /// Makes a node `var = value` and runs the inference. Returns `false` if it failed.
    // Once per node: inlined into the search loop.
    #[inline]
    pub(super) fn assign(&mut self, var: VarId, value: i32) -> bool {
        self.stats.nodes += 1;
        self.stats.max_depth = self.stats.max_depth.max(self.state.frames.len() as u64);
        let top = self.state.frames.last_mut().expect("a frame");
        top.open = true;
        let level = self.state.frames.len() - 1;
        self.note_decision(level);
        let ok = self.decide(var, value, level);
        if self.plan.observed {
            self.observe_node(var, value, level, ok);
        }
        ok
    }

    /// The decision `var = value` at `level` and its inference, without the node's
    /// bookkeeping: also how a level is replayed (`recompute.rs`). Returns `false` if it
    /// failed.
    #[inline]
    pub(super) fn decide(&mut self, var: VarId, value: i32, level: usize) -> bool {
        let removed = self.store.fix(var, value);
        self.mark_assigned(var, value);
        // Optimising: the objective's bound prunes first, so that the inference below
        // propagates from it (`branch_and_bound.rs`).
        let Some(cut) = self.prune_to_bound(level) else {
            return false;
        };
        let removed = removed + cut;
        // Under MAC, a forced assignment that removed nothing changes no domain, and `var`
        // was the lowest forced variable (the fast selections take the first).
        let unchanged = removed == 0 && self.plan.mac;
        self.state.settled = if unchanged { var.index() + 1 } else { 0 };
        // Under MAC the announcement of `var` visits its nogoods; forward checking and
        // plain backtracking visit them here, without a cascade.
        if !self.plan.mac
            && self.engine.nogoods.watching(var)
            && !self.engine.visit_nogoods(var, &mut self.store, &mut self.stats)
        {
            return false;
        }
        match self.config.strategy.inference {
            Inference::None => true,
            Inference::Fc => self.forward_check(var),
            // A variable that already had this single value was propagated when it got it.
            Inference::Mac if removed == 0 => true,
            Inference::Mac => self.maintain_arc_consistency(var),
        }
    }
}
