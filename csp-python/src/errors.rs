//! The engine's errors as Python exceptions, with the engine's message: `ValueError` for
//! a model, strategy or argument that cannot be used, `OSError` (and its subclasses) for
//! files, `RuntimeError` for what should never happen (a panic caught on the way).

use std::any::Any;
use std::fmt::Display;
use std::io::ErrorKind;

use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError, PyRuntimeError, PyValueError,
};
use pyo3::{PyErr, PyResult};

/// `ValueError` with `error`'s message: a bad model, strategy name or argument.
pub(crate) fn value_error(error: impl Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// The `OSError` subclass Python raises for an I/O error of this kind, with `message`.
pub(crate) fn os_error(kind: ErrorKind, message: String) -> PyErr {
    match kind {
        ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
        ErrorKind::IsADirectory => PyIsADirectoryError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// `RuntimeError` for a panic caught before it could reach Python: a bug in csp, which
/// the message asks to report.
pub(crate) fn panic_error(payload: Box<dyn Any + Send>) -> PyErr {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    PyRuntimeError::new_err(format!("internal error in csp (please report it): {what}"))
}

/// Runs a call into the engine: its error is a `ValueError` with its message, and a panic
/// (a bug in csp) a `RuntimeError` instead of PyO3's `PanicException`.
pub(crate) fn guarded<T, E: Display>(call: impl FnOnce() -> Result<T, E>) -> PyResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(call)) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(value_error(error)),
        Err(payload) => Err(panic_error(payload)),
    }
}

/// `RuntimeError` for a solver whose search thread is gone (after an internal error).
pub(crate) fn solver_gone() -> PyErr {
    PyRuntimeError::new_err("the solver's search thread has stopped after an internal error")
}
