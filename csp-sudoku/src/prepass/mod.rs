//! The givens pre-pass: naked and hidden singles, and optionally locked candidates, run to
//! their fixpoint from the givens before the model is handed to the search.
//!
//! It reaches the domains the all-different propagators (and the locked-candidates
//! propagator) reach at the root: the rules are monotone, so their fixpoint does not depend
//! on the order they run in. It gets there on plain bit masks, without the engine's queue
//! and trail: one bitboard per value on boards of up to 128 cells, candidate words per cell
//! on larger ones.

mod boards;
mod cells;

use crate::grid::Grid;

/// The candidates of every cell (bit `v - 1` for value `v`) after naked and hidden singles
/// (and with `locked`, locked candidates) have run to a fixpoint from the givens, or `None`
/// if they meet a contradiction.
pub(crate) fn singles_candidates(order: usize, puzzle: &Grid, locked: bool) -> Option<Vec<u64>> {
    if order <= boards::LARGEST_ORDER {
        boards::singles_candidates(order, puzzle, locked)
    } else {
        cells::singles_candidates(order, puzzle, locked)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use crate::grid::Grid;

    fn sample(file: &str) -> Vec<Grid> {
        let path = format!("{}/../data/sudoku/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        text.lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| l.split(':').next()?.trim().parse().ok())
            .collect()
    }

    #[test]
    fn bitboards_and_cell_words_reach_the_same_fixpoint() {
        let mut puzzles: Vec<Grid> = [
            "17-clue-sample.txt",
            "top95-sample.txt",
            "counts-sample.txt",
            "4x4.txt",
        ]
        .into_iter()
        .flat_map(sample)
        .collect();
        puzzles.push(Grid::empty(3).expect("order 3"));
        // A contradiction met on the way: two 1s in a row.
        let mut cells = vec![0; 16];
        cells[..2].copy_from_slice(&[1, 1]);
        puzzles.push(Grid::from_cells(2, cells).expect("a 4x4 board"));
        assert!(puzzles.len() > 40);
        let mut contradictions = 0;
        for puzzle in &puzzles {
            for locked in [false, true] {
                let boards = super::boards::singles_candidates(puzzle.order(), puzzle, locked);
                let cells = super::cells::singles_candidates(puzzle.order(), puzzle, locked);
                assert_eq!(boards, cells, "locked {locked} on {puzzle}");
                contradictions += usize::from(boards.is_none());
            }
        }
        assert!(
            contradictions >= 2,
            "the samples include puzzles without a solution"
        );
    }

    /// A 4x4 or 9x9 board: a solved grid (the pattern `(order * (r % order) + r / order + c)
    /// mod side`, values relabelled) with each cell kept with probability `density` percent,
    /// and one cell sometimes overwritten with any value (which may make it unsolvable).
    fn random_board() -> impl Strategy<Value = Grid> {
        (
            2usize..=3,
            15u32..80,
            any::<[u8; 9]>(),
            prop::collection::vec(0u32..100, 81),
            any::<Option<(u8, u8)>>(),
        )
            .prop_map(|(order, density, relabel, keep, overwrite)| {
                let side = order * order;
                // A permutation of the values from the random bytes: sort the values by them.
                let mut labels: Vec<u8> = (1..=side as u8).collect();
                labels.sort_by_key(|&v| (relabel[usize::from(v) - 1], v));
                let mut cells: Vec<u8> = (0..side * side)
                    .map(|i| {
                        let (r, c) = (i / side, i % side);
                        let value = (order * (r % order) + r / order + c) % side;
                        if keep[i] < density { labels[value] } else { 0 }
                    })
                    .collect();
                if let Some((cell, value)) = overwrite {
                    cells[usize::from(cell) % (side * side)] = value % side as u8 + 1;
                }
                Grid::from_cells(order, cells).expect("values within 1..=side")
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        #[test]
        fn bitboards_agree_with_cell_words_on_random_boards(puzzle in random_board(), locked: bool) {
            let boards = super::boards::singles_candidates(puzzle.order(), &puzzle, locked);
            let cells = super::cells::singles_candidates(puzzle.order(), &puzzle, locked);
            prop_assert_eq!(boards, cells);
        }
    }
}
