//! Solving Sudoku on csp-core, checked end to end: every seed puzzle under every model,
//! exact solution counts, puzzles without a solution, all 18 textbook strategies agreeing with
//! each other and with a brute-force oracle, node and time limits, count caps, and boards of
//! order 4 and 5. Every solution returned is checked with `Grid::is_solution_of`.
//!
//! Only the small files of `data/sudoku/` are read. The pairwise model with inference `none`
//! is run on 9x9 only where it is quick (s3) or under a node limit.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use csp_core::{Branching, LimitKind, Limits, SearchConfig, Solver, Stats, Strategy, Strength};
use csp_sudoku::{
    CountedReader, Grid, ModelKind, PuzzleReader, Status, SudokuModel, count, default_strategy, parse_puzzle,
    solve,
};

// ---------------------------------------------------------------------------------------------
// Shipped data

/// The text of a file of `data/sudoku/`.
fn data(name: &str) -> String {
    let path = format!("{}/../data/sudoku/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The puzzles of a line-format file, all expected valid.
fn puzzles(name: &str) -> Vec<Grid> {
    PuzzleReader::new(&data(name))
        .map(|(line, r)| r.unwrap_or_else(|e| panic!("{name}:{line}: {e}")))
        .collect()
}

/// The seed puzzles with the comment line naming each.
fn seeds() -> Vec<(String, Grid)> {
    let text = data("seeds.txt");
    let mut label = String::new();
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(comment) = line.strip_prefix('#') {
            label = comment.trim().to_string();
        } else {
            let grid: Grid = line.parse().unwrap_or_else(|e| panic!("{label}: {e}"));
            out.push((label.clone(), grid));
        }
    }
    assert_eq!(
        out.len(),
        14,
        "000, the ten of 001, s2, s3 and the empty grid of 002"
    );
    out
}

fn seed(prefix: &str) -> Grid {
    seeds()
        .into_iter()
        .find(|(label, _)| label.starts_with(prefix))
        .unwrap_or_else(|| panic!("no seed labelled {prefix}"))
        .1
}

/// Seed 000's printed solution.
fn printed_solution() -> Grid {
    puzzles("seeds-solutions.txt").remove(0)
}

/// The unsolvable 4x4 (last of `4x4.txt`) and 9x9.
fn unsolvable() -> Vec<Grid> {
    vec![
        puzzles("4x4.txt").pop().unwrap(),
        puzzles("no-solution-9x9.txt").remove(0),
    ]
}

// ---------------------------------------------------------------------------------------------
// Configurations and runs

fn strategy(text: &str) -> Strategy {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn config(strategy: Strategy) -> SearchConfig {
    SearchConfig::with_strategy(strategy)
}

fn with_nodes(strategy: Strategy, nodes: u64) -> SearchConfig {
    SearchConfig {
        limits: Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        ..config(strategy)
    }
}

/// The rules of every model for `order`.
/// Every model kind with its usual locked candidates (pairwise first, alldiff-value
/// second), then every all-different strength with locked candidates, which the default
/// model has from 9x9 up.
fn every_model(order: usize) -> Vec<SudokuModel> {
    let kinds = ModelKind::all();
    let usual = kinds.iter().map(|&kind| SudokuModel::new(order, kind));
    let locked = kinds
        .iter()
        .filter(|kind| **kind != ModelKind::Pairwise)
        .map(|&kind| SudokuModel::build(order, kind, true));
    usual.chain(locked).collect()
}

/// Solves and insists on a checked solution.
fn solved(rules: &SudokuModel, puzzle: &Grid, config: &SearchConfig) -> Grid {
    let what = format!("{} {} on {puzzle}", rules.kind(), config.strategy);
    let report = solve(rules, puzzle, config);
    assert_eq!(report.status, Status::Solved, "{what}");
    assert!(report.limit.is_none(), "{what}");
    let solution = report.solution.unwrap_or_else(|| panic!("{what}: no solution"));
    assert!(
        solution.is_solution_of(puzzle),
        "{what}: {solution} does not solve it"
    );
    solution
}

/// Every solution found by enumeration, each checked, and the search statistics.
fn solution_set(rules: &SudokuModel, puzzle: &Grid, config: &SearchConfig) -> (BTreeSet<String>, Stats) {
    let model = rules.with_givens(puzzle);
    let mut solver = Solver::new(&model, config.clone()).unwrap();
    let mut set = BTreeSet::new();
    let stopped = solver.for_each_solution(|values| {
        assert!(model.is_solution(values), "{values:?} breaks a constraint");
        let grid = rules.grid_of(values);
        assert!(grid.is_solution_of(puzzle), "{grid} does not solve {puzzle}");
        assert!(set.insert(grid.to_string()), "{grid} found twice");
        true
    });
    assert_eq!(stopped, None, "enumeration stopped by a limit");
    (set, solver.stats().clone())
}

/// The counters of a run (everything but the time).
fn counters(stats: &Stats) -> [u64; 8] {
    [
        stats.nodes,
        stats.backtracks,
        stats.checks,
        stats.pruned,
        stats.revisions,
        stats.propagations,
        stats.max_depth,
        stats.solutions,
    ]
}

// ---------------------------------------------------------------------------------------------
// A brute-force oracle for 4x4, independent of csp-core and of `Grid`'s checks

/// Every complete 4x4 grid, as cell vectors, by filling cells in order with the values that
/// differ from the row, column and box filled so far.
fn all_4x4_grids() -> Vec<Vec<u8>> {
    fn fill(cells: &mut [u8; 16], at: usize, out: &mut Vec<Vec<u8>>) {
        if at == 16 {
            out.push(cells.to_vec());
            return;
        }
        let (r, c) = (at / 4, at % 4);
        for v in 1..=4u8 {
            let clash = (0..at).any(|j| {
                let (r2, c2) = (j / 4, j % 4);
                cells[j] == v && (r2 == r || c2 == c || (r2 / 2 == r / 2 && c2 / 2 == c / 2))
            });
            if !clash {
                cells[at] = v;
                fill(cells, at + 1, out);
                cells[at] = 0;
            }
        }
    }
    let mut out = Vec::new();
    fill(&mut [0; 16], 0, &mut out);
    out
}

/// The solutions of a 4x4 puzzle according to the brute-force oracle, in line format.
fn oracle_4x4(puzzle: &Grid) -> BTreeSet<String> {
    all_4x4_grids()
        .into_iter()
        .filter(|g| g.iter().zip(puzzle.cells()).all(|(&s, &p)| p == 0 || s == p))
        .map(|g| g.iter().map(|v| char::from(b'0' + v)).collect())
        .collect()
}

/// The 4x4 puzzles of the data folder: the four of `4x4.txt`, the empty grid and s2.
fn all_4x4_puzzles() -> Vec<Grid> {
    let mut all = puzzles("4x4.txt");
    all.extend(puzzles("empty-4x4.txt"));
    all.push(seed("seed 003 (AIMA CSP paper): s2"));
    assert!(all.iter().all(|p| p.order() == 2));
    all
}

// ---------------------------------------------------------------------------------------------
// Seeds

#[test]
fn every_seed_puzzle_solves_under_every_model() {
    let printed = printed_solution();
    for (label, puzzle) in seeds() {
        let reference = SudokuModel::default_for(puzzle.order());
        let unique = count(&reference, &puzzle, &config(default_strategy()), Some(2));
        assert_eq!(
            unique.is_unique(),
            !label.starts_with("seed 002"),
            "{label}: uniqueness"
        );
        for rules in every_model(puzzle.order()) {
            for strategy in [
                default_strategy(),
                strategy("mrv/asc/fc"),
                strategy("mrv-degree/lcv/mac"),
            ] {
                let what = format!("{label}: {} {strategy}", rules.kind());
                let solution = solved(&rules, &puzzle, &config(strategy));
                if label.starts_with("seed 000") {
                    assert_eq!(solution, printed, "{what}");
                }
                if label.starts_with("seed 002") {
                    assert!(solution.is_solved(), "{what}: the empty 9x9 grid solves");
                }
                // A puzzle with one solution gives it under every model and strategy.
                if unique.is_unique() {
                    assert_eq!(Some(&solution), unique.first.as_ref(), "{what}");
                }
            }
        }
    }
}

#[test]
fn seed_000_grid_file_solves_to_the_printed_solution() {
    let puzzle = parse_puzzle(&data("seed000.txt")).unwrap();
    assert_eq!(puzzle, seed("seed 000"));
    assert_eq!(puzzle.givens(), 27);
    let rules = SudokuModel::default_for(3);
    assert_eq!(
        solved(&rules, &puzzle, &config(default_strategy())),
        printed_solution()
    );
    let report = count(&rules, &puzzle, &config(default_strategy()), Some(2));
    assert!(report.is_unique(), "{:?} {}", report.status, report.solutions);
    assert_eq!(report.first, Some(printed_solution()));
}

#[test]
fn the_empty_9x9_grid_solves_with_the_textbook_model_too() {
    let empty = Grid::empty(3).unwrap();
    assert_eq!(seed("seed 002"), empty);
    let pairwise = SudokuModel::new(3, ModelKind::Pairwise);
    for text in [
        "static/asc/none",
        "static/asc/fc",
        "mrv/asc/fc",
        "mrv-degree/lcv/mac",
    ] {
        let report = solve(&pairwise, &empty, &with_nodes(strategy(text), 10_000));
        assert_eq!(report.status, Status::Solved, "{text}");
        assert!(report.solution.unwrap().is_solution_of(&empty), "{text}");
    }
}

// ---------------------------------------------------------------------------------------------
// Counts

#[test]
fn the_empty_4x4_grid_has_288_solutions_under_every_model_and_strategy() {
    let empty = puzzles("empty-4x4.txt").remove(0);
    assert_eq!(empty, Grid::empty(2).unwrap());
    assert_eq!(all_4x4_grids().len(), 288, "the oracle agrees");
    for rules in every_model(2) {
        for text in [
            "static/asc/none",
            "static/asc/fc",
            "static/lcv/mac",
            "mrv/asc/none",
            "mrv/lcv/fc",
            "mrv-degree/asc/mac",
            "mrv-degree/lcv/none",
        ] {
            let report = count(&rules, &empty, &config(strategy(text)), None);
            let what = format!("{} {text}", rules.kind());
            assert_eq!(report.status, Status::Solved, "{what}");
            assert_eq!(report.solutions, 288, "{what}");
            assert_eq!(report.stats.solutions, 288, "{what}");
            assert!(report.first.unwrap().is_solution_of(&empty), "{what}");
        }
    }
}

#[test]
fn counts_sample_matches_exactly_under_every_model() {
    let text = data("counts-sample.txt");
    let lines: Vec<_> = CountedReader::new(&text)
        .map(|(line, r)| {
            (
                line,
                r.unwrap_or_else(|e| panic!("counts-sample.txt:{line}: {e}")),
            )
        })
        .collect();
    assert_eq!(lines.len(), 15);
    assert_eq!(lines.iter().filter(|(_, c)| c.count == 0).count(), 3);
    assert_eq!(lines.iter().filter(|(_, c)| c.count == 1).count(), 8);
    for rules in every_model(3) {
        for (line, expected) in &lines {
            let what = format!("line {line}, {}", rules.kind());
            let report = count(&rules, &expected.puzzle, &config(default_strategy()), None);
            assert_eq!(report.solutions, expected.count, "{what}");
            let status = if expected.count == 0 {
                Status::Unsatisfiable
            } else {
                Status::Solved
            };
            assert_eq!(report.status, status, "{what}");
            assert_eq!(report.is_unique(), expected.count == 1, "{what}");
            match &report.first {
                Some(first) => assert!(first.is_solution_of(&expected.puzzle), "{what}"),
                None => assert_eq!(expected.count, 0, "{what}"),
            }
            if let Some(solution) = &expected.solution {
                assert_eq!(report.first.as_ref(), Some(solution), "{what}");
            }
        }
    }
}

#[test]
fn puzzles_without_a_solution_are_unsatisfiable_under_every_model() {
    for puzzle in unsolvable() {
        for rules in every_model(puzzle.order()) {
            for text in ["mrv/asc/fc", "mrv/asc/mac", "mrv-degree/lcv/mac"] {
                let what = format!("{} {text} on {puzzle}", rules.kind());
                let report = solve(&rules, &puzzle, &config(strategy(text)));
                assert_eq!(report.status, Status::Unsatisfiable, "{what}");
                assert!(report.solution.is_none() && report.limit.is_none(), "{what}");
                let counted = count(&rules, &puzzle, &config(strategy(text)), Some(2));
                assert_eq!(
                    (counted.status, counted.solutions),
                    (Status::Unsatisfiable, 0),
                    "{what}"
                );
                assert!(counted.first.is_none(), "{what}");
            }
        }
    }
    // On the 4x4, every textbook strategy proves it.
    let puzzle = unsolvable().remove(0);
    for rules in every_model(2) {
        for strategy in Strategy::textbook() {
            let report = solve(&rules, &puzzle, &config(strategy));
            assert_eq!(
                report.status,
                Status::Unsatisfiable,
                "{} {strategy}",
                rules.kind()
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Strategies agree

#[test]
fn textbook_strategies_agree_on_every_4x4_solution_set() {
    for puzzle in all_4x4_puzzles() {
        let expected = oracle_4x4(&puzzle);
        for strategy in Strategy::textbook() {
            let mut nodes = Vec::new();
            for rules in every_model(2) {
                let (set, stats) = solution_set(&rules, &puzzle, &config(strategy));
                assert_eq!(set, expected, "{} {strategy} on {puzzle}", rules.kind());
                assert_eq!(stats.solutions, expected.len() as u64);
                nodes.push(stats.nodes);
            }
            // All-different at strength `value` prunes exactly like pairwise `!=`.
            assert_eq!(
                nodes[0], nodes[1],
                "pairwise vs alldiff-value, {strategy} on {puzzle}"
            );
        }
    }
    // The oracle itself: three ordinary puzzles with solutions, the last with none.
    let sizes: Vec<usize> = puzzles("4x4.txt").iter().map(|p| oracle_4x4(p).len()).collect();
    assert!(sizes[..3].iter().all(|&n| n >= 1) && sizes[3] == 0, "{sizes:?}");
}

/// Branching on places finds every 4x4 puzzle's solution set under every model and the
/// strategies with inference, and the seed puzzles' one solution with the default
/// strategy, as branching on variables does.
#[test]
fn branching_on_places_agrees_with_the_oracle_and_the_seeds() {
    let on_places = |text: &str| SearchConfig {
        branching: Branching::Places,
        ..config(strategy(text))
    };
    let strategies = [
        "mrv/asc/fc",
        "mrv/lcv/mac",
        "dom-wdeg-fixed/asc/mac",
        "static/asc/mac",
    ];
    let mut decisions = 0;
    for puzzle in all_4x4_puzzles() {
        let expected = oracle_4x4(&puzzle);
        for rules in every_model(2) {
            for text in strategies {
                let (set, stats) = solution_set(&rules, &puzzle, &on_places(text));
                assert_eq!(set, expected, "{} {text} on {puzzle}", rules.kind());
                decisions += stats.place_decisions;
            }
        }
    }
    assert!(decisions > 0, "some 4x4 decisions were on places");
    for (label, puzzle) in seeds() {
        let rules = SudokuModel::default_for(puzzle.order());
        let expected = count(&rules, &puzzle, &config(default_strategy()), Some(2));
        let config = SearchConfig {
            branching: Branching::Places,
            ..config(default_strategy())
        };
        let report = count(&rules, &puzzle, &config, Some(2));
        assert_eq!(report.solutions, expected.solutions, "{label}");
        if expected.is_unique() {
            assert_eq!(report.first, expected.first, "{label}");
        }
        if let Some(first) = &report.first {
            assert!(first.is_solution_of(&puzzle), "{label}");
        }
    }
}

#[test]
fn textbook_strategies_agree_on_s2_and_s3() {
    for label in ["seed 003 (AIMA CSP paper): s2", "seed 003 (AIMA CSP paper): s3"] {
        let puzzle = seed(label);
        let reference = SudokuModel::default_for(puzzle.order());
        let unique = count(&reference, &puzzle, &config(default_strategy()), Some(2));
        assert!(unique.is_unique(), "{label} has one solution");
        let answer = unique.first.unwrap();
        for strategy in Strategy::textbook() {
            let mut nodes = Vec::new();
            for rules in every_model(puzzle.order()) {
                let report = solve(&rules, &puzzle, &with_nodes(strategy, 1_000_000));
                let what = format!("{label}: {} {strategy}", rules.kind());
                assert_eq!(report.status, Status::Solved, "{what}");
                assert_eq!(report.solution.as_ref(), Some(&answer), "{what}");
                // Every blank is filled by search or inference; search never assigns more.
                assert!(report.stats.max_depth <= (puzzle.cells().len() - puzzle.givens()) as u64);
                nodes.push(report.stats.nodes);
            }
            assert_eq!(
                nodes[0], nodes[1],
                "{label}: pairwise vs alldiff-value, {strategy}"
            );
        }
    }
}

#[test]
fn search_statistics_are_identical_on_every_run() {
    let hard = puzzles("top95-sample.txt").remove(0);
    let s3 = seed("seed 003 (AIMA CSP paper): s3");
    for (puzzle, kind, text) in [
        (&hard, ModelKind::AllDiff(Strength::Gac), "mrv/asc/mac"),
        (&hard, ModelKind::AllDiff(Strength::Hidden), "mrv-degree/lcv/fc"),
        (&s3, ModelKind::Pairwise, "static/asc/none"),
        (&s3, ModelKind::Pairwise, "mrv/lcv/mac"),
    ] {
        let rules = SudokuModel::new(puzzle.order(), kind);
        let runs: Vec<_> = (0..3)
            .map(|_| solve(&rules, puzzle, &config(strategy(text))))
            .collect();
        for run in &runs[1..] {
            assert_eq!(counters(&run.stats), counters(&runs[0].stats), "{kind} {text}");
            assert_eq!(run.solution, runs[0].solution, "{kind} {text}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Limits and caps

#[test]
fn node_limits_give_limit_status() {
    let nosol = puzzles("no-solution-9x9.txt").remove(0);
    let hard = puzzles("top95-sample.txt").remove(0);
    for (puzzle, kind, text, nodes) in [
        (&nosol, ModelKind::Pairwise, "static/asc/none", 2_000),
        (&hard, ModelKind::Pairwise, "static/asc/none", 2_000),
        (&hard, ModelKind::Pairwise, "mrv/asc/fc", 100),
        (&hard, ModelKind::AllDiff(Strength::Value), "mrv/lcv/mac", 10),
        (&hard, ModelKind::AllDiff(Strength::Gac), "mrv/asc/mac", 1),
    ] {
        let rules = SudokuModel::new(3, kind);
        let what = format!("{kind} {text}, {nodes} nodes");
        let report = solve(&rules, puzzle, &with_nodes(strategy(text), nodes));
        assert_eq!(report.status, Status::Limit, "{what}");
        assert_eq!(report.limit, Some(LimitKind::Nodes), "{what}");
        assert!(report.solution.is_none(), "{what}");
        assert!(
            report.stats.nodes <= nodes,
            "{what}: {} nodes",
            report.stats.nodes
        );
        let counted = count(&rules, puzzle, &with_nodes(strategy(text), nodes), Some(2));
        assert_eq!(
            (counted.status, counted.limit),
            (Status::Limit, Some(LimitKind::Nodes)),
            "{what}"
        );
        assert!(!counted.is_unique(), "{what}");
    }
    // Counting the empty 9x9 grid ends at the node limit, with the solutions found so far.
    let rules = SudokuModel::default_for(3);
    let report = count(
        &rules,
        &Grid::empty(3).unwrap(),
        &with_nodes(default_strategy(), 5_000),
        None,
    );
    assert_eq!(report.status, Status::Limit);
    assert!(report.solutions > 0 && report.stats.nodes <= 5_000);
    assert!(report.first.unwrap().is_solved());
    // A limit the search does not reach changes nothing.
    let unlimited = solve(&rules, &hard, &config(default_strategy()));
    let limited = solve(&rules, &hard, &with_nodes(default_strategy(), 1_000_000));
    assert_eq!(limited.status, Status::Solved);
    assert_eq!(limited.solution, unlimited.solution);
    assert_eq!(counters(&limited.stats), counters(&unlimited.stats));
}

#[test]
fn time_limits_stop_a_count_that_would_never_end() {
    let rules = SudokuModel::new(3, ModelKind::Pairwise);
    let config = SearchConfig {
        limits: Limits {
            time: Some(Duration::from_millis(100)),
            ..Limits::default()
        },
        ..config(strategy("mrv/asc/fc"))
    };
    let started = Instant::now();
    let report = count(&rules, &Grid::empty(3).unwrap(), &config, None);
    assert_eq!(
        (report.status, report.limit),
        (Status::Limit, Some(LimitKind::Time))
    );
    assert!(report.solutions > 0);
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn count_caps_give_capped_status() {
    let rules = SudokuModel::default_for(2);
    let empty4 = Grid::empty(2).unwrap();
    for cap in [1, 2, 10, 287] {
        let report = count(&rules, &empty4, &config(default_strategy()), Some(cap));
        assert_eq!(
            (report.status, report.solutions),
            (Status::Capped, cap),
            "cap {cap}"
        );
        assert!(report.limit.is_none() && !report.is_unique());
    }
    for cap in [288, 289, 1000] {
        let report = count(&rules, &empty4, &config(default_strategy()), Some(cap));
        let expected = if cap == 288 {
            Status::Capped
        } else {
            Status::Solved
        };
        assert_eq!((report.status, report.solutions), (expected, 288), "cap {cap}");
    }
    let empty9 = Grid::empty(3).unwrap();
    let report = count(
        &SudokuModel::new(3, ModelKind::Pairwise),
        &empty9,
        &config(strategy("mrv/asc/fc")),
        Some(3),
    );
    assert_eq!((report.status, report.solutions), (Status::Capped, 3));

    // On the sample with known counts, a cap of 2 tells unique from several from none.
    let text = data("counts-sample.txt");
    let rules = SudokuModel::default_for(3);
    for (line, expected) in CountedReader::new(&text).map(|(l, r)| (l, r.unwrap())) {
        let report = count(&rules, &expected.puzzle, &config(default_strategy()), Some(2));
        let (status, solutions) = match expected.count {
            0 => (Status::Unsatisfiable, 0),
            1 => (Status::Solved, 1),
            _ => (Status::Capped, 2),
        };
        assert_eq!(
            (report.status, report.solutions),
            (status, solutions),
            "line {line}"
        );
        assert_eq!(report.is_unique(), expected.count == 1, "line {line}");
        // A cap above the count makes the count exact.
        let exact = count(
            &rules,
            &expected.puzzle,
            &config(default_strategy()),
            Some(expected.count + 1),
        );
        assert_eq!(exact.solutions, expected.count, "line {line}");
        assert_ne!(exact.status, Status::Capped, "line {line}");
    }
}

// ---------------------------------------------------------------------------------------------
// Larger boards

#[test]
fn hard_9x9_sample_solves_uniquely_with_all_different_reasoning() {
    for kind in [
        ModelKind::AllDiff(Strength::Gac),
        ModelKind::AllDiff(Strength::Hidden),
    ] {
        let rules = SudokuModel::new(3, kind);
        for puzzle in puzzles("top95-sample.txt") {
            let report = count(&rules, &puzzle, &config(default_strategy()), Some(2));
            assert!(report.is_unique(), "{kind} on {puzzle}: {:?}", report.status);
            assert!(report.first.unwrap().is_solution_of(&puzzle));
        }
    }
}

#[test]
fn orders_4_and_5_solve_with_the_default_model() {
    for (file, order, expected) in [
        ("janko-16x16-sample.txt", 4, 3),
        ("generated-25x25-375-sample.txt", 5, 2),
    ] {
        let all = puzzles(file);
        assert_eq!(all.len(), expected, "{file}");
        let rules = SudokuModel::default_for(order);
        for puzzle in &all {
            assert_eq!(puzzle.order(), order);
            let solution = solved(&rules, puzzle, &config(default_strategy()));
            let report = count(&rules, puzzle, &config(default_strategy()), Some(2));
            assert!(report.is_unique(), "{file}: {puzzle}");
            assert_eq!(report.first.as_ref(), Some(&solution), "{file}");
        }
    }
    // The 25x25 samples are easy enough for every model.
    for puzzle in puzzles("generated-25x25-375-sample.txt") {
        for rules in every_model(5) {
            solved(&rules, &puzzle, &config(strategy("mrv/asc/fc")));
        }
    }
}

#[test]
fn root_singles_change_nothing_but_the_work() {
    // `with_givens_for` excludes what singles (and locked candidates, in models with them)
    // rule out before search; under MAC the search must make exactly the same choices as
    // from the bare givens.
    let mut all: Vec<Grid> = [
        "top95-sample.txt",
        "17-clue-sample.txt",
        "counts-sample.txt",
        "janko-16x16-sample.txt",
    ]
    .into_iter()
    .flat_map(|file| match file {
        "counts-sample.txt" => CountedReader::new(&data(file))
            .map(|(_, r)| r.unwrap().puzzle)
            .collect::<Vec<_>>(),
        _ => puzzles(file),
    })
    .collect();
    all.extend(unsolvable());
    all.extend(seeds().into_iter().map(|(_, grid)| grid));
    for (kind, locked) in [
        (ModelKind::AllDiff(Strength::Gac), false),
        (ModelKind::AllDiff(Strength::Hidden), false),
        (ModelKind::AllDiff(Strength::Gac), true),
        (ModelKind::AllDiff(Strength::Hidden), true),
    ] {
        for strategy_text in ["dom-wdeg/asc/mac", "dom-wdeg-fixed/asc/mac", "mrv/asc/mac"] {
            let config = config(strategy(strategy_text));
            for puzzle in &all {
                let rules = SudokuModel::build(puzzle.order(), kind, locked);
                let run = |model: csp_core::Model| {
                    let mut solver = Solver::new(&model, config.clone()).unwrap();
                    let mut found = Vec::new();
                    solver.for_each_solution(|values| {
                        found.push(rules.grid_of(values).to_string());
                        found.len() < 3
                    });
                    let stats = solver.stats();
                    (found, stats.nodes, stats.backtracks, stats.max_depth)
                };
                let plain = run(rules.with_givens(puzzle));
                let pruned = run(rules.with_givens_for(puzzle, config.strategy.inference));
                assert_eq!(
                    plain, pruned,
                    "{kind} locked {locked} {strategy_text} on {puzzle}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Locked candidates

/// Locked candidates (each box linked with the lines it crosses) only add pruning: with
/// them and without, every 4x4 puzzle has exactly the oracle's solutions, and each 9x9
/// seed and 16x16 sample puzzle gets the same solution count (capped at 2) and the same
/// first solution, a checked one.
#[test]
fn locked_candidates_keep_every_solution() {
    let config = config(strategy("mrv/asc/mac"));
    for locked in [true, false] {
        for strength in Strength::ALL {
            let rules = SudokuModel::build(2, ModelKind::AllDiff(strength), locked);
            for puzzle in all_4x4_puzzles() {
                let (set, _) = solution_set(&rules, &puzzle, &config);
                assert_eq!(
                    set,
                    oracle_4x4(&puzzle),
                    "locked {locked}, {strength:?} on {puzzle}"
                );
            }
        }
    }
    let mut larger: Vec<Grid> = seeds()
        .into_iter()
        .map(|(_, g)| g)
        .filter(|g| g.order() == 3)
        .collect();
    larger.extend(puzzles("janko-16x16-sample.txt"));
    for puzzle in larger {
        let reports: Vec<(u64, Option<Grid>)> = [true, false]
            .into_iter()
            .map(|locked| {
                let rules = SudokuModel::build(puzzle.order(), ModelKind::AllDiff(Strength::Gac), locked);
                let report = count(&rules, &puzzle, &config, Some(2));
                if let Some(first) = &report.first {
                    assert!(first.is_solution_of(&puzzle), "{first} does not solve {puzzle}");
                }
                (report.solutions, report.first)
            })
            .collect();
        assert!(reports[0].0 >= 1, "{puzzle} has a solution");
        assert_eq!(reports[0], reports[1], "locked on and off disagree on {puzzle}");
    }
}
