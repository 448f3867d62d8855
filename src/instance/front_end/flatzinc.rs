//! FlatZinc (csp-fzn), as MiniZinc compiles a model: the variables shown are the output
//! annotations' (`output_var`, and each cell of an `output_array` as `name[i]` or
//! `name[i,j]`, by the array's own index sets), Booleans as 0 and 1. The search annotations
//! are `fzn-csp`'s: `csp solve` and `csp count` search with their own flags.

use std::path::Path;

use csp_core::Model;
use csp_fzn::{Instance, Term};
use csp_xcsp::ReadLimits;

use super::{LoadFailure, Problem};

/// A FlatZinc model and the names of what a solution shows.
pub(super) struct FlatZinc {
    instance: Instance,
    shown: Vec<(String, Term)>,
}

/// Reads a FlatZinc file within csp's read limits. The objective is always posted (for a
/// count too): it is a variable of the model, never wider than one.
pub(super) fn load(path: &Path, limits: &ReadLimits) -> Result<FlatZinc, LoadFailure> {
    let limits = csp_fzn::ReadLimits {
        deadline: limits.deadline,
        cancel: limits.cancel.clone(),
        max_input: limits.max_input,
    };
    let instance = Instance::from_path_within(path, &limits).map_err(|e| {
        let message = format!("{}: {e}", path.display());
        match e {
            csp_fzn::Error::Limit(kind) => LoadFailure::Limit(kind),
            csp_fzn::Error::Unsupported { .. } => LoadFailure::Unsupported(message),
            _ => LoadFailure::Error(message),
        }
    })?;
    let mut shown = Vec::new();
    for output in &instance.outputs {
        match &output.dims {
            None => shown.extend(output.elems.first().map(|&t| (output.name.clone(), t))),
            Some(dims) => {
                for (cell, &term) in output.elems.iter().enumerate() {
                    shown.push((format!("{}[{}]", output.name, cell_index(dims, cell)), term));
                }
            }
        }
    }
    Ok(FlatZinc { instance, shown })
}

/// The indices of the `cell`-th element (row-major) of an array over `dims`, as `i,j`.
fn cell_index(dims: &[(i64, i64)], mut cell: usize) -> String {
    let mut indices = vec![0; dims.len()];
    for (k, &(lo, hi)) in dims.iter().enumerate().rev() {
        let len = usize::try_from(hi - lo + 1).unwrap_or(1).max(1);
        indices[k] = lo + (cell % len) as i64;
        cell /= len;
    }
    indices.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

impl Problem for FlatZinc {
    fn model(&self) -> &Model {
        &self.instance.model
    }

    fn violation(&self, values: &[i32]) -> Option<String> {
        self.instance.model.violation(values)
    }

    fn for_each_shown(&self, values: &[i32], _extension: u64, f: &mut dyn FnMut(&str, i64)) {
        for (name, term) in &self.shown {
            let value = match *term {
                Term::Const(k) => k,
                Term::Var(v) => i64::from(values[v.index()]),
            };
            f(name, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::cell_index;

    #[test]
    fn cells_are_named_by_the_index_sets() {
        assert_eq!(cell_index(&[(1, 3)], 2), "3");
        assert_eq!(cell_index(&[(0, 1), (1, 3)], 4), "1,2");
    }
}
