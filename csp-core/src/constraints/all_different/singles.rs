//! Naked and hidden singles for all-different: the pruning of the hidden strength, and
//! the cheap first stage of GAC.

use super::{AllDifferent, gac};
use crate::propagation::{Conflict, PropagationContext};

impl AllDifferent {
    /// Naked singles (the value of a single-value view leaves the others) and hidden
    /// singles (under the pigeonhole condition: as many values as variables, a value that
    /// fits one view only goes there), repeated until neither changes anything.
    pub(super) fn singles(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        if !self.plain {
            return self.singles_general(ctx);
        }
        // Scratch arrays sized to the arity: no zeroing of unused words per call. The units
        // of 9x9 boards gather and write back their nine domains in loops of a known length.
        match self.vars.len() {
            0 => Ok(()),
            9 => self.singles_words::<9, true>(ctx),
            1..=16 => self.singles_words::<16, false>(ctx),
            17..=32 => self.singles_words::<32, false>(ctx),
            33..=64 => self.singles_words::<64, false>(ctx),
            _ => self.singles_general(ctx),
        }
    }

    /// [`AllDifferent::singles`] on plain one-word domains at one base (at most `N` views,
    /// exactly `N` if `EXACT`): domains are read once, reduced locally, and written back
    /// once.
    fn singles_words<const N: usize, const EXACT: bool>(
        &self,
        ctx: &mut PropagationContext<'_>,
    ) -> Result<(), Conflict> {
        debug_assert!(!EXACT || self.vars.len() == N);
        let k = if EXACT { N } else { self.vars.len() };
        let mut doms = [0u64; N];
        // The uniform layout (every domain the word at its variable's index, all at one
        // base) needs no look at bases.
        let uniform = ctx.uniform_words().is_some();
        if let Some((words, _)) = ctx.uniform_words() {
            for (d, v) in doms.iter_mut().zip(&self.vars) {
                *d = words[v.index()];
            }
        } else {
            let base = ctx.base(self.vars[0]);
            for (d, &v) in doms.iter_mut().zip(&self.vars) {
                match ctx.bits(v).single() {
                    Some(word) if ctx.base(v) == base => *d = word,
                    _ => return self.singles_general(ctx),
                }
            }
        }
        let mut changed = if self.gac_stage {
            singles_on_words::<false>(&mut doms[..k])?
        } else {
            singles_on_words::<true>(&mut doms[..k])?
        };
        while changed != 0 {
            let i = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            if uniform {
                ctx.retain_word(self.vars[i], doms[i])?;
            } else {
                ctx.retain_bits(self.vars[i], &[doms[i]])?;
            }
        }
        Ok(())
    }

    /// [`AllDifferent::singles`] for views of any width and offset.
    fn singles_general(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let total =
            |ctx: &PropagationContext<'_>| self.vars.iter().map(|&v| u64::from(ctx.size(v))).sum::<u64>();
        loop {
            let before = total(ctx);
            for local in 0..self.vars.len() {
                self.remove_fixed_value(ctx, local)?;
            }
            gac::hidden_singles_general(&self.vars, &self.offsets, ctx)?;
            if total(ctx) == before {
                return Ok(());
            }
        }
    }
}

/// Naked and hidden singles on one-word domains, to a fixpoint. Returns the positions
/// whose domains changed, as bits (at most 64 domains).
///
/// One pass gathers the single values and who holds each value; a second applies both
/// rules at once. Removing single values from the other views changes no holder count of
/// the remaining values, so the counts of the first pass stay valid for the second, and
/// only a view that becomes single can enable more work.
///
/// A view that two values need (each held by it alone) is a failure. `STRICT`: also when
/// those values are all it holds; otherwise such a view is left as it is (for the GAC
/// stage, whose matching fails it).
fn singles_on_words<const STRICT: bool>(doms: &mut [u64]) -> Result<u64, Conflict> {
    debug_assert!(doms.len() <= 64);
    let k = doms.len() as u32;
    let mut changed = 0u64;
    loop {
        // `fixed`: values of the `singles` views with at most one value; `once` and `twice`:
        // values held by at least one and two views.
        let (mut fixed, mut singles, mut once, mut twice) = (0u64, 0u32, 0u64, 0u64);
        for &d in doms.iter() {
            if d & d.wrapping_sub(1) == 0 {
                fixed |= d;
                singles += 1;
            }
            twice |= once & d;
            once |= d;
        }
        let count = once.count_ones();
        // Fewer fixed values than single views: an empty view, or two fixed to one value.
        if fixed.count_ones() != singles || count < k {
            return Err(Conflict);
        }
        // Under the pigeonhole condition, the values only one open view holds.
        let unique = if count == k { once & !twice & !fixed } else { 0 };
        // A fixed value held twice is in an open view (no two single views share one).
        if twice & fixed == 0 && unique == 0 {
            return Ok(changed);
        }
        // Without branches on the views: whether a view is open (or keeps its unique
        // values, or fails) follows no pattern a predictor could learn.
        let (mut again, mut failed) = (false, false);
        for (i, d) in doms.iter_mut().enumerate() {
            let x = *d;
            let open = x & x.wrapping_sub(1) != 0;
            let (rest, mine) = (x & !fixed, x & unique);
            let left = if mine == 0 { rest } else { mine };
            // No value left, or two that only this view can take.
            let needed_twice = (STRICT | (mine != rest)) & (mine & mine.wrapping_sub(1) != 0);
            failed |= open & ((left == 0) | needed_twice);
            let new = if open { left } else { x };
            again |= open & (new & new.wrapping_sub(1) == 0);
            changed |= u64::from(new != x) << i;
            *d = new;
        }
        if failed {
            return Err(Conflict);
        }
        if !again {
            return Ok(changed);
        }
    }
}
