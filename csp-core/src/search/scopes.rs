//! The constraints as the weighting orders see them (dom/wdeg, wdeg-cacd, chs): binary
//! pair `k` of the network (arcs `2k` and `2k + 1`) is constraint `k`, n-ary propagator
//! `p` is constraint `pairs + p`; each with its distinct variables, and how many of them
//! are unassigned, kept up to date as search assigns and unassigns (one pass over the
//! variable's constraints each time), so that "a constraint with another unassigned
//! variable" is one comparison.

use std::sync::Arc;

use crate::network::{Network, Rows};
use crate::propagation::Propagator;
use crate::propagation::engine::Failure;
use crate::var::VarId;

/// A constraint's place in one variable's row: the constraint, and the variable's
/// position in its scope.
#[derive(Clone, Copy)]
pub(super) struct Membership {
    pub(super) constraint: u32,
    pub(super) position: u32,
}

/// Every constraint's scope and unassigned count, and every variable's constraints.
pub(super) struct Scopes {
    /// Each constraint's distinct variables.
    pub(super) vars: Rows<VarId>,
    /// Each variable's constraints.
    pub(super) of_var: Rows<Membership>,
    /// Each constraint's unassigned variables (search's assignments; a variable that
    /// propagation left with one value is unassigned until search assigns it).
    pub(super) unassigned: Vec<u32>,
    /// The binary pairs of the network: constraint numbers of propagators start here.
    pairs: usize,
}

impl Scopes {
    /// The scopes of `network`'s constraints, every variable unassigned.
    pub(super) fn new(network: &Network, props: &[Arc<dyn Propagator>], num_vars: usize) -> Scopes {
        let pairs = network.arcs.len() / 2;
        let num_constraints = pairs + props.len();
        // Each constraint's distinct variables, tagged with the constraint, in the order
        // they first appear: no list per constraint (a model may have millions).
        let mut scoped: Vec<(u32, VarId)> = Vec::with_capacity(2 * pairs);
        for k in 0..pairs {
            let arc = &network.arcs[2 * k];
            scoped.push((k as u32, arc.x));
            scoped.push((k as u32, arc.y));
        }
        let mut seen = vec![false; num_vars];
        for (p, prop) in props.iter().enumerate() {
            let c = (pairs + p) as u32;
            let first = scoped.len();
            for &v in prop.variables() {
                if !std::mem::replace(&mut seen[v.index()], true) {
                    scoped.push((c, v));
                }
            }
            for &(_, v) in &scoped[first..] {
                seen[v.index()] = false;
            }
        }
        let vars = Rows::from_tagged(num_constraints, &scoped);
        let mut tagged = Vec::with_capacity(scoped.len());
        for c in 0..num_constraints {
            for (position, v) in vars.row(c).iter().enumerate() {
                let membership = Membership {
                    constraint: c as u32,
                    position: position as u32,
                };
                tagged.push((v.0, membership));
            }
        }
        let unassigned = (0..num_constraints).map(|c| vars.row(c).len() as u32).collect();
        Scopes {
            vars,
            of_var: Rows::from_tagged(num_vars, &tagged),
            unassigned,
            pairs,
        }
    }

    /// The constraint that failed.
    #[inline]
    pub(super) fn constraint_of(&self, failure: Failure) -> usize {
        match failure {
            Failure::Arc(arc) => arc as usize / 2,
            Failure::Propagator(p) => self.pairs + p,
        }
    }

    /// Whether constraint `c` has two unassigned variables or more: it counts in the
    /// weighted degree of each of them.
    #[inline]
    pub(super) fn counts(&self, c: usize) -> bool {
        self.unassigned[c] >= 2
    }

    /// `f(c, slot)` summed over `var`'s constraints `c` that count for it, where `slot`
    /// is `var`'s place among all the scope entries (`vars.offset(c) + position`).
    #[inline]
    pub(super) fn sum_counting(&self, var: VarId, mut f: impl FnMut(usize, usize) -> f64) -> f64 {
        let mut sum = 0.0;
        for m in self.of_var.row(var.index()) {
            let c = m.constraint as usize;
            if self.counts(c) {
                sum += f(c, self.vars.offset(c) + m.position as usize);
            }
        }
        sum
    }

    /// Search assigned `var`: calls `left_alone(c, y)` for each constraint `c` that now
    /// has one unassigned variable, `y`, left.
    #[inline]
    pub(super) fn assign(&mut self, var: VarId, assigned: &[bool], mut left_alone: impl FnMut(usize, VarId)) {
        for m in self.of_var.row(var.index()) {
            let c = m.constraint as usize;
            self.unassigned[c] -= 1;
            if self.unassigned[c] == 1 {
                let y = self.vars.row(c).iter().find(|y| !assigned[y.index()]);
                left_alone(c, *y.expect("one unassigned variable"));
            }
        }
    }

    /// Search unassigned `var` (already marked unassigned): calls `joined(c, y)` for each
    /// constraint `c` whose one unassigned variable `y` now has `var` beside it, and
    /// `counted(c)` for each of `var`'s constraints that counts for it.
    #[inline]
    pub(super) fn unassign(
        &mut self,
        var: VarId,
        assigned: &[bool],
        mut joined: impl FnMut(usize, VarId),
        mut counted: impl FnMut(usize),
    ) {
        for m in self.of_var.row(var.index()) {
            let c = m.constraint as usize;
            self.unassigned[c] += 1;
            if self.unassigned[c] == 2 {
                let y = (self.vars.row(c).iter()).find(|y| **y != var && !assigned[y.index()]);
                joined(c, *y.expect("another unassigned variable"));
            }
            if self.unassigned[c] >= 2 {
                counted(c);
            }
        }
    }
}
