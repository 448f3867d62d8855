//! Variables and expressions. A [`Var`] is an [`Expr`] (a subclass), so both take the
//! operators: `x + 2 * y <= 10`, `(x != y) | (z == 1)`, `abs(x - y) != 3`. The tree is
//! csp-core's expression language (XCSP3's intension); `Model.add` posts it.

use std::sync::Arc;

use csp_core::{Expr as CoreExpr, ExprOp, VarId};
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::domain::type_name;

/// An expression node, with each variable's model (to refuse a variable of another model)
/// and name (for `repr`).
#[derive(Clone, Debug)]
pub(crate) enum Node {
    /// An integer.
    Const(i64),
    /// A variable of model `model`.
    Var {
        /// The identity of the model it belongs to.
        model: u64,
        /// The variable.
        id: VarId,
        /// Its name.
        name: Arc<str>,
    },
    /// An operator on arguments.
    Call(ExprOp, Vec<Node>),
}

impl Node {
    /// The core expression, after checking that every variable belongs to `model`.
    pub(crate) fn to_core(&self, model: u64) -> PyResult<CoreExpr> {
        Ok(match self {
            Node::Const(c) => CoreExpr::Const(*c),
            Node::Var { model: m, id, name } => {
                if *m != model {
                    return Err(other_model(name));
                }
                CoreExpr::Var(*id)
            }
            Node::Call(op, args) => CoreExpr::Call(
                *op,
                args.iter().map(|a| a.to_core(model)).collect::<PyResult<_>>()?,
            ),
        })
    }

    /// The expression in XCSP3's functional notation with the variables' names.
    fn render(&self, out: &mut String) {
        match self {
            Node::Const(c) => out.push_str(&c.to_string()),
            Node::Var { name, .. } => out.push_str(name),
            Node::Call(op, args) => {
                out.push_str(op.name());
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    a.render(out);
                }
                out.push(')');
            }
        }
    }
}

/// `ValueError` for a variable used in a model it does not belong to.
pub(crate) fn other_model(name: &str) -> PyErr {
    PyValueError::new_err(format!("the variable {name} belongs to another model"))
}

/// An expression over a model's variables, built with Python's operators (`+`, `-`, `*`,
/// unary `-`, `abs()`, comparisons, and `&`, `|`, `^`, `~` for and, or, xor and not) or
/// with `Expr.call(op, *args)` for any operator of XCSP3's intension language (`"div"`,
/// `"mod"`, `"min"`, `"max"`, `"dist"`, `"imp"`, `"if"`, `"in"` with `"set"`, ...).
/// `Model.add(expr)` posts it as a constraint: its value must be true (non-zero).
///
/// An expression has no truth value of its own: `if x < y:` raises `TypeError`. The one
/// exception is `==` and `!=` between two variables, which compare the variables
/// themselves there, so that variables can be found in lists and used as dict keys.
#[pyclass(subclass, frozen, module = "csp", name = "Expr")]
pub struct Expr {
    pub(crate) node: Node,
    /// How deep the tree nests (a variable or a constant: 0).
    depth: usize,
}

/// How deep an expression may nest: csp-xcsp's bound, which keeps every recursive pass over
/// an expression (here and in csp-core) within a thread's stack. Sums and products built
/// step by step (`sum(xs)`, `a & b & c`) stay flat: `add(add(x, y), z)` is `add(x, y, z)`.
const MAX_DEPTH: usize = csp_xcsp::MAX_EXPRESSION_DEPTH;

/// The node of an operand: an expression, a variable or an integer.
pub(crate) fn node_of(obj: &Bound<'_, PyAny>) -> PyResult<Node> {
    operand(obj).map(|(node, _)| node)
}

/// An operand's node and depth.
fn operand(obj: &Bound<'_, PyAny>) -> PyResult<(Node, usize)> {
    if let Ok(e) = obj.cast::<Expr>() {
        let e = e.get();
        return Ok((e.node.clone(), e.depth));
    }
    if obj.is_instance_of::<pyo3::types::PyFloat>() || obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(operand_type(obj));
    }
    match obj.extract::<i64>() {
        Ok(c) => Ok((Node::Const(c), 0)),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => Err(
            PyValueError::new_err("an integer of an expression is outside the 64-bit integers"),
        ),
        Err(_) => Err(operand_type(obj)),
    }
}

fn operand_type(obj: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "an operand must be a variable, an expression or an integer, not {}",
        type_name(obj)
    ))
}

/// A new `Expr` object: `op` applied to `args` (each with its depth). An associative
/// operator applied to itself first (`add(add(x, y), z)`) is flattened (`add(x, y, z)`).
fn apply(py: Python<'_>, op: ExprOp, args: Vec<(Node, usize)>) -> PyResult<Py<Expr>> {
    let associative = matches!(op, ExprOp::Add | ExprOp::Mul | ExprOp::And | ExprOp::Or);
    let mut nodes = Vec::with_capacity(args.len());
    let mut depth = 0;
    for (i, (node, d)) in args.into_iter().enumerate() {
        match node {
            Node::Call(inner, children) if associative && i == 0 && inner == op => {
                depth = depth.max(d);
                nodes.extend(children);
            }
            node => {
                depth = depth.max(d + 1);
                nodes.push(node);
            }
        }
    }
    let depth = depth.max(1);
    if depth > MAX_DEPTH {
        return Err(PyValueError::new_err(format!(
            "the expression nests deeper than {MAX_DEPTH} levels"
        )));
    }
    Py::new(
        py,
        Expr {
            node: Node::Call(op, nodes),
            depth,
        },
    )
}

/// `op(a, b)`, or `NotImplemented` when `b` is no operand (Python then tries `b`'s side).
fn binary(slf: &Bound<'_, Expr>, other: &Bound<'_, PyAny>, op: ExprOp, swap: bool) -> PyResult<Py<PyAny>> {
    let py = slf.py();
    let Ok(b) = operand(other) else {
        return Ok(py.NotImplemented());
    };
    let a = (slf.get().node.clone(), slf.get().depth);
    let args = if swap { vec![b, a] } else { vec![a, b] };
    Ok(apply(py, op, args)?.into_any())
}

/// A comparison as an expression.
fn compare(slf: &Bound<'_, Expr>, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
    let op = match op {
        CompareOp::Lt => ExprOp::Lt,
        CompareOp::Le => ExprOp::Le,
        CompareOp::Gt => ExprOp::Gt,
        CompareOp::Ge => ExprOp::Ge,
        CompareOp::Eq => ExprOp::Eq,
        CompareOp::Ne => ExprOp::Ne,
    };
    binary(slf, other, op, false)
}

fn unary(slf: &Bound<'_, Expr>, op: ExprOp) -> PyResult<Py<Expr>> {
    apply(slf.py(), op, vec![(slf.get().node.clone(), slf.get().depth)])
}

#[pymethods]
impl Expr {
    /// `op(*args)` for an operator of XCSP3's intension language, by name: `neg`, `abs`,
    /// `add`, `sub`, `mul`, `div`, `mod`, `sqr`, `pow`, `min`, `max`, `dist`, `lt`, `le`,
    /// `ge`, `gt`, `ne`, `eq`, `in`, `notin`, `set`, `not`, `and`, `or`, `xor`, `iff`,
    /// `imp`, `if`. Arguments are variables, expressions or integers. `div` truncates
    /// toward zero and `mod` takes the sign of its first argument (as in Java, not as
    /// Python's `//` and `%`).
    #[staticmethod]
    #[pyo3(signature = (op, *args))]
    fn call(py: Python<'_>, op: &str, args: &Bound<'_, PyTuple>) -> PyResult<Py<Expr>> {
        let Some(op) = ExprOp::from_name(op) else {
            let names: Vec<&str> = ExprOp::ALL.iter().map(|o| o.name()).collect();
            return Err(PyValueError::new_err(format!(
                "unknown operator `{op}`, expected one of {}",
                names.join(", ")
            )));
        };
        let args = args.iter().map(|a| operand(&a)).collect::<PyResult<Vec<_>>>()?;
        apply(py, op, args)
    }

    fn __add__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        binary(slf, other, ExprOp::Add, false)
    }
    fn __radd__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        binary(slf, other, ExprOp::Add, true)
    }
    fn __sub__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        binary(slf, other, ExprOp::Sub, false)
    }
    fn __rsub__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        binary(slf, other, ExprOp::Sub, true)
    }
    fn __mul__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        binary(slf, other, ExprOp::Mul, false)
    }
    fn __rmul__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        binary(slf, other, ExprOp::Mul, true)
    }
    fn __and__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        binary(slf, other, ExprOp::And, false)
    }
    fn __rand__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        binary(slf, other, ExprOp::And, true)
    }
    fn __or__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        binary(slf, other, ExprOp::Or, false)
    }
    fn __ror__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        binary(slf, other, ExprOp::Or, true)
    }
    fn __xor__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        binary(slf, other, ExprOp::Xor, false)
    }
    fn __rxor__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        binary(slf, other, ExprOp::Xor, true)
    }
    fn __neg__(slf: &Bound<'_, Self>) -> PyResult<Py<Expr>> {
        unary(slf, ExprOp::Neg)
    }
    fn __abs__(slf: &Bound<'_, Self>) -> PyResult<Py<Expr>> {
        unary(slf, ExprOp::Abs)
    }
    fn __invert__(slf: &Bound<'_, Self>) -> PyResult<Py<Expr>> {
        unary(slf, ExprOp::Not)
    }

    fn __richcmp__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        compare(slf, other, op)
    }

    /// Only `==` and `!=` between two variables have a truth value: whether they are the
    /// same variable (so that `x in [x, y]` and dict keys work). Any other expression is a
    /// constraint to post, not a test: `TypeError`.
    fn __bool__(&self) -> PyResult<bool> {
        if let Node::Call(op @ (ExprOp::Eq | ExprOp::Ne), args) = &self.node {
            if let [
                Node::Var { model: ma, id: a, .. },
                Node::Var { model: mb, id: b, .. },
            ] = &args[..]
            {
                let same = ma == mb && a == b;
                return Ok(if *op == ExprOp::Eq { same } else { !same });
            }
        }
        Err(PyTypeError::new_err(
            "an expression has no truth value: post it with Model.add(expr)",
        ))
    }

    fn __repr__(&self) -> String {
        let mut out = String::new();
        self.node.render(&mut out);
        out
    }
}

/// A variable of a model, made by `Model.var` or `Model.vars`. It is
/// an `Expr`, so it takes the operators; `hash()` and `==` between variables compare
/// the variables themselves.
#[pyclass(extends = Expr, frozen, module = "csp", name = "Var")]
pub struct Var {
    pub(crate) model: u64,
    pub(crate) id: VarId,
    pub(crate) name: Arc<str>,
}

impl Var {
    /// A new variable object.
    pub(crate) fn create(py: Python<'_>, model: u64, id: VarId, name: &str) -> PyResult<Py<Var>> {
        let name: Arc<str> = Arc::from(name);
        let node = Node::Var {
            model,
            id,
            name: name.clone(),
        };
        let init = PyClassInitializer::from(Expr { node, depth: 0 }).add_subclass(Var { model, id, name });
        Py::new(py, init)
    }
}

#[pymethods]
impl Var {
    /// The variable's name.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The variable's position in its model (0-based, in creation order).
    #[getter]
    fn index(&self) -> usize {
        self.id.index()
    }

    // Python inherits comparison and hashing together or not at all: a class with a hash
    // of its own must say how it compares.
    fn __richcmp__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        compare(slf.as_super(), other, op)
    }

    fn __hash__(&self) -> u64 {
        self.model.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ self.id.index() as u64
    }

    fn __repr__(&self) -> String {
        format!("Var({:?})", &*self.name)
    }

    fn __str__(&self) -> String {
        self.name.to_string()
    }
}
