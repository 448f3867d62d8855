//! Saved values: solution saving (Vion and Piechowiak 2017; Demirović, Chu and Stuckey
//! 2018), with phase saving (Pipatsrisawat and Darwiche 2007) before the first solution.
//! A frame on `x` tries first the value `x` had in the last solution found or, before
//! any, the value it was last assigned (if that value is still in its domain), then the
//! others in increasing order. The first value is laid on the value stack (one entry);
//! the others are walked as in ascending order, skipping it.

use super::ascending;
use crate::search::frame::ValueCursor;
use crate::store::Store;
use crate::var::VarId;

/// The last solution and the last value of each variable.
pub(in crate::search) struct SavedValues {
    solution: Vec<i32>,
    solved: bool,
    last: Vec<i32>,
    assigned_once: Vec<bool>,
}

impl SavedValues {
    /// Nothing saved.
    pub(in crate::search) fn new(n: usize) -> SavedValues {
        SavedValues {
            solution: vec![0; n],
            solved: false,
            last: vec![0; n],
            assigned_once: vec![false; n],
        }
    }

    /// A node `var = value`.
    #[inline]
    pub(in crate::search) fn on_assign(&mut self, var: VarId, value: i32) {
        self.last[var.index()] = value;
        self.assigned_once[var.index()] = true;
    }

    /// A solution.
    pub(in crate::search) fn on_solution(&mut self, values: &[i32]) {
        self.solution.copy_from_slice(values);
        self.solved = true;
    }

    /// The value to try first for `var`, if any.
    #[inline]
    fn preferred(&self, var: VarId) -> Option<i32> {
        let i = var.index();
        if self.solved {
            Some(self.solution[i])
        } else {
            self.assigned_once[i].then_some(self.last[i])
        }
    }
}

/// Lays `var`'s saved value on the stack, if it is in the domain; returns it.
pub(in crate::search) fn push(
    stack: &mut Vec<i32>,
    store: &Store,
    var: VarId,
    saved: &SavedValues,
) -> Option<i32> {
    let value = saved.preferred(var).filter(|&a| store.contains(var, a))?;
    stack.push(value);
    Some(value)
}

/// The next value: the saved one (at `stack[start]`, when `len` is 1), then the others
/// in increasing order. In the uniform layout the frame's untried bits lack the saved
/// value already.
#[inline]
pub(in crate::search) fn next(
    cursor: &mut ValueCursor,
    stack: &[i32],
    store: &Store,
    var: VarId,
    uniform: Option<i32>,
) -> Option<i32> {
    if cursor.pos < cursor.len {
        cursor.pos += 1;
        return Some(stack[cursor.start as usize]);
    }
    loop {
        let a = ascending::next(cursor, store, var, uniform)?;
        if cursor.len == 0 || a != stack[cursor.start as usize] {
            return Some(a);
        }
    }
}

/// The values tried so far, reading the store at the frame's mark.
pub(in crate::search) fn tried(cursor: &ValueCursor, stack: &[i32], store: &Store, var: VarId) -> Vec<i32> {
    let mut tried = ascending::tried(cursor, store, var);
    if cursor.len == 1 {
        let first = stack[cursor.start as usize];
        tried.retain(|&a| a != first);
        if cursor.pos == 1 {
            tried.push(first);
        }
    }
    tried
}
