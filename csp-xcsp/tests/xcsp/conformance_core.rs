//! The XCSP3-core conformance instances (one per global constraint, and two optimisation
//! instances): every one gives exactly its expected solution set (or optimum), both by brute
//! force over the constraints as read and by the solver under several strategies.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use csp_core::{SearchConfig, Solver, Strategy};
use csp_xcsp::Instance;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance-core")
}

/// A solution as the `.sols` files write it: `name=value` pairs of the declared variables,
/// sorted by name.
fn line(instance: &Instance, values: &[i32]) -> String {
    let mut pairs: Vec<(String, i32)> = instance
        .model
        .vars()
        .take(instance.declared)
        .map(|v| (instance.model.name(v).to_string(), values[v.index()]))
        .collect();
    pairs.sort();
    pairs
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every assignment of the declared variables that satisfies the constraints as read, with
/// the objective's value when there is one.
fn brute_force(instance: &Instance) -> Vec<(Vec<i32>, Option<i128>)> {
    let model = &instance.model;
    let domains: Vec<Vec<i32>> = model
        .vars()
        .take(instance.declared)
        .map(|v| match model.fixed(v) {
            Some(a) => vec![a],
            None => model.domain(v).values().collect(),
        })
        .collect();
    let mut out = Vec::new();
    let mut idx = vec![0usize; domains.len()];
    loop {
        let values: Vec<i32> = idx.iter().zip(&domains).map(|(&i, d)| d[i]).collect();
        if instance.satisfies(&values) {
            out.push((values.clone(), instance.objective_value(&values)));
        }
        let mut k = 0;
        loop {
            if k == idx.len() {
                return out;
            }
            idx[k] += 1;
            if idx[k] < domains[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}

/// Each instance with its expected solution set (`.sols`) or optimum (`.opt`).
enum Expected {
    Solutions(BTreeSet<String>),
    Optimum(i128),
}

fn cases() -> Vec<(String, Instance, Expected)> {
    let mut paths: Vec<_> = std::fs::read_dir(data())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let instance = Instance::from_path(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected = data().join("expected");
        let expected = match std::fs::read_to_string(expected.join(format!("{name}.sols"))) {
            Ok(sols) => Expected::Solutions(
                sols.lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(str::to_string)
                    .collect(),
            ),
            Err(_) => {
                let opt = std::fs::read_to_string(expected.join(format!("{name}.opt"))).unwrap();
                Expected::Optimum(opt.trim().parse().unwrap())
            }
        };
        out.push((name, instance, expected));
    }
    assert!(out.len() >= 29, "{} instances", out.len());
    out
}

#[test]
fn conformance_core_by_brute_force() {
    for (name, instance, expected) in cases() {
        let found = brute_force(&instance);
        match expected {
            Expected::Solutions(sols) => {
                let lines: BTreeSet<String> = found.iter().map(|(v, _)| line(&instance, v)).collect();
                assert_eq!(lines, sols, "{name}");
            }
            Expected::Optimum(opt) => {
                let values = found.iter().filter_map(|(_, o)| *o);
                let best = match instance.model.objective() {
                    Some(csp_core::Objective::Maximize(_)) => values.max(),
                    _ => values.min(),
                };
                assert_eq!(best, Some(opt), "{name}");
            }
        }
    }
}

#[test]
fn conformance_core_by_search() {
    for (name, instance, expected) in cases() {
        for s in [
            "static/asc/none",
            "mrv/asc/fc",
            "dom-wdeg/asc/mac",
            "mrv-degree/lcv/mac",
        ] {
            let strategy: Strategy = s.parse().unwrap();
            let mut solver = Solver::new(&instance.model, SearchConfig::with_strategy(strategy)).unwrap();
            match &expected {
                Expected::Solutions(sols) => {
                    let mut found = BTreeSet::new();
                    for values in solver.solutions() {
                        assert!(
                            instance.check(&values).is_ok(),
                            "{name} under {s}: a wrong solution"
                        );
                        found.insert(line(&instance, &values));
                    }
                    assert_eq!(&found, sols, "{name} under {s}");
                }
                Expected::Optimum(opt) => {
                    let optimum = solver.optimize().unwrap();
                    assert!(optimum.proved, "{name} under {s}");
                    let best = optimum.best.expect("a solution");
                    assert!(instance.check(&best).is_ok(), "{name} under {s}");
                    assert_eq!(instance.objective_value(&best), Some(*opt), "{name} under {s}");
                    assert_eq!(optimum.objective.map(i128::from), Some(*opt), "{name} under {s}");
                }
            }
        }
    }
}
