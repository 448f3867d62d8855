//! pick/dom (Lecoutre et al., CP 2023; ACE's `PickOnDom`): at each wipe-out, the variables
//! "picked" from the propagation queue before it, those whose change had pruned another
//! domain in that propagation, gain 1 each. The engine records them under MAC
//! ([`crate::propagation::engine::PickedVars`]): a variable counts once per conflict
//! (ACE counts each effective pick), and the change whose propagation wiped out the domain
//! counts only if it pruned another domain before. Under forward checking only the
//! decision is propagated: its variable gains 1 at each wipe-out. The order takes the
//! largest count over `|dom|`.

use crate::var::VarId;

/// Each variable's picks before conflicts.
pub(in crate::search) struct PickCounts {
    pub(in crate::search) picks: Vec<u64>,
}

impl PickCounts {
    /// Every count at 0.
    pub(in crate::search) fn new(n: usize) -> PickCounts {
        PickCounts { picks: vec![0; n] }
    }

    /// A conflict, after `picked` were picked.
    #[inline]
    pub(in crate::search) fn on_conflict(&mut self, picked: &[VarId]) {
        for v in picked {
            self.picks[v.index()] += 1;
        }
    }
}
