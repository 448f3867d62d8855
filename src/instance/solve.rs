//! `csp solve FILE... [--all]`: the first solution (or every one) of each instance, or the
//! optimum of an optimisation instance.
//!
//! With `--all`, each solution is written as it is found (the output is flushed by
//! [`Stream`] at least every 200 ms) and none is kept: memory does not grow with their
//! number, a closed pipe ends the run at once, and SIGINT or SIGTERM end it with every
//! solution found written and a closing line that counts them. An optimisation instance
//! (XCSP3 `type="COP"`) is solved by branch and bound: each better solution's value is
//! written as it is found (`o VALUE` in the XCSP format), then the best solution.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use csp_core::{
    LimitKind, LnsConfig, LnsSolver, NeighbourhoodKind, Outcome, ParallelSolver, SearchConfig, Solver, Stats,
    TreeSolver,
};
use serde_json::{Map, Value};

use super::{
    Format, InstanceArgs, LoadFailure, Loaded, Method, SearchArgs, deadline, load_within, object,
    read_limits, remaining, stats_json, stats_line,
};
use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED, usage};
use crate::stream::Stream;

/// Arguments of `csp solve`.
#[derive(Args)]
pub struct SolveArgs {
    /// Instance files: XCSP3 (`.xml`, `.xml.xz`, `.xml.lzma`; `-` for standard input) or
    /// DIMACS graph colouring (`.col`, with --colors).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Every solution, not only the first: each is written as it is found (on an
    /// optimisation instance: every solution of its constraints, the objective aside).
    #[arg(long)]
    pub all: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Line, allow_negative_numbers = true)]
    pub format: Format,
    /// Large neighbourhood search on an optimisation instance, taking turns with the
    /// complete search that proves the optimum: `on` (the default) or `off` (branch and
    /// bound alone, node for node the strategy's own search).
    #[arg(long, value_enum, default_value_t = Switch::On, value_name = "on|off")]
    pub lns: Switch,
    /// The kinds of neighbourhood LNS chooses from, comma-separated: random, pg
    /// (propagation-guided), rpg (reverse propagation-guided), objective. Default: all.
    #[arg(long, value_delimiter = ',', value_name = "KINDS")]
    pub neighbourhoods: Vec<NeighbourhoodKind>,
    /// The failures (backtracks) one LNS neighbourhood may take.
    #[arg(long, value_name = "N", default_value_t = LnsConfig::default().neighbourhood_failures, value_parser = clap::value_parser!(u64).range(1..))]
    pub neighbourhood_failures: u64,
    /// The complete search's first turn under LNS, in nodes (each next turn a fifth longer).
    #[arg(long, value_name = "N", default_value_t = LnsConfig::default().complete_nodes, value_parser = clap::value_parser!(u64).range(1..))]
    pub turn_nodes: u64,
    #[command(flatten)]
    pub instance: InstanceArgs,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// On or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    On,
    Off,
}

/// How the search of one instance ended.
enum Ending {
    /// The search ended by itself: every solution asked for was found (none: the instance
    /// is unsatisfiable); for an optimisation instance, the best solution is optimal.
    Complete,
    /// A limit stopped it.
    Limit(LimitKind),
    /// The instance could not be read or searched (`unsupported`: outside what csp reads).
    Error { message: String, unsupported: bool },
    /// The reader of the output is gone.
    ReaderGone,
}

/// What one instance gave.
struct Answer {
    loaded: Option<Loaded>,
    /// The solution kept: the first (the best, optimising); with `--all` they are streamed.
    first: Option<Vec<i32>>,
    found: u64,
    ending: Ending,
    stats: Stats,
    /// Optimising: the best objective value.
    objective: Option<i64>,
    /// Optimising: the best value any solution can have, as proved (see `Optimum::bound`).
    bound: Option<i64>,
    /// The lines written while searching (its file's header, the improvements), when they
    /// could not be streamed at once (several workers).
    progress: Vec<String>,
}

/// Where the lines written during a search go: straight out (one file at a time, in
/// order), or kept with the answer until its turn.
enum Live<'s> {
    Streamed(&'s Stream),
    Kept,
}

impl Live<'_> {
    /// Writes or keeps a line; `false` when the reader of the output is gone.
    fn line(&self, answer: &mut Answer, text: String) -> bool {
        match self {
            Live::Streamed(stream) => stream.line(&text).and_then(|()| stream.flush()).is_ok(),
            Live::Kept => {
                answer.progress.push(text);
                true
            }
        }
    }
}

/// Runs `csp solve`.
pub fn run(args: SolveArgs) -> Result<u8, CliError> {
    super::check_inputs(&args.files, &args.instance)?;
    let cancel = super::cancel_flag();
    let mut config = args.search.config(&cancel, false)?;
    if args.all && args.search.method == Method::Tree {
        return Err(usage(
            "--method tree finds one solution (`csp count --method tree` counts them all)",
        ));
    }
    let trace = args.search.open_trace(&args.files)?;
    config.trace = trace.as_ref().map(|t| t.trace());
    let stream = Stream::stdout();
    let several = args.files.len() > 1;
    let mut code = EXIT_OK;
    let mut gone = false;
    let one_at_a_time = args.all || args.search.jobs == 1 || !several;
    if one_at_a_time {
        if args.all && args.search.jobs != 1 && several {
            note!("note: --all streams the instances one after the other (-j is not used)");
        }
        for path in &args.files {
            if crate::interrupt::requested() {
                break;
            }
            let answer = solve(path, &args, &config, Live::Streamed(&stream));
            if !answered(&answer) {
                code = EXIT_UNSOLVED;
            }
            gone = finish(&stream, path, &args, answer);
            if gone {
                break;
            }
        }
    } else {
        super::run_files(
            &args.files,
            args.search.jobs,
            |path| solve(path, &args, &config, Live::Kept),
            |path, answer| {
                if !answered(&answer) {
                    code = EXIT_UNSOLVED;
                }
                gone = finish(&stream, path, &args, answer);
                !gone
            },
        );
    }
    if let Some(trace) = &trace {
        trace.finish()?;
    }
    match stream.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::Io {
            context: "cannot write the results".into(),
            source: e,
        }),
        // A reader that is gone has seen what it wanted: the run ends quietly.
        _ if gone || stream.reader_gone() => Ok(EXIT_OK),
        _ => Ok(code),
    }
}

/// Whether the instance was answered: a solution (all of them with `--all`; the proved
/// optimum of an optimisation instance) or a proof that there is none.
fn answered(answer: &Answer) -> bool {
    matches!(answer.ending, Ending::Complete | Ending::ReaderGone)
}

/// Reads and solves one instance; lines written during the search go to `live`.
fn solve(path: &Path, args: &SolveArgs, config: &SearchConfig, live: Live<'_>) -> Answer {
    let start = Instant::now();
    let deadline = deadline(&args.search.limits, start);
    let mut answer = Answer {
        loaded: None,
        first: None,
        found: 0,
        ending: Ending::Complete,
        stats: Stats::default(),
        objective: None,
        bound: None,
        progress: Vec::new(),
    };
    if args.files.len() > 1 {
        let header = match args.format {
            Format::Line => Some(format!("# {}", path.display())),
            Format::Xcsp => Some(format!("c {}", path.display())),
            Format::Json => None,
        };
        if let Some(h) = header {
            if !live.line(&mut answer, h) {
                answer.ending = Ending::ReaderGone;
                return answer;
            }
        }
    }
    let loaded = match load_within(
        path,
        &args.instance,
        read_limits(&args.instance, deadline),
        !args.all,
    ) {
        Ok(l) => l,
        Err(LoadFailure::Limit(kind)) => {
            answer.ending = Ending::Limit(kind);
            return answer;
        }
        Err(e) => {
            answer.ending = Ending::Error {
                unsupported: matches!(e, LoadFailure::Unsupported(_)),
                message: e.message(),
            };
            return answer;
        }
    };
    if args.search.method == Method::Tree {
        solve_tree(path, &loaded, &remaining(config, deadline), &mut answer);
        answer.loaded = Some(loaded);
        return answer;
    }
    if loaded.is_optimisation() && !args.all {
        optimise(
            path,
            args,
            &loaded,
            &remaining(config, deadline),
            &live,
            &mut answer,
        );
        answer.loaded = Some(loaded);
        return answer;
    }
    let parallelism = args.search.parallel.parallelism();
    let mut solver = match ParallelSolver::with(loaded.model(), remaining(config, deadline), parallelism) {
        Ok(s) => s,
        Err(e) => {
            answer.ending = Ending::Error {
                message: format!("{}: {e}", path.display()),
                unsupported: false,
            };
            answer.loaded = Some(loaded);
            return answer;
        }
    };
    let mut failure: Option<String> = None;
    let mut gone = false;
    let searching = Instant::now();
    let extensions = loaded.extensions();
    let mut stopped = None;
    if !args.all {
        // One solution: the first found, or under --deterministic the first in the
        // sequential order of a parallel search's subproblems.
        let limit = match solver.solve() {
            Outcome::Solved(s) => {
                match loaded.check(&s) {
                    Ok(()) => {
                        answer.found += 1;
                        answer.first = Some(s);
                    }
                    Err(e) => failure = Some(e),
                }
                None
            }
            Outcome::Unsatisfiable => None,
            Outcome::Limit(kind) => Some(kind),
        };
        answer.stats = solver.stats().clone();
        answer.ending = ending(path, failure, gone, limit);
        answer.loaded = Some(loaded);
        return answer;
    }
    let limit = solver.for_each_solution(|s| {
        if let Err(e) = loaded.check(s) {
            failure = Some(e);
            return false;
        }
        // Each solution of the model stands for `extensions` of the instance (the
        // colourings of a graph's isolated vertices), written one by one under the
        // run's limits: they are no nodes, so the search does not see them.
        let mut extension = 0u64;
        while extensions.is_none_or(|n| extension < n) {
            if extension > 0 {
                stopped = interrupted(deadline);
                if stopped.is_some() {
                    return false;
                }
            }
            let text = match args.format {
                Format::Line => loaded.line(s, extension),
                Format::Xcsp => loaded.xcsp(s, extension, None),
                Format::Json => super::json_line_with(&object(path), "solution", loaded.json(s, extension)),
            };
            if !live.line(&mut answer, text) {
                gone = true;
                return false;
            }
            answer.found += 1;
            let Some(next) = extension.checked_add(1) else {
                break;
            };
            extension = next;
        }
        true
    });
    let limit = limit.or(stopped);
    answer.stats = solver.stats().clone();
    if args.all {
        // The instance's solutions, not the model's (see `Loaded::extensions`), and the
        // time to write the last of them, which the search does not see.
        answer.stats.solutions = answer.found;
        answer.stats.elapsed = answer.stats.elapsed.max(searching.elapsed());
    }
    answer.ending = ending(path, failure, gone, limit);
    answer.loaded = Some(loaded);
    answer
}

/// How a search ended: a solution that failed its check, the reader gone, a limit, or the end.
fn ending(path: &Path, failure: Option<String>, gone: bool, limit: Option<LimitKind>) -> Ending {
    match (failure, gone, limit) {
        (Some(message), _, _) => Ending::Error {
            message: format!("{}: {message}", path.display()),
            unsupported: false,
        },
        (None, true, _) => Ending::ReaderGone,
        (None, false, Some(kind)) => Ending::Limit(kind),
        (None, false, None) => Ending::Complete,
    }
}

/// An optimisation instance: branch and bound, with large neighbourhood search unless
/// `--lns off`. Each better solution is checked against the constraints as read, and its
/// value written as it is found.
fn optimise(
    path: &Path,
    args: &SolveArgs,
    loaded: &Loaded,
    config: &SearchConfig,
    live: &Live<'_>,
    answer: &mut Answer,
) {
    let mut failure: Option<String> = None;
    let mut gone = false;
    let ran = {
        let mut on_improvement = |s: &[i32], value: i64| {
            if let Err(e) = loaded.check(s).and_then(|()| loaded.check_objective(s, value)) {
                failure = Some(e);
                return false;
            }
            answer.found += 1;
            answer.first = Some(s.to_vec());
            answer.objective = Some(value);
            let progress = match args.format {
                Format::Xcsp => Some(format!("o {value}")),
                Format::Line => Some(format!("# objective {value}")),
                Format::Json => None,
            };
            if let Some(text) = progress {
                if !live.line(answer, text) {
                    gone = true;
                    return false;
                }
            }
            true
        };
        let model = loaded.model();
        let parallelism = args.search.parallel.parallelism();
        if parallelism.threads > 1 {
            // Parallel branch and bound, the bound shared by the threads; large
            // neighbourhood search runs on one thread.
            ParallelSolver::with(model, config.clone(), parallelism).and_then(|mut solver| {
                Ok((solver.optimize_with(&mut on_improvement)?, solver.stats().clone()))
            })
        } else if args.lns == Switch::On {
            let lns = LnsConfig {
                decision_vars: loaded.decision_vars(),
                kinds: args.neighbourhoods.clone(),
                neighbourhood_failures: args.neighbourhood_failures,
                complete_nodes: args.turn_nodes,
                seed: config.seed,
            };
            LnsSolver::new(model, config.clone(), lns).and_then(|mut solver| {
                Ok((solver.optimize_with(&mut on_improvement)?, solver.stats().clone()))
            })
        } else {
            Solver::new(model, config.clone()).and_then(|mut solver| {
                Ok((solver.optimize_with(&mut on_improvement)?, solver.stats().clone()))
            })
        }
    };
    let limit = match ran {
        Ok((optimum, stats)) => {
            answer.stats = stats;
            answer.bound = optimum.bound;
            optimum.limit
        }
        Err(e) => {
            failure.get_or_insert(e.to_string());
            None
        }
    };
    answer.ending = ending(path, failure, gone, limit);
}

/// The limit that stops the run now, if any: SIGINT or SIGTERM, or the deadline (checked
/// where the search does not run, between the solutions of the instance that one solution of
/// the model stands for).
fn interrupted(deadline: Option<Instant>) -> Option<LimitKind> {
    if crate::interrupt::requested() {
        Some(LimitKind::Cancelled)
    } else if deadline.is_some_and(|d| Instant::now() >= d) {
        Some(LimitKind::Time)
    } else {
        None
    }
}

/// `--method tree`: AIMA's tree-structured algorithm on the instance, into `answer`.
fn solve_tree(path: &Path, loaded: &Loaded, config: &SearchConfig, answer: &mut Answer) {
    let refused = |message: String| Ending::Error {
        message: format!("{}: --method tree: {message}", path.display()),
        unsupported: true,
    };
    if loaded.is_optimisation() {
        answer.ending = refused("it finds a solution of the constraints and does not optimise".into());
        return;
    }
    let mut tree = match TreeSolver::new(loaded.model(), config) {
        Ok(tree) => tree,
        Err(reason) => {
            answer.ending = refused(reason.to_string());
            return;
        }
    };
    let outcome = tree.solve();
    answer.stats = tree.stats().clone();
    match outcome {
        Outcome::Solved(values) => match loaded.check(&values) {
            Ok(()) => {
                answer.found = 1;
                answer.first = Some(values);
            }
            Err(message) => {
                answer.ending = Ending::Error {
                    message: format!("{}: {message}", path.display()),
                    unsupported: false,
                }
            }
        },
        Outcome::Unsatisfiable => {}
        Outcome::Limit(kind) => answer.ending = Ending::Limit(kind),
    }
}

/// Writes the answer of one instance (what follows what was written during its search);
/// whether the reader of the output is gone.
fn finish(stream: &Stream, path: &Path, args: &SolveArgs, answer: Answer) -> bool {
    if matches!(answer.ending, Ending::ReaderGone) {
        return true;
    }
    for l in answer.progress.iter().chain(&answer_lines(path, args, &answer)) {
        if stream.line(l).is_err() {
            return true;
        }
    }
    if args.search.stats {
        note!("{}: {}", path.display(), stats_line(&answer.stats));
    }
    if let Ending::Error { message, .. } = &answer.ending {
        note!("error: {message}");
    }
    stream.flush().is_err() && stream.reader_gone()
}

/// Whether the answer is an optimisation's.
fn optimising(args: &SolveArgs, answer: &Answer) -> bool {
    !args.all && answer.loaded.as_ref().is_some_and(Loaded::is_optimisation)
}

/// The lines that give an instance's answer (with `--all`, after its streamed solutions).
fn answer_lines(path: &Path, args: &SolveArgs, answer: &Answer) -> Vec<String> {
    let all = args.all;
    let optimising = optimising(args, answer);
    let proved = matches!(answer.ending, Ending::Complete);
    let mut out = Vec::new();
    match args.format {
        Format::Line => match (&answer.ending, &answer.first, &answer.loaded) {
            (Ending::Error { .. }, _, _) => out.push("# error".into()),
            (ending, Some(s), Some(l)) if !all => {
                out.push(l.line(s, 0));
                if let (true, Some(value)) = (optimising, answer.objective) {
                    out.push(match ending {
                        Ending::Limit(k) => match answer.bound {
                            Some(bound) => format!("# best {value}, not proved optimal ({k}); bound {bound}"),
                            None => format!("# best {value}, not proved optimal ({k})"),
                        },
                        _ => format!("# optimum {value}"),
                    });
                }
            }
            (Ending::Complete, _, _) if answer.found == 0 => out.push("# unsatisfiable".into()),
            (Ending::Limit(k), _, _) if all => out.push(format!("# {k} after {} solutions", answer.found)),
            (Ending::Limit(k), _, _) => out.push(format!("# {k}")),
            _ => {}
        },
        Format::Xcsp => match &answer.ending {
            Ending::Error { message, unsupported } => {
                out.push(
                    if *unsupported {
                        "s UNSUPPORTED"
                    } else {
                        "s UNKNOWN"
                    }
                    .into(),
                );
                out.push(format!("c error: {}", message.replace('\n', " ")));
            }
            ending => {
                let limit = match ending {
                    Ending::Limit(k) => Some(*k),
                    _ => None,
                };
                let status = if optimising && proved && answer.found > 0 {
                    "s OPTIMUM FOUND"
                } else {
                    super::status_line(answer.found > 0, limit)
                };
                out.push(status.into());
                if let (Some(s), Some(l), false) = (&answer.first, &answer.loaded, all) {
                    let cost = answer.objective.filter(|_| optimising).map(|c| (proved, c));
                    out.push(l.xcsp(s, 0, cost));
                }
                if let (true, false, Some(bound)) = (optimising, proved, answer.bound) {
                    out.push(format!("d BOUND {bound}"));
                }
                if all {
                    out.push(format!(
                        "c solutions {}{}",
                        answer.found,
                        if limit.is_some() { " (not all)" } else { "" }
                    ));
                }
                out.push(format!(
                    "c nodes {} backtracks {} time {:.3}",
                    answer.stats.nodes,
                    answer.stats.backtracks,
                    answer.stats.elapsed.as_secs_f64()
                ));
            }
        },
        Format::Json => {
            let mut m: Map<String, Value> = object(path);
            m.insert("status".into(), Value::from(status(answer, all, optimising)));
            match &answer.ending {
                Ending::Error { message, .. } => {
                    m.insert("error".into(), Value::from(message.as_str()));
                }
                ending => {
                    if all {
                        m.insert("count".into(), Value::from(answer.found));
                    } else if answer.first.is_none() {
                        m.insert("solution".into(), Value::Null);
                    }
                    if let Ending::Limit(k) = ending {
                        m.insert("limit".into(), Value::from(k.to_string()));
                    }
                    m.extend(stats_json(&answer.stats));
                    if optimising {
                        m.insert("optimal".into(), Value::from(proved && answer.found > 0));
                        m.insert("bound".into(), answer.bound.map_or(Value::Null, Value::from));
                    }
                }
            }
            out.push(match (&answer.first, &answer.loaded, &answer.ending) {
                (Some(s), Some(l), ending) if !all && !matches!(ending, Ending::Error { .. }) => {
                    super::json_line_with(&m, "solution", l.json(s, 0))
                }
                _ => super::json_line(&m),
            });
        }
    }
    out
}

/// The `status` of the JSON answer.
fn status(answer: &Answer, all: bool, optimising: bool) -> &'static str {
    match (&answer.ending, answer.found) {
        (Ending::Error { .. }, _) => "error",
        (Ending::Complete, n) if optimising && n > 0 => "optimal",
        (_, n) if n > 0 && !all => "solved",
        (Ending::Limit(_), _) => "limit",
        (_, 0) => "unsatisfiable",
        _ => "solved",
    }
}
