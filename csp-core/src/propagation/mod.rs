//! Propagation: the [`Propagator`] interface of n-ary constraints and what they see
//! ([`PropagationContext`]), and the engine that runs arcs, propagators and nogoods to a
//! fixpoint ([`engine`]). Search and the stand-alone [`ac3`] both drive the engine.

mod ac3;
mod context;
pub(crate) mod engine;
pub(crate) mod nogoods;
mod picked;
mod propagator;
pub(crate) mod ring;
pub(crate) mod root;

pub use ac3::{Ac3Report, ac3};
pub(crate) use context::Assignment;
pub use context::{Conflict, PropagationContext};
pub use propagator::{Event, Priority, Propagator, Wake};
