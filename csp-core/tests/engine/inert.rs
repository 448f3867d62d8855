//! A propagator that allows everything and prunes nothing: posted on a model of the
//! compiled forward-checking kind, it sends the same search through the general loop.

use csp_core::{Conflict, Event, PropagationContext, Propagator, VarId};

/// Allows everything, prunes nothing.
pub struct Inert(pub Vec<VarId>);

impl Propagator for Inert {
    fn variables(&self) -> &[VarId] {
        &self.0
    }

    fn check(&self, _values: &[i32]) -> bool {
        true
    }

    fn propagate(&self, _ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        Ok(())
    }

    fn prunes_exactly(&self) -> bool {
        true
    }
}
