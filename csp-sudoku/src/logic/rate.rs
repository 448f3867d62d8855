//! Rating by logic: apply the easiest technique that makes progress until solved or stuck.

use serde::Serialize;

use super::{Candidates, Contradiction, Deduction, Technique};
use crate::grid::Grid;

/// What human techniques a puzzle needs, as found by [`rate_logic`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogicReport {
    /// Each technique used, with how many times, in [`Technique::ALL`] order.
    pub techniques: Vec<(Technique, usize)>,
    /// The hardest technique used (`None` if no step was taken).
    pub hardest: Option<Technique>,
    /// Whether the techniques ran out before the grid was solved (a guess is needed), or a
    /// contradiction was found.
    pub stuck: bool,
    /// How many cells were filled.
    pub filled: usize,
    /// The grid at the end (solved if `!stuck`).
    pub grid: Grid,
    /// The contradiction that stopped the rating, if the puzzle has no solution.
    pub contradiction: Option<Contradiction>,
}

impl LogicReport {
    /// Whether logic alone solved the puzzle.
    pub fn solved(&self) -> bool {
        !self.stuck
    }

    /// How many deductions were applied.
    pub fn steps(&self) -> usize {
        self.techniques.iter().map(|&(_, n)| n).sum()
    }
}

/// The deduction of the easiest technique (in [`Technique::ALL`] order) that makes progress.
pub fn next_deduction(candidates: &Candidates) -> Option<Deduction> {
    Technique::ALL.iter().find_map(|t| t.find(candidates))
}

/// Solves `grid` with human techniques only, always applying the easiest one that makes
/// progress, and reports which were needed.
///
/// ```
/// use csp_sudoku::{parse_puzzle, rate_logic, Technique};
/// let r = rate_logic(&parse_puzzle("...1..3..2..4...").unwrap());
/// assert!(r.stuck); // several solutions: logic cannot finish
/// let r = rate_logic(&parse_puzzle("12.434..21.34.21").unwrap());
/// assert!(!r.stuck && r.grid.is_solved());
/// assert_eq!(r.hardest, Some(Technique::NakedSingle));
/// ```
pub fn rate_logic(grid: &Grid) -> LogicReport {
    let start = grid.givens();
    let mut c = Candidates::new(grid);
    let mut counts = [0usize; Technique::ALL.len()];
    let contradiction = loop {
        if let Some(x) = c.contradiction() {
            break Some(x);
        }
        if c.is_complete() {
            break None;
        }
        let Some(d) = next_deduction(&c) else {
            break None;
        };
        counts[d.technique as usize] += 1;
        c.apply(&d);
    };
    let techniques: Vec<(Technique, usize)> = Technique::ALL
        .iter()
        .zip(counts)
        .filter(|&(_, n)| n > 0)
        .map(|(&t, n)| (t, n))
        .collect();
    let hardest = techniques.iter().map(|&(t, _)| t).max_by_key(|t| t.difficulty());
    let grid = c.into_grid();
    LogicReport {
        techniques,
        hardest,
        stuck: contradiction.is_some() || !grid.is_complete(),
        filled: grid.givens() - start,
        grid,
        contradiction,
    }
}
