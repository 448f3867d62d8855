//! `csp`: solve, count and compare constraint-satisfaction puzzles from the command line.
//!
//! Exit codes: 0 success (every puzzle solved), 1 some puzzle not solved (no solution,
//! a limit, or a bad input line), 2 usage error (bad arguments), 130 and 143 stopped by
//! SIGINT and SIGTERM (after writing every answer found).
//!
//! Layers, each importing only those above it: [`error`] (failures and exit codes) and
//! [`interrupt`] (SIGINT and SIGTERM), [`args`] (flags shared by every search), [`input`] (reading puzzles), [`run`] (batches,
//! output and summaries), then one module per command family, [`queens`], [`sudoku`],
//! [`instance`] (files), [`lab`] (random CSPs and sweeps) and [`tree`] (search traces),
//! one file per subcommand; [`chart`] draws every chart.

#[macro_use]
mod error;
mod args;
mod chart;
mod comparison;
mod input;
mod instance;
mod interrupt;
mod lab;
mod minizinc;
mod queens;
mod run;
mod stream;
mod sudoku;
mod tree;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Constraint satisfaction on a generic CSP engine: XCSP3 and DIMACS instances, Sudoku,
/// n-queens, random CSPs, strategy comparisons and search trees.
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
    /// Solve instances read from files: XCSP3 (.xml, .xml.xz, .xml.lzma), DIMACS graph
    /// colouring (.col with --colors K) or FlatZinc (.fzn).
    Solve(instance::solve::SolveArgs),
    /// Count the solutions of instances read from files (XCSP3, DIMACS .col, FlatZinc .fzn).
    Count(instance::count::CountArgs),
    /// Compare search strategies over instances read from files: nodes, backtracks, time;
    /// campaigns over seeds, resumed or spread over machines (--format jsonl, --resume, --shard).
    Compare(instance::compare::CompareArgs),
    /// Why an instance has no solution: a minimal unsatisfiable subset of its constraints
    /// (QuickXplain or deletion), or all of them (--all, MARCO).
    Explain(instance::explain::ExplainArgs),
    /// Merge the run records of `csp compare --format jsonl` into tables and charts.
    Report(instance::report::ReportArgs),
    /// Write random CSPs (model B, model RB) as XCSP3.
    Random(lab::random::RandomArgs),
    /// Phase-transition sweep: random instances over a range of one parameter, solved by
    /// several strategies; every run as CSV or JSON lines, and a chart.
    Sweep(lab::sweep::SweepArgs),
    /// Draw a search tree written by `--trace` (SVG or Graphviz DOT), and print its figures.
    Tree(tree::TreeArgs),
    /// csp as a MiniZinc solver: `csp minizinc install` makes `minizinc --solver csp` work.
    Minizinc(minizinc::MinizincArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    if let Err(e) = interrupt::install() {
        note!("warning: SIGINT and SIGTERM will end the program at once: {e}");
    }
    let result = match cli.command {
        Command::Queens(args) => queens::run(args),
        Command::Sudoku(args) => sudoku::run(args),
        Command::Solve(args) => instance::solve::run(args),
        Command::Count(args) => instance::count::run(args),
        Command::Compare(args) => instance::compare::run(args),
        Command::Explain(args) => instance::explain::run(args),
        Command::Report(args) => instance::report::run(args),
        Command::Random(args) => lab::random::run(args),
        Command::Sweep(args) => lab::sweep::run(args),
        Command::Tree(args) => tree::run(args),
        Command::Minizinc(args) => minizinc::run(args),
    };
    let code = match result {
        Ok(code) => code,
        Err(err) => {
            note!("error: {err:#}");
            err.exit_code()
        }
    };
    // Whatever was done, an interrupted run says so in its exit code.
    ExitCode::from(interrupt::received().map_or(code, |(_, code)| code))
}
