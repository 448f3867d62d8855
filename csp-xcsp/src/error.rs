//! Errors of reading an instance: every one about the text says where in the file it arose.

use std::fmt;

use csp_core::LimitKind;
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
    #[error("cannot read the file: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file is compressed but does not decompress.
    #[error("cannot decompress the file ({format}): {message}")]
    Decompress {
        /// The file.
        path: String,
        /// `xz` or `lzma`.
        format: &'static str,
        /// What the decoder said.
        message: String,
    },
    /// The file is not an XCSP3 document (nor xz or lzma holding one): its first bytes
    /// cannot start XML.
    #[error("not an XCSP3 instance: {what}")]
    NotXml {
        /// The file.
        path: String,
        /// What it looks like instead.
        what: String,
    },
    /// The text of the instance, decompressed, is larger than the limit.
    #[error("the instance is larger than {limit} bytes of XML (the limit on input, set with --max-input)")]
    TooLarge {
        /// The file.
        path: String,
        /// The limit, in bytes.
        limit: u64,
    },
    /// A limit (time, or the cancel flag of SIGINT/SIGTERM) stopped the reading or the
    /// posting of the instance.
    #[error("{0} while reading the instance")]
    Limit(LimitKind),
    /// The text is not UTF-8.
    #[error("{position}: the instance is not UTF-8 text (byte offset {offset})")]
    Encoding {
        /// Where the first bad byte is.
        position: Position,
        /// The byte offset of the first bad byte.
        offset: usize,
    },
    /// The text is not well-formed XML.
    #[error("{position}: malformed XML: {message}")]
    Xml {
        /// Where the parser stopped.
        position: Position,
        /// What it expected.
        message: String,
    },
    /// An element, attribute or form outside the supported subset of XCSP3.
    #[error("{position}: unsupported {what}")]
    Unsupported {
        /// Where it is.
        position: Position,
        /// What it is, for example "element <stretch>".
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
    /// Elements or expressions nested deeper than the reader follows.
    #[error("{position}: {what} nested deeper than {limit} levels (csp's limit)")]
    TooDeep {
        /// Where the level past the limit starts.
        position: Position,
        /// Elements or expressions.
        what: &'static str,
        /// The limit.
        limit: usize,
    },
    /// Anything else that does not follow the XCSP3 syntax.
    #[error("{position}: {message}")]
    Syntax {
        /// Where it is.
        position: Position,
        /// What is wrong.
        message: String,
    },
    /// The model would take more memory than csp allows: csp-core's estimate for its
    /// variables, domains and binary constraints ([`csp_core::ModelSize`]), checked before
    /// they are made.
    #[error("{what}: {source}")]
    Memory {
        /// What was to be built (for example "10000000 vertices with 25000 colours and 1 edge").
        what: String,
        /// The estimate and the limit.
        source: csp_core::ConfigError,
    },
    /// The model refused a constraint: a limit of csp-core (a domain too wide, arithmetic
    /// beyond 128 bits) or a malformed constraint.
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
            | Error::TooDeep { position, .. }
            | Error::Encoding { position, .. }
            | Error::Xml { position, .. }
            | Error::Model { position, .. } => Some(*position),
            _ => None,
        }
    }

    /// Whether the instance uses something outside what csp reads (XCSP3-core): the XCSP
    /// competition output says `s UNSUPPORTED` for it.
    pub fn is_unsupported(&self) -> bool {
        matches!(self, Error::Unsupported { .. })
    }

    /// The limit that stopped the reading, if one did.
    pub fn limit(&self) -> Option<LimitKind> {
        match self {
            Error::Limit(kind) => Some(*kind),
            _ => None,
        }
    }
}

/// Result of the reader.
pub type Result<T, E = Error> = std::result::Result<T, E>;
