//! Running a model as a FlatZinc solver does: the search the flags ask for, each
//! solution printed as soon as it is found (one write per solution, so that an
//! interruption never leaves half a solution), and the closing marker the FlatZinc
//! specification gives for how the search ended.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use csp_core::{
    Backjump, Inference, LimitKind, Limits, Outcome, ParallelSolver, Parallelism, Restarts, SearchConfig,
    Stats, Strategy, TieBreak, ValueOrder, VarOrder,
};

use crate::output::{SEARCH_COMPLETE, UNKNOWN, UNSATISFIABLE, solution_text};
use crate::post::Term;
use crate::reader::{Goal, Instance};

/// The standard flags of a FlatZinc solver.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// `-a`: every solution of a satisfaction problem, every improving one of an
    /// optimisation problem.
    pub all: bool,
    /// `-i`: every improving solution of an optimisation problem.
    pub intermediate: bool,
    /// `-n N`: stop after N solutions (satisfaction problems).
    pub solutions: Option<u64>,
    /// `-f`: ignore the search annotations.
    pub free: bool,
    /// `-r SEED`: the seed of random value orders and tie-breaks.
    pub seed: u64,
    /// `-t MS`: the time the search may take.
    pub time: Option<Duration>,
    /// `-s`: print statistics.
    pub stats: bool,
    /// Set by another thread (a signal handler) to stop the search.
    pub cancel: Option<Arc<AtomicBool>>,
    /// The time reading took, for the `initTime` statistic.
    pub init_time: Duration,
    /// `-p N`: the threads the search runs on (csp's `--threads`; 0 and 1: one).
    pub threads: usize,
    /// csp's own strategy flags, over the annotations and the defaults.
    pub strategy: StrategyFlags,
}

/// csp's strategy flags (`--var`, `--val`, `--inference`, `--tie-break`, `--restarts`,
/// `--backjump`, under the names every csp command gives them): each one given replaces
/// that part of the annotation's strategy or of the default. A variable order, value
/// order or inference given without `--restarts` searches without restarts, as an
/// annotated search does, so that the textbook strategies count their textbook nodes.
#[derive(Clone, Debug, Default)]
pub struct StrategyFlags {
    /// `--var`.
    pub var: Option<VarOrder>,
    /// `--val`.
    pub value: Option<ValueOrder>,
    /// `--inference`.
    pub inference: Option<Inference>,
    /// `--tie-break`.
    pub tie_break: Option<TieBreak>,
    /// `--restarts`: `Some(None)` is `--restarts none`.
    pub restarts: Option<Option<Restarts>>,
    /// `--backjump`.
    pub backjump: Option<Backjump>,
}

impl StrategyFlags {
    /// Whether a part of the strategy itself was given.
    fn sets_strategy(&self) -> bool {
        self.var.is_some() || self.value.is_some() || self.inference.is_some()
    }

    /// `config` with the flags given put over it.
    fn apply(&self, config: SearchConfig) -> SearchConfig {
        let base = config.strategy;
        let restarts = match self.restarts {
            Some(r) => r,
            None if self.sets_strategy() || self.backjump.is_some() => None,
            None => config.restarts,
        };
        SearchConfig {
            strategy: Strategy::new(
                self.var.unwrap_or(base.var_order),
                self.value.unwrap_or(base.value_order),
                self.inference.unwrap_or(base.inference),
            ),
            tie_break: self.tie_break.unwrap_or(config.tie_break),
            backjump: self.backjump.unwrap_or(config.backjump),
            restarts,
            ..config
        }
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Status {
    /// Solutions were printed and the search was not finished (one solution asked for,
    /// or a limit).
    Satisfied,
    /// The search space was exhausted after at least one solution: all solutions were
    /// printed, or the last one is optimal.
    Complete,
    /// The search space was exhausted without a solution.
    Unsatisfiable,
    /// A limit or a signal stopped the search before any solution.
    Unknown,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// How it ended.
    pub status: Status,
    /// Solutions printed.
    pub solutions: u64,
    /// The search's statistics.
    pub stats: Stats,
    /// The limit that stopped the search, if one did.
    pub limit: Option<LimitKind>,
}

/// The search configuration for `instance` under `options`: the annotation's orders
/// (unless `-f`) with maintained arc consistency, else csp's defaults for instance files
/// (`run-robin/asc/mac` with geometric restarts to solve or optimise, `dom-wdeg/asc/mac`
/// without restarts to enumerate, as `csp solve` and `csp count` have); then csp's own
/// strategy flags over it ([`StrategyFlags`]). The caller checks that the whole fits
/// together ([`SearchConfig::check`]).
pub fn search_config(instance: &Instance, options: &RunOptions, enumerate: bool) -> SearchConfig {
    options
        .strategy
        .apply(annotated_config(instance, options, enumerate))
}

fn annotated_config(instance: &Instance, options: &RunOptions, enumerate: bool) -> SearchConfig {
    let spec = &instance.search;
    let (var, value) = if options.free || !spec.annotated {
        (None, None)
    } else {
        (spec.var_order, spec.value_order)
    };
    let value = value.unwrap_or(ValueOrder::Asc);
    let (var, restarts) = match var {
        Some(v) => (v, None),
        None if enumerate => (VarOrder::DomWdeg, None),
        None => (
            VarOrder::RunRobin,
            Some(Restarts::Geometric {
                first: 100,
                factor: 1.5,
            }),
        ),
    };
    SearchConfig {
        restarts,
        seed: options.seed,
        limits: Limits {
            time: options.time,
            cancel: options.cancel.clone(),
            ..Limits::default()
        },
        ..SearchConfig::with_strategy(Strategy::new(var, value, Inference::Mac))
    }
}

/// Solves `instance` as `options` ask, printing to `out` as the FlatZinc specification
/// says. Errors are those of writing.
pub fn run(instance: &Instance, options: &RunOptions, out: &mut (dyn Write + Send)) -> io::Result<RunReport> {
    let started = Instant::now();
    let mut report = RunReport {
        status: Status::Unknown,
        solutions: 0,
        stats: Stats::default(),
        limit: None,
    };
    if instance.unsat.is_some() {
        report.status = Status::Unsatisfiable;
        writeln!(out, "{UNSATISFIABLE}")?;
        write_stats(instance, options, &report, started, out)?;
        return Ok(report);
    }
    let outputs = &instance.outputs;
    let mut write_error: Option<io::Error> = None;
    let mut emit = |values: &[i32], out: &mut dyn Write| -> bool {
        let text = solution_text(outputs, values);
        match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            Ok(()) => true,
            Err(e) => {
                write_error.get_or_insert(e);
                false
            }
        }
    };
    let optimise = matches!(
        instance.goal,
        Goal::Minimize(Term::Var(_)) | Goal::Maximize(Term::Var(_))
    );
    // A constant objective: the first solution is optimal.
    let constant_objective = !optimise && instance.goal != Goal::Satisfy;
    let enumerate = !optimise && !constant_objective && (options.all || options.solutions.is_some());
    let mut config = search_config(instance, options, enumerate);
    if enumerate {
        config.limits.solutions = options.solutions;
    }
    let parallelism = Parallelism {
        threads: options.threads.clamp(1, csp_core::MAX_THREADS),
        ..Parallelism::default()
    };
    let mut solver = match ParallelSolver::with(&instance.model, config, parallelism) {
        Ok(s) => s,
        Err(e) => return Err(io::Error::other(e.to_string())),
    };
    let mut complete = false;
    if optimise {
        let print_each = options.all || options.intermediate;
        let mut count = 0;
        let optimum = solver
            .optimize_with(|values, _| {
                count += 1;
                !print_each || emit(values, out)
            })
            .map_err(|e| io::Error::other(e.to_string()))?;
        if let Some(best) = optimum.best.as_deref().filter(|_| !print_each) {
            emit(best, out);
        }
        report.solutions = if print_each {
            count
        } else {
            u64::from(optimum.best.is_some())
        };
        report.limit = optimum.limit;
        complete = optimum.proved;
    } else if enumerate {
        let mut count = 0;
        let limit = solver.for_each_solution(|values| {
            count += 1;
            emit(values, out)
        });
        report.solutions = count;
        report.limit = limit;
        complete = limit.is_none() && write_error.is_none();
    } else {
        match solver.solve() {
            Outcome::Solved(values) => {
                emit(&values, out);
                report.solutions = 1;
                complete = constant_objective;
            }
            Outcome::Unsatisfiable => complete = true,
            Outcome::Limit(kind) => report.limit = Some(kind),
        }
    }
    if let Some(e) = write_error {
        return Err(e);
    }
    report.stats = solver.stats().clone();
    report.status = match (report.solutions > 0, complete) {
        (true, true) => Status::Complete,
        (true, false) => Status::Satisfied,
        (false, true) => Status::Unsatisfiable,
        (false, false) => Status::Unknown,
    };
    match report.status {
        Status::Complete => writeln!(out, "{SEARCH_COMPLETE}")?,
        Status::Unsatisfiable => writeln!(out, "{UNSATISFIABLE}")?,
        Status::Unknown => writeln!(out, "{UNKNOWN}")?,
        Status::Satisfied => {}
    }
    write_stats(instance, options, &report, started, out)?;
    out.flush()?;
    Ok(report)
}

/// The `-s` statistics: the standard names where csp has the figure (`failures` is
/// csp's backtracks: nodes whose subtree was exhausted, failed leaves among them), then
/// csp's own.
fn write_stats(
    instance: &Instance,
    options: &RunOptions,
    report: &RunReport,
    started: Instant,
    out: &mut dyn Write,
) -> io::Result<()> {
    if !options.stats {
        return Ok(());
    }
    let s = &report.stats;
    let model = &instance.model;
    let mut lines: Vec<(&str, String)> = vec![
        ("nodes", s.nodes.to_string()),
        ("failures", s.backtracks.to_string()),
        ("restarts", s.restarts.to_string()),
        ("nogoods", s.nogoods.to_string()),
        ("propagations", s.propagations.to_string()),
        ("peakDepth", s.max_depth.to_string()),
        ("solutions", report.solutions.to_string()),
        ("variables", model.num_vars().to_string()),
        ("intVariables", instance.int_vars.to_string()),
        ("boolVariables", instance.bool_vars.to_string()),
        (
            "propagators",
            (model.propagators().len() + model.constraints().len()).to_string(),
        ),
        ("initTime", format!("{:.6}", options.init_time.as_secs_f64())),
        ("solveTime", format!("{:.6}", started.elapsed().as_secs_f64())),
    ];
    if let Some(o) = s.objective {
        lines.push(("objective", o.to_string()));
    }
    lines.extend([
        ("backtracks", s.backtracks.to_string()),
        ("checks", s.checks.to_string()),
        ("pruned", s.pruned.to_string()),
        ("revisions", s.revisions.to_string()),
    ]);
    let mut text = String::new();
    for (name, value) in lines {
        text.push_str(&format!("%%%mzn-stat: {name}={value}\n"));
    }
    text.push_str("%%%mzn-stat-end\n");
    out.write_all(text.as_bytes())
}
