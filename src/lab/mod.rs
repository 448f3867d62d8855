//! The heuristics lab: random CSPs written as XCSP3 (`csp random`) and phase-transition
//! sweeps over them (`csp sweep`).

pub mod models;
pub mod random;
pub mod sweep;
