//! Ascending values: the domain walked from the lowest value, with nothing stored. In
//! the uniform layout the frame keeps the untried values as bits of the variable's word
//! and takes the lowest without looking at the store.

use crate::search::frame::ValueCursor;
use crate::store::Store;
use crate::var::VarId;

/// The next value of `var` after the cursor's, or `None`.
#[inline(always)]
pub(in crate::search) fn next(
    cursor: &mut ValueCursor,
    store: &Store,
    var: VarId,
    uniform: Option<i32>,
) -> Option<i32> {
    if let Some(base) = uniform {
        // The lowest untried value, without a look at the store. `last` is kept too, as
        // every loop keeps both.
        if cursor.untried == 0 {
            return None;
        }
        let bit = cursor.untried.trailing_zeros();
        cursor.untried &= cursor.untried - 1;
        let a = base + bit as i32;
        cursor.last = Some(a);
        return Some(a);
    }
    let a = store.next_value(var, cursor.last)?;
    cursor.last = Some(a);
    Some(a)
}

/// The values tried so far, reading the store at the frame's mark.
pub(in crate::search) fn tried(cursor: &ValueCursor, store: &Store, var: VarId) -> Vec<i32> {
    if let Some(base) = store.uniform_base() {
        let tried = store.bits(var)[0] & !cursor.untried;
        return (0..64)
            .filter(|bit| tried >> bit & 1 == 1)
            .map(|bit| base + bit)
            .collect();
    }
    store
        .values(var)
        .take_while(|&a| cursor.last.is_some_and(|last| a <= last))
        .collect()
}
