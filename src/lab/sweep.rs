//! `csp sweep model-b|rb ...`: the phase-transition experiment. For each value of one
//! parameter (the tightness `--p2` or `--p`, or `--kappa`), K random instances, each
//! solved by every strategy; every run is written as CSV or JSON lines, and the chart
//! shows the median nodes per strategy against the parameter with the fraction of
//! instances solvable and the predicted crossover.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use csp_core::{Limits, SearchConfig, Stats, Strategy};
use serde::Serialize;

use super::models::{Generator, Params, Span, parse_span};
use crate::chart::sweep::{NodeSeries, SweepChart};
use crate::error::{CliError, EXIT_OK, usage};
use crate::instance::record::{self, Ended, RunStatus};

/// Arguments of `csp sweep`.
#[derive(Args)]
pub struct SweepArgs {
    #[command(subcommand)]
    model: Generator,
    /// Sweep Smith's κ instead of the tightness: FROM:TO:STEP. Each κ is turned into the
    /// tightness that gives it (then --p2 / --p must be left out).
    #[arg(long, global = true, value_parser = parse_span, allow_negative_numbers = true)]
    kappa: Option<Span>,
    /// Instances per point.
    #[arg(long, global = true, default_value_t = 20, value_name = "K", value_parser = crate::args::parse_count)]
    instances: usize,
    /// Strategies, comma separated `var/value/inference`. Default: mrv/asc/fc,dom-wdeg/asc/mac.
    #[arg(
        long,
        global = true,
        value_delimiter = ',',
        value_name = "STRATEGIES",
        allow_negative_numbers = true
    )]
    strategies: Vec<String>,
    /// Instance j of every point is drawn with seed S + j.
    #[arg(long, global = true, default_value_t = 0, value_name = "S", value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
    seed: u64,
    /// Node limit per run.
    #[arg(long, global = true, default_value_t = 1_000_000, value_name = "N", value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
    node_limit: u64,
    /// Time limit per run, in seconds. Default: none (node counts then do not depend on
    /// the machine).
    #[arg(long, global = true, value_name = "SECONDS", value_parser = crate::args::parse_seconds, allow_hyphen_values = true)]
    timeout: Option<Duration>,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', global = true, default_value_t = 1, value_parser = crate::args::parse_jobs, allow_negative_numbers = true)]
    jobs: usize,
    /// Draw the chart into this SVG file.
    #[arg(long, global = true, value_name = "FILE", allow_negative_numbers = true)]
    svg: Option<PathBuf>,
    /// Write every run as CSV into this file.
    #[arg(long, global = true, value_name = "FILE", allow_negative_numbers = true)]
    csv: Option<PathBuf>,
    /// Write every run as JSON lines into this file.
    #[arg(long, global = true, value_name = "FILE", allow_negative_numbers = true)]
    jsonl: Option<PathBuf>,
}

/// One point of the sweep: the parameter's value and the generator it gives.
struct Point {
    value: f64,
    params: Params,
}

/// The runs of one instance: its κ and each strategy's end.
struct InstanceRuns {
    kappa: f64,
    tightness: f64,
    ended: Vec<Ended>,
}

/// One run as written to the CSV and JSON-lines files.
#[derive(Serialize)]
struct SweepRecord<'a> {
    model: &'static str,
    parameter: &'a str,
    value: f64,
    tightness: f64,
    kappa: f64,
    instance: usize,
    seed: u64,
    strategy: &'a str,
    status: RunStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<String>,
    #[serde(flatten)]
    stats: &'a Stats,
}

const CSV_HEADER: &str = "model,parameter,value,tightness,kappa,instance,seed,strategy,status,nodes,backtracks,checks,max_depth,elapsed_ms";

impl SweepRecord<'_> {
    fn csv(&self) -> String {
        let status = match self.status {
            RunStatus::Solved => "solved",
            RunStatus::Optimal => "optimal",
            RunStatus::Feasible => "feasible",
            RunStatus::Unsatisfiable => "unsatisfiable",
            RunStatus::Limit => "limit",
            RunStatus::Error => "error",
        };
        format!(
            "{},{},{},{},{:.6},{},{},{},{status},{},{},{},{},{:.3}",
            self.model,
            self.parameter,
            self.value,
            self.tightness,
            self.kappa,
            self.instance,
            self.seed,
            self.strategy,
            self.stats.nodes,
            self.stats.backtracks,
            self.stats.checks,
            self.stats.max_depth,
            self.stats.elapsed.as_secs_f64() * 1000.0
        )
    }
}

/// The points: the swept parameter's name and each value with its generator.
fn points(args: &SweepArgs) -> Result<(&'static str, Vec<Point>), CliError> {
    let name = args.model.tightness_name();
    let (parameter, span) = match (args.kappa, args.model.tightness()) {
        (Some(_), Some(_)) => return Err(usage(format!("--kappa replaces --{name}: give one of them"))),
        (Some(kappa), None) => ("kappa", kappa),
        (None, Some(span)) => (name, span),
        (None, None) => {
            return Err(usage(format!(
                "give the range to sweep: --{name} FROM:TO:STEP or --kappa FROM:TO:STEP"
            )));
        }
    };
    let mut out = Vec::new();
    for value in span.values() {
        let tightness = if parameter == "kappa" {
            args.model.tightness_for_kappa(value)?
        } else {
            value
        };
        out.push(Point {
            value,
            params: args.model.params(Some(tightness))?,
        });
    }
    Ok((parameter, out))
}

/// The strategies; a usage error for an unknown name.
fn strategies(args: &SweepArgs) -> Result<Vec<Strategy>, CliError> {
    if args.strategies.is_empty() {
        return Ok(vec![
            "mrv/asc/fc".parse().expect("a strategy"),
            "dom-wdeg/asc/mac".parse().expect("a strategy"),
        ]);
    }
    args.strategies
        .iter()
        .map(|s| {
            s.parse()
                .map_err(|e: csp_core::ParseNameError| usage(e.to_string()))
        })
        .collect()
}

/// Creates an output file up front, so that a bad path fails before the runs.
fn create(path: &Option<PathBuf>) -> Result<Option<(&Path, std::io::BufWriter<std::fs::File>)>, CliError> {
    let Some(path) = path else { return Ok(None) };
    let file = std::fs::File::create(path).map_err(|source| CliError::Io {
        context: format!("cannot write {}", path.display()),
        source,
    })?;
    Ok(Some((path, std::io::BufWriter::new(file))))
}

/// The `q`-quantile of sorted values (linear between neighbours).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let at = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo as f64)
}

/// Where `fraction` (by increasing x) first falls from at least 1/2 to below it,
/// interpolated linearly.
fn half_crossing(fraction: &[(f64, f64)]) -> Option<f64> {
    fraction.windows(2).find_map(|w| {
        let ((x0, f0), (x1, f1)) = (w[0], w[1]);
        (f0 >= 0.5 && f1 < 0.5).then(|| x0 + (x1 - x0) * (f0 - 0.5) / (f0 - f1))
    })
}

/// Runs `csp sweep`.
pub fn run(args: SweepArgs) -> Result<u8, CliError> {
    let (parameter, points) = points(&args)?;
    let field = strategies(&args)?;
    if args.instances == 0 {
        return Err(usage("--instances must be at least 1"));
    }
    if args.seed.checked_add(args.instances as u64).is_none() {
        return Err(usage("--seed plus --instances is too large"));
    }
    let mut csv = create(&args.csv)?;
    let mut jsonl = create(&args.jsonl)?;
    let mut svg = create(&args.svg)?;
    let total = points.len() * args.instances;
    let progress = crate::run::steady_progress(total as u64, "instances");
    let mut results: Vec<Option<InstanceRuns>> = (0..total).map(|_| None).collect();
    let mut failure = None;
    crate::run::parallel_each(
        total,
        args.jobs,
        |job| {
            let (point, instance) = (&points[job / args.instances], job % args.instances);
            let csp = point.params.generate(args.seed + instance as u64)?;
            let model = csp.to_model().map_err(|e| CliError::Failed(e.to_string()))?;
            let ended = field
                .iter()
                .map(|&strategy| {
                    let config = SearchConfig {
                        strategy,
                        limits: Limits {
                            nodes: Some(args.node_limit),
                            time: args.timeout,
                            cancel: Some(crate::interrupt::flag()),
                            ..Limits::default()
                        },
                        ..SearchConfig::default()
                    };
                    record::search(&model, config, false)
                })
                .collect();
            let tightness = match point.params {
                Params::B(b) => b.p2,
                Params::Rb(rb) => rb.p,
            };
            Ok(InstanceRuns {
                kappa: csp.kappa(),
                tightness,
                ended,
            })
        },
        |job, runs: Result<InstanceRuns, CliError>| {
            progress.inc(1);
            if crate::interrupt::requested() {
                return false;
            }
            match runs {
                Ok(runs) => {
                    results[job] = Some(runs);
                    true
                }
                Err(e) => {
                    failure = Some(e);
                    false
                }
            }
        },
    );
    progress.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }
    if let Some((signal, _)) = crate::interrupt::received() {
        note!("interrupted by {signal}: writing the instances done");
    }
    let names: Vec<String> = field.iter().map(Strategy::to_string).collect();
    // Every run, in the order point, instance, strategy.
    for (job, runs) in results.iter().enumerate() {
        let Some(runs) = runs else { continue };
        let (point, instance) = (&points[job / args.instances], job % args.instances);
        for (s, ended) in runs.ended.iter().enumerate() {
            let r = SweepRecord {
                model: point.params.name(),
                parameter,
                value: point.value,
                tightness: runs.tightness,
                kappa: runs.kappa,
                instance,
                seed: args.seed + instance as u64,
                strategy: &names[s],
                status: ended.status,
                limit: ended.limit.map(record::limit_name),
                stats: &ended.stats,
            };
            if let Some((path, out)) = &mut jsonl {
                let line = serde_json::to_string(&r).expect("plain data");
                writeln!(out, "{line}").map_err(|e| io_error(path, e))?;
            }
            if let Some((path, out)) = &mut csv {
                if job == 0 && s == 0 {
                    writeln!(out, "{CSV_HEADER}").map_err(|e| io_error(path, e))?;
                }
                writeln!(out, "{}", r.csv()).map_err(|e| io_error(path, e))?;
            }
        }
    }
    for (path, out) in [&mut csv, &mut jsonl].into_iter().flatten() {
        out.flush().map_err(|e| io_error(path, e))?;
    }
    let chart = summary(&args, parameter, &points, &results, &names)?;
    if let Some((path, out)) = &mut svg {
        out.write_all(crate::chart::sweep::chart(&chart).as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| io_error(path, e))?;
    }
    Ok(EXIT_OK)
}

fn io_error(path: &Path, source: std::io::Error) -> CliError {
    CliError::Io {
        context: format!("cannot write {}", path.display()),
        source,
    }
}

/// Prints the table of points (value, mean κ, fraction solvable, median nodes per
/// strategy) and the crossover and peaks found, and returns the chart's data.
fn summary(
    args: &SweepArgs,
    parameter: &str,
    points: &[Point],
    results: &[Option<InstanceRuns>],
    names: &[String],
) -> Result<SweepChart, CliError> {
    let mut series: Vec<NodeSeries> = names
        .iter()
        .map(|n| NodeSeries {
            name: n.clone(),
            points: Vec::new(),
        })
        .collect();
    let mut solvable = Vec::new();
    let mut lines = vec![format!(
        "{parameter:>8} {:>7} {:>9} {:>7} {}",
        "kappa",
        "solvable",
        "limit",
        names.iter().map(|n| format!("{n:>20}")).collect::<String>()
    )];
    for (i, point) in points.iter().enumerate() {
        let done: Vec<&InstanceRuns> = results[i * args.instances..(i + 1) * args.instances]
            .iter()
            .flatten()
            .collect();
        if done.is_empty() {
            continue;
        }
        let sat = done
            .iter()
            .filter(|r| r.ended.iter().any(|e| e.status == RunStatus::Solved))
            .count();
        let unknown = done
            .iter()
            .filter(|r| r.ended.iter().all(|e| !e.status.answered()))
            .count();
        let fraction = sat as f64 / done.len() as f64;
        solvable.push((point.value, fraction));
        let kappa = done.iter().map(|r| r.kappa).sum::<f64>() / done.len() as f64;
        let mut medians = String::new();
        for (s, line) in series.iter_mut().enumerate() {
            let mut nodes: Vec<f64> = done.iter().map(|r| r.ended[s].stats.nodes as f64).collect();
            nodes.sort_by(f64::total_cmp);
            let q = (
                quantile(&nodes, 0.25),
                quantile(&nodes, 0.5),
                quantile(&nodes, 0.75),
            );
            line.points.push((point.value, q.0, q.1, q.2));
            medians.push_str(&format!("{:>20.1}", q.1));
        }
        lines.push(format!(
            "{:>8} {kappa:>7.3} {fraction:>9.2} {unknown:>7} {medians}",
            point.value
        ));
    }
    let crossing = half_crossing(&solvable);
    let predicted = args.model.crossover()?.map(|(tightness, name)| {
        // Over κ the prediction is κ = 1 whatever the model.
        if parameter == "kappa" {
            (1.0, "κ = 1".to_string())
        } else {
            (tightness, name.to_string())
        }
    });
    match (crossing, &predicted) {
        (Some(x), Some((p, name))) => lines.push(format!(
            "# fraction solvable crosses 0.5 at {parameter} = {x:.4}; predicted ({name}): {p:.4}; difference {:.4}",
            x - p
        )),
        (Some(x), None) => lines.push(format!("# fraction solvable crosses 0.5 at {parameter} = {x:.4}")),
        (None, _) => lines.push("# fraction solvable does not cross 0.5 in this range".to_string()),
    }
    for s in &series {
        if let Some(peak) = s
            .points
            .iter()
            .copied()
            .reduce(|a, b| if b.2 > a.2 { b } else { a })
        {
            let from_crossing = crossing.map_or(String::new(), |x| {
                format!(", {:.4} from the crossing", peak.0 - x)
            });
            lines.push(format!(
                "# median nodes of {} peak at {parameter} = {} ({:.1} nodes){from_crossing}",
                s.name, peak.0, peak.2
            ));
        }
    }
    let mut out = std::io::stdout().lock();
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    crate::error::written(out.write_all(text.as_bytes()), "cannot write the results")?;
    let model = match points.first().map(|p| p.params) {
        Some(Params::B(b)) => format!("model B <n={}, d={}, p1={}>", b.n, b.d, b.p1),
        Some(Params::Rb(rb)) => format!(
            "model RB{} <k={}, n={}, α={}, r={}>",
            if rb.forced { " forced" } else { "" },
            rb.k,
            rb.n,
            rb.alpha,
            rb.r
        ),
        None => String::new(),
    };
    Ok(SweepChart {
        title: format!("{model}, {} instances per point", args.instances),
        parameter: parameter.to_string(),
        series,
        solvable,
        predicted,
        observed: crossing,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_and_crossing() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(
            (quantile(&v, 0.25), quantile(&v, 0.5), quantile(&v, 0.75)),
            (2.0, 3.0, 4.0)
        );
        assert_eq!(quantile(&[1.0, 2.0], 0.5), 1.5);
        let f = [(0.1, 1.0), (0.2, 0.75), (0.3, 0.25), (0.4, 0.0)];
        assert!((half_crossing(&f).unwrap() - 0.25).abs() < 1e-12);
        assert_eq!(half_crossing(&[(0.1, 0.2), (0.2, 0.1)]), None);
    }
}
