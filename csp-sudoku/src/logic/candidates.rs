//! The candidates grid: which values each blank cell may still take.

use std::fmt;

use serde::Serialize;

use crate::grid::{Grid, bit, full_mask};
use crate::units::{Unit, Units, cell_name};

use super::Deduction;

/// Iterates over the values (`1..=64`) whose bits are set in `mask`, in increasing order.
pub(crate) fn values(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let v = mask.trailing_zeros() as u8 + 1;
        mask &= mask - 1;
        Some(v)
    })
}

/// Why a position cannot be completed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Contradiction {
    /// Two cells of a unit hold the same value.
    Conflict {
        /// The repeated value.
        value: u8,
        /// 1-based row of the first cell.
        first_row: usize,
        /// 1-based column of the first cell.
        first_col: usize,
        /// 1-based row of the second cell.
        second_row: usize,
        /// 1-based column of the second cell.
        second_col: usize,
        /// The unit holding both, e.g. `row 3`.
        unit: String,
    },
    /// A blank cell has no candidate left.
    NoCandidates {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
    },
    /// A value can go nowhere in a unit that lacks it.
    MissingValue {
        /// The value.
        value: u8,
        /// The unit, e.g. `box 4`.
        unit: String,
    },
}

impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contradiction::Conflict {
                value,
                first_row,
                first_col,
                second_row,
                second_col,
                unit,
            } => write!(
                f,
                "{value} appears twice in {unit}, at r{first_row}c{first_col} and r{second_row}c{second_col}"
            ),
            Contradiction::NoCandidates { row, col } => {
                write!(f, "r{row}c{col} has no candidate left")
            }
            Contradiction::MissingValue { value, unit } => {
                write!(f, "{value} has no place left in {unit}")
            }
        }
    }
}

/// A grid with, for every blank cell, the bitmask of its remaining candidates
/// (bit `v - 1` for value `v`). Filled cells have an empty mask.
///
/// Built from a [`Grid`] by removing the values of each cell's peers; placing a value removes it
/// from the peers. Techniques read it and return [`Deduction`]s, which [`Candidates::apply`]
/// carries out.
#[derive(Clone, Debug)]
pub struct Candidates {
    grid: Grid,
    masks: Vec<u64>,
    units: &'static Units,
}

/// Equal when the grids and all candidate masks are equal.
impl PartialEq for Candidates {
    fn eq(&self, other: &Candidates) -> bool {
        self.grid == other.grid && self.masks == other.masks
    }
}

impl Eq for Candidates {}

impl Candidates {
    /// The candidates of every blank cell of `grid`: the values no peer holds.
    pub fn new(grid: &Grid) -> Candidates {
        let units = grid.units();
        let cells = grid.cells();
        let full = full_mask(grid.size());
        let masks = (0..cells.len())
            .map(|cell| {
                if cells[cell] != 0 {
                    return 0;
                }
                units
                    .peers(cell)
                    .iter()
                    .filter(|&&p| cells[p] != 0)
                    .fold(full, |m, &p| m & !bit(cells[p]))
            })
            .collect();
        Candidates {
            grid: grid.clone(),
            masks,
            units,
        }
    }

    /// The grid of placed values.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Consumes the candidates, returning the grid.
    pub fn into_grid(self) -> Grid {
        self.grid
    }

    /// The unit table.
    pub fn units(&self) -> &'static Units {
        self.units
    }

    /// Side of the board.
    pub fn size(&self) -> usize {
        self.units.size()
    }

    /// The candidate mask of `cell` (0 for filled cells).
    pub fn mask(&self, cell: usize) -> u64 {
        self.masks[cell]
    }

    /// The candidates of `cell`, increasing (none for filled cells).
    pub fn candidates(&self, cell: usize) -> impl Iterator<Item = u8> + use<> {
        values(self.masks[cell])
    }

    /// Whether `value` is a candidate of `cell`.
    pub fn has(&self, cell: usize, value: u8) -> bool {
        (1..=64).contains(&value) && self.masks[cell] & bit(value) != 0
    }

    /// Whether `cell` holds a value.
    pub fn is_filled(&self, cell: usize) -> bool {
        self.grid.cells()[cell] != 0
    }

    /// Whether every cell holds a value.
    pub fn is_complete(&self) -> bool {
        self.grid.is_complete()
    }

    /// Places `value` in the blank `cell` and removes it from the candidates of the cell's peers.
    /// Returns `false` (and changes nothing) if the cell is filled or the value out of range.
    /// The value need not be a candidate; use [`Candidates::contradiction`] to check the result.
    pub fn place(&mut self, cell: usize, value: u8) -> bool {
        if cell >= self.masks.len() || self.is_filled(cell) || value == 0 {
            return false;
        }
        if self.grid.set_cell(cell, value).is_err() {
            return false;
        }
        self.masks[cell] = 0;
        let b = bit(value);
        for &p in self.units.peers(cell) {
            self.masks[p] &= !b;
        }
        true
    }

    /// Removes `value` from the candidates of `cell`; returns whether it was a candidate.
    pub fn eliminate(&mut self, cell: usize, value: u8) -> bool {
        if !(1..=64).contains(&value) || cell >= self.masks.len() {
            return false;
        }
        let had = self.masks[cell] & bit(value) != 0;
        self.masks[cell] &= !bit(value);
        had
    }

    /// Carries out a deduction: its placements, then its eliminations.
    pub fn apply(&mut self, deduction: &Deduction) {
        for p in &deduction.placements {
            self.place(p.cell, p.value);
        }
        for e in &deduction.eliminations {
            self.eliminate(e.cell, e.value);
        }
    }

    /// The cells of `cells` that still have `value` as a candidate, in order.
    pub(crate) fn holding(&self, cells: &[usize], value: u8) -> Vec<usize> {
        cells
            .iter()
            .copied()
            .filter(|&cell| self.has(cell, value))
            .collect()
    }

    /// The blank cells of unit `id` that have `value` as a candidate, as a bitmask over the
    /// unit's positions (bit `i` for the unit's `i`-th cell).
    pub(crate) fn positions(&self, id: usize, value: u8) -> u64 {
        let b = bit(value);
        self.units
            .unit(id)
            .iter()
            .enumerate()
            .filter(|&(_, &c)| self.masks[c] & b != 0)
            .fold(0, |m, (i, _)| m | 1 << i)
    }

    /// The values placed in unit `id`, as a mask.
    pub(crate) fn placed(&self, id: usize) -> u64 {
        let cells = self.grid.cells();
        self.units
            .unit(id)
            .iter()
            .filter(|&&c| cells[c] != 0)
            .fold(0, |m, &c| m | bit(cells[c]))
    }

    /// `r{row}c{col}` of a cell, 1-based.
    pub(crate) fn name(&self, cell: usize) -> String {
        cell_name(self.size(), cell)
    }

    /// The first contradiction of the position, if any: conflicting values, then a blank cell
    /// without candidates, then a value with no place in a unit that lacks it.
    pub fn contradiction(&self) -> Option<Contradiction> {
        let size = self.size();
        if let Some(k) = self.grid.conflicts().first() {
            return Some(Contradiction::Conflict {
                value: k.value,
                first_row: k.first / size + 1,
                first_col: k.first % size + 1,
                second_row: k.second / size + 1,
                second_col: k.second % size + 1,
                unit: k.unit.to_string(),
            });
        }
        let cells = self.grid.cells();
        if let Some(cell) = (0..cells.len()).find(|&c| cells[c] == 0 && self.masks[c] == 0) {
            return Some(Contradiction::NoCandidates {
                row: cell / size + 1,
                col: cell % size + 1,
            });
        }
        let full = full_mask(size);
        for id in 0..self.units.unit_count() {
            let covered = self.units.unit(id).iter().fold(0u64, |m, &c| {
                m | self.masks[c] | cells[c].checked_sub(1).map_or(0, |v| 1 << v)
            });
            if covered != full {
                let value = (!covered & full).trailing_zeros() as u8 + 1;
                let unit: Unit = self.units.describe(id);
                return Some(Contradiction::MissingValue {
                    value,
                    unit: unit.to_string(),
                });
            }
        }
        None
    }
}
