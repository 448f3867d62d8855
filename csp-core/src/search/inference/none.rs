//! Plain backtracking (inference `none`): no domain is pruned, so a value is legal only
//! if it agrees with every assigned neighbour. These tests count as `checks`, exactly as
//! the textbook value-by-value test makes them.

use std::sync::Arc;

use crate::network::Network;
use crate::propagation::Propagator;
use crate::search::state::SearchState;
use crate::store::Store;
use crate::var::VarId;

/// The legality tests over the current assignment.
pub(in crate::search) struct Legality<'a> {
    network: &'a Network,
    props: &'a [Arc<dyn Propagator>],
    assigned: &'a [bool],
    values: &'a [i32],
    store: &'a Store,
}

impl<'a> Legality<'a> {
    #[inline]
    pub(in crate::search) fn new(
        network: &'a Network,
        props: &'a [Arc<dyn Propagator>],
        state: &'a SearchState,
        store: &'a Store,
    ) -> Legality<'a> {
        Legality {
            network,
            props,
            assigned: &state.assigned,
            values: &state.value,
            store,
        }
    }

    /// The network the tests read.
    #[inline]
    pub(in crate::search) fn network(&self) -> &'a Network {
        self.network
    }

    /// The n-ary constraints.
    #[inline]
    pub(in crate::search) fn props(&self) -> &'a [Arc<dyn Propagator>] {
        self.props
    }

    /// The current domains.
    #[inline]
    pub(in crate::search) fn store(&self) -> &'a Store {
        self.store
    }

    /// Whether `var` is assigned.
    #[inline]
    pub(in crate::search) fn is_assigned(&self, var: VarId) -> bool {
        self.assigned[var.index()]
    }

    /// Whether `var = a` agrees with every assigned neighbour, in binary and n-ary
    /// constraints.
    #[inline]
    pub(in crate::search) fn agrees(&self, var: VarId, a: i32, checks: &mut u64) -> bool {
        self.agrees_with_neighbours(var, a, checks) && self.agrees_with_watches(var, a, checks)
    }

    /// Whether `var = a` agrees with every assigned neighbour through binary constraints.
    #[inline]
    pub(in crate::search) fn agrees_with_neighbours(&self, var: VarId, a: i32, checks: &mut u64) -> bool {
        self.network
            .agrees_with_assigned(var, a, self.assigned, self.values, checks)
    }

    /// Whether `var = a` agrees with the assigned variables of every n-ary constraint on
    /// `var`.
    pub(in crate::search) fn agrees_with_watches(&self, var: VarId, a: i32, checks: &mut u64) -> bool {
        self.network
            .watches
            .row(var.index())
            .iter()
            .all(|watch| self.prop_consistent(watch.prop as usize, watch.local as usize, a, None, checks))
    }

    /// `is_consistent` of propagator `p` for `local = value`, seeing the assigned
    /// variables plus an optional tentative `(local, value)`.
    pub(in crate::search) fn prop_consistent(
        &self,
        p: usize,
        local: usize,
        value: i32,
        extra: Option<(usize, i32)>,
        checks: &mut u64,
    ) -> bool {
        *checks += 1;
        let prop = &self.props[p];
        let vars = prop.variables();
        let (assigned, values) = (self.assigned, self.values);
        prop.is_consistent(local, value, &|j| match extra {
            Some((l, x)) if l == j => Some(x),
            _ if j != local && assigned[vars[j].index()] => Some(values[vars[j].index()]),
            _ => None,
        })
    }

    /// The number of legal values of the unassigned `var`.
    pub(in crate::search) fn count(&self, var: VarId, checks: &mut u64) -> u64 {
        if let Some((legal, word_checks)) = self.legal_word(var) {
            *checks += word_checks;
            if self.network.watches.row(var.index()).is_empty() {
                return u64::from(legal.count_ones());
            }
            // The n-ary constraints test the values the binary ones left, as before.
            let base = self.store.base(var);
            let mut count = 0;
            let mut rest = legal;
            while rest != 0 {
                let a = base + rest.trailing_zeros() as i32;
                rest &= rest - 1;
                if self.agrees_with_watches(var, a, checks) {
                    count += 1;
                }
            }
            return count;
        }
        let mut count = 0;
        let mut cursor = None;
        while let Some(a) = self.store.next_value(var, cursor) {
            cursor = Some(a);
            if self.agrees(var, a, checks) {
                count += 1;
            }
        }
        count
    }

    /// The values of the one-word domain of `var` that agree with every assigned neighbour
    /// through binary constraints, and the checks the value-by-value test makes to find
    /// them: each value is tested against the assigned neighbours in adjacency order until
    /// one rules it out, so the `k`-th neighbour tests the values the earlier ones left.
    /// `None` when some constraint on `var` is not compiled to a bit pattern.
    fn legal_word(&self, var: VarId) -> Option<(u64, u64)> {
        let mut legal = self.store.bits(var).single()?;
        let network = self.network;
        let mut checks = 0u64;
        for (adj, step) in network
            .adjacency
            .row(var.index())
            .iter()
            .zip(network.fc_back.row(var.index()))
        {
            if self.assigned[adj.other.index()] {
                checks += u64::from(legal.count_ones());
                legal &= !step.cleared_by(self.values[adj.other.index()])?;
            }
        }
        Some((legal, checks))
    }
}
