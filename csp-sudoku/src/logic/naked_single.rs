//! Naked single: a blank cell with exactly one candidate takes it.

use super::candidates::{Candidates, values};
use super::deduction::{CellValue, Deduction};
use super::technique::Technique;

/// The first blank cell (row-major) with a single candidate.
pub(crate) fn find(c: &Candidates) -> Option<Deduction> {
    let cell = (0..c.units().cell_count()).find(|&cell| c.mask(cell).count_ones() == 1)?;
    let value = values(c.mask(cell)).next()?;
    Some(Deduction {
        technique: Technique::NakedSingle,
        cells: vec![cell],
        values: vec![value],
        placements: vec![CellValue { cell, value }],
        eliminations: Vec::new(),
        reason: format!(
            "{}: {value} is the only candidate left in this cell",
            c.name(cell)
        ),
    })
}
