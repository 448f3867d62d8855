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
        let base = ctx.base(self.vars[0]);
        let (a, s, b) = self.parts();
        let mut unions = [0u64; 3];
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

    /// Whether the unions show a value to remove: a permutation side whose shared part
    /// alone holds a value that the other side's own part still has.
    fn anything_locked(&self, [ua, us, ub]: [u64; 3]) -> bool {
        let (size_a, size_b) = (
            (self.a_only + self.shared) as u32,
            (self.vars.len() - self.a_only) as u32,
        );
        ((ua | us).count_ones() == size_a && us & !ua & ub != 0)
            || ((ub | us).count_ones() == size_b && us & !ub & ua != 0)
    }

    /// The bit-parallel pass for plain one-word domains at one base; `None` if they are not.
    fn propagate_words(&self, ctx: &mut PropagationContext<'_>) -> Option<Result<(), Conflict>> {
        // Most calls find nothing locked: the three unions show it without copying domains.
        if !self.anything_locked(self.word_unions(ctx)?) {
            return Some(Ok(()));
        }
        let base = ctx.base(self.vars[0]);
        // Inline room for a box and a line of a 64x64 board (120 variables): no heap per call.
        let mut doms: SmallVec<[u64; 128]> = SmallVec::with_capacity(self.vars.len());
        for &v in &self.vars {
            match ctx.bits(v) {
                [word] if ctx.base(v) == base => doms.push(*word),
                _ => return None,
            }
        }
        let (a, s, b) = self.parts();
        let union = |d: &[u64]| d.iter().fold(0u64, |acc, w| acc | w);
        let (size_a, size_b) = ((a.len() + s.len()) as u32, (s.len() + b.len()) as u32);
        let mut any_change = false;
        loop {
            let (ua, us, ub) = (
                union(&doms[a.clone()]),
                union(&doms[s.clone()]),
                union(&doms[b.clone()]),
            );
            let mut changed = false;
            // A is a permutation: values only its shared part can hold leave B's own part.
            if (ua | us).count_ones() == size_a {
                let locked = us & !ua;
                for d in &mut doms[b.clone()] {
                    if *d & locked != 0 {
                        *d &= !locked;
                        changed = true;
                    }
                }
            }
            if (ub | us).count_ones() == size_b {
                let locked = us & !ub;
                for d in &mut doms[a.clone()] {
                    if *d & locked != 0 {
                        *d &= !locked;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
            any_change = true;
        }
        // Most calls find nothing locked: then there is nothing to write back.
        if any_change {
            for (&v, &new) in self.vars.iter().zip(&doms) {
                // The store still holds the old domain: write only what changed.
                if ctx.bits(v)[0] != new {
                    if let Err(conflict) = ctx.retain_bits(v, &[new]) {
                        return Some(Err(conflict));
                    }
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
