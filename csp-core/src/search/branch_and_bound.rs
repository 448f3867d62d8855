//! Branch and bound over an objective ([`Solver::optimize`]). The search is the usual
//! one, under a bound on the objective's variable that each solution tightens: after a
//! solution of value `c`, a better one must have at most `c - 1` (minimising) or at
//! least `c + 1` (maximising). The bound holds at every level from then on, across
//! backtracking and restarts:
//!
//! - before each node's inference, the objective's domain loses the values the bound
//!   excludes, trailed like any pruning, so that forward checking and MAC propagate
//!   from it ([`Solver::prune_to_bound`], called by `decide`);
//! - a level whose domains (the store at its frame's mark) leave the objective no value
//!   within the bound is finished at once, and values of the objective beyond the bound
//!   are skipped, as inference `none` skips a value that disagrees with an assigned
//!   neighbour: neither is a node ([`Solver::next_value_in_bound`]);
//! - at the root of each restart the bound prunes for good: the root only tightens.
//!
//! A subtree finished under a bound holds no better solution than that bound allows, and
//! bounds only tighten, so the nogoods restarts record stay valid. A level rebuilt by
//! replay (`recompute.rs`) must prune what its decision pruned when it was made: the
//! bound each level's decision was made under is kept for that.

use super::Solver;
use super::driver::{Phase, Step};
use crate::config::ConfigError;
use crate::model::Objective;
use crate::stats::LimitKind;
use crate::store::Store;
use crate::var::VarId;

/// What [`Solver::optimize`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Optimum {
    /// The best solution found (one value per variable, in index order), if any.
    pub best: Option<Vec<i32>>,
    /// Its objective value.
    pub objective: Option<i64>,
    /// Whether the search space was exhausted: `best` is optimal, or there is no solution
    /// at all (`best` is `None`). `false` when a limit or the callback stopped the search.
    pub proved: bool,
    /// The limit that stopped the search, if one did.
    pub limit: Option<LimitKind>,
    /// The best objective value any solution can have, as proved so far: a lower bound
    /// when minimising, an upper bound when maximising (the objective's bound at the root
    /// of the search, after propagation and the nogoods of restarts). The optimum when
    /// `proved`; `None` when nothing is known (or there is no solution).
    pub bound: Option<i64>,
}

/// The objective values a better solution may have: `lo..=hi`, open on one side (the
/// objective only ever gets a bound on one side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Window {
    lo: i64,
    hi: i64,
}

impl Window {
    /// Before the first solution: every value.
    const ANY: Window = Window {
        lo: i64::MIN,
        hi: i64::MAX,
    };

    #[inline]
    fn allows(self, value: i32) -> bool {
        (self.lo..=self.hi).contains(&i64::from(value))
    }

    /// Whether `var`'s (non-empty) domain has a value inside. One side is open: the
    /// domain's bound on the other side decides.
    #[inline]
    fn meets(self, store: &Store, var: VarId) -> bool {
        if self.hi < i64::MAX {
            store.min(var).is_some_and(|min| i64::from(min) <= self.hi)
        } else if self.lo > i64::MIN {
            store.max(var).is_some_and(|max| i64::from(max) >= self.lo)
        } else {
            true
        }
    }

    /// The values inside among `base..base + 64`, as the bits of a domain word.
    fn word_mask(self, base: i32) -> u64 {
        (0..64)
            .filter(|&bit| self.allows_i64(i64::from(base) + bit))
            .fold(0, |mask, bit| mask | 1 << bit)
    }

    fn allows_i64(self, value: i64) -> bool {
        (self.lo..=self.hi).contains(&value)
    }
}

/// The state of a branch and bound: the objective, its bound and the best solution.
pub(super) struct BranchAndBound {
    objective: Objective,
    pub(super) var: VarId,
    /// The bound in force now.
    window: Window,
    best: Option<Vec<i32>>,
    best_value: Option<i64>,
    /// The bound each level's current decision was made under, by level (a search is at
    /// most one level per variable deep).
    decided_under: Vec<Window>,
    /// The objective's best value at the root, the last time the search was there.
    root_bound: Option<i64>,
}

impl BranchAndBound {
    fn new(objective: Objective, num_vars: usize) -> BranchAndBound {
        BranchAndBound {
            var: objective.var(),
            objective,
            window: Window::ANY,
            best: None,
            best_value: None,
            decided_under: vec![Window::ANY; num_vars],
            root_bound: None,
        }
    }

    /// A solution of objective value `value`, better than any before: the bound moves
    /// strictly past it.
    pub(super) fn improve(&mut self, solution: &[i32], value: i64) {
        debug_assert!(self.window.allows_i64(value), "a solution outside the bound");
        self.window = match self.objective {
            Objective::Minimize(_) => Window {
                lo: i64::MIN,
                hi: value - 1,
            },
            Objective::Maximize(_) => Window {
                lo: value + 1,
                hi: i64::MAX,
            },
        };
        self.best = Some(solution.to_vec());
        self.best_value = Some(value);
    }
}

impl Solver<'_> {
    /// Branch and bound on the model's objective ([`crate::Model::minimize`],
    /// [`crate::Model::maximize`]): solutions strictly better each time, until the search
    /// space is exhausted (the last one is optimal: `proved`) or a limit stops the search
    /// (`limits.solutions` counts the improvements), which returns the best so far.
    ///
    /// Call it on a fresh solver; after a limit, calling it again goes on where the search
    /// stopped. Once it has run, the bound stays on the solver's search: [`Solver::solve`]
    /// and the others then find only solutions better than the best. Without optimisation,
    /// `solve`, `count` and `solutions` ignore the objective: counting a model with an
    /// objective counts the solutions of its constraints.
    ///
    /// Errors: [`ConfigError::NoObjective`] if the model has none,
    /// [`ConfigError::SearchStarted`] if the solver searched already without it.
    ///
    /// ```
    /// use csp_core::{Cmp, Model, SearchConfig, Solver};
    /// // Two items of weights 3 and 4 and values 5 and 6, a capacity of 5: take the best.
    /// let mut m = Model::new();
    /// let take = m.int_vars(2, 0, 1).unwrap();
    /// let value = m.int_var(0, 11).unwrap();
    /// m.linear(&[(3, take[0]), (4, take[1])], Cmp::Le, 5).unwrap();
    /// m.linear_var(&[(5, take[0]), (6, take[1])], Cmp::Eq, value).unwrap();
    /// m.maximize(value).unwrap();
    /// let mut solver = Solver::new(&m, SearchConfig::with_strategy("mrv/asc/mac".parse().unwrap())).unwrap();
    /// let optimum = solver.optimize().unwrap();
    /// assert_eq!(optimum.best, Some(vec![0, 1, 6]));
    /// assert_eq!(optimum.objective, Some(6));
    /// assert!(optimum.proved && optimum.limit.is_none());
    /// assert_eq!(solver.stats().objective, Some(6));
    /// assert!(solver.stats().nodes_to_proof.is_some());
    /// ```
    pub fn optimize(&mut self) -> Result<Optimum, ConfigError> {
        self.optimize_with(|_, _| true)
    }

    /// [`Solver::optimize`], calling `on_improvement(solution, objective)` at each strictly
    /// better solution as soon as it is found. Returning `false` stops the search: the
    /// optimum is then the best so far, not proved.
    pub fn optimize_with(
        &mut self,
        on_improvement: impl FnMut(&[i32], i64) -> bool,
    ) -> Result<Optimum, ConfigError> {
        let objective = self.model.objective().ok_or(ConfigError::NoObjective)?;
        self.branch_and_bound(objective, on_improvement)
    }

    /// [`Solver::optimize`] for the smallest value of `var`, whatever the model's objective.
    pub fn minimize(&mut self, var: VarId) -> Result<Optimum, ConfigError> {
        self.branch_and_bound(Objective::Minimize(var), |_, _| true)
    }

    /// [`Solver::optimize`] for the largest value of `var`, whatever the model's objective.
    pub fn maximize(&mut self, var: VarId) -> Result<Optimum, ConfigError> {
        self.branch_and_bound(Objective::Maximize(var), |_, _| true)
    }

    fn branch_and_bound(
        &mut self,
        objective: Objective,
        on_improvement: impl FnMut(&[i32], i64) -> bool,
    ) -> Result<Optimum, ConfigError> {
        self.branch_and_bound_for(objective, None, on_improvement)
    }

    /// [`Solver::optimize_with`] for at most `budget` more nodes (`None`: no budget), for
    /// a caller that takes turns with other work (large neighbourhood search): a budget spent ends
    /// with the limit [`LimitKind::Nodes`], and the next call goes on where this one
    /// stopped.
    pub(crate) fn branch_and_bound_for(
        &mut self,
        objective: Objective,
        budget: Option<u64>,
        mut on_improvement: impl FnMut(&[i32], i64) -> bool,
    ) -> Result<Optimum, ConfigError> {
        let var = objective.var();
        if var.index() >= self.model.num_vars() {
            return Err(ConfigError::UnknownObjectiveVariable {
                index: var.index(),
                count: self.model.num_vars(),
            });
        }
        match &self.bound {
            Some(bound) if bound.objective == objective => {}
            Some(_) => return Err(ConfigError::SearchStarted),
            None if matches!(self.phase, Phase::Fresh | Phase::Stopped(_)) => {
                self.bound = Some(BranchAndBound::new(objective, self.model.num_vars()));
            }
            None => return Err(ConfigError::SearchStarted),
        }
        let own = self.config.limits.nodes;
        if let Some(budget) = budget {
            let cap = self.stats.nodes.saturating_add(budget);
            self.config.limits.nodes = Some(own.map_or(cap, |n| n.min(cap)));
        }
        let optimum = self.improve_until_done(var, &mut on_improvement);
        self.config.limits.nodes = own;
        Ok(optimum)
    }

    fn improve_until_done(
        &mut self,
        var: VarId,
        on_improvement: &mut impl FnMut(&[i32], i64) -> bool,
    ) -> Optimum {
        let limit = loop {
            if self.solution_cap_reached() {
                break LimitKind::Solutions;
            }
            match self.advance() {
                Step::Solution => {
                    let value = i64::from(self.state.value[var.index()]);
                    let bound = self.bound.as_mut().expect("installed above");
                    bound.improve(&self.state.value, value);
                    self.stats.objective = Some(value);
                    self.stats.nodes_to_best = Some(self.stats.nodes);
                    if !on_improvement(&self.state.value, value) {
                        return self.optimum(false, None);
                    }
                }
                Step::Exhausted => {
                    self.stats.nodes_to_proof = Some(self.stats.nodes);
                    return self.optimum(true, None);
                }
                Step::Limit(kind) => break kind,
            }
        };
        self.optimum(false, Some(limit))
    }

    fn optimum(&self, proved: bool, limit: Option<LimitKind>) -> Optimum {
        let bound = self.bound.as_ref().expect("an optimisation");
        Optimum {
            best: bound.best.clone(),
            objective: bound.best_value,
            proved,
            limit,
            bound: if proved {
                bound.best_value
            } else {
                bound.root_bound
            },
        }
    }

    /// Takes `solution`, of objective value `value`, found elsewhere (by large neighbourhood
    /// search) as the best so far if it is better than the best: the bound moves past it,
    /// as if the search had found it. Installs the bound on a solver that has none yet.
    pub(crate) fn adopt_incumbent(&mut self, objective: &Objective, solution: &[i32], value: i64) {
        let n = self.model.num_vars();
        let bound = self
            .bound
            .get_or_insert_with(|| BranchAndBound::new(objective.clone(), n));
        debug_assert!(bound.objective == *objective, "one objective per solver");
        if bound.window.allows_i64(value) {
            bound.improve(solution, value);
            self.stats.objective = Some(value);
        }
    }

    /// The objective's best value at the root of the search (see [`Optimum::bound`]).
    pub(crate) fn root_bound(&self) -> Option<i64> {
        self.bound.as_ref().and_then(|b| b.root_bound)
    }

    /// The search is at the root (after its propagation, or a restart's nogoods): the
    /// objective's best value there is a proved bound.
    pub(super) fn note_root_bound(&mut self) {
        if let Some(bound) = &mut self.bound {
            let best = match bound.objective {
                Objective::Minimize(var) => self.store.min(var),
                Objective::Maximize(var) => self.store.max(var),
            };
            if let Some(best) = best {
                bound.root_bound = Some(i64::from(best));
            }
        }
    }

    /// Records the bound the decision at `level` is made under (a node, or a forced
    /// assignment), for its replay.
    #[inline]
    pub(super) fn note_decision(&mut self, level: usize) {
        if let Some(bound) = &mut self.bound {
            bound.decided_under[level] = bound.window;
        }
    }

    /// Prunes the objective's domain to the bound the decision at `level` was made under,
    /// before that decision's inference; under MAC the change is announced. Returns the
    /// number of values removed, or `None` if none is left.
    #[inline(always)]
    pub(super) fn prune_to_bound(&mut self, level: usize) -> Option<u32> {
        match &self.bound {
            None => Some(0),
            Some(bound) => {
                let (var, window) = (bound.var, bound.decided_under[level]);
                self.prune_objective(var, window)
            }
        }
    }

    /// At the root of a restart: the bound in force prunes for good. Returns `false` if
    /// that leaves no solution.
    pub(super) fn prune_root_to_bound(&mut self) -> bool {
        let Some(bound) = &self.bound else {
            return true;
        };
        let (var, window) = (bound.var, bound.window);
        match self.prune_objective(var, window) {
            None => false,
            Some(0) => true,
            Some(_) => !self.plan.mac || self.fixpoint(),
        }
    }

    /// Removes the values of `var` outside `window`. Returns how many, or `None` if none
    /// is left.
    #[cold]
    #[inline(never)]
    fn prune_objective(&mut self, var: VarId, window: Window) -> Option<u32> {
        if window == Window::ANY || !self.bound_cuts(var, window) {
            return Some(0);
        }
        let removed = self.store.retain_range(var, window.lo, window.hi);
        self.stats.pruned += u64::from(removed);
        if self.store.size(var) == 0 {
            return None;
        }
        if self.plan.mac && !self.state.assigned[var.index()] {
            self.engine
                .announce_change(&self.network, &self.store, &self.state.assigned, var, None);
        }
        Some(removed)
    }

    /// Whether `var`'s domain has a value outside `window` (read at its open side).
    fn bound_cuts(&self, var: VarId, window: Window) -> bool {
        let below = window.lo > i64::MIN && self.store.min(var).is_some_and(|min| i64::from(min) < window.lo);
        let above = window.hi < i64::MAX && self.store.max(var).is_some_and(|max| i64::from(max) > window.hi);
        below || above
    }

    /// The top frame's next value within the bound, or `None`: when its values run out,
    /// and at once when its level leaves the objective no value within the bound (every
    /// branch would fail). A value of the objective beyond the bound is skipped: it is
    /// never a node.
    #[inline(always)]
    pub(super) fn next_value_in_bound(&mut self) -> Option<i32> {
        match &self.bound {
            None => self.next_value(),
            Some(_) => self.next_value_bounded(),
        }
    }

    /// [`Solver::next_value_in_bound`] when optimising: out of line (cold), so that the
    /// search without an objective keeps its loop as it was.
    #[cold]
    #[inline(never)]
    fn next_value_bounded(&mut self) -> Option<i32> {
        let bound = self.bound.as_ref().expect("optimising");
        let (var, window) = (bound.var, bound.window);
        if window == Window::ANY {
            return self.next_value();
        }
        if !window.meets(&self.store, var) {
            return None;
        }
        loop {
            let value = self.next_value()?;
            if window.allows(value) || self.state.frames.last().expect("a frame").var != var {
                return Some(value);
            }
        }
    }

    /// The objective's variable once a bound is in force (backjumping blames what limits
    /// its domain when a level ends).
    pub(super) fn objective_var(&self) -> Option<VarId> {
        self.bound
            .as_ref()
            .filter(|b| b.window != Window::ANY)
            .map(|b| b.var)
    }

    /// For the compiled forward-checking loop (one word per domain at `base`): the
    /// objective's variable and the bits of its word within the bound, once there is a
    /// bound.
    pub(super) fn bound_word(&self, base: i32) -> Option<(usize, u64)> {
        let bound = self.bound.as_ref().filter(|b| b.window != Window::ANY)?;
        Some((bound.var.index(), bound.window.word_mask(base)))
    }
}
