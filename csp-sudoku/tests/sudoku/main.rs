//! csp-sudoku's integration tests, one test binary; `cargo test -p csp-sudoku --test
//! sudoku logic` runs one module.

// Shared by the modules below.
#[allow(dead_code)]
mod common;

mod annealing;
mod generate;
mod logic;
mod parse;
mod solve;
