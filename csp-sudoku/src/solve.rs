//! Solving and counting puzzles with csp-core's backtracking search.

use csp_core::{LimitKind, ParallelSolver, Parallelism, SearchConfig, Stats};
use serde::Serialize;

use crate::grid::Grid;
use crate::model::SudokuModel;

/// How a puzzle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Solved (for counts: counted exactly, at least one solution).
    Solved,
    /// No solution.
    Unsatisfiable,
    /// Counting stopped at the requested cap: at least that many solutions.
    Capped,
    /// A node or time limit stopped the search first.
    Limit,
    /// The input could not be read as a puzzle.
    Error,
}

impl Status {
    /// The status name as written in reports.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsatisfiable => "unsatisfiable",
            Status::Capped => "capped",
            Status::Limit => "limit",
            Status::Error => "error",
        }
    }
}

/// The result of solving one puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct SolveReport {
    /// How it ended.
    pub status: Status,
    /// The solution, when solved.
    pub solution: Option<Grid>,
    /// Which limit stopped it, for [`Status::Limit`].
    pub limit: Option<LimitKind>,
    /// Search statistics.
    pub stats: Stats,
}

/// Finds the first solution of `puzzle`.
///
/// ```
/// use csp_sudoku::{default_config, solve, Grid, Status, SudokuModel};
/// let puzzle: Grid = "1.34.4...32.2.4.".parse().unwrap_or_else(|_| unreachable!());
/// let rules = SudokuModel::default_for(2);
/// let report = solve(&rules, &puzzle, &default_config(2));
/// assert_eq!(report.status, Status::Solved);
/// assert!(report.solution.unwrap().is_solved());
/// ```
pub fn solve(rules: &SudokuModel, puzzle: &Grid, config: &SearchConfig) -> SolveReport {
    solve_with(rules, puzzle, config, Parallelism::default())
}

/// [`solve`] on `parallelism`'s threads ([`csp_core::ParallelSolver`]).
pub fn solve_with(
    rules: &SudokuModel,
    puzzle: &Grid,
    config: &SearchConfig,
    parallelism: Parallelism,
) -> SolveReport {
    let model = rules.with_givens_for(puzzle, config.strategy.inference);
    let mut solver =
        ParallelSolver::with(&model, config.clone(), parallelism).expect("restarts are allowed when solving");
    let outcome = solver.solve();
    let (status, solution, limit) = match outcome {
        csp_core::Outcome::Solved(values) => (Status::Solved, Some(rules.grid_of(&values)), None),
        csp_core::Outcome::Unsatisfiable => (Status::Unsatisfiable, None, None),
        csp_core::Outcome::Limit(kind) => (Status::Limit, None, Some(kind)),
    };
    SolveReport {
        status,
        solution,
        limit,
        stats: solver.stats().clone(),
    }
}

/// The result of counting the solutions of one puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct CountReport {
    /// [`Status::Solved`] (exact, at least one), [`Status::Unsatisfiable`] (exactly none),
    /// [`Status::Capped`] (stopped at the cap) or [`Status::Limit`].
    pub status: Status,
    /// Solutions found (exact unless capped or limited).
    pub solutions: u64,
    /// The first solution found, if any.
    pub first: Option<Grid>,
    /// Which limit stopped it, for [`Status::Limit`].
    pub limit: Option<LimitKind>,
    /// Search statistics over the whole count.
    pub stats: Stats,
}

impl CountReport {
    /// Whether the puzzle has exactly one solution (known only when the count ended).
    pub fn is_unique(&self) -> bool {
        self.solutions == 1 && self.status == Status::Solved
    }
}

/// Counts the solutions of `puzzle`, stopping at `cap` if given (a cap of 2 checks
/// uniqueness).
pub fn count(rules: &SudokuModel, puzzle: &Grid, config: &SearchConfig, cap: Option<u64>) -> CountReport {
    count_with(rules, puzzle, config, cap, Parallelism::default())
}

/// [`count`] on `parallelism`'s threads ([`csp_core::ParallelSolver`]): the first solution is
/// then the first found.
pub fn count_with(
    rules: &SudokuModel,
    puzzle: &Grid,
    config: &SearchConfig,
    cap: Option<u64>,
    parallelism: Parallelism,
) -> CountReport {
    let model = rules.with_givens_for(puzzle, config.strategy.inference);
    let mut solver =
        ParallelSolver::with(&model, config.clone(), parallelism).expect("a valid configuration");
    let mut solutions = 0u64;
    let mut first = None;
    let limit = solver.for_each_solution(|values| {
        if first.is_none() {
            first = Some(rules.grid_of(values));
        }
        solutions += 1;
        cap.is_none_or(|c| solutions < c)
    });
    let status = match limit {
        Some(_) => Status::Limit,
        None if cap.is_some_and(|c| solutions >= c) => Status::Capped,
        None if solutions == 0 => Status::Unsatisfiable,
        None => Status::Solved,
    };
    CountReport {
        status,
        solutions,
        first,
        limit,
        stats: solver.stats().clone(),
    }
}
