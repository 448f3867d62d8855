//! `csp compare FILE...`: every chosen strategy on every instance (and seed), as a table,
//! CSV, JSON or an SVG chart (as `csp sudoku compare` does over puzzles), or, with
//! `--format jsonl`, one record per run as it ends: the unit of a campaign that
//! `--shard` spreads over machines, `--resume` carries on after a stop and `csp report`
//! merges.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use csp_core::{Backjump, LimitKind, Limits, SearchConfig, Stats, Strategy, TieBreak};
use csp_sudoku::{Status, Summary, summarise_runs};

use super::record::{self, Ended, RecordSink, RunRecord, RunStatus};
use super::{InstanceArgs, LoadFailure, Loaded, load_within, read_limits};
use crate::args::{parse_restarts, parse_seconds};
use crate::comparison::{CompareFormat, Labels, Needs, fitting, svg_error, write_rows};
use crate::error::usage;
use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED};

/// Arguments of `csp compare`.
#[derive(Args)]
pub struct CompareArgs {
    /// Instance files: XCSP3 (`.xml`, `.xml.xz`, `.xml.lzma`) or DIMACS (`.col`, with --colors).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Strategies, comma separated `var/value/inference`, or `textbook` for all 18.
    /// Default: the 18 textbook strategies, dom-wdeg/asc/mac and dom-wdeg-fixed/asc/mac.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "STRATEGIES",
        allow_negative_numbers = true
    )]
    strategies: Vec<String>,
    /// Seeds: every strategy runs on every instance once per seed (random tie-breaks,
    /// value orders and restarts). Comma separated seeds and ranges `A..B` (both ends
    /// included). Default: 0.
    #[arg(long, value_name = "SEEDS", allow_hyphen_values = true)]
    seeds: Option<String>,
    /// Tie-breaking in the variable order: lowest, random. Default: lowest.
    #[arg(long, value_name = "RULE", allow_negative_numbers = true)]
    tie_break: Option<TieBreak>,
    /// Count every solution instead of finding the first.
    #[arg(long)]
    count: bool,
    /// Restarts for every strategy (see `csp solve --help`). Default: none.
    #[arg(long, value_name = "POLICY", allow_negative_numbers = true)]
    restarts: Option<String>,
    /// Last-conflict reasoning for every strategy (see `csp solve --help`). Default: 0 (off).
    #[arg(long, value_name = "K", default_value_t = 0, value_parser = crate::args::parse_last_conflict, allow_hyphen_values = true)]
    last_conflict: u32,
    /// Backjumping for every strategy: none, bj or cbj (see `csp solve --help`); the
    /// strategies are then named `var/value/inference+cbj`. Strategies under mac are left
    /// out of the default field. Default: none.
    #[arg(long, value_name = "KIND", allow_negative_numbers = true)]
    backjump: Option<Backjump>,
    /// Node limit per instance and strategy, so that hopeless combinations end.
    #[arg(long, default_value_t = 100_000, value_name = "N", value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
    node_limit: u64,
    /// Time limit per instance and strategy, in seconds.
    #[arg(long, default_value = "5", value_parser = parse_seconds, allow_hyphen_values = true, value_name = "SECONDS")]
    timeout: Duration,
    /// Output format: table, csv, json (the summaries), or jsonl (one record per run, as
    /// it ends).
    #[arg(long, value_enum, default_value_t = CompareFormat::Table, allow_negative_numbers = true)]
    format: CompareFormat,
    /// Also draw the comparison as an SVG chart into this file.
    #[arg(long, value_name = "FILE", allow_negative_numbers = true)]
    svg: Option<PathBuf>,
    /// With `--format jsonl`: read the records FILE holds, skip the runs it has, and append
    /// the others to it (instead of standard output). FILE may not exist yet.
    #[arg(long, value_name = "FILE", allow_negative_numbers = true)]
    resume: Option<PathBuf>,
    /// Run only the K-th of N parts of the campaign (K from 1 to N): run number i (in the
    /// order file, strategy, seed) belongs to part i mod N + 1.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, allow_negative_numbers = true)]
    shard: Option<Shard>,
    #[command(flatten)]
    instance: InstanceArgs,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = crate::args::parse_jobs, allow_negative_numbers = true)]
    jobs: usize,
}

/// A part of a campaign: the `index`-th (from 1) of `parts`.
#[derive(Clone, Copy, Debug)]
pub struct Shard {
    index: usize,
    parts: usize,
}

/// Parses `--shard K/N`.
fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("expected K/N with 1 <= K <= N, got `{text}`");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (index, parts) = (
        k.parse::<usize>().map_err(|_| bad())?,
        n.parse::<usize>().map_err(|_| bad())?,
    );
    if index == 0 || index > parts {
        return Err(bad());
    }
    Ok(Shard { index, parts })
}

/// The most seeds `--seeds` may list.
const MAX_SEEDS: u64 = 1_000_000;

/// Parses `--seeds`: comma separated seeds and inclusive ranges `A..B`.
fn parse_seeds(text: &str) -> Result<Vec<u64>, String> {
    let mut seeds = Vec::new();
    for item in text.split(',') {
        let whole = |t: &str| crate::args::parse_whole(t.trim()).map_err(|e| format!("--seeds: {e}"));
        let (from, to) = match item.split_once("..") {
            Some((a, b)) => (whole(a)?, whole(b)?),
            None => (whole(item)?, whole(item)?),
        };
        if from > to || to - from >= MAX_SEEDS || seeds.len() as u64 + (to - from) >= MAX_SEEDS {
            return Err(format!(
                "--seeds: `{item}` is no range of at most {MAX_SEEDS} seeds"
            ));
        }
        seeds.extend(from..=to);
    }
    Ok(seeds)
}

/// The field with backjumping: a strategy it cannot run with (under mac) is a usage error
/// when the strategies were given, and is left out of the default field, with a note.
fn strategies(args: &CompareArgs) -> Result<Vec<Strategy>, CliError> {
    let field = named_strategies(args)?;
    let backjump = args.backjump.unwrap_or(Backjump::None);
    if backjump == Backjump::None {
        return Ok(field);
    }
    let mac = |s: &Strategy| s.inference == csp_core::Inference::Mac;
    let flag = format!("--backjump {backjump}");
    let rule = Needs {
        flag: &flag,
        needs: "none or fc",
        has: "has mac",
        which: "strategies under mac",
    };
    let name = |s: &Strategy| format!("the strategy {s}");
    fitting(field, !args.strategies.is_empty(), mac, name, rule)
}

/// A strategy's name in the tables and records: `var/value/inference`, then `+bj` or
/// `+cbj` under backjumping.
pub fn strategy_label(strategy: &Strategy, backjump: Backjump) -> String {
    match backjump {
        Backjump::None => strategy.to_string(),
        _ => format!("{strategy}+{backjump}"),
    }
}

fn named_strategies(args: &CompareArgs) -> Result<Vec<Strategy>, CliError> {
    let mut out = Vec::new();
    for s in &args.strategies {
        if s == "textbook" {
            out.extend(Strategy::textbook());
        } else {
            out.push(
                s.parse()
                    .map_err(|e: csp_core::ParseNameError| usage(e.to_string()))?,
            );
        }
    }
    if out.is_empty() {
        out = Strategy::textbook();
        out.push("dom-wdeg/asc/mac".parse().expect("a strategy"));
        out.push("dom-wdeg-fixed/asc/mac".parse().expect("a strategy"));
    }
    Ok(out)
}

/// One run of the campaign: indices of its file and strategy, and its seed.
#[derive(Clone, Copy)]
struct Planned {
    file: usize,
    strategy: usize,
    seed: u64,
}

/// Rows of the summary, one per strategy in `field` order, over `records`.
fn summarise(field: &[String], records: &[RunRecord]) -> Vec<Summary> {
    let mut by_strategy: BTreeMap<String, Vec<(Status, &Stats)>> = BTreeMap::new();
    for r in records {
        by_strategy
            .entry(r.strategy.clone())
            .or_default()
            .push((r.status.summary_status(), &r.stats));
    }
    field
        .iter()
        .map(|name| {
            let runs = by_strategy.remove(name).unwrap_or_default();
            summarise_runs(name.clone(), "instance".into(), name.clone(), &runs)
        })
        .collect()
}

/// Runs `csp compare`.
pub fn run(args: CompareArgs) -> Result<u8, CliError> {
    super::check_inputs(&args.files, &args.instance)?;
    let field = strategies(&args)?;
    let restarts = match &args.restarts {
        Some(t) => parse_restarts(t).map_err(usage)?,
        None => None,
    };
    let backjump = args.backjump.unwrap_or(Backjump::None);
    if backjump != Backjump::None && restarts.is_some() {
        return Err(usage(format!(
            "--backjump {backjump} does not run with restarts: the nogoods recorded at restarts prune without the levels behind them"
        )));
    }
    let seeds = match &args.seeds {
        Some(text) => parse_seeds(text).map_err(usage)?,
        None => vec![0],
    };
    let jsonl = args.format == CompareFormat::Jsonl;
    if args.resume.is_some() && !jsonl {
        return Err(usage("--resume needs --format jsonl"));
    }
    let svg = match &args.svg {
        Some(path) => Some((
            path,
            std::fs::File::create(path).map_err(|source| svg_error(path, source))?,
        )),
        None => None,
    };
    let mut planned: Vec<Planned> = Vec::new();
    for file in 0..args.files.len() {
        for strategy in 0..field.len() {
            for &seed in &seeds {
                planned.push(Planned { file, strategy, seed });
            }
        }
    }
    if let Some(shard) = args.shard {
        planned = planned
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % shard.parts == shard.index - 1)
            .map(|(_, p)| p)
            .collect();
    }
    let names: Vec<String> = args.files.iter().map(|f| f.display().to_string()).collect();
    let strategy_names: Vec<String> = field.iter().map(|s| strategy_label(s, backjump)).collect();
    let (mut sink, done) = match &args.resume {
        Some(path) => RecordSink::resume(path)?,
        None => (RecordSink::Stdout, Vec::new()),
    };
    if !done.is_empty() {
        let done = record::keys(&done);
        let before = planned.len();
        planned
            .retain(|p| !done.contains(&(names[p.file].clone(), strategy_names[p.strategy].clone(), p.seed)));
        note!(
            "resumed: {} runs done already, {} to run",
            before - planned.len(),
            planned.len()
        );
    }
    // Only the files that some run needs are read.
    let mut needed: Vec<usize> = planned.iter().map(|p| p.file).collect();
    needed.sort_unstable();
    needed.dedup();
    let paths: Vec<PathBuf> = needed.iter().map(|&i| args.files[i].clone()).collect();
    let mut read = Vec::with_capacity(paths.len());
    super::run_files(
        &paths,
        args.jobs,
        // Reading and posting a file count against `--timeout` as a run's search does:
        // each file has that long to be read, whatever its runs take after.
        |f| {
            load_within(
                f,
                &args.instance,
                read_limits(&args.instance, Some(Instant::now() + args.timeout)),
                // Counting ignores the objective.
                !args.count,
            )
        },
        |_, result| {
            read.push(result);
            true
        },
    );
    if crate::interrupt::requested() {
        // A file whose reading a signal stopped (or that was never opened) has no result:
        // no record is written, so that a resumed campaign runs it.
        return Ok(EXIT_OK);
    }
    let mut loaded: Vec<Option<Result<Loaded, LoadFailure>>> = (0..args.files.len()).map(|_| None).collect();
    for (i, result) in needed.into_iter().zip(read) {
        if let Err(e) = &result {
            note!("skipped: {}", e.message());
        }
        loaded[i] = Some(result);
    }
    let unreadable = |r: &Result<Loaded, LoadFailure>| {
        matches!(r, Err(LoadFailure::Error(_) | LoadFailure::Unsupported(_)))
    };
    if !jsonl && !planned.is_empty() && loaded.iter().flatten().all(unreadable) {
        return Err(CliError::Failed("no readable instance".into()));
    }
    let record_of =
        |p: &Planned, status: RunStatus, limit: Option<LimitKind>, stats: Stats, error: Option<String>| {
            RunRecord {
                file: names[p.file].clone(),
                strategy: strategy_names[p.strategy].clone(),
                seed: p.seed,
                status,
                limit: limit.map(record::limit_name),
                node_limit: args.node_limit,
                timeout_s: args.timeout.as_secs_f64(),
                count: args.count,
                error,
                stats,
            }
        };
    let mut records: Vec<RunRecord> = Vec::new();
    let mut failure: Option<CliError> = None;
    // Runs on unreadable files are records of their own (jsonl), or left out.
    let mut runnable = Vec::with_capacity(planned.len());
    for p in planned {
        match &loaded[p.file] {
            Some(Ok(_)) => runnable.push(p),
            Some(Err(LoadFailure::Limit(kind))) => {
                // The time limit ran out while reading: the run ended at its limit.
                let r = record_of(&p, RunStatus::Limit, Some(*kind), Stats::default(), None);
                if jsonl && !sink.write(&r)? {
                    return Ok(EXIT_OK);
                }
                records.push(r);
            }
            Some(Err(e)) if jsonl => {
                let r = record_of(&p, RunStatus::Error, None, Stats::default(), Some(e.message()));
                if !sink.write(&r)? {
                    return Ok(EXIT_OK);
                }
                records.push(r);
            }
            _ => {}
        }
    }
    crate::run::parallel_each(
        runnable.len(),
        args.jobs,
        |k| {
            let p = runnable[k];
            let Some(Ok(instance)) = &loaded[p.file] else {
                unreachable!("only readable files are run")
            };
            let config = SearchConfig {
                strategy: field[p.strategy],
                restarts,
                backjump,
                seed: p.seed,
                last_conflict: args.last_conflict,
                tie_break: args.tie_break.unwrap_or(TieBreak::Lowest),
                limits: Limits {
                    nodes: Some(args.node_limit),
                    time: Some(args.timeout),
                    // SIGINT and SIGTERM stop the runs in progress as at a limit; the
                    // rest then stop at once.
                    cancel: Some(super::cancel_flag()),
                    ..Limits::default()
                },
                ..SearchConfig::default()
            };
            let ended = record::search(instance.model(), config, args.count);
            if args.count {
                instance_count(ended, instance)
            } else {
                (ended, None)
            }
        },
        |k, (ended, error)| {
            // A run a signal stopped is no result: it is neither written nor counted, so
            // that a resumed campaign runs it again.
            if ended.limit == Some(LimitKind::Cancelled) || crate::interrupt::requested() {
                return false;
            }
            let r = record_of(&runnable[k], ended.status, ended.limit, ended.stats, error);
            if jsonl {
                match sink.write(&r) {
                    Ok(true) => {}
                    Ok(false) => return false,
                    Err(e) => {
                        failure = Some(e);
                        return false;
                    }
                }
            }
            records.push(r);
            true
        },
    );
    if let Some(e) = failure {
        return Err(e);
    }
    let summaries = summarise(&strategy_names, &records);
    if !jsonl {
        let mut out = std::io::stdout().lock();
        let mut written = write_rows(&mut out, args.format, &summaries, LABELS);
        // Optimisation instances: the best value of each run, whether it is proved, and the
        // nodes to reach it and to prove it.
        if written.is_ok() && matches!(args.format, CompareFormat::Table | CompareFormat::Csv) {
            let optimised: Vec<&RunRecord> = records
                .iter()
                .filter(|r| {
                    matches!(r.status, RunStatus::Optimal | RunStatus::Feasible)
                        || r.stats.objective.is_some()
                })
                .collect();
            if !optimised.is_empty() {
                written = write_optimisation_rows(&mut out, args.format, &optimised);
            }
        }
        written.map_err(|source| CliError::Io {
            context: "cannot write the results".into(),
            source,
        })?;
    }
    if let Some((path, mut file)) = svg {
        file.write_all(crate::chart::nodes_chart(&summaries).as_bytes())
            .map_err(|source| svg_error(path, source))?;
    }
    // A file that could not be read is an instance not answered, as for `csp count`.
    let skipped = loaded.iter().flatten().any(unreadable);
    Ok(if skipped { EXIT_UNSOLVED } else { EXIT_OK })
}

/// The runs on optimisation instances, one row each: the best value, whether it is proved
/// optimal, the nodes to the best and to the proof, and the time.
fn write_optimisation_rows(
    out: &mut impl Write,
    format: CompareFormat,
    runs: &[&RunRecord],
) -> std::io::Result<()> {
    let proof = |r: &RunRecord| r.stats.nodes_to_proof.map_or("-".to_string(), |n| n.to_string());
    let to_best = |r: &RunRecord| r.stats.nodes_to_best.map_or("-".to_string(), |n| n.to_string());
    let best = |r: &RunRecord| r.stats.objective.map_or("-".to_string(), |v| v.to_string());
    let proved = |r: &RunRecord| {
        if r.status == RunStatus::Optimal {
            "yes"
        } else {
            "no"
        }
    };
    if format == CompareFormat::Csv {
        writeln!(
            out,
            "instance,strategy,seed,status,best,proved,nodes_to_best,nodes_to_proof,nodes,ms"
        )?;
        for r in runs {
            writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{:.3}",
                r.file,
                r.strategy,
                r.seed,
                serde_json::to_value(r.status)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                best(r),
                proved(r),
                to_best(r),
                proof(r),
                r.stats.nodes,
                r.seconds() * 1000.0
            )?;
        }
        return out.flush();
    }
    let width = runs.iter().map(|r| r.file.len()).max().unwrap_or(8).max(8);
    let strategy_width = runs.iter().map(|r| r.strategy.len()).max().unwrap_or(8).max(8);
    writeln!(out)?;
    writeln!(
        out,
        "{:<width$}  {:<strategy_width$}  {:>10}  {:>6}  {:>13}  {:>14}  {:>12}  {:>10}",
        "instance", "strategy", "best", "proved", "nodes to best", "nodes to proof", "nodes", "ms"
    )?;
    for r in runs {
        writeln!(
            out,
            "{:<width$}  {:<strategy_width$}  {:>10}  {:>6}  {:>13}  {:>14}  {:>12}  {:>10.1}",
            r.file,
            r.strategy,
            best(r),
            proved(r),
            to_best(r),
            proof(r),
            r.stats.nodes,
            r.seconds() * 1000.0
        )?;
    }
    out.flush()
}

/// Instances, whose model is the file's.
const LABELS: Labels = Labels {
    answered: "answered",
    runs: "instances",
    model_column: false,
};

/// A count of the model's solutions made the instance's: each stands for
/// [`Loaded::extensions`] of them (the colourings of a graph's isolated vertices). Past
/// `u64::MAX` the run is an error, as for `csp count`.
fn instance_count(mut ended: Ended, instance: &Loaded) -> (Ended, Option<String>) {
    let solutions = ended.stats.solutions;
    if solutions == 0 {
        return (ended, None);
    }
    match instance.extensions().and_then(|per| solutions.checked_mul(per)) {
        Some(n) => {
            ended.stats.solutions = n;
            (ended, None)
        }
        None => {
            ended.status = RunStatus::Error;
            (ended, Some(format!("more than {} solutions", u64::MAX)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_and_shards_parse() {
        assert_eq!(parse_seeds("3").unwrap(), vec![3]);
        assert_eq!(parse_seeds("0..2,7").unwrap(), vec![0, 1, 2, 7]);
        assert!(
            parse_seeds("2..1").is_err() && parse_seeds("x").is_err() && parse_seeds("0..99999999").is_err()
        );
        let s = parse_shard("2/5").unwrap();
        assert_eq!((s.index, s.parts), (2, 5));
        assert!(parse_shard("0/5").is_err() && parse_shard("6/5").is_err() && parse_shard("1").is_err());
    }
}
