//! One link between two all-different constraints that share variables.

use std::collections::BTreeSet;

use crate::propagation::{Conflict, Event, Priority, PropagationContext, Propagator};
use crate::var::VarId;

use super::{SortedVars, all_distinct};

/// The implied constraint between two all-different constraints sharing variables.
///
/// Its [`Propagator::check`] is the conjunction of both all-different constraints, so it
/// is sound on its own; posted next to them it only adds pruning.
#[derive(Clone, Debug)]
pub struct PermutationOverlap {
    /// `A \ S`, then `S`, then `B \ S`.
    pub(super) vars: Vec<VarId>,
    a_only: usize,
    shared: usize,
    /// Both all-different constraints are posted in the model too (see
    /// [`PermutationOverlap::implied`]).
    implied: bool,
}

impl PermutationOverlap {
    /// The overlap of all-different constraints over `a` and `b`; `None` if they share
    /// no variable or one contains the other (nothing to infer then).
    pub fn new(a: &[VarId], b: &[VarId]) -> Option<PermutationOverlap> {
        let in_b = SortedVars::of(b);
        let shared: Vec<VarId> = a.iter().copied().filter(|v| in_b.contains(v)).collect();
        if shared.is_empty() {
            return None;
        }
        let in_a = SortedVars::of(a);
        let a_only: Vec<VarId> = a.iter().copied().filter(|v| !in_b.contains(v)).collect();
        let b_only: Vec<VarId> = b.iter().copied().filter(|v| !in_a.contains(v)).collect();
        if a_only.is_empty() || b_only.is_empty() {
            return None;
        }
        let (na, ns) = (a_only.len(), shared.len());
        let vars = a_only.into_iter().chain(shared).chain(b_only).collect();
        Some(PermutationOverlap {
            vars,
            a_only: na,
            shared: ns,
            implied: false,
        })
    }

    /// Declares that the model posts both all-different constraints itself, so that a
    /// complete assignment the search reaches satisfies this one already: the engine then
    /// skips its check. ([`crate::Model::link_all_different`] declares it when it is so.)
    ///
    /// Trusted, not verified: declared on a model without both constraints, the search may
    /// report assignments that break them.
    pub fn implied(mut self) -> Self {
        self.implied = true;
        self
    }

    pub(super) fn parts(
        &self,
    ) -> (
        std::ops::Range<usize>,
        std::ops::Range<usize>,
        std::ops::Range<usize>,
    ) {
        let (a, s) = (self.a_only, self.a_only + self.shared);
        (0..a, a..s, s..self.vars.len())
    }

    /// The unions of the domains of `A \ S`, `S` and `B \ S`, when every domain is one
    /// word at one base; `None` otherwise.
    fn word_unions(&self, ctx: &PropagationContext<'_>) -> Option<[u64; 3]> {
        let (a, s, b) = self.parts();
        let mut unions = [0u64; 3];
        if let Some((words, _)) = ctx.uniform_words() {
            // Every domain is the word at its variable's index, all at one base.
            for (union, range) in unions.iter_mut().zip([a, s, b]) {
                *union = self.vars[range].iter().fold(0, |acc, v| acc | words[v.index()]);
            }
            return Some(unions);
        }
        let base = ctx.base(self.vars[0]);
        for (union, range) in unions.iter_mut().zip([a, s, b]) {
            for &v in &self.vars[range] {
                match ctx.bits(v).single() {
                    Some(word) if ctx.base(v) == base => *union |= word,
                    _ => return None,
                }
            }
        }
        Some(unions)
    }

    /// The values to remove, from the unions of `A \ S`, `S` and `B \ S`: when a side is
    /// a permutation, the values only its shared part holds leave the other side's own
    /// part. Returns `[from B \ S, from A \ S]` (bits that may already be absent).
    fn locked(&self, [ua, us, ub]: [u64; 3]) -> [u64; 2] {
        let (size_a, size_b) = (
            (self.a_only + self.shared) as u32,
            (self.vars.len() - self.a_only) as u32,
        );
        let from_b = if (ua | us).count_ones() == size_a {
            us & !ua
        } else {
            0
        };
        let from_a = if (ub | us).count_ones() == size_b {
            us & !ub
        } else {
            0
        };
        [from_b, from_a]
    }

    /// The bit-parallel pass for plain one-word domains at one base; `None` if they are not.
    fn propagate_words(&self, ctx: &mut PropagationContext<'_>) -> Option<Result<(), Conflict>> {
        let [mut ua, us, mut ub] = self.word_unions(ctx)?;
        // Taking values from every view of a part takes them from its union, so the
        // fixpoint is found on the unions alone, and each view is written once after.
        let (mut gone_a, mut gone_b) = (0u64, 0u64);
        loop {
            let [from_b, from_a] = self.locked([ua, us, ub]);
            let (from_b, from_a) = (from_b & ub, from_a & ua);
            // Most calls find nothing locked.
            if from_b | from_a == 0 {
                break;
            }
            (ub, ua) = (ub & !from_b, ua & !from_a);
            (gone_b, gone_a) = (gone_b | from_b, gone_a | from_a);
        }
        let (a, _, b) = self.parts();
        let uniform = ctx.uniform_words().is_some();
        for (range, gone) in [(a, gone_a), (b, gone_b)] {
            for &v in self.vars[range].iter().filter(|_| gone != 0) {
                let word = ctx.bits(v)[0];
                let kept = if word & gone == 0 {
                    Ok(false)
                } else if uniform {
                    ctx.retain_word(v, !gone)
                } else {
                    ctx.retain_bits(v, &[word & !gone])
                };
                if let Err(conflict) = kept {
                    return Some(Err(conflict));
                }
            }
        }
        Some(Ok(()))
    }

    /// The same reasoning value by value, for any domains.
    fn propagate_values(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let (a, s, b) = self.parts();
        loop {
            let values = |ctx: &PropagationContext<'_>, r: std::ops::Range<usize>| -> BTreeSet<i32> {
                self.vars[r].iter().flat_map(|&v| ctx.values(v)).collect()
            };
            let (va, vs, vb) = (
                values(ctx, a.clone()),
                values(ctx, s.clone()),
                values(ctx, b.clone()),
            );
            let mut changed = false;
            for (own, other_part, size) in [
                (&va, b.clone(), a.len() + s.len()),
                (&vb, a.clone(), s.len() + b.len()),
            ] {
                if own.union(&vs).count() != size {
                    continue;
                }
                for &value in vs.difference(own) {
                    for &v in &self.vars[other_part.clone()] {
                        changed |= ctx.remove(v, value)?;
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

impl Propagator for PermutationOverlap {
    fn variables(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[i32]) -> bool {
        let (a, s, b) = self.parts();
        all_distinct(values[a.start..s.end].iter().copied())
            && all_distinct(values[s].iter().chain(&values[b]).copied())
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        match self.propagate_words(ctx) {
            Some(result) => result,
            None => self.propagate_values(ctx),
        }
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn priority(&self) -> Priority {
        Priority::Slow
    }

    fn prunes_exactly(&self) -> bool {
        self.implied
    }

    fn name(&self) -> &str {
        "permutation-overlap"
    }
}
