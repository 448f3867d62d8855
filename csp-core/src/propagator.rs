//! N-ary constraints with their own propagators.
//!
//! A propagator needs only [`Propagator::variables`] (its scope),
//! [`Propagator::check`] (is a full assignment allowed?) and [`Propagator::propagate`]
//! (prune domains); the other methods have defaults that are correct but weaker. The
//! engine wakes a propagator through [`Event`]s, so the binary fast paths pay nothing for
//! models without n-ary constraints.

use crate::model::VarId;
use crate::store::{Store, Values};

/// A propagator found that no value is left for some variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict;

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

    /// Whether the constraint is all-different on the variables' own values (no offsets).
    /// Where the variables hold, together, exactly as many values as there are variables,
    /// it is a permutation, and [`Branching::Places`](crate::Branching::Places) may branch
    /// on the places of a value in it. Default: `false`.
    fn is_plain_all_different(&self) -> bool {
        false
    }

    /// A short name for logs and statistics.
    fn name(&self) -> &str {
        "propagator"
    }
}

/// What a propagator sees and may change: the current domains.
pub struct PropagationContext<'a> {
    pub(crate) store: &'a mut Store,
    pub(crate) changed: &'a mut ChangeList,
    /// Whether changes are announced to other constraints (not under forward checking,
    /// which does not cascade).
    pub(crate) track: bool,
    pub(crate) pruned: &'a mut u64,
    pub(crate) assigned: &'a [bool],
}

impl PropagationContext<'_> {
    /// Number of values left for `var`.
    #[inline]
    pub fn size(&self, var: VarId) -> u32 {
        self.store.size(var)
    }

    /// Whether `value` is still possible for `var`.
    #[inline]
    pub fn contains(&self, var: VarId, value: i32) -> bool {
        self.store.contains(var, value)
    }

    /// The smallest value left (`None` only for an empty domain).
    pub fn min(&self, var: VarId) -> Option<i32> {
        self.store.min(var)
    }

    /// The largest value left (`None` only for an empty domain).
    pub fn max(&self, var: VarId) -> Option<i32> {
        self.store.max(var)
    }

    /// The values left, in increasing order.
    pub fn values(&self, var: VarId) -> Values<'_> {
        self.store.values(var)
    }

    /// The domain as bit words: bit `i` stands for value [`PropagationContext::base`]` + i`.
    #[inline]
    pub fn bits(&self, var: VarId) -> &[u64] {
        self.store.bits(var)
    }

    /// The value of bit 0 in [`PropagationContext::bits`].
    #[inline]
    pub fn base(&self, var: VarId) -> i32 {
        self.store.base(var)
    }

    /// Whether search (or the model, for givens) assigned `var`.
    #[inline]
    pub fn is_assigned(&self, var: VarId) -> bool {
        self.assigned[var.index()]
    }

    /// Removes `value` from `var`. `Err(Conflict)` if the domain becomes empty.
    #[inline(always)]
    pub fn remove(&mut self, var: VarId, value: i32) -> Result<bool, Conflict> {
        if !self.store.remove(var, value) {
            return Ok(false);
        }
        *self.pruned += 1;
        self.note_change(var)?;
        Ok(true)
    }

    /// Keeps only the values whose bits are set in `mask` (layout of [`PropagationContext::bits`]).
    #[inline]
    pub fn retain_bits(&mut self, var: VarId, mask: &[u64]) -> Result<bool, Conflict> {
        let removed = self.store.retain_bits(var, mask);
        if removed == 0 {
            return Ok(false);
        }
        *self.pruned += u64::from(removed);
        self.note_change(var)?;
        Ok(true)
    }

    /// Every domain word and their shared base, when each variable's domain is the one
    /// word at its index (then `words[var.index()]` is `var`'s domain).
    #[inline]
    pub(crate) fn uniform_words(&self) -> Option<(&[u64], i32)> {
        self.store.uniform_words()
    }

    /// [`PropagationContext::retain_bits`] when [`PropagationContext::uniform_words`] applies.
    #[inline(always)]
    pub(crate) fn retain_word(&mut self, var: VarId, mask: u64) -> Result<bool, Conflict> {
        let (removed, left) = self.store.retain_word(var, mask);
        if removed == 0 {
            return Ok(false);
        }
        *self.pruned += u64::from(removed);
        if self.track {
            self.changed.push(var);
        }
        if left == 0 { Err(Conflict) } else { Ok(true) }
    }

    /// Reduces `var` to the single value `value`. `Err(Conflict)` if it was not possible.
    pub fn fix(&mut self, var: VarId, value: i32) -> Result<bool, Conflict> {
        if !self.store.contains(var, value) {
            return Err(Conflict);
        }
        let removed = self.store.fix(var, value);
        if removed == 0 {
            return Ok(false);
        }
        *self.pruned += u64::from(removed);
        self.note_change(var)?;
        Ok(true)
    }

    #[inline]
    fn note_change(&mut self, var: VarId) -> Result<(), Conflict> {
        if self.track {
            self.changed.push(var);
        }
        if self.store.size(var) == 0 {
            Err(Conflict)
        } else {
            Ok(())
        }
    }
}

/// The variables whose domains changed and still have to be announced, each listed once.
#[derive(Clone, Debug, Default)]
pub(crate) struct ChangeList {
    vars: Vec<VarId>,
    listed: Vec<bool>,
}

impl ChangeList {
    pub(crate) fn new(num_vars: usize) -> Self {
        ChangeList {
            vars: Vec::with_capacity(num_vars),
            listed: vec![false; num_vars],
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, var: VarId) {
        if !self.listed[var.index()] {
            self.listed[var.index()] = true;
            self.vars.push(var);
        }
    }

    #[inline]
    pub(crate) fn pop(&mut self) -> Option<VarId> {
        let var = self.vars.pop()?;
        self.listed[var.index()] = false;
        Some(var)
    }

    pub(crate) fn clear(&mut self) {
        while self.pop().is_some() {}
    }
}
