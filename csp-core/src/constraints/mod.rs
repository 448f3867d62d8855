//! The built-in n-ary constraints, each with its own propagator: all-different at three
//! strengths, and the links between all-different constraints that share variables.
//! [`crate::Model`] posts them (`model/post.rs`); they see the domains only through
//! [`crate::PropagationContext`], as user propagators do.

mod all_different;
mod overlap;

pub use all_different::{AllDifferent, Strength};
pub use overlap::{PermutationOverlap, PermutationOverlaps};
