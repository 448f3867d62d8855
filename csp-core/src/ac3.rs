//! AC-3 on its own, as preprocessing.

use serde::Serialize;

use crate::config::{Inference, SearchConfig, Strategy, ValueOrder, VarOrder};
use crate::domain::Domain;
use crate::model::Model;
use crate::search::Solver;

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
    let config =
        SearchConfig::with_strategy(Strategy::new(VarOrder::Static, ValueOrder::Asc, Inference::Mac));
    let mut solver = Solver::new(model, config).expect("AC-3 needs no restarts");
    let consistent = solver.propagate_only();
    let stats = solver.stats();
    Ac3Report {
        consistent,
        revisions: stats.revisions,
        removed: stats.pruned,
        domains: model
            .vars()
            .map(|v| Domain::from_values(solver.current_domain(v)).ok())
            .collect(),
    }
}
