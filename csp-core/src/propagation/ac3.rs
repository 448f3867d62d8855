//! AC-3 on its own, as preprocessing.

use serde::Serialize;

use super::context::Assignment;
use super::engine::Propagation;
use super::root::load_givens;
use crate::domain::Domain;
use crate::model::Model;
use crate::network::Network;
use crate::stats::Stats;
use crate::store::Store;

/// What [`ac3`] did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ac3Report {
    /// `false` if some domain was wiped out (the model has no solution).
    pub consistent: bool,
    /// Arc revisions made.
    pub revisions: u64,
    /// Values removed.
    pub removed: u64,
    /// The arc-consistent domains (meaningful only when `consistent`), one per variable;
    /// a wiped-out domain is `None`.
    #[serde(skip)]
    pub domains: Vec<Option<Domain>>,
}

/// Makes the network arc consistent: every value of every variable has a support in
/// every binary constraint (n-ary propagators run to their own fixpoint too).
/// Givens count as single-value domains.
///
/// ```
/// use csp_core::{ac3, Model, Relation};
/// let mut m = Model::new();
/// let x = m.int_var(1, 3).unwrap();
/// let y = m.int_var(1, 3).unwrap();
/// m.post(x, y, Relation::Less).unwrap();
/// let report = ac3(&m);
/// assert!(report.consistent);
/// assert_eq!(report.removed, 2);
/// assert_eq!(report.domains[0].as_ref().unwrap().values().collect::<Vec<_>>(), vec![1, 2]);
/// ```
pub fn ac3(model: &Model) -> Ac3Report {
    let network = Network::of(model);
    let n = model.num_vars();
    let mut store = network.fresh_store(model);
    let mut assigned = vec![false; n];
    let mut values = vec![0; n];
    let mut stats = Stats::default();
    let consistent = load_givens(model, &mut store, |var, value| {
        assigned[var.index()] = true;
        values[var.index()] = value;
    }) && givens_agree(model, &network, &store, &assigned, &values)
        // The caller vouches that nothing would be pruned.
        && (model.is_at_fixpoint() || {
            let mut engine = Propagation::new(&network, n, true);
            engine.queue_root(&network, &store, &assigned);
            let assignment = Assignment {
                assigned: &assigned,
                values: &values,
                open: &[],
            };
            engine
                .fixpoint(&network, model.propagators(), &mut store, assignment, &mut stats)
                .is_ok()
        });
    Ac3Report {
        consistent,
        revisions: stats.revisions,
        removed: stats.pruned,
        domains: model
            .vars()
            .map(|v| Domain::from_values(store.values(v)).ok())
            .collect(),
    }
}

/// Whether every given has its value and agrees with the other givens through binary
/// constraints (n-ary constraints see the givens when they propagate).
fn givens_agree(model: &Model, network: &Network, store: &Store, assigned: &[bool], values: &[i32]) -> bool {
    let mut checks = 0;
    model.vars().filter(|v| assigned[v.index()]).all(|var| {
        store.size(var) == 1
            && network.agrees_with_assigned(var, values[var.index()], assigned, values, &mut checks)
    })
}
