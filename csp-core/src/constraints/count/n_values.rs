//! `counter = #{distinct values of list not in except}`: the counter lies between the
//! number `t` of distinct values the fixed variables take and `t` plus the smaller of the
//! number of other variables that can take a counted value not taken yet and the number of
//! such values they have between them. When it can be no more than `t`, the other variables
//! keep only the values taken (and the excepted ones); when it must be at least `t` plus
//! that number of variables, each of them keeps only the new values (`nValues(x, y, z) > 1`
//! with `x = y`: `z` loses their value).

use crate::constraints::exact_once_complete;
use crate::constraints::scope::Arg;
use crate::constraints::scratch::with_scratch;
use crate::constraints::tally::Tally;
use crate::constraints::{forward_check_last, retain_where};
use crate::propagation::{Conflict, Event, PropagationContext, Propagator};
use crate::var::VarId;

/// `counter = #{distinct values of list} \ except`.
#[derive(Clone, Debug)]
pub(crate) struct NValues {
    scope: Vec<VarId>,
    list: Vec<Arg>,
    /// Sorted, distinct.
    except: Vec<i32>,
    /// A variable of the scope, or constant bounds (`nValues(x, y, z) > 1` as XCSP3 writes
    /// it: no variable for the search to branch on).
    counter: Tally,
}

impl NValues {
    pub(crate) fn new(scope: Vec<VarId>, list: Vec<Arg>, except: Vec<i32>, counter: Tally) -> NValues {
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
        let n = taken.len() as i64;
        self.counter.accepts(values, n)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        with_scratch(|s| {
            // The counted values of the fixed variables.
            let (taken, fresh) = (&mut s.values, &mut s.ints);
            taken.clear();
            fresh.clear();
            for x in &self.list {
                if ctx.size(x.var) == 1 {
                    let a = ctx.min(x.var).ok_or(Conflict)?;
                    if self.counted(a) {
                        taken.push(a);
                    }
                }
            }
            taken.sort_unstable();
            taken.dedup();
            // The counted values not taken yet that the other variables have between them,
            // and how many of those variables can take one: each adds at most one value.
            // More distinct new values than variables cannot lower the bound: they are listed
            // up to that many, so that the list never holds every (variable, value) pair
            // (millions of variables over millions of values would take gigabytes).
            let is_new = |a: i32| self.counted(a) && taken.binary_search(&a).is_err();
            let enough = self.list.len();
            let mut saturated = false;
            let mut able = 0i64;
            for x in &self.list {
                if ctx.size(x.var) > 1 {
                    let mut new = ctx.values(x.var).filter(|&a| is_new(a));
                    if saturated {
                        able += i64::from(new.next().is_some());
                        continue;
                    }
                    let before = fresh.len();
                    fresh.extend(new.take(enough).map(i64::from));
                    able += i64::from(fresh.len() > before);
                    if fresh.len() > 2 * enough {
                        fresh.sort_unstable();
                        fresh.dedup();
                        saturated = fresh.len() >= enough;
                    }
                }
            }
            fresh.sort_unstable();
            fresh.dedup();
            let lo = taken.len() as i64;
            let hi = lo + able.min(fresh.len() as i64);
            let (least, most) = self.counter.narrow(ctx, lo, hi)?;
            let c = self.counter.var();
            if most == lo {
                // No new value may be taken.
                for x in &self.list {
                    if ctx.size(x.var) > 1 && Some(x.var) != c {
                        retain_where(ctx, x.var, |a| !is_new(a))?;
                    }
                }
            } else if least == lo + able {
                // Every variable that can take a new value must: one that took a value
                // already taken, or an excepted one, would leave the count below its least.
                for x in &self.list {
                    if ctx.size(x.var) > 1 && Some(x.var) != c && ctx.values(x.var).any(is_new) {
                        retain_where(ctx, x.var, is_new)?;
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
