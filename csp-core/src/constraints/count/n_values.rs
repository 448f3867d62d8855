//! `counter = #{distinct values of list not in except}`: the counter lies between the
//! number of distinct values of the fixed variables and the smaller of the number of
//! variables that can take a counted value and the number of counted values they have
//! between them; when it can be no more than the values taken already, the other
//! variables keep only those values (and the excepted ones).

use crate::constraints::exact_once_complete;
use crate::constraints::scope::Arg;
use crate::constraints::scratch::with_scratch;
use crate::constraints::{forward_check_last, retain_range, retain_where};
use crate::propagation::{Conflict, Event, PropagationContext, Propagator};
use crate::var::VarId;

/// `counter = #{distinct values of list} \ except`.
#[derive(Clone, Debug)]
pub(crate) struct NValues {
    scope: Vec<VarId>,
    list: Vec<Arg>,
    /// Sorted, distinct.
    except: Vec<i32>,
    counter: Arg,
}

impl NValues {
    pub(crate) fn new(scope: Vec<VarId>, list: Vec<Arg>, except: Vec<i32>, counter: Arg) -> NValues {
        NValues {
            scope,
            list,
            except,
            counter,
        }
    }

    fn counted(&self, a: i32) -> bool {
        self.except.binary_search(&a).is_err()
    }
}

impl Propagator for NValues {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let mut taken: Vec<i32> = self
            .list
            .iter()
            .map(|x| x.value(values))
            .filter(|&a| self.counted(a))
            .collect();
        taken.sort_unstable();
        taken.dedup();
        i64::from(self.counter.value(values)) == taken.len() as i64
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        with_scratch(|s| {
            // The counted values of the fixed variables, and of all the domains.
            let (taken, union) = (&mut s.values, &mut s.ints);
            taken.clear();
            union.clear();
            let mut able = 0i64;
            // More distinct values than variables cannot lower the bound `able`: the union
            // is listed up to that many, so that it never holds every (variable, value)
            // pair (millions of variables over millions of values would take gigabytes).
            let enough = self.list.len();
            let mut saturated = false;
            for x in &self.list {
                if ctx.size(x.var) == 1 {
                    let a = ctx.min(x.var).ok_or(Conflict)?;
                    if self.counted(a) {
                        taken.push(a);
                    }
                }
                let mut counted = ctx.values(x.var).filter(|&a| self.counted(a));
                if saturated {
                    able += i64::from(counted.next().is_some());
                    continue;
                }
                let before = union.len();
                union.extend(counted.take(enough).map(i64::from));
                able += i64::from(union.len() > before);
                if union.len() > 2 * enough {
                    union.sort_unstable();
                    union.dedup();
                    saturated = union.len() >= enough;
                }
            }
            taken.sort_unstable();
            taken.dedup();
            union.sort_unstable();
            union.dedup();
            let lo = taken.len() as i64;
            let hi = able.min(union.len() as i64);
            let c = self.counter.var;
            retain_range(ctx, c, lo, hi)?;
            if i64::from(ctx.max(c).ok_or(Conflict)?) == lo {
                // No new value may be taken.
                let taken = &*taken;
                for x in &self.list {
                    if ctx.size(x.var) > 1 && x.var != c {
                        retain_where(ctx, x.var, |a| {
                            !self.counted(a) || taken.binary_search(&a).is_ok()
                        })?;
                    }
                }
            }
            Ok(())
        })?;
        forward_check_last(ctx, &self.scope, |values| self.check(values))
    }

    exact_once_complete!();

    fn name(&self) -> &str {
        "nValues"
    }
}
