//! `csp count FILE... [--limit K]`: the number of solutions of each instance.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use csp_core::{LimitKind, Solver, Stats};
use serde_json::Value;

use super::{Format, InstanceArgs, SearchArgs, load, object, stats_json, stats_line};
use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED};

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
        stats: Stats,
    },
    Error(String),
}

/// Runs `csp count`.
pub fn run(args: CountArgs) -> Result<u8, CliError> {
    super::check_inputs(&args.files, &args.instance)?;
    let cancel = super::cancel_flag();
    let config = args.search.config(&cancel)?;
    let cap = args.limit;
    let results = super::run_files(&args.files, args.search.jobs, |path| {
        let loaded = match load(path, &args.instance) {
            Ok(l) => l,
            Err(e) => return (None, Answer::Error(e)),
        };
        let mut solver = match Solver::new(loaded.model(), config.clone()) {
            Ok(s) => s,
            Err(e) => return (None, Answer::Error(e.to_string())),
        };
        let mut solutions = 0u64;
        let mut first = None;
        let mut bad = None;
        let limit = solver.for_each_solution(|s| {
            if let Err(e) = loaded.check(s) {
                bad = Some(e);
                return false;
            }
            solutions += 1;
            if first.is_none() {
                first = Some(s.to_vec());
            }
            cap.is_none_or(|k| solutions < k)
        });
        let limit = match (limit, cap) {
            (None, Some(k)) if solutions >= k => Some(LimitKind::Solutions),
            (l, _) => l,
        };
        let answer = match bad {
            Some(e) => Answer::Error(e),
            None => Answer::Done {
                solutions,
                first,
                limit,
                stats: solver.stats().clone(),
            },
        };
        (Some(loaded), answer)
    });
    let mut out = std::io::stdout().lock();
    let several = args.files.len() > 1;
    let mut code = EXIT_OK;
    for (path, (loaded, answer)) in args.files.iter().zip(&results) {
        let status = match answer {
            Answer::Error(_) => "error",
            Answer::Done {
                limit: Some(LimitKind::Solutions),
                ..
            } => "capped",
            Answer::Done { limit: Some(_), .. } => "limit",
            Answer::Done { solutions: 0, .. } => "unsatisfiable",
            Answer::Done { .. } => "solved",
        };
        if matches!(status, "error" | "limit") {
            code = EXIT_UNSOLVED;
        }
        let written = match args.format {
            Format::Line => {
                let prefix = if several {
                    format!("{}: ", path.display())
                } else {
                    String::new()
                };
                match answer {
                    Answer::Done {
                        solutions,
                        limit: None,
                        ..
                    } => writeln!(out, "{prefix}{solutions}"),
                    Answer::Done {
                        solutions,
                        limit: Some(LimitKind::Solutions),
                        ..
                    } => {
                        writeln!(out, "{prefix}{solutions} (capped)")
                    }
                    Answer::Done {
                        solutions,
                        limit: Some(k),
                        ..
                    } => writeln!(out, "{prefix}{solutions}+ ({k})"),
                    Answer::Error(_) => writeln!(out, "{prefix}# error"),
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
                            first,
                            limit,
                            ..
                        },
                        Some(l),
                    ) => {
                        let _ = writeln!(out, "{}", super::status_line(first.is_some(), *limit));
                        if let Some(s) = first {
                            let _ = writeln!(out, "{}", l.xcsp(s));
                        }
                        writeln!(
                            out,
                            "d FOUND SOLUTIONS {solutions}{}",
                            if limit.is_some() { " (not all)" } else { "" }
                        )
                    }
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
                            first,
                            limit,
                            stats,
                        },
                        Some(l),
                    ) => {
                        m.insert("solutions".into(), Value::from(*solutions));
                        m.insert("complete".into(), Value::from(limit.is_none()));
                        m.insert(
                            "solution".into(),
                            first.as_ref().map_or(Value::Null, |s| l.json(s)),
                        );
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
        written.map_err(|source| CliError::Io {
            context: "cannot write the results".into(),
            source,
        })?;
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
