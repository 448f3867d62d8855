//! Forced runs: under MAC the store is at a fixpoint after each node, so assigning a
//! variable left with one value changes no domain and needs no propagation. Such
//! variables are assigned in a tight loop, one node each, exactly as the general loop
//! would (the same variables, counts and limit checks), without its dispatch per node.

use super::Solver;
use super::frame::{Choice, Frame};
use super::var_order::mrv::first_forced;
use crate::var::VarId;

impl Solver<'_> {
    /// Assigns forced variables (one value left), the first forced one each time, as the
    /// selection takes it. Stops where the general loop would do anything else: no
    /// forced variable left, or a limit reached (the general loop then reports it).
    pub(super) fn assign_forced_run(&mut self) {
        while self.state.num_unassigned > 0 {
            let Some(index) = first_forced(&self.state, self.store.sizes()) else {
                return;
            };
            let var = VarId(index as u32);
            let Some(value) = self.store.min(var) else {
                return;
            };
            if self.limit_reached().is_some() {
                return;
            }
            self.state.frames.push(Frame {
                var,
                mark: self.store.mark(),
                open: true,
                choice: Choice::Forced,
            });
            self.stats.nodes += 1;
            self.stats.max_depth = self.stats.max_depth.max(self.state.frames.len() as u64);
            // Under the bound of the decision before it: for a replay.
            self.note_decision(self.state.frames.len() - 1);
            self.mark_assigned(var, value);
            self.state.settled = index + 1;
        }
    }
}
