//! Objects shared by Python threads.
//!
//! PyO3 checks the borrows of a mutable `#[pyclass]` at run time and raises `RuntimeError:
//! Already borrowed` (or panics, for `borrow_mut`) when a second thread reaches an object
//! whose method is still running: a method that releases the GIL (every search does), or
//! that runs Python code (a predicate, a generator given as a list, `__index__`), during
//! which the interpreter may switch threads. So the classes of the bindings are `frozen`
//! and keep what changes behind locks of their own, with two rules:
//!
//! - a [`Mutex`] of state is held only by code that holds the GIL and calls no Python
//!   (no conversion of arguments, no Python object made or dropped): within one
//!   interpreter no other thread can run while it is held, so it is never contended;
//!   should it be, [`lock`] waits for it without the GIL rather than block the thread that
//!   holds it;
//! - a search holds a [`Turn`], not a lock of the state: other threads read the object's
//!   state meanwhile, and a second search of the same object waits for its turn without
//!   the GIL.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError, TryLockError};
use std::thread::{self, ThreadId};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::interrupt::POLL;

/// Locks `mutex`, which guards state that only GIL-holding Rust code touches (see the
/// module's documentation). A panic caught while it was held leaves the state as the
/// engine's error handling left it, so poisoning is ignored.
pub(crate) fn lock<'a, T: Send>(py: Python<'_>, mutex: &'a Mutex<T>) -> MutexGuard<'a, T> {
    loop {
        match mutex.try_lock() {
            Ok(guard) => return guard,
            Err(TryLockError::Poisoned(poisoned)) => return poisoned.into_inner(),
            // Only a broken rule gets here: waiting with the GIL would keep the holder
            // from ever finishing.
            Err(TryLockError::WouldBlock) => py.detach(|| drop(mutex.lock())),
        }
    }
}

/// The right to search with one object: calls that search take turns. A caller that
/// finds the turn taken waits for it without the GIL, looking for signals (Ctrl-C) every
/// [`POLL`] as a search's caller does.
#[derive(Default)]
pub(crate) struct Turn {
    /// The thread whose call holds the turn.
    holder: Mutex<Option<ThreadId>>,
    freed: Condvar,
}

/// A turn held; dropping it hands the turn on.
pub(crate) struct Held<'a>(&'a Turn);

impl Turn {
    /// Waits for the turn. A thread that holds it already (a signal handler run while its
    /// own search is waited for, asking the same object again) gets a `RuntimeError`
    /// rather than waiting for itself forever.
    pub(crate) fn take(&self, py: Python<'_>, what: &str) -> PyResult<Held<'_>> {
        let me = thread::current().id();
        loop {
            {
                let mut holder = self.holder();
                match *holder {
                    None => {
                        *holder = Some(me);
                        return Ok(Held(self));
                    }
                    Some(thread) if thread == me => {
                        return Err(PyRuntimeError::new_err(format!(
                            "this {what} is already searching in this thread (a signal handler cannot use it until that search returns)"
                        )));
                    }
                    Some(_) => {}
                }
            }
            py.detach(|| {
                let holder = self.holder();
                if holder.is_some() {
                    drop(self.freed.wait_timeout(holder, POLL));
                }
            });
            py.check_signals()?;
        }
    }

    /// Whether a call holds the turn (is searching) now.
    pub(crate) fn taken(&self) -> bool {
        self.holder().is_some()
    }

    // Held for a few instructions at a time, never while waiting for the GIL or for
    // Python: locking it with the GIL held cannot deadlock.
    fn holder(&self) -> MutexGuard<'_, Option<ThreadId>> {
        self.holder.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        *self.0.holder() = None;
        self.0.freed.notify_one();
    }
}
