//! Propagation-only solvers: naked singles (the seed-004 document), plus hidden singles ("discarded values",
//! the seed-002 document; see `data/sudoku/README.md`), applied until nothing changes.

use serde::Serialize;

use super::{Candidates, Contradiction};
use crate::grid::{Grid, full_mask};

/// The result of singles propagation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum SinglesOutcome {
    /// Every cell was filled; the grid is a valid solution.
    Solved {
        /// The solved grid.
        grid: Grid,
        /// How many blank cells propagation filled.
        filled: usize,
    },
    /// No single remains but blanks do: a guess is needed.
    Stuck {
        /// The partially filled grid.
        grid: Grid,
        /// How many blank cells propagation filled.
        filled: usize,
    },
    /// The puzzle (with the placements so far) has no solution.
    Contradiction {
        /// The grid when the contradiction was found.
        grid: Grid,
        /// How many blank cells propagation filled before it.
        filled: usize,
        /// What went wrong.
        contradiction: Contradiction,
    },
}

impl SinglesOutcome {
    /// The final grid.
    pub fn grid(&self) -> &Grid {
        match self {
            SinglesOutcome::Solved { grid, .. }
            | SinglesOutcome::Stuck { grid, .. }
            | SinglesOutcome::Contradiction { grid, .. } => grid,
        }
    }

    /// How many cells propagation filled.
    pub fn filled(&self) -> usize {
        match self {
            SinglesOutcome::Solved { filled, .. }
            | SinglesOutcome::Stuck { filled, .. }
            | SinglesOutcome::Contradiction { filled, .. } => *filled,
        }
    }

    /// Whether propagation solved the puzzle.
    pub fn is_solved(&self) -> bool {
        matches!(self, SinglesOutcome::Solved { .. })
    }
}

/// Fills naked singles and hidden singles until nothing changes, as the solvers of seeds 002
/// and 004 do before (or instead of) guessing. Solves every puzzle that needs only singles.
///
/// ```
/// use csp_sudoku::{parse_puzzle, propagate_singles};
/// let out = propagate_singles(&parse_puzzle("1...\n..1.\n.1..\n...1").unwrap());
/// assert!(!out.is_solved()); // many solutions: singles alone cannot decide
/// ```
pub fn propagate_singles(grid: &Grid) -> SinglesOutcome {
    propagate(grid, true)
}

/// Fills naked singles only (cells with one option) until nothing changes: the solver of
/// the seed-004 solver, which gets stuck on harder puzzles.
pub fn propagate_naked_singles(grid: &Grid) -> SinglesOutcome {
    propagate(grid, false)
}

fn propagate(grid: &Grid, hidden: bool) -> SinglesOutcome {
    let start = grid.givens();
    let mut c = Candidates::new(grid);
    let outcome = |c: Candidates, contradiction: Option<Contradiction>| {
        let filled = c.grid().givens() - start;
        let grid = c.into_grid();
        match contradiction {
            Some(contradiction) => SinglesOutcome::Contradiction {
                grid,
                filled,
                contradiction,
            },
            None if grid.is_complete() => SinglesOutcome::Solved { grid, filled },
            None => SinglesOutcome::Stuck { grid, filled },
        }
    };
    if let Some(x) = c.contradiction() {
        return outcome(c, Some(x));
    }
    let units = c.units();
    let size = c.size();
    let full = full_mask(size);
    loop {
        let mut progress = false;
        for cell in 0..units.cell_count() {
            let mask = c.mask(cell);
            if mask.count_ones() == 1 {
                c.place(cell, mask.trailing_zeros() as u8 + 1);
                progress = true;
            }
        }
        if hidden {
            for id in 0..units.unit_count() {
                // Values seen once and more than once among the unit's candidates.
                let (mut once, mut twice) = (0u64, 0u64);
                for &cell in units.unit(id) {
                    let m = c.mask(cell);
                    twice |= once & m;
                    once |= m;
                }
                let mut single = once & !twice & full & !c.placed(id);
                while single != 0 {
                    let value = single.trailing_zeros() as u8 + 1;
                    single &= single - 1;
                    // Earlier placements in this sweep may have taken the cell: re-check.
                    if let Some(&cell) = units.unit(id).iter().find(|&&x| c.has(x, value)) {
                        c.place(cell, value);
                        progress = true;
                    }
                }
            }
        }
        if let Some(x) = c.contradiction() {
            return outcome(c, Some(x));
        }
        if !progress {
            return outcome(c, None);
        }
    }
}
