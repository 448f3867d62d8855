//! Scratch buffers of the global constraints, one set per thread: propagators are shared
//! (`&self`) and hold no search state, and a propagation must not allocate per call.

use std::cell::RefCell;

/// Buffers reused from call to call; each user clears and sizes what it takes.
#[derive(Default)]
pub(crate) struct Scratch {
    pub(crate) ints: Vec<i64>,
    pub(crate) more_ints: Vec<i64>,
    pub(crate) values: Vec<i32>,
    pub(crate) flags: Vec<bool>,
    pub(crate) more_flags: Vec<bool>,
    pub(crate) indices: Vec<u32>,
    pub(crate) more_indices: Vec<u32>,
    pub(crate) pairs: Vec<(i64, i64)>,
    pub(crate) words: Vec<u64>,
    pub(crate) more_words: Vec<u64>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's scratch buffers (or fresh ones if they are in use).
pub(crate) fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut Scratch::default()),
    })
}
