//! `csp.compare`: every strategy on every model or instance file, one row per run, as
//! `csp compare --format jsonl` records them (`pandas.DataFrame(rows)` takes the rows as
//! they are).

use std::path::PathBuf;
use std::time::Duration;

use csp_core::{
    Count, LimitKind, Limits, Model as CoreModel, Outcome, SearchConfig, Solver, Stats, Strategy,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::config::duration;
use crate::convert::{limit_name, merge, stats_dict};
use crate::domain::type_name;
use crate::errors::value_error;
use crate::interrupt::{flag, run_interruptibly};
use crate::model::Model;
use crate::xcsp::{read_options, xcsp_error};

/// Strategies by name; `"textbook"` stands for the 18 textbook ones.
pub(crate) fn strategies_of(names: &[String]) -> PyResult<Vec<Strategy>> {
    let mut out = Vec::new();
    for name in names {
        if name == "textbook" {
            out.extend(Strategy::textbook());
        } else {
            out.push(name.parse::<Strategy>().map_err(value_error)?);
        }
    }
    Ok(out)
}

/// One run's result: status, limit and statistics.
struct Run {
    status: &'static str,
    limit: Option<LimitKind>,
    stats: Stats,
}

/// Runs one strategy on one model: the first solution, every solution (`count`), or the
/// optimum of a model with an objective.
fn run(model: &CoreModel, config: SearchConfig, count: bool) -> Result<Run, csp_core::ConfigError> {
    let mut solver = Solver::new(model, config)?;
    let (status, limit) = if count {
        let Count {
            solutions,
            complete,
            limit,
        } = solver.count();
        let status = match (complete, solutions) {
            (true, 0) => "unsatisfiable",
            (true, _) => "solved",
            (false, _) => "limit",
        };
        (status, limit)
    } else if model.objective().is_some() {
        let optimum = solver.optimize()?;
        let status = match (optimum.proved, optimum.best.is_some()) {
            (true, true) => "optimal",
            (true, false) => "unsatisfiable",
            (false, true) => "feasible",
            (false, false) => "limit",
        };
        (status, optimum.limit)
    } else {
        match solver.solve() {
            Outcome::Solved(_) => ("solved", None),
            Outcome::Unsatisfiable => ("unsatisfiable", None),
            Outcome::Limit(kind) => ("limit", Some(kind)),
        }
    };
    Ok(Run {
        status,
        limit,
        stats: solver.stats().clone(),
    })
}

/// A model to compare: a `Model`, or the path of an instance file (read as `csp.xcsp.load`
/// does), with its label.
fn contender(py: Python<'_>, obj: &Bound<'_, PyAny>, index: usize) -> PyResult<(String, CoreModel)> {
    if let Ok(model) = obj.cast::<Model>() {
        let m = model.get();
        let label = m.name.clone().unwrap_or_else(|| format!("model{index}"));
        return Ok((label, m.snapshot(py)));
    }
    if obj.cast::<PyString>().is_ok() || obj.hasattr("__fspath__")? {
        let path: PathBuf = obj.extract()?;
        let cancel = flag();
        let options = read_options(&cancel);
        let instance = run_interruptibly(py, &cancel, || {
            csp_xcsp::Instance::from_path_with(&path, &options)
        })?
        .map_err(|e| xcsp_error(py, e, Some(&path)))?;
        return Ok((path.display().to_string(), instance.model));
    }
    Err(PyTypeError::new_err(format!(
        "csp.compare takes models and instance files, not {}",
        type_name(obj)
    )))
}

/// Runs every strategy on every model (`Model`s, or paths of XCSP3 files) and returns one
/// row per run, in the order model, strategy: a dict with `model` (the model's name, or
/// the file), `strategy`, `seed`, `status` (`solved`, `unsatisfiable`, `limit`; for a
/// model with an objective `optimal`, `feasible`), `limit`, `node_limit`, `timeout_s`,
/// `count`, and the statistics (the fields of `Solver.stats`), as `csp compare --format
/// jsonl` writes them. `strategies`: names, or `"textbook"` for the 18 textbook ones
/// (the default). `count=True` counts every solution instead of finding one. The limits
/// hold per run (defaults as `csp compare`: 100,000 nodes and 5 seconds).
#[pyfunction]
#[pyo3(signature = (models, strategies=None, node_limit=100_000, time_limit=5.0, count=false, seed=0, tie_break="lowest"))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn compare<'py>(
    py: Python<'py>,
    models: &Bound<'py, PyAny>,
    strategies: Option<&Bound<'py, PyAny>>,
    node_limit: Option<u64>,
    time_limit: Option<f64>,
    count: bool,
    seed: u64,
    tie_break: &str,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let names: Vec<String> = match strategies {
        None => vec!["textbook".to_string()],
        Some(s) if s.cast::<PyString>().is_ok() => vec![s.extract()?],
        Some(s) => s.extract()?,
    };
    let strategies = strategies_of(&names)?;
    let nodes = node_limit;
    let time: Option<Duration> = time_limit.map(duration).transpose()?;
    let tie_break = tie_break.parse::<csp_core::TieBreak>().map_err(value_error)?;
    let items: Vec<Bound<'py, PyAny>> = if models.cast::<Model>().is_ok() || models.cast::<PyString>().is_ok()
    {
        vec![models.clone()]
    } else {
        models.try_iter()?.collect::<PyResult<_>>()?
    };
    let contenders = items
        .iter()
        .enumerate()
        .map(|(i, obj)| contender(py, obj, i))
        .collect::<PyResult<Vec<_>>>()?;
    let mut rows = Vec::with_capacity(contenders.len() * strategies.len());
    for (label, model) in &contenders {
        for &strategy in &strategies {
            let cancel = flag();
            let config = SearchConfig {
                tie_break,
                seed,
                limits: Limits {
                    nodes,
                    time,
                    cancel: Some(cancel.clone()),
                    ..Limits::default()
                },
                ..SearchConfig::with_strategy(strategy)
            };
            let run = run_interruptibly(py, &cancel, || run(model, config, count))?.map_err(value_error)?;
            let row = PyDict::new(py);
            row.set_item("model", label)?;
            row.set_item("strategy", strategy.to_string())?;
            row.set_item("seed", seed)?;
            row.set_item("status", run.status)?;
            row.set_item("limit", run.limit.map(limit_name))?;
            row.set_item("node_limit", nodes)?;
            row.set_item("timeout_s", time.map(|t| t.as_secs_f64()))?;
            row.set_item("count", count)?;
            merge(&row, &stats_dict(py, &run.stats)?)?;
            rows.push(row);
        }
    }
    Ok(rows)
}
