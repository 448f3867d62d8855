//! The variables "picked" in one propagation, for pick/dom (`search/var_order/pick_dom.rs`):
//! those whose change pruned another domain, each once. A set over the variables with
//! its members listed, so that clearing it costs its size, not the number of variables.

use crate::var::VarId;

/// A set of variables, emptied at the start of each fixpoint.
pub(crate) struct PickedVars {
    member: Vec<bool>,
    list: Vec<VarId>,
}

impl PickedVars {
    /// An empty set over `num_vars` variables, with room for all of them.
    pub(crate) fn new(num_vars: usize) -> PickedVars {
        PickedVars {
            member: vec![false; num_vars],
            list: Vec::with_capacity(num_vars),
        }
    }

    /// Adds `var` (once).
    #[inline]
    pub(crate) fn add(&mut self, var: VarId) {
        if !std::mem::replace(&mut self.member[var.index()], true) {
            self.list.push(var);
        }
    }

    /// Empties the set.
    #[inline]
    pub(crate) fn clear(&mut self) {
        for var in self.list.drain(..) {
            self.member[var.index()] = false;
        }
    }

    /// The members, in the order they were added.
    pub(crate) fn members(&self) -> &[VarId] {
        &self.list
    }
}
