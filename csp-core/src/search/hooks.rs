//! The points where backjumping and traces follow the search: after each node, at a
//! complete assignment, when a level runs out of values, and when a limit stops the
//! search. The loop tests one flag of the plan at each ([`super::plan::SearchPlan::observed`]),
//! and these calls, out of line, do the rest: a search without either pays a test.

use super::Solver;
use crate::var::VarId;

impl Solver<'_> {
    /// After the node `var = value` at `level` (`ok`: its inference held).
    #[inline(never)]
    pub(super) fn observe_node(&mut self, var: VarId, value: i32, level: usize, ok: bool) {
        self.trace_node(var, value, level, ok);
        self.backjump_after_node(var, level, ok);
    }

    /// A complete assignment; `holds`: it passed the final check.
    #[inline(never)]
    pub(super) fn observe_complete_assignment(&mut self, holds: bool) {
        self.trace_complete_assignment(holds);
        self.backjump_at_complete_assignment();
    }

    /// The top frame ran out of values: pops it, or under backjumping jumps back.
    #[inline(never)]
    pub(super) fn observe_exhausted_frame(&mut self) {
        self.trace_dead_end();
        self.close_top_frame();
    }
}
