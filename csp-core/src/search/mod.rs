//! Backtracking search: an explicit stack of choice frames over the trailed domain
//! store, so that a search can stop at a solution and resume (lazy enumeration),
//! go ten thousand levels deep without recursion, and never allocate per node once
//! its buffers have grown.
//!
//! The parts, each in its own file:
//! - [`plan`]: what is decided once per search (which selection, which loop);
//! - [`driver`]: the search loop, which calls the parts below and knows none of their rules;
//! - [`var_order`], [`value_order`], [`inference`]: one file per heuristic;
//! - [`frame`]: the choice points; [`state`]: which variables are assigned, to what;
//! - [`weights`]: constraint weights for dom/wdeg (and branching on places);
//! - [`restarts`] with the nogoods they record, [`probing`], [`places`],
//!   [`forced_runs`] and the [`compiled_fc`] loop;
//! - [`branch_and_bound`]: optimisation, a bound on the objective that each solution
//!   tightens;
//! - [`backjump`]: BJ and CBJ (Prosser 1993), conflict sets as bitsets of levels;
//! - [`tracing`]: the search tree, node by node, for a [`crate::Trace`]; [`hooks`]: where
//!   the loop calls backjumping and traces.
//!
//! Propagation itself (queues, fixpoint) is [`crate::propagation`]'s engine.

use std::sync::Arc;
use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::config::{Backjump, ConfigError, Inference, SearchConfig};
use crate::model::Model;
use crate::network::Network;
use crate::propagation::Propagator;
use crate::propagation::engine::Propagation;
use crate::stats::{Count, LimitKind, Outcome, Stats};
use crate::store::{Mark, Store};
use crate::var::VarId;

mod backjump;
mod branch_and_bound;
mod compiled_fc;
mod driver;
mod forced_runs;
mod frame;
mod hooks;
mod inference;
mod last_conflict;
mod neighbourhood;
mod order_state;
mod places;
mod plan;
mod probing;
mod recompute;
mod restarts;
mod root;
mod scopes;
mod state;
mod subproblem;
mod tracing;
mod value_order;
mod var_order;
mod weights;

#[cfg(test)]
mod tests;

use backjump::Backjumping;
use branch_and_bound::BranchAndBound;
pub use branch_and_bound::Optimum;
use driver::{Phase, Step, clock_hit};
pub(crate) use neighbourhood::SliceEnd;
use order_state::OrderState;
use plan::SearchPlan;
use restarts::RunCounter;
use state::SearchState;
pub(crate) use subproblem::Piece;
use tracing::TraceRecorder;
use value_order::lcv::Lcv;
use var_order::mrv_degree::UnassignedDegrees;
use weights::FailureWeights;
pub(crate) use weights::LearntWeights;

/// A backtracking search over one [`Model`].
///
/// ```
/// use csp_core::{Model, Outcome, SearchConfig, Solver, Strategy};
/// let mut m = Model::new();
/// let v = m.int_vars(3, 1, 3).unwrap();
/// m.all_different(&v).unwrap();
/// let mut solver = Solver::new(&m, SearchConfig::with_strategy("mrv/asc/fc".parse().unwrap())).unwrap();
/// assert_eq!(solver.solve(), Outcome::Solved(vec![1, 2, 3]));
/// assert_eq!(solver.count().solutions, 5, "the five other permutations");
/// ```
pub struct Solver<'m> {
    model: &'m Model,
    network: Arc<Network>,
    props: &'m [Arc<dyn Propagator>],
    config: SearchConfig,
    plan: SearchPlan,
    store: Store,
    state: SearchState,
    engine: Propagation,
    /// Constraint weights (dom/wdeg, places).
    weights: FailureWeights,
    /// What the learning orders, last-conflict reasoning and saved values keep.
    orders: OrderState,
    /// For mrv-degree: each variable's unassigned neighbours.
    degrees: Option<UnassignedDegrees>,
    /// Scratch for LCV.
    lcv: Lcv,
    /// The seeded generator of random tie-breaks and random value orders.
    rng: ChaCha8Rng,
    runs: RunCounter,
    stats: Stats,
    phase: Phase,
    /// The next step goes down: select a variable, or report a solution.
    descend: bool,
    /// A limit hit while a variable was being chosen (see `select_var`).
    selection_cut: Option<LimitKind>,
    /// A limit stopped the search just after it backed up from a node: the next step
    /// decides the restart that backing up may make, as if it had not stopped.
    backed_up: bool,
    root_mark: Mark,
    /// A rebuild of the top frame's level stopped by a limit: the levels replayed so far.
    rebuilding: Option<usize>,
    started: Option<Instant>,
    /// When [`Solver::new`] began: the clock of the time limit starts there.
    created: Instant,
    /// Scratch for checking a propagator on a complete assignment.
    check_values: Vec<i32>,
    /// The objective's bound and best solution, once [`Solver::optimize`] has begun.
    bound: Option<BranchAndBound>,
    /// Conflict sets, under backjumping (boxed, as the tracer: most searches have neither,
    /// and a small solver is cheaper to make and move).
    backjump: Option<Box<Backjumping>>,
    /// Where the nodes go, when traced.
    tracer: Option<Box<TraceRecorder>>,
    /// The fixings of the neighbourhood searched, in large neighbourhood search.
    fixings: Option<Box<neighbourhood::Fixings>>,
    /// A neighbourhood's fail limit: the search stops (as at a node limit) once `backtracks`
    /// reaches it.
    fail_cap: Option<u64>,
    /// The path of the subproblem the search is confined to (parallel search): fixed at
    /// the root as givens.
    confined: Vec<(VarId, i32)>,
    /// The depth at which the search stops descending and reports the node instead
    /// (parallel search's decomposition); `usize::MAX`: none.
    frontier: usize,
}

impl<'m> Solver<'m> {
    /// Prepares a search. Allocates every buffer the search needs up front.
    ///
    /// The time limit and the reported `elapsed` time count from here: compiling a large
    /// model is part of the run.
    pub fn new(model: &'m Model, mut config: SearchConfig) -> Result<Solver<'m>, ConfigError> {
        let created = Instant::now();
        config.check()?;
        model.size().check()?;
        let backjump = Backjumping::new(&config, model.num_vars())?;
        if config.backjump != Backjump::None {
            // A jump undoes several levels at once, to the lowest one's mark.
            config.max_trail = usize::MAX;
        }
        // Compiling a model of millions of constraints takes seconds: the limits hold there.
        let mut expired = || clock_hit(&config.limits, Some(created)).is_some();
        let (network, stopped) = match Network::of_until(model, &mut expired) {
            Some(network) => (network, None),
            None => {
                let kind = clock_hit(&config.limits, Some(created)).unwrap_or(LimitKind::Time);
                (Arc::new(Network::build(&Model::new())), Some(kind))
            }
        };
        let n = model.num_vars();
        let mut store = network.fresh_store(model);
        // A clone keeps no spare capacity: room for a search's usual changes at once.
        store.reserve_trail(1024);
        let plan = SearchPlan::new(model, &network, &config, &store);
        let mut engine = Propagation::new(&network, n, config.strategy.inference == Inference::Mac);
        // A compilation stopped by a limit left an empty network and store: nothing may read
        // the model's constraints against them (the search will not run).
        let props = match stopped {
            None => model.propagators(),
            Some(_) => &[],
        };
        let orders = OrderState::new(&network, props, &config, &store, &mut engine)?;
        Ok(Solver {
            model,
            props,
            state: SearchState::new(n, n - model.vars().filter(|&v| model.fixed(v).is_some()).count()),
            engine,
            weights: FailureWeights::new(&network, config.strategy.var_order, orders.scopes.as_ref()),
            orders,
            degrees: match stopped {
                None => UnassignedDegrees::for_order(model, config.strategy.var_order),
                Some(_) => None,
            },
            lcv: Lcv::default(),
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            runs: RunCounter::default(),
            stats: Stats::default(),
            phase: stopped.map_or(Phase::Fresh, Phase::Stopped),
            descend: false,
            selection_cut: None,
            backed_up: false,
            root_mark: 0,
            rebuilding: None,
            started: None,
            created,
            check_values: Vec::with_capacity(network.max_arity),
            bound: None,
            backjump,
            tracer: config
                .trace
                .clone()
                .map(|trace| Box::new(TraceRecorder::new(trace))),
            fixings: None,
            fail_cap: None,
            confined: Vec::new(),
            frontier: usize::MAX,
            store,
            plan,
            config,
            network,
        })
    }

    /// Finds the next solution (the first one on the first call). With a solution cap
    /// (`limits.solutions`) the search stops once it has found that many, as
    /// [`Solver::solutions`] does: a cap of 0 allows none.
    pub fn solve(&mut self) -> Outcome {
        if self.solution_cap_reached() {
            return Outcome::Limit(LimitKind::Solutions);
        }
        match self.advance() {
            Step::Solution => Outcome::Solved(self.state.value.clone()),
            Step::Exhausted => Outcome::Unsatisfiable,
            Step::Limit(kind) => Outcome::Limit(kind),
        }
    }

    /// Counts the remaining solutions, up to `limits.solutions` if set. With restarts,
    /// the nogoods recorded at each restart keep every solution from being counted twice.
    pub fn count(&mut self) -> Count {
        let mut found = 0u64;
        loop {
            if let Some(cap) = self.config.limits.solutions {
                if found >= cap {
                    return Count {
                        solutions: found,
                        complete: false,
                        limit: Some(LimitKind::Solutions),
                    };
                }
            }
            match self.advance() {
                Step::Solution => found += 1,
                Step::Exhausted => {
                    return Count {
                        solutions: found,
                        complete: true,
                        limit: None,
                    };
                }
                Step::Limit(kind) => {
                    return Count {
                        solutions: found,
                        complete: false,
                        limit: Some(kind),
                    };
                }
            }
        }
    }

    /// Calls `on_solution` with each solution in turn until it returns `false`, the
    /// space is exhausted or a limit is reached. Returns why it stopped (`None`: exhausted
    /// or stopped by the callback).
    pub fn for_each_solution(&mut self, mut on_solution: impl FnMut(&[i32]) -> bool) -> Option<LimitKind> {
        loop {
            if self.solution_cap_reached() {
                return Some(LimitKind::Solutions);
            }
            match self.advance() {
                Step::Solution => {
                    if !on_solution(&self.state.value) {
                        return None;
                    }
                }
                Step::Exhausted => return None,
                Step::Limit(kind) => return Some(kind),
            }
        }
    }

    /// Lazily enumerates the solutions (each once, with or without restarts). The
    /// iterator ends when the space is exhausted or a limit is reached;
    /// [`Solutions::limit`] tells which.
    pub fn solutions(&mut self) -> Solutions<'_, 'm> {
        Solutions {
            solver: self,
            stopped: None,
        }
    }

    /// Whether the search has found as many solutions as `limits.solutions` allows.
    fn solution_cap_reached(&self) -> bool {
        self.config
            .limits
            .solutions
            .is_some_and(|cap| self.stats.solutions >= cap)
    }

    /// The statistics so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The configuration in use.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// The current domain of `var` (after the last step), as a list of values.
    pub fn current_domain(&self, var: VarId) -> Vec<i32> {
        if let Phase::Stopped(_) = self.phase {
            // Stopped while compiling: nothing ran, the domain is the model's.
            return self.model.domain(var).values().collect();
        }
        self.store.values(var).collect()
    }
}

/// Lazy enumeration of solutions; see [`Solver::solutions`].
pub struct Solutions<'s, 'm> {
    solver: &'s mut Solver<'m>,
    stopped: Option<LimitKind>,
}

impl Solutions<'_, '_> {
    /// The limit that ended the enumeration, if one did.
    pub fn limit(&self) -> Option<LimitKind> {
        self.stopped
    }
}

impl Iterator for Solutions<'_, '_> {
    type Item = Vec<i32>;

    fn next(&mut self) -> Option<Vec<i32>> {
        if self.stopped.is_some() {
            return None;
        }
        if self.solver.solution_cap_reached() {
            self.stopped = Some(LimitKind::Solutions);
            return None;
        }
        match self.solver.advance() {
            Step::Solution => Some(self.solver.state.value.clone()),
            Step::Exhausted => None,
            Step::Limit(kind) => {
                self.stopped = Some(kind);
                None
            }
        }
    }
}
