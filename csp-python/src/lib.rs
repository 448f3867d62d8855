//! # csp from Python
//!
//! The extension module `csp._csp` behind the Python package `csp` (the package itself,
//! in `python/csp`, arranges these classes and functions into `csp`, `csp.queens`,
//! `csp.sudoku` and `csp.xcsp`, and holds the type stubs).
//!
//! - [`model::Model`], [`expr::Var`] and [`expr::Expr`]: modelling, over csp-core's
//!   `Model`;
//! - [`solver::Solver`]: search, on a thread of its own per solver ([`worker`]) so that the
//!   interpreter is free while it runs and Ctrl-C stops it ([`interrupt`]);
//! - [`queens`], [`sudoku`], [`xcsp`], [`compare`]: the library crates' tools.
//!
//! No Rust panic reaches Python: every search and every call into the library crates runs
//! under `catch_unwind` ([`interrupt::run_interruptibly`], [`worker`],
//! [`errors::guarded`], [`errors::shielded`]), and a panic comes out as a `RuntimeError`
//! that says so. Nor does a borrow error: the classes are `frozen`, safe to share between
//! Python threads ([`locks`]).

mod compare;
mod config;
mod convert;
mod domain;
mod errors;
mod expr;
mod handles;
mod interrupt;
mod locks;
mod model;
mod model_globals;
mod queens;
mod solver;
mod sudoku;
mod worker;
mod xcsp;

use pyo3::prelude::*;

/// The extension module: classes at the top, the tools of each library crate in a
/// submodule of its own (re-exported by `csp.queens`, `csp.sudoku` and `csp.xcsp`).
#[pymodule]
fn _csp(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<expr::Expr>()?;
    m.add_class::<expr::Var>()?;
    m.add_class::<model::Model>()?;
    m.add_class::<solver::Solver>()?;
    m.add_class::<solver::SolutionIterator>()?;
    m.add_function(wrap_pyfunction!(compare::compare, m)?)?;
    m.add_function(wrap_pyfunction!(config::textbook_strategies, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    queens::register(m)?;
    sudoku::register(m)?;
    xcsp::register(m)?;
    Ok(())
}
