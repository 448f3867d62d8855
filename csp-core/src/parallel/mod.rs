//! Parallel search in one instance: embarrassingly parallel search (EPS; Régin, Rezgui and
//! Malapert, CP 2013). The root is cut into many subproblems by the search's own variable
//! and value orders ([`decompose`]), at least 30 per thread by default, and a pool of
//! threads ([`pool`]) searches them, each subproblem with a solver of its own.
//!
//! The subproblems partition the search space, so counts and solution sets are exactly the
//! sequential ones whatever the number of threads. Statistics add up: the nodes of the
//! decomposition (the decisions it tried) plus each subproblem's. A subproblem starts from
//! its path fixed at the root, so where the strategy's choices depend only on the domains
//! (no weights learnt from failures, no restarts) and on binary constraints, the total is
//! the sequential search's node count as well; otherwise each subproblem's search learns
//! from itself alone and the totals differ.
//!
//! One thread runs the sequential [`Solver`], exactly.

mod decompose;
mod pool;

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use decompose::{Decomposition, Work, decompose, splitter_config};
use pool::{Pool, TURN_NODES, lock};

use crate::config::{ConfigError, SearchConfig};
use crate::model::{Model, Objective};
use crate::search::{Optimum, Solver};
use crate::stats::{Count, LimitKind, Outcome, Stats};

/// The subproblems per thread the decomposition aims at by default: enough that a thread
/// that drew easy ones takes more while another finishes a hard one (EPS's rule of thumb is
/// 30 or more).
pub const SUBPROBLEMS_PER_THREAD: usize = 30;

/// The most threads a parallel search runs.
pub const MAX_THREADS: usize = 1024;

/// How many threads a search runs on, and whether its first solution must be the one of the
/// sequential order (see [`ParallelSolver::deterministic`]). Default: one thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parallelism {
    /// Threads (1 to [`MAX_THREADS`]); 1 runs the sequential [`Solver`].
    pub threads: usize,
    /// [`ParallelSolver::deterministic`].
    pub deterministic: bool,
    /// [`ParallelSolver::subproblems_per_thread`].
    pub subproblems_per_thread: usize,
    /// [`ParallelSolver::warm_up`].
    pub warm_up: u64,
}

impl Default for Parallelism {
    fn default() -> Parallelism {
        Parallelism {
            threads: 1,
            deterministic: false,
            subproblems_per_thread: SUBPROBLEMS_PER_THREAD,
            warm_up: 0,
        }
    }
}

/// Whether `config`'s search makes every choice from the domains and the assignment alone
/// (no weights or other memory of earlier failures, no restarts, no random draws): then a
/// subproblem's search below its path is the sequential search's below the same node.
pub fn chooses_from_domains(config: &SearchConfig) -> bool {
    use crate::config::{TieBreak, ValueOrder, VarOrder};
    matches!(
        config.strategy.var_order,
        VarOrder::Static | VarOrder::Mrv | VarOrder::MrvDegree
    ) && matches!(
        config.strategy.value_order,
        ValueOrder::Asc | ValueOrder::Desc | ValueOrder::Lcv
    ) && config.restarts.is_none()
        && config.tie_break == TieBreak::Lowest
        && config.last_conflict == 0
}

/// A search over one [`Model`] on several threads; see the module documentation.
///
/// Each call searches afresh: `count` twice counts twice.
///
/// ```
/// use csp_core::{Model, ParallelSolver, Relation, SearchConfig, Solver};
/// // The 92 solutions of 8 queens, on 4 threads.
/// let mut m = Model::new();
/// let q = m.int_vars(8, 0, 7).unwrap();
/// for i in 0..8 {
///     for j in i + 1..8 {
///         let d = (j - i) as i32;
///         m.post(q[i], q[j], Relation::NotEqual).unwrap();
///         m.post(q[i], q[j], Relation::AbsDiffNotEqual(d)).unwrap();
///     }
/// }
/// let config = SearchConfig::with_strategy("static/asc/fc".parse().unwrap());
/// let mut parallel = ParallelSolver::new(&m, config.clone(), 4).unwrap();
/// assert_eq!(parallel.count().solutions, 92);
/// let mut sequential = Solver::new(&m, config).unwrap();
/// assert_eq!(sequential.count().solutions, 92);
/// // A static order on binary constraints: the nodes are the sequential search's.
/// assert_eq!(parallel.stats().nodes, sequential.stats().nodes);
/// assert!(parallel.stats().subproblems >= 4 * 30);
/// ```
pub struct ParallelSolver<'m> {
    model: &'m Model,
    config: SearchConfig,
    threads: usize,
    per_thread: usize,
    deterministic: bool,
    warm_up: u64,
    stats: Stats,
}

impl<'m> ParallelSolver<'m> {
    /// A search on `threads` threads (1 to [`MAX_THREADS`]).
    ///
    /// Errors: those of [`Solver::new`]; [`ConfigError::Threads`] for 0 threads or too many;
    /// [`ConfigError::TracedInParallel`] for a traced search (a trace is one search's tree).
    pub fn new(
        model: &'m Model,
        config: SearchConfig,
        threads: usize,
    ) -> Result<ParallelSolver<'m>, ConfigError> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(ConfigError::Threads {
                threads,
                max: MAX_THREADS,
            });
        }
        if threads > 1 && config.trace.is_some() {
            return Err(ConfigError::TracedInParallel);
        }
        // Every solver of the run is made with this configuration: the checks are made once.
        Solver::new(model, config.clone())?;
        Ok(ParallelSolver {
            model,
            config,
            threads,
            per_thread: SUBPROBLEMS_PER_THREAD,
            deterministic: false,
            warm_up: 0,
            stats: Stats::default(),
        })
    }

    /// A search with `parallelism`'s threads and order ([`ParallelSolver::new`]).
    pub fn with(
        model: &'m Model,
        config: SearchConfig,
        parallelism: Parallelism,
    ) -> Result<ParallelSolver<'m>, ConfigError> {
        Ok(ParallelSolver::new(model, config, parallelism.threads)?
            .deterministic(parallelism.deterministic)
            .subproblems_per_thread(parallelism.subproblems_per_thread)
            .warm_up(parallelism.warm_up))
    }

    /// How many subproblems per thread the decomposition aims at (at least 1). Default:
    /// [`SUBPROBLEMS_PER_THREAD`].
    pub fn subproblems_per_thread(mut self, per_thread: usize) -> ParallelSolver<'m> {
        self.per_thread = per_thread.max(1);
        self
    }

    /// Under an order that weighs constraints by their failures (dom/wdeg), a sequential
    /// search of `nodes` nodes before the cut, whose weights the cut and every subproblem
    /// start from (its first solution, if it finds one, is the answer of `solve`). Default: 0
    /// (none): it helps some instances and ruins others.
    pub fn warm_up(mut self, nodes: u64) -> ParallelSolver<'m> {
        self.warm_up = nodes;
        self
    }

    /// With `true`, [`ParallelSolver::solve`] returns the sequential search's first solution
    /// instead of the first found: the first subproblem's in the order where the strategy
    /// chooses from the domains alone (a thread waits for the subproblems before it), else
    /// the sequential search's on one thread. Default: `false`.
    pub fn deterministic(mut self, deterministic: bool) -> ParallelSolver<'m> {
        self.deterministic = deterministic;
        self
    }

    /// The statistics of the last call: the totals over the decomposition and every
    /// subproblem (`subproblems`, `decomposition_nodes`), `elapsed` the wall-clock time.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Runs `search` on the sequential solver, whose statistics become this run's.
    fn on_one_thread<T>(&mut self, search: impl FnOnce(&mut Solver<'m>) -> T) -> T {
        let mut solver =
            Solver::new(self.model, self.config.clone()).expect("checked by ParallelSolver::new");
        let result = search(&mut solver);
        self.stats = solver.stats().clone();
        result
    }

    /// Cuts the search space into pieces.
    fn decompose(&self) -> Decomposition {
        let target = self.threads.saturating_mul(self.per_thread);
        let mut decomposition = decompose(self.model, &splitter_config(&self.config), target, self.warm_up);
        let open = decomposition
            .pieces
            .iter()
            .filter(|w| matches!(w, Work::Open(_)))
            .count();
        decomposition.stats.subproblems = open as u64;
        decomposition.stats.decomposition_nodes = decomposition.stats.nodes;
        decomposition
    }

    /// Counts the solutions, up to `limits.solutions` if set ([`Solver::count`]).
    pub fn count(&mut self) -> Count {
        if self.threads == 1 {
            return self.on_one_thread(|solver| solver.count());
        }
        let started = Instant::now();
        let cap = self.config.limits.solutions;
        let decomposition = self.decompose();
        let pool = Pool::new(self.model, &self.config, &decomposition, self.threads, started);
        let found = AtomicU64::new(0);
        let add = |n: u64| {
            let total = found.fetch_add(n, Ordering::Relaxed) + n;
            if cap.is_some_and(|cap| total >= cap) {
                pool.halt(Some(LimitKind::Solutions));
            }
        };
        pool.run(|_, piece, start| match piece {
            Work::Solved(_) => add(1),
            Work::Open(path) => {
                let mut solver = pool.solver(path, true, start);
                while !pool.stopping() && pool.grant(&mut solver, None) {
                    let count = solver.count();
                    add(count.solutions);
                    match count.limit {
                        None => break,
                        Some(LimitKind::Nodes) => continue,
                        Some(LimitKind::Cancelled) => break,
                        Some(kind) => pool.halt(Some(kind)),
                    }
                }
                pool.settle(&solver, path, start);
            }
        });
        let mut total = found.load(Ordering::Relaxed);
        if let Some(cap) = cap {
            total = total.min(cap);
        }
        self.stats = pool.totals();
        self.stats.solutions = total;
        let complete = pool.finished();
        Count {
            solutions: total,
            complete,
            limit: if complete { None } else { pool.stopped_by() },
        }
    }

    /// Finds a solution ([`Solver::solve`]): the first found, or under
    /// [`ParallelSolver::deterministic`] the sequential search's first solution. Where the
    /// strategy chooses from the domains alone ([`chooses_from_domains`]), that is the first
    /// solution of the first subproblem in the order that has one; otherwise (a learning
    /// order, restarts, random choices) only the sequential search itself finds it, and it
    /// runs on one thread.
    pub fn solve(&mut self) -> Outcome {
        if self.threads == 1 || (self.deterministic && !chooses_from_domains(&self.config)) {
            return self.on_one_thread(|solver| solver.solve());
        }
        if self.config.limits.solutions == Some(0) {
            return Outcome::Limit(LimitKind::Solutions);
        }
        let started = Instant::now();
        let decomposition = self.decompose();
        if let Some(solution) = &decomposition.warmed_up {
            // The warm-up, a sequential search, found it: the same on every run.
            self.stats = decomposition.stats.clone();
            self.stats.solutions = 1;
            self.stats.elapsed = started.elapsed();
            return Outcome::Solved(solution.clone());
        }
        let pool = Pool::new(self.model, &self.config, &decomposition, self.threads, started);
        let deterministic = self.deterministic;
        // The solution of the earliest piece that has one, and that piece.
        let first: Mutex<Option<(usize, Vec<i32>)>> = Mutex::new(None);
        let first_index = AtomicUsize::new(usize::MAX);
        let record = |index: usize, solution: &[i32]| {
            let mut first = lock(&first);
            if first.as_ref().is_none_or(|(i, _)| index < *i) {
                *first = Some((index, solution.to_vec()));
                first_index.store(index, Ordering::Relaxed);
            }
            if !deterministic {
                pool.halt(None);
            }
        };
        pool.run(|index, piece, start| {
            // Under `deterministic`, a piece after one with a solution is not needed.
            if index > first_index.load(Ordering::Relaxed) {
                return;
            }
            match piece {
                Work::Solved(solution) => record(index, solution),
                Work::Open(path) => {
                    // A deterministic answer cannot depend on the pieces a thread drew before.
                    let mut solver = pool.solver(path, !deterministic, start);
                    let turn = deterministic.then_some(TURN_NODES);
                    while !pool.stopping() && pool.grant(&mut solver, turn) {
                        match solver.solve() {
                            Outcome::Solved(solution) => {
                                record(index, &solution);
                                break;
                            }
                            Outcome::Unsatisfiable => break,
                            Outcome::Limit(LimitKind::Nodes)
                                if index < first_index.load(Ordering::Relaxed) => {}
                            Outcome::Limit(LimitKind::Nodes | LimitKind::Cancelled) => break,
                            Outcome::Limit(kind) => pool.halt(Some(kind)),
                        }
                    }
                    pool.settle(&solver, path, start);
                }
            }
        });
        self.stats = pool.totals();
        let found = lock(&first).take();
        self.stats.solutions = u64::from(found.is_some());
        match found {
            Some((_, solution)) => Outcome::Solved(solution),
            None => match pool.stopped_by() {
                Some(kind) => Outcome::Limit(kind),
                None => Outcome::Unsatisfiable,
            },
        }
    }

    /// Calls `on_solution` with each solution until it returns `false`, the space is
    /// exhausted or a limit is reached ([`Solver::for_each_solution`]). The solutions come
    /// from every thread, one call at a time, in no fixed order. Returns why it stopped
    /// (`None`: exhausted or stopped by the callback).
    pub fn for_each_solution(&mut self, on_solution: impl FnMut(&[i32]) -> bool + Send) -> Option<LimitKind> {
        // The callback, and whether it said stop: a thread that was waiting for the lock with
        // a solution then must not call it again.
        let sink = Mutex::new((on_solution, false));
        self.for_each_solution_shared(|solution| {
            let mut sink = lock(&sink);
            let (call, stopped) = &mut *sink;
            if !*stopped {
                *stopped = !call(solution);
            }
            !*stopped
        })
    }

    /// [`ParallelSolver::for_each_solution`] with a callback that the threads call at the
    /// same time, each on its own solutions: for a caller that counts or checks solutions
    /// without a lock. With `limits.solutions`, it is called at most that many times.
    pub fn for_each_solution_shared(
        &mut self,
        on_solution: impl Fn(&[i32]) -> bool + Sync,
    ) -> Option<LimitKind> {
        if self.threads == 1 {
            return self.on_one_thread(|solver| solver.for_each_solution(on_solution));
        }
        let started = Instant::now();
        let cap = self.config.limits.solutions;
        if cap == Some(0) {
            return Some(LimitKind::Solutions);
        }
        let decomposition = self.decompose();
        let pool = Pool::new(self.model, &self.config, &decomposition, self.threads, started);
        let given = AtomicU64::new(0);
        let emit = |solution: &[i32]| -> bool {
            if pool.stopping() {
                return false;
            }
            let nth = given.fetch_add(1, Ordering::Relaxed) + 1;
            if cap.is_some_and(|cap| nth > cap) {
                return false;
            }
            if !on_solution(solution) {
                pool.halt(None);
                return false;
            }
            if cap.is_some_and(|cap| nth >= cap) {
                pool.halt(Some(LimitKind::Solutions));
                return false;
            }
            true
        };
        pool.run(|_, piece, start| match piece {
            Work::Solved(solution) => {
                emit(solution);
            }
            Work::Open(path) => {
                let mut solver = pool.solver(path, true, start);
                while !pool.stopping() && pool.grant(&mut solver, None) {
                    match solver.for_each_solution(emit) {
                        None | Some(LimitKind::Cancelled) => break,
                        Some(LimitKind::Nodes) => continue,
                        Some(kind) => pool.halt(Some(kind)),
                    }
                }
                pool.settle(&solver, path, start);
            }
        });
        self.stats = pool.totals();
        let given = given.load(Ordering::Relaxed);
        self.stats.solutions = cap.map_or(given, |cap| given.min(cap));
        pool.stopped_by()
    }

    /// Branch and bound on the model's objective ([`Solver::optimize`]), the best value
    /// found shared by the threads: each takes a better one found elsewhere as its bound
    /// between turns of [`TURN_NODES`] nodes. The optimum is proved when every subproblem
    /// is searched to its end.
    pub fn optimize(&mut self) -> Result<Optimum, ConfigError> {
        self.optimize_with(|_, _| true)
    }

    /// [`ParallelSolver::optimize`], calling `on_improvement(solution, objective)` at each
    /// solution better than every one before (over all threads, one call at a time).
    /// Returning `false` stops the search.
    pub fn optimize_with(
        &mut self,
        on_improvement: impl FnMut(&[i32], i64) -> bool + Send,
    ) -> Result<Optimum, ConfigError> {
        let objective = self.model.objective().ok_or(ConfigError::NoObjective)?;
        if self.threads == 1 {
            return self.on_one_thread(|solver| solver.optimize_with(on_improvement));
        }
        let started = Instant::now();
        let decomposition = self.decompose();
        let pool = Pool::new(self.model, &self.config, &decomposition, self.threads, started);
        let var = objective.var().index();
        let better = |a: i64, b: i64| match objective {
            Objective::Minimize(_) => a < b,
            Objective::Maximize(_) => a > b,
        };
        // The best solution so far, its value, and the callback.
        let best = Mutex::new((None::<(i64, Vec<i32>)>, on_improvement, false));
        let offer = |solution: &[i32], value: i64| -> bool {
            let mut best = lock(&best);
            let (incumbent, on_improvement, stopped) = &mut *best;
            if incumbent.as_ref().is_some_and(|(v, _)| !better(value, *v)) {
                return true;
            }
            *incumbent = Some((value, solution.to_vec()));
            if !on_improvement(solution, value) {
                *stopped = true;
                pool.halt(None);
                return false;
            }
            true
        };
        if let Some(solution) = &decomposition.warmed_up {
            offer(solution, i64::from(solution[var]));
        }
        let incumbent = || lock(&best).0.clone();
        pool.run(|_, piece, start| match piece {
            Work::Solved(solution) => {
                offer(solution, i64::from(solution[var]));
            }
            Work::Open(path) => {
                let mut solver = pool.solver(path, true, start);
                let mut adopted = None;
                while !pool.stopping() && pool.grant(&mut solver, Some(TURN_NODES)) {
                    if let Some((value, solution)) =
                        incumbent().filter(|(v, _)| adopted.is_none_or(|a| better(*v, a)))
                    {
                        solver.adopt_incumbent(&objective, &solution, value);
                        adopted = Some(value);
                    }
                    let turn = solver.config().limits.nodes.map(|n| n - solver.stats().nodes);
                    let result = solver.branch_and_bound_for(objective.clone(), turn, |solution, value| {
                        adopted = Some(value);
                        offer(solution, value)
                    });
                    let Ok(optimum) = result else { break };
                    match optimum.limit {
                        _ if optimum.proved => break,
                        None | Some(LimitKind::Cancelled) => break,
                        Some(LimitKind::Nodes) => continue,
                        Some(kind) => pool.halt(Some(kind)),
                    }
                }
                pool.settle(&solver, path, start);
            }
        });
        let (incumbent, _, stopped) = best
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let proved = pool.finished() && !stopped;
        let value = incumbent.as_ref().map(|(v, _)| *v);
        self.stats = pool.totals();
        self.stats.objective = value;
        self.stats.nodes_to_best = None;
        self.stats.nodes_to_proof = proved.then_some(self.stats.nodes);
        Ok(Optimum {
            best: incumbent.map(|(_, s)| s),
            objective: value,
            proved,
            limit: if proved || stopped {
                None
            } else {
                pool.stopped_by()
            },
            bound: if proved { value } else { None },
        })
    }
}
