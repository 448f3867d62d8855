//! Why a puzzle has no solution, or more than one: a minimal set of its givens that has no
//! solution (the others removed), found by csp-core's MUS algorithms with the givens as the
//! groups; or two solutions that differ.

use csp_core::explain::{self, Check, ExplainLimits, Explanation, Method};
use csp_core::{LimitKind, SearchConfig, Solver};

use crate::grid::Grid;
use crate::model::SudokuModel;
use crate::solve::{Status, solve};

/// What [`explain_givens`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GivensExplanation {
    /// No solution: `clues` holds only the givens of a subset that has none either (the
    /// other cells blank); `minimal` when removing any one of them was proved to leave a
    /// puzzle with a solution.
    NoSolution {
        /// The puzzle with only those givens.
        clues: Grid,
        /// Whether it is proved minimal (false after a limit).
        minimal: bool,
    },
    /// Exactly one solution.
    Unique(Grid),
    /// Two different solutions (there may be more).
    Several(Grid, Grid),
    /// A limit stopped the search before the puzzle was decided.
    Unknown(LimitKind),
}

/// What [`explain_givens`] returns: the answer and the solver calls it took.
#[derive(Clone, Debug)]
pub struct GivensReport {
    /// The answer.
    pub explanation: GivensExplanation,
    /// Solver calls made.
    pub calls: u64,
    /// The limit that stopped a call or the explanation, if any.
    pub limit: Option<LimitKind>,
}

/// Explains `puzzle`: two solutions when it has several, the solution when it has one, and
/// when it has none, a minimal subset of its givens that has none (QuickXplain over the
/// givens, each call a search with `config`, whose limits hold per call; `limits` hold over
/// the whole explanation). Clashing givens (two 5s in a row) are allowed: they are the
/// simplest such subsets.
///
/// ```
/// use csp_sudoku::{GivensExplanation, SudokuModel, default_config, explain_givens, parse_puzzle_unchecked};
/// use csp_core::explain::ExplainLimits;
///
/// // A 4x4 puzzle whose last row has 1, 2 and 4 given, and a 3 given above its blank.
/// let puzzle = parse_puzzle_unchecked("..3.........12.4").unwrap();
/// let rules = SudokuModel::default_for(2);
/// let report = explain_givens(&rules, &puzzle, &default_config(2), &ExplainLimits::default());
/// let GivensExplanation::NoSolution { clues, minimal } = report.explanation else { unreachable!() };
/// assert!(minimal);
/// assert_eq!(clues.givens(), 4);
/// ```
pub fn explain_givens(
    rules: &SudokuModel,
    puzzle: &Grid,
    config: &SearchConfig,
    limits: &ExplainLimits,
) -> GivensReport {
    let givens: Vec<usize> = (0..puzzle.cells().len())
        .filter(|&c| puzzle.cells()[c] != 0)
        .collect();
    let only = |subset: &[usize]| {
        let mut cells = vec![0u8; puzzle.cells().len()];
        for &g in subset {
            cells[givens[g]] = puzzle.cells()[givens[g]];
        }
        Grid::from_cells(puzzle.order(), cells).expect("the givens of a grid")
    };
    let oracle = |subset: &[usize]| {
        let report = solve(rules, &only(subset), config);
        match report.status {
            Status::Solved
                if report
                    .solution
                    .as_ref()
                    .is_some_and(|s| s.is_solution_of(&only(subset))) =>
            {
                Check::Sat
            }
            Status::Unsatisfiable => Check::Unsat,
            Status::Limit => Check::Unknown(report.limit.unwrap_or(LimitKind::Nodes)),
            // A solution that is none is no proof of anything.
            _ => Check::Unknown(LimitKind::Cancelled),
        }
    };
    let report = explain::explain(givens.len(), oracle, Method::QuickXplain, limits);
    let explanation = match report.explanation {
        Explanation::Unsatisfiable(mus) => GivensExplanation::NoSolution {
            clues: only(&mus.groups),
            minimal: mus.minimal,
        },
        Explanation::Unknown(kind) => GivensExplanation::Unknown(kind),
        Explanation::Satisfiable => two_solutions(rules, puzzle, config),
    };
    GivensReport {
        explanation,
        calls: report.calls,
        limit: report.limit,
    }
}

/// The solution of a solvable puzzle, or two of them.
fn two_solutions(rules: &SudokuModel, puzzle: &Grid, config: &SearchConfig) -> GivensExplanation {
    let model = rules.with_givens_for(puzzle, config.strategy.inference);
    let Ok(mut solver) = Solver::new(&model, config.clone()) else {
        return GivensExplanation::Unknown(LimitKind::Cancelled);
    };
    let mut found: Vec<Grid> = Vec::new();
    let limit = solver.for_each_solution(|values| {
        found.push(rules.grid_of(values));
        found.len() < 2
    });
    match (found.len(), limit) {
        (2, _) => {
            let second = found.pop().expect("two");
            GivensExplanation::Several(found.pop().expect("two"), second)
        }
        (1, None) => GivensExplanation::Unique(found.pop().expect("one")),
        (_, Some(kind)) => GivensExplanation::Unknown(kind),
        // Satisfiable a moment ago: only a limit explains no solution now.
        (_, None) => GivensExplanation::Unknown(LimitKind::Cancelled),
    }
}
