//! Impact-based search (Refalo, "Impact-based search strategies for constraint
//! programming", CP 2004). The impact of a node `x = a` is the share of the search space
//! its inference removed, `1 - P_after / P_before`, where `P` is the product of all domain
//! sizes (1 when the inference fails); the impact of `x = a` is the mean over its trials
//! (the paper's average; no initialisation by probing: untried values count 0). A
//! variable's impact sums `1 - impact(x = a)` over the values `a` of its domain (the
//! search space that assigning it would leave); the order takes the smallest, that is
//! MRV until impacts are known. One mean per value of the initial domains, at most
//! [`MAX_SLOTS`] of them in all.

use crate::config::ConfigError;
use crate::store::Store;
use crate::var::VarId;

/// The most values impacts are kept for (each takes 12 bytes): 2^24, 192 MB.
pub(in crate::search) const MAX_SLOTS: usize = 1 << 24;

/// The mean impact of each value of each variable.
pub(in crate::search) struct Impacts {
    /// Where each variable's values start in `mean` and `trials`.
    offset: Vec<usize>,
    base: Vec<i32>,
    mean: Vec<f64>,
    trials: Vec<u32>,
    /// `ln P` before the node under way.
    log_before: f64,
}

impl Impacts {
    /// No trial yet: every impact 0. Refuses domains of more than [`MAX_SLOTS`] values in
    /// all (counting every value their bit words can hold).
    pub(in crate::search) fn new(store: &Store) -> Result<Impacts, ConfigError> {
        let n = store.sizes().len();
        let mut offset = Vec::with_capacity(n);
        let mut total = 0usize;
        for v in 0..n {
            offset.push(total);
            total = total.saturating_add(store.bits(VarId(v as u32)).len() * 64);
        }
        if total > MAX_SLOTS {
            return Err(ConfigError::TooManyImpacts {
                values: total as u64,
                max: MAX_SLOTS as u64,
            });
        }
        Ok(Impacts {
            offset,
            base: (0..n).map(|v| store.base(VarId(v as u32))).collect(),
            mean: vec![0.0; total],
            trials: vec![0; total],
            log_before: 0.0,
        })
    }

    fn slot(&self, var: VarId, value: i32) -> usize {
        let i = var.index();
        self.offset[i] + (i64::from(value) - i64::from(self.base[i])) as usize
    }

    /// A node is about to run its inference: keep `ln P`.
    #[inline]
    pub(in crate::search) fn before(&mut self, store: &Store) {
        self.log_before = log_space(store);
    }

    /// The node `var = value` ran its inference; `holds`: it did not fail.
    pub(in crate::search) fn after(&mut self, var: VarId, value: i32, holds: bool, store: &Store) {
        let impact = if holds {
            1.0 - (log_space(store) - self.log_before).exp()
        } else {
            1.0
        };
        let slot = self.slot(var, value);
        self.trials[slot] += 1;
        self.mean[slot] += (impact - self.mean[slot]) / f64::from(self.trials[slot]);
    }

    /// The search space assigning `var` would leave: `1 - impact` summed over its values.
    pub(in crate::search) fn remaining(&self, var: VarId, store: &Store) -> f64 {
        store
            .values(var)
            .map(|a| 1.0 - self.mean[self.slot(var, a)])
            .sum()
    }
}

/// `ln P`: the logarithm of the product of the domain sizes (all non-zero).
fn log_space(store: &Store) -> f64 {
    store.sizes().iter().map(|&s| f64::from(s.max(1)).ln()).sum()
}
