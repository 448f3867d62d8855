//! Variables as small copyable handles into a model.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A variable: a small copyable handle into its [`Model`](crate::Model).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct VarId(pub(crate) u32);

impl VarId {
    /// The variable's position in the model (0-based, in creation order).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.0)
    }
}
