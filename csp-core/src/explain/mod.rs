//! Minimal unsatisfiable subsets (MUS): why a model has no solution, as a smallest set of its
//! constraints (or groups of them) that has none on its own.
//!
//! The algorithms work over an abstract [`SubsetOracle`]: "are these groups of constraints
//! satisfiable together?", so that XCSP3 files, Sudoku givens and Python models can all be
//! explained by the same code. A group is named by its index, `0..n`.
//!
//! - [`explain`] finds one MUS: QuickXplain (Junker, AAAI 2004) by default, or deletion.
//! - [`all_muses`] enumerates every MUS of a small model (MARCO, Liffiton et al.,
//!   Constraints 2016).
//!
//! An oracle may answer [`Check::Unknown`] (a limit stopped its search). Such an answer is
//! never taken for "unsatisfiable": a group is only dropped when the subset without it is
//! proved unsatisfiable, so the subset returned is always unsatisfiable; it is then only not
//! *proved* minimal ([`Mus::minimal`] is false).

mod budget;
mod deletion;
mod map;
mod marco;
mod quickxplain;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::stats::LimitKind;

pub use marco::{Enumeration, all_muses};

/// What an oracle says of a subset of groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The groups have a common solution.
    Sat,
    /// Proved: the groups have no common solution.
    Unsat,
    /// Not decided: a limit stopped the search.
    Unknown(LimitKind),
}

/// "Are these groups satisfiable together?". `subset` holds distinct group indices in
/// ascending order.
pub trait SubsetOracle {
    /// Decides (or not) the conjunction of the groups in `subset`.
    fn check(&mut self, subset: &[usize]) -> Check;
}

impl<F: FnMut(&[usize]) -> Check> SubsetOracle for F {
    fn check(&mut self, subset: &[usize]) -> Check {
        self(subset)
    }
}

/// The limits of a whole explanation; each oracle call has its own (its node limit, say).
/// When one is reached, no further call is made and what was found so far is returned.
#[derive(Clone, Debug, Default)]
pub struct ExplainLimits {
    /// No oracle call starts after this instant. Default: none.
    pub deadline: Option<Instant>,
    /// No oracle call starts once this flag is set (SIGINT). Default: none.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// How [`explain`] shrinks the set of groups to a minimal one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// QuickXplain (Junker 2004): divide and conquer, about `k log(n/k)` calls for a MUS of
    /// `k` groups out of `n`. Default.
    #[default]
    QuickXplain,
    /// Deletion: each group in turn is dropped when the others stay unsatisfiable; `n`
    /// calls, each on a set that only shrinks.
    Deletion,
}

/// An unsatisfiable subset of groups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mus {
    /// The groups, ascending. Their conjunction is proved unsatisfiable.
    pub groups: Vec<usize>,
    /// Whether it is proved minimal: dropping any one of its groups was proved to leave a
    /// satisfiable set. False when an oracle call answered `Unknown` or a limit stopped
    /// the explanation.
    pub minimal: bool,
}

/// The answer of [`explain`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Explanation {
    /// The groups together are satisfiable: there is nothing to explain.
    Satisfiable,
    /// The groups together are unsatisfiable; a subset that is too.
    Unsatisfiable(Mus),
    /// Whether all the groups together are satisfiable was not decided.
    Unknown(LimitKind),
}

/// What a run of [`explain`] found and how much it cost.
#[derive(Clone, Debug)]
pub struct Report {
    /// The answer.
    pub explanation: Explanation,
    /// Oracle calls made (calls not started because of a limit are not counted).
    pub calls: u64,
    /// The first limit that stopped an oracle call or the explanation, if any.
    pub limit: Option<LimitKind>,
}

/// Finds a minimal unsatisfiable subset of the groups `0..n`, by `method`.
///
/// The first call checks all `n` groups together: a satisfiable set is reported as such,
/// and one not decided as unknown.
///
/// ```
/// use csp_core::explain::{Check, ExplainLimits, Explanation, Method, explain};
///
/// // Groups 1 and 3 clash, and so do 2, 4 and 5; nothing else does.
/// let clash = |s: &[usize]| {
///     let has = |g| s.contains(&g);
///     if (has(1) && has(3)) || (has(2) && has(4) && has(5)) { Check::Unsat } else { Check::Sat }
/// };
/// let report = explain(6, clash, Method::QuickXplain, &ExplainLimits::default());
/// let Explanation::Unsatisfiable(mus) = report.explanation else { unreachable!() };
/// assert!(mus.minimal);
/// assert!(mus.groups == [1, 3] || mus.groups == [2, 4, 5]);
/// ```
pub fn explain(n: usize, oracle: impl SubsetOracle, method: Method, limits: &ExplainLimits) -> Report {
    let mut budget = budget::Budget::new(oracle, limits);
    let all: Vec<usize> = (0..n).collect();
    let explanation = match budget.check(&all) {
        Check::Sat => Explanation::Satisfiable,
        Check::Unknown(kind) => Explanation::Unknown(kind),
        Check::Unsat => {
            let groups = match method {
                Method::QuickXplain => quickxplain::shrink(&mut budget, &[], all),
                Method::Deletion => deletion::shrink(&mut budget, &[], all),
            };
            Explanation::Unsatisfiable(Mus {
                groups,
                minimal: !budget.undecided(),
            })
        }
    };
    Report {
        explanation,
        calls: budget.calls(),
        limit: budget.limit(),
    }
}

#[cfg(test)]
mod tests;
