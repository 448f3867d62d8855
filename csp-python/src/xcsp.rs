//! `csp.xcsp`: XCSP3 instances (and DIMACS graph colouring) from csp-xcsp, as `Model`s
//! with the file's variable names and objective.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use csp_xcsp::{Error, Instance, ReadOptions};
use pyo3::prelude::*;

use crate::errors::{file_error, value_error};
use crate::interrupt::{flag, run_interruptibly};
use crate::model::Model;

/// Adds the submodule `xcsp` to the extension module.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "xcsp")?;
    m.add_function(wrap_pyfunction!(load, &m)?)?;
    m.add_function(wrap_pyfunction!(loads, &m)?)?;
    m.add_function(wrap_pyfunction!(load_dimacs, &m)?)?;
    parent.add_submodule(&m)
}

/// An instance file's error as Python raises it: `OSError` (`FileNotFoundError`, ...) for
/// a file that cannot be read, with `filename` set as `open()` sets it (`path`, the path
/// as given, else the error's); `ValueError` for anything else (not XCSP3, outside what
/// csp reads, beyond a limit). (`KeyboardInterrupt` is raised by the waiting thread.)
pub(crate) fn xcsp_error(py: Python<'_>, error: Error, path: Option<&Path>) -> PyErr {
    match &error {
        Error::Io { path: read, source } => file_error(py, source, path.unwrap_or(Path::new(read))),
        _ => value_error(error),
    }
}

/// The Python model of an instance: its variables named as in the file, in declaration
/// order; auxiliary variables that posting added (`aux#0`, ...) are left out of solutions.
pub(crate) fn model_of(instance: Instance, name: Option<String>) -> Model {
    Model::from_core(instance.model, name, Some(instance.declared))
}

/// Reading options whose cancel flag is `cancel` (Ctrl-C).
pub(crate) fn read_options(cancel: &Arc<AtomicBool>) -> ReadOptions {
    ReadOptions {
        limits: csp_xcsp::ReadLimits {
            cancel: Some(cancel.clone()),
            ..csp_xcsp::ReadLimits::default()
        },
        ..ReadOptions::default()
    }
}

/// Reads an XCSP3 instance (`.xml`, `.xml.xz` or `.xml.lzma`) into a `Model` with the
/// file's variable names (`x`, `q[3]`, `m[0][1]`) and its objective, if it is a COP
/// (`Solver.optimize()` then optimises it). `OSError` if the file cannot be read,
/// `ValueError` (with the line and column) for what csp does not read.
#[pyfunction]
fn load(py: Python<'_>, path: PathBuf) -> PyResult<Model> {
    let cancel = flag();
    let options = read_options(&cancel);
    let instance = run_interruptibly(py, &cancel, || Instance::from_path_with(&path, &options))?
        .map_err(|e| xcsp_error(py, e, Some(&path)))?;
    Ok(model_of(instance, Some(path.display().to_string())))
}

/// Reads an XCSP3 instance from its text (see `load`).
#[pyfunction]
fn loads(py: Python<'_>, text: &str) -> PyResult<Model> {
    let cancel = flag();
    let options = read_options(&cancel);
    let instance = run_interruptibly(py, &cancel, || Instance::from_str_with(text, &options))?
        .map_err(|e| xcsp_error(py, e, None))?;
    Ok(model_of(instance, None))
}

/// Reads a DIMACS graph (`.col`) as the colouring problem with `colours` colours: one
/// variable per vertex, `!=` per edge.
#[pyfunction]
fn load_dimacs(py: Python<'_>, path: PathBuf, colours: u32) -> PyResult<Model> {
    let cancel = flag();
    let model = run_interruptibly(py, &cancel, || csp_xcsp::dimacs::read(&path, colours))?
        .map_err(|e| xcsp_error(py, e, Some(&path)))?;
    Ok(Model::from_core(model, Some(path.display().to_string()), None))
}
