//! SIGINT and SIGTERM. The first one sets a flag: batches stop taking new puzzles,
//! searches in progress stop as at a limit ([`flag`] is their cancel flag), every answer
//! already computed is written, the summary is printed, and the program exits with
//! 128 + the signal's number (130 for SIGINT, 143 for SIGTERM). A second one, [`REPEAT`]
//! or more after the first, ends the program at once. One sooner is the same request
//! delivered twice: `timeout` signals the program and then its process group, so the
//! program receives its SIGTERM twice within a millisecond.
//!
//! A program that has not ended [`GRACE`] after the first signal is waiting for something
//! that may never come, most often the next line of a pipe or terminal: a watchdog then
//! writes out what the results output holds ([`on_exit`]), says so, and ends the program
//! with the same exit code.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

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

/// How long the program may take to end after the first signal before the watchdog ends it.
pub const GRACE: Duration = Duration::from_secs(2);

/// How long after the first signal a second one ends the program at once.
pub const REPEAT: Duration = Duration::from_millis(500);

/// What the watchdog runs before it ends the program (writing out buffered results).
type ExitHook = Box<dyn Fn() + Send>;

static ON_EXIT: Mutex<Option<ExitHook>> = Mutex::new(None);

/// Installs the handlers of SIGINT and SIGTERM, and the watchdog.
pub fn install() -> std::io::Result<()> {
    let state = state();
    for signal in [SIGINT, SIGTERM] {
        signal_hook::flag::register_usize(signal, Arc::clone(&state.signal), signal as usize)?;
        signal_hook::flag::register(signal, Arc::clone(&state.stop))?;
    }
    let signals = Signals::new([SIGINT, SIGTERM])?;
    std::thread::Builder::new()
        .name("signal repeats".into())
        .spawn(move || end_at_a_repeat(signals))?;
    std::thread::Builder::new()
        .name("signal watchdog".into())
        .spawn(watchdog)?;
    Ok(())
}

/// Ends the program at once at a signal that comes [`REPEAT`] or more after the first.
fn end_at_a_repeat(mut signals: Signals) {
    let mut first: Option<Instant> = None;
    for signal in signals.forever() {
        match first {
            None => first = Some(Instant::now()),
            Some(at) if at.elapsed() >= REPEAT => std::process::exit(128 + signal),
            Some(_) => {}
        }
    }
}

/// Waits for the first signal, then gives the program [`GRACE`] to end by itself.
fn watchdog() {
    while !requested() {
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(GRACE);
    let Some((signal, code)) = received() else {
        return;
    };
    if let Some(hook) = ON_EXIT.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
        hook();
    }
    note!(
        "interrupted by {signal}: still waiting (for input?) after {} s; every answer found is written",
        GRACE.as_secs()
    );
    std::process::exit(i32::from(code));
}

/// Sets what the watchdog runs before it ends the program (`None`: nothing).
pub fn on_exit(hook: Option<ExitHook>) {
    *ON_EXIT.lock().unwrap_or_else(|e| e.into_inner()) = hook;
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
