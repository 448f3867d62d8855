//! Solving and counting puzzles with csp-core's backtracking search.

use csp_core::{
    Branching, Inference, LimitKind, SearchConfig, Solver, Stats, Strategy, Strength, ValueOrder, VarOrder,
};
use serde::Serialize;

use crate::grid::Grid;
use crate::model::{ModelKind, SudokuModel};

/// How a puzzle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Solved (for counts: counted exactly, at least one solution).
    Solved,
    /// No solution.
    Unsatisfiable,
    /// Counting stopped at the requested cap: at least that many solutions.
    Capped,
    /// A node or time limit stopped the search first.
    Limit,
    /// The input could not be read as a puzzle.
    Error,
}

impl Status {
    /// The status name as written in reports.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsatisfiable => "unsatisfiable",
            Status::Capped => "capped",
            Status::Limit => "limit",
            Status::Error => "error",
        }
    }
}

/// The fastest model for boards of box side `order`: one all-different constraint per
/// unit, with naked and hidden singles up to 9x9 and generalised arc consistency (singles
/// first) from 16x16 up. [`SudokuModel::default_for`] adds locked candidates from 9x9 up.
///
/// On 9x9, locked candidates prune about what GAC adds to singles, at a fraction of the
/// cost: side by side, singles with locked candidates solve forum-hardest-1106 34% faster
/// than GAC and 17-clue 8% faster. From 16x16 up GAC pays: without it the 16x16 minimal
/// puzzles take 2.7 times the nodes.
pub fn default_model(order: usize) -> ModelKind {
    if order <= 3 {
        ModelKind::AllDiff(Strength::Hidden)
    } else {
        ModelKind::AllDiff(Strength::Gac)
    }
}

/// The default strategy: `dom-wdeg-fixed` variable order (fewest values per unit of
/// conflict weight, the weight going to the cells in conflict and the decision behind it),
/// ascending values, propagation to a fixpoint (MAC). On hard puzzles it needs about half
/// the nodes of MRV, and from 16x16 up 19 to 27% fewer than plain dom/wdeg.
pub fn default_strategy() -> Strategy {
    Strategy::new(VarOrder::DomWdegFixed, ValueOrder::Asc, Inference::Mac)
}

/// The default branching of each order: on places (a value that only two cells of a
/// unit can still take) from 25x25 up, where it expands 15 to 30% fewer nodes (frisch.txt:
/// 29% fewer in all, its worst puzzle half the nodes). On 16x16 it saves nothing over
/// sets of puzzles it was not tried on first, and on 9x9 it costs nodes
/// (forum-hardest-1106: 45% more), so up to 16x16 decisions branch on cells.
pub fn default_branching(order: usize) -> Branching {
    if order >= 5 {
        Branching::Places
    } else {
        Branching::Variables
    }
}

/// The search configuration `csp sudoku solve|count` uses by default for puzzles of
/// `order`: [`default_strategy`] with [`default_branching`], no limits.
pub fn default_config(order: usize) -> SearchConfig {
    SearchConfig {
        branching: default_branching(order),
        ..SearchConfig::with_strategy(default_strategy())
    }
}

/// The result of solving one puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct SolveReport {
    /// How it ended.
    pub status: Status,
    /// The solution, when solved.
    pub solution: Option<Grid>,
    /// Which limit stopped it, for [`Status::Limit`].
    pub limit: Option<LimitKind>,
    /// Search statistics.
    pub stats: Stats,
}

/// Finds the first solution of `puzzle`.
///
/// ```
/// use csp_sudoku::{default_config, solve, Grid, Status, SudokuModel};
/// let puzzle: Grid = "1.34.4...32.2.4.".parse().unwrap_or_else(|_| unreachable!());
/// let rules = SudokuModel::default_for(2);
/// let report = solve(&rules, &puzzle, &default_config(2));
/// assert_eq!(report.status, Status::Solved);
/// assert!(report.solution.unwrap().is_solved());
/// ```
pub fn solve(rules: &SudokuModel, puzzle: &Grid, config: &SearchConfig) -> SolveReport {
    let model = rules.with_givens_for(puzzle, config.strategy.inference);
    let mut solver = Solver::new(&model, config.clone()).expect("restarts are allowed when solving");
    let outcome = solver.solve();
    let (status, solution, limit) = match outcome {
        csp_core::Outcome::Solved(values) => (Status::Solved, Some(rules.grid_of(&values)), None),
        csp_core::Outcome::Unsatisfiable => (Status::Unsatisfiable, None, None),
        csp_core::Outcome::Limit(kind) => (Status::Limit, None, Some(kind)),
    };
    SolveReport {
        status,
        solution,
        limit,
        stats: solver.stats().clone(),
    }
}

/// The result of counting the solutions of one puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct CountReport {
    /// [`Status::Solved`] (exact, at least one), [`Status::Unsatisfiable`] (exactly none),
    /// [`Status::Capped`] (stopped at the cap) or [`Status::Limit`].
    pub status: Status,
    /// Solutions found (exact unless capped or limited).
    pub solutions: u64,
    /// The first solution found, if any.
    pub first: Option<Grid>,
    /// Which limit stopped it, for [`Status::Limit`].
    pub limit: Option<LimitKind>,
    /// Search statistics over the whole count.
    pub stats: Stats,
}

impl CountReport {
    /// Whether the puzzle has exactly one solution (known only when the count ended).
    pub fn is_unique(&self) -> bool {
        self.solutions == 1 && self.status == Status::Solved
    }
}

/// Counts the solutions of `puzzle`, stopping at `cap` if given (a cap of 2 checks
/// uniqueness).
pub fn count(rules: &SudokuModel, puzzle: &Grid, config: &SearchConfig, cap: Option<u64>) -> CountReport {
    let model = rules.with_givens_for(puzzle, config.strategy.inference);
    let mut solver = Solver::new(&model, config.clone()).expect("a valid configuration");
    let mut solutions = 0u64;
    let mut first = None;
    let limit = solver.for_each_solution(|values| {
        if first.is_none() {
            first = Some(rules.grid_of(values));
        }
        solutions += 1;
        cap.is_none_or(|c| solutions < c)
    });
    let status = match limit {
        Some(_) => Status::Limit,
        None if cap.is_some_and(|c| solutions >= c) => Status::Capped,
        None if solutions == 0 => Status::Unsatisfiable,
        None => Status::Solved,
    };
    CountReport {
        status,
        solutions,
        first,
        limit,
        stats: solver.stats().clone(),
    }
}
