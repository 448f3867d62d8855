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
mod lexer;
mod output;
mod parser;
mod post;
mod reader;
mod run;
mod search;
mod set;

use std::path::Path;

pub use error::{Error, Pos, Result};
pub use output::{Output, SEARCH_COMPLETE, SOLUTION_END, UNKNOWN, UNSATISFIABLE, solution_text};
pub use parser::parse;
pub use post::Term;
pub use reader::{Goal, Instance};
pub use run::{RunOptions, RunReport, Status, StrategyFlags, run, search_config};
pub use search::SearchSpec;
pub use set::IntSet;

impl Instance {
    /// Reads FlatZinc text.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &str) -> Result<Instance> {
        reader::read(&parser::parse(text)?)
    }

    /// Reads a FlatZinc file.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Instance> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.display().to_string(),
            source,
        })?;
        Instance::from_str(&text)
    }
}
