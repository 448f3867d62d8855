//! The flags `solve` and `count` share (model, strategy, limits, workers), and the
//! text output of a solution that backtracking and local search share.

use std::io::Write;

use clap::{Args, ValueEnum};
use csp_core::{Backjump, Branching, Strength};
use csp_sudoku::{Grid, ModelKind, PerOrder};

use crate::args::{LimitArgs, ParallelArgs, StrategyArgs, checked, parse_restarts};
use crate::error::{CliError, usage};

/// The model flags.
#[derive(Args, Clone, Debug, Default)]
pub struct ModelArgs {
    /// Model: `pairwise` (!= between peers, the textbook model) or `alldiff` (one
    /// all-different constraint per unit). Default: alldiff.
    #[arg(long, value_name = "MODEL", value_parser = ["pairwise", "alldiff"], allow_negative_numbers = true)]
    pub model: Option<String>,
    /// All-different strength for the alldiff model: value, hidden, gac. Default: hidden up
    /// to 9x9, gac from 16x16 up.
    #[arg(long, value_name = "STRENGTH", allow_negative_numbers = true)]
    pub alldiff: Option<Strength>,
    /// Locked candidates for the alldiff model (each box linked with the rows and columns it
    /// crosses): on or off. Default: on from 9x9 up for the default model, from 16x16 up
    /// when --alldiff is given.
    #[arg(long, value_name = "ON|OFF", value_parser = ["on", "off"], allow_negative_numbers = true)]
    pub locked: Option<String>,
}

impl ModelArgs {
    /// The chosen model kind; `None`: the default of each order
    /// ([`csp_sudoku::default_model`]).
    pub fn kind(&self) -> Result<Option<ModelKind>, CliError> {
        match (self.model.as_deref(), self.alldiff) {
            (Some("pairwise"), Some(_)) => Err(usage("--alldiff only applies to --model alldiff")),
            (Some("pairwise"), None) => Ok(Some(ModelKind::Pairwise)),
            (_, Some(strength)) => Ok(Some(ModelKind::AllDiff(strength))),
            (_, None) => Ok(None),
        }
    }

    /// The locked-candidates choice, if given.
    pub fn locked(&self) -> Result<Option<bool>, CliError> {
        match (self.locked.as_deref(), self.model.as_deref()) {
            (Some(_), Some("pairwise")) => Err(usage("--locked only applies to --model alldiff")),
            (locked, _) => Ok(locked.map(|l| l == "on")),
        }
    }
}

/// Output formats of `solve`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SolveFormat {
    /// The solution in line format; an unsolved puzzle gets a line starting with `#`.
    Line,
    /// A grid with box separators.
    Grid,
    /// One JSON object per line.
    Json,
}

/// The flags of every backtracking command: model, strategy, limits and workers.
#[derive(Args)]
pub struct SearchArgs {
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub strategy: StrategyArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Restarts: `none`, `luby[:SCALE]` (SCALE nodes per unit run, default 100) or
    /// `geometric[:FIRST[:FACTOR]]` (defaults 100 and 1.5). Each subtree a run finished
    /// is recorded as a nogood, so no work is lost and counts stay exact. Default: none.
    #[arg(long, value_name = "POLICY", allow_negative_numbers = true)]
    pub restarts: Option<String>,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = crate::args::parse_jobs, allow_negative_numbers = true)]
    pub jobs: usize,
    #[command(flatten)]
    pub parallel: ParallelArgs,
}

impl SearchArgs {
    /// The model and search configuration of each order these flags choose.
    pub fn per_order(&self) -> Result<PerOrder, CliError> {
        let (kind, locked) = (self.model.kind()?, self.model.locked()?);
        let mut config = self
            .strategy
            .config(csp_sudoku::default_strategy(), &self.limits)?;
        if let Some(text) = &self.restarts {
            config.restarts = parse_restarts(text).map_err(usage)?;
        }
        let config = checked(config)?;
        // Backjumping branches on variables: not on places, the default from 25x25 up.
        let backjumping = config.backjump != Backjump::None;
        let branching = self
            .strategy
            .branching
            .or(backjumping.then_some(Branching::Variables));
        Ok(PerOrder::new(config)
            .kind(kind)
            .locked(locked)
            .branching(branching))
    }
}

/// Writes a solution in line or grid format, or else the comment line `# note` (such
/// as `# line 5: limit: ...`).
pub fn write_text(
    out: &mut impl Write,
    format: SolveFormat,
    solution: Option<&Grid>,
    note: &str,
) -> std::io::Result<()> {
    match solution {
        Some(grid) if format == SolveFormat::Grid => writeln!(out, "{}", grid.pretty()),
        Some(grid) => writeln!(out, "{grid}"),
        None => writeln!(out, "# {note}"),
    }
}
