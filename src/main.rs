//! `csp`: solve, count and compare constraint-satisfaction puzzles from the command line.
//!
//! Exit codes: 0 success (every puzzle solved), 1 some puzzle not solved (no solution,
//! a limit, or a bad input line), 2 usage error (bad arguments).

/// `eprintln!` that ignores write failures: with standard error closed (`2>&1 | head`) the
/// summary and messages are dropped instead of panicking.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod args;
mod batch;
mod chart;
mod compare;
mod instance;
mod queens;
mod sudoku;
mod sudoku_tools;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Constraint satisfaction: Sudoku and n-queens on a generic CSP engine.
#[derive(Parser)]
#[command(name = "csp", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// n-queens: first solution, counting, local search.
    Queens(queens::QueensArgs),
    /// Sudoku of any order: solve, count, compare strategies, generate, rate.
    Sudoku(sudoku::SudokuArgs),
    /// Solve instances read from files: XCSP3 (.xml, .xml.xz, .xml.lzma) or DIMACS graph
    /// colouring (.col with --colors K). Default strategy: dom-wdeg/asc/mac.
    Solve(instance::solve::SolveArgs),
    /// Count the solutions of instances read from files (XCSP3 or DIMACS .col).
    Count(instance::count::CountArgs),
    /// Compare search strategies over instances read from files: nodes, backtracks, time.
    Compare(instance::compare::CompareArgs),
}

/// Exit code: every puzzle solved.
pub const EXIT_OK: u8 = 0;
/// Exit code: some puzzle was not solved, or some input was bad.
pub const EXIT_UNSOLVED: u8 = 1;
/// Exit code: bad arguments.
pub const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Queens(args) => queens::run(args),
        Command::Sudoku(args) => sudoku::run(args),
        Command::Solve(args) => instance::solve::run(args),
        Command::Count(args) => instance::count::run(args),
        Command::Compare(args) => instance::compare::run(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            note!("error: {err:#}");
            ExitCode::from(err.exit_code())
        }
    }
}

/// A command failure: usage errors exit with 2, everything else with 1.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad arguments or arguments that do not fit together.
    #[error("{0}")]
    Usage(String),
    /// Reading or writing failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Anything else that stops the command.
    #[error("{0}")]
    Failed(String),
}

impl CliError {
    fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => EXIT_USAGE,
            CliError::Io { .. } | CliError::Failed(_) => EXIT_UNSOLVED,
        }
    }
}
