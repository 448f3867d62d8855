//! Min-conflicts for n-queens with O(1) conflict counts: counters per row and per
//! diagonal, and a greedy start that leaves only a few queens in conflict.

use csp_core::{ConflictModel, LocalOutcome, LocalStats, MinConflicts, min_conflicts};
use rand::{Rng, RngExt};
use serde::Serialize;

use crate::error::QueensError;
use crate::model::check_n;

/// The largest board [`local_search`] accepts (about 5 GB of counters at this size).
pub const MAX_LOCAL_N: usize = 100_000_000;

/// Random free rows tried per column by the greedy start before it settles for the
/// row with the fewest diagonal conflicts among them.
const GREEDY_TRIES: usize = 32;

/// Random rows sampled for one with a single conflict before scanning every row.
const ONE_CONFLICT_TRIES: usize = 64;

/// When at most this many rows are left, the greedy start tries every one of them.
const GREEDY_SCAN_ALL: usize = 4096;

/// An `n`-queens board for [`min_conflicts`]: variable = column, value = row.
///
/// Each row and diagonal ("line") keeps how many queens it holds and the XOR of their
/// columns, so a conflict count is three array reads, and when a line holds a single
/// queen the XOR names it. Conflicted queens sit in a list that may also hold queens
/// whose conflicts have since gone; [`ConflictModel::random_conflicted`] drops those
/// when it meets them. Memory: about 50 bytes per queen.
#[derive(Clone, Debug)]
pub struct QueensConflicts {
    n: usize,
    rows: Vec<u32>,
    /// Per line: queens on it. Rows at `r`, down-diagonals at `r + c`,
    /// up-diagonals at `r + n - 1 - c`.
    row_count: Vec<u32>,
    down_count: Vec<u32>,
    up_count: Vec<u32>,
    /// Per line: XOR of the columns of its queens.
    row_xor: Vec<u32>,
    down_xor: Vec<u32>,
    up_xor: Vec<u32>,
    /// Queens that may be in conflict (every conflicted queen is here).
    suspects: Vec<u32>,
    listed: Vec<bool>,
    /// Rows that may be empty (every empty row is here).
    empty_rows: Vec<u32>,
    empty_listed: Vec<bool>,
    /// Whether the board holds an assignment yet (the counters are valid).
    placed: bool,
    /// Whether any queen was ever put (the counters may be non-zero).
    dirty: bool,
}

impl QueensConflicts {
    /// An empty `n`-queens board (`1 <= n <= MAX_LOCAL_N`); [`ConflictModel::initialize`]
    /// places the queens.
    pub fn new(n: usize) -> Result<Self, QueensError> {
        check_n(n, MAX_LOCAL_N, "min-conflicts")?;
        let lines = 2 * n - 1;
        Ok(QueensConflicts {
            n,
            rows: vec![0; n],
            row_count: vec![0; n],
            down_count: vec![0; lines],
            up_count: vec![0; lines],
            row_xor: vec![0; n],
            down_xor: vec![0; lines],
            up_xor: vec![0; lines],
            suspects: Vec::new(),
            listed: vec![false; n],
            empty_rows: Vec::new(),
            empty_listed: vec![false; n],
            placed: false,
            dirty: false,
        })
    }

    /// The row of each column's queen.
    pub fn rows(&self) -> &[u32] {
        &self.rows
    }

    /// Takes the rows out of the board.
    pub fn into_rows(self) -> Vec<u32> {
        self.rows
    }

    #[inline]
    fn lines(&self, col: usize, row: usize) -> (usize, usize) {
        (row + col, row + self.n - 1 - col)
    }

    #[inline]
    fn suspect(&mut self, col: u32) {
        if !self.listed[col as usize] {
            self.listed[col as usize] = true;
            self.suspects.push(col);
        }
    }

    /// Puts `col`'s queen on `row` (it must be off the board).
    fn put(&mut self, col: usize, row: usize) {
        let (d, u) = self.lines(col, row);
        let c = col as u32;
        self.rows[col] = row as u32;
        for (count, xor) in [
            (&mut self.row_count[row], &mut self.row_xor[row]),
            (&mut self.down_count[d], &mut self.down_xor[d]),
            (&mut self.up_count[u], &mut self.up_xor[u]),
        ] {
            // A line that had one queen gets a second: the first one (the XOR) joins the
            // suspects; lines with more already had theirs listed.
            let alone = (*count == 1).then_some(*xor);
            *count += 1;
            *xor ^= c;
            if let Some(other) = alone {
                if !self.listed[other as usize] {
                    self.listed[other as usize] = true;
                    self.suspects.push(other);
                }
            }
        }
        if self.row_count[row] > 1 || self.down_count[d] > 1 || self.up_count[u] > 1 {
            self.suspect(c);
        }
    }

    /// Takes `col`'s queen off the board.
    fn take(&mut self, col: usize) {
        let row = self.rows[col] as usize;
        let (d, u) = self.lines(col, row);
        let c = col as u32;
        self.row_count[row] -= 1;
        self.row_xor[row] ^= c;
        if self.row_count[row] == 0 && !self.empty_listed[row] {
            self.empty_listed[row] = true;
            self.empty_rows.push(row as u32);
        }
        self.down_count[d] -= 1;
        self.down_xor[d] ^= c;
        self.up_count[u] -= 1;
        self.up_xor[u] ^= c;
    }

    /// Conflicts of `col` on `row` with the queens of other columns, `col` off the board
    /// or on another row.
    #[inline]
    fn attacks(&self, col: usize, row: usize) -> u32 {
        let (d, u) = self.lines(col, row);
        self.row_count[row] + self.down_count[d] + self.up_count[u]
    }

    fn clear(&mut self) {
        for v in [&mut self.row_count, &mut self.down_count, &mut self.up_count] {
            v.fill(0);
        }
        for v in [&mut self.row_xor, &mut self.down_xor, &mut self.up_xor] {
            v.fill(0);
        }
        self.suspects.clear();
        self.listed.fill(false);
        self.empty_rows.clear();
        self.empty_listed.fill(false);
    }

    /// The full scan of every row: two passes (minimum and ties, then the chosen tie),
    /// each three sequential array streams; no allocation.
    fn scan_min_conflicts(&self, var: usize, rng: &mut dyn Rng) -> usize {
        let n = self.n;
        let current = self.rows[var] as usize;
        let (mut best, mut ties) = (u32::MAX, 0u64);
        let down = &self.down_count[var..var + n];
        let up = &self.up_count[n - 1 - var..2 * n - 1 - var];
        let cost =
            |row: usize| self.row_count[row] + down[row] + up[row] - if row == current { 3 } else { 0 };
        for row in 0..n {
            let c = cost(row);
            if c < best {
                (best, ties) = (c, 1);
            } else if c == best {
                ties += 1;
            }
        }
        let mut pick = rng.random_range(0..ties);
        for row in 0..n {
            if cost(row) == best {
                if pick == 0 {
                    return row;
                }
                pick -= 1;
            }
        }
        unreachable!("a row with the minimum exists")
    }
}

impl ConflictModel for QueensConflicts {
    fn num_vars(&self) -> usize {
        self.n
    }

    fn domain_size(&self, _var: usize) -> usize {
        self.n
    }

    fn value(&self, var: usize) -> usize {
        self.rows[var] as usize
    }

    fn set_value(&mut self, var: usize, value: usize) {
        if !self.placed {
            // Without an initial assignment, fill the board with queens on row 0 first.
            self.placed = true;
            for col in 0..self.n {
                self.put(col, 0);
            }
            for row in 1..self.n {
                self.empty_listed[row] = true;
                self.empty_rows.push(row as u32);
            }
        }
        self.take(var);
        self.put(var, value);
    }

    fn conflicts(&self, var: usize, value: usize) -> u32 {
        let own = if self.placed && self.rows[var] as usize == value {
            3
        } else {
            0
        };
        self.attacks(var, value) - own
    }

    /// Greedy start: columns in order, each queen on a random row not used yet whose
    /// diagonals are free, trying 32 random rows (every row left, once at
    /// most 4096 are) before taking the one with the fewest diagonal
    /// conflicts among them. Rows never conflict; only the last
    /// columns, where few rows are left, may end up on an attacked diagonal.
    fn initialize(&mut self, rng: &mut dyn Rng) {
        self.initialize_within(rng, &mut || false);
    }

    fn initialize_within(&mut self, rng: &mut dyn Rng, expired: &mut dyn FnMut() -> bool) -> bool {
        // New counters are zero already: clearing them would touch every page of a large
        // board before the clock is first read.
        if self.dirty {
            self.clear();
        }
        self.dirty = true;
        self.placed = false;
        let n = self.n;
        let mut free: Vec<u32> = (0..n as u32).collect();
        for col in 0..n {
            // The greedy start takes seconds on millions of queens: the limits hold in it.
            if col % 4096 == 0 && expired() {
                return false;
            }
            let (mut best, mut best_conflicts) = (0usize, u32::MAX);
            // Few rows left: try each of them, from a random start; else sample.
            let exhaustive = free.len() <= GREEDY_SCAN_ALL;
            let tries = if exhaustive { free.len() } else { GREEDY_TRIES };
            let start = rng.random_range(0..free.len());
            for t in 0..tries {
                let i = if exhaustive {
                    (start + t) % free.len()
                } else {
                    rng.random_range(0..free.len())
                };
                let row = free[i] as usize;
                let (d, u) = self.lines(col, row);
                let c = self.down_count[d] + self.up_count[u];
                if c < best_conflicts {
                    (best, best_conflicts) = (i, c);
                    if c == 0 {
                        break;
                    }
                }
            }
            let row = free.swap_remove(best) as usize;
            self.put(col, row);
        }
        self.placed = true;
        true
    }

    fn random_conflicted(&mut self, rng: &mut dyn Rng) -> Option<usize> {
        while !self.suspects.is_empty() {
            let i = rng.random_range(0..self.suspects.len());
            let col = self.suspects[i] as usize;
            if self.conflicts(col, self.rows[col] as usize) > 0 {
                return Some(col);
            }
            self.suspects.swap_remove(i);
            self.listed[col] = false;
        }
        None
    }

    /// Exactly AIMA's choice (a value with the fewest conflicts, ties uniform), found
    /// without scanning every row in the common cases:
    /// 1. only an empty row or the queen's own row can have no conflict: those are few,
    ///    and if any has none, one of them is drawn uniformly;
    /// 2. otherwise the minimum is at least 1, and a row with exactly one conflict is
    ///    drawn by rejection sampling (uniform among such rows);
    /// 3. if 64 samples find none, every row is scanned.
    fn min_conflicts_value(&mut self, var: usize, rng: &mut dyn Rng) -> usize {
        let current = self.rows[var] as usize;
        let own_free = self.conflicts(var, current) == 0;
        let mut zeros = u64::from(own_free);
        let mut i = 0;
        while i < self.empty_rows.len() {
            let row = self.empty_rows[i] as usize;
            if self.row_count[row] > 0 {
                self.empty_rows.swap_remove(i);
                self.empty_listed[row] = false;
                continue;
            }
            zeros += u64::from(self.conflicts(var, row) == 0);
            i += 1;
        }
        if zeros > 0 {
            let mut pick = rng.random_range(0..zeros);
            if own_free {
                if pick == 0 {
                    return current;
                }
                pick -= 1;
            }
            for &row in &self.empty_rows {
                if self.conflicts(var, row as usize) == 0 {
                    if pick == 0 {
                        return row as usize;
                    }
                    pick -= 1;
                }
            }
            unreachable!("counted above");
        }
        for _ in 0..ONE_CONFLICT_TRIES {
            let row = rng.random_range(0..self.n);
            if self.conflicts(var, row) == 1 {
                return row;
            }
        }
        self.scan_min_conflicts(var, rng)
    }

    fn num_conflicted(&self) -> usize {
        self.suspects
            .iter()
            .filter(|&&c| self.conflicts(c as usize, self.rows[c as usize] as usize) > 0)
            .count()
    }
}

/// The result of [`local_search`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LocalReport {
    /// `solved`, `unsatisfiable` (n = 2 and 3, known to have no solution; the search is
    /// not run since it could never stop with a proof) or `limit`.
    pub status: &'static str,
    /// The rows of the solution, when solved.
    pub rows: Option<Vec<u32>>,
    /// How the search ended (`None` when it was not run).
    pub outcome: Option<LocalOutcome>,
    /// What the search did.
    pub stats: LocalStats,
}

/// Solves the `n`-queens board by min-conflicts with the greedy start.
///
/// ```
/// use csp_core::MinConflicts;
/// let report = csp_queens::local_search(1000, &MinConflicts { seed: 1, ..MinConflicts::default() })?;
/// assert_eq!(report.status, "solved");
/// assert_eq!(csp_queens::verify(report.rows.as_deref().unwrap()), Ok(()));
/// # Ok::<(), csp_queens::QueensError>(())
/// ```
pub fn local_search(n: usize, config: &MinConflicts) -> Result<LocalReport, QueensError> {
    check_n(n, MAX_LOCAL_N, "min-conflicts")?;
    if n == 2 || n == 3 {
        return Ok(LocalReport {
            status: "unsatisfiable",
            rows: None,
            outcome: None,
            stats: LocalStats::default(),
        });
    }
    let mut board = QueensConflicts::new(n)?;
    let run = min_conflicts(&mut board, config);
    let solved = run.outcome == LocalOutcome::Solved;
    Ok(LocalReport {
        status: run.outcome.status(),
        rows: solved.then(|| board.into_rows()),
        outcome: Some(run.outcome),
        stats: run.stats,
    })
}
