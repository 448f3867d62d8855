//! The root of a search: the givens assigned (never nodes), checked against each
//! other, and the inference run once on them before the first node.

use super::Solver;
use super::inference::none::Legality;
use super::order_state::track_assign;
use crate::config::Inference;
use crate::propagation::root::load_givens;

impl Solver<'_> {
    /// Assigns the givens, checks them against each other and runs the initial inference.
    /// Returns `false` if that proves the model unsatisfiable.
    pub(super) fn propagate_root(&mut self) -> bool {
        let model = self.model;
        let (state, degrees) = (&mut self.state, &mut self.degrees);
        let (weights, scopes) = (&mut self.weights, &mut self.orders.scopes);
        let loaded = load_givens(model, &mut self.store, |var, value| {
            state.assign(var, value);
            if let Some(degrees) = degrees {
                degrees.on_assign(var);
            }
            track_assign(weights, scopes, var, &state.assigned);
        });
        if !loaded || (self.is_confined() && !self.load_confined()) || !self.givens_consistent() {
            return false;
        }
        match self.config.strategy.inference {
            Inference::None => true,
            Inference::Fc => {
                // The givens, and the path of a confined search.
                for var in model.vars() {
                    if self.state.assigned[var.index()] && !self.forward_check(var) {
                        return false;
                    }
                }
                true
            }
            // The caller vouches that nothing would be pruned.
            Inference::Mac if model.is_at_fixpoint() && !self.is_confined() => true,
            Inference::Mac => {
                self.engine
                    .queue_root(&self.network, &self.store, &self.state.assigned);
                self.fixpoint() && (!self.config.probing || self.probe())
            }
        }
    }

    /// Whether every given has its value and agrees with the other givens. Under fc and
    /// mac the propagators see the givens and detect clashes themselves; under `none`
    /// each n-ary constraint is asked too.
    fn givens_consistent(&mut self) -> bool {
        let legality = Legality::new(&self.network, self.props, &self.state, &self.store);
        let checks = &mut self.stats.checks;
        let none = self.config.strategy.inference == Inference::None;
        for var in self.model.vars() {
            if !self.state.assigned[var.index()] {
                continue;
            }
            if self.store.size(var) != 1 {
                return false;
            }
            let a = self.state.value[var.index()];
            if !legality.agrees_with_neighbours(var, a, checks) {
                return false;
            }
            if none && !legality.agrees_with_watches(var, a, checks) {
                return false;
            }
        }
        true
    }
}
