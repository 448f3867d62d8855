//! dom/wdeg^ca.cd (Wattez, Lecoutre, Paparrizou and Tabary, "Refining constraint
//! weighting", ICTAI 2019): a wipe-out by constraint `c` with `k` unassigned variables
//! adds `1 / (k * |dom(y)|)` to the weight of each of them, `y`, in `c` (an emptied
//! domain counts as 0.5, as in ACE and Choco), so that the weight goes to the variables
//! that had few values left, in constraints of few unassigned variables. A variable's
//! weight sums its weights in the constraints that have another unassigned variable, from
//! 0 (as in ACE). The order takes the smallest `|dom| / weight`, that is the largest
//! `weight / |dom|`.

use crate::search::scopes::Scopes;
use crate::store::Store;
use crate::var::VarId;

/// Each variable's weight in each of its constraints, by scope position.
pub(in crate::search) struct CacdWeights {
    /// At `scopes.vars.offset(c) + position`.
    weight: Vec<f64>,
}

impl CacdWeights {
    /// Every weight at 0.
    pub(in crate::search) fn new(scopes: &Scopes) -> CacdWeights {
        CacdWeights {
            weight: vec![0.0; scopes.vars.total()],
        }
    }

    /// Constraint `c` wiped out a domain; reads the domains the failure left.
    pub(in crate::search) fn on_conflict(
        &mut self,
        c: usize,
        scopes: &Scopes,
        store: &Store,
        assigned: &[bool],
    ) {
        let k = scopes.unassigned[c];
        if k == 0 {
            return;
        }
        let offset = scopes.vars.offset(c);
        for (position, y) in scopes.vars.row(c).iter().enumerate() {
            if assigned[y.index()] {
                continue;
            }
            let size = match store.size(*y) {
                0 => 0.5,
                size => f64::from(size),
            };
            self.weight[offset + position] += 1.0 / (f64::from(k) * size);
        }
    }

    /// `var`'s weighted degree: its weights in the constraints that count for it.
    #[inline]
    pub(in crate::search) fn weighted_degree(&self, var: VarId, scopes: &Scopes) -> f64 {
        scopes.sum_counting(var, |_, slot| self.weight[slot])
    }
}
