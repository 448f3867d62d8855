//! `csp.queens`: the n-queens board from csp-queens: its models, a first solution,
//! counting, and min-conflicts.

use csp_core::{MinConflicts, Strategy};
use csp_queens::{CountOptions, Encoding, MAX_PAIRWISE_N};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::config::{apply_options, seconds, strategy};
use crate::convert::{limit_name, merge, stats_dict, to_dict};
use crate::errors::{guarded, shielded, value_error};
use crate::interrupt::{flag, run_interruptibly};
use crate::model::Model;

/// Adds the submodule `queens` to the extension module.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "queens")?;
    m.add_function(wrap_pyfunction!(model, &m)?)?;
    m.add_function(wrap_pyfunction!(solve, &m)?)?;
    m.add_function(wrap_pyfunction!(count, &m)?)?;
    m.add_function(wrap_pyfunction!(min_conflicts, &m)?)?;
    m.add_function(wrap_pyfunction!(verify, &m)?)?;
    m.add_function(wrap_pyfunction!(board, &m)?)?;
    parent.add_submodule(&m)
}

/// An encoding by its name: `pairwise`, `alldiff`, or `alldiff:value|hidden|gac`.
fn encoding(kind: &str) -> PyResult<Encoding> {
    kind.parse::<Encoding>().map_err(value_error)
}

/// The `n`-queens board as a `Model`: one variable per column (`q0`, `q1`, ...) whose value
/// is its queen's row `0..n`. `kind="pairwise"`: `!=` and `|qi - qj| != j - i` for each
/// pair of columns, the textbook model (its node counts match the textbook's);
/// `"alldiff"` (or `"alldiff:value"`, `"alldiff:hidden"`, `"alldiff:gac"`): three n-ary
/// all-different constraints.
#[pyfunction]
#[pyo3(signature = (n, kind="alldiff"))]
fn model(n: usize, kind: &str) -> PyResult<Model> {
    let encoding = encoding(kind)?;
    let core = guarded(|| encoding.model(n))?;
    Ok(Model::from_core(core, Some(format!("queens-{n}")), None))
}

/// The encoding a strategy-given search uses: `model`, else the textbook pairwise model
/// (the all-different one past the pairwise model's size).
fn textbook_encoding(n: usize, model: Option<&str>) -> PyResult<Encoding> {
    match model {
        Some(kind) => encoding(kind),
        None if n <= MAX_PAIRWISE_N => Ok(Encoding::Pairwise),
        None => Ok(Encoding::AllDifferent(csp_core::Strength::Value)),
    }
}

/// Finds one solution of the `n`-queens board. Without `strategy`: csp-queens' default
/// (the all-different model, `mrv/random/fc`, random ties and Luby restarts), which
/// solves boards of thousands of columns. With one (`"mrv/asc/fc"`): the textbook setting,
/// the pairwise model unless `model` says otherwise. Keyword options as for `Solver`.
///
/// Returns a dict: `n`, `status` (`solved`, `unsatisfiable`, `limit`), `solution` (the
/// row of each column's queen, or `None`), `strategy`, `model`, `limit`, and the
/// statistics (the fields of `Solver.stats`).
#[pyfunction]
#[pyo3(signature = (n, strategy=None, model=None, **options))]
fn solve<'py>(
    py: Python<'py>,
    n: usize,
    strategy: Option<&str>,
    model: Option<&str>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (encoding, base) = match strategy {
        None => {
            let (default_encoding, config) = shielded(|| csp_queens::default_solve(n))?;
            (
                model.map(self::encoding).transpose()?.unwrap_or(default_encoding),
                config,
            )
        }
        Some(text) => (
            textbook_encoding(n, model)?,
            csp_core::SearchConfig::with_strategy(self::strategy(text)?),
        ),
    };
    let cancel = flag();
    let config = apply_options(base, options, cancel.clone())?;
    let strategy = config.strategy;
    let report =
        run_interruptibly(py, &cancel, || csp_queens::solve(n, encoding, config))?.map_err(value_error)?;
    let out = PyDict::new(py);
    out.set_item("n", n)?;
    out.set_item("status", report.outcome.status())?;
    out.set_item("solution", report.rows())?;
    out.set_item("strategy", strategy.to_string())?;
    out.set_item("model", encoding_name(encoding))?;
    out.set_item(
        "limit",
        match report.outcome {
            csp_core::Outcome::Limit(kind) => Some(limit_name(kind)),
            _ => None,
        },
    )?;
    merge(&out, &stats_dict(py, &report.stats)?)?;
    Ok(out)
}

/// Counts the solutions of the `n`-queens board (`n <= 20`). Default: the pairwise model
/// and `mrv/asc/fc`, as `csp queens count`. `symmetry=True` searches only boards whose
/// first queen is in the top half (node counts then refer to that search);
/// `distinct=True` also counts the solutions distinct up to rotations and reflections.
///
/// Returns a dict: `n`, `status` (`solved`, `unsatisfiable`, `limit`), `solutions`,
/// `distinct`, `complete`, `limit`, `strategy`, `model`, and the statistics.
#[pyfunction]
#[pyo3(signature = (n, strategy=None, model=None, symmetry=false, distinct=false, **options))]
fn count<'py>(
    py: Python<'py>,
    n: usize,
    strategy: Option<&str>,
    model: Option<&str>,
    symmetry: bool,
    distinct: bool,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (default_encoding, mut base) = csp_queens::default_count();
    if let Some(text) = strategy {
        base.strategy = self::strategy(text)?;
    }
    let encoding = model.map(self::encoding).transpose()?.unwrap_or(default_encoding);
    let cancel = flag();
    let config = apply_options(base, options, cancel.clone())?;
    let strategy: Strategy = config.strategy;
    let report = run_interruptibly(py, &cancel, || {
        csp_queens::count(
            n,
            encoding,
            config,
            CountOptions {
                symmetry,
                distinct,
                ..CountOptions::default()
            },
        )
    })?
    .map_err(value_error)?;
    let out = PyDict::new(py);
    out.set_item("n", n)?;
    out.set_item(
        "status",
        match (report.complete, report.solutions) {
            (false, _) => "limit",
            (true, 0) => "unsatisfiable",
            (true, _) => "solved",
        },
    )?;
    out.set_item("solutions", report.solutions)?;
    out.set_item("distinct", report.distinct)?;
    out.set_item("complete", report.complete)?;
    out.set_item("limit", report.limit.map(limit_name))?;
    out.set_item("strategy", strategy.to_string())?;
    out.set_item("model", encoding_name(encoding))?;
    merge(&out, &stats_dict(py, &report.stats)?)?;
    Ok(out)
}

/// Solves the `n`-queens board by min-conflicts local search (millions of queens), from a
/// greedy start: `seed`, `max_steps`, `restart_after` (a fresh start after that many steps
/// without a solution; default `50 * n`, as `csp queens local`), `time_limit` in seconds.
///
/// Returns a dict: `n`, `status` (`solved`, `unsatisfiable` for n = 2 and 3, `limit`),
/// `solution` (rows, or `None`), and the local search's statistics.
#[pyfunction]
#[pyo3(signature = (n, seed=0, max_steps=10_000_000, restart_after=None, time_limit=None))]
fn min_conflicts<'py>(
    py: Python<'py>,
    n: usize,
    seed: u64,
    max_steps: u64,
    restart_after: Option<u64>,
    time_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let cancel = flag();
    let config = MinConflicts {
        max_steps,
        restart_after: Some(restart_after.unwrap_or_else(|| 50u64.saturating_mul(n as u64))),
        seed,
        time: time_limit.map(seconds).transpose()?,
        cancel: Some(cancel.clone()),
    };
    let report =
        run_interruptibly(py, &cancel, || csp_queens::local_search(n, &config))?.map_err(value_error)?;
    let out = PyDict::new(py);
    out.set_item("n", n)?;
    out.set_item("status", report.status)?;
    out.set_item("solution", report.rows.as_deref())?;
    merge(&out, &to_dict(py, &report.stats)?)?;
    Ok(out)
}

/// Checks a board independently of the solver: `None` if `rows` (the row of each
/// column's queen) places the queens so that none attacks another, else why not.
#[pyfunction]
fn verify(rows: Vec<u32>) -> PyResult<Option<String>> {
    shielded(|| csp_queens::verify(&rows).err())
}

/// The board drawn as text (`Q` and `.`), for boards of at most 40 columns (`None`
/// beyond).
#[pyfunction]
fn board(rows: Vec<u32>) -> PyResult<Option<String>> {
    shielded(|| csp_queens::board(&rows))
}

/// The model's name as `csp queens --model` spells it.
fn encoding_name(encoding: Encoding) -> String {
    match encoding {
        Encoding::Pairwise => "pairwise".to_string(),
        Encoding::AllDifferent(strength) => format!("alldiff:{}", strength.name()),
    }
}
