//! Domains and integers from Python: `range(...)`, an inclusive `(lo, hi)` pair, or any
//! other iterable of integers (a list, a set...).

use csp_core::Domain;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyRange, PyTuple};

use crate::errors::value_error;

/// An integer that must fit a domain value (32 bits), as `ValueError` otherwise.
pub(crate) fn value_i32(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<i32> {
    let wide = int(obj, what)?;
    i32::try_from(wide).map_err(|_| {
        value_error(format!(
            "{what} {wide} is outside the 32-bit values a domain holds"
        ))
    })
}

/// An integer (64 bits): `TypeError` for anything that is not one, `ValueError` beyond
/// 64 bits.
pub(crate) fn int(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    if obj.is_instance_of::<pyo3::types::PyFloat>() || obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an integer, not {}",
            type_name(obj)
        )));
    }
    obj.extract::<i64>().map_err(|e| {
        if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) {
            value_error(format!("{what} is outside the 64-bit integers"))
        } else {
            PyTypeError::new_err(format!("{what} must be an integer, not {}", type_name(obj)))
        }
    })
}

/// The name of an object's type, for messages.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// A domain from `range(...)`, an inclusive `(lo, hi)` pair or an iterable of integers.
/// An empty domain is a `ValueError` (a variable must have a value to take).
pub(crate) fn domain(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Domain> {
    let what = format!("a value of {name}");
    let built = if let Ok(range) = obj.cast::<PyRange>() {
        let step = int(&range.getattr("step")?, "a range's step")?;
        let start = int(&range.getattr("start")?, "a range's start")?;
        let stop = int(&range.getattr("stop")?, "a range's stop")?;
        if step == 1 {
            if stop <= start {
                return Err(empty(name));
            }
            let lo = i32::try_from(start).map_err(|_| outside(name))?;
            let hi = i32::try_from(stop - 1).map_err(|_| outside(name))?;
            Domain::range(lo, hi)
        } else {
            let values = values(obj, &what)?;
            if values.is_empty() {
                return Err(empty(name));
            }
            Domain::from_values(values)
        }
    } else if let Some(pair) = obj.cast::<PyTuple>().ok().filter(|t| t.len() == 2) {
        let lo = value_i32(&pair.get_item(0)?, &what)?;
        let hi = value_i32(&pair.get_item(1)?, &what)?;
        if hi < lo {
            return Err(empty(name));
        }
        Domain::range(lo, hi)
    } else {
        if obj.is_instance_of::<pyo3::types::PyString>() || obj.extract::<i64>().is_ok() {
            return Err(domain_type(obj, name));
        }
        let values = values(obj, &what).map_err(|e| {
            if e.is_instance_of::<PyTypeError>(obj.py()) && obj.try_iter().is_err() {
                domain_type(obj, name)
            } else {
                e
            }
        })?;
        if values.is_empty() {
            return Err(empty(name));
        }
        Domain::from_values(values)
    };
    built.map_err(|e| value_error(format!("the domain of {name}: {e}")))
}

/// The integers of an iterable, each within 32 bits.
pub(crate) fn values(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<i32>> {
    let mut out = Vec::new();
    for item in obj.try_iter()? {
        out.push(value_i32(&item?, what)?);
    }
    Ok(out)
}

fn empty(name: &str) -> PyErr {
    value_error(format!("the domain of {name} is empty"))
}

fn outside(name: &str) -> PyErr {
    value_error(format!("the domain of {name} reaches outside the 32-bit values"))
}

fn domain_type(obj: &Bound<'_, PyAny>, name: &str) -> PyErr {
    PyTypeError::new_err(format!(
        "the domain of {name} must be a range, a (lo, hi) pair or an iterable of integers, not {}",
        type_name(obj)
    ))
}
