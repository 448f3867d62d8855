//! Constraint weights for dom/wdeg (Boussemart, Hemery, Lecoutre and Sais, "Boosting
//! systematic search by weighting constraints", ECAI 2004), kept per variable: each
//! variable's weighted degree, the summed weights of its constraints, so that selection
//! reads one number. Branching on places reads them too.

use std::sync::Arc;

use super::Solver;
use crate::config::VarOrder;
use crate::network::Network;
use crate::propagation::Propagator;
use crate::propagation::engine::Failure;
use crate::store::Store;
use crate::var::VarId;

/// Each variable's weighted degree, and how failures add to it.
pub(super) struct FailureWeights {
    pub(super) var_weight: Vec<u64>,
    /// [`VarOrder::DomWdegFixed`]: a failure weighs only its causes.
    fixed_only: bool,
}

impl FailureWeights {
    /// Every variable starts at its degree (its number of constraints).
    pub(super) fn new(network: &Network, var_order: VarOrder) -> FailureWeights {
        FailureWeights {
            var_weight: network.degrees.clone(),
            fixed_only: var_order == VarOrder::DomWdegFixed,
        }
    }

    /// A constraint failed. dom/wdeg: its weight, and so the weighted degree of each of
    /// its variables, grows by one. `dom-wdeg-fixed`: only its variables in conflict and
    /// the variable of the last `decision` gain one (see [`VarOrder::DomWdegFixed`]).
    /// Reads the domains the failure left, before they are undone.
    pub(super) fn on_failure(
        &mut self,
        failure: Failure,
        network: &Network,
        props: &[Arc<dyn Propagator>],
        store: &Store,
        assigned: &[bool],
        decision: Option<VarId>,
    ) {
        let arc_vars;
        let vars = match failure {
            Failure::Arc(arc) => {
                let arc = &network.arcs[arc as usize];
                arc_vars = [arc.x, arc.y];
                &arc_vars[..]
            }
            Failure::Propagator(p) => props[p].variables(),
        };
        for v in vars {
            if !self.fixed_only || (!assigned[v.index()] && store.size(*v) <= 1) {
                self.var_weight[v.index()] += 1;
            }
        }
        // The decision that led to the failure (none at the root).
        if let (true, Some(var)) = (self.fixed_only, decision) {
            self.var_weight[var.index()] += 1;
        }
    }
}

impl Solver<'_> {
    /// Weighs the constraint that just failed, before the failure is undone.
    pub(super) fn blame(&mut self, failure: Failure) {
        self.backjump_note_failure(failure);
        let decision = self.state.frames.last().map(|f| f.var);
        self.weights.on_failure(
            failure,
            &self.network,
            self.props,
            &self.store,
            &self.state.assigned,
            decision,
        );
    }
}
