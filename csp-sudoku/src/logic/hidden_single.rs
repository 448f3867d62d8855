//! Hidden single: a value that can go in only one cell of a unit goes there.

use super::candidates::Candidates;
use super::deduction::{CellValue, Deduction};
use super::technique::Technique;

/// The first unit (rows, columns, boxes) and value, increasing, with a single possible cell.
pub(crate) fn find(c: &Candidates) -> Option<Deduction> {
    let units = c.units();
    for id in 0..units.unit_count() {
        let placed = c.placed(id);
        for value in 1..=c.size() as u8 {
            if placed & (1 << (value - 1)) != 0 {
                continue;
            }
            let positions = c.positions(id, value);
            if positions.count_ones() != 1 {
                continue;
            }
            let cell = units.unit(id)[positions.trailing_zeros() as usize];
            let unit = units.describe(id);
            return Some(Deduction {
                technique: Technique::HiddenSingle,
                cells: vec![cell],
                values: vec![value],
                placements: vec![CellValue { cell, value }],
                eliminations: Vec::new(),
                reason: format!(
                    "{}: {value} is the only place for {value} in {unit}",
                    c.name(cell)
                ),
            });
        }
    }
    None
}
