//! The two n-queens models on csp-core: pairwise binary constraints and three
//! all-different constraints.

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use csp_core::{Domain, Model, Relation, Strength};
use serde::Serialize;

use crate::error::QueensError;

/// The largest board the pairwise model accepts: it posts `n (n - 1)` binary
/// constraints, so its memory grows with `n²` (about 0.4 GB at 2,000).
pub const MAX_PAIRWISE_N: usize = 2_000;

/// The largest board the all-different model accepts for systematic search: the model
/// itself is linear, but search keeps one bitset domain of `n` values per column,
/// `n² / 8` bytes (12.5 MB at 10,000, 50 MB at 20,000).
pub const MAX_ALLDIFF_N: usize = 20_000;

/// How the board is encoded as a CSP. Every encoding has one variable per column whose
/// value is the queen's row `0..n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    /// For each pair of columns `i < j`: `x_i != x_j` and `|x_i - x_j| != j - i`.
    /// The textbook model: node counts match the textbook figures.
    Pairwise,
    /// Three n-ary all-different constraints: over `x_i`, `x_i + i` and `x_i - i`;
    /// memory linear in `n`.
    AllDifferent(Strength),
}

impl Encoding {
    /// The largest `n` this encoding accepts.
    pub fn max_n(self) -> usize {
        match self {
            Encoding::Pairwise => MAX_PAIRWISE_N,
            Encoding::AllDifferent(_) => MAX_ALLDIFF_N,
        }
    }

    /// Builds the model of an `n`-queens board.
    pub fn model(self, n: usize) -> Result<Model, QueensError> {
        self.model_with_first(n, None)
    }

    /// Builds the model, with the first column's queen restricted to `first` if given
    /// (the mirror-symmetry reduction of counting).
    pub(crate) fn model_with_first(self, n: usize, first: Option<Domain>) -> Result<Model, QueensError> {
        Ok(self.model_until(n, first, None)?.expect("no deadline to miss"))
    }

    /// [`Encoding::model_with_first`] that gives up (`Ok(None)`) once `deadline` has
    /// passed: the pairwise model of a large board takes seconds to build, and a time
    /// limit covers the whole run.
    pub(crate) fn model_until(
        self,
        n: usize,
        first: Option<Domain>,
        deadline: Option<Instant>,
    ) -> Result<Option<Model>, QueensError> {
        check_n(n, self.max_n(), "systematic search with this model")?;
        let mut model = Model::new();
        let rows = Domain::range(0, n as i32 - 1).expect("n >= 1");
        let expired = || deadline.is_some_and(|d| Instant::now() >= d);
        let mut q = Vec::with_capacity(n);
        for i in 0..n {
            // A column's domain takes n bits: 20,000 columns take tens of milliseconds.
            if i % 1024 == 1023 && expired() {
                return Ok(None);
            }
            let domain = match (&first, i) {
                (Some(d), 0) => d.clone(),
                _ => rows.clone(),
            };
            q.push(model.add_named_var(format!("q{i}"), domain));
        }
        match self {
            Encoding::Pairwise => {
                for i in 0..n {
                    if expired() {
                        return Ok(None);
                    }
                    for j in i + 1..n {
                        model
                            .post(q[i], q[j], Relation::NotEqual)
                            .expect("valid variables");
                        model
                            .post(q[i], q[j], Relation::AbsDiffNotEqual((j - i) as i32))
                            .expect("valid variables");
                    }
                }
            }
            Encoding::AllDifferent(strength) => {
                let zero = vec![0; n];
                let up: Vec<i32> = (0..n as i32).collect();
                let down: Vec<i32> = (0..n as i32).map(|i| -i).collect();
                for offsets in [zero, up, down] {
                    model
                        .all_different_offsets(&q, &offsets, strength)
                        .expect("valid variables");
                }
            }
        }
        Ok(Some(model))
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Encoding::Pairwise => f.write_str("pairwise"),
            Encoding::AllDifferent(Strength::Value) => f.write_str("alldiff"),
            Encoding::AllDifferent(s) => write!(f, "alldiff:{s}"),
        }
    }
}

impl FromStr for Encoding {
    type Err = QueensError;
    /// `pairwise`, `alldiff` (value strength) or `alldiff:STRENGTH` (`value`, `hidden`, `gac`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || QueensError::UnknownEncoding(s.to_string());
        match s.split_once(':') {
            None if s == "pairwise" => Ok(Encoding::Pairwise),
            None if s == "alldiff" => Ok(Encoding::AllDifferent(Strength::Value)),
            Some(("alldiff", strength)) => Ok(Encoding::AllDifferent(strength.parse().map_err(|_| bad())?)),
            _ => Err(bad()),
        }
    }
}

/// The pairwise model of an `n`-queens board (see [`Encoding::Pairwise`]).
///
/// ```
/// let model = csp_queens::pairwise_model(8)?;
/// assert_eq!(model.num_vars(), 8);
/// assert_eq!(model.constraints().len(), 2 * 28);
/// assert!(model.is_solution(&[0, 4, 7, 5, 2, 6, 1, 3]));
/// # Ok::<(), csp_queens::QueensError>(())
/// ```
pub fn pairwise_model(n: usize) -> Result<Model, QueensError> {
    Encoding::Pairwise.model(n)
}

/// The all-different model of an `n`-queens board (see [`Encoding::AllDifferent`]).
///
/// ```
/// use csp_core::Strength;
/// let model = csp_queens::alldiff_model(8, Strength::Value)?;
/// assert_eq!(model.propagators().len(), 3);
/// assert!(model.is_solution(&[0, 4, 7, 5, 2, 6, 1, 3]));
/// assert!(!model.is_solution(&[0, 1, 7, 5, 2, 6, 4, 3]));
/// # Ok::<(), csp_queens::QueensError>(())
/// ```
pub fn alldiff_model(n: usize, strength: Strength) -> Result<Model, QueensError> {
    Encoding::AllDifferent(strength).model(n)
}

/// Checks `1 <= n <= max`.
pub(crate) fn check_n(n: usize, max: usize, method: &'static str) -> Result<(), QueensError> {
    if n == 0 {
        return Err(QueensError::EmptyBoard);
    }
    if n > max {
        return Err(QueensError::TooLarge { n, max, method });
    }
    Ok(())
}
