//! Errors: every one that comes from the file names its line and column.

use thiserror::Error;

/// A place in the FlatZinc text: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// The line, from 1.
    pub line: u32,
    /// The column, from 1, in characters.
    pub column: u32,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Why a FlatZinc file cannot be run.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// The text is not FlatZinc: an unexpected character or token, a literal out of range.
    #[error("{pos}: syntax error: {message}")]
    Syntax {
        /// Where.
        pos: Pos,
        /// What was expected or found.
        message: String,
    },
    /// FlatZinc that csp does not run: float and set variables, unknown builtins.
    #[error("{pos}: unsupported: {message}")]
    Unsupported {
        /// Where.
        pos: Pos,
        /// What, and why.
        message: String,
    },
    /// Well-formed FlatZinc whose meaning is wrong: an unknown name, an argument of the
    /// wrong type or length, a domain too wide for csp.
    #[error("{pos}: {message}")]
    Invalid {
        /// Where.
        pos: Pos,
        /// What.
        message: String,
    },
    /// A limit (the time limit, SIGINT or SIGTERM) stopped the reading or the posting.
    #[error("{0} while reading")]
    Limit(csp_core::LimitKind),
    /// The file, or what it takes to hold it, is larger than the limits allow.
    #[error("{0}")]
    TooLarge(String),
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

impl Error {
    /// Where in the text the error lies (`None` for a file that could not be read).
    pub fn pos(&self) -> Option<Pos> {
        match self {
            Error::Syntax { pos, .. } | Error::Unsupported { pos, .. } | Error::Invalid { pos, .. } => {
                Some(*pos)
            }
            Error::Io { .. } | Error::Limit(_) | Error::TooLarge(_) => None,
        }
    }

    /// The limit that stopped the reading, if one did.
    pub fn limit(&self) -> Option<csp_core::LimitKind> {
        match self {
            Error::Limit(kind) => Some(*kind),
            _ => None,
        }
    }

    pub(crate) fn syntax(pos: Pos, message: impl Into<String>) -> Error {
        Error::Syntax {
            pos,
            message: message.into(),
        }
    }

    pub(crate) fn unsupported(pos: Pos, message: impl Into<String>) -> Error {
        Error::Unsupported {
            pos,
            message: message.into(),
        }
    }

    pub(crate) fn invalid(pos: Pos, message: impl Into<String>) -> Error {
        Error::Invalid {
            pos,
            message: message.into(),
        }
    }
}

/// The result of reading FlatZinc.
pub type Result<T, E = Error> = std::result::Result<T, E>;
