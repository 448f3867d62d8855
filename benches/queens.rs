//! n-queens benchmarks: counting per strategy, csp-core against a plain bitboard
//! counter (the baseline), first solution at n = 1000, min-conflicts at n = 100,000.
//!
//! `cargo bench --bench queens`; sample sizes are small so the whole run takes a few
//! minutes.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use csp_core::{MinConflicts, SearchConfig, Strength};
use csp_queens::{CountOptions, Encoding, count, default_count, default_solve, local_search, solve};

/// The baseline: a plain recursive bitboard counter (columns, and both diagonals
/// shifted one square per row), optionally with the mirror symmetry.
fn bitboard_count(n: u32, symmetry: bool) -> u64 {
    fn go(all: u64, cols: u64, down: u64, up: u64) -> u64 {
        if cols == all {
            return 1;
        }
        let mut free = all & !(cols | down | up);
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            total += go(all, cols | bit, ((down | bit) << 1) & all, (up | bit) >> 1);
        }
        total
    }
    let all = (1u64 << n) - 1;
    if !symmetry {
        return go(all, 0, 0, 0);
    }
    let first = |r: u32| {
        let bit = 1u64 << r;
        go(all, bit, (bit << 1) & all, bit >> 1)
    };
    let half: u64 = (0..n / 2).map(first).sum();
    2 * half + if n % 2 == 1 { first(n / 2) } else { 0 }
}

fn csp_count(n: usize, encoding: Encoding, config: SearchConfig, symmetry: bool) -> u64 {
    let options = CountOptions {
        symmetry,
        distinct: false,
        ..CountOptions::default()
    };
    count(n, encoding, config, options).expect("valid").solutions
}

fn count_ten_per_strategy(c: &mut Criterion) {
    let mut group = c.benchmark_group("count-10");
    group.sample_size(10).measurement_time(Duration::from_secs(2));
    let alldiff = Encoding::AllDifferent(Strength::Value);
    for (encoding, strategy) in [
        (Encoding::Pairwise, "static/asc/none"),
        (Encoding::Pairwise, "static/asc/fc"),
        (Encoding::Pairwise, "mrv/asc/fc"),
        (Encoding::Pairwise, "mrv/asc/mac"),
        (alldiff, "mrv/asc/fc"),
    ] {
        let config = SearchConfig::with_strategy(strategy.parse().unwrap());
        group.bench_function(BenchmarkId::new(encoding.to_string(), strategy), |b| {
            b.iter(|| assert_eq!(csp_count(10, encoding, config.clone(), false), 724))
        });
    }
    group.finish();
}

fn count_against_bitboard(c: &mut Criterion) {
    let mut group = c.benchmark_group("count-vs-bitboard");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    let (encoding, config) = default_count();
    for (n, expected) in [(12u32, 14_200u64), (14, 365_596)] {
        for symmetry in [false, true] {
            let tag = if symmetry { "symmetry" } else { "plain" };
            group.bench_function(BenchmarkId::new(format!("bitboard-{tag}"), n), |b| {
                b.iter(|| assert_eq!(bitboard_count(black_box(n), symmetry), expected))
            });
            if n == 14 && !symmetry {
                continue; // the full csp-core count of 14 is in the README table, not here
            }
            group.bench_function(BenchmarkId::new(format!("csp-core-{tag}"), n), |b| {
                b.iter(|| {
                    assert_eq!(
                        csp_count(n as usize, encoding, config.clone(), symmetry),
                        expected
                    )
                })
            });
        }
    }
    group.finish();
}

fn first_solution_and_local_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("large-n");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    group.bench_function("solve-default-1000", |b| {
        b.iter(|| {
            let (encoding, config) = default_solve(1000);
            assert!(solve(1000, encoding, config).unwrap().rows().is_some());
        })
    });
    group.bench_function("min-conflicts-100000", |b| {
        b.iter(|| {
            assert_eq!(
                local_search(100_000, &MinConflicts::default()).unwrap().status,
                "solved"
            )
        })
    });
    group.finish();
}

/// Counting 12 queens (the default count) on 1, 2 and 4 threads: the speed-up of parallel
/// search, side by side in one run.
fn count_on_threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("count-12-threads");
    group.sample_size(10).measurement_time(Duration::from_secs(3));
    for threads in [1, 2, 4] {
        group.bench_function(BenchmarkId::from_parameter(threads), |b| {
            b.iter(|| {
                let (encoding, config) = default_count();
                let options = CountOptions {
                    parallelism: csp_core::Parallelism {
                        threads,
                        ..csp_core::Parallelism::default()
                    },
                    ..CountOptions::default()
                };
                assert_eq!(count(12, encoding, config, options).unwrap().solutions, 14_200);
            })
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
        count_ten_per_strategy,
        count_against_bitboard,
        first_solution_and_local_search,
        count_on_threads
    );
}
criterion_main!(group::benches);
