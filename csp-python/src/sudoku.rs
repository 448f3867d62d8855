//! `csp.sudoku`: Sudoku of any order from csp-sudoku: reading, solving, counting,
//! generating, rating, hints and strategy comparison.

use csp_core::{Branching, Limits, SearchConfig, Strategy};
use csp_sudoku::{
    Contender, GenerateConfig, Generator, ModelKind, PerOrder, SolveReport, Symmetry, default_contenders,
    parse_puzzle, summarise,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::config::{apply_options, duration, given, seconds, strategy};
use crate::convert::{limit_name, merge, stats_dict, to_dict, to_py};
use crate::domain::type_name;
use crate::errors::{guarded, shielded, value_error};
use crate::interrupt::{flag, run_interruptibly};

/// Adds the submodule `sudoku` to the extension module.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "sudoku")?;
    m.add_class::<Grid>()?;
    m.add_function(wrap_pyfunction!(parse, &m)?)?;
    m.add_function(wrap_pyfunction!(solve, &m)?)?;
    m.add_function(wrap_pyfunction!(count, &m)?)?;
    m.add_function(wrap_pyfunction!(generate, &m)?)?;
    m.add_function(wrap_pyfunction!(rate, &m)?)?;
    m.add_function(wrap_pyfunction!(hint, &m)?)?;
    m.add_function(wrap_pyfunction!(compare, &m)?)?;
    parent.add_submodule(&m)
}

/// A Sudoku board of any order (4x4 to 64x64): a puzzle (0 for a blank) or a solution.
/// `str()` gives the line format (`.` for blanks), `pretty()` a grid with box lines.
#[pyclass(frozen, module = "csp.sudoku", name = "Grid")]
pub struct Grid {
    pub(crate) grid: csp_sudoku::Grid,
}

#[pymethods]
impl Grid {
    /// Reads a puzzle in any of the command line's formats (see `csp.sudoku.parse`).
    #[new]
    fn new(text: &str) -> PyResult<Grid> {
        parse(text)
    }

    /// The box side: 3 for 9x9.
    #[getter]
    fn order(&self) -> usize {
        self.grid.order()
    }

    /// The board's side: 9 for 9x9.
    #[getter]
    fn size(&self) -> usize {
        self.grid.size()
    }

    /// The filled cells.
    #[getter]
    fn givens(&self) -> usize {
        self.grid.givens()
    }

    /// The cells, row by row (0 for a blank).
    #[getter]
    fn cells(&self) -> Vec<u8> {
        self.grid.cells().to_vec()
    }

    /// The rows, each a list of cells (0 for a blank).
    fn rows(&self) -> Vec<Vec<u8>> {
        self.grid
            .cells()
            .chunks(self.grid.size())
            .map(<[u8]>::to_vec)
            .collect()
    }

    /// Whether every cell is filled and no unit repeats a value.
    fn is_solved(&self) -> bool {
        self.grid.is_solved()
    }

    /// Whether this grid is a solution of `puzzle` (solved, and agreeing with its givens).
    fn is_solution_of(&self, puzzle: &Bound<'_, PyAny>) -> PyResult<bool> {
        let puzzle = grid_of(puzzle)?;
        shielded(|| self.grid.is_solution_of(&puzzle))
    }

    /// The board with box separators, one row per line.
    fn pretty(&self) -> PyResult<String> {
        shielded(|| self.grid.pretty().to_string())
    }

    fn __str__(&self) -> PyResult<String> {
        shielded(|| self.grid.to_string())
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!("Grid({:?})", self.__str__()?))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Grid>()
            .is_ok_and(|o| o.get().grid.cells() == self.grid.cells())
    }

    fn __hash__(&self) -> u64 {
        self.grid.cells().iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &c| {
            (h ^ u64::from(c)).wrapping_mul(0x100_0000_01b3)
        })
    }
}

/// A `Grid` object.
fn grid_object(py: Python<'_>, grid: csp_sudoku::Grid) -> PyResult<Py<Grid>> {
    Py::new(py, Grid { grid })
}

/// A puzzle from a `Grid` or a text.
fn grid_of(obj: &Bound<'_, PyAny>) -> PyResult<csp_sudoku::Grid> {
    if let Ok(g) = obj.cast::<Grid>() {
        return Ok(g.get().grid.clone());
    }
    if let Ok(text) = obj.cast::<PyString>() {
        let text = text.to_cow()?;
        return guarded(|| parse_puzzle(&text));
    }
    Err(PyTypeError::new_err(format!(
        "a puzzle is a csp.sudoku.Grid or a str, not {}",
        type_name(obj)
    )))
}

/// Reads one puzzle: a line of N*N cells (`.`, `0`, `_`, `?` or `*` for blanks; `1`-`9`
/// then `A`... for values), a grid of rows (separators `|`, `-`, `+`, `,` allowed), or
/// whitespace-separated numbers. The formats of `csp sudoku` (docs/cli.md).
#[pyfunction]
fn parse(text: &str) -> PyResult<Grid> {
    Ok(Grid {
        grid: guarded(|| parse_puzzle(text))?,
    })
}

/// The models and configuration for this call: csp-sudoku's defaults per order, with the
/// strategy, the model (`pairwise`, `alldiff-value`, `alldiff-hidden`, `alldiff-gac`)
/// and the options given.
fn per_order(
    strategy_text: Option<&str>,
    model: Option<&str>,
    options: Option<&Bound<'_, PyDict>>,
    cancel: &std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> PyResult<PerOrder> {
    let mut base = SearchConfig::with_strategy(csp_sudoku::default_strategy());
    if let Some(text) = strategy_text {
        base.strategy = strategy(text)?;
    }
    let config = apply_options(base, options, cancel.clone())?;
    let kind = model
        .map(|m| m.parse::<ModelKind>().map_err(value_error))
        .transpose()?;
    let branching = given(options, "branching")?.then_some(config.branching);
    Ok(PerOrder::new(config).kind(kind).branching(branching))
}

/// Solves a puzzle (a `Grid` or a text). Default: csp-sudoku's model and strategy for the
/// puzzle's order, as `csp sudoku solve`; `strategy`, `model` and the keyword options of
/// `Solver` change them.
///
/// Returns a dict: `status` (`solved`, `unsatisfiable`, `limit`), `solution` (a `Grid` or
/// `None`), `limit`, and the statistics.
#[pyfunction]
#[pyo3(signature = (puzzle, strategy=None, model=None, **options))]
fn solve<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    strategy: Option<&str>,
    model: Option<&str>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let puzzle = grid_of(puzzle)?;
    let cancel = flag();
    let per_order = per_order(strategy, model, options, &cancel)?;
    let order = puzzle.order();
    let report = run_interruptibly(py, &cancel, || {
        csp_sudoku::solve(per_order.model(order), &puzzle, per_order.config(order))
    })?;
    let out = PyDict::new(py);
    out.set_item("status", report.status.name())?;
    out.set_item(
        "solution",
        report.solution.map(|g| grid_object(py, g)).transpose()?,
    )?;
    out.set_item("limit", report.limit.map(limit_name))?;
    merge(&out, &stats_dict(py, &report.stats)?)?;
    Ok(out)
}

/// Counts the solutions of a puzzle, stopping at `limit` if given (`limit=2` checks
/// uniqueness). Defaults as `solve`.
///
/// Returns a dict: `status` (`solved`, `unsatisfiable`, `capped`, `limit`), `solutions`,
/// `limit`, and the statistics.
#[pyfunction]
#[pyo3(signature = (puzzle, limit=None, strategy=None, model=None, **options))]
fn count<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    limit: Option<u64>,
    strategy: Option<&str>,
    model: Option<&str>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let puzzle = grid_of(puzzle)?;
    let cancel = flag();
    let per_order = per_order(strategy, model, options, &cancel)?;
    let order = puzzle.order();
    let report = run_interruptibly(py, &cancel, || {
        csp_sudoku::count(per_order.model(order), &puzzle, per_order.config(order), limit)
    })?;
    let out = PyDict::new(py);
    out.set_item("status", report.status.name())?;
    out.set_item("solutions", report.solutions)?;
    out.set_item("limit", report.limit.map(limit_name))?;
    merge(&out, &stats_dict(py, &report.stats)?)?;
    Ok(out)
}

/// Generates a puzzle with a unique solution: a random complete grid, then clues removed
/// while the solution stays unique, down to a minimal puzzle or to `clues`. `order` is the
/// box side (2 to 6), `symmetry` `"none"`, `"rotational"` or `"mirror"`, `difficulty`
/// `"easy"`, `"medium"`, `"hard"` or `"expert"` (only puzzles of that level), `index` the
/// puzzle's number in the seed's sequence (the same seed and index give the same puzzle).
///
/// Returns a dict: `puzzle` and `solution` (`Grid`s), `clues`, and the `rating` when a
/// difficulty was asked.
#[pyfunction]
#[pyo3(signature = (order=3, seed=0, index=0, clues=None, symmetry="none", difficulty=None, time_limit=None))]
#[allow(clippy::too_many_arguments)]
fn generate<'py>(
    py: Python<'py>,
    order: usize,
    seed: u64,
    index: u64,
    clues: Option<usize>,
    symmetry: &str,
    difficulty: Option<&str>,
    time_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let cancel = flag();
    let config = GenerateConfig {
        symmetry: symmetry.parse::<Symmetry>().map_err(value_error)?,
        clues,
        difficulty: difficulty
            .map(|d| d.parse::<csp_sudoku::Level>().map_err(value_error))
            .transpose()?,
        seed,
        time: time_limit.map(seconds).transpose()?,
        cancel: Some(cancel.clone()),
        ..GenerateConfig::new(order)
    };
    let generator = guarded(|| Generator::new(config))?;
    let made = run_interruptibly(py, &cancel, || generator.puzzle(index))?.map_err(value_error)?;
    let out = PyDict::new(py);
    out.set_item("clues", made.puzzle.givens())?;
    out.set_item("puzzle", grid_object(py, made.puzzle)?)?;
    out.set_item("solution", grid_object(py, made.solution)?)?;
    out.set_item("rating", made.rating.as_ref().map(|r| to_py(py, r)).transpose()?)?;
    Ok(out)
}

/// Runs `job` with the default rules of the grid's order and limits of `time_limit`
/// seconds (and Ctrl-C), interruptibly; its error is a `ValueError`.
fn with_default_rules<T: Send, E: std::fmt::Display + Send>(
    py: Python<'_>,
    grid: &csp_sudoku::Grid,
    time_limit: Option<&Bound<'_, PyAny>>,
    job: impl FnOnce(&csp_sudoku::SudokuModel, &Limits) -> Result<T, E> + Send,
) -> PyResult<T> {
    let cancel = flag();
    let limits = Limits {
        time: time_limit.map(seconds).transpose()?,
        cancel: Some(cancel.clone()),
        ..Limits::default()
    };
    let order = grid.order();
    run_interruptibly(py, &cancel, || {
        job(&csp_sudoku::SudokuModel::default_for(order), &limits)
    })?
    .map_err(value_error)
}

/// Rates a puzzle as `csp sudoku rate`: the human techniques it needs, whether guessing
/// is needed, the default strategy's nodes and backtracks, a `score` and a `level`.
/// Returns a dict with those fields (`ValueError` for a puzzle with repeated givens or no
/// solution).
#[pyfunction]
#[pyo3(signature = (puzzle, time_limit=None))]
fn rate<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    time_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let puzzle = grid_of(puzzle)?;
    let rating = with_default_rules(py, &puzzle, time_limit, |rules, limits| {
        csp_sudoku::rate_within(rules, &puzzle, limits)
    })?;
    to_dict(py, &rating)
}

/// The next logical step for a partly filled grid, with its reason, as `csp sudoku hint`:
/// a dict with `row` and `col` (1-based), `value`, `technique`, `reason`, `kind`,
/// `unique` (whether the grid has exactly one solution), and `eliminations` for
/// elimination steps. `ValueError` when the grid has a wrong entry, is solved, or needs a
/// guess.
#[pyfunction]
#[pyo3(signature = (grid, time_limit=None))]
fn hint<'py>(
    py: Python<'py>,
    grid: &Bound<'py, PyAny>,
    time_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let grid = grid_of(grid)?;
    let hint = with_default_rules(py, &grid, time_limit, |rules, limits| {
        csp_sudoku::checked_hint_within(rules, &grid, limits)
    })?;
    to_dict(py, &hint)
}

/// Compares models and strategies over puzzles, as `csp sudoku compare`: one row (a dict)
/// per contender with `contender`, `model`, `strategy`, `puzzles`, `solved`,
/// `unsatisfiable`, `limit`, `nodes_mean`, `nodes_median`, `nodes_max`,
/// `backtracks_mean`, `checks_mean`, `time_ms_mean`, `time_ms_total` and `solutions`
/// (`pandas.DataFrame(rows)` takes them as they are). Default field: the 18 textbook
/// strategies on the pairwise model, and the default strategy on each all-different
/// strength; `models` and `strategies` (lists of names) set it to their product.
/// `node_limit` and `time_limit` hold per puzzle and contender.
#[pyfunction]
#[pyo3(signature = (puzzles, strategies=None, models=None, node_limit=100_000, time_limit=5.0))]
fn compare<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    strategies: Option<Vec<String>>,
    models: Option<Vec<String>>,
    node_limit: Option<u64>,
    time_limit: Option<f64>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let puzzles = if puzzles.cast::<PyString>().is_ok() || puzzles.cast::<Grid>().is_ok() {
        vec![grid_of(puzzles)?]
    } else {
        puzzles
            .try_iter()?
            .map(|p| grid_of(&p?))
            .collect::<PyResult<Vec<_>>>()?
    };
    let contenders = contenders(strategies, models)?;
    let cancel = flag();
    let limits = Limits {
        nodes: node_limit,
        time: time_limit.map(duration).transpose()?,
        cancel: Some(cancel.clone()),
        ..Limits::default()
    };
    let mut rows = Vec::with_capacity(contenders.len());
    for contender in contenders {
        let per_order = PerOrder::new(SearchConfig {
            limits: limits.clone(),
            ..SearchConfig::with_strategy(contender.strategy)
        })
        .kind(Some(contender.model))
        .branching(Some(Branching::Variables));
        let reports: Vec<SolveReport> = run_interruptibly(py, &cancel, || {
            puzzles
                .iter()
                .map(|p| csp_sudoku::solve(per_order.model(p.order()), p, per_order.config(p.order())))
                .collect()
        })?;
        let row = shielded(|| summarise(&contender, &reports))?;
        rows.push(to_dict(py, &row)?);
    }
    Ok(rows)
}

/// The contenders of a comparison: the default field, or the product of the models
/// (default pairwise) and strategies (default the 18 textbook ones) given.
fn contenders(strategies: Option<Vec<String>>, models: Option<Vec<String>>) -> PyResult<Vec<Contender>> {
    if strategies.is_none() && models.is_none() {
        return Ok(default_contenders());
    }
    let strategies: Vec<Strategy> = match strategies {
        None => Strategy::textbook(),
        Some(names) => crate::compare::strategies_of(&names)?,
    };
    let models: Vec<ModelKind> = match models {
        None => vec![ModelKind::Pairwise],
        Some(names) => names
            .iter()
            .map(|m| m.parse::<ModelKind>().map_err(value_error))
            .collect::<PyResult<_>>()?,
    };
    Ok(models
        .iter()
        .flat_map(|&model| {
            strategies
                .iter()
                .map(move |&strategy| Contender { model, strategy })
        })
        .collect())
}
