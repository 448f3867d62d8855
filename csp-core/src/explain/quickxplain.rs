//! QuickXplain (Junker, AAAI 2004): a minimal subset of `candidates` that is unsatisfiable
//! together with `background`, by halving.
//!
//! Invariant of every call: `background ∪ candidates` is unsatisfiable. The only answer used
//! to drop groups is a proved "unsatisfiable", so the invariant holds whatever the oracle
//! does not decide; undecided answers cost only minimality.

use super::SubsetOracle;
use super::budget::Budget;

/// A subset of `candidates` that is unsatisfiable with `background`, minimal when every
/// answer was decided. `background ∪ candidates` must be unsatisfiable.
pub(crate) fn shrink<O: SubsetOracle>(
    budget: &mut Budget<'_, O>,
    background: &[usize],
    candidates: Vec<usize>,
) -> Vec<usize> {
    let mut background = background.to_vec();
    let mut found = qx(budget, &mut background, false, candidates);
    found.sort_unstable();
    found
}

/// Junker's QX(B, Δ, C): `added` says whether the last call added groups to `background`
/// (Δ ≠ ∅), in which case `background` alone may already be unsatisfiable.
fn qx<O: SubsetOracle>(
    budget: &mut Budget<'_, O>,
    background: &mut Vec<usize>,
    added: bool,
    candidates: Vec<usize>,
) -> Vec<usize> {
    if added && budget.unsat(background, &[]) {
        return Vec::new();
    }
    if candidates.len() <= 1 {
        return candidates;
    }
    let mut first = candidates;
    let second = first.split_off(first.len() / 2);
    // Δ2 = QX(B ∪ C1, C1, C2)
    let mark = background.len();
    background.extend_from_slice(&first);
    let d2 = qx(budget, background, true, second);
    background.truncate(mark);
    // Δ1 = QX(B ∪ Δ2, Δ2, C1)
    background.extend_from_slice(&d2);
    let d1 = qx(budget, background, !d2.is_empty(), first);
    background.truncate(mark);
    let mut found = d1;
    found.extend(d2);
    found
}
