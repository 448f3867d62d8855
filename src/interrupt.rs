//! SIGINT and SIGTERM. The first one sets a flag: batches stop taking new puzzles,
//! searches in progress stop as at a limit ([`flag`] is their cancel flag), every answer
//! already computed is written, the summary is printed, and the program exits with
//! 128 + the signal's number (130 for SIGINT, 143 for SIGTERM). A second one ends the
//! program at once.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGINT, SIGTERM};

struct Interrupt {
    /// Set by the first signal.
    stop: Arc<AtomicBool>,
    /// The number of the last signal received (0: none).
    signal: Arc<AtomicUsize>,
}

static INTERRUPT: OnceLock<Interrupt> = OnceLock::new();

fn state() -> &'static Interrupt {
    INTERRUPT.get_or_init(|| Interrupt {
        stop: Arc::new(AtomicBool::new(false)),
        signal: Arc::new(AtomicUsize::new(0)),
    })
}

/// Installs the handlers of SIGINT and SIGTERM.
pub fn install() -> std::io::Result<()> {
    let state = state();
    for signal in [SIGINT, SIGTERM] {
        // Registered first, so that it sees the flag as the previous signal left it.
        signal_hook::flag::register_conditional_shutdown(signal, 128 + signal, Arc::clone(&state.stop))?;
        signal_hook::flag::register_usize(signal, Arc::clone(&state.signal), signal as usize)?;
        signal_hook::flag::register(signal, Arc::clone(&state.stop))?;
    }
    Ok(())
}

/// Whether a signal asked the program to stop.
pub fn requested() -> bool {
    state().stop.load(Ordering::Relaxed)
}

/// The flag a signal sets, to pass to searches as their cancel flag.
pub fn flag() -> Arc<AtomicBool> {
    Arc::clone(&state().stop)
}

/// The signal that stopped the program, by name, and the exit code it gives.
pub fn received() -> Option<(&'static str, u8)> {
    if !requested() {
        return None;
    }
    Some(match state().signal.load(Ordering::Relaxed) as i32 {
        SIGTERM => ("SIGTERM", 128 + SIGTERM as u8),
        _ => ("SIGINT", 128 + SIGINT as u8),
    })
}
