//! `precedence` (value precedence): for consecutive values `s = v[k]`, `t = v[k + 1]`, if
//! some variable takes `t`, an earlier one takes `s`; `covered`: every value is taken.
//!
//! Each consecutive pair gets the filtering of Law and Lee (2004), generalised arc
//! consistent for one pair: no variable up to the first one that can take `s` may take
//! `t`; and when only one variable before the first one fixed to `t` can take `s`, it
//! takes `s`. `covered` amounts to the last value being taken (the chain then takes the
//! others before it): it fails when no variable can take it and fixes the only one that can.

use smallvec::SmallVec;

use crate::constraints::exact_once_complete;
use crate::constraints::forward_check_last;
use crate::constraints::scratch::with_scratch;
use crate::propagation::{Conflict, Event, PropagationContext, Propagator};
use crate::var::VarId;

/// Value precedence over the sequence `list` (positions into `scope`).
#[derive(Clone, Debug)]
pub(crate) struct Precedence {
    scope: Vec<VarId>,
    list: Vec<VarId>,
    at: Vec<u32>,
    values: Vec<i32>,
    covered: bool,
    /// No variable comes twice in `list` ([`Precedence::remove_tails`] needs it).
    distinct: bool,
}

impl Precedence {
    pub(crate) fn new(
        scope: Vec<VarId>,
        list: Vec<VarId>,
        at: Vec<u32>,
        values: Vec<i32>,
        covered: bool,
    ) -> Precedence {
        let mut sorted = list.clone();
        sorted.sort_unstable();
        sorted.dedup();
        Precedence {
            distinct: sorted.len() == list.len(),
            scope,
            list,
            at,
            values,
            covered,
        }
    }

    /// The removals of [`Precedence::pair`] for every pair at once. Pair `k` removes
    /// `v[k + 1]` from the variables up to the first one that can take `v[k]`; the first
    /// one that can take `v[k + 1]` then lies after it, so these firsts never go back and
    /// each variable loses a tail `v[k + 1..]` of the values, removed here in one change of
    /// its words. One change per value (4.5e8 of them at the root of 30,000 variables over
    /// as many values) would fill memory with the trail. The values are distinct (the model
    /// refuses others) and so must the variables be.
    fn remove_tails(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let (n, m) = (self.list.len(), self.values.len());
        with_scratch(|s| {
            // firsts[k]: the first variable that can take `v[k]` after pair `k - 1`'s removals.
            let firsts = &mut s.indices;
            firsts.clear();
            let mut from = 0;
            for &v in &self.values {
                let first = (from..n).find(|&i| ctx.contains(self.list[i], v)).unwrap_or(n);
                firsts.push(first as u32);
                from = (first + 1).min(n);
            }
            // Variable `i` loses `v[k + 1]` for every pair `k` with `firsts[k] >= i`: the
            // values after `v[tail]`, `tail` the first such pair.
            let mut tail = 0;
            for (i, &x) in self.list.iter().enumerate() {
                while tail + 1 < m && (firsts[tail] as usize) < i {
                    tail += 1;
                }
                if tail + 1 >= m || (firsts[tail] as usize) < i {
                    break;
                }
                let base = i64::from(ctx.base(x));
                let mut mask: SmallVec<[u64; 8]> = ctx.bits(x).iter().collect();
                let span = mask.len() as i64 * 64;
                for &v in &self.values[tail + 1..] {
                    let bit = i64::from(v) - base;
                    if (0..span).contains(&bit) {
                        mask[(bit / 64) as usize] &= !(1u64 << (bit % 64));
                    }
                }
                ctx.retain_bits(x, &mask)?;
            }
            Ok(())
        })
    }

    /// Law and Lee's filtering for `s` before `t` (the removals left out when
    /// [`Precedence::remove_tails`] made them).
    fn pair(&self, ctx: &mut PropagationContext<'_>, s: i32, t: i32, removed: bool) -> Result<(), Conflict> {
        let n = self.list.len();
        let alpha = self.list.iter().position(|&x| ctx.contains(x, s)).unwrap_or(n);
        if !removed {
            for &x in &self.list[..(alpha + 1).min(n)] {
                ctx.remove(x, t)?;
            }
        }
        if alpha == n {
            return Ok(());
        }
        let fixed_to_t = |x: VarId| ctx.size(x) == 1 && ctx.contains(x, t);
        let Some(gamma) = self.list.iter().position(|&x| fixed_to_t(x)) else {
            return Ok(());
        };
        if gamma <= alpha {
            return Err(Conflict);
        }
        let second = self.list[alpha + 1..gamma].iter().any(|&x| ctx.contains(x, s));
        if !second {
            ctx.fix(self.list[alpha], s)?;
        }
        Ok(())
    }
}

impl Propagator for Precedence {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let first = |v: i32| self.at.iter().position(|&p| values[p as usize] == v);
        let mut previous = Some(0);
        for (k, &v) in self.values.iter().enumerate() {
            let here = first(v);
            match (previous, here) {
                (None, Some(_)) => return false,
                (Some(p), Some(h)) if k > 0 && h < p => return false,
                _ => {}
            }
            previous = here;
        }
        !self.covered || previous.is_some()
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        if self.distinct {
            self.remove_tails(ctx)?;
        }
        for w in self.values.windows(2) {
            self.pair(ctx, w[0], w[1], self.distinct)?;
        }
        if self.covered {
            if let Some(&last) = self.values.last() {
                let mut can = self.list.iter().filter(|&&x| ctx.contains(x, last));
                match (can.next(), can.next()) {
                    (None, _) => return Err(Conflict),
                    (Some(&x), None) => {
                        ctx.fix(x, last)?;
                    }
                    _ => {}
                }
            }
        }
        // The pairs are filtered one by one: exact once one variable is left.
        forward_check_last(ctx, &self.scope, |values| self.check(values))
    }

    exact_once_complete!();

    fn name(&self) -> &str {
        "precedence"
    }
}
