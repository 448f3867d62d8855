//! Local search on Sudoku: annealing and min-conflicts results checked against the rules,
//! reproducibility, and honest limits.

use csp_core::{Annealing, AnnealingModel, LocalOutcome, anneal};
use csp_sudoku::{BoxSwaps, LocalMethod, LocalSettings, Status, solve_local};

#[test]
fn both_methods_solve_the_easy_seed_puzzles_and_results_obey_the_rules() {
    // Seed 001's puzzles 2, 6 and 9 are easy (singles only); the seed's own method solves them.
    let seeds = crate::common::puzzles("seeds.txt");
    for idx in [2, 6, 9] {
        let puzzle = &seeds[idx];
        for method in [LocalMethod::Annealing, LocalMethod::MinConflicts] {
            for seed in 0..3 {
                let settings = LocalSettings {
                    seed,
                    ..LocalSettings::new(method)
                };
                let report = solve_local(puzzle, &settings).unwrap();
                assert_eq!(report.status, Status::Solved, "{method} seed {seed} on {puzzle}");
                assert!(report.solution.as_ref().unwrap().is_solution_of(puzzle));
            }
        }
    }
}

#[test]
fn whatever_the_outcome_a_reported_solution_is_valid() {
    for puzzle in crate::common::puzzles("top95-sample.txt").iter().take(5) {
        for method in [LocalMethod::Annealing, LocalMethod::MinConflicts] {
            let settings = LocalSettings {
                max_steps: 50_000,
                ..LocalSettings::new(method)
            };
            let report = solve_local(puzzle, &settings).unwrap();
            match report.status {
                Status::Solved => assert!(report.solution.unwrap().is_solution_of(puzzle)),
                Status::Limit => {
                    assert!(report.solution.is_none());
                    assert_eq!(report.outcome, LocalOutcome::StepLimit);
                    assert_eq!(report.stats.steps(), 50_000);
                }
                other => panic!("unexpected {other:?}"),
            }
        }
    }
}

#[test]
fn same_seed_same_run() {
    let puzzle = &crate::common::puzzles("seeds.txt")[1];
    for method in [LocalMethod::Annealing, LocalMethod::MinConflicts] {
        let run = |seed| {
            let r = solve_local(
                puzzle,
                &LocalSettings {
                    seed,
                    max_steps: 20_000,
                    ..LocalSettings::new(method)
                },
            )
            .unwrap();
            (r.status, r.solution, r.stats.steps())
        };
        assert_eq!(run(4), run(4), "{method}");
    }
}

#[test]
fn a_puzzle_without_solution_runs_into_the_limit() {
    let puzzle = &crate::common::puzzles("no-solution-9x9.txt")[0];
    for method in [LocalMethod::Annealing, LocalMethod::MinConflicts] {
        let report = solve_local(
            puzzle,
            &LocalSettings {
                max_steps: 20_000,
                ..LocalSettings::new(method)
            },
        )
        .unwrap();
        assert_eq!(report.status, Status::Limit);
        assert!(report.solution.is_none());
    }
}

#[test]
fn annealing_on_larger_boards_keeps_boxes_and_givens() {
    let puzzle = &crate::common::puzzles("janko-16x16-sample.txt")[0];
    let mut model = BoxSwaps::new(puzzle).unwrap();
    let run = anneal(
        &mut model,
        &Annealing {
            max_steps: 20_000,
            seed: 2,
            ..Annealing::default()
        },
    );
    assert!(run.stats.best_cost <= run.stats.initial_cost);
    assert_eq!(run.stats.cost, model.cost());
    let grid = model.grid();
    assert!(grid.satisfies(puzzle));
    let units = grid.units();
    for b in 0..16 {
        let mut values: Vec<u8> = units.box_cells(b).iter().map(|&c| grid.cells()[c]).collect();
        values.sort();
        assert_eq!(values, (1..=16).collect::<Vec<u8>>());
    }
}
