//! What wakes the n-ary propagators: each one's scheduling rules, read once, and the
//! rows of propagators each variable's change wakes.

use super::rows::Rows;
use crate::propagation::{Priority, Wake};

/// A propagator's scheduling rules, read once per model (not through virtual calls
/// per change or per search).
#[derive(Clone, Copy)]
pub(crate) struct PropFlags {
    pub(crate) wake: Wake,
    pub(crate) priority: Priority,
    pub(crate) idempotent: bool,
}

/// A variable's membership in an n-ary constraint.
#[derive(Clone, Copy)]
pub(crate) struct Watch {
    pub(crate) prop: u32,
    pub(crate) local: u32,
}

/// What a change of each variable's domain wakes, sorted out once per model so that an
/// announcement reads no rules: the propagators woken by any change, one row per
/// [`crate::Priority`] queue, and the watches told which variable became fixed.
pub(crate) struct Wakes {
    /// Two rows per variable, the fast queue's then the slow queue's (see
    /// [`Wakes::on_change`]).
    pub(super) on_change: Rows<u32>,
    pub(crate) on_fixed: Rows<Watch>,
}

impl Wakes {
    /// The propagators any change of `var` wakes, one list per [`crate::Priority`] queue:
    /// both found with one look at the row starts.
    #[inline]
    pub(crate) fn on_change(&self, var: usize) -> [&[u32]; 2] {
        let (both, slow_at) = self.on_change.two_rows(2 * var);
        let (fast, slow) = both.split_at(slow_at);
        [fast, slow]
    }
}
