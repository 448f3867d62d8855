//! `csp tree TRACE [--svg FILE] [--dot FILE]`: reads a search trace (`--trace` of `csp
//! solve`, `csp count`, `csp queens solve|count`), checks it, prints its figures and draws
//! it. A tree of more than a few thousand nodes is not drawn legibly: it is summarised,
//! and `--first N` draws its first `N` lines (a trace's lines come parents first, so they
//! form a tree).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;

use clap::Args;
use csp_core::{NodeStatus, TracedNode};

use crate::chart::tree::Tree;
use crate::error::{CliError, EXIT_OK, usage};

/// The most lines drawn without `--first`: beyond, a drawing has marks too small to tell
/// apart on a screen, and its SVG grows past what a browser opens quickly.
pub const MAX_DRAWN: usize = 5_000;

/// Arguments of `csp tree`.
#[derive(Args)]
pub struct TreeArgs {
    /// A trace written by `--trace` (one JSON line per node).
    #[arg(value_name = "TRACE")]
    trace: PathBuf,
    /// Draw the tree into this SVG file.
    #[arg(long, value_name = "FILE", allow_negative_numbers = true)]
    svg: Option<PathBuf>,
    /// Write the tree into this file in Graphviz's DOT language (`dot -Tsvg` draws it).
    #[arg(long, value_name = "FILE", allow_negative_numbers = true)]
    dot: Option<PathBuf>,
    /// Draw only the first N lines of the trace (default: all of them, up to 5,000).
    #[arg(long, value_name = "N", value_parser = crate::args::parse_count, allow_hyphen_values = true)]
    first: Option<usize>,
}

/// A trace's figures, over all its lines.
#[derive(Default)]
struct Figures {
    lines: u64,
    by_status: [u64; 4],
    max_depth: u32,
    runs: u32,
}

impl Figures {
    fn add(&mut self, line: &TracedNode) {
        self.lines += 1;
        let k = match line.status {
            NodeStatus::Branch => 0,
            NodeStatus::Solution => 1,
            NodeStatus::Failure => 2,
            _ => 3,
        };
        self.by_status[k] += 1;
        self.max_depth = self.max_depth.max(line.depth);
        self.runs = self.runs.max(line.restart + 1);
    }

    /// `name=value` lines, as every statistic of the program.
    fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        let [branch, solution, failure, skipped] = self.by_status;
        writeln!(out, "lines={}", self.lines)?;
        writeln!(out, "nodes={}", self.lines - skipped)?;
        writeln!(out, "branch={branch}")?;
        writeln!(out, "solution={solution}")?;
        writeln!(out, "failure={failure}")?;
        writeln!(out, "skipped={skipped}")?;
        writeln!(out, "max_depth={}", self.max_depth)?;
        writeln!(out, "runs={}", self.runs)
    }
}

/// Runs `csp tree`.
pub fn run(args: TreeArgs) -> Result<u8, CliError> {
    if args.first == Some(0) {
        return Err(usage("--first must be at least 1"));
    }
    if !args.trace.is_file() {
        return Err(usage(format!("{}: no such file", args.trace.display())));
    }
    let file = std::fs::File::open(&args.trace).map_err(|source| CliError::Io {
        context: format!("cannot read {}", args.trace.display()),
        source,
    })?;
    let keep = args.first.unwrap_or(MAX_DRAWN + 1);
    let (kept, figures) = read(BufReader::new(file), keep, &args)?;
    let out = std::io::stdout();
    crate::error::written(figures.write(&mut out.lock()), "cannot write the figures")?;
    if args.svg.is_none() && args.dot.is_none() {
        return Ok(EXIT_OK);
    }
    if args.first.is_none() && kept.len() > MAX_DRAWN {
        return Err(CliError::Failed(format!(
            "{}: {} lines, too many to draw legibly (at most {MAX_DRAWN}): draw the first ones with --first {MAX_DRAWN}, or trace a search cut short with --node-limit",
            args.trace.display(),
            figures.lines
        )));
    }
    let tree = Tree::new(&kept);
    let name = args.trace.display().to_string();
    let title = if (kept.len() as u64) < figures.lines {
        format!("{name}: the first {} of {} lines", kept.len(), figures.lines)
    } else {
        format!("{name}: {} nodes", figures.lines - figures.by_status[3])
    };
    if let Some(path) = &args.svg {
        write_file(path, &tree.svg(&title))?;
    }
    if let Some(path) = &args.dot {
        write_file(path, &tree.dot(&title))?;
    }
    Ok(EXIT_OK)
}

/// Reads every line, checking that ids rise and that each parent came before; keeps the
/// first `keep`.
fn read(input: impl BufRead, keep: usize, args: &TreeArgs) -> Result<(Vec<TracedNode>, Figures), CliError> {
    let at =
        |number: usize, what: String| CliError::Failed(format!("{}:{number}: {what}", args.trace.display()));
    let mut kept = Vec::new();
    let mut figures = Figures::default();
    let mut last_id = 0;
    // The ids that can still be parents: the nodes on the path to the last one.
    let mut path: Vec<u64> = Vec::new();
    for (i, text) in input.lines().enumerate() {
        let number = i + 1;
        let text = text.map_err(|source| CliError::Io {
            context: format!("cannot read {}", args.trace.display()),
            source,
        })?;
        if text.trim().is_empty() {
            continue;
        }
        let line: TracedNode =
            serde_json::from_str(&text).map_err(|e| at(number, format!("not a trace line: {e}")))?;
        if line.id <= last_id {
            return Err(at(number, format!("id {} does not follow {last_id}", line.id)));
        }
        last_id = line.id;
        let depth = line.depth as usize;
        if depth == 0 || line.parent.is_some() != (depth > 1) {
            return Err(at(number, format!("depth {depth} with parent {:?}", line.parent)));
        }
        if let Some(parent) = line.parent {
            if path.get(depth - 2) != Some(&parent) {
                return Err(at(
                    number,
                    format!("parent {parent} is not on the path to this line"),
                ));
            }
        }
        if line.status != NodeStatus::Skipped {
            path.truncate(depth - 1);
            path.push(line.id);
        }
        figures.add(&line);
        if kept.len() < keep {
            kept.push(line);
        }
    }
    Ok((kept, figures))
}

fn write_file(path: &PathBuf, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text).map_err(|source| CliError::Io {
        context: format!("cannot write {}", path.display()),
        source,
    })
}
