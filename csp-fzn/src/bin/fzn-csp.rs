//! `fzn-csp [flags] model.fzn`: csp as a FlatZinc solver, as MiniZinc runs it (see
//! `docs/minizinc.md`). The flags are the standard ones of the FlatZinc specification.
//!
//! Exit codes: 0 when the search ran (whatever it found, and after SIGINT or SIGTERM,
//! which stop the search and print the best solution found); 1 when the model cannot be
//! read or run (a syntax error, a float or set variable, an unknown constraint: the
//! message names its line); 2 for bad flags.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Parser;
use signal_hook::consts::{SIGINT, SIGTERM};

use csp_fzn::{Instance, RunOptions, run, search_config};

/// Solves a FlatZinc model with csp.
#[derive(Parser, Debug)]
#[command(name = "fzn-csp", version, about)]
struct Args {
    /// All solutions of a satisfaction problem; every improving solution of an
    /// optimisation problem.
    #[arg(short = 'a')]
    all: bool,
    /// Every improving solution of an optimisation problem.
    #[arg(short = 'i')]
    intermediate: bool,
    /// Stop after N solutions (satisfaction problems).
    #[arg(short = 'n', value_name = "N")]
    solutions: Option<u64>,
    /// Free search: ignore the search annotations, use csp's default strategy.
    #[arg(short = 'f')]
    free: bool,
    /// Print statistics (`%%%mzn-stat:` lines).
    #[arg(short = 's')]
    stats: bool,
    /// Log what is done (to standard error).
    #[arg(short = 'v')]
    verbose: bool,
    /// Threads: the search runs on N (csp's --threads: exact counts, the optimum shared).
    #[arg(short = 'p', value_name = "N")]
    threads: Option<u64>,
    /// Seed of the random orders.
    #[arg(short = 'r', value_name = "SEED")]
    seed: Option<u64>,
    /// Wall-clock time limit in milliseconds, counted from the start.
    #[arg(short = 't', value_name = "MS")]
    time: Option<u64>,
    /// The FlatZinc file.
    model: PathBuf,
}

fn main() -> ExitCode {
    let started = Instant::now();
    let args = Args::parse();
    // The first signal stops the search (which then prints what it has); a second one
    // ends the program at once.
    let cancel = Arc::new(AtomicBool::new(false));
    for (signal, code) in [(SIGINT, 130), (SIGTERM, 143)] {
        let ok = signal_hook::flag::register_conditional_shutdown(signal, code, Arc::clone(&cancel))
            .and_then(|_| signal_hook::flag::register(signal, Arc::clone(&cancel)));
        if let Err(e) = ok {
            eprintln!("fzn-csp: cannot handle signal {signal}: {e}");
        }
    }
    let instance = match Instance::from_path(&args.model) {
        Ok(instance) => instance,
        Err(e) => {
            eprintln!("fzn-csp: error: {}: {e}", args.model.display());
            return ExitCode::from(1);
        }
    };
    for note in &instance.search.notes {
        eprintln!("fzn-csp: note: {note}");
    }
    let init_time = started.elapsed();
    let options = RunOptions {
        all: args.all,
        intermediate: args.intermediate,
        solutions: args.solutions,
        free: args.free,
        seed: args.seed.unwrap_or(0),
        time: args
            .time
            .map(|ms| Duration::from_millis(ms).saturating_sub(started.elapsed())),
        stats: args.stats,
        cancel: Some(cancel),
        init_time,
        threads: args
            .threads
            .map_or(1, |t| usize::try_from(t).unwrap_or(usize::MAX)),
    };
    if args.verbose {
        let enumerate = args.all || args.solutions.is_some();
        let config = search_config(&instance, &options, enumerate);
        eprintln!(
            "fzn-csp: {} variables ({} integer, {} Boolean), {} constraints read in {:.3} s; strategy {}, restarts {}",
            instance.model.num_vars(),
            instance.int_vars,
            instance.bool_vars,
            instance.constraints,
            init_time.as_secs_f64(),
            config.strategy,
            config.restarts.map_or("none".to_string(), |r| r.to_string()),
        );
        if let Some(why) = &instance.unsat {
            eprintln!("fzn-csp: no solution: {why}");
        }
    }
    // Not locked for the run: the threads of a parallel search print through it, each
    // solution in one write.
    let mut out = std::io::stdout();
    match run(&instance, &options, &mut out) {
        Ok(report) => {
            let _ = out.flush();
            if args.verbose {
                eprintln!(
                    "fzn-csp: {:?}, {} solutions, {} nodes{}",
                    report.status,
                    report.solutions,
                    report.stats.nodes,
                    report.limit.map_or(String::new(), |l| format!(", {l}"))
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("fzn-csp: error: {e}");
            ExitCode::from(1)
        }
    }
}
