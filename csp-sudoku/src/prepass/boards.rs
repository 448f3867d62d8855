//! The pre-pass on one bitboard per value, for boards of at most 128 cells (4x4 and 9x9).
//!
//! Bit `c` of board `v` says that cell `c` may hold value `v + 1`. Placing a value is a
//! few word operations (the cell leaves every board, its peers leave the value's board),
//! and one fold over the boards finds every naked single at once.

use std::sync::OnceLock;

use crate::grid::Grid;
use crate::units::Units;

/// The largest order whose board fits in a `u128` (81 cells).
pub(super) const LARGEST_ORDER: usize = 3;

/// Values (and boards) at the largest order.
const MAX_SIDE: usize = LARGEST_ORDER * LARGEST_ORDER;

/// Cell masks of one order.
struct Masks {
    /// Every cell.
    all: u128,
    /// Each unit's cells, by unit id (rows, columns, boxes).
    units: Vec<u128>,
    /// Each cell's peers.
    peers: Vec<u128>,
    /// Each cell's units, as bits of unit ids.
    units_of: Vec<u32>,
    /// Each crossing of a box and a line, box by box (`2 * order` per box): the cells they
    /// share, the rest of the box and the rest of the line.
    crossings: Vec<[u128; 3]>,
}

impl Masks {
    fn of_order(order: usize) -> &'static Masks {
        static TABLES: [OnceLock<Masks>; LARGEST_ORDER - 1] = [const { OnceLock::new() }; LARGEST_ORDER - 1];
        TABLES[order - 2].get_or_init(|| Masks::build(order))
    }

    fn build(order: usize) -> Masks {
        let units = Units::of_order(order).expect("a board order");
        let mask = |cells: &[usize]| cells.iter().fold(0u128, |acc, &c| acc | 1 << c);
        let unit_masks: Vec<u128> = units.all().map(mask).collect();
        let side = units.size();
        let crossings = (2 * side..3 * side)
            .flat_map(|b| (0..2 * side).map(move |line| (b, line)))
            .map(|(b, line)| (unit_masks[b], unit_masks[line]))
            .filter(|&(b, line)| b & line != 0)
            .map(|(b, line)| [b & line, b & !line, line & !b])
            .collect();
        Masks {
            all: mask(&(0..units.cell_count()).collect::<Vec<_>>()),
            peers: (0..units.cell_count()).map(|c| mask(units.peers(c))).collect(),
            units_of: (0..units.cell_count())
                .map(|c| units.units_of(c).iter().fold(0, |acc, &u| acc | 1 << u))
                .collect(),
            units: unit_masks,
            crossings,
        }
    }
}

/// [`super::singles_candidates`] for orders up to [`LARGEST_ORDER`].
pub(super) fn singles_candidates(order: usize, puzzle: &Grid, locked: bool) -> Option<Vec<u64>> {
    let masks = Masks::of_order(order);
    let side = order * order;
    let mut values = [0; MAX_SIDE];
    values[..side].fill(masks.all);
    let mut boards = Boards {
        masks,
        values,
        side,
        placed: 0,
        settled: [0; MAX_SIDE],
        checked: values,
        locked_seen: [0; MAX_SIDE],
    };
    for (cell, &v) in puzzle.cells().iter().enumerate() {
        if v != 0 {
            boards.place(cell, usize::from(v) - 1)?;
        }
    }
    loop {
        boards.naked_singles()?;
        if boards.hidden_singles()? {
            continue;
        }
        if !(locked && boards.locked_candidates()) {
            break;
        }
    }
    let mut cands = vec![0u64; side * side];
    for (v, &board) in boards.values[..side].iter().enumerate() {
        let mut rest = board;
        while rest != 0 {
            cands[rest.trailing_zeros() as usize] |= 1 << v;
            rest &= rest - 1;
        }
    }
    Some(cands)
}

/// The boards of one pre-pass.
struct Boards {
    masks: &'static Masks,
    /// One board per value; those past `side` stay empty, so that loops over all of them
    /// need no bound.
    values: [u128; MAX_SIDE],
    side: usize,
    /// The cells placed so far.
    placed: u128,
    /// Per value, the units it is placed in (bits of unit ids): nothing is left to find
    /// there.
    settled: [u32; MAX_SIDE],
    /// Per value, its board when hidden singles last looked at it.
    checked: [u128; MAX_SIDE],
    /// Per value, its board after the last pass of locked candidates.
    locked_seen: [u128; MAX_SIDE],
}

impl Boards {
    /// Places value index `v` in `cell`, or `None` if the cell cannot take it.
    fn place(&mut self, cell: usize, v: usize) -> Option<()> {
        let bit = 1u128 << cell;
        if self.values[v] & bit == 0 {
            return None;
        }
        for board in &mut self.values {
            *board &= !bit;
        }
        self.values[v] = self.values[v] & !self.masks.peers[cell] | bit;
        self.placed |= bit;
        self.settled[v] |= self.masks.units_of[cell];
        Some(())
    }

    /// Places every cell left with one value, until none is. `None` if a cell has none.
    fn naked_singles(&mut self) -> Option<()> {
        loop {
            let (mut once, mut twice) = (0u128, 0u128);
            for &board in &self.values {
                twice |= once & board;
                once |= board;
            }
            if once != self.masks.all {
                return None;
            }
            let mut singles = once & !twice & !self.placed;
            if singles == 0 {
                return Some(());
            }
            while singles != 0 {
                let cell = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                // An earlier placement of this sweep may have taken its value.
                let v = self.values[..self.side]
                    .iter()
                    .position(|&b| b >> cell & 1 == 1)?;
                self.place(cell, v)?;
            }
        }
    }

    /// Hidden singles: a value that fits one cell of a unit only goes there. Returns
    /// whether any was placed, or `None` if a unit has no place left for a value.
    fn hidden_singles(&mut self) -> Option<bool> {
        let mut found = false;
        let all_units = (1u32 << (3 * self.side)) - 1;
        for v in 0..self.side {
            // A board as it was at the last look has nothing new. (Finding the units of the
            // cells it lost since costs more than looking at every unit again.)
            let before = self.values[v];
            if before == self.checked[v] {
                continue;
            }
            // A placement below may make a single in a unit seen before it: the board
            // differs from `before` then, and is looked at again.
            self.checked[v] = before;
            let mut open = all_units & !self.settled[v];
            while open != 0 {
                let unit = self.masks.units[open.trailing_zeros() as usize];
                open &= open - 1;
                let here = self.values[v] & unit;
                match here.count_ones() {
                    0 => return None,
                    // Not placed: its unit would be settled.
                    1 => {
                        self.place(here.trailing_zeros() as usize, v)?;
                        open &= !self.settled[v];
                        found = true;
                    }
                    _ => {}
                }
            }
        }
        Some(found)
    }

    /// One pass of locked candidates over every value and crossing: a value the box holds
    /// only in the crossing leaves the rest of the line (pointing), and one the line holds
    /// only there leaves the rest of the box (claiming). Returns whether any value went.
    /// (An emptied cell or unit is found by the singles that run next.)
    fn locked_candidates(&mut self) -> bool {
        let mut changed = false;
        let lines = self.masks.crossings.len() / self.side;
        let seen = self.locked_seen.iter_mut();
        for ((board, &settled), seen) in self.values[..self.side].iter_mut().zip(&self.settled).zip(seen) {
            // Nothing new where the board is as the last pass found it.
            if *board == *seen {
                continue;
            }
            // A removal may let a crossing seen before it lock something: a board this
            // pass changes is seen again.
            *seen = *board;
            // The boxes the value is not placed in yet.
            let mut open = !(settled >> (2 * self.side)) & ((1 << self.side) - 1);
            while open != 0 {
                let b = open.trailing_zeros() as usize;
                open &= open - 1;
                // Without branches: whether a crossing locks the value follows no pattern.
                for &[shared, box_rest, line_rest] in &self.masks.crossings[b * lines..(b + 1) * lines] {
                    let here = *board;
                    let locks = (here & shared != 0) & ((here & box_rest != 0) != (here & line_rest != 0));
                    *board = here & !((box_rest | line_rest) & 0u128.wrapping_sub(u128::from(locks)));
                    changed |= locks;
                }
            }
        }
        changed
    }
}
