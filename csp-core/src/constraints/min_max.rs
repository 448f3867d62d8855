//! `minimum` and `maximum`: `result = min(list)` or `max(list)`, the result a variable or a
//! set of allowed values (a constant condition: no variable for a search to branch on).
//! Bounds both ways, a result variable keeps only values some variable can take, and when
//! a single variable can still reach the result's range, it is the one that takes the
//! result's value.

use crate::constraints::exact_once_complete;
use crate::constraints::scope::Arg;
use crate::constraints::scratch::with_scratch;
use crate::constraints::tally::Tally;
use crate::constraints::{bounds, forward_check_last, retain_range, retain_where};
use crate::propagation::{Conflict, Event, PropagationContext, Propagator};
use crate::var::VarId;

/// Above this many value-variable checks, a propagation checks only the result's bounds for
/// a variable that can take them, not every value.
const MAX_SUPPORT_CHECKS: usize = 1 << 16;

/// `result = min(list)`, or `max(list)` when `is_max`.
#[derive(Clone, Debug)]
pub(crate) struct MinMax {
    scope: Vec<VarId>,
    list: Vec<Arg>,
    result: Tally,
    is_max: bool,
}

impl MinMax {
    pub(crate) fn new(scope: Vec<VarId>, list: Vec<Arg>, result: Tally, is_max: bool) -> MinMax {
        MinMax {
            scope,
            list,
            result,
            is_max,
        }
    }
}

impl Propagator for MinMax {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let all = self.list.iter().map(|x| x.value(values));
        let extreme = if self.is_max { all.max() } else { all.min() };
        extreme.is_some_and(|e| self.result.accepts(values, i64::from(e)))
    }

    fn terms_of(&self, var: VarId) -> Option<Vec<(i64, VarId)>> {
        match self.result {
            Tally::Var(result) if result.var == var => Some(self.list.iter().map(|x| (1, x.var)).collect()),
            _ => None,
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        let m = self.result.var();
        // The hull of the extreme: [min of mins, min of maxes] for min, and the mirror.
        let (mut lo, mut hi) = if self.is_max {
            (i64::MIN, i64::MIN)
        } else {
            (i64::MAX, i64::MAX)
        };
        for x in &self.list {
            let (a, b) = bounds(ctx, x.var)?;
            if self.is_max {
                lo = lo.max(a);
                hi = hi.max(b);
            } else {
                lo = lo.min(a);
                hi = hi.min(b);
            }
        }
        let (mut m_lo, mut m_hi) = self.result.narrow(ctx, lo, hi)?;
        if let Some(m) = m.filter(|&m| ctx.size(m) as usize * self.list.len() > MAX_SUPPORT_CHECKS) {
            // A wide result: only its bounds get a supporting variable (a check of every value
            // against every variable took seconds a node on 0..10^6). The assignment is still
            // exact: assigned variables leave the result one value.
            let supported = |ctx: &PropagationContext<'_>, a: i64| {
                i32::try_from(a)
                    .is_ok_and(|a| ctx.contains(m, a) && self.list.iter().any(|x| ctx.contains(x.var, a)))
            };
            let new_lo = (m_lo..=m_hi).find(|&a| supported(ctx, a));
            let Some(new_lo) = new_lo else {
                return Err(Conflict);
            };
            let new_hi = (new_lo..=m_hi)
                .rev()
                .find(|&a| supported(ctx, a))
                .unwrap_or(new_lo);
            retain_range(ctx, m, new_lo, new_hi)?;
            (m_lo, m_hi) = bounds(ctx, m)?;
        } else if let Some(m) = m {
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
            (m_lo, m_hi) = bounds(ctx, m)?;
        }
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
            let (a, b) = bounds(ctx, x)?;
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
        match (only.filter(|&x| Some(x) != m), m) {
            (Some(x), Some(m)) => {
                with_scratch(|s| {
                    s.values.clear();
                    s.values.extend(ctx.values(m));
                    let kept = &s.values;
                    retain_where(ctx, x, |a| kept.binary_search(&a).is_ok())
                })?;
            }
            (Some(x), None) => {
                // The allowed values read no variable: no assignment is needed to test them.
                let result = &self.result;
                retain_where(ctx, x, |a| {
                    (m_lo..=m_hi).contains(&i64::from(a)) && result.accepts(&[], i64::from(a))
                })?;
            }
            (None, _) => {}
        }
        forward_check_last(ctx, &self.scope, |values| self.check(values))
    }

    exact_once_complete!();

    fn name(&self) -> &str {
        if self.is_max { "maximum" } else { "minimum" }
    }
}
