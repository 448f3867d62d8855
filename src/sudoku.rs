//! `csp sudoku`: Sudoku commands. Parsing, solving and counting live in csp-sudoku;
//! this module reads input, runs batches (optionally on several cores) and writes
//! results.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use csp_core::{Branching, SearchConfig, Stats, Strength};
use csp_sudoku::{CountReport, Grid, ModelKind, ParseError, SolveReport, Status, SudokuModel};
use serde::Serialize;

use crate::args::{LimitArgs, StrategyArgs, parse_restarts, usage};
use crate::batch::{self, Batch};
use crate::compare::{self, CompareArgs};
use crate::sudoku_tools::{self, LocalSolve, Method};
use crate::{CliError, EXIT_OK, EXIT_UNSOLVED};

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
    Solve(SolveArgs),
    /// Count the solutions of every puzzle.
    ///
    /// Default: the alldiff model with locked candidates, singles up to 9x9 and GAC from
    /// 16x16 up, the dom-wdeg-fixed/asc/mac strategy, and from 25x25 up branching on places;
    /// --var, --val, --inference and --branching replace its parts.
    Count(CountArgs),
    /// Compare search strategies on a puzzle file: nodes, backtracks and time per strategy.
    Compare(CompareArgs),
    /// Generate puzzles with a unique solution (or complete grids with --full).
    Generate(sudoku_tools::GenerateArgs),
    /// Rate puzzles: techniques needed, guessing, search effort, score and level.
    Rate(sudoku_tools::RateArgs),
    /// The next logical step for a partly filled grid, with its reason.
    Hint(sudoku_tools::HintArgs),
}

/// Where puzzles come from and how to read them.
#[derive(Args, Clone, Debug)]
pub struct InputArgs {
    /// Puzzle file; `-` or nothing reads standard input.
    pub file: Option<PathBuf>,
    /// How to read the input: `lines` (one puzzle per line), `grid` (the whole input is one
    /// puzzle, as rows or numbers), `auto` (lines, unless the first puzzle line is no puzzle).
    #[arg(long, value_enum, default_value_t = InputMode::Auto)]
    pub input: InputMode,
}

/// See [`InputArgs::input`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputMode {
    /// Decide from the content.
    Auto,
    /// One puzzle per line.
    Lines,
    /// One puzzle in the whole input.
    Grid,
}

/// The model flags.
#[derive(Args, Clone, Debug, Default)]
pub struct ModelArgs {
    /// Model: `pairwise` (!= between peers, the textbook model) or `alldiff` (one
    /// all-different constraint per unit). Default: alldiff.
    #[arg(long, value_name = "MODEL", value_parser = ["pairwise", "alldiff"])]
    pub model: Option<String>,
    /// All-different strength for the alldiff model: value, hidden, gac. Default: hidden up
    /// to 9x9, gac from 16x16 up.
    #[arg(long, value_name = "STRENGTH")]
    pub alldiff: Option<Strength>,
    /// Locked candidates for the alldiff model (each box linked with the rows and columns it
    /// crosses): on or off. Default: on from 9x9 up for the default model, from 16x16 up
    /// when --alldiff is given.
    #[arg(long, value_name = "ON|OFF", value_parser = ["on", "off"])]
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
    #[arg(long, value_name = "POLICY")]
    pub restarts: Option<String>,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = crate::args::parse_jobs)]
    pub jobs: usize,
}

impl SearchArgs {
    /// The rules and the search configurations these flags choose.
    pub fn prepare(&self) -> Result<(Rules, Configs), CliError> {
        let rules = Rules::with_locked(self.model.kind()?, self.model.locked()?);
        let mut config = self
            .strategy
            .config(csp_sudoku::default_strategy(), &self.limits)?;
        if let Some(text) = &self.restarts {
            config.restarts = parse_restarts(text).map_err(usage)?;
        }
        Ok((rules, Configs::new(config, self.strategy.branching)))
    }
}

/// The search configuration of each order: the flags', with each order's default
/// branching ([`csp_sudoku::default_branching`]) unless `--branching` is given.
pub struct Configs {
    given: Option<Branching>,
    on_variables: SearchConfig,
    on_places: SearchConfig,
}

impl Configs {
    fn new(config: SearchConfig, given: Option<Branching>) -> Configs {
        let with = |branching| SearchConfig {
            branching,
            ..config.clone()
        };
        Configs {
            given,
            on_variables: with(Branching::Variables),
            on_places: with(Branching::Places),
        }
    }

    /// The configuration for puzzles of `order`.
    pub fn get(&self, order: usize) -> &SearchConfig {
        match self.given.unwrap_or_else(|| csp_sudoku::default_branching(order)) {
            Branching::Places => &self.on_places,
            _ => &self.on_variables,
        }
    }
}

#[derive(Args)]
struct SolveArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SolveFormat::Line)]
    format: SolveFormat,
    #[command(flatten)]
    search: SearchArgs,
    /// Search method: backtracking (complete), annealing or min-conflicts (local search).
    #[arg(long, value_enum, default_value_t = Method::Backtracking)]
    method: Method,
    /// Step limit per puzzle for annealing and min-conflicts. Default: 1000000.
    #[arg(long, value_name = "K")]
    max_steps: Option<u64>,
}

/// Output formats of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum CountFormat {
    /// One number per puzzle.
    Line,
    /// One JSON object per line.
    Json,
}

#[derive(Args)]
struct CountArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Stop counting at this many solutions (2 checks uniqueness). Default: count all, which
    /// never ends on nearly empty 9x9 grids (the empty one has about 6.7e21 solutions).
    #[arg(long, value_name = "K")]
    limit: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CountFormat::Line)]
    format: CountFormat,
    #[command(flatten)]
    search: SearchArgs,
}

/// Runs `csp sudoku`.
pub fn run(args: SudokuArgs) -> Result<u8, CliError> {
    match args.command {
        SudokuCommand::Solve(a) => run_solve(a),
        SudokuCommand::Count(a) => run_count(a),
        SudokuCommand::Compare(a) => compare::run(a),
        SudokuCommand::Generate(a) => sudoku_tools::run_generate(a),
        SudokuCommand::Rate(a) => sudoku_tools::run_rate(a),
        SudokuCommand::Hint(a) => sudoku_tools::run_hint(a),
    }
}

/// The rules for each order met in a batch, built once and shared by the workers.
pub struct Rules {
    /// `None`: [`csp_sudoku::default_model`] of each order.
    kind: Option<ModelKind>,
    locked: Option<bool>,
    by_order: [std::sync::OnceLock<SudokuModel>; csp_sudoku::MAX_ORDER + 1],
}

impl Rules {
    /// Rules of this kind, built on first use per order (locked candidates as
    /// [`csp_sudoku::default_locked`] says).
    pub fn new(kind: ModelKind) -> Rules {
        Rules::with_locked(Some(kind), None)
    }

    /// The default model of each order ([`csp_sudoku::default_model`]).
    pub fn by_default() -> Rules {
        Rules::with_locked(None, None)
    }

    /// Rules of this kind (`None`: each order's default) with locked candidates on, off,
    /// or (`None`) by default.
    pub fn with_locked(kind: Option<ModelKind>, locked: Option<bool>) -> Rules {
        Rules {
            kind,
            locked,
            by_order: std::array::from_fn(|_| std::sync::OnceLock::new()),
        }
    }

    /// The rules for `order`.
    pub fn get(&self, order: usize) -> &SudokuModel {
        self.by_order[order].get_or_init(|| match (self.kind, self.locked) {
            (None, None) => SudokuModel::default_for(order),
            (None, Some(locked)) => SudokuModel::build(order, csp_sudoku::default_model(order), locked),
            (Some(kind), locked) => {
                let locked = locked.unwrap_or_else(|| csp_sudoku::default_locked(order));
                SudokuModel::build(order, kind, locked)
            }
        })
    }
}

/// One JSON line of `solve`.
#[derive(Serialize)]
struct SolveLine<'a> {
    line: usize,
    status: &'static str,
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(flatten)]
    stats: &'a Stats,
}

fn run_solve(args: SolveArgs) -> Result<u8, CliError> {
    if args.method != Method::Backtracking || args.max_steps.is_some() {
        return sudoku_tools::solve_local(LocalSolve {
            method: args.method,
            max_steps: args.max_steps,
            input: &args.input,
            format: args.format,
            search: &args.search,
        });
    }
    let (rules, configs) = args.search.prepare()?;
    let puzzles = batch::puzzles(batch::Input::open(args.input.file.as_deref())?, args.input.input)?;
    let started = Instant::now();
    let mut tally = Tally::default();
    let format = args.format;
    let mut out = batch::results_output();
    Batch::new(args.search.jobs)?.run(
        puzzles,
        |puzzle: &Grid| {
            let order = puzzle.order();
            csp_sudoku::solve(rules.get(order), puzzle, configs.get(order))
        },
        |line, result: Result<&SolveReport, &ParseError>| {
            tally.add(result.map_or(Status::Error, |r| r.status));
            write_solve(&mut out, format, line, result)
        },
    )?;
    batch::finish_output(out)?;
    tally.report("solved", started);
    Ok(tally.exit_code(|s| s == Status::Solved))
}

fn write_solve(
    out: &mut impl Write,
    format: SolveFormat,
    line: usize,
    result: Result<&SolveReport, &ParseError>,
) -> std::io::Result<()> {
    match format {
        SolveFormat::Json => {
            let empty = Stats::default();
            let record = match result {
                Ok(r) => SolveLine {
                    line,
                    status: r.status.name(),
                    solution: r.solution.as_ref().map(|g| g.to_string()),
                    error: r.limit.map(|l| l.to_string()),
                    stats: &r.stats,
                },
                Err(e) => SolveLine {
                    line,
                    status: Status::Error.name(),
                    solution: None,
                    error: Some(e.to_string()),
                    stats: &empty,
                },
            };
            writeln!(
                out,
                "{}",
                serde_json::to_string(&record).expect("plain data serialises")
            )
        }
        SolveFormat::Line | SolveFormat::Grid => match result {
            Ok(r) => {
                let why = match r.limit {
                    Some(limit) => format!("limit: {limit} after {} nodes", r.stats.nodes),
                    None => "unsatisfiable: the puzzle has no solution".to_string(),
                };
                write_text(out, format, line, r.solution.as_ref(), &why)
            }
            Err(e) => write_text(out, format, line, None, &format!("error: {e}")),
        },
    }
}

/// Writes a solution in line or grid format, or else a line `# line N: why`.
pub fn write_text(
    out: &mut impl Write,
    format: SolveFormat,
    line: usize,
    solution: Option<&Grid>,
    why: &str,
) -> std::io::Result<()> {
    match solution {
        Some(grid) if format == SolveFormat::Grid => writeln!(out, "{}", grid.pretty()),
        Some(grid) => writeln!(out, "{grid}"),
        None => writeln!(out, "# line {line}: {why}"),
    }
}

/// One JSON line of `count`.
#[derive(Serialize)]
struct CountLine {
    line: usize,
    status: &'static str,
    solutions: Option<u64>,
    nodes: u64,
    backtracks: u64,
    /// Restarts made (with `--restarts`).
    #[serde(skip_serializing_if = "is_zero")]
    restarts: u64,
    /// Decisions on the places of a value (with branching on places).
    #[serde(skip_serializing_if = "is_zero")]
    place_decisions: u64,
    elapsed_ms: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn run_count(args: CountArgs) -> Result<u8, CliError> {
    if args.limit == Some(0) {
        return Err(usage("--limit must be at least 1"));
    }
    let (rules, configs) = args.search.prepare()?;
    let puzzles = batch::puzzles(batch::Input::open(args.input.file.as_deref())?, args.input.input)?;
    let started = Instant::now();
    let mut tally = Tally::default();
    let format = args.format;
    let cap = args.limit;
    let mut out = batch::results_output();
    Batch::new(args.search.jobs)?.run(
        puzzles,
        |puzzle: &Grid| {
            let order = puzzle.order();
            csp_sudoku::count(rules.get(order), puzzle, configs.get(order), cap)
        },
        |line, result: Result<&CountReport, &ParseError>| {
            tally.add(result.map_or(Status::Error, |r| r.status));
            write_count(&mut out, format, line, result)
        },
    )?;
    batch::finish_output(out)?;
    tally.report("counted", started);
    Ok(tally.exit_code(|s| s != Status::Limit))
}

fn write_count(
    out: &mut impl Write,
    format: CountFormat,
    line: usize,
    result: Result<&CountReport, &ParseError>,
) -> std::io::Result<()> {
    match format {
        CountFormat::Json => {
            let record = match result {
                Ok(r) => CountLine {
                    line,
                    status: r.status.name(),
                    solutions: Some(r.solutions),
                    nodes: r.stats.nodes,
                    backtracks: r.stats.backtracks,
                    restarts: r.stats.restarts,
                    place_decisions: r.stats.place_decisions,
                    elapsed_ms: r.stats.elapsed.as_secs_f64() * 1000.0,
                    error: r.limit.map(|l| l.to_string()),
                },
                Err(e) => CountLine {
                    line,
                    status: Status::Error.name(),
                    solutions: None,
                    nodes: 0,
                    backtracks: 0,
                    restarts: 0,
                    place_decisions: 0,
                    elapsed_ms: 0.0,
                    error: Some(e.to_string()),
                },
            };
            writeln!(
                out,
                "{}",
                serde_json::to_string(&record).expect("plain data serialises")
            )
        }
        CountFormat::Line => match result {
            Ok(r) if r.status == Status::Limit => writeln!(
                out,
                "# line {line}: limit: {} after {} solutions",
                r.limit.map_or_else(String::new, |l| l.to_string()),
                r.solutions
            ),
            Ok(r) => writeln!(out, "{}", r.solutions),
            Err(e) => writeln!(out, "# line {line}: error: {e}"),
        },
    }
}

/// Counts outcomes for the summary and the exit code.
#[derive(Default)]
pub struct Tally {
    total: usize,
    by_status: [usize; 5],
}

impl Tally {
    /// Counts one puzzle.
    pub fn add(&mut self, status: Status) {
        self.total += 1;
        self.by_status[status as usize] += 1;
    }

    fn count(&self, status: Status) -> usize {
        self.by_status[status as usize]
    }

    /// The summary line on standard error.
    pub fn report(&self, verb: &str, started: Instant) {
        let secs = started.elapsed().as_secs_f64();
        let rate = if secs > 0.0 { self.total as f64 / secs } else { 0.0 };
        let mut parts = vec![format!("{} {verb}", self.count(Status::Solved))];
        for status in [
            Status::Capped,
            Status::Unsatisfiable,
            Status::Limit,
            Status::Error,
        ] {
            if self.count(status) > 0 || matches!(status, Status::Unsatisfiable | Status::Error) {
                parts.push(format!("{} {}", self.count(status), status.name()));
            }
        }
        note!(
            "{} puzzles: {} in {secs:.3} s ({rate:.0} puzzles/s)",
            self.total,
            parts.join(", ")
        );
    }

    /// 0 when no puzzle failed to read and every status counted is `ok`, else 1.
    pub fn exit_code(&self, ok: impl Fn(Status) -> bool) -> u8 {
        let all_ok = [
            Status::Solved,
            Status::Unsatisfiable,
            Status::Capped,
            Status::Limit,
            Status::Error,
        ]
        .into_iter()
        .all(|s| self.count(s) == 0 || ok(s));
        if all_ok && self.count(Status::Error) == 0 {
            EXIT_OK
        } else {
            EXIT_UNSOLVED
        }
    }
}
