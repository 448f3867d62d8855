//! Naked pair and naked triple: `k` cells of a unit whose candidates together are `k` values.
//! Those cells take the `k` values between them, so no other cell of the unit can.

use super::candidates::{Candidates, values};
use super::deduction::{CellValue, Deduction};
use super::deduction::{describe_cells, describe_eliminations, describe_values};
use super::subsets::first_subset;
use super::technique::Technique;

/// The first naked subset of `k` (2 or 3) cells, by unit then cells, that removes a candidate.
pub(crate) fn find(c: &Candidates, k: usize) -> Option<Deduction> {
    let technique = if k == 2 {
        Technique::NakedPair
    } else {
        Technique::NakedTriple
    };
    let units = c.units();
    let mut members = Vec::with_capacity(c.size());
    (0..units.unit_count()).find_map(|id| {
        let unit = units.unit(id);
        members.clear();
        members.extend(unit.iter().copied().filter(|&cell| {
            let n = c.mask(cell).count_ones() as usize;
            (2..=k).contains(&n)
        }));
        first_subset(members.len(), k, |pick| {
            let union = pick.iter().fold(0u64, |m, &i| m | c.mask(members[i]));
            if union.count_ones() as usize != k {
                return None;
            }
            let cells: Vec<usize> = pick.iter().map(|&i| members[i]).collect();
            let eliminations: Vec<CellValue> = unit
                .iter()
                .filter(|cell| !cells.contains(cell))
                .flat_map(|&cell| values(c.mask(cell) & union).map(move |value| CellValue { cell, value }))
                .collect();
            let vals: Vec<u8> = values(union).collect();
            Deduction::eliminating(
                technique,
                cells,
                vals,
                eliminations,
                |cells, vals, eliminations| {
                    format!(
                        "{} can only hold {} between them, so no other cell of {} can: {}",
                        describe_cells(c, cells),
                        describe_values(vals),
                        units.describe(id),
                        describe_eliminations(c, eliminations)
                    )
                },
            )
        })
    })
}
