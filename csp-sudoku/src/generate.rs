//! Puzzle generation: random complete grids from a randomised search of the blank board,
//! then clues removed (in symmetric groups) while the solution stays unique.
//!
//! Everything is reproducible: puzzle `i` of a [`Generator`] depends only on the
//! configuration and `i`, so puzzles can be made in any order or in parallel.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use csp_core::{
    Inference, LimitKind, Limits, Outcome, SearchConfig, Solver, Strategy, TieBreak, ValueOrder, VarOrder,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use thiserror::Error;

use crate::defaults::default_config;
use crate::grid::Grid;
use crate::logic::{SinglesOutcome, propagate_singles};
use crate::model::SudokuModel;
use crate::rate::{Level, RateError, Rating, rate_within};

/// The time and cancel flag one puzzle may use: the limits of each search it runs.
struct Budget {
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// No limit.
    fn none() -> Budget {
        Budget {
            deadline: None,
            cancel: None,
        }
    }

    /// The budget of one puzzle started now.
    fn of(config: &GenerateConfig) -> Budget {
        Budget {
            deadline: config.time.map(|t| Instant::now() + t),
            cancel: config.cancel.clone(),
        }
    }

    /// The limit reached, if any.
    fn spent(&self) -> Option<LimitKind> {
        if self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(LimitKind::Cancelled);
        }
        self.deadline
            .is_some_and(|d| Instant::now() >= d)
            .then_some(LimitKind::Time)
    }

    /// `limits` with what is left of this budget.
    fn limits(&self, limits: Limits) -> Limits {
        Limits {
            time: self.deadline.map(|d| d.saturating_duration_since(Instant::now())),
            cancel: self.cancel.clone(),
            ..limits
        }
    }
}

/// Smallest order the generator makes (4x4).
pub const MIN_GENERATE_ORDER: usize = 2;
/// Largest order the generator makes (36x36).
pub const MAX_GENERATE_ORDER: usize = 6;

/// Which cells are removed together, so that the clues keep a symmetry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Symmetry {
    /// Cells one at a time.
    #[default]
    None,
    /// A cell with its image under a half turn about the centre.
    Rotational,
    /// A cell with its mirror image across the vertical middle line.
    Mirror,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 3] = [Symmetry::None, Symmetry::Rotational, Symmetry::Mirror];

    /// `none`, `rotational` or `mirror`.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::Mirror => "mirror",
        }
    }

    /// The image of `cell` on a board of side `size`.
    pub fn image(self, size: usize, cell: usize) -> usize {
        let (r, c) = (cell / size, cell % size);
        match self {
            Symmetry::None => cell,
            Symmetry::Rotational => size * size - 1 - cell,
            Symmetry::Mirror => r * size + (size - 1 - c),
        }
    }

    /// The groups of cells removed together (one or two cells each), in cell order.
    pub fn groups(self, size: usize) -> Vec<Vec<usize>> {
        (0..size * size)
            .filter_map(|cell| {
                let image = self.image(size, cell);
                match image.cmp(&cell) {
                    std::cmp::Ordering::Less => None,
                    std::cmp::Ordering::Equal => Some(vec![cell]),
                    std::cmp::Ordering::Greater => Some(vec![cell, image]),
                }
            })
            .collect()
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Symmetry {
    type Err = csp_core::ParseNameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Symmetry::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| csp_core::ParseNameError {
                kind: "symmetry",
                found: s.to_string(),
                expected: "none, rotational, mirror",
            })
    }
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct GenerateConfig {
    /// Box side, 2 to 6 (4x4 to 36x36).
    pub order: usize,
    /// Symmetry of the clues. Default: none.
    pub symmetry: Symmetry,
    /// Stop removing at exactly this many clues. Default: `None` (remove until minimal:
    /// no clue, or symmetric group of clues, can go without losing uniqueness).
    pub clues: Option<usize>,
    /// Keep only puzzles of this level. Default: any.
    pub difficulty: Option<Level>,
    /// Seed of everything random. Default: 0.
    pub seed: u64,
    /// Complete grids tried per puzzle before giving up on `clues`, and puzzles tried
    /// per puzzle before giving up on `difficulty`. Default: 20 and 500.
    pub grid_attempts: usize,
    /// See [`GenerateConfig::grid_attempts`].
    pub difficulty_attempts: usize,
    /// Time allowed for each puzzle (or complete grid), from its start; past it
    /// [`GenerateError::Limit`]. Default: none.
    pub time: Option<Duration>,
    /// Stop when another thread (or a signal handler) sets this flag. Default: none.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl GenerateConfig {
    /// Minimal puzzles of this order, no symmetry, seed 0.
    pub fn new(order: usize) -> GenerateConfig {
        GenerateConfig {
            order,
            symmetry: Symmetry::None,
            clues: None,
            difficulty: None,
            seed: 0,
            grid_attempts: 20,
            difficulty_attempts: 500,
            time: None,
            cancel: None,
        }
    }
}

/// Why nothing (or not what was asked) could be generated.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GenerateError {
    /// The order is outside 2..=6.
    #[error("invalid order {0}: the generator makes orders 2 to 6 (4x4 to 36x36)")]
    InvalidOrder(usize),
    /// The clue count can never give a puzzle with a unique solution (or with the symmetry).
    #[error("impossible clue count {clues} for a {size}x{size} board: {reason}")]
    ImpossibleClues {
        /// The requested count.
        clues: usize,
        /// Side of the board.
        size: usize,
        /// Why.
        reason: String,
    },
    /// No grid tried could be brought down to the clue count.
    #[error(
        "could not reach {clues} clues with a unique solution in {attempts} grids (fewest reached: {fewest}); \
         ask for more clues"
    )]
    CluesNotReached {
        /// The requested count.
        clues: usize,
        /// Grids tried.
        attempts: usize,
        /// The fewest clues reached.
        fewest: usize,
    },
    /// The time limit ([`GenerateConfig::time`]) or the cancel flag stopped the work.
    #[error("stopped: {0}")]
    Limit(LimitKind),
    /// No puzzle tried had the requested level.
    #[error("no {level} puzzle among {attempts} generated ones; try another level, seed or clue count")]
    DifficultyNotReached {
        /// The requested level.
        level: Level,
        /// Puzzles tried.
        attempts: usize,
    },
}

impl GenerateError {
    /// Whether the request itself is invalid (rather than unlucky).
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            GenerateError::InvalidOrder(_) | GenerateError::ImpossibleClues { .. }
        )
    }
}

/// A generated puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct Generated {
    /// The puzzle (unique solution).
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// Its rating, when a difficulty was requested.
    pub rating: Option<Rating>,
    /// Complete grids made for it.
    pub grids: usize,
}

/// Makes puzzles and complete grids of one configuration.
///
/// ```
/// use csp_sudoku::{GenerateConfig, Generator, count, default_config, SudokuModel};
/// let generator = Generator::new(GenerateConfig { seed: 7, ..GenerateConfig::new(3) }).unwrap();
/// let made = generator.puzzle(0).unwrap();
/// assert!(made.solution.is_solution_of(&made.puzzle));
/// let rules = SudokuModel::default_for(3);
/// assert!(count(&rules, &made.puzzle, &default_config(3), Some(2)).is_unique());
/// // Reproducible: the same seed and index give the same puzzle.
/// assert_eq!(generator.puzzle(0).unwrap().puzzle, made.puzzle);
/// ```
#[derive(Clone, Debug)]
pub struct Generator {
    config: GenerateConfig,
    rules: SudokuModel,
    groups: Vec<Vec<usize>>,
}

/// The fewest clues a puzzle with a unique solution can have: 4 for 4x4 and 17 for 9x9
/// (both proved by exhaustive search), otherwise `N - 1` (with two values absent from
/// the clues, swapping them in a solution gives another).
pub fn min_clues(order: usize) -> usize {
    match order {
        2 => 4,
        3 => 17,
        _ => order * order - 1,
    }
}

impl Generator {
    /// Checks the configuration and builds the rules.
    pub fn new(config: GenerateConfig) -> Result<Generator, GenerateError> {
        let order = config.order;
        if !(MIN_GENERATE_ORDER..=MAX_GENERATE_ORDER).contains(&order) {
            return Err(GenerateError::InvalidOrder(order));
        }
        let size = order * order;
        let groups = config.symmetry.groups(size);
        if let Some(clues) = config.clues {
            let impossible = |reason: String| GenerateError::ImpossibleClues { clues, size, reason };
            if clues > size * size {
                return Err(impossible(format!("the board has only {} cells", size * size)));
            }
            if clues < min_clues(order) {
                return Err(impossible(format!(
                    "a unique solution needs at least {} clues",
                    min_clues(order)
                )));
            }
            if groups.iter().all(|g| g.len() == 2) && clues % 2 == 1 {
                return Err(impossible(format!(
                    "{} symmetry removes cells in pairs on an even-sided board, so the count must be even",
                    config.symmetry
                )));
            }
        }
        Ok(Generator {
            rules: SudokuModel::default_for(order),
            config,
            groups,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &GenerateConfig {
        &self.config
    }

    /// The generator of puzzle `index`: a ChaCha8 stream seeded from the configuration's
    /// seed and the index (SplitMix64 mixing).
    fn rng(&self, index: u64, salt: u64) -> ChaCha8Rng {
        let mut z = self
            .config
            .seed
            .wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_add(salt.wrapping_mul(0xD1B5_4A32_D192_ED03));
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ChaCha8Rng::seed_from_u64(z ^ (z >> 31))
    }

    /// A random complete grid: the blank board solved with MRV, random tie-breaks, values
    /// in random order and maintained arc consistency (the order's default model). A search
    /// that runs past a node limit starts again with the next seed.
    pub fn complete_grid(&self, rng: &mut dyn Rng) -> Grid {
        self.complete_grid_within(rng, &Budget::none())
            .expect("no limit without a budget")
    }

    fn complete_grid_within(&self, rng: &mut dyn Rng, budget: &Budget) -> Result<Grid, GenerateError> {
        let cells = self.rules.cells().len() as u64;
        loop {
            if let Some(kind) = budget.spent() {
                return Err(GenerateError::Limit(kind));
            }
            let config = SearchConfig {
                strategy: Strategy::new(VarOrder::Mrv, ValueOrder::Random, Inference::Mac),
                tie_break: TieBreak::Random,
                restarts: None,
                seed: rng.next_u64(),
                limits: budget.limits(Limits {
                    nodes: Some(20 * cells),
                    ..Limits::default()
                }),
                ..SearchConfig::default()
            };
            let mut solver = Solver::new(self.rules.model(), config).expect("no restarts");
            match solver.solve() {
                Outcome::Solved(values) => return Ok(self.rules.grid_of(&values)),
                Outcome::Unsatisfiable => unreachable!("the blank board has solutions"),
                Outcome::Limit(_) => log::debug!("blank-board search hit its node limit; new seed"),
            }
        }
    }

    /// Complete grid number `index` (for `--full`).
    pub fn full(&self, index: u64) -> Grid {
        self.complete_grid(&mut self.rng(index, 0))
    }

    /// [`Generator::full`] within the configuration's time and cancel flag.
    pub fn full_within(&self, index: u64) -> Result<Grid, GenerateError> {
        self.complete_grid_within(&mut self.rng(index, 0), &Budget::of(&self.config))
    }

    /// Removes clues from `solution` in random order (in symmetric groups) while the
    /// solution stays unique, down to `target` clues or a minimal puzzle.
    ///
    /// One pass suffices for minimality: removing clues never removes solutions, so a
    /// group whose removal broke uniqueness would break it again later.
    pub fn reduce(&self, solution: &Grid, target: Option<usize>, rng: &mut dyn Rng) -> Grid {
        self.reduce_within(solution, target, rng, &Budget::none())
            .expect("no limit without a budget")
    }

    fn reduce_within(
        &self,
        solution: &Grid,
        target: Option<usize>,
        rng: &mut dyn Rng,
        budget: &Budget,
    ) -> Result<Grid, GenerateError> {
        let mut config = default_config(solution.order());
        let mut puzzle = solution.clone();
        let mut clues = puzzle.givens();
        let mut order: Vec<usize> = (0..self.groups.len()).collect();
        order.shuffle(rng);
        for g in order {
            let group = &self.groups[g];
            if target.is_some_and(|t| clues <= t) {
                break;
            }
            if target.is_some_and(|t| clues - group.len() < t) {
                continue;
            }
            for &cell in group {
                puzzle.set_cell(cell, 0).expect("a cell of the board");
            }
            // Singles are sound deductions: when they fill the grid, its solution is unique
            // and the search can be skipped. Otherwise search for another solution.
            let by_singles = matches!(propagate_singles(&puzzle), SinglesOutcome::Solved { .. });
            config.limits = budget.limits(Limits::default());
            let unique = by_singles || !self.has_other_solution(&puzzle, solution, group, &config)?;
            if unique {
                clues -= group.len();
            } else {
                for &cell in group {
                    puzzle
                        .set_cell(cell, solution.cells()[cell])
                        .expect("a cell of the board");
                }
            }
        }
        Ok(puzzle)
    }

    /// Whether `puzzle` (made from a puzzle whose only solution is `solution` by blanking
    /// the cells of `removed`) has a solution other than `solution`. Such a solution breaks
    /// a removed clue, so it is enough to look, cell by cell, for a solution in which that
    /// cell differs: each search skips the subtree of the known solution. A limit of
    /// `config` that stops a search leaves the answer unknown: [`GenerateError::Limit`].
    fn has_other_solution(
        &self,
        puzzle: &Grid,
        solution: &Grid,
        removed: &[usize],
        config: &SearchConfig,
    ) -> Result<bool, GenerateError> {
        for &cell in removed {
            let mut model = self.rules.with_givens(puzzle);
            let var = self.rules.cells()[cell];
            model
                .exclude(var, i32::from(solution.cells()[cell]))
                .expect("a variable of the model");
            let mut solver = Solver::new(&model, config.clone()).expect("no restarts");
            match solver.solve() {
                Outcome::Solved(_) => return Ok(true),
                Outcome::Unsatisfiable => {}
                Outcome::Limit(kind) => return Err(GenerateError::Limit(kind)),
            }
        }
        Ok(false)
    }

    /// Puzzle number `index`: a unique solution, the requested clue count (or minimal),
    /// and the requested level if any.
    /// With [`GenerateConfig::time`] or [`GenerateConfig::cancel`], [`GenerateError::Limit`]
    /// when the time is up or the flag is set first.
    pub fn puzzle(&self, index: u64) -> Result<Generated, GenerateError> {
        let budget = Budget::of(&self.config);
        let Some(level) = self.config.difficulty else {
            return self.puzzle_with_clues(index, 0, &budget);
        };
        for attempt in 0..self.config.difficulty_attempts.max(1) {
            let mut made = self.puzzle_with_clues(index, attempt as u64, &budget)?;
            let rating = match rate_within(&self.rules, &made.puzzle, &budget.limits(Limits::default())) {
                Ok(rating) => rating,
                Err(RateError::Limit(kind)) => return Err(GenerateError::Limit(kind)),
                Err(e) => unreachable!("a generated puzzle has a solution: {e}"),
            };
            if rating.level == level {
                made.rating = Some(rating);
                return Ok(made);
            }
        }
        Err(GenerateError::DifficultyNotReached {
            level,
            attempts: self.config.difficulty_attempts.max(1),
        })
    }

    fn puzzle_with_clues(
        &self,
        index: u64,
        attempt: u64,
        budget: &Budget,
    ) -> Result<Generated, GenerateError> {
        let mut rng = self.rng(index, attempt + 1);
        let mut fewest = usize::MAX;
        let attempts = self.config.grid_attempts.max(1);
        for grids in 1..=attempts {
            let solution = self.complete_grid_within(&mut rng, budget)?;
            let puzzle = self.reduce_within(&solution, self.config.clues, &mut rng, budget)?;
            let clues = puzzle.givens();
            if self.config.clues.is_none_or(|t| clues == t) {
                return Ok(Generated {
                    puzzle,
                    solution,
                    rating: None,
                    grids,
                });
            }
            fewest = fewest.min(clues);
        }
        Err(GenerateError::CluesNotReached {
            clues: self.config.clues.unwrap_or(0),
            attempts,
            fewest,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetry_groups_cover_the_board_once() {
        for sym in Symmetry::ALL {
            for size in [4, 9, 16] {
                let mut cells: Vec<usize> = sym.groups(size).concat();
                cells.sort();
                assert_eq!(cells, (0..size * size).collect::<Vec<_>>(), "{sym} {size}");
            }
        }
        assert_eq!(Symmetry::Rotational.groups(9).len(), 41);
        assert_eq!(Symmetry::Mirror.groups(9).len(), 45);
        assert_eq!(Symmetry::Mirror.groups(4).len(), 8);
    }

    #[test]
    fn impossible_requests_are_rejected() {
        let with = |order, clues, symmetry| {
            Generator::new(GenerateConfig {
                clues: Some(clues),
                symmetry,
                ..GenerateConfig::new(order)
            })
            .err()
        };
        assert!(matches!(
            with(3, 82, Symmetry::None),
            Some(GenerateError::ImpossibleClues { .. })
        ));
        assert!(matches!(
            with(3, 16, Symmetry::None),
            Some(GenerateError::ImpossibleClues { .. })
        ));
        assert!(matches!(
            with(2, 7, Symmetry::Rotational),
            Some(GenerateError::ImpossibleClues { .. })
        ));
        assert!(with(2, 7, Symmetry::None).is_none());
        assert!(with(3, 81, Symmetry::Mirror).is_none());
        assert_eq!(
            Generator::new(GenerateConfig::new(7)).err(),
            Some(GenerateError::InvalidOrder(7))
        );
    }
}
