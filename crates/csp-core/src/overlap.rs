//! Reasoning between two overlapping permutation constraints.
//!
//! Two all-different constraints `A` and `B` share the variables `S`. When `A` is a
//! permutation (its variables have exactly as many values between them as there are
//! variables, so every value must be used), a value that `A` can place only inside `S`
//! will be taken inside `S`, so no variable of `B` outside `S` can take it. The same
//! holds the other way round. In Sudoku this is "pointing" and "box-line reduction"
//! (locked candidates); the propagator itself knows nothing about Sudoku.

use std::collections::BTreeSet;

use smallvec::SmallVec;

use crate::model::VarId;
use crate::propagator::{Conflict, Event, Priority, PropagationContext, Propagator, Wake};

/// The implied constraint between two all-different constraints sharing variables.
///
/// Its [`Propagator::check`] is the conjunction of both all-different constraints, so it
/// is sound on its own; posted next to them it only adds pruning.
#[derive(Clone, Debug)]
pub struct PermutationOverlap {
    /// `A \ S`, then `S`, then `B \ S`.
    vars: Vec<VarId>,
    a_only: usize,
    shared: usize,
}

impl PermutationOverlap {
    /// The overlap of all-different constraints over `a` and `b`; `None` if they share
    /// no variable or one contains the other (nothing to infer then).
    pub fn new(a: &[VarId], b: &[VarId]) -> Option<PermutationOverlap> {
        let in_b: BTreeSet<VarId> = b.iter().copied().collect();
        let in_a: BTreeSet<VarId> = a.iter().copied().collect();
        let a_only: Vec<VarId> = a.iter().copied().filter(|v| !in_b.contains(v)).collect();
        let shared: Vec<VarId> = a.iter().copied().filter(|v| in_b.contains(v)).collect();
        let b_only: Vec<VarId> = b.iter().copied().filter(|v| !in_a.contains(v)).collect();
        if shared.is_empty() || a_only.is_empty() || b_only.is_empty() {
            return None;
        }
        let (na, ns) = (a_only.len(), shared.len());
        let vars = a_only.into_iter().chain(shared).chain(b_only).collect();
        Some(PermutationOverlap {
            vars,
            a_only: na,
            shared: ns,
        })
    }

    fn parts(
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
                match ctx.bits(v) {
                    [word] if ctx.base(v) == base => *union |= word,
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
        let unions = self.word_unions(ctx)?;
        let [from_b, from_a] = self.locked(unions);
        // Most calls find nothing locked: the unions show it without copying domains.
        if from_b & unions[2] == 0 && from_a & unions[0] == 0 {
            return Some(Ok(()));
        }
        // Inline room for a box and a line of a 64x64 board (120 variables): no heap per call.
        let mut doms: SmallVec<[u64; 128]> = self.vars.iter().map(|&v| ctx.bits(v)[0]).collect();
        let (a, s, b) = self.parts();
        let union = |d: &[u64]| d.iter().fold(0u64, |acc, w| acc | w);
        loop {
            let unions = [
                union(&doms[a.clone()]),
                union(&doms[s.clone()]),
                union(&doms[b.clone()]),
            ];
            let [from_b, from_a] = self.locked(unions);
            if from_b & unions[2] == 0 && from_a & unions[0] == 0 {
                break;
            }
            doms[b.clone()].iter_mut().for_each(|d| *d &= !from_b);
            doms[a.clone()].iter_mut().for_each(|d| *d &= !from_a);
        }
        for (&v, &new) in self.vars.iter().zip(&doms) {
            // The store still holds the old domain: write only what changed.
            if ctx.bits(v)[0] != new {
                if let Err(conflict) = ctx.retain_bits(v, &[new]) {
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
        let distinct = |range: std::ops::Range<usize>, extra: std::ops::Range<usize>| {
            let picked: Vec<i32> = values[range].iter().chain(&values[extra]).copied().collect();
            picked.iter().collect::<BTreeSet<_>>().len() == picked.len()
        };
        distinct(a.start..s.end, 0..0) && distinct(s, b)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        match self.propagate_words(ctx) {
            Some(result) => result,
            None => self.propagate_values(ctx),
        }
    }

    fn wake(&self) -> Wake {
        Wake::OnChange
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn priority(&self) -> Priority {
        Priority::Slow
    }

    fn name(&self) -> &str {
        "permutation-overlap"
    }
}
