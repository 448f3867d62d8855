//! The generator: unique solutions (by counting and by an independent brute force),
//! clue counts, symmetry, reproducibility; and the rating scale on hand-picked puzzles.

use csp_core::SearchConfig;
use csp_sudoku::{
    GenerateConfig, GenerateError, Generator, Grid, Level, SudokuModel, Symmetry, count, default_strategy,
    parse_puzzle, rate,
};

fn unique(grid: &Grid) -> bool {
    let rules = SudokuModel::default_for(grid.order());
    count(
        &rules,
        grid,
        &SearchConfig::with_strategy(default_strategy()),
        Some(2),
    )
    .is_unique()
}

/// Counts the solutions of a 4x4 grid up to `cap` by plain backtracking over cells in
/// reading order, checking rows, columns and boxes by hand: shares no code with the engine.
fn brute_force_4x4(cells: &mut [u8; 16], from: usize, cap: usize) -> usize {
    let Some(cell) = (from..16).find(|&c| cells[c] == 0) else {
        return 1;
    };
    let (r, c) = (cell / 4, cell % 4);
    let mut found = 0;
    for v in 1..=4u8 {
        let clash = (0..4).any(|i| {
            let (br, bc) = ((r / 2) * 2 + i / 2, (c / 2) * 2 + i % 2);
            cells[r * 4 + i] == v || cells[i * 4 + c] == v || cells[br * 4 + bc] == v
        });
        if clash {
            continue;
        }
        cells[cell] = v;
        found += brute_force_4x4(cells, cell + 1, cap - found);
        cells[cell] = 0;
        if found >= cap {
            break;
        }
    }
    found
}

#[test]
fn every_generated_puzzle_is_unique_and_minimal() {
    for order in [2, 3] {
        let generator = Generator::new(GenerateConfig {
            seed: 11,
            ..GenerateConfig::new(order)
        })
        .unwrap();
        for i in 0..12 {
            let made = generator.puzzle(i).unwrap();
            assert!(made.solution.is_solution_of(&made.puzzle));
            assert!(unique(&made.puzzle), "order {order} puzzle {i}: {}", made.puzzle);
            // Minimal: every clue is needed.
            for cell in (0..made.puzzle.cells().len()).filter(|&c| made.puzzle.cells()[c] != 0) {
                let mut fewer = made.puzzle.clone();
                fewer.set_cell(cell, 0).unwrap();
                assert!(!unique(&fewer), "clue {cell} of {} is not needed", made.puzzle);
            }
        }
    }
}

#[test]
fn brute_force_agrees_on_4x4_puzzles() {
    for symmetry in Symmetry::ALL {
        let generator = Generator::new(GenerateConfig {
            seed: 5,
            symmetry,
            ..GenerateConfig::new(2)
        })
        .unwrap();
        for i in 0..20 {
            let made = generator.puzzle(i).unwrap();
            let mut cells: [u8; 16] = made.puzzle.cells().try_into().unwrap();
            assert_eq!(brute_force_4x4(&mut cells, 0, 2), 1, "{}", made.puzzle);
        }
    }
    // The oracle itself: the empty 4x4 grid has 288 solutions.
    assert_eq!(brute_force_4x4(&mut [0; 16], 0, 1000), 288);
}

#[test]
fn independent_oracle_agrees_on_9x9_puzzles() {
    let generator = Generator::new(GenerateConfig {
        seed: 3,
        ..GenerateConfig::new(3)
    })
    .unwrap();
    for i in 0..5 {
        let made = generator.puzzle(i).unwrap();
        let (n, first) = crate::common::solve(&made.puzzle, 2);
        assert_eq!(n, 1, "{}", made.puzzle);
        assert_eq!(first.unwrap(), made.solution);
    }
}

#[test]
fn same_seed_same_puzzles_other_seed_other_puzzles() {
    let make = |seed| {
        let g = Generator::new(GenerateConfig {
            seed,
            ..GenerateConfig::new(3)
        })
        .unwrap();
        (0..4).map(|i| g.puzzle(i).unwrap().puzzle).collect::<Vec<_>>()
    };
    assert_eq!(make(42), make(42));
    assert_ne!(make(42), make(43));
    // Puzzle i does not depend on the puzzles before it (parallel generation is safe).
    let g = Generator::new(GenerateConfig {
        seed: 42,
        ..GenerateConfig::new(3)
    })
    .unwrap();
    assert_eq!(g.puzzle(3).unwrap().puzzle, make(42)[3]);
}

#[test]
fn requested_clue_counts_and_symmetry() {
    let g = Generator::new(GenerateConfig {
        seed: 1,
        clues: Some(30),
        symmetry: Symmetry::Rotational,
        ..GenerateConfig::new(3)
    })
    .unwrap();
    for i in 0..5 {
        let p = g.puzzle(i).unwrap().puzzle;
        assert_eq!(p.givens(), 30);
        assert!(unique(&p));
        for cell in 0..81 {
            let image = Symmetry::Rotational.image(9, cell);
            assert_eq!(p.cells()[cell] == 0, p.cells()[image] == 0, "{p}");
        }
    }
    let mirror = Generator::new(GenerateConfig {
        seed: 2,
        symmetry: Symmetry::Mirror,
        ..GenerateConfig::new(3)
    })
    .unwrap()
    .puzzle(0)
    .unwrap()
    .puzzle;
    for cell in 0..81 {
        assert_eq!(
            mirror.cells()[cell] == 0,
            mirror.cells()[Symmetry::Mirror.image(9, cell)] == 0
        );
    }
}

#[test]
fn unreachable_clue_counts_are_reported() {
    let g = Generator::new(GenerateConfig {
        seed: 1,
        clues: Some(18),
        grid_attempts: 2,
        ..GenerateConfig::new(3)
    })
    .unwrap();
    match g.puzzle(0) {
        Err(GenerateError::CluesNotReached {
            clues: 18,
            attempts: 2,
            fewest,
        }) => assert!(fewest > 18),
        Ok(made) => assert_eq!(made.puzzle.givens(), 18), // a lucky grid is fine too
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn full_grids_of_every_order() {
    for order in 2..=6 {
        let g = Generator::new(GenerateConfig {
            seed: 9,
            ..GenerateConfig::new(order)
        })
        .unwrap();
        let a = g.full(0);
        assert!(a.is_solved(), "order {order}");
        assert_eq!(a, g.full(0));
        assert_ne!(a, g.full(1));
    }
}

#[test]
fn difficulty_filter_gives_the_level() {
    for level in [Level::Easy, Level::Hard] {
        let g = Generator::new(GenerateConfig {
            seed: 4,
            difficulty: Some(level),
            ..GenerateConfig::new(3)
        })
        .unwrap();
        let made = g.puzzle(0).unwrap();
        assert_eq!(made.rating.unwrap().level, level);
        assert_eq!(rate(&made.puzzle).unwrap().level, level);
    }
}

#[test]
fn ratings_are_monotone_on_hand_picked_puzzles() {
    let score = |p: &str| rate(&parse_puzzle(p).unwrap()).unwrap();
    // Singles only (seed 001, puzzle 2).
    let singles = score("003020600900305001001806400008102900700000008006708200002609500800203009005010300");
    // Needs naked and hidden pairs (Norvig's top95, first puzzle).
    let pairs = score("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......");
    // Needs a guess; the default search backtracks once.
    let guess = score("48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....");
    // Needs a guess and much search.
    let search = score("6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6.....");
    assert_eq!(singles.level, Level::Easy);
    assert!(!singles.guessing && singles.techniques.iter().all(|(t, _)| t.places()));
    assert_eq!(pairs.level, Level::Medium);
    assert!(guess.guessing && search.guessing);
    assert_eq!(search.level, Level::Expert);
    assert!(singles.score < pairs.score, "{singles:?} {pairs:?}");
    assert!(pairs.score < guess.score);
    assert!(guess.score < search.score);
    assert!(guess.backtracks < search.backtracks);
}

#[test]
fn rating_errors() {
    let unsolvable = crate::common::puzzles("no-solution-9x9.txt");
    assert_eq!(rate(&unsolvable[0]), Err(csp_sudoku::RateError::NoSolution));
}
