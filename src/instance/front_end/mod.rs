//! The front ends: every input format reads a file into a [`Problem`] (a model with names,
//! and what it takes to check and show a solution), chosen by the file's name in one place,
//! [`InputFormat::of`]. A new format is one crate, one [`Problem`] implementation and one
//! line in that match.

mod dimacs;
mod flatzinc;
mod xcsp;

use std::fmt::Write;
use std::path::Path;

use csp_core::{LimitKind, Model, VarId};
use csp_xcsp::ReadLimits;
use serde_json::Value;
use serde_json::value::RawValue;

use super::InstanceArgs;

/// What the commands need of an instance, whatever format it was read from.
pub trait Problem: Send + Sync {
    /// The model the search runs on.
    fn model(&self) -> &Model;

    /// The variables the instance declares, without the auxiliary ones the reading added:
    /// those large neighbourhood search fixes and frees. `None`: every variable.
    fn decision_vars(&self) -> Option<Vec<VarId>> {
        None
    }

    /// Why `values` (a solution of the model) is not a solution of the instance as read,
    /// if it is not.
    fn violation(&self, values: &[i32]) -> Option<String>;

    /// How many solutions of the instance each solution of the model stands for (`None`
    /// past `u64::MAX`); their `extension` numbers run from 0 up.
    fn extensions(&self) -> Option<u64> {
        Some(1)
    }

    /// Calls `f` with the name and value of each variable a solution shows, for `values`
    /// and its `extension`-th solution of the instance.
    fn for_each_shown(&self, values: &[i32], extension: u64, f: &mut dyn FnMut(&str, i64));

    /// Why `value`, the objective the search reports for `values`, is not the objective's
    /// value by its definition in the file, if it is not.
    fn objective_mismatch(&self, _values: &[i32], _value: i64) -> Option<String> {
        None
    }
}

/// The input formats, told apart by the file's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// XCSP3 (`.xml`, `.xml.xz`, `.xml.lzma`, standard input, anything else).
    Xcsp,
    /// DIMACS graph colouring (`.col`, possibly compressed), with `--colors K`.
    Dimacs,
    /// FlatZinc (`.fzn`), as MiniZinc compiles a model.
    FlatZinc,
    /// A MiniZinc model or data file (`.mzn`, `.dzn`): refused with the command that
    /// compiles it to FlatZinc.
    MiniZinc,
}

impl InputFormat {
    /// The format of `path`, by its name (compression suffixes aside).
    pub fn of(path: &Path) -> InputFormat {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let name = name.trim_end_matches(".xz").trim_end_matches(".lzma");
        if name.ends_with(".col") {
            InputFormat::Dimacs
        } else if name.ends_with(".fzn") {
            InputFormat::FlatZinc
        } else if name.ends_with(".mzn") || name.ends_with(".dzn") {
            InputFormat::MiniZinc
        } else {
            InputFormat::Xcsp
        }
    }
}

/// Why an instance was not loaded.
pub enum LoadFailure {
    /// A limit (time, SIGINT/SIGTERM) stopped the reading or the posting.
    Limit(LimitKind),
    /// The file uses something outside what csp reads (`s UNSUPPORTED`).
    Unsupported(String),
    /// Anything else: the message names the file (and the line and column).
    Error(String),
}

impl LoadFailure {
    /// The message, for errors.
    pub fn message(&self) -> String {
        match self {
            LoadFailure::Limit(kind) => format!("{kind} while reading"),
            LoadFailure::Unsupported(m) | LoadFailure::Error(m) => m.clone(),
        }
    }
}

/// Reads an instance within `limits`; `objective`: post its objective (false for counting
/// and enumerating, which ignore it, so that an objective wider than a variable can take does
/// not stop them).
pub fn load_within(
    path: &Path,
    args: &InstanceArgs,
    limits: ReadLimits,
    objective: bool,
) -> Result<Loaded, LoadFailure> {
    let problem: Box<dyn Problem> = match InputFormat::of(path) {
        InputFormat::Xcsp => Box::new(xcsp::load(path, args, limits, objective)?),
        InputFormat::Dimacs => Box::new(dimacs::load(path, args, &limits)?),
        InputFormat::FlatZinc => Box::new(flatzinc::load(path, &limits)?),
        InputFormat::MiniZinc => {
            return Err(LoadFailure::Error(format!(
                "{}: a MiniZinc file: run it with `minizinc --solver csp model.mzn [data.dzn]`, or \
                 compile it to FlatZinc for csp with `minizinc --solver csp -c model.mzn [data.dzn] -o model.fzn` \
                 (docs/minizinc.md)",
                path.display()
            )));
        }
    };
    Ok(Loaded(problem))
}

/// An instance ready to solve, of any format: its model, and what the instance itself says
/// (every solution is checked against it before it is reported).
pub struct Loaded(Box<dyn Problem>);

impl Loaded {
    /// The model.
    pub fn model(&self) -> &Model {
        self.0.model()
    }

    /// See [`Problem::decision_vars`].
    pub fn decision_vars(&self) -> Option<Vec<VarId>> {
        self.0.decision_vars()
    }

    /// Checks a solution against the instance as read.
    pub fn check(&self, values: &[i32]) -> Result<(), String> {
        match self.0.violation(values) {
            None => Ok(()),
            Some(why) => Err(format!("internal error: a solution violates {why}")),
        }
    }

    /// See [`Problem::extensions`].
    pub fn extensions(&self) -> Option<u64> {
        self.0.extensions()
    }

    /// The solution as `name=value` pairs.
    pub fn line(&self, values: &[i32], extension: u64) -> String {
        let mut s = String::new();
        self.0.for_each_shown(values, extension, &mut |name, value| {
            if !s.is_empty() {
                s.push(' ');
            }
            // Writing to a String cannot fail.
            let _ = write!(s, "{name}={value}");
        });
        s
    }

    /// The solution as a JSON object from name to value, written as text: a graph of
    /// millions of vertices would take a hundred bytes a vertex as a `serde_json` map.
    pub fn json(&self, values: &[i32], extension: u64) -> Box<RawValue> {
        let mut s = String::from("{");
        self.0.for_each_shown(values, extension, &mut |name, value| {
            if s.len() > 1 {
                s.push(',');
            }
            s.push_str(&Value::from(name).to_string());
            let _ = write!(s, ":{value}");
        });
        s.push('}');
        RawValue::from_string(s).expect("an object of names and numbers")
    }

    /// The `v <instantiation>` line of the XCSP competition output; `cost`, for an
    /// optimisation instance: `type="optimum"` when proved, `"solution"` otherwise, and
    /// the value.
    pub fn xcsp(&self, values: &[i32], extension: u64, cost: Option<(bool, i64)>) -> String {
        let (mut names, mut vals) = (String::new(), String::new());
        self.0.for_each_shown(values, extension, &mut |name, value| {
            names.push_str(name);
            names.push(' ');
            let _ = write!(vals, "{value} ");
        });
        let attributes = match cost {
            Some((true, c)) => format!(" type=\"optimum\" cost=\"{c}\""),
            Some((false, c)) => format!(" type=\"solution\" cost=\"{c}\""),
            None => String::new(),
        };
        format!(
            "v <instantiation{attributes}> <list> {names}</list> <values> {vals}</values> </instantiation>"
        )
    }

    /// Whether the instance is an optimisation problem.
    pub fn is_optimisation(&self) -> bool {
        self.model().objective().is_some()
    }

    /// Checks that `value`, the objective's value the search reports for `values`, is the
    /// objective's value by its definition in the file.
    pub fn check_objective(&self, values: &[i32], value: i64) -> Result<(), String> {
        match self.0.objective_mismatch(values, value) {
            None => Ok(()),
            Some(why) => Err(format!("internal error: {why}")),
        }
    }
}
