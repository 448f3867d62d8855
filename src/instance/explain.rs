//! `csp explain FILE`: why an instance has no solution, as a minimal unsatisfiable subset
//! (MUS) of its constraints, or every MUS with `--all`. The algorithms are csp-core's
//! (`csp_core::explain`); the parts and the oracle are csp-xcsp's (`csp_xcsp::explain`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, ValueEnum};
use csp_core::explain::{self, ExplainLimits, Explanation};
use csp_core::{LimitKind, SearchConfig};
use csp_xcsp::explain::{EdgeOracle, Grouping, Part, PartOracle};
use csp_xcsp::{Instance, ReadOptions};
use serde_json::{Map, Value};

use super::{InstanceArgs, cancel_flag, deadline, default_restarts, default_strategy, object, read_limits};
use crate::args::{LimitArgs, StrategyArgs, checked, parse_restarts};
use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED, usage};
use crate::stream::Stream;

/// Arguments of `csp explain`.
#[derive(Args)]
pub struct ExplainArgs {
    /// The instance: XCSP3 (`.xml`, `.xml.xz`, `.xml.lzma`; `-` for standard input) or
    /// DIMACS graph colouring (`.col`, with --colors K). An objective is ignored.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// How a minimal subset is found: `quickxplain` (Junker 2004: halving, few solver calls
    /// when the subset is small) or `deletion` (each constraint in turn).
    #[arg(long, value_enum, default_value_t = ExplainMethod::Quickxplain, allow_negative_numbers = true)]
    pub method: ExplainMethod,
    /// Every minimal unsatisfiable subset (MARCO, Liffiton et al. 2016), each written as it
    /// is found: for small models, as their number can grow exponentially.
    #[arg(long)]
    pub all: bool,
    /// What an explanation names: `none` (each constraint as stated: an element, one
    /// `<args>` of a group, one window of a slide), `blocks` (each child of `<constraints>`:
    /// a whole `<group>`, `<block>` or `<slide>`), `arrays` (the constraints over the same
    /// arrays together).
    #[arg(long, value_enum, default_value_t = Groups::None, allow_negative_numbers = true)]
    pub groups: Groups,
    /// Output: `text` (a `#` line, then one constraint per line) or `json`.
    #[arg(long, value_enum, default_value_t = TextFormat::Text, allow_negative_numbers = true)]
    pub format: TextFormat,
    #[command(flatten)]
    pub instance: InstanceArgs,
    #[command(flatten)]
    pub strategy: StrategyArgs,
    /// Restarts of each solver call: as for `csp solve` (default geometric:100:1.5).
    #[arg(long, value_name = "POLICY", allow_negative_numbers = true)]
    pub restarts: Option<String>,
    /// --timeout: the whole explanation, reading included; --node-limit: each solver call
    /// (a call it stops leaves its subset undecided: never counted as unsatisfiable).
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// `--method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExplainMethod {
    /// QuickXplain (Junker, AAAI 2004).
    Quickxplain,
    /// Deletion-based.
    Deletion,
}

/// `--groups`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Groups {
    /// Each constraint as stated.
    None,
    /// Each child of `<constraints>`.
    Blocks,
    /// The constraints over the same arrays.
    Arrays,
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TextFormat {
    /// Text lines.
    Text,
    /// JSON.
    Json,
}

/// Runs `csp explain`.
pub fn run(args: ExplainArgs) -> Result<u8, CliError> {
    super::check_inputs(std::slice::from_ref(&args.file), &args.instance)?;
    // The subsets explained are the constraints as the file states them, which only the
    // XCSP3 and DIMACS readers keep.
    let format = super::InputFormat::of(&args.file);
    if matches!(
        format,
        super::InputFormat::FlatZinc | super::InputFormat::MiniZinc
    ) {
        return Err(usage(format!(
            "{}: csp explain reads XCSP3 and DIMACS files, not FlatZinc or MiniZinc",
            args.file.display()
        )));
    }
    let start = Instant::now();
    let cancel = cancel_flag();
    let mut config = args.strategy.config(default_strategy(), &args.limits)?;
    config.restarts = match &args.restarts {
        Some(text) => parse_restarts(text).map_err(usage)?,
        None if config.backjump != csp_core::Backjump::None => None,
        None => default_restarts(),
    };
    config.limits.cancel = Some(cancel.clone());
    let config = checked(config)?;
    let deadline = deadline(&args.limits, start);
    let stream = Stream::stdout();
    let code = if format == super::InputFormat::Dimacs {
        let Some(colours) = args.instance.colors else {
            return Err(usage("DIMACS .col files need --colors K"));
        };
        explain_colouring(&args, colours, config, deadline, start, &stream)
    } else {
        let mut options = ReadOptions {
            limits: read_limits(&args.instance, deadline),
            keep_variables: true,
            ..ReadOptions::default()
        };
        if let Some(s) = args.instance.alldiff {
            options.post.all_different = s;
        }
        options.post.objective = false;
        match Instance::from_path_with(&args.file, &options) {
            Ok(instance) => {
                let grouping = match args.groups {
                    Groups::None => Grouping::None,
                    Groups::Blocks => Grouping::Blocks,
                    Groups::Arrays => Grouping::Arrays,
                };
                let parts = csp_xcsp::explain::parts(&instance, grouping);
                let mut oracle = PartOracle::new(&instance, &parts, options, config, deadline);
                let subject = Subject {
                    file: &args.file,
                    names: parts.iter().map(named).collect(),
                };
                let code = explain_with(&args, &subject, &mut oracle, deadline, start, &stream);
                if let Some(e) = &oracle.error {
                    note!("error: {}: {e}", args.file.display());
                    EXIT_UNSOLVED
                } else {
                    code
                }
            }
            Err(e) => {
                let status = if e.limit().is_some() { "unknown" } else { "error" };
                let message = format!("{}: {e}", args.file.display());
                let mut m = object(&args.file);
                m.insert("status".into(), status.into());
                m.insert("error".into(), message.clone().into());
                match args.format {
                    TextFormat::Text => {
                        let _ = stream.line(&format!("# {status}: {e}"));
                    }
                    TextFormat::Json => {
                        let _ = stream.line(&Value::Object(m).to_string());
                    }
                }
                note!("error: {message}");
                EXIT_UNSOLVED
            }
        }
    };
    match stream.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::Io {
            context: "cannot write the results".into(),
            source: e,
        }),
        _ => Ok(code),
    }
}

/// `csp explain FILE.col --colors K`: the parts are the edges.
fn explain_colouring(
    args: &ExplainArgs,
    colours: u32,
    config: SearchConfig,
    deadline: Option<Instant>,
    start: Instant,
    stream: &Stream,
) -> u8 {
    if args.groups != Groups::None {
        note!("note: --groups does not apply to a graph: its parts are its edges");
    }
    let limits = read_limits(&args.instance, deadline);
    let graph = match csp_xcsp::dimacs::read_graph_with(&args.file, &limits) {
        Ok(g) => g,
        Err(e) => {
            let _ = stream.line(&match args.format {
                TextFormat::Text => format!("# error: {e}"),
                TextFormat::Json => {
                    let mut m = object(&args.file);
                    m.insert("status".into(), "error".into());
                    m.insert("error".into(), e.to_string().into());
                    Value::Object(m).to_string()
                }
            });
            note!("error: {}: {e}", args.file.display());
            return EXIT_UNSOLVED;
        }
    };
    let names = graph
        .edges
        .iter()
        .map(|&(u, v)| {
            let name = format!("e {} {}", u + 1, v + 1);
            let mut m = Map::new();
            m.insert("name".into(), name.clone().into());
            m.insert("element".into(), "edge".into());
            (name, Value::Object(m))
        })
        .collect();
    let subject = Subject {
        file: &args.file,
        names,
    };
    let mut oracle = EdgeOracle::new(&graph, colours, config, deadline);
    let code = explain_with(args, &subject, &mut oracle, deadline, start, stream);
    match &oracle.error {
        Some(e) => {
            note!("error: {}: {e}", args.file.display());
            EXIT_UNSOLVED
        }
        None => code,
    }
}

/// What an explanation speaks of: the file, and the name of each part as text and JSON.
pub struct Subject<'a> {
    pub file: &'a Path,
    pub names: Vec<(String, Value)>,
}

/// A part's line of text (`c3: allDifferent at line 5, column 1` when it has an id) and its
/// JSON object.
fn named(part: &Part) -> (String, Value) {
    let text = match &part.id {
        Some(id) if part.element != "arrays" => {
            format!("{id}: {} at {}", part.element, part.position)
        }
        _ => part.name.clone(),
    };
    let mut m = Map::new();
    m.insert("name".into(), part.name.clone().into());
    if let Some(id) = &part.id {
        m.insert("id".into(), id.clone().into());
    }
    m.insert("element".into(), part.element.clone().into());
    m.insert("line".into(), part.position.line.into());
    m.insert("column".into(), part.position.column.into());
    m.insert("units".into(), part.units.len().into());
    (text, Value::Object(m))
}

/// Explains (or enumerates) over `oracle` and writes the answer; the exit code.
pub fn explain_with(
    args: &ExplainArgs,
    subject: &Subject<'_>,
    oracle: &mut dyn explain::SubsetOracle,
    deadline: Option<Instant>,
    start: Instant,
    stream: &Stream,
) -> u8 {
    let limits = ExplainLimits {
        deadline,
        cancel: Some(cancel_flag()),
    };
    let n = subject.names.len();
    let json = args.format == TextFormat::Json;
    let mut summary = object(subject.file);
    summary.insert(
        "groups".into(),
        format!("{:?}", args.groups).to_lowercase().into(),
    );
    summary.insert("total".into(), n.into());
    let code;
    if args.all {
        let mut count = 0usize;
        let all = explain::all_muses(
            n,
            |s: &[usize]| oracle.check(s),
            &limits,
            |mus| {
                count += 1;
                let line = if json {
                    let mut m = object(subject.file);
                    m.insert(
                        "mus".into(),
                        Value::Array(mus.iter().map(|&g| subject.names[g].1.clone()).collect()),
                    );
                    Value::Object(m).to_string()
                } else {
                    let mut text = format!(
                        "# mus {count}: {} constraint{}",
                        mus.len(),
                        if mus.len() == 1 { "" } else { "s" }
                    );
                    for &g in mus {
                        text.push('\n');
                        text.push_str(&subject.names[g].0);
                    }
                    text
                };
                let _ = stream.line(&line);
            },
        );
        let status = match (all.complete, all.muses.is_empty()) {
            (true, true) => "satisfiable",
            (true, false) => "unsatisfiable",
            (false, _) => "unknown",
        };
        code = if all.complete { EXIT_OK } else { EXIT_UNSOLVED };
        summary.insert("status".into(), status.into());
        summary.insert("muses".into(), all.muses.len().into());
        summary.insert("complete".into(), all.complete.into());
        finish(&mut summary, all.calls, all.limit, start);
        if json {
            let _ = stream.line(&Value::Object(summary).to_string());
        } else {
            let _ = stream.line(&match status {
                "satisfiable" => "# satisfiable: no unsatisfiable subset".to_string(),
                _ if all.complete => format!(
                    "# {} minimal unsatisfiable subsets, all of them ({} solver calls, {:.3} s)",
                    all.muses.len(),
                    all.calls,
                    start.elapsed().as_secs_f64()
                ),
                _ => format!(
                    "# {} minimal unsatisfiable subsets found, maybe not all ({}; {} solver calls, {:.3} s)",
                    all.muses.len(),
                    why(all.limit),
                    all.calls,
                    start.elapsed().as_secs_f64()
                ),
            });
        }
        return code;
    }
    let method = match args.method {
        ExplainMethod::Quickxplain => explain::Method::QuickXplain,
        ExplainMethod::Deletion => explain::Method::Deletion,
    };
    let report = explain::explain(n, |s: &[usize]| oracle.check(s), method, &limits);
    summary.insert(
        "method".into(),
        format!("{:?}", args.method).to_lowercase().into(),
    );
    let mut lines = Vec::new();
    let elapsed = start.elapsed().as_secs_f64();
    match &report.explanation {
        Explanation::Satisfiable => {
            code = EXIT_OK;
            summary.insert("status".into(), "satisfiable".into());
            lines.push("# satisfiable: nothing to explain".to_string());
        }
        Explanation::Unknown(kind) => {
            code = EXIT_UNSOLVED;
            summary.insert("status".into(), "unknown".into());
            lines.push(format!("# unknown: {kind} before the instance was decided"));
        }
        Explanation::Unsatisfiable(mus) => {
            code = if mus.minimal { EXIT_OK } else { EXIT_UNSOLVED };
            summary.insert("status".into(), "unsatisfiable".into());
            summary.insert("minimal".into(), mus.minimal.into());
            summary.insert("size".into(), mus.groups.len().into());
            summary.insert(
                "constraints".into(),
                Value::Array(mus.groups.iter().map(|&g| subject.names[g].1.clone()).collect()),
            );
            lines.push(if mus.minimal {
                format!(
                    "# unsatisfiable: a minimal unsatisfiable subset of {} of the {n} constraints ({} solver calls, {elapsed:.3} s)",
                    mus.groups.len(),
                    report.calls
                )
            } else {
                format!(
                    "# unsatisfiable: a subset of {} of the {n} constraints, unsatisfiable but not proved minimal ({}; {} solver calls, {elapsed:.3} s)",
                    mus.groups.len(),
                    why(report.limit),
                    report.calls
                )
            });
            lines.extend(mus.groups.iter().map(|&g| subject.names[g].0.clone()));
        }
    }
    finish(&mut summary, report.calls, report.limit, start);
    if json {
        let _ = stream.line(&Value::Object(summary).to_string());
    } else {
        for l in &lines {
            let _ = stream.line(l);
        }
    }
    code
}

/// The fields every answer ends with.
fn finish(summary: &mut Map<String, Value>, calls: u64, limit: Option<LimitKind>, start: Instant) {
    summary.insert("calls".into(), calls.into());
    summary.insert(
        "limit".into(),
        limit.map_or(Value::Null, |k| super::record::limit_name(k).into()),
    );
    summary.insert("elapsed_ms".into(), (start.elapsed().as_millis() as u64).into());
}

/// Why an answer is not complete.
fn why(limit: Option<LimitKind>) -> String {
    limit.map_or_else(|| "a solver call was not decided".to_string(), |k| k.to_string())
}
