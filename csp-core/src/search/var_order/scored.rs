//! The scan behind the learning orders (`wdeg-cacd`, `chs`, `frb-dom`, `frba-dom`,
//! `pick-dom`, `activity`, `impact`, and `run-robin`, whose runs include `dom-wdeg`): one
//! pass over the unassigned variables, forced variables (one legal value) first, then the
//! largest score, each order's score from its own file. Ties go to the lowest index, or
//! uniformly at random among the tied variables (`--tie-break random`).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::{LegalCounter, frba_dom, run_robin};
use crate::config::{Inference, TieBreak, VarOrder};
use crate::search::Solver;
use crate::search::inference::none::Legality;
use crate::search::state::SearchState;
use crate::var::VarId;

/// The unassigned variable with the largest `score(var, legal)`, where `legal` counts its
/// legal values (at least 2 when `score` is asked); a variable with at most one legal value
/// wins over any score.
pub(in crate::search) fn best_scored(
    state: &SearchState,
    random_ties: bool,
    rng: &mut ChaCha8Rng,
    mut legal: impl FnMut(VarId) -> u64,
    mut score: impl FnMut(VarId, u64) -> f64,
) -> VarId {
    let mut best: Option<VarId> = None;
    let (mut best_forced, mut best_score, mut ties) = (false, f64::NEG_INFINITY, 0u32);
    for (w, &word) in state.open_vars.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let var = VarId((w * 64) as u32 + bits.trailing_zeros());
            bits &= bits - 1;
            let count = legal(var);
            let forced = count <= 1;
            if best_forced && !forced {
                continue;
            }
            let s = if forced { 0.0 } else { score(var, count) };
            let better = (forced && !best_forced) || best.is_none() || s > best_score;
            if better {
                if forced && !random_ties {
                    return var;
                }
                (best, best_forced, best_score, ties) = (Some(var), forced, s, 1);
            } else if random_ties && s == best_score {
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    best = Some(var);
                }
            }
        }
    }
    best.expect("an unassigned variable")
}

impl Solver<'_> {
    /// The order that chooses now: the configured one, or run robin's for this run.
    #[inline]
    fn order_now(&self) -> VarOrder {
        match self.config.strategy.var_order {
            VarOrder::RunRobin => run_robin::order_of_run(self.runs.run()),
            order => order,
        }
    }

    /// The learning orders' choice (see the module documentation).
    pub(in crate::search) fn select_scored(&mut self) -> VarId {
        let order = self.order_now();
        let inferring = self.config.strategy.inference != Inference::None;
        let random_ties = self.config.tie_break == TieBreak::Random;
        let legality = Legality::new(&self.network, self.props, &self.state, &self.store);
        let checks = &mut self.stats.checks;
        let (store, orders, weights) = (&self.store, &self.orders, &self.weights);
        let mut counter = LegalCounter::new(&self.config.limits, self.started, &mut self.selection_cut);
        let legal = |var: VarId| {
            if inferring {
                u64::from(store.size(var))
            } else {
                counter.count(var, &legality, checks, store)
            }
        };
        let score = |var: VarId, legal: u64| -> f64 {
            let per_value = |x: f64| x / legal as f64;
            let i = var.index();
            match order {
                VarOrder::DomWdeg => per_value(weights.var_weight[i] as f64),
                VarOrder::WdegCacd => {
                    let (cacd, scopes) = (orders.cacd.as_ref(), orders.scopes.as_ref());
                    per_value(cacd.zip(scopes).map_or(0.0, |(c, s)| c.weighted_degree(var, s)))
                }
                VarOrder::Chs => {
                    let (chs, scopes) = (orders.chs.as_ref(), orders.scopes.as_ref());
                    per_value(chs.zip(scopes).map_or(0.0, |(c, s)| c.weight(var, s)))
                }
                VarOrder::FrbDom => per_value(orders.failures.as_ref().map_or(0.0, |f| f.rate(var))),
                VarOrder::FrbaDom => per_value(
                    orders
                        .failures
                        .as_ref()
                        .map_or(0.0, |f| frba_dom::aged_rate(f, var)),
                ),
                VarOrder::PickDom => per_value(orders.picks.as_ref().map_or(0.0, |p| p.picks[i] as f64)),
                VarOrder::Activity => per_value(orders.activity.as_ref().map_or(0.0, |a| a.activity[i])),
                VarOrder::Impact => -orders.impact.as_ref().map_or(0.0, |m| m.remaining(var, store)),
                _ => 0.0,
            }
        };
        best_scored(&self.state, random_ties, &mut self.rng, legal, score)
    }
}
