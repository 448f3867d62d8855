//! Maintained arc consistency: after `var = value`, AC-3 from the arcs into `var`,
//! interleaved with the n-ary propagators, to a fixpoint (the propagation engine's
//! loop), then failed-value probing if configured.

use crate::search::Solver;
use crate::var::VarId;

impl Solver<'_> {
    /// Propagates the change of the just assigned `var` to a fixpoint.
    pub(in crate::search) fn maintain_arc_consistency(&mut self, var: VarId) -> bool {
        self.engine
            .announce_change(&self.network, &self.store, &self.state.assigned, var, None);
        self.fixpoint() && (!self.config.probing || self.probe())
    }

    /// Runs the engine to a fixpoint; a failure weighs its constraint.
    pub(in crate::search) fn fixpoint(&mut self) -> bool {
        let outcome = self.engine.fixpoint(
            &self.network,
            self.props,
            &mut self.store,
            self.state.assignment(),
            &mut self.stats,
        );
        match outcome {
            Ok(()) => true,
            Err(failure) => {
                self.blame(failure);
                false
            }
        }
    }
}
