//! `csp.Solver`: backtracking search on a model with a strategy and options, the
//! outcome, and the statistics.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use csp_core::{LimitKind, LnsConfig, Model as CoreModel, Outcome, Parallelism, Stats};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::config::{search_config, strategy};
use crate::convert::{limit_name, stats_dict};
use crate::interrupt::flag;
use crate::locks::{Turn, lock};
use crate::model::{Model, solution_dict};
use crate::worker::{Answer, Goal, Reply, Request, Worker};

/// Backtracking search on a `Model` (a copy taken now: later changes to the model do not
/// reach it).
///
/// `strategy` is `"var/value/inference"`: variable order `static`, `mrv`, `mrv-degree`,
/// `dom-wdeg` or `dom-wdeg-fixed`; value order `asc`, `lcv`, `desc` or `random`; inference
/// `none`, `fc` or `mac` (`csp.textbook_strategies()` lists the 18 textbook ones). The
/// keyword options are csp-core's `SearchConfig`: `tie_break` (`"lowest"`, `"random"`),
/// `seed`, `restarts` (`"luby:100"`, `"geometric:100:1.5"`, `None`), `node_limit`,
/// `time_limit` (seconds), `solution_limit`, `probing`, `branching` (`"variables"`,
/// `"places"`) and `max_trail`. `lns=True` makes `optimize()` run large neighbourhood
/// search beside branch and bound (the command line's default for instance files; off
/// here, so that node counts are the strategy's own). `threads=N` makes `count()` and
/// `optimize()` (of the model's objective) run a parallel search over the whole model each
/// time (exact counts; `nodes` the sum over the threads); `solve()` and `solutions()` resume
/// one sequential search. `deterministic=True` keeps its meaning from the command line.
///
/// Solutions are dicts name -> value. The search runs without the GIL; Ctrl-C stops it
/// with `KeyboardInterrupt` (the solver then says `status == "limit"`, `limit ==
/// "cancelled"`, and may be asked again).
///
/// A solver may be shared by threads: its searches take turns (a second call waits for
/// the first to return), and `stats`, `status`, `limit` and `objective` can be read at
/// any time. During a search, `stats` are the live counters (copied every few thousand
/// nodes) and the others describe the last call that returned (`searching` says whether
/// one is running).
#[pyclass(frozen, module = "csp", name = "Solver")]
pub struct Solver {
    worker: Worker,
    /// The variables' names (a copy of the model's; the search has its own model).
    model: CoreModel,
    /// The Python model's identity (a variable of another model is refused).
    model_id: u64,
    shown: Option<usize>,
    strategy: String,
    /// Held by the call that is searching: the worker answers one request at a time.
    turn: Turn,
    /// What the calls that returned have left: readable while another call searches.
    last: Mutex<Last>,
    /// The search's statistics as it runs (csp-core's `SearchConfig::live_stats`).
    live: Arc<Mutex<Stats>>,
}

/// The outcome and statistics of the last call that returned.
struct Last {
    stats: Stats,
    status: Option<&'static str>,
    limit: Option<LimitKind>,
    /// The objective value of the last optimisation.
    objective: Option<i64>,
}

impl Last {
    /// Takes a reply's statistics and outcome.
    fn record(&mut self, answer: &Answer, stats: Stats) {
        self.stats = stats;
        match answer {
            Answer::Ready => {}
            Answer::Outcome(outcome) => {
                self.status = Some(outcome.status());
                self.limit = match outcome {
                    Outcome::Limit(kind) => Some(*kind),
                    _ => None,
                };
            }
            Answer::Count(count) => {
                self.limit = count.limit;
                self.status = Some(match (count.complete, count.limit, count.solutions) {
                    (true, _, 0) => "unsatisfiable",
                    (true, _, _) => "solved",
                    (false, Some(_), _) => "limit",
                    (false, None, _) => "capped",
                });
            }
            Answer::Optimum(optimum) => {
                self.limit = optimum.limit;
                self.objective = optimum.objective;
                self.status = Some(match (optimum.proved, &optimum.best) {
                    (true, Some(_)) => "optimal",
                    (true, None) => "unsatisfiable",
                    (false, Some(_)) => "feasible",
                    (false, None) => "limit",
                });
            }
        }
    }
}

impl Solver {
    /// Takes a reply's statistics and outcome; returns the answer.
    fn take(&self, py: Python<'_>, reply: Reply) -> PyResult<Answer> {
        let (answer, stats) = reply.map_err(|f| f.into_py())?;
        lock(py, &self.last).record(&answer, stats);
        Ok(answer)
    }

    /// Runs a request once the solver's turn comes, keeping what a Ctrl-C'd search
    /// reports before raising.
    fn run(&self, py: Python<'_>, request: Request) -> PyResult<Answer> {
        let _turn = self.turn.take(py, "Solver")?;
        let mut cancelled = None;
        let reply = self.worker.ask(py, request, |r| cancelled = Some(r));
        if let Some(r) = cancelled {
            let _ = self.take(py, r);
        }
        self.take(py, reply?)
    }

    /// The next solution, as a dict (`None` when there is none left or a limit stopped the
    /// search).
    fn next_solution<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        match self.run(py, Request::Solve)? {
            Answer::Outcome(Outcome::Solved(values)) => {
                Ok(Some(solution_dict(py, &self.model, self.shown, &values)?))
            }
            _ => Ok(None),
        }
    }

    /// Optimises `var` as `goal` says, or the model's objective without one.
    fn optimize_var<'py>(
        &self,
        py: Python<'py>,
        var: Option<&Bound<'py, PyAny>>,
        goal: fn(csp_core::VarId) -> Goal,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let goal = match var {
            None => Goal::Objective,
            Some(v) => goal(self.var_index(v)?),
        };
        self.optimize_for(py, goal)
    }

    fn optimize_for<'py>(&self, py: Python<'py>, goal: Goal) -> PyResult<Option<Bound<'py, PyDict>>> {
        match self.run(py, Request::Optimize(goal))? {
            Answer::Optimum(optimum) => match optimum.best {
                Some(values) => Ok(Some(solution_dict(py, &self.model, self.shown, &values)?)),
                None => Ok(None),
            },
            _ => Ok(None),
        }
    }

    /// The variable of a `Var` of the solver's model (made before the solver was).
    fn var_index(&self, var: &Bound<'_, PyAny>) -> PyResult<csp_core::VarId> {
        let Ok(v) = var.cast::<crate::expr::Var>() else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "expected a variable, not {}",
                crate::domain::type_name(var)
            )));
        };
        let v = v.get();
        if v.model != self.model_id {
            return Err(crate::expr::other_model(&v.name));
        }
        self.model.var(v.id.index()).ok_or_else(|| {
            PyValueError::new_err(format!(
                "the variable {} was added after the solver was made",
                v.name
            ))
        })
    }

    fn repr(&self, py: Python<'_>) -> String {
        let last = lock(py, &self.last);
        format!(
            "Solver(strategy={:?}, status={}, nodes={}, solutions={})",
            self.strategy,
            last.status.map_or("None".to_string(), |s| format!("{s:?}")),
            last.stats.nodes,
            last.stats.solutions
        )
    }
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (model, strategy="mrv/asc/fc", **options))]
    fn new(
        py: Python<'_>,
        model: &Bound<'_, Model>,
        strategy: &str,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Solver> {
        let parsed = self::strategy(strategy)?;
        let cancel = flag();
        // `lns` is the solver's own option, not the search's.
        let options = options.map(|o| o.copy()).transpose()?;
        let lns = match &options {
            Some(o) => match o.get_item("lns")? {
                Some(value) => {
                    o.del_item("lns")?;
                    !value.is_none() && crate::config::flag(&value, "lns")?
                }
                None => false,
            },
            None => false,
        };
        // So are `threads` and `deterministic`.
        let mut parallelism = Parallelism::default();
        if let Some(o) = &options {
            if let Some(value) = o.get_item("threads")? {
                o.del_item("threads")?;
                if !value.is_none() {
                    let threads = crate::config::whole(&value, "threads")?;
                    parallelism.threads = usize::try_from(threads)
                        .ok()
                        .filter(|t| (1..=csp_core::MAX_THREADS).contains(t))
                        .ok_or_else(|| {
                            pyo3::exceptions::PyValueError::new_err(format!(
                                "threads must be 1 to {}, not {threads}",
                                csp_core::MAX_THREADS
                            ))
                        })?;
                }
            }
            if let Some(value) = o.get_item("deterministic")? {
                o.del_item("deterministic")?;
                parallelism.deterministic = !value.is_none() && crate::config::flag(&value, "deterministic")?;
            }
        }
        let mut config = search_config(parsed, options.as_ref(), cancel.clone())?;
        let live = Arc::new(Mutex::new(Stats::default()));
        config.live_stats = Some(live.clone());
        let model = model.get();
        let core = model.snapshot(py);
        let lns = lns.then(|| LnsConfig {
            decision_vars: model.shown.map(|n| core.vars().take(n).collect()),
            seed: config.seed,
            ..LnsConfig::default()
        });
        let (worker, stats) = Worker::start(py, core.clone(), config, lns, parallelism, cancel)?;
        *lock(py, &live) = stats.clone();
        Ok(Solver {
            worker,
            model: core,
            model_id: model.id,
            shown: model.shown,
            strategy: parsed.to_string(),
            turn: Turn::default(),
            last: Mutex::new(Last {
                stats,
                status: None,
                limit: None,
                objective: None,
            }),
            live,
        })
    }

    /// Finds the next solution (the first on the first call) as a dict name -> value, or
    /// `None`: then `status` says why (`"unsatisfiable"`: no further solution; `"limit"`:
    /// `limit` says which).
    fn solve<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.next_solution(py)
    }

    /// A lazy iterator over the remaining solutions, each a dict name -> value, found one
    /// at a time as the loop asks (each solution once, with or without restarts). It ends
    /// when there are no more or a limit is reached (`status`, `limit`).
    fn solutions(slf: &Bound<'_, Self>) -> SolutionIterator {
        SolutionIterator {
            solver: slf.clone().unbind(),
            done: AtomicBool::new(false),
        }
    }

    /// Counts the remaining solutions (all of them on a fresh solver), stopping at
    /// `limit` if given. `status` is then `"solved"` (counted exactly, at least one),
    /// `"unsatisfiable"` (none), `"capped"` (stopped at `limit`) or `"limit"`.
    #[pyo3(signature = (limit=None))]
    fn count(&self, py: Python<'_>, limit: Option<u64>) -> PyResult<u64> {
        match self.run(py, Request::Count(limit))? {
            Answer::Count(count) => Ok(count.solutions),
            _ => Ok(0),
        }
    }

    /// Optimises the model's objective (`Model.minimize` / `Model.maximize`) by branch and
    /// bound; returns the best solution found (or `None`). `status`: `"optimal"`,
    /// `"feasible"` (a limit stopped the proof), `"unsatisfiable"` or `"limit"`;
    /// `objective`: the best value. Needs a fresh solver.
    fn optimize<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.optimize_for(py, Goal::Objective)
    }

    /// Finds a solution with the smallest value of `var` (see `optimize`); without `var`,
    /// the model's objective.
    #[pyo3(signature = (var=None))]
    fn minimize<'py>(
        &self,
        py: Python<'py>,
        var: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.optimize_var(py, var, Goal::Minimize)
    }

    /// Finds a solution with the largest value of `var` (see `optimize`); without `var`,
    /// the model's objective.
    #[pyo3(signature = (var=None))]
    fn maximize<'py>(
        &self,
        py: Python<'py>,
        var: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.optimize_var(py, var, Goal::Maximize)
    }

    /// The statistics of the calls that have returned, as a dict with the fields of the
    /// command line's JSON: `nodes`, `backtracks`, `checks`, `pruned`, `revisions`,
    /// `propagations`, `max_depth`, `solutions`, `restarts`, `nogoods`, `probes`,
    /// `place_decisions`, `objective`, `nodes_to_best`, `nodes_to_proof`, `elapsed_ms`.
    /// Read from another thread during a search, they are its live counters, copied every
    /// few thousand nodes (`elapsed_ms` so far); the exact ones once it returns.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stats = if self.turn.taken() {
            lock(py, &self.live).clone()
        } else {
            lock(py, &self.last).stats.clone()
        };
        stats_dict(py, &stats)
    }

    /// How the last call ended: `None` before any; `"solved"`, `"unsatisfiable"` or
    /// `"limit"` after `solve`; `"solved"`, `"unsatisfiable"`, `"capped"` or `"limit"` after
    /// `count`; `"optimal"`, `"feasible"`, `"unsatisfiable"` or `"limit"` after an
    /// optimisation.
    #[getter]
    fn status(&self, py: Python<'_>) -> Option<&'static str> {
        lock(py, &self.last).status
    }

    /// The limit that stopped the last call: `"nodes"`, `"time"`, `"solutions"`,
    /// `"cancelled"` (Ctrl-C), or `None`.
    #[getter]
    fn limit(&self, py: Python<'_>) -> Option<String> {
        lock(py, &self.last).limit.map(limit_name)
    }

    /// The best objective value of the last optimisation (`None`: none found).
    #[getter]
    fn objective(&self, py: Python<'_>) -> Option<i64> {
        lock(py, &self.last).objective
    }

    /// Whether a call of this solver is searching now (in another thread: the thread
    /// that calls waits for it to return).
    #[getter]
    fn searching(&self) -> bool {
        self.turn.taken()
    }

    /// The strategy, as `var/value/inference`.
    #[getter]
    fn strategy(&self) -> &str {
        &self.strategy
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        self.repr(py)
    }
}

/// The lazy iterator of `Solver.solutions()`. Threads may share it: each `next()` takes
/// its turn on the solver.
#[pyclass(frozen, module = "csp", name = "SolutionIterator")]
pub struct SolutionIterator {
    solver: Py<Solver>,
    done: AtomicBool,
}

#[pymethods]
impl SolutionIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        if self.done.load(Ordering::Acquire) {
            return Ok(None);
        }
        let next = self.solver.get().next_solution(py)?;
        if next.is_none() {
            self.done.store(true, Ordering::Release);
        }
        Ok(next)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("SolutionIterator({})", self.solver.get().repr(py))
    }
}
