//! Counts the solutions of each file given (strategy from $STRATEGY, default
//! dom-wdeg/asc/mac; time limit $TIMEOUT seconds, default 60), checking every solution.
use std::time::{Duration, Instant};

use csp_core::{Limits, SearchConfig, Solver, Strategy};

fn main() {
    let strategy: Strategy = std::env::var("STRATEGY")
        .unwrap_or("dom-wdeg/asc/mac".into())
        .parse()
        .unwrap();
    let timeout: f64 = std::env::var("TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60.0);
    for path in std::env::args().skip(1) {
        let t = Instant::now();
        let instance = match csp_xcsp::Instance::from_path(&path) {
            Ok(i) => i,
            Err(e) => {
                println!("{path}\tERROR {e}");
                continue;
            }
        };
        let load = t.elapsed().as_secs_f64();
        let mut config = SearchConfig::with_strategy(strategy);
        config.limits = Limits {
            time: Some(Duration::from_secs_f64(timeout)),
            ..Limits::default()
        };
        let mut solver = Solver::new(&instance.model, config).unwrap();
        let mut n = 0u64;
        let mut bad = 0u64;
        let limit = solver.for_each_solution(|s| {
            n += 1;
            if instance.check(s).is_err() {
                bad += 1;
            }
            true
        });
        let st = solver.stats();
        println!(
            "{}\t{}{}\tload {:.3}s\ttotal {:.3}s\tnodes {}\t{}",
            path.rsplit('/').next().unwrap(),
            n,
            if limit.is_some() { "+ (limit)" } else { "" },
            load,
            t.elapsed().as_secs_f64(),
            st.nodes,
            if bad > 0 {
                format!("WRONG SOLUTIONS {bad}")
            } else {
                String::new()
            }
        );
    }
}
