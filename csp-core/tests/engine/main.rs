//! csp-core's integration tests, one test binary (a binary per file took most of the
//! build's time and disk): each module tests one part of the engine against brute force,
//! the textbook figures or its contract; `cargo test -p csp-core --test engine globals`
//! runs one module.

// Shared by the modules below.
#[allow(dead_code)]
mod all_strategies;
#[allow(dead_code)]
mod common;
#[allow(dead_code)]
mod inert;
#[allow(dead_code)]
mod relations;
#[allow(dead_code)]
mod traces;
#[allow(dead_code)]
mod variables;

mod alldiff;
mod backjump;
mod compiled_fc;
mod constraints;
mod globals;
mod learning_orders;
mod min_conflicts;
mod misuse;
mod optimisation;
mod overlap;
mod properties;
mod textbook;
mod trace;
mod tree_csp;
