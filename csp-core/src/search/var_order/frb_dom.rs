//! Failure rate over domain size (frb/dom; Li, Yin and Li, "Failure based variable
//! ordering heuristics for solving CSPs", CP 2021). Each variable counts its assignments
//! (nodes on it) and the failed ones (those whose inference failed); the rate starts at
//! 1 failure in 2 assignments (0.5, as in ACE) so that untried variables are neither
//! first nor last. The order takes the largest rate over `|dom|`. The counts also serve
//! `frba-dom` (`frba_dom.rs`), which adds ageing.

use crate::var::VarId;

/// Each variable's assignments and failed assignments, and when it last failed.
pub(in crate::search) struct FailureRates {
    assignments: Vec<u64>,
    failures: Vec<u64>,
    /// The number of failed assignments in all when the variable's last one failed.
    pub(in crate::search) last_failure: Vec<u64>,
    /// Failed assignments so far, all variables together.
    pub(in crate::search) total_failures: u64,
}

impl FailureRates {
    /// Every variable at 1 failure in 2 assignments.
    pub(in crate::search) fn new(n: usize) -> FailureRates {
        FailureRates {
            assignments: vec![2; n],
            failures: vec![1; n],
            last_failure: vec![0; n],
            total_failures: 0,
        }
    }

    /// A node on `var`; `holds`: its inference did not fail.
    #[inline]
    pub(in crate::search) fn on_node(&mut self, var: VarId, holds: bool) {
        let i = var.index();
        self.assignments[i] += 1;
        if !holds {
            self.failures[i] += 1;
            self.total_failures += 1;
            self.last_failure[i] = self.total_failures;
        }
    }

    /// `var`'s failure rate.
    #[inline]
    pub(in crate::search) fn rate(&self, var: VarId) -> f64 {
        self.failures[var.index()] as f64 / self.assignments[var.index()] as f64
    }
}
