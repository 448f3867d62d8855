//! Random binary and k-ary CSPs of the standard models, for phase-transition experiments:
//! model B ([`ModelB`]) and model RB ([`ModelRb`], with a forced-satisfiable variant).
//!
//! A generator gives a [`RandomCsp`]: variables `x[0]`..`x[n-1]` over `0..d-1` and
//! constraints given by their forbidden tuples (nogoods), so that any solver reads them
//! (csp-xcsp writes them as XCSP3 `extension` conflicts). The same parameters and seed
//! always give the same instance.
//!
//! ```
//! use csp_core::random::ModelB;
//! use csp_core::{SearchConfig, Solver};
//!
//! let params = ModelB { n: 10, d: 4, p1: 0.5, p2: 0.25 };
//! let csp = params.generate(7).unwrap();
//! assert_eq!(csp.constraints.len(), 23); // round(0.5 * 10 * 9 / 2)
//! assert!(csp.constraints.iter().all(|c| c.tuples.len() == 4)); // round(0.25 * 4 * 4)
//! assert_eq!(csp, params.generate(7).unwrap(), "reproducible from the seed");
//! let model = csp.to_model().unwrap();
//! let mut solver = Solver::new(&model, SearchConfig::default()).unwrap();
//! if let Some(values) = solver.solve().solution() {
//!     assert_eq!(csp.violated(values), None);
//! }
//! ```

mod model_b;
mod rb;
mod sample;

pub use model_b::ModelB;
pub use rb::ModelRb;

use thiserror::Error;

use crate::constraints::TableCell;
use crate::error::ModelError;
use crate::model::Model;

/// A random CSP: `variables` variables over `0..domain_size`, each constraint a list of
/// forbidden tuples over its scope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomCsp {
    /// The generator and its parameters, in words (for a file's comment).
    pub description: String,
    /// Number of variables, named `x[0]`..`x[n-1]`.
    pub variables: usize,
    /// Every variable's domain is `0..domain_size`.
    pub domain_size: usize,
    /// The constraints, in generation order.
    pub constraints: Vec<Nogoods>,
    /// A solution that no nogood forbids, for the forced-satisfiable generators.
    pub hidden: Option<Vec<i32>>,
}

/// One constraint: the tuples of values its scope must not take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nogoods {
    /// Variable indices, all different.
    pub scope: Vec<usize>,
    /// Forbidden tuples, one value per scope variable, distinct and in increasing order.
    pub tuples: Vec<Vec<i32>>,
}

/// Parameters no instance can be drawn from.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum RandomError {
    /// A parameter outside its range.
    #[error("{name} must be {expected}, got {value}")]
    OutOfRange {
        /// The parameter, as the command line spells it.
        name: &'static str,
        /// Its value.
        value: f64,
        /// What it must be.
        expected: &'static str,
    },
    /// A forced instance whose constraints would forbid every tuple, the hidden solution's
    /// too.
    #[error(
        "with --forced, round(p·d^k) must be below d^k = {tuples} (a constraint must allow the hidden \
         solution's tuple); p = {p} forbids round({p}·{tuples}) = {tuples}: take p below {below}"
    )]
    ForcedTooTight {
        /// The tightness asked for.
        p: f64,
        /// `d^k`, the tuples of a constraint.
        tuples: u64,
        /// The tightness from which every tuple is forbidden: `(d^k - 1/2) / d^k`.
        below: f64,
    },
    /// An instance too large to be written out.
    #[error("the instance would be too large: {what}")]
    TooLarge {
        /// What is too large.
        what: String,
    },
}

/// The most forbidden tuples a generated instance may hold in all (and the most variables
/// and constraints are 2^24 each).
pub const MAX_TUPLES: u64 = 50_000_000;

impl RandomCsp {
    /// The model: variables `x[i]` over `0..d-1` and a conflicts table per constraint.
    pub fn to_model(&self) -> Result<Model, ModelError> {
        let mut model = Model::new();
        let hi = i32::try_from(self.domain_size).unwrap_or(i32::MAX) - 1;
        let mut vars = Vec::with_capacity(self.variables);
        for i in 0..self.variables {
            let domain = crate::Domain::range(0, hi)?;
            vars.push(model.add_named_var(format!("x[{i}]"), domain));
        }
        for c in &self.constraints {
            let scope: Vec<_> = c.scope.iter().map(|&i| vars[i]).collect();
            let tuples = c
                .tuples
                .iter()
                .map(|t| t.iter().map(|&v| TableCell::Value(v)).collect())
                .collect();
            model.table(&scope, tuples, false)?;
        }
        Ok(model)
    }

    /// The index of the first constraint that `values` (one per variable) violates;
    /// `None` when it is a solution.
    pub fn violated(&self, values: &[i32]) -> Option<usize> {
        self.constraints.iter().position(|c| {
            c.tuples
                .iter()
                .any(|t| t.iter().zip(&c.scope).all(|(&v, &x)| values.get(x) == Some(&v)))
        })
    }

    /// The number of forbidden tuples over all constraints.
    pub fn nogood_count(&self) -> usize {
        self.constraints.iter().map(|c| c.tuples.len()).sum()
    }

    /// Smith's κ of this instance: `-log2(expected solutions fraction) / log2(search space)`,
    /// that is `Σ_c -log2(1 - t_c / d^k_c) / (n log2 d)` for constraints of `t_c` nogoods.
    /// Instances with κ < 1 are expected to have solutions, κ > 1 not; the hardest lie
    /// near κ = 1 (Gent, MacIntyre, Prosser and Walsh, 1996).
    pub fn kappa(&self) -> f64 {
        let d = self.domain_size as f64;
        let space = self.variables as f64 * d.log2();
        if space <= 0.0 {
            return 0.0;
        }
        let tightness: f64 = self
            .constraints
            .iter()
            .map(|c| {
                let all = d.powi(c.scope.len() as i32);
                -(1.0 - c.tuples.len() as f64 / all).log2()
            })
            .sum();
        tightness / space
    }
}

/// Checks that `value` is a probability (0 to 1).
fn check_probability(name: &'static str, value: f64) -> Result<(), RandomError> {
    if (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(RandomError::OutOfRange {
            name,
            value,
            expected: "a number from 0 to 1",
        })
    }
}

/// Checks that `value` is a whole number from `lo` up.
fn check_at_least(
    name: &'static str,
    value: usize,
    lo: usize,
    expected: &'static str,
) -> Result<(), RandomError> {
    if value >= lo {
        Ok(())
    } else {
        Err(RandomError::OutOfRange {
            name,
            value: value as f64,
            expected,
        })
    }
}

/// The most values a domain may have (an `i32` domain of values `0..d`).
const MAX_DOMAIN: u64 = 1 << 24;
/// The most variables, and the most constraints, an instance may have.
const MAX_VARIABLES: u64 = 1 << 24;

/// Checks the total size of an instance before it is drawn.
fn check_size(variables: u64, constraints: u64, tuples_each: u64, domain: u64) -> Result<(), RandomError> {
    for (what, count) in [("variables", variables), ("constraints", constraints)] {
        if count > MAX_VARIABLES {
            return Err(RandomError::TooLarge {
                what: format!("{count} {what} (at most {MAX_VARIABLES})"),
            });
        }
    }
    if domain > MAX_DOMAIN {
        return Err(RandomError::TooLarge {
            what: format!("{domain} values per domain (at most {MAX_DOMAIN})"),
        });
    }
    let total = constraints.saturating_mul(tuples_each);
    if total > MAX_TUPLES {
        return Err(RandomError::TooLarge {
            what: format!("{total} forbidden tuples (at most {MAX_TUPLES})"),
        });
    }
    Ok(())
}

/// Rounds half away from zero to a count (`f64::round`), saturating.
fn round_count(x: f64) -> u64 {
    if x.is_finite() && x > 0.0 {
        x.round() as u64
    } else {
        0
    }
}
