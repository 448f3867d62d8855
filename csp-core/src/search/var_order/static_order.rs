//! Static order: the variables in index order (the textbook's "first unassigned").

use crate::search::state::SearchState;
use crate::var::VarId;

/// The first unassigned variable after the last decision's, wrapping around.
#[inline]
pub(in crate::search) fn select(state: &SearchState) -> VarId {
    let n = state.assigned.len();
    let from = state.frames.last().map_or(0, |f| f.var.index() + 1);
    let index = (from..n)
        .chain(0..from)
        .find(|&i| !state.assigned[i])
        .expect("an unassigned variable");
    VarId(index as u32)
}
