//! `allDifferent` with `except` values: the variables take pairwise distinct values, but
//! for values of `except`, which any number of them may take. Forward checking: a fixed
//! variable's value, unless excepted, leaves the others.

use crate::propagation::{Conflict, Event, PropagationContext, Propagator, Wake};
use crate::var::VarId;

/// `vars` (distinct) pairwise different except on `except` (sorted, distinct).
#[derive(Clone, Debug)]
pub(crate) struct AllDifferentExcept {
    vars: Vec<VarId>,
    except: Vec<i32>,
}

impl AllDifferentExcept {
    pub(crate) fn new(vars: Vec<VarId>, except: Vec<i32>) -> AllDifferentExcept {
        AllDifferentExcept { vars, except }
    }

    fn excepted(&self, a: i32) -> bool {
        self.except.binary_search(&a).is_ok()
    }
}

impl Propagator for AllDifferentExcept {
    fn variables(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[i32]) -> bool {
        (0..values.len()).all(|i| self.excepted(values[i]) || !values[i + 1..].contains(&values[i]))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, event: Event) -> Result<(), Conflict> {
        let Event::Fixed(local) = event else {
            return Ok(());
        };
        let var = self.vars[local];
        if ctx.size(var) != 1 {
            return Ok(());
        }
        let a = ctx.min(var).ok_or(Conflict)?;
        if self.excepted(a) {
            return Ok(());
        }
        for (j, &other) in self.vars.iter().enumerate() {
            if j != local {
                ctx.remove(other, a)?;
            }
        }
        Ok(())
    }

    fn wake(&self) -> Wake {
        Wake::OnFixed
    }

    fn is_consistent(&self, local: usize, value: i32, assigned: &dyn Fn(usize) -> Option<i32>) -> bool {
        self.excepted(value) || (0..self.vars.len()).all(|j| j == local || assigned(j) != Some(value))
    }

    fn prunes_exactly(&self) -> bool {
        true
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "allDifferent(except)"
    }
}
