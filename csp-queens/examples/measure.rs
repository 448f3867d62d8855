//! Timing helper: `cargo run --release -p csp-queens --example measure -- MODE N [STRATEGY [MODEL [SEED]]]`
//! with MODE `solve`, `count`, `count-sym`, `local`, `bitboard` or `bitboard-sym`.
//!
//! `solve` starts from [`default_solve`] and `count`/`count-sym` from [`default_count`];
//! STRATEGY (`var/value/inference`) and MODEL (`pairwise`, `alldiff[:STRENGTH]`) replace
//! their parts, SEED (`solve` only) the seed. `local` runs min-conflicts without a step
//! limit; `bitboard` and `bitboard-sym` count with a plain bitboard counter (n <= 63).

use std::time::Instant;

use csp_core::{MinConflicts, SearchConfig};
use csp_queens::{CountOptions, Encoding, count, default_count, default_solve, local_search, solve, verify};

/// Plain bitboard counter (the baseline of the benches).
fn bitboard(n: u32, symmetry: bool) -> u64 {
    fn go(all: u64, cols: u64, d1: u64, d2: u64) -> u64 {
        if cols == all {
            return 1;
        }
        let mut free = all & !(cols | d1 | d2);
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            total += go(all, cols | bit, ((d1 | bit) << 1) & all, (d2 | bit) >> 1);
        }
        total
    }
    let all = (1u64 << n) - 1;
    if !symmetry {
        return go(all, 0, 0, 0);
    }
    let mut total = 0;
    for r in 0..n / 2 {
        let bit = 1 << r;
        total += 2 * go(all, bit, (bit << 1) & all, bit >> 1);
    }
    if n % 2 == 1 {
        let bit = 1 << (n / 2);
        total += go(all, bit, (bit << 1) & all, bit >> 1);
    }
    total
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(mode), Some(Ok(n))) = (args.first(), args.get(1).map(|n| n.parse::<usize>())) else {
        eprintln!(
            "usage: measure MODE N [STRATEGY [MODEL [SEED]]]\n\
             MODE: solve, count, count-sym, local, bitboard, bitboard-sym"
        );
        std::process::exit(2);
    };
    let mode = mode.as_str();
    let t = Instant::now();
    match mode {
        "solve" => {
            let (mut enc, mut config) = default_solve(n);
            if let Some(s) = args.get(2) {
                config.strategy = s.parse().unwrap();
            }
            if let Some(m) = args.get(3) {
                enc = m.parse::<Encoding>().unwrap();
            }
            if let Some(seed) = args.get(4) {
                config.seed = seed.parse().unwrap();
            }
            let r = solve(n, enc, config).unwrap();
            let ok = r.rows().map(|rows| verify(&rows).is_ok());
            println!(
                "solve n={n} {:?} nodes={} restarts={} {:?}",
                r.outcome.status(),
                r.stats.nodes,
                r.stats.restarts,
                ok
            );
        }
        "count" | "count-sym" => {
            let (mut enc, mut config): (Encoding, SearchConfig) = default_count();
            if let Some(s) = args.get(2) {
                config.strategy = s.parse().unwrap();
            }
            if let Some(m) = args.get(3) {
                enc = m.parse().unwrap();
            }
            let options = CountOptions {
                symmetry: mode == "count-sym",
                distinct: false,
                ..CountOptions::default()
            };
            let r = count(n, enc, config, options).unwrap();
            println!("count n={n} {} nodes={}", r.solutions, r.stats.nodes);
        }
        "local" => {
            let r = local_search(
                n,
                &MinConflicts {
                    max_steps: u64::MAX,
                    ..MinConflicts::default()
                },
            )
            .unwrap();
            println!("local n={n} {} {:?}", r.status, r.stats);
            let t2 = Instant::now();
            println!(
                "verify {:?} in {:?}",
                verify(r.rows.as_deref().unwrap()),
                t2.elapsed()
            );
        }
        "bitboard" | "bitboard-sym" => {
            println!("bitboard n={n} {}", bitboard(n as u32, mode == "bitboard-sym"))
        }
        _ => {
            eprintln!("unknown mode `{mode}`: solve, count, count-sym, local, bitboard, bitboard-sym");
            std::process::exit(2);
        }
    }
    println!("elapsed {:.3} s", t.elapsed().as_secs_f64());
}
