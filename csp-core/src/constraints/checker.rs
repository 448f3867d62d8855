//! A constraint known only by its test on complete assignments, with forward checking: once
//! all but one of its variables have a single value, the last keeps the values that pass.

use std::fmt;

use crate::constraints::forward_check_last;
use crate::propagation::{Conflict, Event, PropagationContext, Propagator, Wake};
use crate::var::VarId;

/// A test on the values of a scope, in scope order.
pub(crate) type Test = Box<dyn Fn(&[i32]) -> bool + Send + Sync>;

/// Any constraint on any arity, given by its test.
pub(crate) struct Checker {
    vars: Vec<VarId>,
    test: Test,
    name: &'static str,
    /// What the test keeps (see [`Propagator::heap_bytes`]), as its maker says.
    heap_bytes: usize,
}

impl Checker {
    /// A checker over distinct variables.
    pub(crate) fn new(vars: Vec<VarId>, name: &'static str, test: Test) -> Checker {
        Checker {
            vars,
            test,
            name,
            heap_bytes: 0,
        }
    }

    /// The checker, whose test keeps `bytes` of data (a table it looks tuples up in).
    pub(crate) fn holding(self, bytes: usize) -> Checker {
        Checker {
            heap_bytes: bytes,
            ..self
        }
    }
}

impl fmt::Debug for Checker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Checker")
            .field("vars", &self.vars)
            .field("name", &self.name)
            .finish()
    }
}

impl Propagator for Checker {
    fn variables(&self) -> &[VarId] {
        &self.vars
    }

    fn heap_bytes(&self) -> usize {
        self.heap_bytes
    }

    fn check(&self, values: &[i32]) -> bool {
        (self.test)(values)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        forward_check_last(ctx, &self.vars, &self.test)
    }

    /// Only a variable becoming fixed can leave one variable open.
    fn wake(&self) -> Wake {
        Wake::OnFixed
    }

    fn is_consistent(&self, local: usize, value: i32, assigned: &dyn Fn(usize) -> Option<i32>) -> bool {
        full_assignment(self.vars.len(), local, value, assigned).is_none_or(|values| (self.test)(&values))
    }

    fn prunes_exactly(&self) -> bool {
        true
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        self.name
    }
}

/// The values of the whole scope when every position but `local` is assigned (`local`
/// taking `value`), else `None`.
pub(crate) fn full_assignment(
    arity: usize,
    local: usize,
    value: i32,
    assigned: &dyn Fn(usize) -> Option<i32>,
) -> Option<smallvec::SmallVec<[i32; 16]>> {
    (0..arity)
        .map(|i| if i == local { Some(value) } else { assigned(i) })
        .collect()
}
