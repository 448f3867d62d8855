//! Values ordered when the frame is made (descending, LCV), laid on the value stack
//! and read back one by one.

use crate::search::frame::ValueCursor;
use crate::store::Store;
use crate::var::VarId;

/// Descending order: the domain reversed.
pub(in crate::search) fn push_descending(stack: &mut Vec<i32>, store: &Store, var: VarId) {
    let from = stack.len();
    stack.extend(store.values(var));
    stack[from..].reverse();
}

/// The next value on the stack, or `None`.
#[inline]
pub(in crate::search) fn next(cursor: &mut ValueCursor, stack: &[i32]) -> Option<i32> {
    if cursor.pos == cursor.len {
        return None;
    }
    cursor.pos += 1;
    Some(stack[(cursor.start + cursor.pos - 1) as usize])
}

/// The values tried so far (random values too: [`super::random`] keeps them the same way).
pub(in crate::search) fn tried(cursor: &ValueCursor, stack: &[i32]) -> Vec<i32> {
    let start = cursor.start as usize;
    stack[start..start + cursor.pos as usize].to_vec()
}
