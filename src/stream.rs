//! Results written as they are found: standard output buffered for speed, and flushed by a
//! background thread at least every [`FLUSH_EVERY`], so that an answer never waits in the
//! buffer while the search goes on (a reader of `csp solve --all` sees each solution within
//! that time), and memory holds at most one buffer, whatever the number of answers.

use std::io::{self, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The longest an answer waits in the buffer.
pub const FLUSH_EVERY: Duration = Duration::from_millis(200);

/// A buffer this large is written at once by the writer itself.
const WRITE_AT: usize = 1 << 16;

#[derive(Default)]
struct Shared {
    buffer: Vec<u8>,
    /// The reader of standard output is gone (`| head`), or writing failed.
    failed: Option<io::ErrorKind>,
    /// The writer is done: the flusher ends.
    closed: bool,
}

/// Standard output, streamed: [`Stream::line`] appends, a background thread flushes.
pub struct Stream {
    shared: Arc<(Mutex<Shared>, Condvar)>,
    flusher: Option<std::thread::JoinHandle<()>>,
}

impl Stream {
    /// Starts the stream and its flusher.
    pub fn stdout() -> Stream {
        let shared = Arc::new((Mutex::new(Shared::default()), Condvar::new()));
        let theirs = Arc::clone(&shared);
        let flusher = std::thread::Builder::new()
            .name("stdout flusher".into())
            .spawn(move || flush_periodically(&theirs))
            .ok();
        Stream { shared, flusher }
    }

    /// Appends a line (`text` without its end); `Err` once standard output failed (the
    /// kind `BrokenPipe` when its reader is gone).
    pub fn line(&self, text: &str) -> io::Result<()> {
        let (lock, _) = &*self.shared;
        let mut s = lock.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(kind) = s.failed {
            return Err(kind.into());
        }
        s.buffer.extend_from_slice(text.as_bytes());
        s.buffer.push(b'\n');
        if s.buffer.len() >= WRITE_AT {
            write_out(&mut s);
            if let Some(kind) = s.failed {
                return Err(kind.into());
            }
        }
        Ok(())
    }

    /// Writes out what is buffered now.
    pub fn flush(&self) -> io::Result<()> {
        let (lock, _) = &*self.shared;
        let mut s = lock.lock().unwrap_or_else(|e| e.into_inner());
        write_out(&mut s);
        match s.failed {
            Some(kind) => Err(kind.into()),
            None => Ok(()),
        }
    }

    /// Whether the reader of standard output is gone.
    pub fn reader_gone(&self) -> bool {
        let (lock, _) = &*self.shared;
        let s = lock.lock().unwrap_or_else(|e| e.into_inner());
        s.failed == Some(io::ErrorKind::BrokenPipe)
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        let _ = self.flush();
        let (lock, wake) = &*self.shared;
        lock.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        wake.notify_all();
        if let Some(handle) = self.flusher.take() {
            let _ = handle.join();
        }
    }
}

/// Writes the buffer to standard output; records a failure.
fn write_out(s: &mut Shared) {
    if s.buffer.is_empty() || s.failed.is_some() {
        s.buffer.clear();
        return;
    }
    let mut out = io::stdout().lock();
    let result = out.write_all(&s.buffer).and_then(|()| out.flush());
    s.buffer.clear();
    if let Err(e) = result {
        s.failed = Some(e.kind());
    }
}

fn flush_periodically(shared: &(Mutex<Shared>, Condvar)) {
    let (lock, wake) = shared;
    let mut s = lock.lock().unwrap_or_else(|e| e.into_inner());
    while !s.closed {
        write_out(&mut s);
        s = wake
            .wait_timeout(s, FLUSH_EVERY)
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
}
