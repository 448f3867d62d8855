//! # csp-fzn: FlatZinc for csp
//!
//! Reads FlatZinc, the language MiniZinc compiles models to, into a [`csp_core::Model`]
//! whose variables keep their FlatZinc names, and runs it as a FlatZinc solver does
//! ([`run`]): the program `fzn-csp` is this crate's binary, and
//! `share/minizinc/` holds the solver configuration and the library of csp's native
//! globals for MiniZinc (see `docs/minizinc.md`).
//!
//! - Integer and Boolean variables (Booleans are 0..1 variables), ranges and sets as
//!   domains, parameters and arrays; every FlatZinc builtin on integers and Booleans,
//!   plain, reified (`_reif`) and half-reified (`_imp`); `set_in` on constant sets; csp's
//!   globals as `csp_*` constraints.
//! - Variables declared `var int` get bounds from the constraints that define them
//!   (csp's domains are finite).
//! - Float and set variables, and unknown constraints, are refused with an [`Error`]
//!   naming them and their line; so is any syntax error, with its line and column.
//!
//! ```
//! use csp_fzn::{Instance, RunOptions, run};
//!
//! let err = Instance::from_str("var 1..3: x;\nconstraint int_lt(x 3);\nsolve satisfy;").unwrap_err();
//! assert_eq!(err.to_string(), "line 2, column 21: syntax error: expected `)`, found `3`");
//!
//! let fzn = "var 1..3: x :: output_var;\nvar bool: b :: output_var;\n\
//!            constraint int_le_reif(x, 1, b);\nsolve maximize x;";
//! let instance = Instance::from_str(fzn).unwrap();
//! let mut out = Vec::new();
//! run(&instance, &RunOptions::default(), &mut out).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), "x = 3;\nb = false;\n----------\n==========\n");
//! ```

pub mod ast;
mod error;
pub mod install;
mod lexer;
mod limits;
mod output;
mod parser;
mod post;
mod reader;
mod run;
mod search;
mod set;

use std::io::Read;
use std::path::Path;

pub use error::{Error, Pos, Result};
pub use limits::{DEFAULT_MAX_INPUT, MAX_SYNTAX_MEMORY, ReadLimits};
pub use output::{Output, SEARCH_COMPLETE, SOLUTION_END, UNKNOWN, UNSATISFIABLE, solution_text};
pub use parser::{parse, parse_within};
pub use post::Term;
pub use reader::{Goal, Instance};
pub use run::{RunOptions, RunReport, Status, StrategyFlags, run, search_config};
pub use search::SearchSpec;
pub use set::IntSet;

impl Instance {
    /// Reads FlatZinc text.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &str) -> Result<Instance> {
        Instance::from_str_within(text, &ReadLimits::default())
    }

    /// Reads FlatZinc text within `limits`.
    pub fn from_str_within(text: &str, limits: &ReadLimits) -> Result<Instance> {
        reader::read_within(&parser::parse_within(text, limits)?, limits)
    }

    /// Reads a FlatZinc file.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Instance> {
        Instance::from_path_within(path, &ReadLimits::default())
    }

    /// Reads a FlatZinc file (`-`: standard input) within `limits`: a file larger than
    /// [`ReadLimits::max_input`] is refused before it is held whole.
    pub fn from_path_within(path: impl AsRef<Path>, limits: &ReadLimits) -> Result<Instance> {
        let path = path.as_ref();
        let io = |source| Error::Io {
            path: path.display().to_string(),
            source,
        };
        let too_large = || {
            Error::TooLarge(format!(
                "larger than the input limit of {} bytes",
                limits.max_input
            ))
        };
        // A regular file's size is known before any byte is read; a pipe's is counted.
        if std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > limits.max_input) {
            return Err(too_large());
        }
        let mut bytes = Vec::new();
        let cap = limits.max_input.saturating_add(1);
        let read = if path.as_os_str() == "-" {
            std::io::stdin().lock().take(cap).read_to_end(&mut bytes)
        } else {
            std::fs::File::open(path).and_then(|f| f.take(cap).read_to_end(&mut bytes))
        };
        read.map_err(io)?;
        if bytes.len() as u64 > limits.max_input {
            return Err(too_large());
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            io(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
            ))
        })?;
        Instance::from_str_within(&text, limits)
    }
}
