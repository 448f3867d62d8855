//! AIMA's map colouring of Australia (chapter 6): seven regions, three colours, and
//! neighbouring regions coloured differently.
//!
//! ```text
//! cargo run --example australia                     # default strategy (mrv/asc/fc)
//! cargo run --example australia -- mrv-degree/lcv/fc
//! cargo run --example australia -- static/asc/none
//! ```
//!
//! Prints the strategy, the status and the colour of each region, then the search statistics
//! as `name=value` lines. Exit code 2 for a bad argument.

use std::io::Write;
use std::process::ExitCode;

use csp_core::{Domain, Inference, Model, Outcome, SearchConfig, Solver, Strategy, ValueOrder, VarOrder};

const REGIONS: [&str; 7] = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];
const COLOURS: [&str; 3] = ["red", "green", "blue"];
/// Shared borders, as indices into [`REGIONS`]. Tasmania (T) borders nothing.
const BORDERS: [(usize, usize); 9] = [
    (0, 1),
    (0, 2),
    (1, 2),
    (1, 3),
    (2, 3),
    (2, 4),
    (2, 5),
    (3, 4),
    (4, 5),
];

/// The usage text, with the choices the engine offers.
fn usage() -> String {
    fn names<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> String {
        all.iter().map(|&x| name(x)).collect::<Vec<_>>().join(", ")
    }
    format!(
        "usage: australia [VAR/VALUE/INFERENCE], for example mrv-degree/lcv/fc\n\
         VAR: {}; VALUE: {}; INFERENCE: {}",
        names(VarOrder::ALL, VarOrder::name),
        names(ValueOrder::ALL, ValueOrder::name),
        names(Inference::ALL, Inference::name),
    )
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let strategy = match args.as_slice() {
        [] => Strategy::default(),
        [flag] if flag == "-h" || flag == "--help" => {
            println!("{}", usage());
            return ExitCode::SUCCESS;
        }
        [text] => match text.parse::<Strategy>() {
            Ok(strategy) => strategy,
            Err(e) => {
                eprintln!("error: {e}\n{}", usage());
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("error: at most one argument\n{}", usage());
            return ExitCode::from(2);
        }
    };

    let mut model = Model::new();
    let colour = Domain::range(0, COLOURS.len() as i32 - 1).expect("a non-empty range");
    let vars: Vec<_> = REGIONS
        .iter()
        .map(|r| model.add_named_var(*r, colour.clone()))
        .collect();
    for (a, b) in BORDERS {
        model.not_equal(vars[a], vars[b]).expect("distinct regions");
    }

    let mut solver = Solver::new(&model, SearchConfig::with_strategy(strategy)).expect("no restarts");
    let outcome = solver.solve();
    let mut report = format!("strategy={strategy}\nstatus={}\n", outcome.status());
    match &outcome {
        Outcome::Solved(values) => {
            assert!(model.is_solution(values), "every solution satisfies every border");
            for (region, &value) in REGIONS.iter().zip(values) {
                report.push_str(&format!("{region}={}\n", COLOURS[value as usize]));
            }
        }
        Outcome::Unsatisfiable | Outcome::Limit(_) => {}
    }
    report.push_str(&format!("{}\n", solver.stats()));
    // One write, errors ignored: `| head` closing the pipe early is no failure.
    let _ = std::io::stdout().write_all(report.as_bytes());
    if outcome.solution().is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
