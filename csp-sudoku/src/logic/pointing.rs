//! Pointing (box-line interaction): inside a box, a value confined to one row (or column) must
//! be placed in that row within the box, so the rest of the row loses it.

use super::candidates::Candidates;
use super::deduction::{CellValue, Deduction};
use super::deduction::{describe_cells, describe_eliminations};
use super::technique::Technique;

/// The first box and value, increasing, whose candidates lie in one line and whose line
/// outside the box still has the value as a candidate.
pub(crate) fn find(c: &Candidates) -> Option<Deduction> {
    let units = c.units();
    let size = c.size();
    for b in 0..size {
        let id = 2 * size + b;
        let boxed = units.unit(id);
        for value in 1..=size as u8 {
            let cells = c.holding(boxed, value);
            let Some(&first) = cells.first() else {
                continue;
            };
            let lines = [
                (
                    units.units_of(first)[0],
                    cells.iter().all(|&x| units.row_of(x) == units.row_of(first)),
                ),
                (
                    units.units_of(first)[1],
                    cells.iter().all(|&x| units.col_of(x) == units.col_of(first)),
                ),
            ];
            for (line, confined) in lines {
                if !confined {
                    continue;
                }
                let eliminations: Vec<CellValue> = c
                    .holding(units.unit(line), value)
                    .into_iter()
                    .filter(|&x| units.box_of(x) != b)
                    .map(|cell| CellValue { cell, value })
                    .collect();
                let found = Deduction::eliminating(
                    Technique::Pointing,
                    cells.clone(),
                    vec![value],
                    eliminations,
                    |cells, _, eliminations| {
                        format!(
                            "in {}, {value} can only go in {} ({}), so the rest of {} cannot hold it: {}",
                            units.describe(id),
                            units.describe(line),
                            describe_cells(c, cells),
                            units.describe(line),
                            describe_eliminations(c, eliminations)
                        )
                    },
                );
                if found.is_some() {
                    return found;
                }
            }
        }
    }
    None
}
