//! The kinds of neighbourhood, one file each. Each fixes decision variables of the open
//! neighbourhood to the incumbent's values, through a [`Fixer`], until the fixer is done.

mod objective_guided;
mod propagation_guided;
mod random;
mod reverse_propagation_guided;

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;

use super::fixer::Fixer;
use super::graph::VarGraph;
use crate::model::Model;
use crate::var::VarId;

/// A kind of neighbourhood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NeighbourhoodKind {
    /// Random variables fixed.
    Random,
    /// Propagation-guided (Perron, Shaw and Furnon, CP 2004): after a random first
    /// fixing, the next variable fixed is the one the fixings so far reduced most, so that
    /// the free variables are the ones the fixed ones constrain least.
    PropagationGuided,
    /// Reverse propagation-guided (same paper): the free set grows from a random variable
    /// along the edges closest in propagation (learnt by the propagation-guided kind), and
    /// everything else is fixed.
    ReversePropagationGuided,
    /// Objective-guided: the free set grows from the variables that weigh most in the
    /// incumbent's objective value (the largest terms of a sum minimised, the items at a
    /// maximum minimised, ...).
    ObjectiveGuided,
}

impl NeighbourhoodKind {
    /// Every kind.
    pub const ALL: [NeighbourhoodKind; 4] = [
        NeighbourhoodKind::Random,
        NeighbourhoodKind::PropagationGuided,
        NeighbourhoodKind::ReversePropagationGuided,
        NeighbourhoodKind::ObjectiveGuided,
    ];

    /// Its name: `random`, `pg`, `rpg`, `objective`.
    pub fn name(self) -> &'static str {
        match self {
            NeighbourhoodKind::Random => "random",
            NeighbourhoodKind::PropagationGuided => "pg",
            NeighbourhoodKind::ReversePropagationGuided => "rpg",
            NeighbourhoodKind::ObjectiveGuided => "objective",
        }
    }
}

impl fmt::Display for NeighbourhoodKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for NeighbourhoodKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        NeighbourhoodKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("unknown neighbourhood `{s}` (random, pg, rpg, objective)"))
    }
}

/// Fixes a neighbourhood of the kind `kind`.
pub(super) fn fix(
    kind: NeighbourhoodKind,
    fixer: &mut Fixer<'_, '_>,
    graph: &mut VarGraph,
    terms: &[(i64, VarId)],
    rng: &mut ChaCha8Rng,
) {
    match kind {
        NeighbourhoodKind::Random => random::fix(fixer, rng),
        NeighbourhoodKind::PropagationGuided => propagation_guided::fix(fixer, graph, rng),
        NeighbourhoodKind::ReversePropagationGuided => {
            reverse_propagation_guided::fix(fixer, graph, &[], rng)
        }
        NeighbourhoodKind::ObjectiveGuided => objective_guided::fix(fixer, graph, terms, rng),
    }
}

/// The decision variables an objective over `var` grows with, each with its weight
/// (see [`crate::Propagator::terms_of`]), through auxiliary variables when a term is one
/// (a sum of products posted as a sum of variables, each defined by a product): empty
/// when no constraint defines the objective.
pub(super) fn objective_terms(model: &Model, var: VarId, decision: &[VarId]) -> Vec<(i64, VarId)> {
    let mut is_decision = vec![false; model.num_vars()];
    for v in decision {
        is_decision[v.index()] = true;
    }
    let defining = |v: VarId| {
        model
            .propagators()
            .iter()
            .filter(|p| p.variables().contains(&v))
            .find_map(|p| p.terms_of(v))
    };
    let mut terms = Vec::new();
    for (weight, x) in defining(var).unwrap_or_default() {
        if is_decision[x.index()] {
            terms.push((weight, x));
        } else if let Some(inner) = defining(x) {
            let inner = inner.into_iter().filter(|(_, y)| is_decision[y.index()]);
            terms.extend(inner.map(|(w, y)| (weight.saturating_mul(w), y)));
        } else {
            // An auxiliary term nothing defines as a sum: its own variables, unweighted.
            let scope = model.propagators().iter().filter(|p| p.variables().contains(&x));
            for p in scope.take(1) {
                let vars = p.variables().iter().filter(|y| is_decision[y.index()]);
                terms.extend(vars.map(|&y| (weight, y)));
            }
        }
    }
    terms
}
