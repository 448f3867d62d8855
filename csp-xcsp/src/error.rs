//! Errors of reading an instance: every one says where in the file it arose.

use std::fmt;

use thiserror::Error;

/// A place in an input file: line and column, both counted from 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// The line, from 1.
    pub line: u32,
    /// The column (in characters), from 1.
    pub column: u32,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Why an instance could not be read.
#[derive(Debug, Error)]
pub enum Error {
    /// The file could not be opened or read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file ends in `.xz` or `.lzma` but does not decompress.
    #[error("cannot decompress {path} ({format}): {message}")]
    Decompress {
        /// The file.
        path: String,
        /// `xz` or `lzma`.
        format: &'static str,
        /// What the decoder said.
        message: String,
    },
    /// The text is not UTF-8.
    #[error("the instance is not UTF-8 text (byte {offset})")]
    Encoding {
        /// Where the first bad byte is.
        offset: usize,
    },
    /// The text is not well-formed XML.
    #[error("line {}, column {}: malformed XML: {}", .0.pos().row, .0.pos().col, .0)]
    Xml(#[from] roxmltree::Error),
    /// An element, attribute or form outside the supported subset of XCSP3.
    #[error("{position}: unsupported {what}")]
    Unsupported {
        /// Where it is.
        position: Position,
        /// What it is, for example "element <cumulative>".
        what: String,
    },
    /// A name that no declared variable (or array) has.
    #[error("{position}: unknown variable `{name}`")]
    UnknownVariable {
        /// Where it is.
        position: Position,
        /// The name as written.
        name: String,
    },
    /// A number that does not fit, or a value a variable cannot take where one is required.
    #[error("{position}: value out of range: {message}")]
    ValueOutOfRange {
        /// Where it is.
        position: Position,
        /// What is wrong with it.
        message: String,
    },
    /// Anything else that does not follow the XCSP3 syntax.
    #[error("{position}: {message}")]
    Syntax {
        /// Where it is.
        position: Position,
        /// What is wrong.
        message: String,
    },
    /// The model refused a constraint (a bug of this reader or a limit of csp-core).
    #[error("{position}: {source}")]
    Model {
        /// The constraint's place.
        position: Position,
        /// What the model said.
        source: csp_core::ModelError,
    },
}

impl Error {
    /// Where in the file the error is, when it is about a place.
    pub fn position(&self) -> Option<Position> {
        match self {
            Error::Unsupported { position, .. }
            | Error::UnknownVariable { position, .. }
            | Error::ValueOutOfRange { position, .. }
            | Error::Syntax { position, .. }
            | Error::Model { position, .. } => Some(*position),
            Error::Xml(e) => {
                let p = e.pos();
                Some(Position {
                    line: p.row,
                    column: p.col,
                })
            }
            _ => None,
        }
    }
}

/// Result of the reader.
pub type Result<T, E = Error> = std::result::Result<T, E>;
