//! Hidden pair and hidden triple: `k` values that, in a unit, can only go in the same `k` cells.
//! Those cells must take those values, so they lose every other candidate.

use super::candidates::{Candidates, values};
use super::deduction::{CellValue, Deduction};
use super::deduction::{describe_cells, describe_eliminations, describe_values};
use super::subsets::first_subset;
use super::technique::Technique;

/// The first hidden subset of `k` (2 or 3) values, by unit then values, that removes a
/// candidate.
pub(crate) fn find(c: &Candidates, k: usize) -> Option<Deduction> {
    let technique = if k == 2 {
        Technique::HiddenPair
    } else {
        Technique::HiddenTriple
    };
    let units = c.units();
    // (value, positions in the unit as a bitmask)
    let mut members: Vec<(u8, u64)> = Vec::with_capacity(c.size());
    (0..units.unit_count()).find_map(|id| {
        let unit = units.unit(id);
        members.clear();
        for value in 1..=c.size() as u8 {
            let positions = c.positions(id, value);
            if (2..=k).contains(&(positions.count_ones() as usize)) {
                members.push((value, positions));
            }
        }
        first_subset(members.len(), k, |pick| {
            let spots = pick.iter().fold(0u64, |m, &i| m | members[i].1);
            if spots.count_ones() as usize != k {
                return None;
            }
            let keep = pick.iter().fold(0u64, |m, &i| m | 1 << (members[i].0 - 1));
            let cells: Vec<usize> = values(spots).map(|i| unit[usize::from(i) - 1]).collect();
            let eliminations: Vec<CellValue> = cells
                .iter()
                .flat_map(|&cell| values(c.mask(cell) & !keep).map(move |value| CellValue { cell, value }))
                .collect();
            let vals: Vec<u8> = pick.iter().map(|&i| members[i].0).collect();
            Deduction::eliminating(
                technique,
                cells,
                vals,
                eliminations,
                |cells, vals, eliminations| {
                    format!(
                        "in {}, {} can only go in {}, so those cells hold nothing else: {}",
                        units.describe(id),
                        describe_values(vals),
                        describe_cells(c, cells),
                        describe_eliminations(c, eliminations)
                    )
                },
            )
        })
    })
}
