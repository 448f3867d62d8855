//! `counter = #{i : list[i] == value}` for a variable `value`: each value `a` of `value`
//! bounds the count between the variables fixed to `a` and those that can take it; values
//! of `value` whose bounds miss the counter's go, and the counter keeps the hull of the
//! bounds. Once `value` is fixed, the undecided variables are decided as for `count`.

use crate::constraints::exact_once_complete;
use crate::constraints::scope::Arg;
use crate::constraints::scratch::with_scratch;
use crate::constraints::{bounds, forward_check_last, retain_range, retain_where};
use crate::propagation::{Conflict, Event, PropagationContext, Propagator};
use crate::var::VarId;

/// `counter = #{i : list[i] == value}`.
#[derive(Clone, Debug)]
pub(crate) struct CountVar {
    scope: Vec<VarId>,
    list: Vec<Arg>,
    value: Arg,
    counter: Arg,
}

impl CountVar {
    pub(crate) fn new(scope: Vec<VarId>, list: Vec<Arg>, value: Arg, counter: Arg) -> CountVar {
        CountVar {
            scope,
            list,
            value,
            counter,
        }
    }

    /// The variables that must and that may equal `value` when it is `a`.
    fn bounds(&self, ctx: &PropagationContext<'_>, a: i32) -> (i64, i64) {
        let (mut sure, mut possible) = (0, 0);
        for x in &self.list {
            if x.var == self.value.var {
                sure += 1;
                possible += 1;
            } else if ctx.contains(x.var, a) {
                possible += 1;
                if ctx.size(x.var) == 1 {
                    sure += 1;
                }
            }
        }
        (sure, possible)
    }
}

impl Propagator for CountVar {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let v = self.value.value(values);
        let count = self.list.iter().filter(|x| x.value(values) == v).count();
        i64::from(self.counter.value(values)) == count as i64
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        let (y, c) = (self.value.var, self.counter.var);
        let (c_lo, c_hi) = bounds(ctx, c)?;
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        with_scratch(|s| {
            s.values.clear();
            for a in ctx.values(y) {
                let (sure, possible) = self.bounds(ctx, a);
                if sure <= c_hi && possible >= c_lo {
                    s.values.push(a);
                    lo = lo.min(sure);
                    hi = hi.max(possible);
                }
            }
            if s.values.len() < ctx.size(y) as usize {
                let kept = &s.values;
                retain_where(ctx, y, |a| kept.binary_search(&a).is_ok())?;
            }
            Ok(())
        })?;
        retain_range(ctx, c, lo, hi)?;
        if ctx.size(y) == 1 {
            let a = ctx.min(y).ok_or(Conflict)?;
            let (sure, possible) = self.bounds(ctx, a);
            let (c_lo, c_hi) = bounds(ctx, c)?;
            if sure < possible && (c_hi == sure || c_lo == possible) {
                let into = c_lo == possible;
                for x in &self.list {
                    let open = x.var != y && x.var != c && ctx.size(x.var) > 1 && ctx.contains(x.var, a);
                    if open {
                        if into {
                            ctx.fix(x.var, a)?;
                        } else {
                            ctx.remove(x.var, a)?;
                        }
                    }
                }
            }
        }
        forward_check_last(ctx, &self.scope, |values| self.check(values))
    }

    exact_once_complete!();

    fn name(&self) -> &str {
        "count"
    }
}
