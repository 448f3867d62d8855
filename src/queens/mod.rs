//! `csp queens`: n-queens commands. Parsing, I/O and formatting only; the work is done
//! by `csp-queens` and `csp-core`.
//!
//! Exit codes: 0 solved (or counted at least one solution), 1 no solution or a limit
//! was reached, 2 bad arguments (n = 0, n too large for the method, a bad number).

mod records;

use std::io::{self, BufWriter, Write};

use clap::{Args, Subcommand, ValueEnum};
use csp_core::{MinConflicts, Outcome, SearchConfig};
use csp_queens::{CountOptions, CountReport, Encoding, LocalReport, QueensError, SolveReport};
use serde::Serialize;

use self::records::{CountFacts, CountLine, LocalLine, SolveFacts, SolveLine};
use crate::args::{LimitArgs, ParallelArgs, StrategyArgs, TraceArgs, checked, parse_restarts};
use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED};
use crate::error::{usage, written};

/// Arguments of `csp queens`.
#[derive(Args)]
pub struct QueensArgs {
    #[command(subcommand)]
    command: QueensCommand,
}

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// The rows, the board for n <= 40, then `name=value` statistics.
    Text,
    /// One JSON object.
    Json,
}

/// Options shared by `solve` and `count`.
#[derive(Args, Clone, Debug)]
struct SearchArgs {
    /// Board size (number of queens).
    #[arg(value_parser = parse_size, allow_hyphen_values = true)]
    n: usize,
    #[command(flatten)]
    strategy: StrategyArgs,
    /// Model: pairwise (binary constraints, n <= 2000), alldiff (three all-different
    /// constraints, value strength) or alldiff:value|hidden|gac. Default for solve:
    /// alldiff, or pairwise when --var, --val or --inference is given and n <= 2000 (the
    /// textbook setting); for count: pairwise.
    #[arg(long, value_name = "MODEL", allow_negative_numbers = true)]
    model: Option<String>,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    parallel: ParallelArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text, allow_negative_numbers = true)]
    format: Format,
    #[command(flatten)]
    trace: TraceArgs,
}

#[derive(Subcommand)]
enum QueensCommand {
    /// Find one solution by systematic search.
    ///
    /// Without --var, --val or --inference the default strategy runs: the alldiff model,
    /// mrv/random/fc with random tie-breaks and Luby restarts (unit run of n + n/8 + 64
    /// nodes). With any of them, the textbook setting: the pairwise model (for
    /// n <= 2000), the other parts from mrv/asc/fc, ties to the lowest index, no restarts
    /// (node counts as in the textbook).
    Solve {
        #[command(flatten)]
        search: SearchArgs,
        /// Restarts: `none`, `luby[:SCALE]` (SCALE nodes per unit run, default 100) or
        /// `geometric[:FIRST[:FACTOR]]` (defaults 100 and 1.5). Default: as the strategy
        /// above says.
        #[arg(long, value_name = "POLICY", allow_negative_numbers = true)]
        restarts: Option<String>,
        /// Re-check the solution independently of the solver.
        #[arg(long)]
        verify: bool,
    },
    /// Count every solution (n <= 20). `nodes` counts the whole enumeration.
    ///
    /// Default: the pairwise model and mrv/asc/fc, ties to the lowest index; --var, --val
    /// and --inference replace parts of that strategy.
    Count {
        #[command(flatten)]
        search: SearchArgs,
        /// Exploit the mirror symmetry: first column's queen in the top half (counted
        /// twice) or the middle row. Node counts refer to this reduced search.
        #[arg(long)]
        symmetry: bool,
        /// Also count the solutions distinct up to rotations and reflections.
        #[arg(long)]
        distinct: bool,
    },
    /// Min-conflicts local search (n <= 100,000,000).
    Local {
        /// Board size (number of queens).
        #[arg(value_parser = parse_size, allow_hyphen_values = true)]
        n: usize,
        /// Seed of the random choices.
        #[arg(long, value_name = "S", default_value_t = 0, value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
        seed: u64,
        /// Give up after this many steps.
        #[arg(long, value_name = "K", default_value_t = 10_000_000, value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
        max_steps: u64,
        /// Start from a fresh greedy assignment after this many steps without a solution.
        /// Default: 50 n, so that a run stuck on a plateau starts again (every seed solves).
        #[arg(long, value_name = "K", value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
        restart_after: Option<u64>,
        /// Stop after this many seconds (fractions allowed).
        #[arg(long, value_name = "SECONDS", value_parser = crate::args::parse_seconds, allow_hyphen_values = true)]
        timeout: Option<std::time::Duration>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text, allow_negative_numbers = true)]
        format: Format,
        /// Re-check the solution independently of the solver.
        #[arg(long)]
        verify: bool,
    },
}

/// `csp queens local` starts again after this many steps per queen without a solution.
const DEFAULT_RESTART_PER_QUEEN: u64 = 50;

/// Parses a board size: a whole number (0 is rejected later with its own message).
fn parse_size(text: &str) -> Result<usize, String> {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if text.strip_prefix('-').is_some_and(digits) {
        return Err(format!("the board size must be positive, got {text}"));
    }
    text.parse::<usize>().map_err(|_| {
        if digits(text) {
            format!(
                "n = {text} is too large (at most {} with `csp queens local`)",
                csp_queens::MAX_LOCAL_N
            )
        } else {
            format!("`{text}` is not a board size (a positive whole number)")
        }
    })
}

/// Runs `csp queens`.
pub fn run(args: QueensArgs) -> Result<u8, CliError> {
    match args.command {
        QueensCommand::Solve {
            search,
            restarts,
            verify,
        } => solve(&search, restarts.as_deref(), verify),
        QueensCommand::Count {
            search,
            symmetry,
            distinct,
        } => {
            let options = CountOptions {
                symmetry,
                distinct,
                parallelism: search.parallel.parallelism(),
            };
            count(&search, options)
        }
        QueensCommand::Local {
            n,
            seed,
            max_steps,
            restart_after,
            timeout,
            format,
            verify,
        } => {
            if max_steps == 0 {
                return Err(usage("--max-steps must be at least 1"));
            }
            let config = MinConflicts {
                max_steps,
                restart_after: restart_after.or(Some(DEFAULT_RESTART_PER_QUEEN.saturating_mul(n as u64))),
                seed,
                time: timeout,
                cancel: Some(crate::interrupt::flag()),
            };
            local(n, &config, format, verify)
        }
    }
}

fn queens_error(err: QueensError) -> CliError {
    usage(err.to_string())
}

/// Whether the user chose the strategy's parts or backjumping (the textbook setting).
fn textbook(strategy: &StrategyArgs) -> bool {
    strategy.var_order.is_some()
        || strategy.value_order.is_some()
        || strategy.inference.is_some()
        || strategy.backjump.is_some()
}

/// The encoding and configuration `solve` or `count` runs with.
fn setup(
    search: &SearchArgs,
    default: (Encoding, SearchConfig),
) -> Result<(Encoding, SearchConfig), CliError> {
    let (default_encoding, default_config) = default;
    let explicit = textbook(&search.strategy);
    let encoding = match &search.model {
        Some(text) => text.parse::<Encoding>().map_err(queens_error)?,
        None if explicit && search.n <= csp_queens::MAX_PAIRWISE_N => Encoding::Pairwise,
        None => default_encoding,
    };
    let mut config = search.strategy.config(default_config.strategy, &search.limits)?;
    if !explicit {
        config.tie_break = search.strategy.tie_break.unwrap_or(default_config.tie_break);
        config.restarts = default_config.restarts;
    }
    if search.n > csp_queens::MAX_ALLDIFF_N {
        return Err(usage(format!(
            "n = {} is too large: at most {} with systematic search; try `csp queens local`",
            search.n,
            csp_queens::MAX_ALLDIFF_N
        )));
    }
    if search.n > encoding.max_n() {
        return Err(usage(format!(
            "n = {} is too large for the {encoding} model (at most {}); try --model alldiff or `csp queens local`",
            search.n,
            encoding.max_n()
        )));
    }
    Ok((encoding, config))
}

fn restarts_name(config: &SearchConfig) -> String {
    config
        .restarts
        .map_or_else(|| "none".to_string(), |policy| policy.to_string())
}

/// Writes the answer to standard output as `write` produces it, buffered: a solution of
/// millions of rows is streamed, never held as text in memory.
fn write_answer(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = write(&mut out).and_then(|()| out.flush());
    written(result, "writing the answer").map(|_| ())
}

fn write_out(text: &str) -> Result<(), CliError> {
    write_answer(|out| out.write_all(text.as_bytes()))
}

fn write_json(record: &impl Serialize) -> Result<(), CliError> {
    write_answer(|out| {
        serde_json::to_writer(&mut *out, record)?;
        out.write_all(b"\n")
    })
}

/// The solution as text: the rows, then the board for n <= 40.
fn write_solution(out: &mut dyn Write, rows: &[u32]) -> io::Result<()> {
    out.write_all(b"rows: ")?;
    csp_queens::write_rows(out, rows)?;
    out.write_all(b"\n")?;
    match csp_queens::board(rows) {
        Some(board) => out.write_all(board.as_bytes()),
        None => Ok(()),
    }
}

/// Checks `rows` with the independent checker when asked.
fn check(rows: Option<&[u32]>, verify: bool) -> Result<Option<bool>, CliError> {
    match (rows, verify) {
        (Some(rows), true) => {
            csp_queens::verify(rows).map_err(|e| CliError::Failed(format!("verification failed: {e}")))?;
            Ok(Some(true))
        }
        _ => Ok(None),
    }
}

fn solve(search: &SearchArgs, restarts: Option<&str>, verify: bool) -> Result<u8, CliError> {
    let n = search.n;
    if n == 0 {
        return Err(queens_error(QueensError::EmptyBoard));
    }
    let (encoding, mut config) = setup(search, csp_queens::default_solve(n))?;
    if let Some(text) = restarts {
        config.restarts = parse_restarts(text).map_err(usage)?;
    }
    let mut config = checked(config)?;
    let trace = search.trace.open()?;
    config.trace = trace.as_ref().map(|t| t.trace());
    let SolveReport { outcome, stats } =
        csp_queens::solve_with(n, encoding, config.clone(), search.parallel.parallelism())
            .map_err(queens_error)?;
    if let Some(trace) = &trace {
        trace.finish()?;
    }
    let rows: Option<Vec<u32>> = outcome.solution().map(|s| s.iter().map(|&r| r as u32).collect());
    let verified = check(rows.as_deref(), verify)?;
    let limit = match &outcome {
        Outcome::Limit(kind) => Some(*kind),
        _ => None,
    };
    match search.format {
        Format::Json => write_json(&SolveLine::new(
            SolveFacts {
                n,
                backjump: config.backjump.to_string(),
                status: outcome.status(),
                solution: rows.as_deref(),
                strategy: config.strategy.to_string(),
                model: encoding.to_string(),
                tie_break: config.tie_break.to_string(),
                restart_policy: restarts_name(&config),
                seed: config.seed,
                limit,
                verified,
            },
            &stats,
        ))?,
        Format::Text => write_answer(|out| {
            match (&rows, limit) {
                (Some(rows), _) => write_solution(out, rows)?,
                (None, Some(kind)) => writeln!(out, "no answer: {kind}")?,
                (None, None) => writeln!(out, "no solution")?,
            }
            write!(
                out,
                "status={}\nn={n}\nstrategy={}\nmodel={encoding}\ntie_break={}\nrestart_policy={}\nseed={}\n",
                outcome.status(),
                config.strategy,
                config.tie_break,
                restarts_name(&config),
                config.seed
            )?;
            if let Some(v) = verified {
                writeln!(out, "verified={v}")?;
            }
            writeln!(out, "{stats}")
        })?,
    }
    Ok(if rows.is_some() { EXIT_OK } else { EXIT_UNSOLVED })
}

fn count(search: &SearchArgs, options: CountOptions) -> Result<u8, CliError> {
    let n = search.n;
    if n == 0 {
        return Err(queens_error(QueensError::EmptyBoard));
    }
    if n > csp_queens::MAX_COUNT_N {
        return Err(queens_error(QueensError::TooLarge {
            n,
            max: csp_queens::MAX_COUNT_N,
            method: "counting",
        }));
    }
    let (encoding, mut config) = setup(search, csp_queens::default_count())?;
    config.restarts = None;
    let trace = search.trace.open()?;
    config.trace = trace.as_ref().map(|t| t.trace());
    let report: CountReport =
        csp_queens::count(n, encoding, config.clone(), options).map_err(queens_error)?;
    if let Some(trace) = &trace {
        trace.finish()?;
    }
    let status = match (report.complete, report.solutions) {
        (false, _) => "limit",
        (true, 0) => "unsatisfiable",
        (true, _) => "solved",
    };
    match search.format {
        Format::Json => write_json(&CountLine::new(
            CountFacts {
                n,
                backjump: config.backjump.to_string(),
                status,
                distinct: report.distinct,
                complete: report.complete,
                symmetry: options.symmetry,
                strategy: config.strategy.to_string(),
                model: encoding.to_string(),
                tie_break: config.tie_break.to_string(),
                limit: report.limit,
            },
            &report.stats,
        ))?,
        Format::Text => {
            let mut text = match report.limit {
                Some(kind) => format!("solutions: at least {} ({kind})\n", report.solutions),
                None => format!("solutions: {}\n", report.solutions),
            };
            if let Some(d) = report.distinct {
                text.push_str(&format!("distinct: {d}\n"));
            }
            text.push_str(&format!(
                "status={status}\nn={n}\nstrategy={}\nmodel={encoding}\nsymmetry={}\n{}\n",
                config.strategy, options.symmetry, report.stats
            ));
            write_out(&text)?;
        }
    }
    Ok(if status == "solved" {
        EXIT_OK
    } else {
        EXIT_UNSOLVED
    })
}

fn local(n: usize, config: &MinConflicts, format: Format, verify: bool) -> Result<u8, CliError> {
    let LocalReport {
        status, rows, stats, ..
    } = csp_queens::local_search(n, config).map_err(queens_error)?;
    let verified = check(rows.as_deref(), verify)?;
    match format {
        Format::Json => write_json(&LocalLine::new(
            n,
            status,
            rows.as_deref(),
            (config.seed, config.max_steps),
            verified,
            &stats,
        ))?,
        Format::Text => write_answer(|out| {
            match &rows {
                Some(rows) => write_solution(out, rows)?,
                None if status == "unsatisfiable" => writeln!(out, "no solution")?,
                None => writeln!(out, "no answer: step or time limit reached")?,
            }
            write!(
                out,
                "status={status}\nn={n}\nstrategy=min-conflicts\nseed={}\nmax_steps={}\n",
                config.seed, config.max_steps
            )?;
            if let Some(v) = verified {
                writeln!(out, "verified={v}")?;
            }
            writeln!(out, "{stats}")
        })?,
    }
    Ok(if rows.is_some() { EXIT_OK } else { EXIT_UNSOLVED })
}
