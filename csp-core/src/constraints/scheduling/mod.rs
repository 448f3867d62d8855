//! Scheduling and placement: `noOverlap` on one machine ([`NoOverlap`]) and for boxes of
//! any dimension ([`NoOverlapBoxes`]), and `cumulative` ([`Cumulative`]). Tasks and their
//! bounds are shared (`task.rs`).
//!
//! Filtering: time-tabling (the compulsory part `[max(o), min(o) + min(l))` of a task is
//! busy wherever it starts, so other tasks that would overlap it beyond the capacity lose
//! those starts), and the pairwise disjunctive rule (two tasks that cannot run together
//! and where one cannot go first: the other goes first, with its bounds).

mod boxes;
mod cumulative;
mod no_overlap;
mod task;

pub(crate) use boxes::NoOverlapBoxes;
pub(crate) use cumulative::Cumulative;
pub(crate) use no_overlap::NoOverlap;
pub(crate) use task::Task;
