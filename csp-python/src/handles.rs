//! Variables passed from Python: a `Var` of the right model, or a list of them.

use csp_core::VarId;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::domain::type_name;
use crate::expr::{Var, other_model};

/// The variable `obj` stands for: a `Var` of the model whose identity is `model`.
pub(crate) fn var_of(model: u64, obj: &Bound<'_, PyAny>) -> PyResult<VarId> {
    let Ok(var) = obj.cast::<Var>() else {
        return Err(PyTypeError::new_err(format!(
            "expected a variable of the model, not {}",
            type_name(obj)
        )));
    };
    let var = var.get();
    if var.model != model {
        return Err(other_model(&var.name));
    }
    Ok(var.id)
}

/// The variables of an iterable of `Var` of the model whose identity is `model`.
pub(crate) fn vars_of(model: u64, obj: &Bound<'_, PyAny>) -> PyResult<Vec<VarId>> {
    if obj.cast::<Var>().is_ok() {
        return Err(PyTypeError::new_err(
            "expected a list of variables, not one variable",
        ));
    }
    let iter = obj
        .try_iter()
        .map_err(|_| PyTypeError::new_err(format!("expected a list of variables, not {}", type_name(obj))))?;
    iter.map(|item| var_of(model, &item?)).collect()
}
