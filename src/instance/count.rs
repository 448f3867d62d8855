//! `csp count FILE... [--limit K]`: the number of solutions of each instance.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use csp_core::{LimitKind, ParallelSolver, SearchConfig, Stats, TreeCountError, TreeSolver};
use serde_json::Value;

use super::{
    Format, InstanceArgs, LoadFailure, Loaded, Method, SearchArgs, deadline, load_within, object,
    read_limits, remaining, stats_json, stats_line,
};
use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED, usage};
use crate::stream::Stream;

/// Arguments of `csp count`.
#[derive(Args)]
pub struct CountArgs {
    /// Instance files: XCSP3 (`.xml`, `.xml.xz`, `.xml.lzma`) or DIMACS graph colouring
    /// (`.col`, with --colors).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Stop counting at this many solutions (status `capped`).
    #[arg(long, value_name = "K", value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
    pub limit: Option<u64>,
    /// Output format (`line`: the number; `xcsp`: `s` line, the first solution and the count).
    #[arg(long, value_enum, default_value_t = Format::Line, allow_negative_numbers = true)]
    pub format: Format,
    #[command(flatten)]
    pub instance: InstanceArgs,
    #[command(flatten)]
    pub search: SearchArgs,
}

enum Answer {
    Done {
        solutions: u64,
        first: Option<Vec<i32>>,
        limit: Option<LimitKind>,
        /// Boxed: the statistics are most of an answer's size.
        stats: Box<Stats>,
    },
    Error {
        message: String,
        unsupported: bool,
    },
}

/// Reads one instance and counts its solutions, within the run's limits.
fn count_one(path: &Path, args: &CountArgs, config: &SearchConfig) -> (Option<Loaded>, Answer) {
    let deadline = deadline(&args.search.limits, Instant::now());
    let loaded = match load_within(path, &args.instance, read_limits(&args.instance, deadline), false) {
        Ok(l) => l,
        Err(LoadFailure::Limit(kind)) => {
            let answer = Answer::Done {
                solutions: 0,
                first: None,
                limit: Some(kind),
                stats: Box::default(),
            };
            return (None, answer);
        }
        Err(e) => {
            let answer = Answer::Error {
                unsupported: matches!(e, LoadFailure::Unsupported(_)),
                message: e.message(),
            };
            return (None, answer);
        }
    };
    if args.search.method == Method::Tree {
        let answer = count_tree(path, &loaded, &remaining(config, deadline), args.limit);
        return (Some(loaded), answer);
    }
    let parallelism = args.search.parallel.parallelism();
    let mut solver = match ParallelSolver::with(loaded.model(), remaining(config, deadline), parallelism) {
        Ok(s) => s,
        Err(e) => {
            let answer = Answer::Error {
                message: format!("{}: {e}", path.display()),
                unsupported: false,
            };
            return (None, answer);
        }
    };
    let cap = args.limit;
    // Each solution of the model stands for `per` of the instance (the colourings of a
    // graph's isolated vertices); `None`: the total left u64. The threads of a parallel
    // search check and count their solutions at once: a lock only for the first solution
    // and a wrong one.
    let per = loaded.extensions();
    let solutions = AtomicU64::new(0);
    let overflow = AtomicBool::new(false);
    let first = Mutex::new(None);
    let bad = Mutex::new(None);
    let limit = solver.for_each_solution_shared(|s| {
        if let Err(e) = loaded.check(s) {
            bad.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(e);
            return false;
        }
        let Some(per) = per else {
            overflow.store(true, Ordering::Relaxed);
            return false;
        };
        let added = solutions.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_add(per));
        let Ok(before) = added else {
            overflow.store(true, Ordering::Relaxed);
            return false;
        };
        if before == 0 {
            first
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert_with(|| s.to_vec());
        }
        cap.is_none_or(|k| before + per < k)
    });
    let solutions = (!overflow.load(Ordering::Relaxed)).then(|| solutions.load(Ordering::Relaxed));
    let first = first.into_inner().unwrap_or_else(PoisonError::into_inner);
    let answer = match bad.into_inner().unwrap_or_else(PoisonError::into_inner) {
        Some(message) => Answer::Error {
            message: format!("{}: {message}", path.display()),
            unsupported: false,
        },
        None => total(path, solutions, cap, limit, first, solver.stats().clone()),
    };
    (Some(loaded), answer)
}

/// The answer of a count that reached `solutions` (`None`: past `u64::MAX`) under `cap`,
/// or was stopped by `limit`.
fn total(
    path: &Path,
    solutions: Option<u64>,
    cap: Option<u64>,
    limit: Option<LimitKind>,
    first: Option<Vec<i32>>,
    mut stats: Stats,
) -> Answer {
    let (solutions, limit) = match (solutions, cap, limit) {
        (Some(n), Some(k), None) if n >= k => (k, Some(LimitKind::Solutions)),
        (None, Some(k), _) => (k, Some(LimitKind::Solutions)),
        (Some(n), _, limit) => (n, limit),
        (None, None, _) => {
            return Answer::Error {
                message: format!(
                    "{}: more than {} solutions (--limit caps the count)",
                    path.display(),
                    u64::MAX
                ),
                unsupported: false,
            };
        }
    };
    // The instance's solutions, not the model's: they differ where a graph's isolated
    // vertices were set apart.
    stats.solutions = solutions;
    Answer::Done {
        solutions,
        first,
        limit,
        stats: Box::new(stats),
    }
}

/// `--method tree`: the count of AIMA's tree-structured algorithm (multiplied along the
/// trees: no node), capped at `cap`, and its first solution.
fn count_tree(path: &Path, loaded: &Loaded, config: &SearchConfig, cap: Option<u64>) -> Answer {
    let error = |message: String, unsupported: bool| Answer::Error {
        message: format!("{}: --method tree: {message}", path.display()),
        unsupported,
    };
    let solve = TreeSolver::new(loaded.model(), config).map(|mut tree| tree.solve());
    let mut tree = match TreeSolver::new(loaded.model(), config) {
        Ok(tree) => tree,
        Err(reason) => return error(reason.to_string(), true),
    };
    let counted = tree.count();
    let stats = tree.stats().clone();
    let first = solve
        .ok()
        .and_then(|outcome| outcome.solution().map(<[i32]>::to_vec));
    if let Some(Err(message)) = first.as_ref().map(|s| loaded.check(s)) {
        return error(message, false);
    }
    match counted {
        Ok(solutions) => {
            let solutions = loaded.extensions().and_then(|per| solutions.checked_mul(per));
            // Over the cap, not at it: the tree method knows the exact count.
            let over = |n: u64| cap.is_some_and(|k| n > k);
            match solutions {
                Some(n) if !over(n) => total(path, Some(n), None, None, first, stats),
                _ => total(path, solutions, cap, None, first, stats),
            }
        }
        Err(TreeCountError::Overflow) => total(path, None, cap, None, first, stats),
        Err(TreeCountError::Limit(kind)) => Answer::Done {
            solutions: 0,
            first: None,
            limit: Some(kind),
            stats: Box::new(stats),
        },
        Err(e) => error(e.to_string(), false),
    }
}

/// Runs `csp count`.
pub fn run(args: CountArgs) -> Result<u8, CliError> {
    super::check_inputs(&args.files, &args.instance)?;
    if args.limit == Some(0) {
        return Err(usage("--limit must be at least 1 (it caps the count)"));
    }
    let cancel = super::cancel_flag();
    let mut config = args.search.config(&cancel, true)?;
    let trace = args.search.open_trace(&args.files)?;
    config.trace = trace.as_ref().map(|t| t.trace());
    let stream = Stream::stdout();
    let several = args.files.len() > 1;
    let mut code = EXIT_OK;
    let mut gone = false;
    super::run_files(
        &args.files,
        args.search.jobs,
        |path| count_one(path, &args, &config),
        |path, (loaded, answer)| {
            let (lines, answered) = answer_lines(path, &args, loaded.as_ref(), &answer, several);
            if !answered {
                code = EXIT_UNSOLVED;
            }
            for l in &lines {
                if stream.line(l).is_err() {
                    gone = true;
                    return false;
                }
            }
            if let (true, Answer::Done { stats, .. }) = (args.search.stats, &answer) {
                note!("{}: {}", path.display(), stats_line(stats));
            }
            if let Answer::Error { message, .. } = &answer {
                note!("error: {message}");
            }
            true
        },
    );
    if let Some(trace) = &trace {
        trace.finish()?;
    }
    match stream.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::Io {
            context: "cannot write the results".into(),
            source: e,
        }),
        _ if gone || stream.reader_gone() => Ok(EXIT_OK),
        _ => Ok(code),
    }
}

/// The lines of one instance's answer, and whether it was answered.
fn answer_lines(
    path: &Path,
    args: &CountArgs,
    loaded: Option<&Loaded>,
    answer: &Answer,
    several: bool,
) -> (Vec<String>, bool) {
    let status = match answer {
        Answer::Error { .. } => "error",
        Answer::Done {
            limit: Some(LimitKind::Solutions),
            ..
        } => "capped",
        Answer::Done { limit: Some(_), .. } => "limit",
        Answer::Done { solutions: 0, .. } => "unsatisfiable",
        Answer::Done { .. } => "solved",
    };
    let answered = !matches!(status, "error" | "limit");
    let mut out = Vec::new();
    match args.format {
        Format::Line => {
            let prefix = if several {
                format!("{}: ", path.display())
            } else {
                String::new()
            };
            out.push(match answer {
                Answer::Done {
                    solutions,
                    limit: None,
                    ..
                } => format!("{prefix}{solutions}"),
                Answer::Done {
                    solutions,
                    limit: Some(LimitKind::Solutions),
                    ..
                } => format!("{prefix}{solutions} (capped)"),
                Answer::Done {
                    solutions,
                    limit: Some(k),
                    ..
                } => format!("{prefix}{solutions}+ ({k})"),
                Answer::Error { .. } => format!("{prefix}# error"),
            });
        }
        Format::Xcsp => {
            if several {
                out.push(format!("c {}", path.display()));
            }
            match answer {
                Answer::Done {
                    solutions,
                    first,
                    limit,
                    ..
                } => {
                    out.push(super::status_line(first.is_some(), *limit).into());
                    if let (Some(s), Some(l)) = (first, loaded) {
                        out.push(l.xcsp(s, 0, None));
                    }
                    out.push(format!(
                        "d FOUND SOLUTIONS {solutions}{}",
                        if limit.is_some() { " (not all)" } else { "" }
                    ));
                }
                Answer::Error { message, unsupported } => {
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
            }
        }
        Format::Json => {
            let mut m = object(path);
            m.insert("status".into(), Value::from(status));
            match answer {
                Answer::Done {
                    solutions,
                    first,
                    limit,
                    stats,
                } => {
                    m.insert("solutions".into(), Value::from(*solutions));
                    m.insert("complete".into(), Value::from(limit.is_none()));
                    if let Some(k) = limit {
                        m.insert("limit".into(), Value::from(k.to_string()));
                    }
                    m.extend(stats_json(stats));
                    if let (Some(s), Some(l)) = (first, loaded) {
                        out.push(super::json_line_with(&m, "solution", l.json(s, 0)));
                        return (out, answered);
                    }
                    m.insert("solution".into(), Value::Null);
                }
                Answer::Error { message, .. } => {
                    m.insert("error".into(), Value::from(message.as_str()));
                }
            }
            out.push(super::json_line(&m));
        }
    }
    (out, answered)
}
