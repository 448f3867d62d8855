//! Failed-value probing (under MAC): each value of every unassigned two-valued variable
//! is tried with full propagation, and a value whose propagation fails is removed, until
//! nothing changes. Probes are not nodes.

use super::Solver;
use crate::var::VarId;

impl Solver<'_> {
    /// Probes until nothing changes. Returns `false` if that empties a domain.
    pub(super) fn probe(&mut self) -> bool {
        loop {
            let mut changed = false;
            for i in 0..self.model.num_vars() {
                let var = VarId(i as u32);
                if self.state.assigned[i] || self.store.size(var) != 2 {
                    continue;
                }
                let (Some(low), Some(high)) = (self.store.min(var), self.store.max(var)) else {
                    continue;
                };
                for value in [low, high] {
                    self.stats.probes += 1;
                    let mark = self.store.mark();
                    self.store.fix(var, value);
                    self.announce(var);
                    let holds = self.fixpoint();
                    self.store.undo_to(mark);
                    if !holds {
                        self.store.remove(var, value);
                        self.stats.pruned += 1;
                        self.announce(var);
                        if !self.fixpoint() {
                            return false;
                        }
                        changed = true;
                        break;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    fn announce(&mut self, var: VarId) {
        self.engine
            .announce_change(&self.network, &self.store, &self.state.assigned, var, None);
    }
}
