//! The limits that hold while a FlatZinc file is read and posted: the run's deadline, the
//! cancel flag that SIGINT and SIGTERM raise, the size of the file, and the memory of the
//! syntax tree.
//!
//! A user who gives `-t 1000` means the whole run: reading and posting check the same
//! deadline and flag as the search, often enough that they stop within milliseconds.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use csp_core::LimitKind;

use crate::error::{Error, Result};

/// The largest file read unless [`ReadLimits::max_input`] says otherwise: 1 GiB.
pub const DEFAULT_MAX_INPUT: u64 = 1 << 30;

/// The most memory the syntax tree of a file may take, by the parser's estimate (a node
/// per token, its names included): 4 GiB. A token of two bytes (`1,`) becomes a node of
/// about fifty, so a file far below [`DEFAULT_MAX_INPUT`] could otherwise fill the machine.
pub const MAX_SYNTAX_MEMORY: u64 = 4 << 30;

/// Limits on reading and posting a FlatZinc file.
#[derive(Clone, Debug)]
pub struct ReadLimits {
    /// Stop with [`Error::Limit`] once this instant has passed.
    pub deadline: Option<Instant>,
    /// Stop with [`Error::Limit`] when this flag is raised.
    pub cancel: Option<Arc<AtomicBool>>,
    /// The most bytes of a file ([`DEFAULT_MAX_INPUT`]).
    pub max_input: u64,
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits {
            deadline: None,
            cancel: None,
            max_input: DEFAULT_MAX_INPUT,
        }
    }
}

impl ReadLimits {
    /// The limit reached now, if any.
    pub fn reached(&self) -> Option<LimitKind> {
        if self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(LimitKind::Cancelled);
        }
        self.deadline
            .filter(|&d| Instant::now() >= d)
            .map(|_| LimitKind::Time)
    }
}

/// Checks the limits every so many steps of a long loop: reading the clock at every token
/// would cost more than most tokens.
#[derive(Debug)]
pub(crate) struct Budget<'l> {
    limits: &'l ReadLimits,
    steps: u32,
}

impl<'l> Budget<'l> {
    /// The steps between two readings of the clock.
    const EVERY: u32 = 4096;

    pub(crate) fn new(limits: &'l ReadLimits) -> Budget<'l> {
        Budget { limits, steps: 0 }
    }

    /// One step of work; `Err` when a limit is reached (seen at most [`Budget::EVERY`]
    /// steps late).
    #[inline]
    pub(crate) fn step(&mut self) -> Result<()> {
        self.steps += 1;
        if self.steps < Self::EVERY {
            return Ok(());
        }
        self.steps = 0;
        match self.limits.reached() {
            Some(kind) => Err(Error::Limit(kind)),
            None => Ok(()),
        }
    }
}
