//! Errors: bad input only. "No solution" is an outcome, not an error.

use thiserror::Error;

/// A request that cannot be carried out as asked.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum QueensError {
    /// A board needs at least one column.
    #[error("the board size must be at least 1")]
    EmptyBoard,
    /// The board is too large for the chosen method.
    #[error("n = {n} is too large for {method} (at most {max})")]
    TooLarge {
        /// The size asked for.
        n: usize,
        /// The largest size the method accepts.
        max: usize,
        /// The method, for the message.
        method: &'static str,
    },
    /// A model name that is not `pairwise`, `alldiff` or `alldiff:STRENGTH`.
    #[error("unknown model `{0}`, expected pairwise, alldiff or alldiff:value|hidden|gac")]
    UnknownEncoding(String),
    /// The search configuration does not fit the request (restarts while counting).
    #[error("{0}")]
    Config(#[from] csp_core::ConfigError),
}
