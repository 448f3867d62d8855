//! The constraints of an instance as read: what each means (so that a complete assignment
//! can be checked against the file, independently of the propagators) and how it is
//! posted. Each family of constraints (the `constraints` module) defines its own types; they
//! share the [`Constraint`] trait and the conditions below.
//!
//! Integers are exact: a constraint is evaluated in 128-bit integers, and one whose values
//! could leave them is refused when it is posted (see `docs/constraints.md`).

use std::fmt;

use csp_core::VarId;

pub use crate::condition::{CmpOp, Condition, Op, Operand, expr_vars, value, values_of};
use crate::error::{Position, Result};
use crate::post::Poster;

/// A constraint as read from an instance.
pub trait Constraint: fmt::Debug + Send + Sync {
    /// The XCSP3 element it was read from (`sum`, `cumulative`, ...), for messages.
    fn kind(&self) -> &'static str;

    /// Calls `f` on every variable it mentions (repeats allowed).
    fn for_each_var(&self, f: &mut dyn FnMut(VarId));

    /// Whether a complete assignment (`values[v.index()]`) satisfies it, by its definition.
    fn holds(&self, values: &[i32]) -> bool;

    /// Posts it to the poster's model.
    fn post(&self, poster: &mut Poster<'_, '_>) -> Result<()>;
}

/// A constraint with the place it was read from.
#[derive(Debug)]
pub struct Located {
    /// The constraint.
    pub constraint: Box<dyn Constraint>,
    /// Where its element starts.
    pub position: Position,
}
