//! csp-core on its own, with models built here from `Relation`s: counting all 10-queens
//! solutions under each of the 18 textbook strategies (and with restarts, which record
//! nogoods), AC-3 on a 9x9 pairwise Sudoku, and map colouring (Australia, and a larger
//! synthetic map).
//!
//! `cargo bench --bench core`; sample sizes are small so the whole run takes about a minute.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
use csp_core::{Model, Outcome, Restarts, SearchConfig, Solver, Strategy, ac3};

/// The textbook binary model of n-queens.
fn queens(n: usize) -> Model {
    csp_queens::pairwise_model(n).expect("a board size csp-queens supports")
}

/// A group with few, short samples, so that the whole bench runs in about a minute.
fn short_group<'c>(c: &'c mut Criterion, name: &str) -> BenchmarkGroup<'c, WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    group
}

fn count_all(model: &Model, strategy: Strategy) -> u64 {
    let mut solver = Solver::new(model, SearchConfig::with_strategy(strategy)).expect("no restarts");
    let count = solver.count();
    assert!(count.complete);
    count.solutions
}

fn ten_queens_per_strategy(c: &mut Criterion) {
    let mut group = short_group(c, "count-10-queens");
    // Flat sampling: the slow strategies (lcv without inference) take ~150 ms an iteration.
    group.sampling_mode(SamplingMode::Flat);
    let model = queens(10);
    for strategy in Strategy::textbook() {
        group.bench_function(BenchmarkId::from_parameter(strategy), |b| {
            b.iter(|| assert_eq!(count_all(black_box(&model), strategy), 724))
        });
    }
    group.finish();
}

/// Counting with restarts: every run's finished subtrees become nogoods, so the count stays
/// exact; the cost of recording and propagating them shows against no restarts.
fn ten_queens_with_restarts(c: &mut Criterion) {
    let mut group = short_group(c, "count-10-queens-restarts");
    let model = queens(10);
    let strategy: Strategy = "dom-wdeg/asc/mac".parse().expect("a strategy");
    for (name, restarts) in [
        ("none", None),
        ("luby-10", Some(Restarts::Luby { scale: 10 })),
        ("luby-100", Some(Restarts::Luby { scale: 100 })),
    ] {
        let config = SearchConfig {
            restarts,
            ..SearchConfig::with_strategy(strategy)
        };
        group.bench_function(BenchmarkId::new(strategy.to_string(), name), |b| {
            b.iter(|| {
                let mut solver =
                    Solver::new(black_box(&model), config.clone()).expect("a valid configuration");
                assert_eq!(solver.count().solutions, 724);
            })
        });
    }
    group.finish();
}

/// Seed 000's example puzzle.
const SEED_000: &str = "..8...15......18..3.54....95....9....9.234.7....1....84....59.1..67......53...2..";

/// A 9x9 Sudoku with `!=` between every pair of peers (810 constraints), givens fixed.
fn pairwise_sudoku(puzzle: &str) -> Model {
    let mut model = Model::new();
    let cells = model.int_vars(81, 1, 9).expect("a non-empty range");
    let peers = |a: usize, b: usize| {
        let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
        ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3)
    };
    for a in 0..81 {
        for b in a + 1..81 {
            if peers(a, b) {
                model.not_equal(cells[a], cells[b]).expect("distinct cells");
            }
        }
    }
    for (cell, symbol) in puzzle.chars().enumerate() {
        if let Some(value) = symbol.to_digit(10).filter(|&v| v > 0) {
            model.fix(cells[cell], value as i32).expect("a value in 1..=9");
        }
    }
    model
}

fn ac3_on_sudoku(c: &mut Criterion) {
    let mut group = c.benchmark_group("ac3");
    group.sample_size(20).measurement_time(Duration::from_secs(1));
    let model = pairwise_sudoku(SEED_000);
    assert_eq!(model.constraints().len(), 810);
    let report = ac3(&model);
    assert!(report.consistent && report.removed > 0);
    group.bench_function("sudoku-9x9-pairwise-seed000", |b| {
        b.iter(|| {
            let report = ac3(black_box(&model));
            assert!(report.consistent);
            report.removed
        })
    });
    group.finish();
}

/// AIMA's Australia: WA, NT, SA, Q, NSW, V, T with three colours.
fn australia() -> Model {
    let mut model = Model::new();
    let regions = model.int_vars(7, 0, 2).expect("a non-empty range");
    for (a, b) in [
        (0, 1),
        (0, 2),
        (1, 2),
        (1, 3),
        (2, 3),
        (2, 4),
        (2, 5),
        (3, 4),
        (4, 5),
    ] {
        model.not_equal(regions[a], regions[b]).expect("distinct regions");
    }
    model
}

/// A synthetic map: a `side x side` grid of regions, each bordering its right, lower and
/// lower-right neighbours (a planar triangulation), with `colours` colours.
fn triangulated_map(side: usize, colours: i32) -> Model {
    let mut model = Model::new();
    let regions = model
        .int_vars(side * side, 0, colours - 1)
        .expect("a non-empty range");
    let at = |r: usize, c: usize| regions[r * side + c];
    for r in 0..side {
        for c in 0..side {
            if c + 1 < side {
                model.not_equal(at(r, c), at(r, c + 1)).expect("distinct regions");
            }
            if r + 1 < side {
                model.not_equal(at(r, c), at(r + 1, c)).expect("distinct regions");
            }
            if r + 1 < side && c + 1 < side {
                model
                    .not_equal(at(r, c), at(r + 1, c + 1))
                    .expect("distinct regions");
            }
        }
    }
    model
}

fn solve_one(model: &Model, strategy: Strategy) -> Vec<i32> {
    let mut solver = Solver::new(model, SearchConfig::with_strategy(strategy)).expect("no restarts");
    match solver.solve() {
        Outcome::Solved(values) => values,
        other => panic!("{strategy}: {other:?}"),
    }
}

fn map_colouring(c: &mut Criterion) {
    let mut group = short_group(c, "map-colouring");
    let aus = australia();
    for text in ["static/asc/none", "mrv-degree/lcv/fc", "mrv/asc/mac"] {
        let strategy: Strategy = text.parse().expect("a valid strategy");
        group.bench_function(BenchmarkId::new("australia-solve", text), |b| {
            b.iter(|| solve_one(black_box(&aus), strategy))
        });
    }
    group.bench_function("australia-count-all", |b| {
        b.iter(|| assert_eq!(count_all(black_box(&aus), Strategy::default()), 18))
    });
    let map = triangulated_map(30, 4);
    for text in ["mrv-degree/lcv/fc", "mrv-degree/asc/mac"] {
        let strategy: Strategy = text.parse().expect("a valid strategy");
        assert!(map.is_solution(&solve_one(&map, strategy)));
        group.bench_function(BenchmarkId::new("triangulated-30x30-4-colours", text), |b| {
            b.iter(|| solve_one(black_box(&map), strategy))
        });
    }
    group.finish();
}

/// The generated `benches` function has no doc comment of its own.
#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group!(
        benches,
        ten_queens_per_strategy,
        ten_queens_with_restarts,
        ac3_on_sudoku,
        map_colouring
    );
}
criterion_main!(group::benches);
