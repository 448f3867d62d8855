//! Constraint weights for dom/wdeg (Boussemart, Hemery, Lecoutre and Sais, "Boosting
//! systematic search by weighting constraints", ECAI 2004), kept per variable: each
//! variable's weighted degree, so that selection reads one number. Branching on places
//! reads them too.
//!
//! Three rules for what a variable's weighted degree sums ([`WeightRule`]); the paper's,
//! `dom-wdeg`, counts a constraint only while it has another unassigned variable, which
//! [`Scopes`] tracks, and keeps each sum up to date as variables are assigned and
//! unassigned: one pass over the variable's constraints each time.

use std::sync::Arc;

use super::Solver;
use super::scopes::Scopes;
use crate::config::VarOrder;
use crate::network::Network;
use crate::propagation::Propagator;
use crate::propagation::engine::Failure;
use crate::store::Store;
use crate::var::VarId;

/// What a variable's weighted degree sums.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WeightRule {
    /// [`VarOrder::DomWdeg`]: the weights of its constraints that have another
    /// unassigned variable.
    Unassigned,
    /// [`VarOrder::DomWdegAll`] (and every order that reads no weights): the weights of
    /// all its constraints, always.
    All,
    /// [`VarOrder::DomWdegFixed`]: its degree, plus one per failure it caused.
    Fixed,
}

/// The weighted degree of variable `v` with nothing assigned: the weights of its constraints
/// that count under the paper's rule.
fn weighted_degree(scopes: &Scopes, constraint_weight: &[u64], v: usize) -> u64 {
    scopes
        .of_var
        .row(v)
        .iter()
        .filter(|m| scopes.counts(m.constraint as usize))
        .map(|m| constraint_weight[m.constraint as usize])
        .sum()
}

/// The weights a search ended with ([`FailureWeights::learnt`]): what a thread of parallel
/// search hands from one subproblem to its next, as a sequential search would keep them
/// from one subtree to the next.
#[derive(Clone, Debug, Default)]
pub(crate) struct LearntWeights {
    var_weight: Vec<u64>,
    constraint_weight: Vec<u64>,
}

impl LearntWeights {
    /// Adds what a search learnt between `start` (the weights it began with) and `now`: the
    /// failures it met, for a pool of searches that share their weights.
    pub(crate) fn add_progress(&mut self, start: &LearntWeights, now: &LearntWeights) {
        let add = |total: &mut Vec<u64>, start: &[u64], now: &[u64]| {
            for ((t, s), n) in total.iter_mut().zip(start).zip(now) {
                *t = t.saturating_add(n.saturating_sub(*s));
            }
        };
        add(&mut self.var_weight, &start.var_weight, &now.var_weight);
        add(
            &mut self.constraint_weight,
            &start.constraint_weight,
            &now.constraint_weight,
        );
    }
}

/// Each variable's weighted degree, and how failures add to it.
pub(super) struct FailureWeights {
    pub(super) var_weight: Vec<u64>,
    rule: WeightRule,
    /// Under [`WeightRule::Unassigned`]: each constraint's weight (see [`Scopes`] for the
    /// numbering), from 1.
    constraint_weight: Vec<u64>,
}

impl FailureWeights {
    /// Every weight at 1: each variable starts at its degree (its number of constraints,
    /// under [`WeightRule::Unassigned`] those with another variable). `scopes` must be
    /// given for the orders that weigh constraints by the paper's rule.
    pub(super) fn new(network: &Network, var_order: VarOrder, scopes: Option<&Scopes>) -> FailureWeights {
        let rule = match var_order {
            VarOrder::DomWdegFixed => WeightRule::Fixed,
            VarOrder::DomWdeg | VarOrder::RunRobin if scopes.is_some() => WeightRule::Unassigned,
            _ => WeightRule::All,
        };
        match (rule, scopes) {
            (WeightRule::Unassigned, Some(scopes)) => {
                let constraint_weight = vec![1; scopes.unassigned.len()];
                FailureWeights {
                    var_weight: (0..network.num_vars())
                        .map(|v| weighted_degree(scopes, &constraint_weight, v))
                        .collect(),
                    rule,
                    constraint_weight,
                }
            }
            _ => FailureWeights {
                var_weight: network.degrees(),
                rule,
                constraint_weight: Vec::new(),
            },
        }
    }

    /// What the failures so far taught, for another search of the same model.
    pub(super) fn learnt(&self) -> LearntWeights {
        LearntWeights {
            var_weight: self.var_weight.clone(),
            constraint_weight: self.constraint_weight.clone(),
        }
    }

    /// Takes over what another search of the same model learnt ([`FailureWeights::learnt`]),
    /// before this one assigns anything: under the paper's rule, each variable's weighted
    /// degree is summed again over its constraints, all of which still count.
    pub(super) fn inherit(&mut self, learnt: &LearntWeights, scopes: Option<&Scopes>) {
        match (self.rule, scopes) {
            (WeightRule::Unassigned, Some(scopes)) => {
                self.constraint_weight.clone_from(&learnt.constraint_weight);
                for (v, weight) in self.var_weight.iter_mut().enumerate() {
                    *weight = weighted_degree(scopes, &self.constraint_weight, v);
                }
            }
            _ => self.var_weight.clone_from(&learnt.var_weight),
        }
    }

    /// A constraint failed. `dom-wdeg`: its weight grows by one, and so does the weighted
    /// degree of each of its unassigned variables if it counts for them; `dom-wdeg-all`:
    /// the weighted degree of each of its variables grows by one; `dom-wdeg-fixed`: only
    /// its variables in conflict and the variable of the last `decision` gain one (see
    /// [`VarOrder::DomWdegFixed`]). Reads the domains the failure left, before they are
    /// undone.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn on_failure(
        &mut self,
        failure: Failure,
        network: &Network,
        props: &[Arc<dyn Propagator>],
        store: &Store,
        assigned: &[bool],
        decision: Option<VarId>,
        scopes: Option<&Scopes>,
    ) {
        if let (WeightRule::Unassigned, Some(scopes)) = (self.rule, scopes) {
            let c = scopes.constraint_of(failure);
            self.constraint_weight[c] += 1;
            if scopes.counts(c) {
                for y in scopes.vars.row(c).iter().filter(|y| !assigned[y.index()]) {
                    self.var_weight[y.index()] += 1;
                }
            }
            return;
        }
        let arc_vars;
        let vars = match failure {
            Failure::Arc(arc) => {
                let arc = &network.arcs[arc as usize];
                arc_vars = [arc.x, arc.y];
                &arc_vars[..]
            }
            Failure::Propagator(p) => props[p].variables(),
        };
        let fixed_only = self.rule == WeightRule::Fixed;
        for v in vars {
            if !fixed_only || (!assigned[v.index()] && store.size(*v) <= 1) {
                self.var_weight[v.index()] += 1;
            }
        }
        // The decision that led to the failure (none at the root).
        if let (true, Some(var)) = (fixed_only, decision) {
            self.var_weight[var.index()] += 1;
        }
    }

    /// Constraint `c`'s weight under the paper's rule.
    #[cfg(test)]
    pub(super) fn weight_of(&self, c: usize) -> u64 {
        self.constraint_weight[c]
    }

    /// Whether the weighted degrees follow the assignments (the paper's rule).
    #[inline]
    pub(super) fn follows_assignments(&self) -> bool {
        self.rule == WeightRule::Unassigned
    }

    /// Search assigned `var`; `scopes` tracks it. A constraint left with one unassigned
    /// variable no longer counts for that variable.
    #[inline]
    pub(super) fn on_assign(&mut self, var: VarId, scopes: &mut Scopes, assigned: &[bool]) {
        let (weights, constraint_weight) = (&mut self.var_weight, &self.constraint_weight);
        scopes.assign(var, assigned, |c, y| weights[y.index()] -= constraint_weight[c]);
    }

    /// Search unassigned `var`: a constraint that had one unassigned variable counts for
    /// it again, and `var`'s own weighted degree is summed afresh.
    #[inline]
    pub(super) fn on_unassign(&mut self, var: VarId, scopes: &mut Scopes, assigned: &[bool]) {
        let (weights, constraint_weight) = (&mut self.var_weight, &self.constraint_weight);
        let mut own = 0;
        scopes.unassign(
            var,
            assigned,
            |c, y| weights[y.index()] += constraint_weight[c],
            |c| own += constraint_weight[c],
        );
        weights[var.index()] = own;
    }
}

impl Solver<'_> {
    /// Weighs the constraint that just failed (`None`: a nogood, no constraint), before
    /// the failure is undone, and tells the orders that learn from conflicts and backjumping.
    pub(super) fn blame(&mut self, failure: Option<Failure>) {
        if let Some(failure) = failure {
            self.backjump_note_failure(failure);
        }
        let decision = self.state.frames.last().map(|f| f.var);
        if let Some(failure) = failure {
            self.weights.on_failure(
                failure,
                &self.network,
                self.props,
                &self.store,
                &self.state.assigned,
                decision,
                self.orders.scopes.as_ref(),
            );
        }
        self.note_conflict(failure, decision);
    }
}
