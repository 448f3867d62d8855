//! `allEqual`: every variable takes the same value. Generalised arc consistency: each
//! domain keeps the values common to all of them.

use crate::constraints::retain_where;
use crate::constraints::scratch::with_scratch;
use crate::propagation::{Conflict, Event, PropagationContext, Propagator};
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
        with_scratch(|s| {
            // The values of the smallest domain that every other domain holds.
            s.values.clear();
            s.values.extend(
                ctx.values(smallest)
                    .filter(|&a| self.vars.iter().all(|&v| ctx.contains(v, a))),
            );
            if s.values.is_empty() {
                return Err(Conflict);
            }
            let common = &s.values;
            for &v in &self.vars {
                if ctx.size(v) as usize != common.len() {
                    retain_where(ctx, v, |a| common.binary_search(&a).is_ok())?;
                }
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
