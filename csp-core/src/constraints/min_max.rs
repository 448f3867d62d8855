//! `minimum` and `maximum`: `result = min(list)` or `max(list)`. Bounds both ways, the
//! result keeps only values some variable can take, and when a single variable can still
//! reach the result's range, it is the one that takes the result's value.

use crate::constraints::scope::Arg;
use crate::constraints::scratch::with_scratch;
use crate::constraints::{forward_check_last, retain_range, retain_where};
use crate::propagation::{Conflict, Event, PropagationContext, Propagator, Wake};
use crate::var::VarId;

/// `result = min(list)`, or `max(list)` when `is_max`.
#[derive(Clone, Debug)]
pub(crate) struct MinMax {
    scope: Vec<VarId>,
    list: Vec<Arg>,
    result: Arg,
    is_max: bool,
}

impl MinMax {
    pub(crate) fn new(scope: Vec<VarId>, list: Vec<Arg>, result: Arg, is_max: bool) -> MinMax {
        MinMax {
            scope,
            list,
            result,
            is_max,
        }
    }

    fn bounds(ctx: &PropagationContext<'_>, x: VarId) -> Result<(i64, i64), Conflict> {
        Ok((
            i64::from(ctx.min(x).ok_or(Conflict)?),
            i64::from(ctx.max(x).ok_or(Conflict)?),
        ))
    }
}

impl Propagator for MinMax {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let all = self.list.iter().map(|x| x.value(values));
        let extreme = if self.is_max { all.max() } else { all.min() };
        extreme == Some(self.result.value(values))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        let m = self.result.var;
        // The hull of the extreme: [min of mins, min of maxes] for min, and the mirror.
        let (mut lo, mut hi) = if self.is_max {
            (i64::MIN, i64::MIN)
        } else {
            (i64::MAX, i64::MAX)
        };
        for x in &self.list {
            let (a, b) = Self::bounds(ctx, x.var)?;
            if self.is_max {
                lo = lo.max(a);
                hi = hi.max(b);
            } else {
                lo = lo.min(a);
                hi = hi.min(b);
            }
        }
        retain_range(ctx, m, lo, hi)?;
        with_scratch(|s| {
            s.values.clear();
            s.values.extend(
                ctx.values(m)
                    .filter(|&a| self.list.iter().any(|x| ctx.contains(x.var, a))),
            );
            if s.values.len() < ctx.size(m) as usize {
                let kept = &s.values;
                retain_where(ctx, m, |a| kept.binary_search(&a).is_ok())?;
            }
            Ok(())
        })?;
        let (m_lo, m_hi) = Self::bounds(ctx, m)?;
        // Every variable is on the right side of the result.
        for x in &self.list {
            if self.is_max {
                retain_range(ctx, x.var, i64::MIN, m_hi)?;
            } else {
                retain_range(ctx, x.var, m_lo, i64::MAX)?;
            }
        }
        // The variables that can still be the extreme.
        let reaches = |ctx: &PropagationContext<'_>, x: VarId| -> Result<bool, Conflict> {
            let (a, b) = Self::bounds(ctx, x)?;
            Ok(if self.is_max { b >= m_lo } else { a <= m_hi })
        };
        let mut only = None;
        for x in &self.list {
            if reaches(ctx, x.var)? {
                if only.is_some_and(|v| v != x.var) {
                    only = None;
                    break;
                }
                only = Some(x.var);
            }
        }
        if let Some(x) = only.filter(|&x| x != m) {
            with_scratch(|s| {
                s.values.clear();
                s.values.extend(ctx.values(m));
                let kept = &s.values;
                retain_where(ctx, x, |a| kept.binary_search(&a).is_ok())
            })?;
        }
        forward_check_last(ctx, &self.scope, |values| self.check(values))
    }

    fn wake(&self) -> Wake {
        Wake::OnChange
    }

    fn is_consistent(&self, local: usize, value: i32, assigned: &dyn Fn(usize) -> Option<i32>) -> bool {
        super::consistent_when_complete(self, local, value, assigned)
    }

    fn prunes_exactly(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        if self.is_max { "maximum" } else { "minimum" }
    }
}
