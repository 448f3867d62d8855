//! The explanations against brute force on tiny random models: every subset returned is
//! unsatisfiable, every one-smaller subset of it satisfiable, and `all_muses` finds exactly
//! the MUSes that enumerating every subset finds.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::{Domain, Model, Outcome, Relation, SearchConfig, Solver};

/// A binary table: the two variables and the pairs allowed.
type Table = (usize, usize, Vec<(i32, i32)>);

/// A tiny model: `vars` variables over `0..values`, and binary tables (the groups).
struct Tiny {
    vars: usize,
    values: i32,
    tables: Vec<Table>,
}

impl Tiny {
    fn random(seed: u64) -> Tiny {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let vars = rng.random_range(2..=4);
        let values = rng.random_range(2..=3);
        let count = rng.random_range(1..=8);
        let tables = (0..count)
            .map(|_| {
                let x = rng.random_range(0..vars);
                let y = (x + rng.random_range(1..vars)) % vars;
                let pairs = (0..values)
                    .flat_map(|a| (0..values).map(move |b| (a, b)))
                    .filter(|_| rng.random_bool(0.55))
                    .collect();
                (x, y, pairs)
            })
            .collect();
        Tiny { vars, values, tables }
    }

    /// The oracle of the engine: the model of `subset`, solved.
    fn solve(&self, subset: &[usize]) -> Check {
        let mut model = Model::new();
        let v: Vec<_> = (0..self.vars)
            .map(|_| model.add_var(Domain::range(0, self.values - 1).unwrap()))
            .collect();
        for &g in subset {
            let (x, y, pairs) = &self.tables[g];
            model
                .post(v[*x], v[*y], Relation::table(pairs.iter().copied()))
                .unwrap();
        }
        let mut solver = Solver::new(&model, SearchConfig::default()).unwrap();
        match solver.solve() {
            Outcome::Solved(values) => {
                assert!(model.is_solution(&values));
                Check::Sat
            }
            Outcome::Unsatisfiable => Check::Unsat,
            Outcome::Limit(kind) => Check::Unknown(kind),
        }
    }

    /// The brute-force oracle: every assignment tried.
    fn brute(&self, subset: &[usize]) -> bool {
        let total = (self.values as usize).pow(self.vars as u32);
        (0..total).any(|mut code| {
            let mut a = vec![0; self.vars];
            for x in a.iter_mut() {
                *x = (code % self.values as usize) as i32;
                code /= self.values as usize;
            }
            subset.iter().all(|&g| {
                let (x, y, pairs) = &self.tables[g];
                pairs.contains(&(a[*x], a[*y]))
            })
        })
    }

    fn is_mus(&self, set: &[usize]) -> bool {
        !self.brute(set)
            && (0..set.len()).all(|i| {
                let mut less = set.to_vec();
                less.remove(i);
                self.brute(&less)
            })
    }

    /// Every MUS, by trying every subset.
    fn all_muses(&self) -> Vec<Vec<usize>> {
        let n = self.tables.len();
        let mut out: Vec<Vec<usize>> = (0u32..1 << n)
            .map(|bits| (0..n).filter(|g| bits >> g & 1 == 1).collect::<Vec<_>>())
            .filter(|s| self.is_mus(s))
            .collect();
        out.sort();
        out
    }
}

#[test]
fn one_mus_is_minimal_against_brute_force() {
    let mut unsat = 0;
    for seed in 0..400 {
        let tiny = Tiny::random(seed);
        let n = tiny.tables.len();
        let all: Vec<usize> = (0..n).collect();
        for method in [Method::QuickXplain, Method::Deletion] {
            let report = explain(n, |s: &[usize]| tiny.solve(s), method, &ExplainLimits::default());
            match report.explanation {
                Explanation::Satisfiable => assert!(tiny.brute(&all), "seed {seed}"),
                Explanation::Unsatisfiable(mus) => {
                    unsat += 1;
                    assert!(mus.minimal, "seed {seed}");
                    assert!(
                        tiny.is_mus(&mus.groups),
                        "seed {seed} {method:?}: {:?}",
                        mus.groups
                    );
                    assert!(report.calls >= 1 && report.limit.is_none());
                }
                Explanation::Unknown(kind) => panic!("seed {seed}: {kind}"),
            }
        }
    }
    assert!(unsat > 100, "too few unsatisfiable models drawn: {unsat}");
}

#[test]
fn every_mus_against_brute_force() {
    for seed in 0..300 {
        let tiny = Tiny::random(seed);
        let mut seen = Vec::new();
        let mut all = all_muses(
            tiny.tables.len(),
            |s: &[usize]| tiny.solve(s),
            &ExplainLimits::default(),
            |m| seen.push(m.to_vec()),
        );
        assert!(all.complete, "seed {seed}");
        assert_eq!(seen, all.muses);
        all.muses.sort();
        assert_eq!(all.muses, tiny.all_muses(), "seed {seed}");
    }
}

/// An oracle that leaves some answers undecided: the subset is still unsatisfiable, and
/// claimed minimal only when it is.
#[test]
fn undecided_answers_are_never_taken_for_unsatisfiable() {
    for seed in 0..300 {
        let tiny = Tiny::random(seed);
        let n = tiny.tables.len();
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        for method in [Method::QuickXplain, Method::Deletion] {
            let oracle = |s: &[usize]| {
                if s.len() < n && rng.random_bool(0.3) {
                    Check::Unknown(LimitKind::Nodes)
                } else {
                    tiny.solve(s)
                }
            };
            let report = explain(n, oracle, method, &ExplainLimits::default());
            if let Explanation::Unsatisfiable(mus) = report.explanation {
                assert!(!tiny.brute(&mus.groups), "seed {seed}");
                if mus.minimal {
                    assert!(tiny.is_mus(&mus.groups), "seed {seed}");
                }
            }
        }
        let all = all_muses(
            n,
            |s: &[usize]| {
                if rng.random_bool(0.1) {
                    Check::Unknown(LimitKind::Nodes)
                } else {
                    tiny.solve(s)
                }
            },
            &ExplainLimits::default(),
            |_| {},
        );
        assert!(all.muses.iter().all(|m| tiny.is_mus(m)), "seed {seed}");
        assert!(all.complete || all.limit.is_some(), "seed {seed}");
    }
}

/// A cancelled explanation makes no call and returns the whole set, unproved.
#[test]
fn a_cancel_stops_at_once_with_what_was_found() {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let limits = ExplainLimits {
        deadline: None,
        cancel: Some(flag.clone()),
    };
    let mut calls = 0;
    let oracle = |s: &[usize]| {
        calls += 1;
        if calls == 2 {
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        if s.contains(&0) && s.contains(&5) {
            Check::Unsat
        } else {
            Check::Sat
        }
    };
    let report = explain(8, oracle, Method::Deletion, &limits);
    assert_eq!(report.calls, 2);
    assert_eq!(report.limit, Some(LimitKind::Cancelled));
    let Explanation::Unsatisfiable(mus) = report.explanation else {
        panic!("{:?}", report.explanation)
    };
    assert!(!mus.minimal);
    assert!(mus.groups.contains(&0) && mus.groups.contains(&5));
}
