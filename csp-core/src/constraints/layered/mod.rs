//! `regular` and `mdd`: the sequence of values must spell a word of an automaton, or a
//! path of a multi-valued decision diagram. Both become a layered graph (one layer of
//! edges per variable, the automaton unrolled over the sequence), filtered to generalised
//! arc consistency by a forward and a backward sweep over its edges on every run
//! (`graph.rs`).

mod automaton;
mod graph;
mod mdd;

pub use automaton::Automaton;
pub(crate) use graph::{LayeredGraph, Machine};
pub use mdd::Mdd;
