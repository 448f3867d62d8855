//! `allEqual`: every variable takes the same value. Generalised arc consistency: each
//! domain keeps the values common to all of them.

use crate::constraints::scratch::with_scratch;
use crate::propagation::{Conflict, Event, PropagationContext, Propagator};
use crate::store::window;
use crate::var::VarId;

/// All of `vars` (distinct) are equal.
#[derive(Clone, Debug)]
pub(crate) struct AllEqual {
    vars: Vec<VarId>,
}

impl AllEqual {
    pub(crate) fn new(vars: Vec<VarId>) -> AllEqual {
        AllEqual { vars }
    }
}

impl Propagator for AllEqual {
    fn variables(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[i32]) -> bool {
        values.windows(2).all(|w| w[0] == w[1])
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        let smallest = *self.vars.iter().min_by_key(|&&v| ctx.size(v)).ok_or(Conflict)?;
        let base = i64::from(ctx.base(smallest));
        with_scratch(|s| {
            // The values common to every domain, as bits in the smallest one's layout, a
            // word at a time: a value at a time, 30,000 variables over 0..29999 took
            // seconds at the root, longer than a time limit should wait.
            let common = &mut s.words;
            common.clear();
            common.extend(ctx.bits(smallest).iter());
            for &v in &self.vars {
                let (bits, shift) = (ctx.bits(v), base - i64::from(ctx.base(v)));
                let mut any = 0;
                for (k, word) in common.iter_mut().enumerate() {
                    *word &= bits.window(shift + 64 * k as i64);
                    any |= *word;
                }
                if any == 0 {
                    return Err(Conflict);
                }
            }
            // Every domain holds the common values: one of as many values has no other.
            let size: u32 = common.iter().map(|w| w.count_ones()).sum();
            let mask = &mut s.more_words;
            for &v in &self.vars {
                if ctx.size(v) == size {
                    continue;
                }
                let shift = i64::from(ctx.base(v)) - base;
                mask.clear();
                mask.extend(
                    (0..ctx.bits(v).len()).map(|j| window(|k| common.get(k).copied(), shift + 64 * j as i64)),
                );
                ctx.retain_bits(v, mask)?;
            }
            Ok(())
        })
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn is_consistent(&self, local: usize, value: i32, assigned: &dyn Fn(usize) -> Option<i32>) -> bool {
        (0..self.vars.len()).all(|j| j == local || assigned(j).is_none_or(|b| b == value))
    }

    fn prunes_exactly(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "allEqual"
    }
}
