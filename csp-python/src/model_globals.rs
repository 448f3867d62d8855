//! Reading the arguments of the constraints from Python: terms of sums, lists of lists,
//! integers-or-variables, orders. The constraints themselves are csp-core's.

use csp_core::{Expr as CoreExpr, IntOrVar, Order, VarId};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::domain::{int, type_name, value_i32};
use crate::expr::Var;
use crate::handles::{var_of, vars_of};

/// The terms of a sum: variables (coefficient 1) or `(coefficient, variable)` pairs.
pub(crate) fn terms(model: u64, obj: &Bound<'_, PyAny>) -> PyResult<Vec<(i64, VarId)>> {
    let mut out = Vec::new();
    for item in list_items(obj, "the terms")? {
        if let Ok(pair) = item.cast::<PyTuple>() {
            if pair.len() != 2 {
                return Err(PyTypeError::new_err(
                    "a term is a variable or a (coefficient, variable) pair",
                ));
            }
            let c = int(&pair.get_item(0)?, "a coefficient")?;
            out.push((c, var_of(model, &pair.get_item(1)?)?));
        } else {
            out.push((1, var_of(model, &item)?));
        }
    }
    Ok(out)
}

/// An entry of `element`: a variable of the model or an integer.
pub(crate) fn operand(model: u64, obj: &Bound<'_, PyAny>) -> PyResult<CoreExpr> {
    Ok(match int_or_var(model, obj)? {
        IntOrVar::Int(c) => CoreExpr::Const(c),
        IntOrVar::Var(v) => CoreExpr::Var(v),
    })
}

/// A variable of the model or an integer.
pub(crate) fn int_or_var(model: u64, obj: &Bound<'_, PyAny>) -> PyResult<IntOrVar> {
    if obj.cast::<Var>().is_ok() {
        return Ok(IntOrVar::Var(var_of(model, obj)?));
    }
    int(obj, "an argument").map(IntOrVar::Int).map_err(|e| {
        if e.is_instance_of::<PyTypeError>(obj.py()) {
            PyTypeError::new_err(format!(
                "expected a variable of the model or an integer, not {}",
                type_name(obj)
            ))
        } else {
            e
        }
    })
}

/// A list of integers and variables.
pub(crate) fn int_or_vars(model: u64, obj: &Bound<'_, PyAny>) -> PyResult<Vec<IntOrVar>> {
    list_items(obj, "the list")?
        .iter()
        .map(|item| int_or_var(model, item))
        .collect()
}

/// A list of lists of variables.
pub(crate) fn lists(model: u64, obj: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<VarId>>> {
    list_items(obj, "the lists")?
        .iter()
        .map(|list| vars_of(model, list))
        .collect()
}

/// An integer or a list of integers, as a list.
pub(crate) fn one_or_many(obj: &Bound<'_, PyAny>) -> PyResult<Vec<i32>> {
    if obj.try_iter().is_ok() && !obj.is_instance_of::<pyo3::types::PyString>() {
        return crate::domain::values(obj, "a value");
    }
    Ok(vec![value_i32(obj, "the value")?])
}

/// Whether the first item of a list is itself a list (boxes rather than tasks).
pub(crate) fn is_nested(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let items = list_items(obj, "the origins")?;
    Ok(items
        .first()
        .is_some_and(|first| first.cast::<Var>().is_err() && first.try_iter().is_ok()))
}

/// An order by its Python spelling: `<`, `<=`, `>=`, `>`.
pub(crate) fn order(op: &str) -> PyResult<Order> {
    Ok(match op {
        "<" => Order::Lt,
        "<=" => Order::Le,
        ">=" => Order::Ge,
        ">" => Order::Gt,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown order `{op}`, expected <, <=, >= or >"
            )));
        }
    })
}

/// The items of an iterable (`TypeError` naming `what` for anything else).
fn list_items<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let iter = obj
        .try_iter()
        .map_err(|_| PyTypeError::new_err(format!("{what} must be a list, not {}", type_name(obj))))?;
    iter.collect()
}
