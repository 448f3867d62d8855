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
    /// The [`Unit`] it was read from (an index into [`crate::Instance::units`]): one element
    /// may state several constraints (`allDifferent` over a matrix), which share it.
    pub unit: usize,
}

/// One constraint as the file states it, the smallest thing an explanation names: an
/// element, one `<args>` of a `<group>`, or one window of a `<slide>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The constraint's element (`intension`, `allDifferent`, ...; the template's in a
    /// group or slide).
    pub element: String,
    /// Its `id` attribute; in a group or slide, the group's or slide's.
    pub id: Option<String>,
    /// In a group, the number of its `<args>` (from 0); in a slide, of its window.
    pub index: Option<usize>,
    /// Where it starts: the element, or the `<args>`; a slide's windows share the slide's.
    pub position: Position,
    /// Whether it is a window of a `<slide>` (whose windows share a position).
    pub window: bool,
    /// The child of `<constraints>` it is in (an index into [`crate::Instance::tops`]).
    pub top: usize,
}

impl fmt::Display for Unit {
    /// Its id (`c3`, or `g[2]` for the third `<args>` of the group `g`), else its element
    /// and place (`intension at line 4, column 1`, `... (window 2)` in a slide).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.id, self.index) {
            (Some(id), Some(k)) => write!(f, "{id}[{k}]"),
            (Some(id), None) => f.write_str(id),
            (None, Some(k)) if self.window => {
                write!(f, "{} at {} (window {k})", self.element, self.position)
            }
            (None, _) => write!(f, "{} at {}", self.element, self.position),
        }
    }
}

/// A child of `<constraints>`: a constraint element, or a `<group>`, `<block>` or `<slide>`
/// with every constraint inside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Top {
    /// The element (`group`, `block`, `slide`, or a constraint's).
    pub element: String,
    /// Its `id` attribute.
    pub id: Option<String>,
    /// Where it starts.
    pub position: Position,
}

impl fmt::Display for Top {
    /// Its id, else its element and place.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.id {
            Some(id) => f.write_str(id),
            None => write!(f, "{} at {}", self.element, self.position),
        }
    }
}
