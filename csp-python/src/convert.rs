//! Rust values to Python: anything the library crates serialise (statistics, reports,
//! ratings) becomes Python data through its serde form, so that field names are the
//! ones of the command line's JSON output by construction.

use csp_core::{LimitKind, Stats};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde::Serialize;
use serde_json::Value;

use crate::errors::value_error;

/// A JSON value as Python data: `None`, `bool`, `int`, `float`, `str`, `list`, `dict`.
pub(crate) fn json_to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, json_to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// Anything serialisable, as Python data (see [`json_to_py`]).
pub(crate) fn to_py<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    let json = serde_json::to_value(value).map_err(value_error)?;
    json_to_py(py, &json)
}

/// Serialisable data that must be a JSON object, as a Python `dict`.
pub(crate) fn to_dict<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyDict>> {
    Ok(to_py(py, value)?.cast_into::<PyDict>()?)
}

/// The statistics as a `dict` with the fields of the command line's JSON (`nodes`,
/// `backtracks`, ..., `elapsed_ms`).
pub(crate) fn stats_dict<'py>(py: Python<'py>, stats: &Stats) -> PyResult<Bound<'py, PyDict>> {
    to_dict(py, stats)
}

/// A limit's name as the command line's JSON writes it: `nodes`, `time`, `solutions`,
/// `cancelled`.
pub(crate) fn limit_name(kind: LimitKind) -> String {
    match serde_json::to_value(kind) {
        Ok(Value::String(name)) => name,
        _ => kind.to_string(),
    }
}

/// Copies every item of `from` into `into` (flattening a report's statistics into it).
pub(crate) fn merge(into: &Bound<'_, PyDict>, from: &Bound<'_, PyDict>) -> PyResult<()> {
    for (key, value) in from.iter() {
        into.set_item(key, value)?;
    }
    Ok(())
}
