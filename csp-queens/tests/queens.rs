//! n-queens on csp-core against the OEIS figures, the textbook node counts and an
//! independent checker.

use std::collections::BTreeSet;

use csp_core::{
    ConflictModel, Inference, LocalOutcome, MinConflicts, ModelConflicts, Outcome, SearchConfig, Strategy,
    Strength, ValueOrder, VarOrder, min_conflicts,
};
use csp_queens::{
    CountOptions, Encoding, QueensConflicts, QueensError, Symmetries, count, default_count, default_solve,
    local_search, pairwise_model, solve, verify,
};

/// OEIS A000170: solutions of n-queens, n = 1..=12.
const A000170: [u64; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
/// OEIS A002562: solutions up to symmetry, n = 1..=12.
const A002562: [u64; 12] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787];

fn config(strategy: &str) -> SearchConfig {
    SearchConfig::with_strategy(strategy.parse().unwrap())
}

/// Every solution, collected and verified.
fn all_solutions(n: usize, encoding: Encoding, strategy: Strategy) -> BTreeSet<Vec<u32>> {
    let model = encoding.model(n).unwrap();
    let mut solver = csp_core::Solver::new(&model, SearchConfig::with_strategy(strategy)).unwrap();
    let mut all = BTreeSet::new();
    solver.for_each_solution(|s| {
        let rows: Vec<u32> = s.iter().map(|&r| r as u32).collect();
        assert_eq!(verify(&rows), Ok(()), "{strategy}: {rows:?}");
        assert!(all.insert(rows), "{strategy}: a solution twice");
        true
    });
    all
}

#[test]
fn counts_match_a000170_for_several_strategies_and_both_models() {
    // The largest boards only for the fast setups: the suite must stay quick.
    let setups = [
        (Encoding::Pairwise, "static/asc/fc", 12),
        (Encoding::Pairwise, "mrv/asc/fc", 11),
        (Encoding::AllDifferent(Strength::Value), "mrv/asc/fc", 12),
        (Encoding::AllDifferent(Strength::Hidden), "mrv-degree/asc/fc", 10),
    ];
    for (encoding, strategy, largest) in setups {
        for n in 1..=largest {
            let report = count(n, encoding, config(strategy), CountOptions::default()).unwrap();
            assert!(report.complete);
            assert_eq!(report.solutions, A000170[n - 1], "n = {n}, {encoding} {strategy}");
        }
    }
    // The slower inferences on the smaller boards.
    for strategy in ["static/asc/none", "mrv/lcv/mac", "mrv-degree/lcv/none"] {
        for n in 1..=8 {
            let report = count(n, Encoding::Pairwise, config(strategy), CountOptions::default()).unwrap();
            assert_eq!(report.solutions, A000170[n - 1], "n = {n}, {strategy}");
        }
    }
}

#[test]
fn gac_all_different_model_counts_match_a000170() {
    for strategy in ["static/asc/fc", "mrv/asc/mac"] {
        for n in 1..=9 {
            let report = count(
                n,
                Encoding::AllDifferent(Strength::Gac),
                config(strategy),
                CountOptions::default(),
            )
            .unwrap();
            assert_eq!(
                report.solutions,
                A000170[n - 1],
                "n = {n}, alldiff:gac {strategy}"
            );
        }
    }
}

#[test]
fn symmetric_counts_match_a000170_with_fewer_nodes() {
    for (encoding, strategy, largest) in [
        (Encoding::Pairwise, "static/asc/fc", 11),
        (default_count().0, "mrv/asc/fc", 12),
    ] {
        for n in 1..=largest {
            let plain = count(n, encoding, config(strategy), CountOptions::default()).unwrap();
            let options = CountOptions {
                symmetry: true,
                distinct: false,
                ..CountOptions::default()
            };
            let halved = count(n, encoding, config(strategy), options).unwrap();
            assert_eq!(halved.solutions, A000170[n - 1], "n = {n}, {strategy}");
            assert!(halved.complete);
            if n >= 4 {
                assert!(halved.stats.nodes < plain.stats.nodes, "n = {n}, {strategy}");
            }
        }
    }
}

#[test]
fn distinct_counts_match_a002562_with_and_without_symmetry() {
    let (encoding, config) = default_count();
    for n in 1..=12 {
        for symmetry in [n < 12, true] {
            let options = CountOptions {
                symmetry,
                distinct: true,
                ..CountOptions::default()
            };
            let report = count(n, encoding, config.clone(), options).unwrap();
            assert_eq!(
                report.distinct,
                Some(A002562[n - 1]),
                "n = {n}, symmetry {symmetry}"
            );
            assert_eq!(report.solutions, A000170[n - 1], "n = {n}");
        }
    }
}

#[test]
fn canonical_forms_partition_the_solutions_of_eight_queens() {
    let all = all_solutions(8, Encoding::Pairwise, "mrv/asc/fc".parse().unwrap());
    let mut sym = Symmetries::new(8);
    let classes: BTreeSet<Vec<u32>> = all.iter().map(|s| sym.canonical(s)).collect();
    assert_eq!(classes.len(), 12);
    // Every image of a solution is a solution.
    for s in &all {
        for k in 0..8 {
            assert!(all.contains(sym.image(s, k)), "image {k} of {s:?}");
        }
    }
}

#[test]
fn all_eighteen_textbook_strategies_agree_on_six_queens() {
    let reference = all_solutions(6, Encoding::Pairwise, Strategy::default());
    assert_eq!(reference.len(), 4);
    for strategy in Strategy::textbook() {
        assert_eq!(
            all_solutions(6, Encoding::Pairwise, strategy),
            reference,
            "pairwise {strategy}"
        );
        let alldiff = Encoding::AllDifferent(Strength::Value);
        assert_eq!(
            all_solutions(6, alldiff, strategy),
            reference,
            "alldiff {strategy}"
        );
    }
}

#[test]
fn textbook_first_solution_figures_hold() {
    let report = solve(8, Encoding::Pairwise, config("static/asc/none")).unwrap();
    assert_eq!(report.outcome, Outcome::Solved(vec![0, 4, 7, 5, 2, 6, 1, 3]));
    assert_eq!(report.stats.nodes, 113);
    let report = solve(8, Encoding::Pairwise, config("static/asc/fc")).unwrap();
    assert_eq!(report.stats.nodes, 88);
    // The all-different model prunes exactly like the pairwise one under fc.
    let report = solve(
        8,
        Encoding::AllDifferent(Strength::Value),
        config("static/asc/fc"),
    )
    .unwrap();
    assert_eq!(
        (report.rows().unwrap(), report.stats.nodes),
        (vec![0, 4, 7, 5, 2, 6, 1, 3], 88)
    );
}

#[test]
fn default_strategy_solves_every_small_board_and_reports_no_solution_for_two_and_three() {
    for n in 1..=60 {
        let (encoding, config) = default_solve(n);
        let report = solve(n, encoding, config).unwrap();
        match n {
            2 | 3 => assert_eq!(report.outcome, Outcome::Unsatisfiable, "n = {n}"),
            _ => assert_eq!(verify(&report.rows().expect("solved")), Ok(()), "n = {n}"),
        }
    }
}

#[test]
fn default_strategy_solves_three_hundred_queens_and_is_deterministic() {
    let run = || {
        let (encoding, config) = default_solve(300);
        let report = solve(300, encoding, config).unwrap();
        (
            report.rows().expect("solved"),
            report.stats.nodes,
            report.stats.restarts,
        )
    };
    let first = run();
    assert_eq!(verify(&first.0), Ok(()));
    assert_eq!(run(), first);
}

#[test]
fn limits_stop_the_search() {
    let mut config = config("static/asc/none");
    config.limits.nodes = Some(50);
    let report = solve(8, Encoding::Pairwise, config.clone()).unwrap();
    assert!(matches!(report.outcome, Outcome::Limit(_)));
    assert_eq!(report.stats.nodes, 50);
    let counted = count(10, Encoding::Pairwise, config, CountOptions::default()).unwrap();
    assert!(!counted.complete);
    assert_eq!(counted.stats.nodes, 50);
}

#[test]
fn bad_sizes_are_errors() {
    assert_eq!(pairwise_model(0).unwrap_err(), QueensError::EmptyBoard);
    assert!(matches!(pairwise_model(2001), Err(QueensError::TooLarge { .. })));
    let (encoding, config) = default_count();
    assert!(matches!(
        count(21, encoding, config.clone(), CountOptions::default()),
        Err(QueensError::TooLarge { .. })
    ));
    let mut probing = config.clone();
    probing.probing = true;
    probing.strategy.inference = csp_core::Inference::Fc;
    assert!(matches!(
        count(6, encoding, probing, CountOptions::default()),
        Err(QueensError::Config(_))
    ));
    // Restarts keep counts exact (the nogoods they record), with or without symmetry.
    let mut restarting = config;
    restarting.restarts = Some(csp_core::Restarts::Luby { scale: 2 });
    for symmetry in [false, true] {
        let options = CountOptions {
            symmetry,
            distinct: true,
            ..CountOptions::default()
        };
        let report = count(8, encoding, restarting.clone(), options).unwrap();
        assert_eq!(
            (report.solutions, report.distinct),
            (92, Some(12)),
            "symmetry {symmetry}"
        );
        assert!(report.stats.restarts > 0);
    }
    assert!(local_search(0, &MinConflicts::default()).is_err());
    assert!(local_search(100_000_001, &MinConflicts::default()).is_err());
    assert!("alldiff:gac".parse::<Encoding>().is_ok());
    assert!("queens".parse::<Encoding>().is_err());
}

#[test]
fn verify_catches_every_kind_of_attack() {
    assert_eq!(verify(&[0]), Ok(()));
    assert_eq!(verify(&[1, 3, 0, 2]), Ok(()));
    assert!(verify(&[1, 3, 0, 4]).unwrap_err().contains("outside"));
    assert!(verify(&[1, 3, 1, 2]).unwrap_err().contains("row"));
    assert!(
        verify(&[0, 2, 4, 1, 3, 5])
            .unwrap_err()
            .contains("columns 0 and 5")
    );
    assert!(verify(&[3, 2, 0, 1]).unwrap_err().contains("diagonal"));
}

#[test]
fn min_conflicts_solves_a_thousand_queens_for_several_seeds() {
    for seed in 0..5 {
        let config = MinConflicts {
            seed,
            ..MinConflicts::default()
        };
        let report = local_search(1000, &config).unwrap();
        assert_eq!(report.status, "solved", "seed {seed}");
        assert_eq!(verify(report.rows.as_deref().unwrap()), Ok(()), "seed {seed}");
        assert_eq!(report.stats.conflicts, 0);
        // Same seed, same run.
        let again = local_search(1000, &config).unwrap();
        assert_eq!((again.rows, again.stats.steps), (report.rows, report.stats.steps));
    }
}

#[test]
fn min_conflicts_on_small_boards_and_without_a_greedy_start() {
    for n in [1, 4, 5, 6, 8, 10] {
        let config = MinConflicts {
            restart_after: Some(100),
            ..MinConflicts::default()
        };
        let report = local_search(n, &config).unwrap();
        assert_eq!(verify(report.rows.as_deref().expect("solved")), Ok(()), "n = {n}");
    }
    for n in [2, 3] {
        assert_eq!(
            local_search(n, &MinConflicts::default()).unwrap().status,
            "unsatisfiable"
        );
    }
    // The counters stay exact under arbitrary moves.
    let mut board = QueensConflicts::new(30).unwrap();
    for (i, row) in [5usize, 7, 7, 29, 0, 5, 13].into_iter().enumerate() {
        board.set_value(i * 4 % 30, row);
        for col in 0..30 {
            for r in 0..30 {
                assert_eq!(
                    board.conflicts(col, r),
                    slow_conflicts(&board, col, r),
                    "col {col} row {r}"
                );
            }
        }
    }
}

/// The queens of other columns that a queen of `col` on `row` would attack, counted one by
/// one. The board counts lines instead, but a queen of another column cannot share both a
/// row and a diagonal with it, so the two agree.
fn slow_conflicts(board: &QueensConflicts, col: usize, row: usize) -> u32 {
    (0..board.num_vars())
        .filter(|&o| o != col)
        .filter(|&o| {
            let q = board.value(o) as i64;
            q == row as i64 || (q - row as i64).abs() == (o as i64 - col as i64).abs()
        })
        .count() as u32
}

#[test]
fn counts_past_254_queens_on_a_line_stay_exact() {
    // A line's count is a byte up to 254; from 255 queens on, it is kept aside.
    let n = 600;
    let mut board = QueensConflicts::new(n).unwrap();
    // Without a start, the first move stacks every queen on row 0.
    board.set_value(0, 0);
    assert_eq!(board.conflicts(1, 0), 599);
    // Down through 255 queens on row 0, and back up.
    let moves = (0..500)
        .map(|col| (col, (col * 7) % n))
        .chain((100..450).map(|col| (col, 0)));
    for (step, (col, row)) in moves.enumerate() {
        board.set_value(col, row);
        for (c, r) in [(col, 0), (col, row), (n - 1, 0), (3, 299), (599, 599)] {
            assert_eq!(
                board.conflicts(c, r),
                slow_conflicts(&board, c, r),
                "step {step}: col {c} row {r}"
            );
        }
    }
    // A search from this board starts afresh and solves it.
    let run = min_conflicts(&mut board, &MinConflicts::default());
    assert_eq!(run.outcome, LocalOutcome::Solved);
    assert_eq!(verify(board.rows()), Ok(()));
}

#[test]
fn the_board_uses_at_most_24_bytes_per_queen() {
    // Finding R3: the board used about 50 bytes per queen (four-byte counts and column XORs
    // for every row and diagonal, and a list of free rows for the greedy start).
    for n in [1_000, 1_000_000] {
        let mut board = QueensConflicts::new(n).unwrap();
        let fresh = board.memory_bytes();
        let run = min_conflicts(&mut board, &MinConflicts::default());
        assert_eq!(run.outcome, LocalOutcome::Solved);
        for bytes in [fresh, board.memory_bytes()] {
            let per_queen = bytes as f64 / n as f64;
            assert!(bytes <= 24 * n, "n = {n}: {per_queen:.2} bytes per queen");
            // The rows alone take 4: a report below that leaves something out.
            assert!(bytes >= 4 * n, "n = {n}: {per_queen:.2} bytes per queen");
        }
    }
}

#[test]
fn step_limit_is_reported() {
    let config = MinConflicts {
        max_steps: 0,
        ..MinConflicts::default()
    };
    let report = local_search(2000, &config).unwrap();
    // The greedy start may already be a solution; otherwise the limit stops it at once.
    match report.outcome {
        Some(LocalOutcome::Solved) => assert!(report.rows.is_some()),
        _ => assert_eq!((report.status, report.stats.steps), ("limit", 0)),
    }
}

#[test]
fn generic_adapter_solves_pairwise_queens_and_map_colouring() {
    let model = pairwise_model(8).unwrap();
    let mut local = ModelConflicts::new(&model);
    let config = MinConflicts {
        restart_after: Some(500),
        seed: 3,
        ..MinConflicts::default()
    };
    let run = min_conflicts(&mut local, &config);
    assert_eq!(run.outcome, LocalOutcome::Solved);
    let rows: Vec<u32> = local.solution().iter().map(|&r| r as u32).collect();
    assert_eq!(verify(&rows), Ok(()));

    let alldiff = Encoding::AllDifferent(Strength::Value).model(10).unwrap();
    let mut local = ModelConflicts::new(&alldiff);
    let run = min_conflicts(&mut local, &config);
    assert_eq!(run.outcome, LocalOutcome::Solved);
    assert!(alldiff.is_solution(&local.solution()));
}

#[test]
fn strategies_are_independent_parts() {
    // A custom strategy object works like its parsed name.
    let s = Strategy::new(VarOrder::MrvDegree, ValueOrder::Lcv, Inference::Mac);
    let report = solve(10, Encoding::Pairwise, SearchConfig::with_strategy(s)).unwrap();
    assert_eq!(verify(&report.rows().unwrap()), Ok(()));
}

#[test]
fn the_time_limit_holds_during_the_greedy_start() {
    // Finding L6: the greedy start of two million queens takes about a second and used to
    // run to the end before the clock was first read.
    let config = csp_core::MinConflicts {
        time: Some(std::time::Duration::from_millis(1)),
        ..csp_core::MinConflicts::default()
    };
    let report = csp_queens::local_search(2_000_000, &config).expect("a board size min-conflicts takes");
    assert_eq!(report.outcome, Some(csp_core::LocalOutcome::TimeLimit));
    assert_eq!(report.stats.steps, 0);
    // Stopped inside the start, not after it: no initial assignment was counted.
    assert_eq!(report.stats.initial_conflicts, 0);
    assert!(report.rows.is_none());
}

#[test]
fn counts_on_several_threads_are_the_sequential_counts() {
    let (encoding, config) = default_count();
    for n in 1..=9 {
        let sequential = count(n, encoding, config.clone(), CountOptions::default()).unwrap();
        for threads in [2, 3, 8] {
            for symmetry in [false, true] {
                let options = CountOptions {
                    symmetry,
                    distinct: true,
                    parallelism: csp_core::Parallelism {
                        threads,
                        ..csp_core::Parallelism::default()
                    },
                };
                let report = count(n, encoding, config.clone(), options).unwrap();
                assert_eq!(report.solutions, A000170[n - 1], "n = {n}, {threads} threads");
                assert_eq!(
                    report.distinct,
                    Some(A002562[n - 1]),
                    "n = {n}, {threads} threads"
                );
                assert!(report.complete);
                if !symmetry {
                    // mrv/asc/fc on binary constraints: the sequential search's nodes.
                    assert_eq!(
                        report.stats.nodes, sequential.stats.nodes,
                        "n = {n}, {threads} threads"
                    );
                }
            }
        }
    }
}

#[test]
fn a_deterministic_solve_on_several_threads_is_the_sequential_one() {
    let config = SearchConfig::with_strategy("mrv/asc/fc".parse().unwrap());
    for n in [4, 8, 13, 20] {
        let sequential = solve(n, Encoding::Pairwise, config.clone()).unwrap();
        for threads in [2, 4] {
            let parallelism = csp_core::Parallelism {
                threads,
                deterministic: true,
                ..csp_core::Parallelism::default()
            };
            let report = csp_queens::solve_with(n, Encoding::Pairwise, config.clone(), parallelism).unwrap();
            assert_eq!(report.outcome, sequential.outcome, "n = {n}, {threads} threads");
        }
    }
}
