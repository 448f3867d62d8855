//! `counter = #{i : list[i] in values}`, the counter a variable or a set of allowed counts:
//! the counter within the number of variables that must and that may take a value of the
//! set; when it must be the one or the other, the undecided variables are decided (bounds
//! consistency on the counter, generalised arc consistency on the list when its variables
//! are distinct and the counter is apart).

use crate::constraints::exact_once_complete;
use crate::constraints::scope::Arg;
use crate::constraints::tally::Tally;
use crate::constraints::{forward_check_last, retain_where};
use crate::propagation::{Conflict, Event, PropagationContext, Propagator};
use crate::var::VarId;

/// `counter = #{i : list[i] in values}`.
#[derive(Clone, Debug)]
pub(crate) struct Among {
    scope: Vec<VarId>,
    list: Vec<Arg>,
    /// Sorted, distinct.
    values: Vec<i32>,
    counter: Tally,
}

/// How a variable's domain meets the set.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Meets {
    /// Every value in the set.
    Inside,
    /// No value in the set.
    Outside,
    Both,
}

impl Among {
    pub(crate) fn new(scope: Vec<VarId>, list: Vec<Arg>, values: Vec<i32>, counter: Tally) -> Among {
        Among {
            scope,
            list,
            values,
            counter,
        }
    }

    fn meets(&self, ctx: &PropagationContext<'_>, x: VarId) -> Meets {
        let size = ctx.size(x) as usize;
        let inside = if size <= self.values.len() {
            ctx.values(x)
                .filter(|a| self.values.binary_search(a).is_ok())
                .count()
        } else {
            self.values.iter().filter(|&&a| ctx.contains(x, a)).count()
        };
        match inside {
            0 => Meets::Outside,
            k if k == size => Meets::Inside,
            _ => Meets::Both,
        }
    }
}

impl Propagator for Among {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let count = self
            .list
            .iter()
            .filter(|x| self.values.binary_search(&x.value(values)).is_ok())
            .count();
        self.counter.accepts(values, count as i64)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        let (mut sure, mut possible) = (0i64, 0i64);
        for x in &self.list {
            match self.meets(ctx, x.var) {
                Meets::Inside => {
                    sure += 1;
                    possible += 1;
                }
                Meets::Both => possible += 1,
                Meets::Outside => {}
            }
        }
        let c = self.counter.var();
        let (lo, hi) = self.counter.narrow(ctx, sure, possible)?;
        if sure < possible && (hi == sure || lo == possible) {
            // Every undecided variable goes out of the set (hi == sure) or into it.
            let into = lo == possible;
            for x in &self.list {
                if Some(x.var) != c && self.meets(ctx, x.var) == Meets::Both {
                    retain_where(ctx, x.var, |a| self.values.binary_search(&a).is_ok() == into)?;
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
