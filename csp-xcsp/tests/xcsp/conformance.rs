//! Every conformance instance gives exactly its expected solution set, both by brute force
//! over the constraints as read and by the solver under several strategies.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use csp_core::{SearchConfig, Solver, Strategy};
use csp_xcsp::Instance;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance")
}

/// A solution as the `.sols` files write it: `name=value` pairs sorted by name.
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

fn brute_force(instance: &Instance) -> BTreeSet<String> {
    let model = &instance.model;
    let domains: Vec<Vec<i32>> = model.vars().map(|v| model.domain(v).values().collect()).collect();
    let mut out = BTreeSet::new();
    let mut idx = vec![0usize; domains.len()];
    loop {
        let values: Vec<i32> = idx.iter().zip(&domains).map(|(&i, d)| d[i]).collect();
        if instance.check(&values).is_ok() {
            out.insert(line(instance, &values));
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

fn cases() -> Vec<(String, Instance, BTreeSet<String>)> {
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(data())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for path in paths
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
    {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let instance = Instance::from_path(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let sols = std::fs::read_to_string(data().join("expected").join(format!("{name}.sols"))).unwrap();
        let expected: BTreeSet<String> = sols
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect();
        out.push((name, instance, expected));
    }
    assert!(out.len() >= 9);
    out
}

#[test]
fn conformance_by_brute_force() {
    for (name, instance, expected) in cases() {
        assert_eq!(brute_force(&instance), expected, "{name}");
    }
}

#[test]
fn conformance_by_search() {
    for (name, instance, expected) in cases() {
        for s in [
            "static/asc/none",
            "mrv/asc/fc",
            "dom-wdeg/asc/mac",
            "mrv-degree/lcv/mac",
        ] {
            let strategy: Strategy = s.parse().unwrap();
            let mut solver = Solver::new(&instance.model, SearchConfig::with_strategy(strategy)).unwrap();
            let mut found = BTreeSet::new();
            for values in solver.solutions() {
                assert!(
                    instance.check(&values).is_ok(),
                    "{name} under {s}: a wrong solution"
                );
                found.insert(line(&instance, &values));
            }
            assert_eq!(found, expected, "{name} under {s}");
        }
    }
}
