//! MRV with the degree heuristic as tie-break: among the variables with the fewest
//! legal values, the one with the most unassigned neighbours. Those counts are kept up
//! to date as variables are assigned and unassigned (the general scan reads them).

use crate::config::VarOrder;
use crate::model::Model;
use crate::var::VarId;

/// Each variable's distinct neighbours and how many of them are unassigned.
pub(in crate::search) struct UnassignedDegrees {
    lists: Vec<Vec<VarId>>,
    degrees: Vec<u32>,
}

impl UnassignedDegrees {
    /// The counts, if `order` reads them.
    pub(in crate::search) fn for_order(model: &Model, order: VarOrder) -> Option<UnassignedDegrees> {
        (order == VarOrder::MrvDegree).then(|| {
            let lists: Vec<Vec<VarId>> = model.vars().map(|v| model.neighbours(v)).collect();
            let degrees = lists.iter().map(|l| l.len() as u32).collect();
            UnassignedDegrees { lists, degrees }
        })
    }

    /// The number of unassigned neighbours of variable `i`.
    #[inline]
    pub(in crate::search) fn degree(&self, i: usize) -> u32 {
        self.degrees[i]
    }

    #[inline]
    pub(in crate::search) fn on_assign(&mut self, var: VarId) {
        for u in &self.lists[var.index()] {
            self.degrees[u.index()] -= 1;
        }
    }

    #[inline]
    pub(in crate::search) fn on_unassign(&mut self, var: VarId) {
        for u in &self.lists[var.index()] {
            self.degrees[u.index()] += 1;
        }
    }
}
