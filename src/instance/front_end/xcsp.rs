//! XCSP3 instances (csp-xcsp): every solution is checked against the constraints as read,
//! and the objective against its definition.

use std::path::Path;

use csp_core::{Model, VarId};
use csp_xcsp::{Instance, ReadLimits, ReadOptions};

use super::{LoadFailure, Problem};
use crate::instance::InstanceArgs;

/// Reads an XCSP3 instance (see [`super::load_within`]).
pub(super) fn load(
    path: &Path,
    args: &InstanceArgs,
    limits: ReadLimits,
    objective: bool,
) -> Result<Instance, LoadFailure> {
    let mut options = ReadOptions {
        limits,
        ..ReadOptions::default()
    };
    if let Some(s) = args.alldiff {
        options.post.all_different = s;
    }
    options.post.objective = objective;
    let hint = if path.as_os_str() == "-" && args.colors.is_some() {
        " (standard input is read as XCSP3: a DIMACS graph is read from a file named .col)"
    } else {
        ""
    };
    Instance::from_path_with(path, &options).map_err(|e| failure(path, e, hint))
}

/// The failure of reading `path`, its message followed by `hint`.
pub(super) fn failure(path: &Path, e: csp_xcsp::Error, hint: &str) -> LoadFailure {
    let message = format!("{}: {e}{hint}", path.display());
    match e.limit() {
        Some(kind) => LoadFailure::Limit(kind),
        None if e.is_unsupported() => LoadFailure::Unsupported(message),
        None => LoadFailure::Error(message),
    }
}

impl Problem for Instance {
    fn model(&self) -> &Model {
        &self.model
    }

    /// The declared variables without the arrays PyCSP3 introduces itself (`aux_gb`,
    /// `aux_gi`, ...: "auxiliary variables automatically introduced", each equal to an
    /// expression of the others).
    fn decision_vars(&self) -> Option<Vec<VarId>> {
        Some(
            self.model
                .vars()
                .take(self.declared)
                .filter(|&v| !self.model.name(v).starts_with("aux_"))
                .collect(),
        )
    }

    fn violation(&self, values: &[i32]) -> Option<String> {
        self.check(values)
            .err()
            .map(|c| format!("the constraint at {} ({:?})", c.position, c.constraint))
    }

    fn for_each_shown(&self, values: &[i32], _extension: u64, f: &mut dyn FnMut(&str, i64)) {
        for v in self.model.vars().take(self.declared) {
            f(self.model.name(v), i64::from(values[v.index()]));
        }
    }

    fn objective_mismatch(&self, values: &[i32], value: i64) -> Option<String> {
        match self.objective_value(values) {
            Some(v) if v == i128::from(value) => None,
            other => Some(format!(
                "the search reports the objective {value} where the file's definition gives {other:?}"
            )),
        }
    }
}
