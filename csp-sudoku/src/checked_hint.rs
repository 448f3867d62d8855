//! Hints for a person solving a grid, after checking that the grid can still be solved.

use csp_core::{LimitKind, Limits, SearchConfig};
use serde::Serialize;
use thiserror::Error;

use crate::defaults::default_config;
use crate::grid::{Conflict, Grid};
use crate::logic::{Contradiction, Hint, HintError, next_hint};
use crate::model::SudokuModel;
use crate::solve::{Status, count};

/// Why no hint is given.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HintProblem {
    /// Two cells of a unit hold the same value.
    #[error("wrong entry: {}", describe_conflict(.0, *.1))]
    Conflict(Conflict, usize),
    /// The grid breaks no rule yet, but cannot be completed: some entry is wrong.
    #[error("wrong entry: the grid has no solution (some filled cell is wrong)")]
    NoSolution,
    /// Logic found a cell or a value with no place left.
    #[error("wrong entry: {0}")]
    Contradiction(Contradiction),
    /// Nothing left to do.
    #[error("the grid is already solved")]
    Solved,
    /// The known techniques find no step.
    #[error("no logical step found with the known techniques: the next step needs a guess")]
    Stuck,
    /// A limit stopped the check that the grid can still be solved.
    #[error("no hint: {0} while checking that the grid can be solved")]
    Limit(LimitKind),
}

impl HintProblem {
    /// Whether the grid holds a wrong entry (rather than being solved or too hard).
    pub fn is_wrong_entry(&self) -> bool {
        matches!(
            self,
            HintProblem::Conflict(..) | HintProblem::NoSolution | HintProblem::Contradiction(_)
        )
    }
}

fn describe_conflict(c: &Conflict, size: usize) -> String {
    format!(
        "r{}c{} and r{}c{} both hold {} in {}",
        c.first / size + 1,
        c.first % size + 1,
        c.second / size + 1,
        c.second % size + 1,
        c.value,
        c.unit
    )
}

/// A hint with what was learnt about the grid while checking it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckedHint {
    /// The next logical step.
    #[serde(flatten)]
    pub hint: Hint,
    /// Whether the grid has exactly one solution (a hint on a grid with several
    /// solutions may still be sound, but the grid is not a proper puzzle).
    pub unique: bool,
}

/// The next logical step for `grid` ([`next_hint`]), after checking that no unit repeats a
/// value and that the grid still has a solution (counted with `rules`, which must be of the
/// grid's order).
///
/// ```
/// use csp_sudoku::{HintProblem, SudokuModel, checked_hint, parse_puzzle, parse_puzzle_unchecked};
/// let rules = SudokuModel::default_for(2);
/// let hint = checked_hint(&rules, &parse_puzzle("12.434..21.34.21").unwrap()).unwrap();
/// assert_eq!((hint.hint.row, hint.hint.col, hint.hint.value), (1, 3, 3));
/// let wrong = checked_hint(&rules, &parse_puzzle_unchecked("11..............").unwrap());
/// assert!(wrong.unwrap_err().is_wrong_entry());
/// ```
pub fn checked_hint(rules: &SudokuModel, grid: &Grid) -> Result<CheckedHint, HintProblem> {
    checked_hint_within(rules, grid, &Limits::default())
}

/// [`checked_hint`] within `limits` (time, nodes or a cancel flag) for the check that
/// the grid can be solved; [`HintProblem::Limit`] when one stops it first.
pub fn checked_hint_within(
    rules: &SudokuModel,
    grid: &Grid,
    limits: &Limits,
) -> Result<CheckedHint, HintProblem> {
    if let Some(&c) = grid.conflicts().first() {
        return Err(HintProblem::Conflict(c, grid.size()));
    }
    let config = SearchConfig {
        limits: limits.clone(),
        ..default_config(grid.order())
    };
    let counted = count(rules, grid, &config, Some(2));
    match (counted.status, counted.limit) {
        (Status::Unsatisfiable, _) => return Err(HintProblem::NoSolution),
        (Status::Limit, Some(kind)) => return Err(HintProblem::Limit(kind)),
        _ => {}
    }
    match next_hint(grid) {
        Ok(hint) => Ok(CheckedHint {
            hint,
            unique: counted.is_unique(),
        }),
        Err(HintError::Contradiction(x)) => Err(HintProblem::Contradiction(x)),
        Err(HintError::Solved) => Err(HintProblem::Solved),
        Err(HintError::Stuck) => Err(HintProblem::Stuck),
    }
}
