//! Rows, columns, boxes and peers of a board, computed once per order.

use std::fmt;
use std::sync::OnceLock;

/// Smallest supported box side.
pub const MIN_ORDER: usize = 2;
/// Largest supported box side (a 64x64 board, so candidates fit in a `u64`).
pub const MAX_ORDER: usize = 8;

/// The kind of a unit: a row, a column or a box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitKind {
    /// A row of the board.
    Row,
    /// A column of the board.
    Column,
    /// A box (block) of `order x order` cells.
    Box,
}

/// One unit of a board: its kind and its 0-based index (rows top to bottom, columns left to right,
/// boxes row-major). Displays 1-based, e.g. `row 3`, `column 5`, `box 2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Unit {
    /// Row, column or box.
    pub kind: UnitKind,
    /// 0-based index of the unit among the units of its kind.
    pub index: usize,
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box => "box",
        };
        write!(f, "{kind} {}", self.index + 1)
    }
}

/// The units (rows, columns, boxes) and peers of every cell for one board order.
///
/// Cells are numbered row-major from 0 to `size * size - 1`. Units are numbered from 0 to
/// `3 * size - 1`: first the rows, then the columns, then the boxes. A table is built once per order
/// and shared: get it with [`Units::of_order`] or [`Grid::units`](crate::Grid::units).
#[derive(Debug)]
pub struct Units {
    order: usize,
    size: usize,
    /// `3 * size` units of `size` cells each, flattened.
    cells: Vec<usize>,
    /// For every cell, the three unit ids containing it (row, column, box).
    of_cell: Vec<[usize; 3]>,
    /// Peers of every cell, flattened: `peer_count` entries per cell, sorted.
    peers: Vec<usize>,
    peer_count: usize,
}

static TABLES: [OnceLock<Units>; MAX_ORDER - MIN_ORDER + 1] =
    [const { OnceLock::new() }; MAX_ORDER - MIN_ORDER + 1];

impl Units {
    /// The shared table for boards of box side `order`, or `None` if `order` is not in `2..=8`.
    pub fn of_order(order: usize) -> Option<&'static Units> {
        if !(MIN_ORDER..=MAX_ORDER).contains(&order) {
            return None;
        }
        Some(TABLES[order - MIN_ORDER].get_or_init(|| Units::build(order)))
    }

    fn build(order: usize) -> Units {
        let size = order * order;
        let mut cells = Vec::with_capacity(3 * size * size);
        for r in 0..size {
            cells.extend((0..size).map(|c| r * size + c));
        }
        for c in 0..size {
            cells.extend((0..size).map(|r| r * size + c));
        }
        for b in 0..size {
            let (top, left) = ((b / order) * order, (b % order) * order);
            for i in 0..order {
                cells.extend((0..order).map(|j| (top + i) * size + left + j));
            }
        }
        let of_cell: Vec<[usize; 3]> = (0..size * size)
            .map(|cell| {
                let (r, c) = (cell / size, cell % size);
                [r, size + c, 2 * size + (r / order) * order + c / order]
            })
            .collect();
        let peer_count = 2 * (size - 1) + (order - 1) * (order - 1);
        let mut peers = Vec::with_capacity(size * size * peer_count);
        let mut buf = Vec::with_capacity(3 * size);
        for (cell, units) in of_cell.iter().enumerate() {
            buf.clear();
            for &u in units {
                buf.extend_from_slice(&cells[u * size..(u + 1) * size]);
            }
            buf.sort_unstable();
            buf.dedup();
            buf.retain(|&p| p != cell);
            debug_assert_eq!(buf.len(), peer_count);
            peers.extend_from_slice(&buf);
        }
        Units {
            order,
            size,
            cells,
            of_cell,
            peers,
            peer_count,
        }
    }

    /// Box side `n`.
    pub fn order(&self) -> usize {
        self.order
    }

    /// Side `N = n * n` of the board.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Number of cells, `N * N`.
    pub fn cell_count(&self) -> usize {
        self.size * self.size
    }

    /// Number of units, `3 * N`.
    pub fn unit_count(&self) -> usize {
        3 * self.size
    }

    /// The cells of unit `id` (`0..3 * N`: rows, then columns, then boxes), in reading order.
    ///
    /// # Panics
    /// If `id >= 3 * N`.
    pub fn unit(&self, id: usize) -> &[usize] {
        &self.cells[id * self.size..(id + 1) * self.size]
    }

    /// Kind and index of unit `id`.
    pub fn describe(&self, id: usize) -> Unit {
        let kind = match id / self.size {
            0 => UnitKind::Row,
            1 => UnitKind::Column,
            _ => UnitKind::Box,
        };
        Unit {
            kind,
            index: id % self.size,
        }
    }

    /// The id of a unit (inverse of [`Units::describe`]).
    pub fn id(&self, unit: Unit) -> usize {
        let base = match unit.kind {
            UnitKind::Row => 0,
            UnitKind::Column => self.size,
            UnitKind::Box => 2 * self.size,
        };
        base + unit.index
    }

    /// The cells of row `r` (0-based).
    pub fn row(&self, r: usize) -> &[usize] {
        self.unit(r)
    }

    /// The cells of column `c` (0-based).
    pub fn col(&self, c: usize) -> &[usize] {
        self.unit(self.size + c)
    }

    /// The cells of box `b` (0-based, boxes numbered row-major).
    pub fn box_cells(&self, b: usize) -> &[usize] {
        self.unit(2 * self.size + b)
    }

    /// Iterator over all `3 * N` units as cell lists, in id order.
    pub fn all(&self) -> impl Iterator<Item = &[usize]> + '_ {
        self.cells.chunks_exact(self.size)
    }

    /// The ids of the row, column and box containing `cell`.
    pub fn units_of(&self, cell: usize) -> [usize; 3] {
        self.of_cell[cell]
    }

    /// Row of `cell` (0-based).
    pub fn row_of(&self, cell: usize) -> usize {
        cell / self.size
    }

    /// Column of `cell` (0-based).
    pub fn col_of(&self, cell: usize) -> usize {
        cell % self.size
    }

    /// Box of `cell` (0-based).
    pub fn box_of(&self, cell: usize) -> usize {
        self.of_cell[cell][2] - 2 * self.size
    }

    /// The peers of `cell`: every other cell sharing its row, column or box, sorted.
    /// There are `2 * (N - 1) + (n - 1)^2` of them.
    pub fn peers(&self, cell: usize) -> &[usize] {
        &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count]
    }
}

/// Writes a cell as `r{row}c{col}`, 1-based.
pub(crate) fn cell_name(size: usize, cell: usize) -> String {
    format!("r{}c{}", cell / size + 1, cell % size + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        for order in 2..=5 {
            let u = Units::of_order(order).unwrap();
            let n = u.size();
            assert_eq!(u.all().count(), 3 * n);
            for cell in 0..n * n {
                let p = u.peers(cell);
                assert_eq!(p.len(), 2 * (n - 1) + (order - 1) * (order - 1));
                for id in u.units_of(cell) {
                    assert!(u.unit(id).contains(&cell));
                }
            }
        }
        let u = Units::of_order(3).unwrap();
        assert_eq!(u.box_cells(4), &[30, 31, 32, 39, 40, 41, 48, 49, 50]);
        assert_eq!(u.box_of(80), 8);
        assert_eq!(u.describe(20).to_string(), "box 3");
        assert_eq!(u.id(u.describe(13)), 13);
        assert!(Units::of_order(1).is_none());
        assert!(Units::of_order(9).is_none());
    }
}
