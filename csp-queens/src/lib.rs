//! # csp-queens: n-queens on csp-core
//!
//! One variable per column whose value is the queen's row. Two encodings
//! ([`Encoding`]): the textbook pairwise model and three n-ary all-different constraints.
//! On top of them: a first solution with any strategy ([`solve`], [`default_solve`]),
//! counting with optional mirror symmetry and distinct solutions ([`count`]), an
//! independent checker ([`verify`]), printing ([`board`], [`rows_line`], [`write_rows`]), and
//! min-conflicts local search with O(1) conflict counts for millions of queens
//! ([`QueensConflicts`], [`local_search`]).
//!
//! ```
//! use csp_queens::{CountOptions, count, default_count, default_solve, local_search, solve, verify};
//! use csp_core::MinConflicts;
//!
//! // A first solution of 100 queens with the default strategy.
//! let (encoding, config) = default_solve(100);
//! let rows = solve(100, encoding, config)?.rows().expect("100 queens have solutions");
//! assert_eq!(verify(&rows), Ok(()));
//!
//! // All 92 solutions of 8 queens, 12 up to symmetry.
//! let (encoding, config) = default_count();
//! let report = count(8, encoding, config, CountOptions { symmetry: false, distinct: true, ..Default::default() })?;
//! assert_eq!((report.solutions, report.distinct), (92, Some(12)));
//!
//! // Min-conflicts local search on 10,000 queens.
//! let local = local_search(10_000, &MinConflicts::default())?;
//! assert_eq!(verify(local.rows.as_deref().expect("solved")), Ok(()));
//! # Ok::<(), csp_queens::QueensError>(())
//! ```

mod board;
mod error;
mod local;
mod model;
mod search;

pub use board::{MAX_DRAWN_N, Symmetries, board, rows_line, verify, write_rows};
pub use error::QueensError;
pub use local::{LocalReport, MAX_LOCAL_N, QueensConflicts, local_search};
pub use model::{Encoding, MAX_ALLDIFF_N, MAX_PAIRWISE_N, alldiff_model, pairwise_model};
pub use search::{
    CountOptions, CountReport, MAX_COUNT_N, SolveReport, count, default_count, default_solve, solve,
    solve_with,
};
