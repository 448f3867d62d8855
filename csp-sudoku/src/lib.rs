//! Sudoku of any order (4x4 up to 64x64): the board, text formats, human solving
//! techniques and hints, the CSP models on csp-core ([`SudokuModel`], [`solve`], [`count`]),
//! strategy comparison, a generator, difficulty rating, and local search.
//!
//! ```
//! use csp_sudoku::{parse_puzzle, propagate_singles, rate_logic, next_hint, Technique};
//!
//! // The example of the seed-000 document (`data/sudoku/README.md`), written with `?` for blanks.
//! let puzzle = parse_puzzle(
//!     "? ? 8 ? ? ? 1 5 ?
//!      ? ? ? ? ? 1 8 ? ?
//!      3 ? 5 4 ? ? ? ? 9
//!      5 ? ? ? ? 9 ? ? ?
//!      ? 9 ? 2 3 4 ? 7 ?
//!      ? ? ? 1 ? ? ? ? 8
//!      4 ? ? ? ? 5 9 ? 1
//!      ? ? 6 7 ? ? ? ? ?
//!      ? 5 3 ? ? ? 2 ? ?",
//! )?;
//! assert_eq!((puzzle.size(), puzzle.givens()), (9, 27));
//! assert_eq!(puzzle.to_string(), "..8...15......18..3.54....95....9....9.234.7....1....84....59.1..67......53...2..");
//!
//! // Naked and hidden singles alone get stuck on it (the seed-000 solver then guesses with `amb`)...
//! let outcome = propagate_singles(&puzzle);
//! assert!(!outcome.is_solved());
//! assert_eq!(outcome.filled(), 11);
//!
//! // ...but pairs and pointing finish it: no guess needed.
//! let report = rate_logic(&puzzle);
//! assert!(!report.stuck && report.grid.is_solution_of(&puzzle));
//! assert_eq!(report.hardest, Some(Technique::Pointing));
//! assert!(report.grid.to_string().starts_with("748392156"));
//!
//! // The next step, explained.
//! let hint = next_hint(&puzzle)?;
//! assert_eq!(report.grid.get(hint.row - 1, hint.col - 1), hint.value);
//! println!("{}", hint.reason);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod checked_hint;
mod compare;
mod defaults;
mod explain;
mod format;
mod generate;
mod grid;
mod local;
mod logic;
mod model;
mod parse;
mod prepass;
mod rate;
mod solve;
mod units;

pub use checked_hint::{CheckedHint, HintProblem, checked_hint, checked_hint_within};
pub use compare::{Contender, Summary, default_contenders, summarise, summarise_runs};
pub use defaults::{
    PerOrder, default_branching, default_config, default_locked, default_model, default_strategy,
};
pub use explain::{GivensExplanation, GivensReport, explain_givens};
pub use format::{FormatError, MAX_SYMBOL_VALUE, Pretty, symbol};
pub use generate::{
    GenerateConfig, GenerateError, Generated, Generator, MAX_GENERATE_ORDER, MIN_GENERATE_ORDER, Symmetry,
    min_clues,
};
pub use grid::{Conflict, Grid, GridError};
pub use local::{
    BoxSwaps, CellConflicts, LocalError, LocalMethod, LocalReport, LocalSearchStats, LocalSettings,
    solve_local,
};
pub use logic::{
    Candidates, CellValue, Contradiction, Deduction, Hint, HintCell, HintError, HintKind, LogicReport,
    SinglesOutcome, Technique, hint_for, next_deduction, next_hint, propagate_naked_singles,
    propagate_singles, rate_logic,
};
pub use model::{ModelKind, SudokuModel};
pub use parse::{
    CountedPuzzle, CountedReader, MAX_LINE_BYTES, ParseError, PuzzleReader, is_puzzle_line, looks_like_row,
    parse_counted_at, parse_counted_line, parse_line, parse_puzzle, parse_puzzle_from,
    parse_puzzle_unchecked,
};
pub use rate::{Level, RateError, Rating, rate, rate_with, rate_within, score};
pub use solve::{CountReport, SolveReport, Status, count, count_with, solve, solve_with};
pub use units::{MAX_ORDER, MIN_ORDER, Unit, UnitKind, Units};
