//! The limits that hold while an instance is read and posted: a deadline, a cancel flag, the
//! size of the input, and how deep elements and expressions may nest.
//!
//! A search's limits (csp-core's `Limits`) start when the search does; a user who asks for
//! one second means the whole run, so reading, decompressing and posting check the same
//! deadline and flag, often enough that a limit stops them within milliseconds.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use csp_core::LimitKind;

use crate::error::{Error, Result};

/// The most bytes of XML an instance may hold after decompression, unless
/// [`ReadLimits::max_input`] says otherwise: 1 GiB.
pub const DEFAULT_MAX_INPUT: u64 = 1 << 30;

/// How deep XML elements may nest (`<block>` in `<block>`, `<group>` in a block...): real
/// instances nest fewer than ten.
pub const MAX_ELEMENT_DEPTH: usize = 256;

/// How deep an expression may nest (`not(not(...))`): every pass over an expression is
/// recursive, and this bound keeps each within a thread's stack, on every thread.
pub const MAX_EXPRESSION_DEPTH: usize = 1000;

/// The most variables an instance may declare (and the longest list an integer
/// repetition `vxk` may expand to).
pub const MAX_VARIABLES: usize = 1 << 25;

/// The most constraints an instance may state (after `<group>` and `<slide>` are
/// expanded). Each is read whole before any is posted, and the model's memory cap would
/// refuse far fewer in nearly every case: 600 bytes a pair under binary constraints, at
/// least 700 an n-ary constraint over two variables or more. Only constraints on one variable, or many on the same
/// pair, cost less.
pub const MAX_CONSTRAINTS: usize = 1 << 22;

/// Limits on reading and posting an instance.
#[derive(Clone, Debug)]
pub struct ReadLimits {
    /// Stop with [`Error::Limit`] once this instant has passed.
    pub deadline: Option<Instant>,
    /// Stop with [`Error::Limit`] when this flag is raised (by SIGINT or SIGTERM).
    pub cancel: Option<Arc<AtomicBool>>,
    /// The most bytes of XML read, after decompression ([`DEFAULT_MAX_INPUT`]).
    pub max_input: u64,
    /// The most constraints an instance may state ([`MAX_CONSTRAINTS`]).
    pub max_constraints: usize,
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits {
            deadline: None,
            cancel: None,
            max_input: DEFAULT_MAX_INPUT,
            max_constraints: MAX_CONSTRAINTS,
        }
    }
}

impl ReadLimits {
    /// The limit reached now, if any.
    pub fn reached(&self) -> Option<LimitKind> {
        if self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(LimitKind::Cancelled);
        }
        match self.deadline {
            Some(d) if Instant::now() >= d => Some(LimitKind::Time),
            _ => None,
        }
    }

    /// `Err` once a limit is reached.
    pub(crate) fn check(&self) -> Result<()> {
        match self.reached() {
            Some(kind) => Err(Error::Limit(kind)),
            None => Ok(()),
        }
    }
}

/// Checks the limits every so many steps of a long loop: reading the clock on every step
/// would cost more than most steps.
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
        if self.steps >= Self::EVERY {
            self.steps = 0;
            self.limits.check()?;
        }
        Ok(())
    }

    /// `weight` steps at once (a pass over many values).
    #[inline]
    pub(crate) fn steps(&mut self, weight: usize) -> Result<()> {
        let weight = u32::try_from(weight).unwrap_or(u32::MAX);
        self.steps = self.steps.saturating_add(weight);
        if self.steps >= Self::EVERY {
            self.steps = 0;
            self.limits.check()?;
        }
        Ok(())
    }

    /// The limits themselves.
    pub(crate) fn limits(&self) -> &'l ReadLimits {
        self.limits
    }
}
