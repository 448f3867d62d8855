//! Box-line reduction (claiming): inside a row or column, a value confined to one box must be
//! placed in that line within the box, so the rest of the box loses it.

use super::candidates::Candidates;
use super::deduction::{CellValue, Deduction};
use super::deduction::{describe_cells, describe_eliminations};
use super::technique::Technique;

/// The first line (rows, then columns) and value, increasing, whose candidates lie in one box
/// and whose box outside the line still has the value as a candidate.
pub(crate) fn find(c: &Candidates) -> Option<Deduction> {
    let units = c.units();
    let size = c.size();
    for line in 0..2 * size {
        for value in 1..=size as u8 {
            let cells = c.holding(units.unit(line), value);
            let Some(&first) = cells.first() else {
                continue;
            };
            let b = units.box_of(first);
            if cells.iter().any(|&x| units.box_of(x) != b) {
                continue;
            }
            let line_cells = units.unit(line);
            let eliminations: Vec<CellValue> = c
                .holding(units.box_cells(b), value)
                .into_iter()
                .filter(|x| !line_cells.contains(x))
                .map(|cell| CellValue { cell, value })
                .collect();
            let found = Deduction::eliminating(
                Technique::BoxLine,
                cells,
                vec![value],
                eliminations,
                |cells, _, eliminations| {
                    let box_unit = units.describe(2 * size + b);
                    format!(
                        "in {}, {value} can only go in {box_unit} ({}), so the rest of {box_unit} cannot hold it: {}",
                        units.describe(line),
                        describe_cells(c, cells),
                        describe_eliminations(c, eliminations)
                    )
                },
            );
            if found.is_some() {
                return found;
            }
        }
    }
    None
}
