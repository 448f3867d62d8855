//! Deletion-based shrinking: each candidate in turn is dropped when the rest (with the
//! background) stays unsatisfiable.
//!
//! A candidate is dropped only on a proved "unsatisfiable", so the set stays unsatisfiable;
//! a candidate kept on "satisfiable" is necessary (the set only shrinks afterwards), one kept
//! on "unknown" may not be.

use super::SubsetOracle;
use super::budget::Budget;

/// A subset of `candidates` that is unsatisfiable with `background`, minimal when every
/// answer was decided. `background ∪ candidates` must be unsatisfiable.
pub(crate) fn shrink<O: SubsetOracle>(
    budget: &mut Budget<'_, O>,
    background: &[usize],
    candidates: Vec<usize>,
) -> Vec<usize> {
    let mut kept = candidates;
    let mut i = 0;
    while i < kept.len() {
        let removed = kept.remove(i);
        if budget.unsat(background, &kept) {
            continue;
        }
        kept.insert(i, removed);
        i += 1;
    }
    kept.sort_unstable();
    kept
}
