//! Errors for bad models and bad configurations. Search results are never errors:
//! see [`crate::Outcome`].

use thiserror::Error;

/// A model that cannot be built as asked.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ModelError {
    /// A domain was given no value (`lo > hi`, or an empty list).
    #[error("a domain must have at least one value")]
    EmptyDomain,
    /// A domain spans more values than a bitset domain allows.
    #[error("a domain may span at most {max} values, this one spans {span}")]
    DomainTooWide {
        /// `max - min + 1` of the requested domain.
        span: i64,
        /// The widest span allowed.
        max: i64,
    },
    /// A variable handle that does not belong to this model.
    #[error("variable {index} does not exist (the model has {count} variables)")]
    UnknownVariable {
        /// The index that was passed.
        index: usize,
        /// How many variables the model has.
        count: usize,
    },
    /// A binary constraint between a variable and itself.
    #[error("a binary constraint needs two different variables, got variable {index} twice")]
    SameVariable {
        /// The variable's index.
        index: usize,
    },
    /// A constraint that must not list a variable twice lists one twice.
    #[error("{what} lists variable {index} twice")]
    RepeatedVariable {
        /// Which constraint.
        what: &'static str,
        /// The variable's index.
        index: usize,
    },
    /// A constraint that would take the model's constraints past what csp allows a model
    /// ([`crate::MAX_MODEL_MEMORY`], by the estimate of [`crate::ModelSize`]).
    #[error(
        "the model's constraints would take about {bytes} bytes with this one (about 600 bytes a \
         pair of variables under binary constraints, 400 an n-ary constraint, 150 a variable of it, \
         and its tables); csp allows at most {max} bytes (2 GiB) a model"
    )]
    ConstraintsTooLarge {
        /// The estimated bytes of the constraints, this one included.
        bytes: u64,
        /// The limit, in bytes.
        max: u64,
    },
    /// A variable was fixed to a value outside its domain.
    #[error("variable {index} cannot be fixed to {value}: the value is not in its domain")]
    ValueOutsideDomain {
        /// The variable's index.
        index: usize,
        /// The value asked for.
        value: i32,
    },
    /// An n-ary constraint over lists of different lengths.
    #[error("{what}: expected {expected} entries, got {found}")]
    LengthMismatch {
        /// Which argument.
        what: &'static str,
        /// How many were expected.
        expected: usize,
        /// How many were given.
        found: usize,
    },
    /// A constraint some of whose values could leave the 128-bit integers csp computes in
    /// (bounds computed from the domains when it is posted). Every constraint csp accepts
    /// is evaluated exactly.
    #[error("{constraint}: {reason}")]
    Arithmetic {
        /// Which constraint (for example "intension").
        constraint: &'static str,
        /// Which subexpression, and why.
        reason: String,
    },
    /// An n-ary constraint that cannot be posted as given: an empty scope, an operator with
    /// the wrong number of arguments, an argument of the wrong kind, and the like.
    #[error("{constraint}: {reason}")]
    InvalidConstraint {
        /// Which constraint (for example "table" or "intension").
        constraint: &'static str,
        /// What is wrong with it, for a person.
        reason: String,
    },
    /// A constraint whose posting would build more than csp allows (see
    /// [`crate::MAX_CARDINALITY_PAIRS`]).
    #[error("{constraint}: {what} make {size}; csp allows at most {max}")]
    TooLarge {
        /// Which constraint (for example "cardinality").
        constraint: &'static str,
        /// What would be built, for a person.
        what: String,
        /// How much of it.
        size: u64,
        /// The limit.
        max: u64,
    },
}

/// A name that does not denote a strategy component (for parsing `--var` and friends).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("unknown {kind} `{found}`, expected one of: {expected}")]
pub struct ParseNameError {
    /// What was being parsed (for example "variable order").
    pub kind: &'static str,
    /// The text that was given.
    pub found: String,
    /// The accepted names, comma separated.
    pub expected: &'static str,
}
