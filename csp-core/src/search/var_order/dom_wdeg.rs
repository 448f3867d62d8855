//! dom/wdeg: the variable with the fewest values per unit of weighted degree (see
//! [`crate::search::weights`]). Variables with one value go first whatever their weight.

use super::mrv::first_forced;
use crate::search::state::SearchState;
use crate::search::weights::FailureWeights;
use crate::store::Store;
use crate::var::VarId;

/// dom/wdeg under inference, ties to the lowest index: the general rule over the
/// unassigned variables only. A forced variable (one value) wins at once; otherwise the
/// smallest `size / weighted degree`, compared by cross-multiplying.
#[inline]
pub(in crate::search) fn smallest_weighted_domain(
    state: &SearchState,
    store: &Store,
    weights: &FailureWeights,
    forced_runs: bool,
) -> VarId {
    let sizes = store.sizes();
    // After a run of forced assignments a forced variable is rare here: the one pass
    // of `smallest_ratio` takes the first it meets.
    let forced = if forced_runs {
        None
    } else {
        first_forced(state, sizes)
    };
    let index = forced.unwrap_or_else(|| smallest_ratio(&state.open_vars, sizes, &weights.var_weight));
    VarId(index as u32)
}

/// The first unassigned variable (a bit of `open`) with at most one value, else the
/// first with the smallest `size / weight`.
fn smallest_ratio(open: &[u64], sizes: &[u32], weights: &[u64]) -> usize {
    let mut best: Option<(usize, u64, u64)> = None;
    for (w, &word) in open.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if sizes[i] <= 1 {
                return i;
            }
            let candidate = (i, u64::from(sizes[i]), weights[i]);
            if best.is_none_or(|b| ratio_less(candidate, b)) {
                best = Some(candidate);
            }
        }
    }
    best.expect("an unassigned variable").0
}

/// Whether `a`'s `size / weight` is strictly below `b`'s.
fn ratio_less(a: (usize, u64, u64), b: (usize, u64, u64)) -> bool {
    u128::from(a.1) * u128::from(b.2) < u128::from(b.1) * u128::from(a.2)
}
