//! Integration tests of csp-fzn: parsing errors, every builtin and global against brute
//! force on small random instances, the output format and flags, optimisation, and
//! (when `minizinc` is installed) whole MiniZinc models against Gecode.

mod builtins;
mod errors;
mod globals;
mod minizinc;
mod output;
mod random;

use csp_fzn::{Instance, RunOptions, run};

/// What `run` prints for `fzn` under `options`.
pub fn run_text(fzn: &str, options: &RunOptions) -> String {
    let instance = Instance::from_str(fzn).unwrap_or_else(|e| panic!("{e}\n{fzn}"));
    let mut out = Vec::new();
    run(&instance, options, &mut out).expect("writing to a vector");
    String::from_utf8(out).expect("UTF-8 output")
}

/// The number of solutions csp prints with `-a` (checking that the search completed).
pub fn count(fzn: &str) -> usize {
    let text = run_text(
        fzn,
        &RunOptions {
            all: true,
            ..RunOptions::default()
        },
    );
    let n = text.lines().filter(|l| *l == "----------").count();
    let last = text.lines().last().unwrap_or("");
    if n == 0 {
        assert_eq!(last, "=====UNSATISFIABLE=====", "{fzn}\n{text}");
    } else {
        assert_eq!(last, "==========", "{fzn}\n{text}");
    }
    n
}
