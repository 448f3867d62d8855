//! The `csp` program's integration tests, one test binary (each runs the built `csp`):
//! `cargo test --test cli sudoku_cli` runs one module.

// Shared by the modules below.
#[allow(dead_code)]
mod common;

mod explain_cli;
mod flatzinc_cli;
mod heuristics_cli;
mod instance_cli;
mod lab_cli;
mod queens_cli;
mod reliability_cli;
mod restarts_cli;
mod sudoku_cli;
mod sudoku_explain_cli;
mod sudoku_tools_cli;
mod trace_cli;
mod xcsp_differential_cli;
mod xcsp_reliability_cli;
