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

/// An argument that is either a constant or a variable, as the lengths, heights and
/// limits of the scheduling and packing constraints may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntOrVar {
    /// A constant.
    Int(i64),
    /// A variable of the model.
    Var(VarId),
}

impl From<VarId> for IntOrVar {
    fn from(var: VarId) -> Self {
        IntOrVar::Var(var)
    }
}

impl From<i64> for IntOrVar {
    fn from(value: i64) -> Self {
        IntOrVar::Int(value)
    }
}
