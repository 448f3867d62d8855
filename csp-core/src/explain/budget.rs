//! The oracle behind the limits: counts the calls, refuses to start one past the deadline or
//! after a cancel, and remembers whether any answer was not decided.

use std::sync::atomic::Ordering;

use super::{Check, ExplainLimits, SubsetOracle};
use crate::stats::LimitKind;

/// An oracle with the explanation's limits around it.
pub(crate) struct Budget<'l, O> {
    oracle: O,
    limits: &'l ExplainLimits,
    calls: u64,
    /// The first limit met, by a call or by the explanation.
    limit: Option<LimitKind>,
    /// Whether some answer was `Unknown`: minimality is then not proved.
    undecided: bool,
    /// The subset as the oracle takes it (ascending), reused between calls.
    sorted: Vec<usize>,
}

impl<'l, O: SubsetOracle> Budget<'l, O> {
    pub(crate) fn new(oracle: O, limits: &'l ExplainLimits) -> Self {
        Budget {
            oracle,
            limits,
            calls: 0,
            limit: None,
            undecided: false,
            sorted: Vec::new(),
        }
    }

    /// The limit of the whole explanation reached now, if any.
    pub(crate) fn stopped(&self) -> Option<LimitKind> {
        if let Some(flag) = &self.limits.cancel {
            if flag.load(Ordering::Relaxed) {
                return Some(LimitKind::Cancelled);
            }
        }
        match self.limits.deadline {
            Some(d) if std::time::Instant::now() >= d => Some(LimitKind::Time),
            _ => None,
        }
    }

    /// Asks the oracle about `subset` (any order, no repeats), unless a limit forbids it.
    pub(crate) fn check(&mut self, subset: &[usize]) -> Check {
        let answer = match self.stopped() {
            Some(kind) => Check::Unknown(kind),
            None => {
                self.sorted.clear();
                self.sorted.extend_from_slice(subset);
                self.sorted.sort_unstable();
                self.calls += 1;
                self.oracle.check(&self.sorted)
            }
        };
        if let Check::Unknown(kind) = answer {
            self.undecided = true;
            self.limit.get_or_insert(kind);
        }
        answer
    }

    /// Whether the union of two disjoint parts is proved unsatisfiable.
    pub(crate) fn unsat(&mut self, a: &[usize], b: &[usize]) -> bool {
        let mut both = Vec::with_capacity(a.len() + b.len());
        both.extend_from_slice(a);
        both.extend_from_slice(b);
        self.check(&both) == Check::Unsat
    }

    pub(crate) fn calls(&self) -> u64 {
        self.calls
    }

    pub(crate) fn limit(&self) -> Option<LimitKind> {
        self.limit
    }

    pub(crate) fn undecided(&self) -> bool {
        self.undecided
    }

    /// Notes that the explanation stopped at `kind` without an oracle call saying so.
    pub(crate) fn note_limit(&mut self, kind: LimitKind) {
        self.undecided = true;
        self.limit.get_or_insert(kind);
    }
}
