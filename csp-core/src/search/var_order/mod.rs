//! Variable orders, one file per heuristic. The plan picks a [`VarSelection`] once per
//! search; this module dispatches on it once per decision (a closed set: no dynamic
//! dispatch). Adding an order is a new file here, a [`crate::VarOrder`] arm and, if it
//! has a fast path, a [`VarSelection`] arm chosen in the plan.

pub(super) mod activity;
pub(super) mod chs;
pub(super) mod dom_wdeg;
pub(super) mod frb_dom;
pub(super) mod frba_dom;
pub(super) mod general;
pub(super) mod impact;
pub(super) mod mrv;
pub(super) mod mrv_degree;
pub(super) mod pick_dom;
pub(super) mod run_robin;
pub(super) mod scored;
pub(super) mod static_order;
pub(super) mod wdeg_cacd;

use std::time::Instant;

use super::Solver;
use super::driver::clock_hit;
use super::inference::none::Legality;
use crate::config::{Inference, Limits, TieBreak, VarOrder};
use crate::stats::LimitKind;
use crate::store::Store;
use crate::var::VarId;

/// How the next variable is chosen, decided once per search.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum VarSelection {
    /// The next unassigned variable after the last decision's.
    Static,
    /// MRV under inference (legal values = domain size), ties to the lowest index.
    Smallest,
    /// MRV under inference, ties at random.
    SmallestRandomTie,
    /// dom/wdeg under inference, ties to the lowest index.
    SmallestWeighted,
    /// Any other rule (MRV+degree, dom/wdeg with random ties, no inference), through
    /// the general scan.
    General,
    /// The learning orders and run robin, through [`scored`].
    Scored,
}

impl Solver<'_> {
    /// The variable to branch on next (there is an unassigned one).
    pub(super) fn select_var(&mut self) -> VarId {
        if let Some(lc) = &mut self.orders.last_conflict {
            if let Some(var) = lc.priority(&self.state.assigned) {
                return var;
            }
        }
        match self.plan.selection {
            VarSelection::Scored => self.select_scored(),
            VarSelection::Static => static_order::select(&self.state),
            VarSelection::Smallest => mrv::smallest_domain(&self.state, &self.store),
            VarSelection::SmallestRandomTie => {
                mrv::smallest_domain_random_tie(&self.state, &self.store, &mut self.rng)
            }
            VarSelection::SmallestWeighted => dom_wdeg::smallest_weighted_domain(
                &self.state,
                &self.store,
                &self.weights,
                self.plan.forced_runs,
            ),
            VarSelection::General => {
                let strategy = self.config.strategy;
                let rule = general::ScanRule {
                    use_degree: strategy.var_order == VarOrder::MrvDegree,
                    use_weights: strategy.var_order.weighs_failures(),
                    random_ties: self.config.tie_break == TieBreak::Random,
                    floor: u64::from(strategy.inference != Inference::None),
                };
                let inferring = strategy.inference != Inference::None;
                let legality = Legality::new(&self.network, self.props, &self.state, &self.store);
                let checks = &mut self.stats.checks;
                let store = &self.store;
                let mut counter =
                    LegalCounter::new(&self.config.limits, self.started, &mut self.selection_cut);
                general::scan(
                    &self.state,
                    rule,
                    self.degrees.as_ref(),
                    &self.weights.var_weight,
                    &mut self.rng,
                    |var| {
                        if inferring {
                            u64::from(store.size(var))
                        } else {
                            counter.count(var, &legality, checks, store)
                        }
                    },
                )
            }
        }
    }
}

/// Counts the legal values of the variables of one choice without inference, reading the
/// limits every 2^16 values: on domains of a million values one choice takes seconds.
/// Once a limit is hit, every variable left counts as none (a scan ends at the next one)
/// and the driver stops before it assigns anything.
pub(super) struct LegalCounter<'s> {
    limits: &'s Limits,
    started: Option<Instant>,
    scanned: u64,
    cut: &'s mut Option<LimitKind>,
}

impl<'s> LegalCounter<'s> {
    pub(super) fn new(limits: &'s Limits, started: Option<Instant>, cut: &'s mut Option<LimitKind>) -> Self {
        LegalCounter {
            limits,
            started,
            scanned: 0,
            cut,
        }
    }

    pub(super) fn count(
        &mut self,
        var: VarId,
        legality: &Legality<'_>,
        checks: &mut u64,
        store: &Store,
    ) -> u64 {
        if self.cut.is_some() {
            return 0;
        }
        self.scanned += u64::from(store.size(var));
        if self.scanned >= 1 << 16 {
            self.scanned = 0;
            *self.cut = clock_hit(self.limits, self.started);
            if self.cut.is_some() {
                return 0;
            }
        }
        legality.count(var, checks)
    }
}
