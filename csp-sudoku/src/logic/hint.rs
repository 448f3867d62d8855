//! Hints: the next logical step for a partially filled grid, with its reason.

use serde::Serialize;
use thiserror::Error;

use super::{Candidates, Contradiction, Deduction, Technique};
use crate::grid::Grid;

/// Whether a hint places a value or removes candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HintKind {
    /// Place `value` at (`row`, `col`).
    Placement,
    /// Remove the listed candidates.
    Elimination,
}

/// A cell and value in human terms (1-based row and column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct HintCell {
    /// 1-based row.
    pub row: usize,
    /// 1-based column.
    pub col: usize,
    /// The value.
    pub value: u8,
}

/// The next logical step. Serializes as
/// `{"kind":"placement","row":3,"col":5,"value":7,"technique":"hidden-single","reason":"..."}`;
/// elimination hints add `"eliminations":[{"row":..,"col":..,"value":..},...]`, and their
/// `row`, `col`, `value` are those of the first eliminated candidate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hint {
    /// Placement or elimination.
    pub kind: HintKind,
    /// 1-based row of the placement (or first elimination).
    pub row: usize,
    /// 1-based column of the placement (or first elimination).
    pub col: usize,
    /// The value placed (or first eliminated).
    pub value: u8,
    /// The technique that justifies the step.
    pub technique: Technique,
    /// Why, in words.
    pub reason: String,
    /// The candidates removed (empty for placements).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub eliminations: Vec<HintCell>,
}

/// Why no hint can be given.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HintError {
    /// The grid holds a wrong entry: a repeated value, a cell with no candidate, or a value with
    /// no place in a unit.
    #[error("the grid cannot be completed: {0}")]
    Contradiction(Contradiction),
    /// The grid is already solved.
    #[error("the grid is already solved")]
    Solved,
    /// No technique applies: the next step needs a guess (or the grid has several solutions).
    #[error("no logical step found: the next step needs a guess")]
    Stuck,
}

impl Hint {
    fn from_deduction(d: Deduction, size: usize) -> Hint {
        let human = |cell: usize, value: u8| HintCell {
            row: cell / size + 1,
            col: cell % size + 1,
            value,
        };
        let (kind, first) = match d.placements.first() {
            Some(p) => (HintKind::Placement, human(p.cell, p.value)),
            None => {
                let e = d.eliminations[0];
                (HintKind::Elimination, human(e.cell, e.value))
            }
        };
        Hint {
            kind,
            row: first.row,
            col: first.col,
            value: first.value,
            technique: d.technique,
            reason: d.reason,
            eliminations: d.eliminations.iter().map(|e| human(e.cell, e.value)).collect(),
        }
    }
}

/// The next logical step for `grid`: a placement from the easiest technique that places a value,
/// else an elimination from the easiest technique that removes candidates.
///
/// A grid with a repeated value, a cell without candidates or a value without a place gets
/// [`HintError::Contradiction`]. (A wrong entry that only search can expose is not detected.)
///
/// ```
/// use csp_sudoku::{next_hint, parse_puzzle, HintKind};
/// let hint = next_hint(&parse_puzzle("12.434..21.34.21").unwrap()).unwrap();
/// assert_eq!(hint.kind, HintKind::Placement);
/// assert_eq!((hint.row, hint.col, hint.value), (1, 3, 3));
/// ```
pub fn next_hint(grid: &Grid) -> Result<Hint, HintError> {
    hint_for(&Candidates::new(grid))
}

/// Like [`next_hint`], for a position whose candidates were already narrowed (pencil marks),
/// so that a caller applying elimination hints to its [`Candidates`] gets the following step.
pub fn hint_for(candidates: &Candidates) -> Result<Hint, HintError> {
    if let Some(x) = candidates.contradiction() {
        return Err(HintError::Contradiction(x));
    }
    if candidates.is_complete() {
        return Err(HintError::Solved);
    }
    Technique::ALL
        .iter()
        .find_map(|t| t.find(candidates))
        .map(|d| Hint::from_deduction(d, candidates.size()))
        .ok_or(HintError::Stuck)
}
