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
        let mut scopes: Vec<Vec<VarId>> = Vec::with_capacity(pairs + props.len());
        for k in 0..pairs {
            let arc = &network.arcs[2 * k];
            scopes.push(vec![arc.x, arc.y]);
        }
        let mut seen = vec![false; num_vars];
        for prop in props {
            // Distinct variables, in the order they first appear.
            let mut scope = Vec::with_capacity(prop.variables().len());
            for &v in prop.variables() {
                if !std::mem::replace(&mut seen[v.index()], true) {
                    scope.push(v);
                }
            }
            for v in &scope {
                seen[v.index()] = false;
            }
            scopes.push(scope);
        }
        let mut of_var: Vec<Vec<Membership>> = vec![Vec::new(); num_vars];
        for (c, scope) in scopes.iter().enumerate() {
            for (position, v) in scope.iter().enumerate() {
                of_var[v.index()].push(Membership {
                    constraint: c as u32,
                    position: position as u32,
                });
            }
        }
        let unassigned = scopes.iter().map(|s| s.len() as u32).collect();
        Scopes {
            vars: Rows::from_lists(scopes),
            of_var: Rows::from_lists(of_var),
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
