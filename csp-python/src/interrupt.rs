//! Long work off the interpreter, and Ctrl-C.
//!
//! A search runs on a thread of its own while the calling thread waits for its answer
//! without the GIL (`Python::detach`), waking every [`POLL`] to run Python's signal
//! handlers (`check_signals`). When one raises (Ctrl-C: `KeyboardInterrupt`), the waiter
//! sets the search's cancel flag, which csp-core checks as it checks its other limits,
//! waits for the search to stop (milliseconds), and raises that exception. Signal handlers
//! run only on Python's main thread: from another thread the wait is simply uninterruptible,
//! as Python's own blocking calls are.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::prelude::*;

use crate::errors::{panic_error, solver_gone};

/// How often a waiting thread looks for signals: Ctrl-C stops a search within about this
/// long plus the engine's own limit check (every few thousand nodes).
pub(crate) const POLL: Duration = Duration::from_millis(20);

/// Waits for the next message of `replies` with the GIL released, checking signals every
/// [`POLL`]. When a signal handler raises, sets `cancel`, waits for the (cancelled) reply,
/// hands it to `on_cancelled`, clears `cancel` and returns the handler's exception.
pub(crate) fn wait<T: Send>(
    py: Python<'_>,
    replies: &Mutex<Receiver<T>>,
    cancel: &AtomicBool,
    on_cancelled: impl FnOnce(T),
) -> PyResult<T> {
    let receive = |timeout: Option<Duration>| {
        py.detach(|| {
            let replies = replies.lock().unwrap_or_else(|e| e.into_inner());
            match timeout {
                Some(t) => replies.recv_timeout(t),
                None => replies.recv().map_err(|_| RecvTimeoutError::Disconnected),
            }
        })
    };
    loop {
        match receive(Some(POLL)) {
            Ok(reply) => return Ok(reply),
            Err(RecvTimeoutError::Disconnected) => return Err(solver_gone()),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(raised) = py.check_signals() {
                    cancel.store(true, Ordering::Relaxed);
                    let stopped = receive(None);
                    cancel.store(false, Ordering::Relaxed);
                    if let Ok(reply) = stopped {
                        on_cancelled(reply);
                    }
                    return Err(raised);
                }
            }
        }
    }
}

/// Runs `job` on a thread of its own (see the module's documentation), with `cancel` as
/// the flag it must pass on to what it runs. A panic in `job` is a `RuntimeError`.
pub(crate) fn run_interruptibly<T: Send>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    job: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let (sender, receiver) = sync_channel(1);
    let receiver = Mutex::new(receiver);
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("csp search".into())
            .spawn_scoped(scope, move || {
                let _ = sender.send(catch_unwind(AssertUnwindSafe(job)));
            });
        if let Err(e) = spawned {
            return Err(pyo3::exceptions::PyOSError::new_err(format!(
                "cannot start a search thread: {e}"
            )));
        }
        match wait(py, &receiver, cancel, |_| {})? {
            Ok(value) => Ok(value),
            Err(payload) => Err(panic_error(payload)),
        }
    })
}

/// A fresh cancel flag.
pub(crate) fn flag() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}
