//! `csp solve FILE... [--all]`: the first solution (or every one) of each instance.
//!
//! With `--all`, each solution is written as it is found (the output is flushed by
//! [`Stream`] at least every 200 ms) and none is kept: memory does not grow with their
//! number, a closed pipe ends the run at once, and SIGINT or SIGTERM end it with every
//! solution found written and a closing line that counts them.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use csp_core::{LimitKind, SearchConfig, Solver, Stats};
use serde_json::{Map, Value};

use super::{
    Format, InstanceArgs, LoadFailure, Loaded, SearchArgs, deadline, load_within, object, read_limits,
    remaining, stats_json, stats_line,
};
use crate::error::{CliError, EXIT_OK, EXIT_UNSOLVED};
use crate::stream::Stream;

/// Arguments of `csp solve`.
#[derive(Args)]
pub struct SolveArgs {
    /// Instance files: XCSP3 (`.xml`, `.xml.xz`, `.xml.lzma`; `-` for standard input) or
    /// DIMACS graph colouring (`.col`, with --colors).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Every solution, not only the first: each is written as it is found.
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

/// How the search of one instance ended.
enum Ending {
    /// The search ended by itself: every solution asked for was found (none: the instance
    /// is unsatisfiable).
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
    /// The solutions kept: the first one (without `--all`; with it, they are streamed).
    first: Option<Vec<i32>>,
    found: u64,
    ending: Ending,
    stats: Stats,
}

/// Runs `csp solve`.
pub fn run(args: SolveArgs) -> Result<u8, CliError> {
    super::check_inputs(&args.files, &args.instance)?;
    let cancel = super::cancel_flag();
    let config = args.search.config(&cancel)?;
    let stream = Stream::stdout();
    let several = args.files.len() > 1;
    let mut code = EXIT_OK;
    let mut gone = false;
    if args.all {
        if args.search.jobs != 1 && several {
            note!("note: --all streams the instances one after the other (-j is not used)");
        }
        for path in &args.files {
            if crate::interrupt::requested() {
                break;
            }
            let answer = solve(path, &args, &config, Some(&stream));
            if !answered(&answer) {
                code = EXIT_UNSOLVED;
            }
            gone = finish(&stream, path, &args, answer, several);
            if gone {
                break;
            }
        }
    } else {
        super::run_files(
            &args.files,
            args.search.jobs,
            |path| solve(path, &args, &config, None),
            |path, answer| {
                if !answered(&answer) {
                    code = EXIT_UNSOLVED;
                }
                gone = finish(&stream, path, &args, answer, several);
                !gone
            },
        );
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

/// Whether the instance was answered: a solution (all of them with `--all`) or a proof
/// that there is none.
fn answered(answer: &Answer) -> bool {
    match answer.ending {
        Ending::Complete => true,
        Ending::ReaderGone => true,
        _ => false,
    }
}

/// Reads and solves one instance. With `stream` (for `--all`), each solution is written
/// there as it is found.
fn solve(path: &Path, args: &SolveArgs, config: &SearchConfig, stream: Option<&Stream>) -> Answer {
    let start = Instant::now();
    let deadline = deadline(&args.search.limits, start);
    let mut answer = Answer {
        loaded: None,
        first: None,
        found: 0,
        ending: Ending::Complete,
        stats: Stats::default(),
    };
    let loaded = match load_within(path, &args.instance, read_limits(&args.instance, deadline)) {
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
    let mut solver = match Solver::new(loaded.model(), remaining(config, deadline)) {
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
    if let Some(stream) = stream {
        let several = args.files.len() > 1;
        if several {
            let header = match args.format {
                Format::Line => Some(format!("# {}", path.display())),
                Format::Xcsp => Some(format!("c {}", path.display())),
                Format::Json => None,
            };
            if let Some(h) = header {
                if stream.line(&h).is_err() {
                    answer.ending = Ending::ReaderGone;
                    return answer;
                }
            }
        }
    }
    let mut failure: Option<String> = None;
    let mut gone = false;
    let limit = solver.for_each_solution(|s| {
        if let Err(e) = loaded.check(s) {
            failure = Some(e);
            return false;
        }
        answer.found += 1;
        match stream {
            None => {
                answer.first = Some(s.to_vec());
                false
            }
            Some(stream) => {
                let text = match args.format {
                    Format::Line => loaded.line(s),
                    Format::Xcsp => loaded.xcsp(s),
                    Format::Json => {
                        let mut m = object(path);
                        m.insert("solution".into(), loaded.json(s));
                        super::json_line(&m)
                    }
                };
                if stream.line(&text).is_err() {
                    gone = true;
                    return false;
                }
                true
            }
        }
    });
    answer.stats = solver.stats().clone();
    answer.ending = match (failure, gone, limit) {
        (Some(message), _, _) => Ending::Error {
            message: format!("{}: {message}", path.display()),
            unsupported: false,
        },
        (None, true, _) => Ending::ReaderGone,
        (None, false, Some(kind)) => Ending::Limit(kind),
        (None, false, None) => Ending::Complete,
    };
    answer.loaded = Some(loaded);
    answer
}

/// Writes the answer of one instance (for `--all`, what follows its solutions); whether the
/// reader of the output is gone.
fn finish(stream: &Stream, path: &Path, args: &SolveArgs, answer: Answer, several: bool) -> bool {
    if matches!(answer.ending, Ending::ReaderGone) {
        return true;
    }
    let lines = answer_lines(path, args, &answer, several);
    for l in &lines {
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

/// The lines that give an instance's answer (with `--all`, after its streamed solutions).
fn answer_lines(path: &Path, args: &SolveArgs, answer: &Answer, several: bool) -> Vec<String> {
    let all = args.all;
    let mut out = Vec::new();
    let status = status(answer, all);
    match args.format {
        Format::Line => {
            if several && !all {
                out.push(format!("# {}", path.display()));
            }
            match (&answer.ending, &answer.first, &answer.loaded) {
                (Ending::Error { .. }, _, _) => out.push("# error".into()),
                (_, Some(s), Some(l)) if !all => out.push(l.line(s)),
                (Ending::Complete, _, _) if answer.found == 0 => out.push("# unsatisfiable".into()),
                (Ending::Limit(k), _, _) if all => {
                    out.push(format!("# {k} after {} solutions", answer.found))
                }
                (Ending::Limit(k), _, _) => out.push(format!("# {k}")),
                _ => {}
            }
        }
        Format::Xcsp => {
            if several && !all {
                out.push(format!("c {}", path.display()));
            }
            match &answer.ending {
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
                    out.push(super::status_line(answer.found > 0, limit).into());
                    if let (Some(s), Some(l), false) = (&answer.first, &answer.loaded, all) {
                        out.push(l.xcsp(s));
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
            }
        }
        Format::Json => {
            let mut m: Map<String, Value> = object(path);
            m.insert("status".into(), Value::from(status));
            match &answer.ending {
                Ending::Error { message, .. } => {
                    m.insert("error".into(), Value::from(message.as_str()));
                }
                ending => {
                    if all {
                        m.insert("count".into(), Value::from(answer.found));
                    } else {
                        let solution = match (&answer.first, &answer.loaded) {
                            (Some(s), Some(l)) => l.json(s),
                            _ => Value::Null,
                        };
                        m.insert("solution".into(), solution);
                    }
                    if let Ending::Limit(k) = ending {
                        m.insert("limit".into(), Value::from(k.to_string()));
                    }
                    m.extend(stats_json(&answer.stats));
                }
            }
            out.push(super::json_line(&m));
        }
    }
    out
}

/// The `status` of the JSON answer.
fn status(answer: &Answer, all: bool) -> &'static str {
    match (&answer.ending, answer.found) {
        (Ending::Error { .. }, _) => "error",
        (_, n) if n > 0 && !all => "solved",
        (Ending::Limit(_), _) => "limit",
        (_, 0) => "unsatisfiable",
        _ => "solved",
    }
}
