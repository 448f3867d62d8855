//! Choice points. Each frame is one decision level: the variable (or the places of a
//! value) it branches on, where to undo to, and what is left to try.

use crate::store::Mark;
use crate::var::VarId;

/// One choice point.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    /// The variable of the branch tried last (for places, the place tried last).
    pub(super) var: VarId,
    pub(super) mark: Mark,
    /// A branch of this frame is currently assigned (a node is open).
    pub(super) open: bool,
    pub(super) choice: Choice,
}

/// What a frame branches on.
#[derive(Clone, Copy, Debug)]
pub(super) enum Choice {
    /// The values of `var`, in the value order.
    Values(ValueCursor),
    /// One value in each of two variables in turn (`places.rs`).
    Places(PlacesCursor),
    /// `var`'s one value, assigned by a forced run (`forced_runs.rs`): no other is
    /// left, and undoing it restores nothing in the store.
    Forced,
}

/// Where a frame is in its variable's values.
#[derive(Clone, Copy, Debug)]
pub(super) struct ValueCursor {
    /// Ascending order: the last value tried.
    pub(super) last: Option<i32>,
    /// Ascending order in the uniform layout: the values not tried yet, as bits of the
    /// variable's word (its domain at `mark`, which each backtrack to it restores).
    /// Every search loop keeps both this and `last`, so one can carry on the other's.
    pub(super) untried: u64,
    /// Pre-ordered values: `value_stack[start..start + len]`, next at `pos`. Random
    /// values: the `pos` values tried, sorted, at `value_stack[start..start + pos]`.
    pub(super) start: u32,
    pub(super) len: u32,
    pub(super) pos: u32,
}

/// A value and its two places: `vars[0] = value`, then `vars[1] = value`.
#[derive(Clone, Copy, Debug)]
pub(super) struct PlacesCursor {
    pub(super) value: i32,
    pub(super) vars: [VarId; 2],
    /// How many of the two places were tried.
    pub(super) tried: u8,
}

impl Frame {
    /// A frame on `var`'s values with the cursor at the start.
    #[inline]
    pub(super) fn on_values(var: VarId, mark: Mark, untried: u64, start: u32, len: u32) -> Frame {
        Frame {
            var,
            mark,
            open: false,
            choice: Choice::Values(ValueCursor {
                last: None,
                untried,
                start,
                len,
                pos: 0,
            }),
        }
    }

    /// Where this frame's pre-ordered values start on the value stack, if it has any.
    #[inline]
    pub(super) fn stack_start(&self) -> Option<u32> {
        match self.choice {
            Choice::Values(cursor) => Some(cursor.start),
            Choice::Places(_) | Choice::Forced => None,
        }
    }
}
