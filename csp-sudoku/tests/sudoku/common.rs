//! Helpers shared by the integration tests: shipped data files and a small oracle solver.

use csp_sudoku::{Candidates, Grid, SinglesOutcome, propagate_singles};

/// The text of a file of `data/sudoku/`.
pub fn data(name: &str) -> String {
    let path = format!("{}/../data/sudoku/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The puzzles of a line-format file, all expected valid.
pub fn puzzles(name: &str) -> Vec<Grid> {
    csp_sudoku::PuzzleReader::new(&data(name))
        .map(|(line, r)| r.unwrap_or_else(|e| panic!("{name}:{line}: {e}")))
        .collect()
}

/// Counts solutions up to `limit` by singles propagation and branching on the cell with the
/// fewest candidates; returns the count and the first solution found. Independent of the
/// techniques under test except for `propagate_singles`, whose results are checked with
/// `is_solution_of`.
pub fn solve(puzzle: &Grid, limit: usize) -> (usize, Option<Grid>) {
    let mut count = 0;
    let mut first = None;
    search(puzzle, limit, &mut count, &mut first);
    if let Some(s) = &first {
        assert!(s.is_solution_of(puzzle));
    }
    (count, first)
}

fn search(grid: &Grid, limit: usize, count: &mut usize, first: &mut Option<Grid>) {
    match propagate_singles(grid) {
        SinglesOutcome::Contradiction { .. } => {}
        SinglesOutcome::Solved { grid, .. } => {
            assert!(grid.is_solved());
            *count += 1;
            first.get_or_insert(grid);
        }
        SinglesOutcome::Stuck { grid, .. } => {
            let c = Candidates::new(&grid);
            let cell = (0..grid.cells().len())
                .filter(|&i| grid.cells()[i] == 0)
                .min_by_key(|&i| c.mask(i).count_ones())
                .expect("stuck grids have blanks");
            for value in c.candidates(cell) {
                let mut next = grid.clone();
                next.set_cell(cell, value).unwrap();
                search(&next, limit, count, first);
                if *count >= limit {
                    return;
                }
            }
        }
    }
}
