//! Large neighbourhood search (Shaw 1998) for optimisation, on one thread, taking turns
//! with the complete search that proves optimality.
//!
//! The complete search is the branch and bound of [`Solver::optimize`], run in slices of
//! nodes. Once it has a solution, each of its slices is followed by a slice of LNS: a
//! second solver, on the same model, searches neighbourhoods of the best solution (the
//! incumbent) for a better one, each with a small node budget. A neighbourhood fixes most
//! decision variables to the incumbent's values and leaves a few free; which ones is the
//! business of the neighbourhood kinds (`neighbourhoods/`): random, propagation-guided
//! and reverse propagation-guided (Perron, Shaw and Furnon, CP 2004), and objective-guided.
//! `portfolio.rs` picks the kind by how often each improved, and sizes the neighbourhoods
//! so that most are searched to the end within their budget. Every better solution LNS
//! finds tightens the complete search's bound at once, and every one the complete search
//! finds becomes LNS's incumbent: the complete search still proves the optimum, and may
//! prove it sooner.
//!
//! A neighbourhood that fixes nothing is the whole problem: when LNS exhausts one without a
//! better solution, the incumbent is optimal. The statistics are the sum of both searches
//! (the node contract in docs/heuristics.md); `lns_nodes` is LNS's part.

mod fixer;
mod graph;
mod neighbourhoods;
mod portfolio;

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::config::{ConfigError, Inference, SearchConfig, ValueOrder, VarOrder};
use crate::model::{Model, Objective};
use crate::search::{Optimum, SliceEnd, Solver};
use crate::stats::{LimitKind, Stats};
use crate::var::VarId;
use fixer::{Fixer, FixerScratch};
use graph::VarGraph;
pub use neighbourhoods::NeighbourhoodKind;
use portfolio::Portfolio;

/// How large neighbourhood search runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LnsConfig {
    /// The variables neighbourhoods fix or free: the problem's own, without the auxiliary
    /// variables a front end adds (those follow from them). `None`: every variable. The
    /// objective's variable is never fixed.
    pub decision_vars: Option<Vec<VarId>>,
    /// The kinds of neighbourhood to choose from. Default: all of them.
    pub kinds: Vec<NeighbourhoodKind>,
    /// The failures (backtracks) one neighbourhood may take: a fail limit, not a node limit,
    /// since a neighbourhood's nodes are mostly the assignments propagation forces. Default:
    /// 100.
    pub neighbourhood_failures: u64,
    /// The complete search's first turn, in nodes (each next one a fifth longer, up to
    /// 200,000); LNS's turns take as many nodes, less when it stops improving. Default:
    /// 1,000.
    pub complete_nodes: u64,
    /// Seed of LNS's own random choices. Default: 0.
    pub seed: u64,
}

impl Default for LnsConfig {
    fn default() -> Self {
        LnsConfig {
            decision_vars: None,
            kinds: NeighbourhoodKind::ALL.to_vec(),
            neighbourhood_failures: 100,
            complete_nodes: 1_000,
            seed: 0,
        }
    }
}

/// What LNS did, besides the statistics of its searches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LnsReport {
    /// For each kind of neighbourhood used: how many were searched, and how many gave a
    /// better solution.
    pub kinds: Vec<(NeighbourhoodKind, u64, u64)>,
}

/// The most a turn of the complete search grows to: it grows by a fifth each turn, so that
/// the proof gets longer stretches as the run goes on.
const MAX_SLICE: u64 = 200_000;
/// LNS's least turn, as a share of the complete search's.
const MIN_SHARE: f64 = 0.1;

/// Branch and bound with large neighbourhood search; see the module's documentation.
///
/// ```
/// use csp_core::{Cmp, LnsConfig, LnsSolver, Model, SearchConfig};
/// // Six items, a capacity of 10: the most value.
/// let (weights, values) = ([2, 3, 4, 5, 6, 7], [3, 4, 6, 7, 9, 10]);
/// let mut m = Model::new();
/// let take = m.int_vars(6, 0, 1).unwrap();
/// let value = m.int_var(0, 39).unwrap();
/// let w: Vec<_> = weights.iter().zip(&take).map(|(&w, &x)| (w, x)).collect();
/// let v: Vec<_> = values.iter().zip(&take).map(|(&v, &x)| (v, x)).collect();
/// m.linear(&w, Cmp::Le, 10).unwrap();
/// m.linear_var(&v, Cmp::Eq, value).unwrap();
/// m.maximize(value).unwrap();
/// let config = SearchConfig::with_strategy("dom-wdeg/asc/mac".parse().unwrap());
/// let mut lns = LnsSolver::new(&m, config, LnsConfig::default()).unwrap();
/// let optimum = lns.optimize().unwrap();
/// assert_eq!((optimum.objective, optimum.proved), (Some(15), true));
/// ```
pub struct LnsSolver<'m> {
    complete: Solver<'m>,
    sub: Solver<'m>,
    objective: Objective,
    /// The user's limits on nodes and improvements, which count both searches.
    max_nodes: Option<u64>,
    max_solutions: Option<u64>,
    decision: Vec<VarId>,
    graph: VarGraph,
    terms: Vec<(i64, VarId)>,
    portfolio: Portfolio,
    neighbourhood_failures: u64,
    first_slice: u64,
    rng: ChaCha8Rng,
    scratch: FixerScratch,
    incumbent: Option<(Vec<i32>, i64)>,
    /// Better solutions found, by either search.
    improvements: u64,
    stats: Stats,
    started: Instant,
}

/// How a turn of either search ended, when it ends the run.
enum Stop {
    /// The incumbent is optimal, or there is no solution.
    Proved,
    Limit(LimitKind),
    /// The improvement callback asked to stop.
    Asked,
}

impl<'m> LnsSolver<'m> {
    /// Prepares both searches. The complete one runs `config` as given (restarts
    /// included); LNS's runs the same variable order, with dom/wdeg in place of an order
    /// that needs restarts, maintained arc consistency, the incumbent's values first, no
    /// restarts and no backjumping.
    ///
    /// Errors: those of [`Solver::new`], [`ConfigError::NoObjective`] and
    /// [`ConfigError::UnknownDecisionVariable`].
    pub fn new(model: &'m Model, config: SearchConfig, lns: LnsConfig) -> Result<LnsSolver<'m>, ConfigError> {
        let started = Instant::now();
        let objective = model.objective().ok_or(ConfigError::NoObjective)?;
        let (max_nodes, max_solutions) = (config.limits.nodes, config.limits.solutions);
        let mut inner = config.clone();
        inner.limits.nodes = None;
        inner.limits.solutions = None;
        let complete = Solver::new(model, inner.clone())?;
        let sub = Solver::new(model, neighbourhood_config(inner))?;
        let objective_var = objective.var();
        let count = model.num_vars();
        if let Some(v) = lns.decision_vars.iter().flatten().find(|v| v.index() >= count) {
            return Err(ConfigError::UnknownDecisionVariable {
                index: v.index(),
                count,
            });
        }
        let decision: Vec<VarId> = match lns.decision_vars {
            Some(vars) => vars,
            None => model.vars().collect(),
        }
        .into_iter()
        .filter(|&v| v != objective_var && model.fixed(v).is_none())
        .collect();
        let graph = VarGraph::of(model, lns.seed);
        // The worst terms are the largest `weight * value`: negated when maximising.
        let mut terms = neighbourhoods::objective_terms(model, objective_var, &decision);
        if let Objective::Maximize(_) = objective {
            terms.iter_mut().for_each(|(w, _)| *w = w.saturating_neg());
        }
        let scratch = FixerScratch::new(model.num_vars(), &decision);
        Ok(LnsSolver {
            complete,
            sub,
            objective,
            max_nodes,
            max_solutions,
            portfolio: Portfolio::new(&lns.kinds, decision.len()),
            graph,
            terms,
            decision,
            neighbourhood_failures: lns.neighbourhood_failures.max(1),
            first_slice: lns.complete_nodes.max(1),
            rng: ChaCha8Rng::seed_from_u64(lns.seed),
            scratch,
            incumbent: None,
            improvements: 0,
            stats: Stats::default(),
            started,
        })
    }

    /// [`Solver::optimize`] with LNS.
    pub fn optimize(&mut self) -> Result<Optimum, ConfigError> {
        self.optimize_with(|_, _| true)
    }

    /// [`Solver::optimize_with`] with LNS: `on_improvement(solution, objective)` at each
    /// better solution, whichever search found it; `false` stops the run.
    pub fn optimize_with(
        &mut self,
        mut on_improvement: impl FnMut(&[i32], i64) -> bool,
    ) -> Result<Optimum, ConfigError> {
        let mut slice = self.first_slice;
        let mut share = 1.0f64;
        let stop = loop {
            let Some(budget) = self.budget(slice) else {
                break Stop::Limit(LimitKind::Nodes);
            };
            if let Some(stop) = self.complete_turn(budget, &mut on_improvement)? {
                break stop;
            }
            if self.incumbent.is_some() {
                let Some(budget) = self.budget(((slice as f64) * share) as u64) else {
                    break Stop::Limit(LimitKind::Nodes);
                };
                let before = self.stats.lns_solutions;
                if let Some(stop) = self.lns_turn(budget, &mut on_improvement) {
                    break stop;
                }
                // A turn that improved nothing halves LNS's next one, down to a tenth of the
                // complete search's: once the incumbent is optimal, the proof is all that is
                // left to do.
                share = if self.stats.lns_solutions > before {
                    1.0
                } else {
                    (share * 0.5).max(MIN_SHARE)
                };
            }
            slice = (slice + slice.div_ceil(5)).min(MAX_SLICE.max(self.first_slice));
        };
        self.finish_stats();
        let (best, objective) = match &self.incumbent {
            Some((s, v)) => (Some(s.clone()), Some(*v)),
            None => (None, None),
        };
        let proved = matches!(stop, Stop::Proved);
        if proved {
            self.stats.nodes_to_proof = Some(self.stats.nodes);
        }
        Ok(Optimum {
            best,
            objective,
            proved,
            limit: match stop {
                Stop::Limit(kind) => Some(kind),
                Stop::Proved | Stop::Asked => None,
            },
            bound: if proved { objective } else { self.bound() },
        })
    }

    /// The statistics so far: both searches' figures added up.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// How each kind of neighbourhood fared.
    pub fn report(&self) -> LnsReport {
        LnsReport {
            kinds: self.portfolio.report(),
        }
    }

    /// The nodes the next turn may take: `wanted`, within the user's node limit; `None`
    /// when that limit is reached.
    fn budget(&mut self, wanted: u64) -> Option<u64> {
        self.finish_stats();
        match self.max_nodes {
            Some(max) if self.stats.nodes >= max => None,
            Some(max) => Some(wanted.clamp(1, max - self.stats.nodes)),
            None => Some(wanted.max(1)),
        }
    }

    /// A turn of the complete search. `Some` when it ends the run.
    fn complete_turn(
        &mut self,
        budget: u64,
        on_improvement: &mut impl FnMut(&[i32], i64) -> bool,
    ) -> Result<Option<Stop>, ConfigError> {
        let mut found: Option<(Vec<i32>, i64)> = None;
        let mut asked = false;
        let optimum = self
            .complete
            .branch_and_bound_for(self.objective.clone(), Some(budget), |s, v| {
                found = Some((s.to_vec(), v));
                false
            })?;
        if let Some((solution, value)) = found {
            let keep_going = self.improved(solution, value, false, on_improvement);
            asked = !keep_going;
        }
        Ok(if asked {
            Some(Stop::Asked)
        } else if optimum.proved {
            Some(Stop::Proved)
        } else {
            match optimum.limit {
                Some(LimitKind::Nodes) | None => self.solutions_reached(),
                Some(kind) => Some(Stop::Limit(kind)),
            }
        })
    }

    /// A turn of LNS: neighbourhoods of the incumbent, one after the other, until
    /// `budget` nodes are spent. `Some` when it ends the run.
    fn lns_turn(
        &mut self,
        budget: u64,
        on_improvement: &mut impl FnMut(&[i32], i64) -> bool,
    ) -> Option<Stop> {
        let start = self.sub.stats().nodes;
        while self.sub.stats().nodes - start < budget {
            let left = budget - (self.sub.stats().nodes - start);
            if let Some(stop) = self.neighbourhood(left, on_improvement) {
                return Some(stop);
            }
        }
        None
    }

    /// Searches one neighbourhood of the incumbent, with at most `left` nodes.
    fn neighbourhood(
        &mut self,
        left: u64,
        on_improvement: &mut impl FnMut(&[i32], i64) -> bool,
    ) -> Option<Stop> {
        let (incumbent, value) = self.incumbent.clone().expect("LNS starts from a solution");
        if !self.sub.open_neighbourhood(&self.objective, &incumbent, value) {
            // The model has a solution, the incumbent: only a limit that stopped this
            // solver while it compiled the model leaves it without a root.
            return Some(Stop::Limit(self.sub.stopped_by().unwrap_or(LimitKind::Time)));
        }
        let kind = self.portfolio.pick(&mut self.rng);
        let free = self.portfolio.free_target();
        let mut fixer = Fixer::new(&mut self.sub, &mut self.scratch, &self.decision, &incumbent, free);
        neighbourhoods::fix(kind, &mut fixer, &mut self.graph, &self.terms, &mut self.rng);
        let fixed = fixer.fixed();
        let (start, failures) = (self.sub.stats().nodes, self.sub.stats().backtracks);
        let mut improved = false;
        let bounded = self.sub.bound_neighbourhood();
        let end = loop {
            if !bounded {
                break SliceEnd::Exhausted;
            }
            let nodes = left.saturating_sub(self.sub.stats().nodes - start);
            let failed = self.sub.stats().backtracks - failures;
            let budget = self.neighbourhood_failures.saturating_sub(failed);
            if nodes == 0 || budget == 0 {
                break SliceEnd::Budget;
            }
            match self.sub.search_neighbourhood(nodes, budget) {
                SliceEnd::Improved(value) => {
                    improved = true;
                    let solution = self.sub.solution().to_vec();
                    if !self.improved(solution, value, true, on_improvement) {
                        self.sub.close_neighbourhood();
                        return Some(Stop::Asked);
                    }
                    if let Some(stop) = self.solutions_reached() {
                        self.sub.close_neighbourhood();
                        return Some(stop);
                    }
                }
                end => break end,
            }
        };
        self.sub.close_neighbourhood();
        log::debug!(
            "neighbourhood {}: {kind}, {fixed} fixed for {free} free, {} nodes, {end:?}{}",
            self.stats.neighbourhoods,
            self.sub.stats().nodes - start,
            if improved { ", improved" } else { "" }
        );
        self.stats.neighbourhoods += 1;
        self.portfolio.record(kind, improved, end == SliceEnd::Exhausted);
        match end {
            // Nothing fixed: the neighbourhood was the whole problem.
            SliceEnd::Exhausted if fixed == 0 => Some(Stop::Proved),
            SliceEnd::Limit(kind) => Some(Stop::Limit(kind)),
            _ => None,
        }
    }

    /// A better solution from either search (`by_lns`): the new incumbent, the other
    /// search's bound, the callback. Returns the callback's answer.
    fn improved(
        &mut self,
        solution: Vec<i32>,
        value: i64,
        by_lns: bool,
        on_improvement: &mut impl FnMut(&[i32], i64) -> bool,
    ) -> bool {
        if self
            .incumbent
            .as_ref()
            .is_some_and(|(_, best)| !self.better(value, *best))
        {
            return true;
        }
        if by_lns {
            self.complete.adopt_incumbent(&self.objective, &solution, value);
            self.stats.lns_solutions += 1;
        }
        self.finish_stats();
        self.stats.objective = Some(value);
        self.stats.nodes_to_best = Some(self.stats.nodes);
        let keep_going = on_improvement(&solution, value);
        self.incumbent = Some((solution, value));
        self.improvements += 1;
        keep_going
    }

    fn better(&self, value: i64, than: i64) -> bool {
        match self.objective {
            Objective::Minimize(_) => value < than,
            Objective::Maximize(_) => value > than,
        }
    }

    /// Whether the user's cap on improvements is reached.
    fn solutions_reached(&self) -> Option<Stop> {
        self.max_solutions
            .filter(|&max| self.improvements >= max)
            .map(|_| Stop::Limit(LimitKind::Solutions))
    }

    /// The proved bound: the complete search's root.
    fn bound(&self) -> Option<i64> {
        self.complete.root_bound()
    }

    /// Both searches' statistics, added up, into `self.stats` (the run's own figures kept).
    fn finish_stats(&mut self) {
        let mut total = self.complete.stats().clone();
        let sub = self.sub.stats();
        total.accumulate(sub);
        total.lns_nodes = sub.nodes;
        total.neighbourhoods = self.stats.neighbourhoods;
        total.lns_solutions = self.stats.lns_solutions;
        total.objective = self.stats.objective;
        total.nodes_to_best = self.stats.nodes_to_best;
        total.nodes_to_proof = self.stats.nodes_to_proof;
        total.solutions = self.improvements;
        total.elapsed = self.started.elapsed();
        self.stats = total;
    }
}

/// The configuration of LNS's solver, from the complete search's: see [`LnsSolver::new`].
fn neighbourhood_config(mut config: SearchConfig) -> SearchConfig {
    if config.restarts.is_some() || config.strategy.var_order == VarOrder::RunRobin {
        config.strategy.var_order = VarOrder::DomWdeg;
    }
    config.strategy.inference = Inference::Mac;
    config.strategy.value_order = ValueOrder::Saved;
    config.restarts = None;
    config.backjump = crate::config::Backjump::None;
    config.max_trail = usize::MAX;
    config.trace = None;
    config.live_stats = None;
    config.seed = config.seed.wrapping_add(1);
    config
}

#[cfg(test)]
mod tests;
