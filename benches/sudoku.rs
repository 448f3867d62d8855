//! Sudoku benchmarks with the default model and strategy: solving and proving uniqueness
//! (counting up to 2) on a representative puzzle of each order from `data/sudoku/`, and
//! throughput on the first 200 puzzles of three large 9x9 collections when
//! `../shared/data/sudoku/` is present (skipped otherwise).
//!
//! `cargo bench --bench sudoku`; sample sizes are small so the whole run takes a couple of
//! minutes. `scripts/bench-collections.sh` measures whole collections with the CLI.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use csp_sudoku::{Grid, PuzzleReader, Status, SudokuModel, count, default_config, solve};

/// Puzzles taken from each large collection.
const COLLECTION_SAMPLE: usize = 200;

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/sudoku")
        .join(name)
}

/// The large collections, next to the project (`../shared/data/sudoku`).
fn collections_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/sudoku")
}

/// Up to `limit` valid puzzles of a line-format file.
fn read_puzzles(path: &Path, limit: usize) -> Vec<Grid> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    PuzzleReader::new(&text)
        .filter_map(|(_, r)| r.ok())
        .take(limit)
        .collect()
}

/// The `index`-th puzzle of a shipped file.
fn puzzle(name: &str, index: usize) -> Grid {
    read_puzzles(&shipped(name), index + 1)
        .pop()
        .unwrap_or_else(|| panic!("{name} has no puzzle {index}"))
}

/// The puzzle of a shipped file that takes the default strategy the most nodes to prove
/// unique (node counts are deterministic, so the choice is stable).
fn hardest(name: &str) -> Grid {
    let rules = SudokuModel::default_for(3);
    read_puzzles(&shipped(name), usize::MAX)
        .into_iter()
        .max_by_key(|grid| count(&rules, grid, &default_config(3), Some(2)).stats.nodes)
        .unwrap_or_else(|| panic!("{name} has no puzzle"))
}

fn representative(c: &mut Criterion) {
    let puzzles = [
        ("4x4", puzzle("4x4.txt", 0)),
        ("9x9-seed000", puzzle("seeds.txt", 0)),
        ("9x9-top95-hard", hardest("top95-sample.txt")),
        ("16x16-janko", puzzle("janko-16x16-sample.txt", 0)),
        ("25x25-375-clues", puzzle("generated-25x25-375-sample.txt", 0)),
    ];
    let mut group = c.benchmark_group("sudoku");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, grid) in &puzzles {
        let rules = SudokuModel::default_for(grid.order());
        let config = default_config(grid.order());
        // Check once outside the timing: the puzzle solves and is unique.
        let first = solve(&rules, grid, &config);
        assert!(
            first.solution.as_ref().is_some_and(|s| s.is_solution_of(grid)),
            "{name}"
        );
        assert!(count(&rules, grid, &config, Some(2)).is_unique(), "{name}");

        group.bench_function(BenchmarkId::new("solve", name), |b| {
            b.iter(|| {
                let report = solve(&rules, black_box(grid), &config);
                assert_eq!(report.status, Status::Solved);
                report.stats.nodes
            })
        });
        group.bench_function(BenchmarkId::new("unique", name), |b| {
            b.iter(|| {
                let report = count(&rules, black_box(grid), &config, Some(2));
                assert!(report.is_unique());
                report.stats.nodes
            })
        });
    }
    group.finish();
}

fn collections(c: &mut Criterion) {
    let dir = collections_dir();
    if !dir.is_dir() {
        eprintln!("skipping the collections group: {} is absent", dir.display());
        return;
    }
    let config = default_config(3);
    let rules = SudokuModel::default_for(3);
    let mut group = c.benchmark_group("collections");
    // Flat sampling: one iteration (200 puzzles) of forum-hardest takes about a second.
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    for file in ["17-clue.txt", "magictour-top1465.txt", "forum-hardest-1106.txt"] {
        let path = dir.join("9x9").join(file);
        if !path.is_file() {
            eprintln!("skipping {}: absent", path.display());
            continue;
        }
        let puzzles = read_puzzles(&path, COLLECTION_SAMPLE);
        if puzzles.is_empty() {
            eprintln!("skipping {}: no puzzle", path.display());
            continue;
        }
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(BenchmarkId::new("unique", file), |b| {
            b.iter(|| {
                for grid in &puzzles {
                    let report = count(&rules, black_box(grid), &config, Some(2));
                    assert!(report.is_unique(), "{grid}");
                }
            })
        });
    }
    group.finish();
}

/// The generated `benches` function has no doc comment of its own.
#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group!(benches, representative, collections);
}
criterion_main!(group::benches);
