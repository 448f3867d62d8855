//! The engine's errors as Python exceptions, with the engine's message: `ValueError` for
//! a model, strategy or argument that cannot be used, `OSError` (and its subclasses) for
//! files, `RuntimeError` for what should never happen (a panic caught on the way).

use std::any::Any;
use std::fmt::Display;
use std::io::{self, ErrorKind};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use pyo3::PyErrArguments;
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError, PyRuntimeError, PyValueError,
};
use pyo3::prelude::*;

/// `ValueError` with `error`'s message: a bad model, strategy name or argument.
pub(crate) fn value_error(error: impl Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// The `OSError` subclass Python raises for an I/O error of this kind, with `args` (a
/// message, or `(errno, strerror, filename)`).
fn os_error<A: PyErrArguments + 'static>(kind: ErrorKind, args: A) -> PyErr {
    match kind {
        ErrorKind::NotFound => PyFileNotFoundError::new_err(args),
        ErrorKind::PermissionDenied => PyPermissionError::new_err(args),
        ErrorKind::IsADirectory => PyIsADirectoryError::new_err(args),
        // OSError(errno, ...) picks the subclass of any other errno itself.
        _ => PyOSError::new_err(args),
    }
}

/// The error of a file that cannot be read, raised as Python's `open()` raises it:
/// `OSError(errno, strerror, filename)`, so that `e.filename` is `path` and `str(e)` reads
/// `[Errno 2] No such file or directory: 'path'`. An error without an errno (nor a kind
/// that has one) keeps its own message, with the path.
pub(crate) fn file_error(py: Python<'_>, error: &io::Error, path: &Path) -> PyErr {
    let filename = path.as_os_str().to_os_string();
    let errno = error.raw_os_error().or_else(|| errno_of(py, error.kind()));
    if let Some(errno) = errno {
        let strerror = py
            .import("os")
            .and_then(|os| os.call_method1("strerror", (errno,))?.extract::<String>())
            .unwrap_or_else(|_| error.to_string());
        return os_error(error.kind(), (errno, strerror, filename));
    }
    let err = os_error(error.kind(), format!("cannot read {}: {error}", path.display()));
    // The message names the file already; the attribute is a convenience.
    let _ = err.value(py).setattr("filename", filename);
    err
}

/// The errno Python reports for an I/O error of this kind made without one (csp-xcsp
/// refuses a directory before the system does).
fn errno_of(py: Python<'_>, kind: ErrorKind) -> Option<i32> {
    let name = match kind {
        ErrorKind::NotFound => "ENOENT",
        ErrorKind::PermissionDenied => "EACCES",
        ErrorKind::IsADirectory => "EISDIR",
        _ => return None,
    };
    py.import("errno").ok()?.getattr(name).ok()?.extract().ok()
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
    shielded(call)?.map_err(value_error)
}

/// Runs a call into the library crates that has no error of its own: a panic (a bug in
/// csp) is a `RuntimeError` instead of PyO3's `PanicException`, which `except Exception`
/// would miss.
pub(crate) fn shielded<T>(call: impl FnOnce() -> T) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(call)).map_err(panic_error)
}

/// `RuntimeError` for a solver whose search thread is gone (after an internal error).
pub(crate) fn solver_gone() -> PyErr {
    PyRuntimeError::new_err("the solver's search thread has stopped after an internal error")
}
