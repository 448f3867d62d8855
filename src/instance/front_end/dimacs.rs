//! DIMACS graph colouring (csp-xcsp's `dimacs`): a vertex without an edge is not searched,
//! so one solution of the model stands for K^i colourings of the graph.

use std::path::Path;

use csp_core::Model;
use csp_xcsp::ReadLimits;
use csp_xcsp::dimacs::Colouring;

use super::{LoadFailure, Problem};
use crate::instance::InstanceArgs;

/// Reads a graph to colour with `--colors K` colours.
pub(super) fn load(path: &Path, args: &InstanceArgs, limits: &ReadLimits) -> Result<Colouring, LoadFailure> {
    let Some(k) = args.colors else {
        return Err(LoadFailure::Error(format!(
            "{}: a DIMACS .col file needs --colors K",
            path.display()
        )));
    };
    csp_xcsp::dimacs::read_colouring_with(path, k, limits).map_err(|e| super::xcsp::failure(path, e, ""))
}

impl Problem for Colouring {
    fn model(&self) -> &Model {
        &self.model
    }

    fn violation(&self, values: &[i32]) -> Option<String> {
        self.model.violation(values)
    }

    fn extensions(&self) -> Option<u64> {
        self.colourings_per_solution()
    }

    fn for_each_shown(&self, values: &[i32], extension: u64, f: &mut dyn FnMut(&str, i64)) {
        self.for_each_colour(values, extension, |name, colour| f(name, i64::from(colour)));
    }
}
