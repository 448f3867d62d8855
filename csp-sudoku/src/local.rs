//! Local search for Sudoku: simulated annealing in the formulation of the seed-001 document (`data/sudoku/README.md`), and
//! min-conflicts, both on csp-core's generic local-search engines.
//!
//! * [`BoxSwaps`] ([`AnnealingModel`]): every box is filled with its missing values, a move
//!   swaps two non-given cells of one box, and the cost is the number of values missing
//!   from the rows plus those missing from the columns (zero: solved).
//! * [`CellConflicts`] ([`ConflictModel`]): one variable per non-given cell, its value a
//!   digit; a cell's conflicts are its peers holding the same value.
//!
//! [`solve_local`] runs either and checks the result against the rules before it reports a
//! solution. Neither can prove that a puzzle has no solution.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use csp_core::{
    Annealing, AnnealingModel, AnnealingStats, ConflictModel, LocalOutcome, LocalStats, MinConflicts, anneal,
    min_conflicts,
};
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use serde::Serialize;
use thiserror::Error;

use crate::grid::{Conflict, Grid};
use crate::solve::Status;
use crate::units::Units;

/// Why a puzzle cannot be searched locally.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LocalError {
    /// Two givens of a unit hold the same value, so no box can be filled with its missing
    /// values.
    #[error("r{}c{} and r{}c{} both hold {} in {}", .0.first / .1 + 1, .0.first % .1 + 1,
        .0.second / .1 + 1, .0.second % .1 + 1, .0.value, .0.unit)]
    Conflict(Conflict, usize),
}

fn check_givens(puzzle: &Grid) -> Result<(), LocalError> {
    match puzzle.conflicts().first() {
        Some(&c) => Err(LocalError::Conflict(c, puzzle.size())),
        None => Ok(()),
    }
}

/// Fills each box's blank cells with a random permutation of the values the box misses.
fn fill_boxes(units: &Units, givens: &[u8], cells: &mut [u8], rng: &mut dyn Rng) {
    let size = units.size();
    let mut missing = Vec::with_capacity(size);
    let mut blanks = Vec::with_capacity(size);
    for b in 0..size {
        let mut present = vec![false; size + 1];
        blanks.clear();
        for &c in units.box_cells(b) {
            present[usize::from(givens[c])] = true;
            if givens[c] == 0 {
                blanks.push(c);
            }
        }
        missing.clear();
        missing.extend((1..=size as u8).filter(|&v| !present[usize::from(v)]));
        missing.shuffle(rng);
        for (&c, &v) in blanks.iter().zip(&missing) {
            cells[c] = v;
        }
    }
}

/// Seed 001's formulation for [`anneal`]: boxes always hold each value once; a move swaps
/// two non-given cells of one box; the cost is the number of values missing from rows plus
/// those missing from columns.
///
/// Per-row and per-column value counts make [`AnnealingModel::delta`] and a move O(1).
///
/// ```
/// use csp_core::{Annealing, LocalOutcome, anneal};
/// use csp_sudoku::{BoxSwaps, parse_puzzle};
/// let puzzle = parse_puzzle("1.34.4...32.2.4.").unwrap();
/// let mut model = BoxSwaps::new(&puzzle).unwrap();
/// let run = anneal(&mut model, &Annealing::default());
/// assert_eq!(run.outcome, LocalOutcome::Solved);
/// assert!(model.grid().is_solution_of(&puzzle));
/// ```
#[derive(Clone, Debug)]
pub struct BoxSwaps {
    units: &'static Units,
    givens: Vec<u8>,
    cells: Vec<u8>,
    /// `row_count[r * (N + 1) + v]`: cells of row `r` holding `v`.
    row_count: Vec<u16>,
    /// `col_count[c * (N + 1) + v]`: cells of column `c` holding `v`.
    col_count: Vec<u16>,
    /// Every pair of non-given cells of one box.
    pairs: Vec<[u16; 2]>,
}

impl BoxSwaps {
    /// The model of `puzzle`, boxes not yet filled ([`anneal`] fills them from its seed).
    pub fn new(puzzle: &Grid) -> Result<BoxSwaps, LocalError> {
        check_givens(puzzle)?;
        let units = puzzle.units();
        let size = units.size();
        let givens = puzzle.cells().to_vec();
        let mut pairs = Vec::new();
        for b in 0..size {
            let free: Vec<usize> = units
                .box_cells(b)
                .iter()
                .copied()
                .filter(|&c| givens[c] == 0)
                .collect();
            for (i, &x) in free.iter().enumerate() {
                pairs.extend(free[i + 1..].iter().map(|&y| [x as u16, y as u16]));
            }
        }
        let mut model = BoxSwaps {
            units,
            cells: givens.clone(),
            givens,
            row_count: vec![0; size * (size + 1)],
            col_count: vec![0; size * (size + 1)],
            pairs,
        };
        model.recount();
        Ok(model)
    }

    /// The current grid (a solution when the cost is zero).
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.units.order(), self.cells.clone()).expect("values within 1..=N")
    }

    /// How many moves there are (pairs of non-given cells sharing a box).
    pub fn moves(&self) -> usize {
        self.pairs.len()
    }

    fn recount(&mut self) {
        let size = self.units.size();
        self.row_count.fill(0);
        self.col_count.fill(0);
        for (i, &v) in self.cells.iter().enumerate() {
            let v = usize::from(v);
            self.row_count[(i / size) * (size + 1) + v] += 1;
            self.col_count[(i % size) * (size + 1) + v] += 1;
        }
    }

    /// The change in missing values of one line (row or column counts at `base`) that
    /// loses `out` and gains `new`.
    #[inline]
    fn line_delta(counts: &[u16], base: usize, out: u8, new: u8) -> i64 {
        i64::from(counts[base + usize::from(out)] == 1) - i64::from(counts[base + usize::from(new)] == 0)
    }
}

impl AnnealingModel for BoxSwaps {
    type Move = [u16; 2];

    /// Values missing from rows plus values missing from columns (blanks count as missing).
    fn cost(&self) -> u64 {
        let size = self.units.size();
        let missing = |counts: &[u16]| -> u64 {
            counts
                .chunks_exact(size + 1)
                .map(|line| line[1..].iter().filter(|&&n| n == 0).count() as u64)
                .sum()
        };
        missing(&self.row_count) + missing(&self.col_count)
    }

    fn random_move(&mut self, rng: &mut dyn Rng) -> Option<[u16; 2]> {
        if self.pairs.is_empty() {
            return None;
        }
        Some(self.pairs[rng.random_range(0..self.pairs.len())])
    }

    fn apply(&mut self, &[a, b]: &[u16; 2]) {
        let size = self.units.size();
        let (a, b) = (usize::from(a), usize::from(b));
        let (va, vb) = (usize::from(self.cells[a]), usize::from(self.cells[b]));
        let (ra, ca, rb, cb) = (a / size, a % size, b / size, b % size);
        let w = size + 1;
        self.row_count[ra * w + va] -= 1;
        self.row_count[ra * w + vb] += 1;
        self.row_count[rb * w + vb] -= 1;
        self.row_count[rb * w + va] += 1;
        self.col_count[ca * w + va] -= 1;
        self.col_count[ca * w + vb] += 1;
        self.col_count[cb * w + vb] -= 1;
        self.col_count[cb * w + va] += 1;
        self.cells.swap(a, b);
    }

    fn undo(&mut self, mv: &[u16; 2]) {
        self.apply(mv);
    }

    /// O(1): only the two rows and two columns of the swapped cells change.
    fn delta(&mut self, &[a, b]: &[u16; 2]) -> i64 {
        let size = self.units.size();
        let (a, b) = (usize::from(a), usize::from(b));
        let (va, vb) = (self.cells[a], self.cells[b]);
        let (ra, ca, rb, cb) = (a / size, a % size, b / size, b % size);
        let w = size + 1;
        let mut d = 0;
        if ra != rb {
            d += Self::line_delta(&self.row_count, ra * w, va, vb);
            d += Self::line_delta(&self.row_count, rb * w, vb, va);
        }
        if ca != cb {
            d += Self::line_delta(&self.col_count, ca * w, va, vb);
            d += Self::line_delta(&self.col_count, cb * w, vb, va);
        }
        d
    }

    /// Fills every box with a random permutation of its missing values.
    fn initialize(&mut self, rng: &mut dyn Rng) {
        self.cells.copy_from_slice(&self.givens);
        fill_boxes(self.units, &self.givens, &mut self.cells, rng);
        self.recount();
    }
}

/// The Sudoku CSP for [`min_conflicts`]: variables are the non-given cells (in row-major
/// order), value index `i` stands for digit `i + 1`, and the conflicts of a cell with a
/// value are its peers (same row, column or box, each peer once) holding that value.
///
/// Counts per row, column, box and per box-row and box-column segment make a conflict
/// count O(1). The initial assignment fills every box with a random permutation of its
/// missing values (so only rows and columns start in conflict).
///
/// ```
/// use csp_core::{LocalOutcome, MinConflicts, min_conflicts};
/// use csp_sudoku::{CellConflicts, parse_puzzle};
/// let puzzle = parse_puzzle("1.34.4...32.2.4.").unwrap();
/// let mut model = CellConflicts::new(&puzzle).unwrap();
/// let run = min_conflicts(&mut model, &MinConflicts::default());
/// assert_eq!(run.outcome, LocalOutcome::Solved);
/// assert!(model.grid().is_solution_of(&puzzle));
/// ```
#[derive(Clone, Debug)]
pub struct CellConflicts {
    units: &'static Units,
    givens: Vec<u8>,
    cells: Vec<u8>,
    /// The cell of each variable.
    vars: Vec<u16>,
    /// Value counts per line, `[line * (N + 1) + v]`: rows, columns, boxes, then the
    /// `N * n` box-row segments and the `N * n` box-column segments.
    counts: Vec<u16>,
    /// Probability of a random-walk step; see [`CellConflicts::with_noise`].
    noise: f64,
}

impl CellConflicts {
    /// The model of `puzzle`; blanks hold nothing until [`ConflictModel::initialize`].
    pub fn new(puzzle: &Grid) -> Result<CellConflicts, LocalError> {
        check_givens(puzzle)?;
        let units = puzzle.units();
        let size = units.size();
        let givens = puzzle.cells().to_vec();
        let vars = (0..givens.len())
            .filter(|&c| givens[c] == 0)
            .map(|c| c as u16)
            .collect();
        let lines = 3 * size + 2 * size * units.order();
        let mut model = CellConflicts {
            units,
            cells: givens.clone(),
            givens,
            vars,
            counts: vec![0; lines * (size + 1)],
            noise: CellConflicts::DEFAULT_NOISE,
        };
        model.recount();
        Ok(model)
    }

    /// The default of [`CellConflicts::with_noise`].
    pub const DEFAULT_NOISE: f64 = 0.1;

    /// Sets the probability (0 to 1, default [`CellConflicts::DEFAULT_NOISE`]) that a step
    /// gives the chosen cell a random value instead of one with the fewest conflicts (a
    /// random walk, as in WalkSAT). Without it, min-conflicts on Sudoku sits on plateaus.
    pub fn with_noise(mut self, noise: f64) -> CellConflicts {
        self.noise = noise.clamp(0.0, 1.0);
        self
    }

    /// The current grid.
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.units.order(), self.cells.clone()).expect("values within 1..=N")
    }

    /// The five lines of `cell` as offsets into `counts`: row, column, box, box-row
    /// segment, box-column segment.
    #[inline]
    fn lines(&self, cell: usize) -> [usize; 5] {
        let (n, size) = (self.units.order(), self.units.size());
        let (r, c) = (cell / size, cell % size);
        let w = size + 1;
        [
            r * w,
            (size + c) * w,
            (2 * size + (r / n) * n + c / n) * w,
            (3 * size + r * n + c / n) * w,
            (3 * size + size * n + c * n + r / n) * w,
        ]
    }

    fn recount(&mut self) {
        self.counts.fill(0);
        for cell in 0..self.cells.len() {
            let v = usize::from(self.cells[cell]);
            for base in self.lines(cell) {
                self.counts[base + v] += 1;
            }
        }
    }

    fn change(&mut self, cell: usize, value: u8) {
        let old = usize::from(self.cells[cell]);
        for base in self.lines(cell) {
            self.counts[base + old] -= 1;
            self.counts[base + usize::from(value)] += 1;
        }
        self.cells[cell] = value;
    }
}

impl ConflictModel for CellConflicts {
    fn num_vars(&self) -> usize {
        self.vars.len()
    }

    fn domain_size(&self, _var: usize) -> usize {
        self.units.size()
    }

    fn value(&self, var: usize) -> usize {
        usize::from(self.cells[usize::from(self.vars[var])]).saturating_sub(1)
    }

    fn set_value(&mut self, var: usize, value: usize) {
        self.change(usize::from(self.vars[var]), value as u8 + 1);
    }

    fn conflicts(&self, var: usize, value: usize) -> u32 {
        let cell = usize::from(self.vars[var]);
        let v = value + 1;
        let [row, col, bx, seg_row, seg_col] = self.lines(cell);
        let c = &self.counts;
        // A peer in the row (or column) and the box is counted twice and taken off once by
        // its segment; the cell itself is counted 1 + 1 + 1 - 1 - 1 = 1 times.
        let total = u32::from(c[row + v]) + u32::from(c[col + v]) + u32::from(c[bx + v])
            - u32::from(c[seg_row + v])
            - u32::from(c[seg_col + v]);
        total - u32::from(usize::from(self.cells[cell]) == v)
    }

    /// Fills every box with a random permutation of its missing values.
    fn initialize(&mut self, rng: &mut dyn Rng) {
        self.cells.copy_from_slice(&self.givens);
        fill_boxes(self.units, &self.givens, &mut self.cells, rng);
        self.recount();
    }

    /// With probability `noise` a random other value; otherwise a value with the fewest
    /// conflicts, ties drawn uniformly among the values other than the current one (the
    /// current value only when it alone is best). One scan of the domain, no allocation.
    fn min_conflicts_value(&mut self, var: usize, rng: &mut dyn Rng) -> usize {
        let size = self.units.size();
        let current = self.value(var);
        if self.noise > 0.0 && rng.random_bool(self.noise) {
            return (current + rng.random_range(1..size)) % size;
        }
        let (mut best, mut ties, mut choice) = (u32::MAX, 0u32, current);
        for value in (0..size).filter(|&v| v != current) {
            let c = self.conflicts(var, value);
            if c < best {
                (best, ties, choice) = (c, 1, value);
            } else if c == best {
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    choice = value;
                }
            }
        }
        if self.conflicts(var, current) < best {
            current
        } else {
            choice
        }
    }
}

/// A local-search method for Sudoku.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LocalMethod {
    /// Simulated annealing on [`BoxSwaps`].
    Annealing,
    /// Min-conflicts on [`CellConflicts`].
    MinConflicts,
}

impl LocalMethod {
    /// `annealing` or `min-conflicts`.
    pub fn name(self) -> &'static str {
        match self {
            LocalMethod::Annealing => "annealing",
            LocalMethod::MinConflicts => "min-conflicts",
        }
    }
}

impl fmt::Display for LocalMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for LocalMethod {
    type Err = csp_core::ParseNameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "annealing" => Ok(LocalMethod::Annealing),
            "min-conflicts" => Ok(LocalMethod::MinConflicts),
            _ => Err(csp_core::ParseNameError {
                kind: "local-search method",
                found: s.to_string(),
                expected: "annealing, min-conflicts",
            }),
        }
    }
}

/// Settings of [`solve_local`].
#[derive(Clone, Debug)]
pub struct LocalSettings {
    /// Which search.
    pub method: LocalMethod,
    /// Seed of every random choice (the same seed gives the same run). Default: 0.
    pub seed: u64,
    /// Steps before giving up: proposed swaps for annealing, re-valued cells for
    /// min-conflicts. Default: 1,000,000.
    pub max_steps: u64,
    /// Min-conflicts only: start again from fresh boxes after this many steps without a
    /// solution. Default: 10,000.
    pub restart_after: Option<u64>,
    /// Stop after this much time. Default: none.
    pub time: Option<Duration>,
    /// Stop when another thread (or a signal handler) sets this flag. Default: none.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl LocalSettings {
    /// The defaults for `method`.
    pub fn new(method: LocalMethod) -> LocalSettings {
        LocalSettings {
            method,
            seed: 0,
            max_steps: 1_000_000,
            restart_after: Some(10_000),
            time: None,
            cancel: None,
        }
    }
}

/// The statistics of either search.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum LocalSearchStats {
    /// From [`anneal`].
    Annealing(AnnealingStats),
    /// From [`min_conflicts`].
    MinConflicts(LocalStats),
}

impl LocalSearchStats {
    /// Steps taken.
    pub fn steps(&self) -> u64 {
        match self {
            LocalSearchStats::Annealing(s) => s.steps,
            LocalSearchStats::MinConflicts(s) => s.steps,
        }
    }

    /// Wall-clock time.
    pub fn elapsed(&self) -> Duration {
        match self {
            LocalSearchStats::Annealing(s) => s.elapsed,
            LocalSearchStats::MinConflicts(s) => s.elapsed,
        }
    }
}

/// The result of [`solve_local`].
#[derive(Clone, Debug, Serialize)]
pub struct LocalReport {
    /// The method used.
    pub method: LocalMethod,
    /// [`Status::Solved`] (with a solution checked against the rules) or [`Status::Limit`].
    pub status: Status,
    /// How the search ended.
    pub outcome: LocalOutcome,
    /// The solution, when solved.
    pub solution: Option<Grid>,
    /// What the search did.
    pub stats: LocalSearchStats,
}

/// Solves `puzzle` by local search. A solution is reported only after
/// [`Grid::is_solution_of`] has confirmed it; a puzzle without solution simply runs into
/// the step limit.
///
/// ```
/// use csp_sudoku::{LocalMethod, LocalSettings, Status, parse_puzzle, solve_local};
/// let puzzle = parse_puzzle(
///     "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
/// ).unwrap();
/// for method in [LocalMethod::Annealing, LocalMethod::MinConflicts] {
///     let report = solve_local(&puzzle, &LocalSettings::new(method)).unwrap();
///     assert_eq!(report.status, Status::Solved);
///     assert!(report.solution.unwrap().is_solution_of(&puzzle));
/// }
/// ```
pub fn solve_local(puzzle: &Grid, settings: &LocalSettings) -> Result<LocalReport, LocalError> {
    let (outcome, grid, stats) = match settings.method {
        LocalMethod::Annealing => {
            let mut model = BoxSwaps::new(puzzle)?;
            let config = Annealing {
                max_steps: settings.max_steps,
                seed: settings.seed,
                time: settings.time,
                cancel: settings.cancel.clone(),
                ..Annealing::default()
            };
            let run = anneal(&mut model, &config);
            (run.outcome, model.grid(), LocalSearchStats::Annealing(run.stats))
        }
        LocalMethod::MinConflicts => {
            let mut model = CellConflicts::new(puzzle)?;
            let config = MinConflicts {
                max_steps: settings.max_steps,
                restart_after: settings.restart_after,
                seed: settings.seed,
                time: settings.time,
                cancel: settings.cancel.clone(),
            };
            let run = min_conflicts(&mut model, &config);
            (
                run.outcome,
                model.grid(),
                LocalSearchStats::MinConflicts(run.stats),
            )
        }
    };
    let verified = outcome == LocalOutcome::Solved && grid.is_solution_of(puzzle);
    if outcome == LocalOutcome::Solved && !verified {
        log::error!(
            "{} reported a grid that breaks the rules: {grid}",
            settings.method
        );
    }
    Ok(LocalReport {
        method: settings.method,
        status: if verified { Status::Solved } else { Status::Limit },
        outcome,
        solution: verified.then_some(grid),
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    const PUZZLE: &str = "700100000020000015000006390200018000040090070000750003078500000560000040000001002";

    #[test]
    fn annealing_delta_matches_recomputed_cost() {
        let puzzle: Grid = crate::parse_puzzle(PUZZLE).unwrap();
        let mut m = BoxSwaps::new(&puzzle).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        m.initialize(&mut rng);
        for _ in 0..2000 {
            let mv = m.random_move(&mut rng).unwrap();
            let before = m.cost() as i64;
            let d = m.delta(&mv);
            m.apply(&mv);
            assert_eq!(m.cost() as i64 - before, d);
            // Boxes keep each value once; givens stay.
            assert!(m.grid().satisfies(&puzzle));
        }
        for b in 0..9 {
            let mut vals: Vec<u8> = m.units.box_cells(b).iter().map(|&c| m.cells[c]).collect();
            vals.sort();
            assert_eq!(vals, (1..=9).collect::<Vec<u8>>());
        }
    }

    #[test]
    fn conflicts_are_peers_with_the_same_value() {
        let puzzle: Grid = crate::parse_puzzle(PUZZLE).unwrap();
        let mut m = CellConflicts::new(&puzzle).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        m.initialize(&mut rng);
        for step in 0..300 {
            let var = rng.random_range(0..m.num_vars());
            m.set_value(var, rng.random_range(0..9));
            let var = step % m.num_vars();
            let cell = usize::from(m.vars[var]);
            for value in 0..9 {
                let expected = m
                    .units
                    .peers(cell)
                    .iter()
                    .filter(|&&p| usize::from(m.cells[p]) == value + 1)
                    .count() as u32;
                assert_eq!(m.conflicts(var, value), expected);
            }
        }
    }

    #[test]
    fn conflicting_givens_are_an_error() {
        let grid = crate::parse_puzzle_unchecked("11..............").unwrap();
        let err = BoxSwaps::new(&grid).unwrap_err();
        assert_eq!(err.to_string(), "r1c1 and r1c2 both hold 1 in row 1");
        assert!(CellConflicts::new(&grid).is_err());
    }
}
