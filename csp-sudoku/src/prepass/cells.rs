//! The pre-pass on candidate words per cell, for boards of any order.

use crate::grid::{Grid, full_mask};
use crate::units::Units;

/// The candidates of every cell (bit `v - 1` for value `v`) after naked and hidden singles
/// (and with `locked`, locked candidates) have run to a fixpoint from the givens, or `None`
/// if they meet a contradiction.
///
/// Each unit keeps the values placed in it, so placing a value is three ORs and an open
/// cell's candidates are its old ones minus what its three units hold: sweeps over the open
/// cells place every naked single until none is left, then one pass over the units places
/// the hidden singles, then (with `locked`) one pass of locked candidates runs, and so on
/// until none of them finds anything.
pub(super) fn singles_candidates(order: usize, puzzle: &Grid, locked: bool) -> Option<Vec<u64>> {
    let units = Units::of_order(order).expect("an order within MIN_ORDER..=MAX_ORDER");
    let full = full_mask(order * order);
    let mut cands: Vec<u64> = Vec::with_capacity(puzzle.cells().len());
    let mut placed = vec![0u64; units.unit_count()];
    let mut open: Vec<usize> = Vec::with_capacity(puzzle.cells().len());
    // Units whose cells lost candidates since their last hidden-singles pass: a pass over
    // an unchanged unit finds nothing new.
    let mut dirty = vec![true; units.unit_count()];
    let mut unions = if locked {
        vec![0u64; 2 * order * order * order]
    } else {
        Vec::new()
    };
    for (cell, &v) in puzzle.cells().iter().enumerate() {
        if v == 0 {
            cands.push(full);
            open.push(cell);
        } else {
            let bit = 1 << (v - 1);
            cands.push(bit);
            place(&mut placed, units.units_of(cell), bit)?;
        }
    }
    loop {
        // Naked singles, sweep after sweep while some cell gets down to one value.
        loop {
            let before = open.len();
            let mut i = 0;
            while i < open.len() {
                let cell = open[i];
                let [a, b, c] = units.units_of(cell);
                let left = cands[cell] & !(placed[a] | placed[b] | placed[c]);
                if left == 0 {
                    return None;
                }
                if left != cands[cell] {
                    cands[cell] = left;
                    for u in [a, b, c] {
                        dirty[u] = true;
                    }
                }
                if left & (left - 1) == 0 {
                    place(&mut placed, [a, b, c], left)?;
                    open.swap_remove(i);
                } else {
                    i += 1;
                }
            }
            if open.is_empty() {
                return Some(cands);
            }
            if open.len() == before {
                break;
            }
        }
        // Hidden singles: candidates are settled against every placed value here.
        let mut found = false;
        for (u, cells) in units.all().enumerate() {
            if !std::mem::take(&mut dirty[u]) {
                continue;
            }
            let mut fresh = hidden_singles(cells, full, placed[u], &mut cands)?;
            while fresh != 0 {
                let bit = fresh & fresh.wrapping_neg();
                fresh &= fresh - 1;
                let cell = *cells
                    .iter()
                    .find(|&&c| cands[c] == bit)
                    .expect("the cell given the value");
                let own = units.units_of(cell);
                place(&mut placed, own, bit)?;
                for v in own {
                    dirty[v] = true;
                }
                found = true;
            }
        }
        if !(found || locked && locked_candidates(units, &mut cands, &mut dirty, &mut unions)?) {
            return Some(cands);
        }
        // Cells placed by hidden singles leave; one that locked candidates left with a
        // single value stays, for the next sweep to place.
        open.retain(|&cell| {
            let d = cands[cell];
            d & (d - 1) != 0 || placed[units.units_of(cell)[0]] & d == 0
        });
    }
}

/// Locked candidates, as csp-core's `PermutationOverlaps` apply them: where a box crosses a
/// line, a value the box holds only in the crossing leaves the rest of the line (pointing),
/// and a value the line holds only there leaves the rest of the box (claiming). One pass
/// over every crossing (`unions`: scratch of `2 * side * order` words); marks the units of
/// the cells that lost candidates dirty. Returns whether any went, or `None` if a cell
/// lost its last one.
///
/// The unions are taken once per pass. A removal leaves some of them larger than the
/// candidates they stand for, which only makes the rest of the pass find less: the caller
/// runs passes until one finds nothing.
fn locked_candidates(
    units: &Units,
    cands: &mut [u64],
    dirty: &mut [bool],
    unions: &mut [u64],
) -> Option<bool> {
    let (n, side) = (units.order(), units.size());
    // Crossing `k` of row `r` (box column `k`) at `r * n + k`; crossing `k` of column `c`
    // (box row `k`) at `side * n + c * n + k`.
    let (rows, cols) = unions.split_at_mut(side * n);
    for (r, row) in cands.chunks_exact(side).enumerate() {
        for (k, crossing) in row.chunks_exact(n).enumerate() {
            rows[r * n + k] = crossing.iter().fold(0, |acc, &d| acc | d);
        }
    }
    for (c, col) in cols.chunks_exact_mut(n).enumerate() {
        for (k, union) in col.iter_mut().enumerate() {
            *union = (k * n..k * n + n).fold(0, |acc, i| acc | cands[i * side + c]);
        }
    }
    let mut changed = false;
    for (unions, is_row) in [(&*rows, true), (&*cols, false)] {
        // Cell `i` of line `line`.
        let cell = |line: usize, i: usize| if is_row { line * side + i } else { i * side + line };
        for line in 0..side {
            let band = line - line % n;
            for k in 0..n {
                let seg = unions[line * n + k];
                let box_rest = (band..band + n)
                    .filter(|&l| l != line)
                    .fold(0, |acc, l| acc | unions[l * n + k]);
                let line_rest = (0..n)
                    .filter(|&j| j != k)
                    .fold(0, |acc, j| acc | unions[line * n + j]);
                // Only values still held where they would go: a crossing once applied keeps
                // being found.
                let pointing = seg & !box_rest & line_rest;
                let claiming = seg & !line_rest & box_rest;
                if pointing | claiming == 0 {
                    continue;
                }
                for i in (0..side).filter(|&i| i / n != k) {
                    changed |= remove(cands, dirty, units, cell(line, i), pointing)?;
                }
                for l in (band..band + n).filter(|&l| l != line) {
                    for i in k * n..k * n + n {
                        changed |= remove(cands, dirty, units, cell(l, i), claiming)?;
                    }
                }
            }
        }
    }
    Some(changed)
}

/// Removes `values` from `cell`, marking its row, column and box dirty if it lost any.
/// Returns whether it did, or `None` if none is left.
fn remove(cands: &mut [u64], dirty: &mut [bool], units: &Units, cell: usize, values: u64) -> Option<bool> {
    if cands[cell] & values == 0 {
        return Some(false);
    }
    cands[cell] &= !values;
    if cands[cell] == 0 {
        return None;
    }
    for u in units.units_of(cell) {
        dirty[u] = true;
    }
    Some(true)
}

/// Places `bit` in three units, or `None` if one of them holds it already.
fn place(placed: &mut [u64], units: [usize; 3], bit: u64) -> Option<()> {
    for u in units {
        if placed[u] & bit != 0 {
            return None;
        }
        placed[u] |= bit;
    }
    Some(())
}

/// Hidden singles in one unit whose cells holding one value hold `placed`: a value held by
/// one cell only goes there. Returns the values it placed, or `None` if the unit misses a
/// value or a cell would have to take two.
fn hidden_singles(cells: &[usize], full: u64, placed: u64, cands: &mut [u64]) -> Option<u64> {
    let (mut once, mut twice) = (0u64, 0u64);
    for &c in cells {
        let d = cands[c];
        twice |= once & d;
        once |= d;
    }
    if once != full {
        return None;
    }
    let unique = once & !twice & !placed;
    if unique == 0 {
        return Some(0);
    }
    for &c in cells {
        let mine = cands[c] & unique;
        if mine & mine.wrapping_sub(1) != 0 {
            return None; // the only place for two values
        }
        if mine != 0 {
            cands[c] = mine;
        }
    }
    Some(unique)
}

#[cfg(test)]
mod tests {
    use super::{hidden_singles, locked_candidates};
    use crate::units::Units;

    fn four_by_four() -> &'static Units {
        Units::of_order(2).expect("order 2")
    }

    /// A full 4x4 board but for value 1 (bit 0) missing from row 1's cells of box 0.
    fn pointing_board() -> Vec<u64> {
        let mut cands = vec![0b1111u64; 16];
        cands[4] &= !1;
        cands[5] &= !1;
        cands
    }

    #[test]
    fn locked_candidates_point_out_of_the_box() {
        // Box 0 holds 1 only in row 0, so the rest of row 0 loses it.
        let mut cands = pointing_board();
        let (mut dirty, mut unions) = (vec![false; 12], vec![0; 16]);
        assert_eq!(
            locked_candidates(four_by_four(), &mut cands, &mut dirty, &mut unions),
            Some(true)
        );
        let mut expected = pointing_board();
        expected[2] = 0b1110;
        expected[3] = 0b1110;
        assert_eq!(cands, expected);
        // Row 0, columns 2 and 3, box 1.
        let marked: Vec<usize> = (0..12).filter(|&u| dirty[u]).collect();
        assert_eq!(marked, [0, 6, 7, 9]);
        // Nothing is left to find.
        assert_eq!(
            locked_candidates(four_by_four(), &mut cands, &mut dirty, &mut unions),
            Some(false)
        );
    }

    #[test]
    fn locked_candidates_claim_for_the_box() {
        // Row 0 holds 2 (bit 1) only in box 0, so the rest of box 0 loses it.
        let mut cands = vec![0b1111u64; 16];
        cands[2] = 0b1101;
        cands[3] = 0b1101;
        let (mut dirty, mut unions) = (vec![false; 12], vec![0; 16]);
        assert_eq!(
            locked_candidates(four_by_four(), &mut cands, &mut dirty, &mut unions),
            Some(true)
        );
        let changed: Vec<usize> = (0..16).filter(|&c| cands[c] != 0b1111).collect();
        assert_eq!(changed, [2, 3, 4, 5]);
        assert!(changed.iter().all(|&c| cands[c] == 0b1101));
    }

    #[test]
    fn locked_candidates_report_an_emptied_cell() {
        let mut cands = pointing_board();
        cands[3] = 0b0001;
        let (mut dirty, mut unions) = (vec![false; 12], vec![0; 16]);
        assert_eq!(
            locked_candidates(four_by_four(), &mut cands, &mut dirty, &mut unions),
            None
        );
    }

    #[test]
    fn hidden_singles_take_the_only_place_of_a_value() {
        let mut cands = [0b0011, 0b0110, 0b1110, 0b0110];
        // 1 and 4 have one place each.
        assert_eq!(hidden_singles(&[0, 1, 2, 3], 0b1111, 0, &mut cands), Some(0b1001));
        assert_eq!(cands, [0b0001, 0b0110, 0b1000, 0b0110]);
    }

    #[test]
    fn a_cell_that_alone_holds_two_values_is_a_contradiction() {
        // Only cell 0 can take 1 and 2, whether or not it holds anything else.
        for first in [0b0011, 0b0111] {
            let mut cands = [first, 0b1100, 0b1100, 0b1100];
            assert_eq!(hidden_singles(&[0, 1, 2, 3], 0b1111, 0, &mut cands), None);
        }
    }
}
