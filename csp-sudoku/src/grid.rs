//! The Sudoku board: [`Grid`].

use std::fmt;

use thiserror::Error;

use crate::units::{MAX_ORDER, Unit, Units};

/// Errors from building or editing a [`Grid`] with out-of-range data.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GridError {
    /// The box side is outside `2..=8`.
    #[error("invalid order {order}: the box side must be between 2 and 8")]
    InvalidOrder {
        /// The rejected order.
        order: usize,
    },
    /// A row or column is outside `0..size`.
    #[error("position ({row}, {col}) is outside a {size}x{size} grid")]
    OutOfBounds {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// Side of the grid.
        size: usize,
    },
    /// A value is outside `0..=size`.
    #[error("value {value} is out of range for a {size}x{size} grid (0 = blank, 1..={size})")]
    InvalidValue {
        /// The rejected value.
        value: u8,
        /// Side of the grid.
        size: usize,
    },
    /// A cell list does not have `size * size` entries.
    #[error("{found} cells given, a grid of order {order} has {expected}")]
    WrongCellCount {
        /// Number of cells given.
        found: usize,
        /// Number of cells expected.
        expected: usize,
        /// Order of the grid.
        order: usize,
    },
}

/// Two cells of one unit holding the same value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Conflict {
    /// The repeated value.
    pub value: u8,
    /// The first cell (row-major index), always smaller than `second`.
    pub first: usize,
    /// The second cell (row-major index).
    pub second: usize,
    /// A unit containing both cells (the row if they share it, else the column, else the box).
    pub unit: Unit,
}

/// A Sudoku board of order `n`: `N = n * n` rows and columns, boxes of `n x n` cells, `2 <= n <= 8`.
///
/// Cells are stored row-major; each holds `0` (blank) or a value in `1..=N`. Rows and columns are
/// 0-based in this API (human-facing text such as hints and errors is 1-based).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    order: u8,
    cells: Vec<u8>,
}

/// The bit of value `v` (`1..=64`) in a candidate mask.
#[inline]
pub(crate) fn bit(v: u8) -> u64 {
    1u64 << (v - 1)
}

/// The mask with the bits of values `1..=size`.
#[inline]
pub(crate) fn full_mask(size: usize) -> u64 {
    if size >= 64 { u64::MAX } else { (1u64 << size) - 1 }
}

impl Grid {
    /// The blank grid of box side `order` (`2..=8`).
    pub fn empty(order: usize) -> Result<Grid, GridError> {
        let units = Units::of_order(order).ok_or(GridError::InvalidOrder { order })?;
        Ok(Grid {
            order: order as u8,
            cells: vec![0; units.cell_count()],
        })
    }

    /// A grid from its cells, row-major, `0` for blanks.
    pub fn from_cells(order: usize, cells: Vec<u8>) -> Result<Grid, GridError> {
        let units = Units::of_order(order).ok_or(GridError::InvalidOrder { order })?;
        if cells.len() != units.cell_count() {
            return Err(GridError::WrongCellCount {
                found: cells.len(),
                expected: units.cell_count(),
                order,
            });
        }
        let size = units.size();
        if let Some(&value) = cells.iter().find(|&&v| usize::from(v) > size) {
            return Err(GridError::InvalidValue { value, size });
        }
        Ok(Grid {
            order: order as u8,
            cells,
        })
    }

    /// Box side `n`.
    pub fn order(&self) -> usize {
        usize::from(self.order)
    }

    /// Side `N = n * n`, which is also the largest value.
    pub fn size(&self) -> usize {
        self.order() * self.order()
    }

    /// The shared unit table of this grid's order.
    pub fn units(&self) -> &'static Units {
        Units::of_order(self.order()).expect("a grid always has a valid order")
    }

    /// The value at (`row`, `col`), 0-based; `0` is blank.
    ///
    /// # Panics
    /// If the position is outside the grid.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        let size = self.size();
        assert!(row < size && col < size, "({row}, {col}) outside the grid");
        self.cells[row * size + col]
    }

    /// Sets (`row`, `col`), 0-based, to `value` (`0` clears the cell).
    pub fn set(&mut self, row: usize, col: usize, value: u8) -> Result<(), GridError> {
        let size = self.size();
        if row >= size || col >= size {
            return Err(GridError::OutOfBounds { row, col, size });
        }
        self.set_cell(row * size + col, value)
    }

    /// Sets the cell with row-major index `cell` to `value` (`0` clears it).
    pub fn set_cell(&mut self, cell: usize, value: u8) -> Result<(), GridError> {
        let size = self.size();
        if usize::from(value) > size {
            return Err(GridError::InvalidValue { value, size });
        }
        match self.cells.get_mut(cell) {
            Some(slot) => {
                *slot = value;
                Ok(())
            }
            None => Err(GridError::OutOfBounds {
                row: cell / size,
                col: cell % size,
                size,
            }),
        }
    }

    /// All cells, row-major, `0` for blanks.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether no cell is blank (says nothing about validity: see [`Grid::is_solved`]).
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Whether the grid is a valid solution: complete, and every row, column and box holds each
    /// value of `1..=N` exactly once.
    pub fn is_solved(&self) -> bool {
        let full = full_mask(self.size());
        self.is_complete()
            && self
                .units()
                .all()
                .all(|unit| unit.iter().fold(0u64, |m, &c| m | bit(self.cells[c])) == full)
    }

    /// Whether no unit holds the same value twice (blanks allowed).
    pub fn is_consistent(&self) -> bool {
        // One pass over the givens, with the values seen so far per unit (at most 3 * 64).
        let units = self.units();
        let mut seen = [0u64; 3 * MAX_ORDER * MAX_ORDER];
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v != 0)
            .all(|(c, &v)| {
                let b = bit(v);
                units.units_of(c).into_iter().all(|u| {
                    let fresh = seen[u] & b == 0;
                    seen[u] |= b;
                    fresh
                })
            })
    }

    /// Every pair of cells holding the same value in a unit, each pair once, sorted by cells.
    pub fn conflicts(&self) -> Vec<Conflict> {
        let units = self.units();
        let mut out = Vec::new();
        let mut first_at = vec![usize::MAX; self.size() + 1];
        for id in 0..units.unit_count() {
            let unit = units.unit(id);
            first_at.fill(usize::MAX);
            for (i, &c) in unit.iter().enumerate() {
                let v = usize::from(self.cells[c]);
                if v == 0 {
                    continue;
                }
                if first_at[v] == usize::MAX {
                    first_at[v] = i;
                    continue;
                }
                // Report every earlier cell of the unit holding v.
                for &other in &unit[first_at[v]..i] {
                    if self.cells[other] == self.cells[c] {
                        let (first, second) = (other.min(c), other.max(c));
                        out.push(Conflict {
                            value: self.cells[c],
                            first,
                            second,
                            unit: units.describe(id),
                        });
                    }
                }
            }
        }
        // Units are scanned rows, columns, boxes: a stable sort keeps the first unit per pair.
        out.sort_by_key(|k| (k.first, k.second));
        out.dedup_by_key(|k| (k.first, k.second));
        out
    }

    /// Whether this grid keeps every given of `puzzle` (same order, and every filled cell of
    /// `puzzle` holds the same value here). Combine with [`Grid::is_solved`] to check a solution,
    /// or use [`Grid::is_solution_of`].
    pub fn satisfies(&self, puzzle: &Grid) -> bool {
        self.order == puzzle.order
            && self
                .cells
                .iter()
                .zip(&puzzle.cells)
                .all(|(&s, &p)| p == 0 || s == p)
    }

    /// Whether this grid is a solved grid that keeps every given of `puzzle`.
    pub fn is_solution_of(&self, puzzle: &Grid) -> bool {
        self.satisfies(puzzle) && self.is_solved()
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(order: usize) -> Grid {
        let n = order;
        let size = n * n;
        let cells = (0..size * size)
            .map(|i| {
                let (r, c) = (i / size, i % size);
                ((n * (r % n) + r / n + c) % size + 1) as u8
            })
            .collect();
        Grid::from_cells(order, cells).unwrap()
    }

    #[test]
    fn solved_patterns() {
        for order in 2..=8 {
            let g = pattern(order);
            assert!(g.is_solved(), "order {order}");
            assert!(g.is_consistent());
            assert!(g.conflicts().is_empty());
            assert!(g.is_solution_of(&Grid::empty(order).unwrap()));
        }
    }

    #[test]
    fn conflicts_found_once() {
        let mut g = Grid::empty(3).unwrap();
        g.set(0, 0, 5).unwrap();
        g.set(0, 1, 5).unwrap(); // same row and box
        g.set(4, 0, 5).unwrap(); // same column as (0,0)
        let c = g.conflicts();
        assert_eq!(c.len(), 2);
        assert_eq!((c[0].first, c[0].second), (0, 1));
        assert_eq!(c[0].unit.to_string(), "row 1");
        assert_eq!((c[1].first, c[1].second), (0, 36));
        assert_eq!(c[1].unit.to_string(), "column 1");
        assert!(!g.is_consistent());
        assert!(!g.is_solved());
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(Grid::empty(1).is_err());
        assert!(Grid::empty(9).is_err());
        let mut g = Grid::empty(2).unwrap();
        assert!(g.set(4, 0, 1).is_err());
        assert!(g.set(0, 0, 5).is_err());
        assert!(g.set_cell(16, 1).is_err());
        assert!(Grid::from_cells(2, vec![0; 15]).is_err());
        assert!(Grid::from_cells(2, vec![5; 16]).is_err());
        assert_eq!(g.givens(), 0);
    }

    #[test]
    fn satisfies_checks_givens_and_order() {
        let sol = pattern(3);
        let mut puzzle = Grid::empty(3).unwrap();
        puzzle.set(2, 2, sol.get(2, 2)).unwrap();
        assert!(sol.satisfies(&puzzle));
        puzzle.set(2, 2, sol.get(2, 2) % 9 + 1).unwrap();
        assert!(!sol.satisfies(&puzzle));
        assert!(!sol.satisfies(&Grid::empty(2).unwrap()));
    }
}
