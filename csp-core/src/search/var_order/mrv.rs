//! MRV (minimum remaining values, "fail first"): the variable with the fewest legal
//! values. Under inference these are its domain, so the fast path reads the sizes of
//! the unassigned variables only; ties go to the lowest index, or at random.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::search::state::SearchState;
use crate::store::Store;
use crate::var::VarId;

/// Plain MRV under inference, ties to the lowest index: the general rule over the
/// unassigned variables only. A forced variable (one value) has the fewest values, so
/// the first one wins.
#[inline]
pub(in crate::search) fn smallest_domain(state: &SearchState, store: &Store) -> VarId {
    let sizes = store.sizes();
    let index = first_forced(state, sizes).unwrap_or_else(|| first_smallest(&state.open_vars, sizes));
    VarId(index as u32)
}

/// The first unassigned variable with at most one value, looking from
/// [`SearchState::settled`] (where one can first be) on, then below it.
#[inline]
pub(in crate::search) fn first_forced(state: &SearchState, sizes: &[u32]) -> Option<usize> {
    let from = state.settled;
    first_forced_from(&state.open_vars, sizes, from).or_else(|| {
        (from > 0)
            .then(|| first_forced_from(&state.open_vars, sizes, 0))
            .flatten()
    })
}

/// The first unassigned variable (a bit of `open`) from `from` on with at most one value.
#[inline]
fn first_forced_from(open: &[u64], sizes: &[u32], from: usize) -> Option<usize> {
    let mut w = from / 64;
    let mut bits = open.get(w)? & (!0u64 << (from % 64));
    loop {
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            if sizes[i] <= 1 {
                return Some(i);
            }
            bits &= bits - 1;
        }
        w += 1;
        bits = *open.get(w)?;
    }
}

/// The first unassigned variable (a bit of `open`) with the fewest values: the choice
/// of MRV with ties to the lowest index.
#[inline(always)]
pub(in crate::search) fn first_smallest(open: &[u64], sizes: &[u32]) -> usize {
    // Size, then index: the lowest key is the choice.
    let mut best = u64::MAX;
    for (w, &word) in open.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            best = best.min(u64::from(sizes[i]) << 32 | i as u64);
        }
    }
    debug_assert!(best != u64::MAX, "an unassigned variable");
    (best & u64::from(u32::MAX)) as usize
}

/// MRV under inference with ties at random: the general scan's rule for this case, in
/// one pass over the unassigned variables' sizes. A variable that ties the smallest size
/// seen so far takes the choice with probability 1 / (the ties so far), so the choice is
/// uniform among the variables with the fewest values, and the random draws are the
/// general scan's, one by one (a seed gives the same search either way).
///
/// The sizes are read 64 at a time: a variable larger than the smallest size seen
/// before its group can neither win nor tie (that size only falls), so a group whose
/// smallest size, found in one branch-free pass, is larger is passed over. On a large
/// board nearly every group is.
#[inline]
pub(in crate::search) fn smallest_domain_random_tie(
    state: &SearchState,
    store: &Store,
    rng: &mut ChaCha8Rng,
) -> VarId {
    #[cfg(target_arch = "x86_64")]
    if crate::wide_vectors::detected() {
        // SAFETY: the processor has the features `smallest_random_wide` is compiled for.
        #[allow(unsafe_code)]
        return unsafe { smallest_random_wide(state, store, rng) };
    }
    smallest_random(state, store, rng)
}

/// [`smallest_domain_random_tie`] with 256-bit vectors ([`crate::wide_vectors`]) for the pass
/// over each group's sizes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn smallest_random_wide(state: &SearchState, store: &Store, rng: &mut ChaCha8Rng) -> VarId {
    smallest_random(state, store, rng)
}

/// [`smallest_domain_random_tie`], compiled into both versions.
#[inline(always)]
fn smallest_random(state: &SearchState, store: &Store, rng: &mut ChaCha8Rng) -> VarId {
    let sizes = store.sizes();
    let (mut best, mut best_size, mut ties) = (usize::MAX, u32::MAX, 0u32);
    let groups = sizes.chunks(64).zip(state.assigned.chunks(64));
    for ((w, &open), (group, assigned)) in state.open_vars.iter().enumerate().zip(groups) {
        // The group's smallest size among its unassigned variables (an assigned one
        // reads as u32::MAX).
        let least = group
            .iter()
            .zip(assigned)
            .fold(u32::MAX, |least, (&size, &assigned)| {
                least.min(size | u32::from(assigned).wrapping_neg())
            });
        if least > best_size {
            continue;
        }
        let mut bits = open;
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let size = sizes[i];
            if size < best_size {
                (best, best_size, ties) = (i, size, 1);
            } else if size == best_size {
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    best = i;
                }
            }
        }
    }
    debug_assert!(best != usize::MAX, "an unassigned variable");
    VarId(best as u32)
}
