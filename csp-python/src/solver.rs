//! `csp.Solver`: backtracking search on a model with a strategy and options, the
//! outcome, and the statistics.

use csp_core::{LimitKind, Model as CoreModel, Outcome, Stats};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::config::{search_config, strategy};
use crate::convert::{limit_name, stats_dict};
use crate::interrupt::flag;
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
/// `"places"`) and `max_trail`.
///
/// Solutions are dicts name -> value. The search runs without the GIL; Ctrl-C stops it
/// with `KeyboardInterrupt` (the solver then says `status == "limit"`, `limit ==
/// "cancelled"`, and may be asked again).
#[pyclass(module = "csp", name = "Solver")]
pub struct Solver {
    worker: Worker,
    /// The variables' names (a copy of the model's; the search has its own model).
    model: CoreModel,
    /// The Python model's identity (a variable of another model is refused).
    model_id: u64,
    shown: Option<usize>,
    strategy: String,
    stats: Stats,
    status: Option<&'static str>,
    limit: Option<LimitKind>,
    /// The objective value of the last optimisation.
    objective: Option<i64>,
}

impl Solver {
    /// Takes a reply's statistics and outcome; returns the answer.
    fn take(&mut self, reply: Reply) -> PyResult<Answer> {
        let (answer, stats) = reply.map_err(|f| f.into_py())?;
        self.stats = stats;
        match &answer {
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
        Ok(answer)
    }

    /// Runs a request, keeping what a Ctrl-C'd search reports before raising.
    fn run(slf: &Bound<'_, Self>, request: Request) -> PyResult<Answer> {
        let py = slf.py();
        let mut this = slf.borrow_mut();
        let mut cancelled = None;
        let reply = this.worker.ask(py, request, |r| cancelled = Some(r));
        if let Some(r) = cancelled {
            let _ = this.take(r);
        }
        this.take(reply?)
    }

    /// The next solution, as a dict (`None` when there is none left or a limit stopped the
    /// search).
    fn next_solution<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyDict>>> {
        match Solver::run(slf, Request::Solve)? {
            Answer::Outcome(Outcome::Solved(values)) => {
                let this = slf.borrow();
                Ok(Some(solution_dict(slf.py(), &this.model, this.shown, &values)?))
            }
            _ => Ok(None),
        }
    }

    /// Optimises `var` as `goal` says, or the model's objective without one.
    fn optimize_var<'py>(
        slf: &Bound<'py, Self>,
        var: Option<&Bound<'py, PyAny>>,
        goal: fn(csp_core::VarId) -> Goal,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let goal = match var {
            None => Goal::Objective,
            Some(v) => goal(var_index(slf, v)?),
        };
        Solver::optimize_for(slf, goal)
    }

    fn optimize_for<'py>(slf: &Bound<'py, Self>, goal: Goal) -> PyResult<Option<Bound<'py, PyDict>>> {
        match Solver::run(slf, Request::Optimize(goal))? {
            Answer::Optimum(optimum) => match optimum.best {
                Some(values) => {
                    let this = slf.borrow();
                    Ok(Some(solution_dict(slf.py(), &this.model, this.shown, &values)?))
                }
                None => Ok(None),
            },
            _ => Ok(None),
        }
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
        let config = search_config(parsed, options, cancel.clone())?;
        let (core, shown, model_id) = {
            let m = model.borrow();
            (m.inner.clone(), m.shown, m.id)
        };
        let (worker, stats) = Worker::start(py, core.clone(), config, cancel)?;
        Ok(Solver {
            worker,
            model: core,
            model_id,
            shown,
            strategy: parsed.to_string(),
            stats,
            status: None,
            limit: None,
            objective: None,
        })
    }

    /// Finds the next solution (the first on the first call) as a dict name -> value, or
    /// `None`: then `status` says why (`"unsatisfiable"`: no further solution; `"limit"`:
    /// `limit` says which).
    fn solve<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyDict>>> {
        Solver::next_solution(slf)
    }

    /// A lazy iterator over the remaining solutions, each a dict name -> value, found one
    /// at a time as the loop asks (each solution once, with or without restarts). It ends
    /// when there are no more or a limit is reached (`status`, `limit`).
    fn solutions(slf: &Bound<'_, Self>) -> SolutionIterator {
        SolutionIterator {
            solver: slf.clone().unbind(),
            done: false,
        }
    }

    /// Counts the remaining solutions (all of them on a fresh solver), stopping at
    /// `limit` if given. `status` is then `"solved"` (counted exactly, at least one),
    /// `"unsatisfiable"` (none), `"capped"` (stopped at `limit`) or `"limit"`.
    #[pyo3(signature = (limit=None))]
    fn count(slf: &Bound<'_, Self>, limit: Option<u64>) -> PyResult<u64> {
        match Solver::run(slf, Request::Count(limit))? {
            Answer::Count(count) => Ok(count.solutions),
            _ => Ok(0),
        }
    }

    /// Optimises the model's objective (`Model.minimize` / `Model.maximize`) by branch and
    /// bound; returns the best solution found (or `None`). `status`: `"optimal"`,
    /// `"feasible"` (a limit stopped the proof), `"unsatisfiable"` or `"limit"`;
    /// `objective`: the best value. Needs a fresh solver.
    fn optimize<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyDict>>> {
        Solver::optimize_for(slf, Goal::Objective)
    }

    /// Finds a solution with the smallest value of `var` (see `optimize`); without `var`,
    /// the model's objective.
    #[pyo3(signature = (var=None))]
    fn minimize<'py>(
        slf: &Bound<'py, Self>,
        var: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        Solver::optimize_var(slf, var, Goal::Minimize)
    }

    /// Finds a solution with the largest value of `var` (see `optimize`); without `var`,
    /// the model's objective.
    #[pyo3(signature = (var=None))]
    fn maximize<'py>(
        slf: &Bound<'py, Self>,
        var: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        Solver::optimize_var(slf, var, Goal::Maximize)
    }

    /// The statistics so far, as a dict with the fields of the command line's JSON:
    /// `nodes`, `backtracks`, `checks`, `pruned`, `revisions`, `propagations`,
    /// `max_depth`, `solutions`, `restarts`, `nogoods`, `probes`, `place_decisions`,
    /// `objective`, `nodes_to_best`, `nodes_to_proof`, `elapsed_ms`.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        stats_dict(py, &self.stats)
    }

    /// How the last call ended: `None` before any; `"solved"`, `"unsatisfiable"` or
    /// `"limit"` after `solve`; `"solved"`, `"unsatisfiable"`, `"capped"` or `"limit"` after
    /// `count`; `"optimal"`, `"feasible"`, `"unsatisfiable"` or `"limit"` after an
    /// optimisation.
    #[getter]
    fn status(&self) -> Option<&'static str> {
        self.status
    }

    /// The limit that stopped the last call: `"nodes"`, `"time"`, `"solutions"`,
    /// `"cancelled"` (Ctrl-C), or `None`.
    #[getter]
    fn limit(&self) -> Option<String> {
        self.limit.map(limit_name)
    }

    /// The best objective value of the last optimisation (`None`: none found).
    #[getter]
    fn objective(&self) -> Option<i64> {
        self.objective
    }

    /// The strategy, as `var/value/inference`.
    #[getter]
    fn strategy(&self) -> &str {
        &self.strategy
    }

    fn __repr__(&self) -> String {
        format!(
            "Solver(strategy={:?}, status={}, nodes={}, solutions={})",
            self.strategy,
            self.status.map_or("None".to_string(), |s| format!("{s:?}")),
            self.stats.nodes,
            self.stats.solutions
        )
    }
}

/// The variable of a `Var` of the solver's model (made before the solver was).
fn var_index(slf: &Bound<'_, Solver>, var: &Bound<'_, PyAny>) -> PyResult<csp_core::VarId> {
    let Ok(v) = var.cast::<crate::expr::Var>() else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "expected a variable, not {}",
            crate::domain::type_name(var)
        )));
    };
    let v = v.get();
    let this = slf.borrow();
    if v.model != this.model_id {
        return Err(crate::expr::other_model(&v.name));
    }
    this.model.var(v.id.index()).ok_or_else(|| {
        PyValueError::new_err(format!(
            "the variable {} was added after the solver was made",
            v.name
        ))
    })
}

/// The lazy iterator of `Solver.solutions()`.
#[pyclass(module = "csp", name = "SolutionIterator")]
pub struct SolutionIterator {
    solver: Py<Solver>,
    done: bool,
}

#[pymethods]
impl SolutionIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        if self.done {
            return Ok(None);
        }
        let solver = self.solver.bind(py);
        let next = Solver::next_solution(solver)?;
        if next.is_none() {
            self.done = true;
        }
        Ok(next)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("SolutionIterator({})", self.solver.borrow(py).__repr__())
    }
}
