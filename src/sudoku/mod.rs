//! `csp sudoku`: Sudoku commands, one file per subcommand. Parsing, solving, counting,
//! rating and generating live in csp-sudoku; these modules read input, run batches
//! (optionally on several cores) and write results.

mod compare;
mod count;
mod explain;
mod generate;
mod hint;
mod local;
mod options;
mod rate;
mod solve;

use clap::{Args, Subcommand};

use crate::error::CliError;

/// Arguments of `csp sudoku`.
#[derive(Args)]
pub struct SudokuArgs {
    #[command(subcommand)]
    command: SudokuCommand,
}

#[derive(Subcommand)]
enum SudokuCommand {
    /// Solve every puzzle of a file (one per line) or one grid; one output per puzzle, in input order.
    ///
    /// Default: the alldiff model with locked candidates, singles up to 9x9 and GAC from
    /// 16x16 up, the dom-wdeg-fixed/asc/mac strategy, and from 25x25 up branching on places;
    /// --var, --val, --inference and --branching replace its parts.
    Solve(solve::SolveArgs),
    /// Count the solutions of every puzzle.
    ///
    /// Default: the alldiff model with locked candidates, singles up to 9x9 and GAC from
    /// 16x16 up, the dom-wdeg-fixed/asc/mac strategy, and from 25x25 up branching on places;
    /// --var, --val, --inference and --branching replace its parts.
    Count(count::CountArgs),
    /// Compare search strategies on a puzzle file: nodes, backtracks and time per strategy.
    Compare(compare::CompareArgs),
    /// Generate puzzles with a unique solution (or complete grids with --full).
    Generate(generate::GenerateArgs),
    /// Rate puzzles: techniques needed, guessing, search effort, score and level.
    Rate(rate::RateArgs),
    /// The next logical step for a partly filled grid, with its reason.
    Hint(hint::HintArgs),
    /// Why a puzzle has no solution (a minimal set of its givens that has none), or two of
    /// its solutions when it has several.
    Explain(explain::ExplainArgs),
}

/// Runs `csp sudoku`.
pub fn run(args: SudokuArgs) -> Result<u8, CliError> {
    match args.command {
        SudokuCommand::Solve(a) => solve::run(a),
        SudokuCommand::Count(a) => count::run(a),
        SudokuCommand::Compare(a) => compare::run(a),
        SudokuCommand::Generate(a) => generate::run(a),
        SudokuCommand::Rate(a) => rate::run(a),
        SudokuCommand::Hint(a) => hint::run(a),
        SudokuCommand::Explain(a) => explain::run(a),
    }
}
