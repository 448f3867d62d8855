//! `csp queens`: n-queens commands.

use clap::{Args, Subcommand};

use crate::CliError;
use crate::args::{LimitArgs, StrategyArgs};

/// Arguments of `csp queens`.
#[derive(Args)]
pub struct QueensArgs {
    #[command(subcommand)]
    command: QueensCommand,
}

#[derive(Subcommand)]
enum QueensCommand {
    /// Find one solution.
    Solve {
        /// Board size.
        n: u64,
        #[command(flatten)]
        strategy: StrategyArgs,
        #[command(flatten)]
        limits: LimitArgs,
    },
}

/// Runs `csp queens`.
pub fn run(args: QueensArgs) -> Result<u8, CliError> {
    match args.command {
        QueensCommand::Solve { .. } => Err(CliError::Failed("not yet".into())),
    }
}
