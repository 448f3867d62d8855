//! Which variables search has assigned, to what, and the stack of choice frames.

use super::frame::Frame;
use crate::propagation::Assignment;
use crate::var::VarId;

/// The assignment and the search tree above it.
pub(super) struct SearchState {
    pub(super) assigned: Vec<bool>,
    /// The value of each assigned variable.
    pub(super) value: Vec<i32>,
    pub(super) num_unassigned: usize,
    /// The unassigned variables as a bitset, kept with `assigned`: the fast selections
    /// and the compiled forward-checking search visit just these.
    pub(super) open_vars: Vec<u64>,
    /// Every unassigned variable below this index has two or more values: set after a
    /// forced assignment that changed no domain (the next forced variable lies above it),
    /// 0 after anything else.
    pub(super) settled: usize,
    pub(super) frames: Vec<Frame>,
    /// The pre-ordered values of the frames (see [`super::frame::ValueCursor`]).
    pub(super) value_stack: Vec<i32>,
}

impl SearchState {
    /// The state of `n` variables, room for a frame for each of the `free` ones (those
    /// without a given): search makes no more.
    pub(super) fn new(n: usize, free: usize) -> SearchState {
        let mut open_vars = vec![0; n.div_ceil(64).max(1)];
        for i in 0..n {
            open_vars[i / 64] |= 1 << (i % 64);
        }
        SearchState {
            assigned: vec![false; n],
            value: vec![0; n],
            num_unassigned: n,
            open_vars,
            settled: 0,
            frames: Vec::with_capacity(free),
            value_stack: Vec::new(),
        }
    }

    /// The assignment as propagators see it.
    #[inline]
    pub(super) fn assignment(&self) -> Assignment<'_> {
        Assignment {
            assigned: &self.assigned,
            values: &self.value,
            open: &self.open_vars,
        }
    }

    // Once per node: inlined into the search loop.
    #[inline(always)]
    pub(super) fn assign(&mut self, var: VarId, value: i32) {
        self.assigned[var.index()] = true;
        self.open_vars[var.index() / 64] &= !(1 << (var.index() % 64));
        self.value[var.index()] = value;
        self.num_unassigned -= 1;
    }

    #[inline(always)]
    pub(super) fn unassign(&mut self, var: VarId) {
        self.assigned[var.index()] = false;
        self.open_vars[var.index() / 64] |= 1 << (var.index() % 64);
        self.num_unassigned += 1;
    }

    /// Pops the top frame and the values it kept on the value stack.
    #[inline]
    pub(super) fn pop_frame(&mut self) {
        let frame = self.frames.pop().expect("a frame");
        if let Some(start) = frame.stack_start() {
            self.value_stack.truncate(start as usize);
        }
    }
}
