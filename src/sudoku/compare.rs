//! `csp sudoku compare`: every chosen strategy on every puzzle, as a table, CSV,
//! JSON or an SVG chart.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use csp_core::{Backjump, Branching, Limits, SearchConfig, Strategy};
use csp_sudoku::{Contender, ModelKind, PerOrder, SolveReport, default_contenders, summarise};

use crate::args::parse_seconds;
use crate::chart;
use crate::comparison::{CompareFormat, Labels, Needs, RowWriter, fitting, svg_error};
use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED, usage, written};
use crate::input::{self, Input, InputArgs, NumberedPuzzle, Puzzles};
use crate::interrupt;
use crate::run::Batch;

/// Arguments of `csp sudoku compare`.
#[derive(Args)]
pub struct CompareArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Models to run, comma separated (pairwise, alldiff-value, alldiff-hidden, alldiff-gac).
    /// Default: the 18 textbook strategies on pairwise plus the default strategy on each alldiff.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "MODELS",
        allow_negative_numbers = true
    )]
    models: Vec<ModelKind>,
    /// Strategies to run on each chosen model, comma separated `var/value/inference`, or
    /// `textbook` for all 18. Default with --models: textbook for pairwise, the default for alldiff.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "STRATEGIES",
        allow_negative_numbers = true
    )]
    strategies: Vec<String>,
    /// What every decision branches on: `variables` or `places` (see `csp sudoku solve
    /// --help`). Run once with each to compare them.
    #[arg(
        long,
        default_value = "variables",
        value_name = "KIND",
        allow_negative_numbers = true
    )]
    branching: Branching,
    /// Backjumping for every contender: none, bj or cbj (see `csp sudoku solve --help`);
    /// contenders are then named `model:var/value/inference+cbj`, and those under mac are
    /// left out of the default field. Not with `--branching places`. Default: none.
    #[arg(
        long,
        default_value = "none",
        value_name = "KIND",
        allow_negative_numbers = true
    )]
    backjump: Backjump,
    /// Node limit per puzzle and strategy, so that hopeless combinations end.
    #[arg(long, default_value_t = 100_000, value_name = "N", value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
    node_limit: u64,
    /// Time limit per puzzle and strategy, in seconds.
    #[arg(long, default_value = "5", value_parser = parse_seconds, allow_hyphen_values = true, value_name = "SECONDS")]
    timeout: Duration,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Table, allow_negative_numbers = true)]
    format: CompareFormat,
    /// Also draw the comparison as an SVG chart into this file.
    #[arg(long, value_name = "FILE", allow_negative_numbers = true)]
    svg: Option<PathBuf>,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = crate::args::parse_jobs, allow_negative_numbers = true)]
    jobs: usize,
}

/// The contenders, as [`field`] makes them. Branching on places needs inference, and
/// backjumping needs none or fc: a contender without what the flag needs is a usage error
/// when the strategies were given, and is left out of the default field, with a note.
fn contenders(args: &CompareArgs) -> Result<Vec<Contender>, CliError> {
    let field = field(args)?;
    let backjumping = args.backjump != Backjump::None;
    if backjumping && args.branching == Branching::Places {
        return Err(usage(format!(
            "--backjump {} branches on variables only, not with --branching places",
            args.backjump
        )));
    }
    let chosen = !args.strategies.is_empty();
    let name = |c: &Contender| format!("the contender {}", c.label());
    if args.branching == Branching::Places {
        let blind = |c: &Contender| c.strategy.inference == csp_core::Inference::None;
        let rule = Needs {
            flag: "--branching places",
            needs: "fc or mac",
            has: "has none",
            which: "contenders without inference",
        };
        return fitting(field, chosen, blind, name, rule);
    }
    if backjumping {
        let mac = |c: &Contender| c.strategy.inference == csp_core::Inference::Mac;
        let flag = format!("--backjump {}", args.backjump);
        let rule = Needs {
            flag: &flag,
            needs: "none or fc",
            has: "has mac",
            which: "contenders under mac",
        };
        return fitting(field, chosen, mac, name, rule);
    }
    Ok(field)
}

/// The contenders the flags ask for.
fn field(args: &CompareArgs) -> Result<Vec<Contender>, CliError> {
    let mut strategies: Vec<Strategy> = Vec::new();
    for s in &args.strategies {
        if s == "textbook" {
            strategies.extend(Strategy::textbook());
        } else {
            strategies.push(
                s.parse()
                    .map_err(|e: csp_core::ParseNameError| usage(e.to_string()))?,
            );
        }
    }
    if args.models.is_empty() && strategies.is_empty() {
        return Ok(default_contenders());
    }
    let models = if args.models.is_empty() {
        vec![ModelKind::Pairwise]
    } else {
        args.models.clone()
    };
    let mut out = Vec::new();
    for model in models {
        let chosen = match (strategies.is_empty(), model) {
            (false, _) => strategies.clone(),
            (true, ModelKind::Pairwise) => Strategy::textbook(),
            (true, ModelKind::AllDiff(_)) => vec![csp_sudoku::default_strategy()],
        };
        out.extend(chosen.into_iter().map(|strategy| Contender { model, strategy }));
    }
    Ok(out)
}

/// Runs `csp sudoku compare`.
pub fn run(args: CompareArgs) -> Result<u8, CliError> {
    let field = contenders(&args)?;
    let items: Vec<NumberedPuzzle> =
        input::puzzles(Input::open(args.input.file.as_deref())?, args.input.input)?
            .collect::<Result<_, _>>()?;
    let mut skipped = 0;
    for (line, parsed) in &items {
        if let Err(e) = parsed {
            let (place, what) = input::located(*line, e);
            note!("{place}: skipped: {what}");
            skipped += 1;
        }
    }
    let readable = items.iter().filter(|(_, p)| p.is_ok()).count();
    if readable == 0 {
        return Err(CliError::Failed("no readable puzzle in the input".into()));
    }
    // Opened before the runs, so that a path that cannot be written fails at once.
    let svg = match &args.svg {
        Some(path) => Some((
            path,
            std::fs::File::create(path).map_err(|source| svg_error(path, source))?,
        )),
        None => None,
    };
    let batch = Batch::new(args.jobs)?;
    let label = |c: &Contender| match args.backjump {
        Backjump::None => c.label(),
        backjump => format!("{}+{backjump}", c.label()),
    };
    let names = field.iter().map(label).collect::<Vec<_>>();
    let start = RowWriter::start(
        std::io::stdout().lock(),
        args.format,
        LABELS,
        names.iter().map(String::as_str),
    );
    // Skipped lines are puzzles not compared, as a bad line is a puzzle not solved.
    let code = if skipped == 0 { EXIT_OK } else { EXIT_UNSOLVED };
    let Some(mut rows) = started(start)? else {
        return Ok(code);
    };
    let mut summaries = Vec::new();
    for contender in &field {
        if interrupt::requested() {
            break;
        }
        let config = SearchConfig {
            strategy: contender.strategy,
            branching: args.branching,
            backjump: args.backjump,
            limits: Limits {
                nodes: Some(args.node_limit),
                time: Some(args.timeout),
                cancel: Some(interrupt::flag()),
                ..Limits::default()
            },
            ..SearchConfig::default()
        };
        let per_order = PerOrder::new(config)
            .kind(Some(contender.model))
            .branching(Some(args.branching));
        let mut reports: Vec<SolveReport> = Vec::with_capacity(readable);
        batch.run(
            Puzzles::from(items.clone()),
            |puzzle| {
                let order = puzzle.order();
                csp_sudoku::solve(per_order.model(order), puzzle, per_order.config(order))
            },
            |_, result| {
                if let Ok(report) = result {
                    debug_assert!(report.solution.is_none() || report.status == csp_sudoku::Status::Solved);
                    reports.push(report.clone());
                }
                Ok(())
            },
        )?;
        let mut summary = summarise(contender, &reports);
        summary.contender = label(contender);
        log::info!(
            "{}: {} of {} solved",
            summary.contender,
            summary.solved,
            summary.puzzles
        );
        // A reader gone (`| head`) has seen enough: no more runs.
        if !written(rows.row(&summary), "cannot write the results")? {
            return Ok(code);
        }
        summaries.push(summary);
    }
    written(rows.finish(), "cannot write the results")?;
    if let Some((path, mut file)) = svg {
        file.write_all(chart::nodes_chart(&summaries).as_bytes())
            .map_err(|source| svg_error(path, source))?;
    }
    Ok(code)
}

/// Puzzles, one model per row.
const LABELS: Labels = Labels {
    answered: "solved",
    runs: "puzzles",
    model_column: true,
};

/// The writer [`RowWriter::start`] gave, or `None` if the reader is gone already.
fn started<W: Write>(start: std::io::Result<RowWriter<W>>) -> Result<Option<RowWriter<W>>, CliError> {
    match start {
        Ok(rows) => Ok(Some(rows)),
        Err(e) => written(Err(e), "cannot write the results").map(|_| None),
    }
}
