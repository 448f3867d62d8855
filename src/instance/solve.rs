//! `csp solve FILE... [--all]`: the first solution (or every one) of each instance.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use csp_core::{LimitKind, SearchConfig, Solver, Stats};
use serde_json::Value;

use super::{Format, InstanceArgs, Loaded, SearchArgs, load, object, stats_json, stats_line};
use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED};

/// Arguments of `csp solve`.
#[derive(Args)]
pub struct SolveArgs {
    /// Instance files: XCSP3 (`.xml`, `.xml.xz`, `.xml.lzma`) or DIMACS graph colouring
    /// (`.col`, with --colors).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Every solution, not only the first.
    #[arg(long)]
    pub all: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Line, allow_negative_numbers = true)]
    pub format: Format,
    #[command(flatten)]
    pub instance: InstanceArgs,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// What happened to one instance.
enum Answer {
    /// Solutions found (all of them when `complete`), or none and `complete`: unsatisfiable.
    Done {
        solutions: Vec<Vec<i32>>,
        limit: Option<LimitKind>,
        stats: Stats,
    },
    /// The instance could not be read, or a solution failed the check.
    Error(String),
}

/// Runs `csp solve`.
pub fn run(args: SolveArgs) -> Result<u8, CliError> {
    super::check_inputs(&args.files, &args.instance)?;
    let cancel = super::cancel_flag();
    let config = args.search.config(&cancel)?;
    let all = args.all;
    let results = super::run_files(&args.files, args.search.jobs, |path| {
        let loaded = load(path, &args.instance);
        let answer = match &loaded {
            Ok(l) => solve_one(l, &config, all),
            Err(e) => Answer::Error(e.clone()),
        };
        (loaded, answer)
    });
    let mut out = std::io::stdout().lock();
    let mut code = EXIT_OK;
    let several = args.files.len() > 1;
    for (path, (loaded, answer)) in args.files.iter().zip(&results) {
        if !write_answer(
            &mut out,
            args.format,
            path,
            loaded.as_ref().ok(),
            answer,
            several,
            all,
        ) {
            code = EXIT_UNSOLVED;
        }
        if let (true, Answer::Done { stats, .. }) = (args.search.stats, answer) {
            note!("{}: {}", path.display(), stats_line(stats));
        }
        if let Answer::Error(e) = answer {
            note!("error: {e}");
        }
    }
    out.flush().map_err(|source| CliError::Io {
        context: "cannot write the results".into(),
        source,
    })?;
    Ok(code)
}

fn solve_one(loaded: &Loaded, config: &SearchConfig, all: bool) -> Answer {
    let mut solver = match Solver::new(loaded.model(), config.clone()) {
        Ok(s) => s,
        Err(e) => return Answer::Error(e.to_string()),
    };
    let mut solutions = Vec::new();
    let mut bad = None;
    let limit = solver.for_each_solution(|s| {
        if let Err(e) = loaded.check(s) {
            bad = Some(e);
            return false;
        }
        solutions.push(s.to_vec());
        all
    });
    if let Some(e) = bad {
        return Answer::Error(e);
    }
    Answer::Done {
        solutions,
        limit,
        stats: solver.stats().clone(),
    }
}

/// Writes one instance's answer; whether it was answered (exit 0).
fn write_answer(
    out: &mut impl Write,
    format: Format,
    path: &Path,
    loaded: Option<&Loaded>,
    answer: &Answer,
    several: bool,
    all: bool,
) -> bool {
    let (status, answered) = match answer {
        Answer::Error(_) => ("error", false),
        Answer::Done { solutions, limit, .. } => {
            if !all && !solutions.is_empty() {
                ("solved", true)
            } else if limit.is_some() {
                ("limit", false)
            } else if solutions.is_empty() {
                ("unsatisfiable", true)
            } else {
                ("solved", true)
            }
        }
    };
    let _ = match format {
        Format::Line => {
            if several {
                let _ = writeln!(out, "# {}", path.display());
            }
            match (answer, loaded) {
                (Answer::Done { solutions, limit, .. }, Some(l)) => {
                    for s in solutions {
                        let _ = writeln!(out, "{}", l.line(s));
                    }
                    if solutions.is_empty() {
                        match limit {
                            None => writeln!(out, "# unsatisfiable"),
                            Some(k) => writeln!(out, "# {k}"),
                        }
                    } else if let Some(k) = limit.filter(|_| all) {
                        writeln!(out, "# {k} after {} solutions", solutions.len())
                    } else {
                        Ok(())
                    }
                }
                _ => writeln!(out, "# error"),
            }
        }
        Format::Xcsp => {
            if several {
                let _ = writeln!(out, "c {}", path.display());
            }
            match (answer, loaded) {
                (
                    Answer::Done {
                        solutions,
                        limit,
                        stats,
                        ..
                    },
                    Some(l),
                ) => {
                    let _ = writeln!(out, "{}", super::status_line(!solutions.is_empty(), *limit));
                    for s in solutions {
                        let _ = writeln!(out, "{}", l.xcsp(s));
                    }
                    if all {
                        let _ = writeln!(
                            out,
                            "c solutions {}{}",
                            solutions.len(),
                            if limit.is_some() { " (not all)" } else { "" }
                        );
                    }
                    writeln!(
                        out,
                        "c nodes {} backtracks {} time {:.3}",
                        stats.nodes,
                        stats.backtracks,
                        stats.elapsed.as_secs_f64()
                    )
                }
                (Answer::Error(e), _) => writeln!(out, "s UNKNOWN\nc error: {}", e.replace('\n', " ")),
                _ => writeln!(out, "s UNKNOWN"),
            }
        }
        Format::Json => {
            let mut m = object(path);
            m.insert("status".into(), Value::from(status));
            match (answer, loaded) {
                (
                    Answer::Done {
                        solutions,
                        limit,
                        stats,
                        ..
                    },
                    Some(l),
                ) => {
                    if all {
                        m.insert(
                            "solutions".into(),
                            Value::Array(solutions.iter().map(|s| l.json(s)).collect()),
                        );
                        m.insert("count".into(), Value::from(solutions.len()));
                    } else {
                        m.insert(
                            "solution".into(),
                            solutions.first().map_or(Value::Null, |s| l.json(s)),
                        );
                    }
                    if let Some(k) = limit {
                        m.insert("limit".into(), Value::from(k.to_string()));
                    }
                    m.extend(stats_json(stats));
                }
                (Answer::Error(e), _) => {
                    m.insert("error".into(), Value::from(e.as_str()));
                }
                _ => {}
            }
            writeln!(out, "{}", super::json_line(&m))
        }
    };
    answered
}
