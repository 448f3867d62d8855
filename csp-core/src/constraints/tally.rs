//! A quantity a global constraint defines, such as a bin's load or a count, and what bounds
//! it: the value of a variable, or a set of allowed values. The set needs no variable, so a
//! constant bound adds nothing for a search to branch on (above all one without
//! inference, which would try every value of such a variable).

use crate::constraints::scope::Arg;
use crate::constraints::{bounds, retain_range};
use crate::propagation::{Conflict, PropagationContext};

/// What a quantity must be.
#[derive(Clone, Debug)]
pub(crate) enum Tally {
    /// The value of a variable.
    Var(Arg),
    /// One of these values: sorted, disjoint, inclusive ranges.
    Allowed(Box<[(i64, i64)]>),
}

impl Tally {
    /// The allowed values of the inclusive `ranges`, in any order, overlapping or empty.
    pub(crate) fn allowed(ranges: &[(i64, i64)]) -> Tally {
        let mut ranges: Vec<(i64, i64)> = ranges.iter().copied().filter(|(lo, hi)| lo <= hi).collect();
        ranges.sort_unstable();
        let mut merged: Vec<(i64, i64)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            match merged.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        Tally::Allowed(merged.into_boxed_slice())
    }

    /// Its tightest bounds within `lo..=hi`, or a conflict if it can take no value there;
    /// a variable is pruned to them.
    pub(crate) fn narrow(
        &self,
        ctx: &mut PropagationContext<'_>,
        lo: i64,
        hi: i64,
    ) -> Result<(i64, i64), Conflict> {
        match self {
            Tally::Var(a) => {
                retain_range(ctx, a.var, lo, hi)?;
                bounds(ctx, a.var)
            }
            Tally::Allowed(ranges) => {
                let low = ranges
                    .iter()
                    .find(|&&(_, to)| to >= lo)
                    .map(|&(from, _)| from.max(lo));
                let high = ranges
                    .iter()
                    .rev()
                    .find(|&&(from, _)| from <= hi)
                    .map(|&(_, to)| to.min(hi));
                match (low, high) {
                    (Some(a), Some(b)) if a <= b => Ok((a, b)),
                    _ => Err(Conflict),
                }
            }
        }
    }

    /// Whether it may be `value` under a complete assignment of the scope.
    pub(crate) fn accepts(&self, values: &[i32], value: i64) -> bool {
        match self {
            Tally::Var(a) => i64::from(a.value(values)) == value,
            Tally::Allowed(ranges) => ranges.iter().any(|&(from, to)| from <= value && value <= to),
        }
    }

    /// Its variable, if it is one.
    pub(crate) fn var(&self) -> Option<crate::var::VarId> {
        match self {
            Tally::Var(a) => Some(a.var),
            Tally::Allowed(_) => None,
        }
    }
}
