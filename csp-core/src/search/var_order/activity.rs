//! Activity-based search (Michel and Van Hentenryck, "Activity-based search for
//! black-box constraint programming solvers", CPAIOR 2012). Each variable has an activity,
//! from 0. After each node and its inference (failed or not), every unassigned variable
//! other than the node's with more than one value left decays by `0.999` (the paper's
//! and Choco's ageing), then every one whose domain the inference shrank gains 1. The
//! order takes the largest activity over `|dom|`. The paper starts from activities
//! estimated by random probing; here they start at 0, so that the first choices go by
//! the tie-break.

use crate::store::Store;
use crate::var::VarId;

/// The ageing factor per node.
const DECAY: f64 = 0.999;

/// Each variable's activity, and the domain sizes before the node under way.
pub(in crate::search) struct Activities {
    pub(in crate::search) activity: Vec<f64>,
    before: Vec<u32>,
}

impl Activities {
    /// Every activity at 0.
    pub(in crate::search) fn new(n: usize) -> Activities {
        Activities {
            activity: vec![0.0; n],
            before: vec![0; n],
        }
    }

    /// A node is about to run its inference: keep the sizes.
    #[inline]
    pub(in crate::search) fn before(&mut self, store: &Store) {
        self.before.copy_from_slice(store.sizes());
    }

    /// The node on `var` ran its inference.
    pub(in crate::search) fn after(&mut self, var: VarId, store: &Store, assigned: &[bool]) {
        let sizes = store.sizes();
        for (y, activity) in self.activity.iter_mut().enumerate() {
            if assigned[y] || y == var.index() {
                continue;
            }
            if sizes[y] > 1 {
                *activity *= DECAY;
            }
            if sizes[y] < self.before[y] {
                *activity += 1.0;
            }
        }
    }
}
