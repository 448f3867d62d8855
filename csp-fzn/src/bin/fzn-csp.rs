//! `fzn-csp [flags] model.fzn`: csp as a FlatZinc solver, as MiniZinc runs it (see
//! `docs/minizinc.md`). The flags are the standard ones of the FlatZinc specification.
//!
//! Exit codes: 0 when the search ran (whatever it found, and after SIGINT or SIGTERM,
//! which stop the search and print the best solution found); 1 when the model cannot be
//! read or run (a syntax error, a float or set variable, an unknown constraint: the
//! message names its line); 2 for bad flags.
//!
//! Beside the standard flags, csp's own strategy flags (`--var`, `--val`, `--inference`,
//! ...) replace the annotation's strategy; MiniZinc passes them with `--fzn-flags`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Parser;
use signal_hook::consts::{SIGINT, SIGTERM};

use csp_core::{Backjump, Inference, Restarts, TieBreak, ValueOrder, VarOrder};
use csp_fzn::{Instance, ReadLimits, RunOptions, StrategyFlags, run, search_config};

fn parse_restarts(text: &str) -> Result<Option<Restarts>, String> {
    Restarts::parse(text).map_err(|e| e.to_string())
}

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
    /// csp's variable order (over the annotation's): static, mrv, mrv-degree, dom-wdeg, ...
    /// (as `csp solve --var`). Without --restarts, the search does not restart.
    #[arg(long = "var", value_name = "ORDER")]
    var_order: Option<VarOrder>,
    /// csp's value order: asc, lcv, desc, random, saved.
    #[arg(long = "val", value_name = "ORDER")]
    value_order: Option<ValueOrder>,
    /// csp's inference: none, fc, mac.
    #[arg(long, value_name = "KIND")]
    inference: Option<Inference>,
    /// Tie-breaking in the variable order: lowest, random.
    #[arg(long, value_name = "RULE")]
    tie_break: Option<TieBreak>,
    /// Restarts: none, luby[:SCALE], geometric[:FIRST[:FACTOR]].
    #[arg(long, value_name = "POLICY", value_parser = parse_restarts)]
    restarts: Option<Option<Restarts>>,
    /// Backjumping: none, bj, cbj (with --inference none or fc, without restarts).
    #[arg(long, value_name = "KIND")]
    backjump: Option<Backjump>,
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
    // The time limit holds from the start: reading and posting count.
    let limits = ReadLimits {
        deadline: args.time.map(|ms| started + Duration::from_millis(ms)),
        cancel: Some(Arc::clone(&cancel)),
        ..ReadLimits::default()
    };
    let instance = match Instance::from_path_within(&args.model, &limits) {
        Ok(instance) => instance,
        Err(e) if e.limit().is_some() => {
            // Stopped before any search: no answer, as the specification writes it.
            println!("{}", csp_fzn::UNKNOWN);
            eprintln!("fzn-csp: {}: {e}", args.model.display());
            return ExitCode::SUCCESS;
        }
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
        strategy: StrategyFlags {
            var: args.var_order,
            value: args.value_order,
            inference: args.inference,
            tie_break: args.tie_break,
            restarts: args.restarts,
            backjump: args.backjump,
        },
    };
    // Flags that do not fit together (backjumping with restarts or maintained arc
    // consistency, ...) are refused before any search, as bad flags.
    for enumerate in [false, true] {
        if let Err(e) = search_config(&instance, &options, enumerate).check() {
            eprintln!("fzn-csp: error: {e}");
            return ExitCode::from(2);
        }
    }
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
