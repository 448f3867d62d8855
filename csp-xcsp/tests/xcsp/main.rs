//! csp-xcsp's integration tests, one test binary: the conformance, core and competition
//! sets with their known answers, random instances against brute force, DIMACS and
//! errors; `cargo test -p csp-xcsp --test xcsp random` runs one module.

#[allow(dead_code)]
mod rng;

mod competition;
mod conformance;
mod conformance_core;
mod core_set;
mod dimacs;
mod errors;
mod loads;
mod random;
