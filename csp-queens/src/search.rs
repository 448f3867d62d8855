//! Systematic search on csp-core: first solution, counting with optional mirror
//! symmetry, and distinct solutions up to the board's eight symmetries.

use std::time::{Duration, Instant};

use csp_core::{
    Count, Domain, Inference, LimitKind, Limits, Outcome, ParallelSolver, Parallelism, Restarts,
    SearchConfig, Stats, Strategy, Strength, TieBreak, ValueOrder, VarOrder,
};
use serde::Serialize;

use crate::board::Symmetries;
use crate::error::QueensError;
use crate::model::{Encoding, check_n};

/// The trail bound of [`default_solve`]: 2^18 records, 4 MB, which stays in a core's
/// second-level cache on common hardware. Every node of forward checking on a large
/// board writes thousands of records, so a trail that fits there is faster than one
/// four times the size; a backtrack below the records kept, which replays the path, is
/// rare on this search, whose dead ends lie near the bottom.
pub const QUEENS_MAX_TRAIL: usize = 1 << 18;

/// The largest board [`count`] accepts (n = 20 has 39 billion solutions).
pub const MAX_COUNT_N: usize = 20;

/// The default way to find a first solution on an `n`-queens board: the all-different
/// model, MRV with forward checking, random tie-breaks, values in random order, and
/// Luby restarts with a unit run of `n + n / 8 + 64` nodes: a run can place every queen
/// and then backtrack for a while. Random ties and values spread the queens as a random
/// placement would, so that a run rarely meets a dead end; a dead end near the bottom
/// is often repaired within a few hundred nodes, each of which costs little there
/// because few rows are left, and one that is not comes from far up, where starting
/// afresh is cheaper (figures in `docs/performance.md`).
///
/// The trail is bounded at [`QUEENS_MAX_TRAIL`] records.
pub fn default_solve(n: usize) -> (Encoding, SearchConfig) {
    let n = n as u64;
    let config = SearchConfig {
        strategy: Strategy::new(VarOrder::Mrv, ValueOrder::Random, Inference::Fc),
        tie_break: TieBreak::Random,
        restarts: Some(Restarts::Luby {
            scale: n + n / 8 + 64,
        }),
        seed: 0,
        limits: Limits::default(),
        max_trail: QUEENS_MAX_TRAIL,
        ..SearchConfig::default()
    };
    (Encoding::AllDifferent(Strength::Value), config)
}

/// The default way to count: the pairwise model (counting stops at n = 20, where its
/// quadratic size is small) with MRV, ascending values and forward checking, whose
/// one-word exclusion fast path beats the all-different encoding here.
pub fn default_count() -> (Encoding, SearchConfig) {
    let config = SearchConfig::with_strategy(Strategy::new(VarOrder::Mrv, ValueOrder::Asc, Inference::Fc));
    (Encoding::Pairwise, config)
}

/// The result of a first-solution search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// Solved (the row of each column's queen), unsatisfiable, or stopped by a limit.
    pub outcome: Outcome,
    /// What the search did.
    pub stats: Stats,
}

impl SolveReport {
    /// The solution as rows (one per column), if one was found.
    pub fn rows(&self) -> Option<Vec<u32>> {
        self.outcome
            .solution()
            .map(|s| s.iter().map(|&r| r as u32).collect())
    }
}

/// Finds a first solution of the `n`-queens board with any encoding and configuration.
///
/// ```
/// use csp_queens::{Encoding, solve};
/// use csp_core::{Outcome, SearchConfig};
/// let config = SearchConfig::with_strategy("static/asc/none".parse().unwrap());
/// let report = solve(8, Encoding::Pairwise, config)?;
/// assert_eq!(report.outcome, Outcome::Solved(vec![0, 4, 7, 5, 2, 6, 1, 3]));
/// assert_eq!(report.stats.nodes, 113);
/// # Ok::<(), csp_queens::QueensError>(())
/// ```
///
/// A time limit covers the whole run, building the model included, and so does the
/// reported `elapsed` time.
pub fn solve(n: usize, encoding: Encoding, config: SearchConfig) -> Result<SolveReport, QueensError> {
    solve_with(n, encoding, config, Parallelism::default())
}

/// [`solve`] on `parallelism`'s threads ([`csp_core::ParallelSolver`]).
pub fn solve_with(
    n: usize,
    encoding: Encoding,
    mut config: SearchConfig,
    parallelism: Parallelism,
) -> Result<SolveReport, QueensError> {
    let started = Instant::now();
    let deadline = config.limits.time.map(|limit| started + limit);
    let Some(model) = encoding.model_until(n, None, deadline)? else {
        return Ok(SolveReport {
            outcome: Outcome::Limit(LimitKind::Time),
            stats: Stats {
                elapsed: started.elapsed(),
                ..Stats::default()
            },
        });
    };
    config.limits.time = deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let mut solver = ParallelSolver::with(&model, config, parallelism)?;
    let outcome = solver.solve();
    let mut stats = solver.stats().clone();
    stats.elapsed = started.elapsed();
    drop(solver);
    if model.constraints().len() >= FREE_APART {
        // Unmapping the hundreds of megabytes of a large pairwise model takes a sizeable
        // part of a second that belongs to no search: the answer need not wait for it.
        std::thread::spawn(move || drop(model));
    }
    Ok(SolveReport { outcome, stats })
}

/// The number of binary constraints from which [`solve`] frees the model on a thread of
/// its own (the pairwise model of a board of about 1,000 columns).
const FREE_APART: usize = 1_000_000;

/// What to count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountOptions {
    /// Exploit the mirror symmetry: search only boards whose first column's queen is in
    /// the top half (doubling their count) or, for odd `n`, in the middle row (not
    /// doubled). Node counts then refer to this reduced search.
    pub symmetry: bool,
    /// Also count the solutions that are distinct up to the eight rotations and
    /// reflections of the board (OEIS A002562), by keeping only solutions that are the
    /// lexicographically smallest of their eight images.
    pub distinct: bool,
    /// The threads each count runs on ([`csp_core::ParallelSolver`]).
    pub parallelism: Parallelism,
}

/// The result of counting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CountReport {
    /// Solutions found (all of them when `complete`).
    pub solutions: u64,
    /// Solutions distinct up to symmetry, when asked for.
    pub distinct: Option<u64>,
    /// Whether the count is exhaustive.
    pub complete: bool,
    /// The limit that stopped the count, if any.
    pub limit: Option<LimitKind>,
    /// What the search did, summed over the runs of a symmetric count.
    pub stats: Stats,
}

/// Counts the solutions of the `n`-queens board (`1 <= n <= 20`).
///
/// ```
/// use csp_queens::{CountOptions, count, default_count};
/// let (encoding, config) = default_count();
/// let options = CountOptions { symmetry: true, distinct: true, ..CountOptions::default() };
/// let report = count(8, encoding, config, options)?;
/// assert_eq!((report.solutions, report.distinct, report.complete), (92, Some(12), true));
/// # Ok::<(), csp_queens::QueensError>(())
/// ```
pub fn count(
    n: usize,
    encoding: Encoding,
    config: SearchConfig,
    options: CountOptions,
) -> Result<CountReport, QueensError> {
    check_n(n, MAX_COUNT_N, "counting")?;
    // Each run: the first column's domain, and the weight of each solution found.
    let mut runs: Vec<(Option<Domain>, u64)> = Vec::with_capacity(2);
    if options.symmetry {
        let half = (n / 2) as i32;
        if half > 0 {
            runs.push((Some(Domain::range(0, half - 1).expect("half >= 1")), 2));
        }
        if n % 2 == 1 {
            runs.push((Some(Domain::range(half, half).expect("one value")), 1));
        }
    } else {
        runs.push((None, 1));
    }
    let started = Instant::now();
    let mut report = CountReport {
        solutions: 0,
        distinct: options.distinct.then_some(0),
        complete: true,
        limit: None,
        stats: Stats::default(),
    };
    let mut symmetries = Symmetries::new(n);
    let mut rows: Vec<u32> = Vec::with_capacity(n);
    for (first, weight) in runs {
        let model = encoding.model_with_first(n, first)?;
        let mut run_config = config.clone();
        run_config.limits = remaining(&config.limits, &report.stats, started.elapsed());
        let mut solver = ParallelSolver::with(&model, run_config, options.parallelism)?;
        let result = if options.distinct {
            let mut found = 0u64;
            let mut distinct = 0u64;
            let limit = solver.for_each_solution(|solution| {
                found += 1;
                rows.clear();
                rows.extend(solution.iter().map(|&r| r as u32));
                if symmetries.is_canonical(&rows) {
                    distinct += 1;
                }
                true
            });
            *report.distinct.as_mut().expect("asked for") += distinct;
            Count {
                solutions: found,
                complete: limit.is_none(),
                limit,
            }
        } else {
            solver.count()
        };
        report.solutions += weight * result.solutions;
        report.stats.accumulate(solver.stats());
        if !result.complete {
            report.complete = false;
            report.limit = result.limit;
            break;
        }
    }
    report.stats.solutions = report.solutions;
    report.stats.elapsed = started.elapsed();
    Ok(report)
}

/// The limits left for a later run after `used` nodes and `elapsed` time.
fn remaining(limits: &Limits, used: &Stats, elapsed: Duration) -> Limits {
    Limits {
        nodes: limits.nodes.map(|max| max.saturating_sub(used.nodes)),
        time: limits.time.map(|max| max.saturating_sub(elapsed)),
        solutions: limits.solutions,
        cancel: limits.cancel.clone(),
    }
}
