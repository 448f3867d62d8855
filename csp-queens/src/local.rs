//! Min-conflicts for n-queens with O(1) conflict counts: counters per row and per
//! diagonal, and a greedy start that leaves only a few queens in conflict.

use std::collections::HashMap;
use std::ops::Range;

use csp_core::{ConflictModel, LocalOutcome, LocalStats, MinConflicts, min_conflicts};
use fixedbitset::FixedBitSet;
use rand::{Rng, RngExt};
use serde::Serialize;

use crate::error::QueensError;
use crate::model::check_n;

/// The largest board [`local_search`] accepts (about 1.9 GB at this size, see
/// [`QueensConflicts::memory_bytes`]).
pub const MAX_LOCAL_N: usize = 100_000_000;

/// Random free rows tried per column by the greedy start before it settles for the
/// row with the fewest diagonal conflicts among them.
const GREEDY_TRIES: usize = 32;

/// Random rows sampled for one with a single conflict before scanning every row.
const ONE_CONFLICT_TRIES: usize = 64;

/// When at most this many rows are left, the greedy start tries every one of them.
const GREEDY_SCAN_ALL: usize = 4096;

/// The bits of a column a line's XOR keeps. A lone queen is then known up to a multiple of
/// 2^16 columns, and [`QueensConflicts::lone_queen`] checks those columns of its line: two
/// bytes per line instead of four, for at most n / 2^16 reads (1,526 for 10^8 queens) each
/// time a line gets its second queen.
const XOR_BITS: u32 = 16;

/// The low [`XOR_BITS`] bits of a column.
#[inline]
fn low_bits(col: usize) -> u16 {
    (col & ((1 << XOR_BITS) - 1)) as u16
}

/// A line count byte holding this value means the count is in [`Lines::overflow`]. From the
/// greedy start a line holds a few queens at most, but [`ConflictModel::set_value`] may stack
/// up to n on one line.
const COUNT_IN_MAP: u8 = u8::MAX;

/// The three families of lines a queen stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    /// Rows: line `r`.
    Row,
    /// Down-diagonals: line `r + c`.
    Down,
    /// Up-diagonals: line `r + n - 1 - c`.
    Up,
}

impl Family {
    const ALL: [Family; 3] = [Family::Row, Family::Down, Family::Up];
}

/// The lines of one family: per line, how many queens it holds and the XOR of the low bits
/// of their columns (three bytes per line).
#[derive(Clone, Debug)]
struct Lines {
    /// Queens per line, up to 254; [`COUNT_IN_MAP`] for more.
    counts: Vec<u8>,
    /// The counts of the lines holding 255 queens or more.
    overflow: HashMap<u32, u32>,
    /// Per line: XOR of the low [`XOR_BITS`] bits of the columns of its queens.
    xor: Vec<u16>,
}

impl Lines {
    fn new(len: usize) -> Self {
        Lines {
            counts: vec![0; len],
            overflow: HashMap::new(),
            xor: vec![0; len],
        }
    }

    /// How many queens `line` holds.
    #[inline]
    fn count(&self, line: usize) -> u32 {
        match self.counts[line] {
            COUNT_IN_MAP => self.overflow[&(line as u32)],
            small => u32::from(small),
        }
    }

    #[inline]
    fn set_count(&mut self, line: usize, count: u32) {
        if count < u32::from(COUNT_IN_MAP) {
            if self.counts[line] == COUNT_IN_MAP {
                self.overflow.remove(&(line as u32));
            }
            self.counts[line] = count as u8;
        } else {
            self.counts[line] = COUNT_IN_MAP;
            self.overflow.insert(line as u32, count);
        }
    }

    /// Puts `col`'s queen on `line`. Returns the count and the XOR from before: when the
    /// count was 1, the XOR is the low bits of the column of the queen that was alone.
    #[inline]
    fn add(&mut self, line: usize, col: usize) -> (u32, u16) {
        let before = (self.count(line), self.xor[line]);
        self.set_count(line, before.0 + 1);
        self.xor[line] ^= low_bits(col);
        before
    }

    /// Takes `col`'s queen off `line`; returns how many queens are left on it.
    #[inline]
    fn remove(&mut self, line: usize, col: usize) -> u32 {
        let after = self.count(line) - 1;
        self.set_count(line, after);
        self.xor[line] ^= low_bits(col);
        after
    }

    fn clear(&mut self) {
        self.counts.fill(0);
        self.overflow.clear();
        self.xor.fill(0);
    }

    /// Heap bytes (the map's entries with their control byte).
    fn memory_bytes(&self) -> usize {
        vec_bytes(&self.counts)
            + vec_bytes(&self.xor)
            + self.overflow.capacity() * (size_of::<(u32, u32)>() + 1)
    }
}

/// Heap bytes of a vector at its capacity.
fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * size_of::<T>()
}

/// Heap bytes of a bitset.
fn bitset_bytes(bits: &FixedBitSet) -> usize {
    size_of_val(bits.as_slice())
}

/// An `n`-queens board for [`min_conflicts`]: variable = column, value = row.
///
/// Each row and diagonal ("line") keeps how many queens it holds and the XOR of the low 16
/// bits of their columns, so a conflict count is three array reads, and when a line holds a
/// single queen the XOR and a check of a few columns name it. Conflicted queens sit in a
/// list that may also hold queens whose conflicts have since gone;
/// [`ConflictModel::random_conflicted`] drops those when it meets them.
///
/// Memory: about 19.25 bytes per queen ([`QueensConflicts::memory_bytes`]): 4 for the row of
/// each queen; 3 per line (a count byte and two XOR bytes) for the n rows and the 2n - 1
/// diagonals of each direction, 15 per queen; two flag bits; and 4 per entry of the lists of
/// conflicted queens and of empty rows, which stay short from the greedy start (about 0.1%
/// of n).
#[derive(Clone, Debug)]
pub struct QueensConflicts {
    n: usize,
    /// The row of each column's queen. During the greedy start, the columns not placed yet
    /// hold the rows not used yet instead (see [`QueensConflicts::take_free_row`]).
    rows: Vec<u32>,
    /// The rows, down-diagonals and up-diagonals, indexed by [`Family`].
    lines: [Lines; 3],
    /// Queens that may be in conflict (every conflicted queen is here).
    suspects: Vec<u32>,
    listed: FixedBitSet,
    /// Rows that may be empty (every empty row is here).
    empty_rows: Vec<u32>,
    empty_listed: FixedBitSet,
    /// The columns `0..placed` have their queen on the board; the board holds a complete
    /// assignment when `placed == n`.
    placed: usize,
    /// Whether any queen was ever put (the counters may be non-zero).
    dirty: bool,
}

impl QueensConflicts {
    /// An empty `n`-queens board (`1 <= n <= MAX_LOCAL_N`); [`ConflictModel::initialize`]
    /// places the queens.
    pub fn new(n: usize) -> Result<Self, QueensError> {
        check_n(n, MAX_LOCAL_N, "min-conflicts")?;
        let diagonals = 2 * n - 1;
        Ok(QueensConflicts {
            n,
            rows: vec![0; n],
            lines: [Lines::new(n), Lines::new(diagonals), Lines::new(diagonals)],
            suspects: Vec::new(),
            listed: FixedBitSet::with_capacity(n),
            empty_rows: Vec::new(),
            empty_listed: FixedBitSet::with_capacity(n),
            placed: 0,
            dirty: false,
        })
    }

    /// The row of each column's queen (once the queens are placed).
    pub fn rows(&self) -> &[u32] {
        &self.rows
    }

    /// Takes the rows out of the board.
    pub fn into_rows(self) -> Vec<u32> {
        self.rows
    }

    /// Bytes of heap memory the board holds: every array and list at its capacity. About
    /// 19.25 bytes per queen once the greedy start has run (see [`QueensConflicts`]); the
    /// tests hold it to at most 24.
    pub fn memory_bytes(&self) -> usize {
        // Every field is named, so that a new one cannot be left out of the sum.
        let QueensConflicts {
            n: _,
            rows,
            lines,
            suspects,
            listed,
            empty_rows,
            empty_listed,
            placed: _,
            dirty: _,
        } = self;
        vec_bytes(rows)
            + lines.iter().map(Lines::memory_bytes).sum::<usize>()
            + vec_bytes(suspects)
            + vec_bytes(empty_rows)
            + bitset_bytes(listed)
            + bitset_bytes(empty_listed)
    }

    /// The row, down-diagonal and up-diagonal of a queen on `(col, row)`, in [`Family`] order.
    #[inline]
    fn lines_of(&self, col: usize, row: usize) -> [usize; 3] {
        [row, row + col, row + self.n - 1 - col]
    }

    #[inline]
    fn family(&self, family: Family) -> &Lines {
        &self.lines[family as usize]
    }

    #[inline]
    fn family_mut(&mut self, family: Family) -> &mut Lines {
        &mut self.lines[family as usize]
    }

    /// The placed columns whose queen could stand on `line` of `family` (its row in `0..n`).
    fn columns_of(&self, family: Family, line: usize) -> Range<usize> {
        let last = self.n - 1;
        let (first, end) = match family {
            Family::Row => (0, self.n),
            // col = line - row
            Family::Down => (line.saturating_sub(last), line.min(last) + 1),
            // col = row + n - 1 - line
            Family::Up => (last.saturating_sub(line), (2 * last - line).min(last) + 1),
        };
        first..end.min(self.placed)
    }

    /// The column of the one queen on `line` of `family` besides `col`'s, given the low bits
    /// of its column: only every 2^16th column of the line can be it, and its row tells.
    fn lone_queen(&self, family: Family, line: usize, bits: u16, col: usize) -> u32 {
        let columns = self.columns_of(family, line);
        let step = 1 << XOR_BITS;
        let first = columns.start + (usize::from(bits).wrapping_sub(columns.start) & (step - 1));
        (first..columns.end)
            .step_by(step)
            .find(|&c| c != col && self.lines_of(c, self.rows[c] as usize)[family as usize] == line)
            .expect("a line holding one queen holds a queen with its XOR bits") as u32
    }

    #[inline]
    fn suspect(&mut self, col: u32) {
        if !self.listed.put(col as usize) {
            self.suspects.push(col);
        }
    }

    /// Puts `col`'s queen on `row` (it must be off the board).
    fn put(&mut self, col: usize, row: usize) {
        self.rows[col] = row as u32;
        let mut attacked = false;
        for (family, line) in Family::ALL.into_iter().zip(self.lines_of(col, row)) {
            let (before, bits) = self.family_mut(family).add(line, col);
            attacked |= before > 0;
            // A line that had one queen gets a second: the first one joins the suspects;
            // lines with more already had theirs listed.
            if before == 1 {
                let other = self.lone_queen(family, line, bits, col);
                self.suspect(other);
            }
        }
        if attacked {
            self.suspect(col as u32);
        }
    }

    /// Puts the queen of the first column not placed yet on `row`.
    fn place_next(&mut self, row: usize) {
        self.put(self.placed, row);
        self.placed += 1;
    }

    /// Takes `col`'s queen off the board.
    fn take(&mut self, col: usize) {
        let row = self.rows[col] as usize;
        let [r, d, u] = self.lines_of(col, row);
        if self.family_mut(Family::Row).remove(r, col) == 0 && !self.empty_listed.put(row) {
            self.empty_rows.push(row as u32);
        }
        self.family_mut(Family::Down).remove(d, col);
        self.family_mut(Family::Up).remove(u, col);
    }

    /// Conflicts of `col` on `row` with the queens of other columns, `col` off the board
    /// or on another row.
    #[inline]
    fn attacks(&self, col: usize, row: usize) -> u32 {
        let [r, d, u] = self.lines_of(col, row);
        self.family(Family::Row).count(r)
            + self.family(Family::Down).count(d)
            + self.family(Family::Up).count(u)
    }

    /// Takes every queen off. Counters never set are zero already: clearing them would
    /// touch every page of a large board before the clock is first read.
    fn reset(&mut self) {
        if self.dirty {
            self.lines.iter_mut().for_each(Lines::clear);
            self.suspects.clear();
            self.listed.clear();
            self.empty_rows.clear();
            self.empty_listed.clear();
        }
        self.dirty = true;
        self.placed = 0;
    }

    /// The greedy start keeps the `n - col` rows not used yet in the columns not placed yet,
    /// the `i`th in `rows[n - 1 - i]` (no list of its own: this array is 4 bytes per queen).
    #[inline]
    fn free_row(&self, i: usize) -> usize {
        self.rows[self.n - 1 - i] as usize
    }

    /// Takes free row `i` for the next column, as `Vec::swap_remove` would from a list of the
    /// free rows: the last free row, kept in `rows[placed]`, moves into its place.
    fn take_free_row(&mut self, i: usize) -> usize {
        self.rows.swap(self.placed, self.n - 1 - i);
        self.rows[self.placed] as usize
    }

    /// The full scan of every row: two passes (minimum and ties, then the chosen tie),
    /// each three sequential array streams; no allocation.
    fn scan_min_conflicts(&self, var: usize, rng: &mut dyn Rng) -> usize {
        let (mut best, mut ties) = (u32::MAX, 0u64);
        for row in 0..self.n {
            let c = self.conflicts(var, row);
            if c < best {
                (best, ties) = (c, 1);
            } else if c == best {
                ties += 1;
            }
        }
        let mut pick = rng.random_range(0..ties);
        for row in 0..self.n {
            if self.conflicts(var, row) == best {
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
        if self.placed < self.n {
            // Without a complete assignment, fill the board with queens on row 0 first.
            self.reset();
            for _ in 0..self.n {
                self.place_next(0);
            }
            for row in 1..self.n {
                self.empty_listed.insert(row);
                self.empty_rows.push(row as u32);
            }
        }
        self.take(var);
        self.put(var, value);
    }

    fn conflicts(&self, var: usize, value: usize) -> u32 {
        // A queen on `value` is counted on its own three lines.
        let own = if var < self.placed && self.rows[var] as usize == value {
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
        self.reset();
        let n = self.n;
        // Every row is free: free row i is row i.
        for (col, row) in self.rows.iter_mut().enumerate() {
            *row = (n - 1 - col) as u32;
        }
        for col in 0..n {
            // The greedy start takes seconds on millions of queens: the limits hold in it.
            if col % 4096 == 0 && expired() {
                return false;
            }
            let free = n - col;
            let (mut best, mut best_conflicts) = (0usize, u32::MAX);
            // Few rows left: try each of them, from a random start; else sample.
            let exhaustive = free <= GREEDY_SCAN_ALL;
            let tries = if exhaustive { free } else { GREEDY_TRIES };
            let start = rng.random_range(0..free);
            for t in 0..tries {
                let i = if exhaustive {
                    (start + t) % free
                } else {
                    rng.random_range(0..free)
                };
                let [_, d, u] = self.lines_of(col, self.free_row(i));
                let c = self.family(Family::Down).count(d) + self.family(Family::Up).count(u);
                if c < best_conflicts {
                    (best, best_conflicts) = (i, c);
                    if c == 0 {
                        break;
                    }
                }
            }
            let row = self.take_free_row(best);
            self.place_next(row);
        }
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
            self.listed.set(col, false);
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
            if self.family(Family::Row).count(row) > 0 {
                self.empty_rows.swap_remove(i);
                self.empty_listed.set(row, false);
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
    /// The rows of the solution, when solved (the board's own array, moved out).
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
