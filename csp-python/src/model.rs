//! `csp.Model`: variables and constraints, over csp-core's `Model`.

use std::collections::HashMap;
use std::fmt::Display;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use csp_core::{Cmp, Domain, Relation, Strength, TableCell, VarId};
use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::domain::{self, int, type_name, value_i32};
use crate::errors::{guarded, shielded};
use crate::expr::{Node, Var, node_of};
use crate::handles;
use crate::locks::lock;
use crate::model_globals as globals;

/// Gives every model an identity, so that a variable of another model is refused.
static NEXT_MODEL: AtomicU64 = AtomicU64::new(1);

/// A constraint satisfaction problem: named variables with finite integer domains, and
/// constraints between them. Solve it with `csp.Solver(model, strategy)`.
///
/// ```python
/// m = csp.Model("australia")
/// wa, nt = m.var("WA", range(3)), m.var("NT", range(3))
/// m.not_equal(wa, nt)             # or m.add(wa != nt)
/// ```
///
/// A solver works on a copy of the model taken when it is made: constraints posted later
/// do not reach it. Threads may share a model.
#[pyclass(frozen, module = "csp", name = "Model")]
pub struct Model {
    /// This model's identity (checked against each variable's).
    pub(crate) id: u64,
    /// A label for `repr` and comparison rows.
    pub(crate) name: Option<String>,
    /// How many variables solutions show (the first ones): an XCSP3 instance's declared
    /// variables, not the auxiliary ones its posting added. `None`: all.
    pub(crate) shown: Option<usize>,
    /// What posting changes. Held only while no Python code runs (`crate::locks`): the
    /// arguments are read before, and the objects returned made after.
    state: Mutex<State>,
}

/// The variables and constraints of a [`Model`].
struct State {
    inner: csp_core::Model,
    /// Each variable's index by name.
    by_name: HashMap<String, usize>,
}

impl Model {
    /// A Python model around a csp-core model (the queens and XCSP3 models).
    pub(crate) fn from_core(inner: csp_core::Model, name: Option<String>, shown: Option<usize>) -> Model {
        let by_name = inner
            .vars()
            .map(|v| (inner.name(v).to_string(), v.index()))
            .collect();
        Model {
            id: NEXT_MODEL.fetch_add(1, Ordering::Relaxed),
            name,
            shown,
            state: Mutex::new(State { inner, by_name }),
        }
    }

    fn state(&self, py: Python<'_>) -> MutexGuard<'_, State> {
        lock(py, &self.state)
    }

    /// A copy of the csp-core model, as it is now: what a solver searches.
    pub(crate) fn snapshot(&self, py: Python<'_>) -> csp_core::Model {
        self.state(py).inner.clone()
    }

    /// Posts through csp-core: its error is a `ValueError`, a panic a `RuntimeError`.
    fn post<E: Display>(
        &self,
        py: Python<'_>,
        post: impl FnOnce(&mut csp_core::Model) -> Result<(), E>,
    ) -> PyResult<()> {
        let mut state = self.state(py);
        guarded(|| post(&mut state.inner))
    }

    /// The variable `obj` stands for: a `Var` of this model.
    pub(crate) fn var_of(&self, obj: &Bound<'_, PyAny>) -> PyResult<VarId> {
        handles::var_of(self.id, obj)
    }

    /// The variables of an iterable of `Var` of this model.
    pub(crate) fn vars_of(&self, obj: &Bound<'_, PyAny>) -> PyResult<Vec<VarId>> {
        handles::vars_of(self.id, obj)
    }

    /// The `Var` objects of variables of this model, by id and name.
    fn var_objects(&self, py: Python<'_>, vars: Vec<(VarId, String)>) -> PyResult<Vec<Py<Var>>> {
        vars.into_iter()
            .map(|(id, name)| Var::create(py, self.id, id, &name))
            .collect()
    }

    /// Posts `x op y + offset` through the binary relations where one fits.
    fn post_relation(&self, py: Python<'_>, x: VarId, op: &str, y: VarId, offset: i32) -> PyResult<()> {
        let relation = match (op, offset) {
            ("!=", 0) => Some((x, y, Relation::NotEqual)),
            ("==", 0) => Some((x, y, Relation::Equal)),
            ("<", 0) => Some((x, y, Relation::Less)),
            ("<=", 0) => Some((x, y, Relation::LessEq)),
            (">", 0) => Some((y, x, Relation::Less)),
            (">=", 0) => Some((y, x, Relation::LessEq)),
            ("!=", c) => Some((x, y, Relation::NotEqualOffset(c))),
            ("==", c) => Some((x, y, Relation::EqualOffset(c))),
            _ => None,
        };
        match relation {
            Some((a, b, r)) => self.post(py, |m| m.post(a, b, r)),
            // x op y + c  is  x - y op c.
            None => {
                let cmp = cmp(op)?;
                self.post(py, |m| m.linear(&[(1, x), (-1, y)], cmp, i64::from(offset)))
            }
        }
    }
}

/// A solution as a dict name -> value, over the first `shown` variables (all for `None`).
pub(crate) fn solution_dict<'py>(
    py: Python<'py>,
    model: &csp_core::Model,
    shown: Option<usize>,
    values: &[i32],
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let n = shown.unwrap_or(values.len()).min(values.len());
    for (var, value) in model.vars().zip(values).take(n) {
        dict.set_item(model.name(var), value)?;
    }
    Ok(dict)
}

/// The most variables `Model.vars` makes at once, and states or nodes of an automaton or
/// a diagram: csp-xcsp's bound on an instance's variables (2^25). Counts beyond it are a
/// mistake, and the memory they would take ends the process rather than raising.
const MAX_COUNT: usize = 1 << 25;

/// `ValueError` for a count beyond [`MAX_COUNT`].
fn within_bound(what: &str, count: usize) -> PyResult<()> {
    if count > MAX_COUNT {
        return Err(PyValueError::new_err(format!(
            "{what} = {count} is more than csp takes ({MAX_COUNT})"
        )));
    }
    Ok(())
}

/// A comparison by its Python spelling.
pub(crate) fn cmp(op: &str) -> PyResult<Cmp> {
    Ok(match op {
        "==" => Cmp::Eq,
        "!=" => Cmp::Ne,
        "<" => Cmp::Lt,
        "<=" => Cmp::Le,
        ">" => Cmp::Gt,
        ">=" => Cmp::Ge,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown comparison `{op}`, expected ==, !=, <, <=, > or >="
            )));
        }
    })
}

/// An all-different strength by name.
pub(crate) fn strength(name: &str) -> PyResult<Strength> {
    Strength::ALL
        .into_iter()
        .find(|s| s.name() == name)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown all-different strength `{name}`, expected pairwise, value, hidden or gac"
            ))
        })
}

/// One table row: integers, with `None` or `"*"` for any value.
fn table_row(row: &Bound<'_, PyAny>) -> PyResult<Vec<TableCell>> {
    let mut cells = Vec::new();
    for cell in row.try_iter()? {
        let cell = cell?;
        if cell.is_none()
            || cell
                .cast::<PyString>()
                .is_ok_and(|s| s.to_cow().is_ok_and(|s| s == "*"))
        {
            cells.push(TableCell::Any);
        } else {
            cells.push(TableCell::Value(value_i32(&cell, "a table value")?));
        }
    }
    Ok(cells)
}

/// Whether an error raised by a predicate is a plain error (an `Exception`) rather than
/// KeyboardInterrupt, SystemExit or GeneratorExit, which must go through untouched.
fn is_plain_error(py: Python<'_>, error: &PyErr) -> bool {
    error.is_instance_of::<pyo3::exceptions::PyException>(py)
}

#[pymethods]
impl Model {
    /// An empty model; `name` labels it in `repr` and in `csp.compare` rows.
    #[new]
    #[pyo3(signature = (name=None))]
    fn new(name: Option<String>) -> Model {
        Model::from_core(csp_core::Model::new(), name, None)
    }

    /// The model's label (`None` if it has none).
    #[getter]
    fn name(&self) -> Option<String> {
        self.name.clone()
    }

    /// Adds a variable. `domain`: `range(...)`, an inclusive `(lo, hi)` pair, or a list
    /// (any iterable) of integers. Names must be unique within the model.
    fn var(&self, py: Python<'_>, name: &str, domain: &Bound<'_, PyAny>) -> PyResult<Py<Var>> {
        let names = [name.to_string()];
        self.check_new(py, &names)?;
        let domain = domain::domain(domain, name)?;
        let ids = self.add_vars(py, &names, domain)?;
        match ids[..] {
            [id] => Var::create(py, self.id, id, name),
            _ => Err(pyo3::exceptions::PyRuntimeError::new_err(
                "internal error in csp (please report it): one name made several variables",
            )),
        }
    }

    /// Adds `n` variables named `prefix[0]`, ..., `prefix[n-1]` (as XCSP3 names array
    /// cells) with one domain, and returns them as a list.
    fn vars(
        &self,
        py: Python<'_>,
        prefix: &str,
        n: usize,
        domain: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<Py<Var>>> {
        within_bound("n", n)?;
        let names: Vec<String> = (0..n).map(|i| format!("{prefix}[{i}]")).collect();
        self.check_new(py, &names)?;
        let domain = domain::domain(domain, prefix)?;
        let ids = self.add_vars(py, &names, domain)?;
        self.var_objects(py, ids.into_iter().zip(names).collect())
    }

    /// The variable with this name (`KeyError` if there is none).
    fn __getitem__(&self, py: Python<'_>, name: &str) -> PyResult<Py<Var>> {
        let found = {
            let state = self.state(py);
            state.by_name.get(name).and_then(|&i| state.inner.var(i))
        };
        match found {
            Some(v) => Var::create(py, self.id, v, name),
            None => Err(PyKeyError::new_err(name.to_string())),
        }
    }

    fn __contains__(&self, py: Python<'_>, name: &str) -> bool {
        self.state(py).by_name.contains_key(name)
    }

    /// The number of variables.
    fn __len__(&self, py: Python<'_>) -> usize {
        self.state(py).inner.num_vars()
    }

    /// Every variable, in creation order.
    #[getter]
    fn variables(&self, py: Python<'_>) -> PyResult<Vec<Py<Var>>> {
        let vars = {
            let state = self.state(py);
            let inner = &state.inner;
            inner.vars().map(|v| (v, inner.name(v).to_string())).collect()
        };
        self.var_objects(py, vars)
    }

    /// A variable's initial domain, as a sorted list of values.
    fn domain(&self, py: Python<'_>, var: &Bound<'_, PyAny>) -> PyResult<Vec<i32>> {
        let v = self.var_of(var)?;
        Ok(self.state(py).inner.domain(v).values().collect())
    }

    /// Fixes `var` to `value` before search (a given: never a search node).
    fn fix(&self, py: Python<'_>, var: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = self.var_of(var)?;
        let value = value_i32(value, "the value")?;
        self.post(py, |m| m.fix(v, value))
    }

    /// Posts `x op y + offset`, `op` one of `==`, `!=`, `<`, `<=`, `>`, `>=`. Without an
    /// offset `==`, `!=`, `<` and `<=` (and `>`, `>=` turned round) are csp-core's binary
    /// relations, as are `==` and `!=` with one; the others become a linear constraint.
    #[pyo3(signature = (x, op, y, offset=0))]
    fn relation(
        &self,
        py: Python<'_>,
        x: &Bound<'_, PyAny>,
        op: &str,
        y: &Bound<'_, PyAny>,
        offset: i32,
    ) -> PyResult<()> {
        let (x, y) = (self.var_of(x)?, self.var_of(y)?);
        cmp(op)?;
        self.post_relation(py, x, op, y, offset)
    }

    /// Posts `x != y` (a binary relation: the textbook constraint).
    fn not_equal(&self, py: Python<'_>, x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>) -> PyResult<()> {
        self.relation(py, x, "!=", y, 0)
    }

    /// Posts `x == y`.
    fn equal(&self, py: Python<'_>, x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>) -> PyResult<()> {
        self.relation(py, x, "==", y, 0)
    }

    /// Posts `x < y`.
    fn less(&self, py: Python<'_>, x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>) -> PyResult<()> {
        self.relation(py, x, "<", y, 0)
    }

    /// Posts `x <= y`.
    fn less_equal(&self, py: Python<'_>, x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>) -> PyResult<()> {
        self.relation(py, x, "<=", y, 0)
    }

    /// Posts `|x - y| != c` (the queens' diagonals).
    fn abs_diff_not_equal(
        &self,
        py: Python<'_>,
        x: &Bound<'_, PyAny>,
        y: &Bound<'_, PyAny>,
        c: i32,
    ) -> PyResult<()> {
        let (x, y) = (self.var_of(x)?, self.var_of(y)?);
        self.post(py, |m| m.post(x, y, Relation::AbsDiffNotEqual(c)))
    }

    /// Posts a binary constraint given as a Python function `predicate(a, b) -> bool`,
    /// AIMA style. The function is called once per pair of values of the two domains, here
    /// and now, and the allowed pairs become a table: search never calls Python. If it
    /// raises, the model is unchanged and a `ValueError` naming the pair is raised from
    /// the function's exception (its `__cause__`).
    fn predicate(
        &self,
        py: Python<'_>,
        x: &Bound<'_, PyAny>,
        y: &Bound<'_, PyAny>,
        predicate: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let (vx, vy) = (self.var_of(x)?, self.var_of(y)?);
        if !predicate.is_callable() {
            return Err(PyTypeError::new_err(format!(
                "the predicate must be callable, not {}",
                type_name(predicate)
            )));
        }
        // The predicate may use this model, or let another thread post to it: it runs
        // with the domains read, and the table is posted after.
        let (xs, ys, x_name, y_name) = {
            let state = self.state(py);
            let inner = &state.inner;
            (
                inner.domain(vx).values().collect::<Vec<i32>>(),
                inner.domain(vy).values().collect::<Vec<i32>>(),
                inner.name(vx).to_string(),
                inner.name(vy).to_string(),
            )
        };
        let mut pairs = Vec::new();
        for &a in &xs {
            for &b in &ys {
                let allowed = predicate.call1((a, b)).and_then(|r| r.is_truthy());
                match allowed {
                    Ok(true) => pairs.push((a, b)),
                    Ok(false) => {}
                    Err(e) if is_plain_error(py, &e) => {
                        let err = PyValueError::new_err(format!(
                            "the predicate on ({x_name}, {y_name}) raised {} on ({a}, {b}); the model is unchanged",
                            e.get_type(py).name().map(|n| n.to_string()).unwrap_or_default()
                        ));
                        err.set_cause(py, Some(e));
                        return Err(err);
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        self.post(py, |m| m.post(vx, vy, Relation::table(pairs)))
    }

    /// Posts all-different over `vars`. `strength="pairwise"` (the default) posts `!=`
    /// between every pair, the textbook binary encoding whose node counts match the
    /// textbook's; `"value"`, `"hidden"` and `"gac"` post one n-ary constraint of that
    /// strength (hidden singles; generalised arc consistency by matching).
    #[pyo3(signature = (vars, strength="pairwise"))]
    fn all_different(&self, py: Python<'_>, vars: &Bound<'_, PyAny>, strength: &str) -> PyResult<()> {
        let vars = self.vars_of(vars)?;
        if strength == "pairwise" {
            return self.post(py, |m| m.all_different(&vars));
        }
        let strength = self::strength(strength)?;
        self.post(py, |m| m.all_different_nary(&vars, strength))
    }

    /// Posts a table (extension) constraint: the values of `vars` form one of `tuples`
    /// (`supports=True`) or none of them (`supports=False`: conflicts). A cell `None` or
    /// `"*"` stands for any value.
    #[pyo3(signature = (vars, tuples, supports=true))]
    fn table(
        &self,
        py: Python<'_>,
        vars: &Bound<'_, PyAny>,
        tuples: &Bound<'_, PyAny>,
        supports: bool,
    ) -> PyResult<()> {
        let vars = self.vars_of(vars)?;
        let rows = tuples
            .try_iter()?
            .map(|row| table_row(&row?))
            .collect::<PyResult<Vec<_>>>()?;
        self.post(py, |m| m.table(&vars, rows, supports))
    }

    /// Posts `sum(terms) op rhs`: `terms` is a list of variables, or of `(coefficient,
    /// variable)` pairs; `op` one of `==`, `!=`, `<`, `<=`, `>`, `>=`; `rhs` an integer or
    /// a variable.
    fn linear(
        &self,
        py: Python<'_>,
        terms: &Bound<'_, PyAny>,
        op: &str,
        rhs: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let terms = globals::terms(self.id, terms)?;
        let cmp = cmp(op)?;
        if rhs.cast::<Var>().is_ok() {
            let rhs = self.var_of(rhs)?;
            self.post(py, |m| m.linear_var(&terms, cmp, rhs))
        } else {
            let rhs = int(rhs, "the right-hand side")?;
            self.post(py, |m| m.linear(&terms, cmp, rhs))
        }
    }

    /// Posts `values[index - start] == value`: `values` a list of integers and variables,
    /// `value` an integer or a variable (generalised arc consistency).
    #[pyo3(signature = (values, index, value, start=0))]
    fn element(
        &self,
        py: Python<'_>,
        values: &Bound<'_, PyAny>,
        index: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
        start: i64,
    ) -> PyResult<()> {
        let list = values
            .try_iter()?
            .map(|item| globals::operand(self.id, &item?))
            .collect::<PyResult<Vec<_>>>()?;
        let index = self.var_of(index)?;
        let value = globals::operand(self.id, value)?;
        self.post(py, |m| m.element(&list, index, start, value))
    }

    /// Posts an expression built from variables with Python's operators (see `Expr`):
    /// `m.add(x + y == z)`, `m.add((x < y) | (y < z))`. Its value must be true (non-zero).
    /// Binary shapes become csp-core's binary relations, linear ones linear constraints,
    /// small scopes tables.
    fn add(&self, py: Python<'_>, expr: &Bound<'_, PyAny>) -> PyResult<()> {
        let node = node_of(expr)?;
        if let Node::Const(_) = node {
            return Err(PyTypeError::new_err(
                "Model.add takes an expression over variables, not an integer or a bool (did a comparison of plain numbers slip in?)",
            ));
        }
        let expr = node.to_core(self.id)?;
        self.post(py, |m| m.intension(&expr))
    }

    /// Makes the model a minimisation problem over `var` (`Solver.optimize` then finds a
    /// solution with its smallest value; `solve`, `count` and `solutions` ignore it).
    fn minimize(&self, py: Python<'_>, var: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = self.var_of(var)?;
        self.post(py, |m| m.minimize(v))
    }

    /// Makes the model a maximisation problem over `var` (see `minimize`).
    fn maximize(&self, py: Python<'_>, var: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = self.var_of(var)?;
        self.post(py, |m| m.maximize(v))
    }

    /// The objective: `("minimize", var)`, `("maximize", var)` or `None`.
    #[getter]
    fn objective(&self, py: Python<'_>) -> PyResult<Option<(&'static str, Py<Var>)>> {
        let objective = {
            let state = self.state(py);
            let inner = &state.inner;
            match inner.objective() {
                Some(csp_core::Objective::Minimize(v)) => Some(("minimize", v, inner.name(v).to_string())),
                Some(csp_core::Objective::Maximize(v)) => Some(("maximize", v, inner.name(v).to_string())),
                Some(_) | None => None,
            }
        };
        objective
            .map(|(sense, v, name)| Ok((sense, Var::create(py, self.id, v, &name)?)))
            .transpose()
    }

    /// Whether `solution` (a dict name -> value, or a list of values in variable order)
    /// satisfies every domain and constraint.
    fn is_solution(&self, py: Python<'_>, solution: &Bound<'_, PyAny>) -> PyResult<bool> {
        let values = self.values_of(py, solution)?;
        let state = self.state(py);
        shielded(|| state.inner.is_solution(&values))
    }

    /// What `solution` violates, in words; `None` for a solution.
    fn violation(&self, py: Python<'_>, solution: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let values = self.values_of(py, solution)?;
        let state = self.state(py);
        shielded(|| state.inner.violation(&values))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let label = match &self.name {
            Some(name) => format!("{name:?}, "),
            None => String::new(),
        };
        let state = self.state(py);
        let inner = &state.inner;
        format!(
            "Model({label}vars={}, binary={}, nary={}, objective={})",
            inner.num_vars(),
            inner.constraints().len(),
            inner.propagators().len(),
            match inner.objective() {
                Some(csp_core::Objective::Minimize(v)) => format!("minimize {}", inner.name(v)),
                Some(csp_core::Objective::Maximize(v)) => format!("maximize {}", inner.name(v)),
                Some(_) | None => "none".to_string(),
            }
        )
    }

    // The global constraints of XCSP3-core, posted by csp-core (`post_global.rs`); the
    // arguments are read in `model_globals.rs`.

    /// Posts `allEqual`: every variable of `vars` takes the same value.
    fn all_equal(&self, py: Python<'_>, vars: &Bound<'_, PyAny>) -> PyResult<()> {
        let vars = self.vars_of(vars)?;
        self.post(py, |m| m.all_equal(&vars))
    }

    /// Posts all-different except the values of `except_`: any number of variables may
    /// take one of those.
    fn all_different_except(
        &self,
        py: Python<'_>,
        vars: &Bound<'_, PyAny>,
        except_: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let vars = self.vars_of(vars)?;
        let except = domain::values(except_, "an excepted value")?;
        self.post(py, |m| m.all_different_except(&vars, &except))
    }

    /// Posts all-different over lists: the lists (of one length) are pairwise distinct
    /// as tuples.
    fn all_different_lists(&self, py: Python<'_>, lists: &Bound<'_, PyAny>) -> PyResult<()> {
        let lists = globals::lists(self.id, lists)?;
        self.post(py, |m| m.all_different_lists(&lists))
    }

    /// Posts `ordered`: `vars[i] + lengths[i] op vars[i+1]` for each consecutive pair,
    /// `op` one of `<`, `<=`, `>=`, `>`; `lengths` (integers or variables, one per pair)
    /// may be left out.
    #[pyo3(signature = (vars, op="<=", lengths=None))]
    fn ordered(
        &self,
        py: Python<'_>,
        vars: &Bound<'_, PyAny>,
        op: &str,
        lengths: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let vars = self.vars_of(vars)?;
        let order = globals::order(op)?;
        let lengths = lengths.map(|l| globals::int_or_vars(self.id, l)).transpose()?;
        self.post(py, |m| m.ordered(&vars, lengths.as_deref(), order))
    }

    /// Posts `lex`: each list is lexicographically `op` the next (`<`, `<=`, `>=`, `>`).
    #[pyo3(signature = (lists, op="<="))]
    fn lex(&self, py: Python<'_>, lists: &Bound<'_, PyAny>, op: &str) -> PyResult<()> {
        let lists = globals::lists(self.id, lists)?;
        let order = globals::order(op)?;
        self.post(py, |m| m.lex(&lists, order))
    }

    /// Posts `lex` on a matrix: its rows, and its columns, each lexicographically `op`
    /// the next.
    #[pyo3(signature = (rows, op="<="))]
    fn lex_matrix(&self, py: Python<'_>, rows: &Bound<'_, PyAny>, op: &str) -> PyResult<()> {
        let rows = globals::lists(self.id, rows)?;
        let order = globals::order(op)?;
        self.post(py, |m| m.lex_matrix(&rows, order))
    }

    /// Posts `precedence`: if a variable takes `values[k+1]`, an earlier one takes
    /// `values[k]`; `covered`: every value is taken.
    #[pyo3(signature = (vars, values, covered=false))]
    fn precedence(
        &self,
        py: Python<'_>,
        vars: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
        covered: bool,
    ) -> PyResult<()> {
        let vars = self.vars_of(vars)?;
        let values = domain::values(values, "a value")?;
        self.post(py, |m| m.precedence(&vars, &values, covered))
    }

    /// Posts `count`: `counter` is the number of variables of `vars` whose value is
    /// `values` (an integer, a list of integers: `among`, or a variable).
    fn count(
        &self,
        py: Python<'_>,
        vars: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
        counter: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let vars = self.vars_of(vars)?;
        let counter = self.var_of(counter)?;
        if values.cast::<Var>().is_ok() {
            let value = self.var_of(values)?;
            return self.post(py, |m| m.count_var(&vars, value, counter));
        }
        let values = globals::one_or_many(values)?;
        self.post(py, |m| m.count(&vars, &values, counter))
    }

    /// Posts `nValues`: `counter` is the number of distinct values of `vars`, those of
    /// `except_` not counted.
    #[pyo3(signature = (vars, counter, except_=None))]
    fn n_values(
        &self,
        py: Python<'_>,
        vars: &Bound<'_, PyAny>,
        counter: &Bound<'_, PyAny>,
        except_: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let vars = self.vars_of(vars)?;
        let counter = self.var_of(counter)?;
        let except = except_
            .map(|e| domain::values(e, "an excepted value"))
            .transpose()?
            .unwrap_or_default();
        self.post(py, |m| m.n_values(&vars, &except, counter))
    }

    /// Posts `cardinality`: `occurs[j]` (variables) is the number of variables of `vars`
    /// equal to `values[j]`; `closed`: every variable takes one of `values`.
    #[pyo3(signature = (vars, values, occurs, closed=false))]
    fn cardinality(
        &self,
        py: Python<'_>,
        vars: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
        occurs: &Bound<'_, PyAny>,
        closed: bool,
    ) -> PyResult<()> {
        let vars = self.vars_of(vars)?;
        let values = domain::values(values, "a value")?;
        let occurs = self.vars_of(occurs)?;
        self.post(py, |m| m.cardinality(&vars, &values, &occurs, closed))
    }

    /// Posts `minimum`: `result = min(vars)`.
    fn minimum(&self, py: Python<'_>, vars: &Bound<'_, PyAny>, result: &Bound<'_, PyAny>) -> PyResult<()> {
        let vars = self.vars_of(vars)?;
        let result = self.var_of(result)?;
        self.post(py, |m| m.minimum(&vars, result))
    }

    /// Posts `maximum`: `result = max(vars)`.
    fn maximum(&self, py: Python<'_>, vars: &Bound<'_, PyAny>, result: &Bound<'_, PyAny>) -> PyResult<()> {
        let vars = self.vars_of(vars)?;
        let result = self.var_of(result)?;
        self.post(py, |m| m.maximum(&vars, result))
    }

    /// Posts `channel`. One list: `xs[i] = j + start_x <=> xs[j] = i + start_x`. Two lists:
    /// `xs[i] = j + start_y => ys[j] = i + start_x` (and the converse for lists of one
    /// length).
    #[pyo3(signature = (xs, ys=None, start_x=0, start_y=0))]
    fn channel(
        &self,
        py: Python<'_>,
        xs: &Bound<'_, PyAny>,
        ys: Option<&Bound<'_, PyAny>>,
        start_x: i32,
        start_y: i32,
    ) -> PyResult<()> {
        let xs = self.vars_of(xs)?;
        match ys {
            None => self.post(py, |m| m.channel_self(&xs, start_x)),
            Some(ys) => {
                let ys = self.vars_of(ys)?;
                self.post(py, |m| m.channel(&xs, start_x, &ys, start_y))
            }
        }
    }

    /// Posts `channel` between 0/1 variables and a value: `bools[i] = 1 <=> value = i +
    /// start`.
    #[pyo3(signature = (bools, value, start=0))]
    fn channel_value(
        &self,
        py: Python<'_>,
        bools: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
        start: i32,
    ) -> PyResult<()> {
        let bools = self.vars_of(bools)?;
        let value = self.var_of(value)?;
        self.post(py, |m| m.channel_value(&bools, start, value))
    }

    /// Posts `regular`: the values of `vars` spell a word the automaton accepts. States
    /// are `0..states`; `transitions` are `(from, value, to)` triples.
    fn regular(
        &self,
        py: Python<'_>,
        vars: &Bound<'_, PyAny>,
        states: usize,
        start: usize,
        finals: Vec<usize>,
        transitions: Vec<(usize, i32, usize)>,
    ) -> PyResult<()> {
        let vars = self.vars_of(vars)?;
        within_bound("states", states)?;
        let automaton = guarded(|| csp_core::Automaton::new(states, start, finals, transitions))?;
        self.post(py, |m| m.regular(&vars, &automaton))
    }

    /// Posts `mdd`: the values of `vars` label a path from `root` to `terminal` of the
    /// diagram (nodes `0..nodes`, edges `(from, value, to)`).
    fn mdd(
        &self,
        py: Python<'_>,
        vars: &Bound<'_, PyAny>,
        nodes: usize,
        root: usize,
        terminal: usize,
        transitions: Vec<(usize, i32, usize)>,
    ) -> PyResult<()> {
        let vars = self.vars_of(vars)?;
        within_bound("nodes", nodes)?;
        let mdd = guarded(|| csp_core::Mdd::new(nodes, root, terminal, transitions))?;
        self.post(py, |m| m.mdd(&vars, &mdd))
    }

    /// Posts `circuit`: `succ[i] = j + start` makes `j` the successor of `i`; the arcs
    /// that are no loops form one cycle; `size` (an integer or a variable) its length.
    #[pyo3(signature = (succ, start=0, size=None))]
    fn circuit(
        &self,
        py: Python<'_>,
        succ: &Bound<'_, PyAny>,
        start: i32,
        size: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let succ = self.vars_of(succ)?;
        let size = size.map(|s| globals::int_or_var(self.id, s)).transpose()?;
        self.post(py, |m| m.circuit(&succ, start, size))
    }

    /// Posts `noOverlap`. Tasks on one machine: `origins` variables and `lengths`
    /// (integers or variables). Boxes: `origins` a list of lists (one per box, a variable
    /// per dimension) and `lengths` likewise. `zero_ignored`: a task or box of length 0
    /// overlaps nothing.
    #[pyo3(signature = (origins, lengths, zero_ignored=true))]
    fn no_overlap(
        &self,
        py: Python<'_>,
        origins: &Bound<'_, PyAny>,
        lengths: &Bound<'_, PyAny>,
        zero_ignored: bool,
    ) -> PyResult<()> {
        if globals::is_nested(origins)? {
            let origins = globals::lists(self.id, origins)?;
            let lengths = lengths
                .try_iter()?
                .map(|l| globals::int_or_vars(self.id, &l?))
                .collect::<PyResult<Vec<_>>>()?;
            return self.post(py, |m| m.no_overlap_boxes(&origins, &lengths, zero_ignored));
        }
        let origins = self.vars_of(origins)?;
        let lengths = globals::int_or_vars(self.id, lengths)?;
        self.post(py, |m| m.no_overlap(&origins, &lengths, zero_ignored))
    }

    /// Posts `cumulative`: at every time the heights of the running tasks add up to at
    /// most `peak` (`exact`: and the largest sum equals it). Lengths, heights and the
    /// peak are integers or variables.
    #[pyo3(signature = (origins, lengths, heights, peak, exact=false))]
    fn cumulative(
        &self,
        py: Python<'_>,
        origins: &Bound<'_, PyAny>,
        lengths: &Bound<'_, PyAny>,
        heights: &Bound<'_, PyAny>,
        peak: &Bound<'_, PyAny>,
        exact: bool,
    ) -> PyResult<()> {
        let origins = self.vars_of(origins)?;
        let lengths = globals::int_or_vars(self.id, lengths)?;
        let heights = globals::int_or_vars(self.id, heights)?;
        let peak = globals::int_or_var(self.id, peak)?;
        self.post(py, |m| m.cumulative(&origins, &lengths, &heights, peak, exact))
    }

    /// Posts `binPacking`: `loads[b]` is the total size of the items with `bins[i] ==
    /// first_bin + b`.
    #[pyo3(signature = (bins, sizes, loads, first_bin=0))]
    fn bin_packing(
        &self,
        py: Python<'_>,
        bins: &Bound<'_, PyAny>,
        sizes: Vec<i64>,
        loads: &Bound<'_, PyAny>,
        first_bin: i32,
    ) -> PyResult<()> {
        let bins = self.vars_of(bins)?;
        let loads = self.vars_of(loads)?;
        self.post(py, |m| m.bin_packing(&bins, &sizes, &loads, first_bin))
    }
}

impl Model {
    /// `ValueError` if the model has a variable of one of these names.
    fn check_new(&self, py: Python<'_>, names: &[String]) -> PyResult<()> {
        let state = self.state(py);
        match names.iter().find(|name| state.by_name.contains_key(*name)) {
            Some(taken) => Err(PyValueError::new_err(format!(
                "the model has a variable {taken} already"
            ))),
            None => Ok(()),
        }
    }

    /// Adds variables of one domain, unless one of the names is taken (by another thread
    /// since `check_new`, which asked before reading the domain).
    fn add_vars(&self, py: Python<'_>, names: &[String], domain: Domain) -> PyResult<Vec<VarId>> {
        self.check_new(py, names)?;
        let mut state = self.state(py);
        let State { inner, by_name } = &mut *state;
        shielded(|| {
            names
                .iter()
                .map(|name| {
                    let id = inner.add_named_var(name.clone(), domain.clone());
                    by_name.insert(name.clone(), id.index());
                    id
                })
                .collect()
        })
    }

    /// One value per variable, from a dict name -> value or a list in variable order.
    fn values_of(&self, py: Python<'_>, solution: &Bound<'_, PyAny>) -> PyResult<Vec<i32>> {
        if let Ok(dict) = solution.cast::<PyDict>() {
            let names: Vec<String> = {
                let state = self.state(py);
                let inner = &state.inner;
                inner.vars().map(|v| inner.name(v).to_string()).collect()
            };
            let mut values = Vec::with_capacity(names.len());
            for name in &names {
                let Some(value) = dict.get_item(name)? else {
                    return Err(PyKeyError::new_err(format!(
                        "the solution has no value for {name}"
                    )));
                };
                values.push(value_i32(&value, "a value")?);
            }
            return Ok(values);
        }
        if solution.cast::<PyList>().is_ok() || solution.cast::<pyo3::types::PyTuple>().is_ok() {
            return domain::values(solution, "a value");
        }
        Err(PyTypeError::new_err(format!(
            "a solution is a dict name -> value or a list of values, not {}",
            type_name(solution)
        )))
    }
}
