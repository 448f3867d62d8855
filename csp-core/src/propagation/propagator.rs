//! N-ary constraints with their own propagators.
//!
//! A propagator needs only [`Propagator::variables`] (its scope),
//! [`Propagator::check`] (is a full assignment allowed?) and [`Propagator::propagate`]
//! (prune domains); the other methods have defaults that are correct but weaker. The
//! engine wakes a propagator through [`Event`]s, so the binary fast paths pay nothing for
//! models without n-ary constraints.
//!
//! The built-in propagators ([`crate::AllDifferent`], [`crate::PermutationOverlaps`]) use
//! the same trait, plus crate-only fast paths on the context for domains of one word.

use super::context::{Conflict, PropagationContext};
use crate::var::VarId;

/// Why a propagator runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The variable at this position of [`Propagator::variables`] was assigned (by search or
    /// as a given), or, under maintained arc consistency, its domain became a single value.
    Fixed(usize),
    /// Some domain of the propagator's variables changed since it last ran.
    Changed,
}

/// When a propagator runs relative to the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Priority {
    /// As soon as it is woken (binary arcs and fast propagators share one queue).
    #[default]
    Fast,
    /// Only when no arc and no fast propagator is pending: for costly filtering that
    /// should see the cheap pruning first.
    Slow,
}

/// Which events wake a propagator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wake {
    /// Only [`Event::Fixed`].
    OnFixed,
    /// Only [`Event::Changed`] (at most one pending at a time).
    OnChange,
    /// Both.
    OnFixedAndChange,
}

impl Wake {
    pub(crate) fn on_fixed(self) -> bool {
        matches!(self, Wake::OnFixed | Wake::OnFixedAndChange)
    }
    pub(crate) fn on_change(self) -> bool {
        matches!(self, Wake::OnChange | Wake::OnFixedAndChange)
    }
}

/// An n-ary constraint that prunes domains itself.
///
/// Implementations hold no search state: everything they need is in the domains,
/// which the engine restores on backtracking.
pub trait Propagator: Send + Sync {
    /// The variables of the constraint; positions in this list are the "local" indices.
    fn variables(&self) -> &[VarId];

    /// Whether a complete assignment is allowed (`values[i]` belongs to `variables()[i]`).
    fn check(&self, values: &[i32]) -> bool;

    /// Removes values that cannot be part of a solution. Returns [`Conflict`] when a
    /// domain would become empty (the context reports that too).
    fn propagate(&self, ctx: &mut PropagationContext<'_>, event: Event) -> Result<(), Conflict>;

    /// Which events wake this propagator. Default: every domain change.
    fn wake(&self) -> Wake {
        Wake::OnChange
    }

    /// Under inference `none`: may the variable at position `local` take `value`, given the
    /// values of the already assigned variables (`assigned(i)`)? The default accepts, and
    /// the engine checks [`Propagator::check`] on each complete assignment instead.
    fn is_consistent(&self, local: usize, value: i32, assigned: &dyn Fn(usize) -> Option<i32>) -> bool {
        let _ = (local, value, assigned);
        true
    }

    /// Whether a complete assignment reached by search always satisfies the constraint:
    /// under `none` because [`Propagator::is_consistent`] is exact, under forward checking
    /// and MAC because [`Event::Fixed`] handling removes every value that conflicts with an
    /// assigned one. When `false` (the default) the engine calls [`Propagator::check`] on
    /// every complete assignment before reporting it.
    fn prunes_exactly(&self) -> bool {
        false
    }

    /// When [`Event::Changed`] runs, relative to other pending work. Default: fast.
    fn priority(&self) -> Priority {
        Priority::Fast
    }

    /// Whether one run of [`Propagator::propagate`] on [`Event::Changed`] reaches the
    /// propagator's own fixpoint, so that the engine need not wake it again for the
    /// changes it made itself. Default: `false`.
    fn is_idempotent(&self) -> bool {
        false
    }

    /// When the constraint makes `var` grow with other variables, each weighted
    /// (`var = sum(c_i * x_i)` gives each `(c_i, x_i)`; `var = max(x_i)` each `(1, x_i)`):
    /// those terms. Large neighbourhood search frees the variables that weigh most in an
    /// objective. Default: none.
    fn terms_of(&self, var: VarId) -> Option<Vec<(i64, VarId)>> {
        let _ = var;
        None
    }

    /// A short name for logs and statistics.
    fn name(&self) -> &str {
        "propagator"
    }

    /// The bytes of data this propagator keeps of its own, beyond a few words per
    /// variable: tables, layered graphs, lists of values. csp's memory cap counts them
    /// ([`crate::ModelSize`]) when the propagator is added to a model, so a propagator that
    /// shares its data with one added before counts none of it. Default: 0.
    fn heap_bytes(&self) -> usize {
        0
    }
}
