//! `binPacking`: every item goes in one of the bins `first..first + loads.len()`, and the
//! load of bin `b` (the total size of its items) equals a variable or lies in a set of
//! allowed loads (constant bounds and conditions need no load variable, which a search
//! without inference would branch on). Load bounds (after Shaw 2004, without the knapsack
//! reasoning): each load lies between what its fixed items weigh and what could still go
//! in; the loads add up to the total size; an item too large for what a bin has left
//! leaves it, and an item a bin cannot reach its minimum without goes in. O(items x bins).

use crate::constraints::exact_once_complete;
use crate::constraints::forward_check_last;
use crate::constraints::scope::Arg;
use crate::constraints::scratch::with_scratch;
use crate::constraints::tally::Tally;
use crate::propagation::{Conflict, Event, Priority, PropagationContext, Propagator};
use crate::var::VarId;

/// Items of `sizes` (non-negative) in bins `first..first + loads.len()`.
#[derive(Clone, Debug)]
pub(crate) struct BinPacking {
    scope: Vec<VarId>,
    bins: Vec<Arg>,
    sizes: Vec<i64>,
    loads: Vec<Tally>,
    first: i64,
    total: i64,
}

impl BinPacking {
    pub(crate) fn new(
        scope: Vec<VarId>,
        bins: Vec<Arg>,
        sizes: Vec<i64>,
        loads: Vec<Tally>,
        first: i64,
    ) -> BinPacking {
        let total = sizes.iter().sum();
        BinPacking {
            scope,
            bins,
            sizes,
            loads,
            first,
            total,
        }
    }

    /// The bin of a value, if it is one.
    fn bin_of(&self, a: i32) -> Option<usize> {
        usize::try_from(i64::from(a) - self.first)
            .ok()
            .filter(|&b| b < self.loads.len())
    }

    fn value_of(&self, b: usize) -> Result<i32, Conflict> {
        i32::try_from(self.first + b as i64).map_err(|_| Conflict)
    }
}

impl Propagator for BinPacking {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let mut load = vec![0i64; self.loads.len()];
        for (x, &size) in self.bins.iter().zip(&self.sizes) {
            match self.bin_of(x.value(values)) {
                Some(b) => load[b] += size,
                None => return false,
            }
        }
        self.loads.iter().zip(&load).all(|(l, &w)| l.accepts(values, w))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        let m = self.loads.len();
        with_scratch(|s| {
            // What each bin holds for sure, and what it may hold.
            let (required, possible) = (&mut s.ints, &mut s.more_ints);
            required.clear();
            required.resize(m, 0);
            possible.clear();
            possible.resize(m, 0);
            for (x, &size) in self.bins.iter().zip(&self.sizes) {
                if ctx.size(x.var) == 1 {
                    let b = self.bin_of(ctx.min(x.var).ok_or(Conflict)?).ok_or(Conflict)?;
                    required[b] += size;
                    possible[b] += size;
                } else {
                    for a in ctx.values(x.var) {
                        if let Some(b) = self.bin_of(a) {
                            possible[b] += size;
                        }
                    }
                }
            }
            // The loads within their bounds, and adding up to the total.
            let range = &mut s.pairs;
            range.clear();
            for b in 0..m {
                range.push(self.loads[b].narrow(ctx, required[b], possible[b])?);
            }
            let sum_min: i64 = range.iter().map(|r| r.0).sum();
            let sum_max: i64 = range.iter().map(|r| r.1).sum();
            for (load, r) in self.loads.iter().zip(range.iter_mut()) {
                let (lo, hi) = *r;
                let (floor, ceiling) = (self.total - (sum_max - hi), self.total - (sum_min - lo));
                *r = load.narrow(ctx, lo.max(floor), hi.min(ceiling))?;
            }
            // Items: out of a bin they would overfill, into a bin that needs them.
            for (x, &size) in self.bins.iter().zip(&self.sizes) {
                if ctx.size(x.var) == 1 || size == 0 {
                    continue;
                }
                for b in 0..m {
                    let a = self.value_of(b)?;
                    if !ctx.contains(x.var, a) {
                        continue;
                    }
                    let (lo, hi) = range[b];
                    if required[b] + size > hi {
                        ctx.remove(x.var, a)?;
                    } else if possible[b] - size < lo {
                        ctx.fix(x.var, a)?;
                        break;
                    }
                }
            }
            Ok(())
        })?;
        forward_check_last(ctx, &self.scope, |values| self.check(values))
    }

    fn priority(&self) -> Priority {
        Priority::Slow
    }

    exact_once_complete!();

    fn name(&self) -> &str {
        "binPacking"
    }
}
