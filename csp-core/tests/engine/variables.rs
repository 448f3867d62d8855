//! The variables of a random model drawn as data.

use csp_core::{Domain, Model, VarId};

/// One variable per list of values in `domains`, fixed to its entry of `givens` if any.
pub fn add_vars(m: &mut Model, domains: &[Vec<i32>], givens: &[Option<i32>]) -> Vec<VarId> {
    let vars: Vec<VarId> = domains
        .iter()
        .map(|d| m.add_var(Domain::from_values(d.iter().copied()).unwrap()))
        .collect();
    for (&v, g) in vars.iter().zip(givens) {
        if let Some(g) = *g {
            m.fix(v, g).unwrap();
        }
    }
    vars
}
