//! The givens pre-pass: naked and hidden singles, and optionally locked candidates, run to
//! their fixpoint from the givens before the model is handed to the search.
//!
//! It reaches the domains the all-different propagators (and the locked-candidates
//! propagator) reach at the root: the rules are monotone, so their fixpoint does not depend
//! on the order they run in. It gets there on plain bit masks, without the engine's queue
//! and trail: one bitboard per value on boards of up to 128 cells, candidate words per cell
//! on larger ones.

mod boards;
mod cells;

use crate::grid::Grid;

/// Bits `0..side`: the values `1..=side`.
pub(crate) fn full_mask(side: usize) -> u64 {
    if side == 64 { !0 } else { (1u64 << side) - 1 }
}

/// The candidates of every cell (bit `v - 1` for value `v`) after naked and hidden singles
/// (and with `locked`, locked candidates) have run to a fixpoint from the givens, or `None`
/// if they meet a contradiction.
pub(crate) fn singles_candidates(order: usize, puzzle: &Grid, locked: bool) -> Option<Vec<u64>> {
    if order <= boards::MAX_ORDER {
        boards::singles_candidates(order, puzzle, locked)
    } else {
        cells::singles_candidates(order, puzzle, locked)
    }
}
