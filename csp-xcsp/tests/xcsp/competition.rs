//! Competition instances with known answers: a handful kept in the repository, and the
//! whole set of `../shared/data/xcsp/competition/` (ignored by default; run with
//! `cargo test -p csp-xcsp --release -- --ignored` when the folder is there, or point
//! `CSP_XCSP_DATA` at a folder holding `competition/`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use csp_core::{Inference, Limits, SearchConfig, Solver, Strategy, ValueOrder, VarOrder};
use csp_xcsp::Instance;

/// The answers of a folder: file name and answer (a number, `sat`, `unsat` or `unknown`).
fn answers(dir: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(dir.join("answers.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split('\t');
            (
                parts.next().unwrap().to_string(),
                parts.next().unwrap().to_string(),
            )
        })
        .collect()
}

/// Counts the solutions (checking each against the constraints as read) under the default
/// strategy; `None` when the time limit stopped the count.
fn count(path: &Path, seconds: u64, first_only: bool) -> Option<u64> {
    let instance = Instance::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut config =
        SearchConfig::with_strategy(Strategy::new(VarOrder::DomWdeg, ValueOrder::Asc, Inference::Mac));
    config.limits = Limits {
        time: Some(Duration::from_secs(seconds)),
        ..Limits::default()
    };
    let mut solver = Solver::new(&instance.model, config).unwrap();
    let mut n = 0;
    let limit = solver.for_each_solution(|s| {
        if let Err(c) = instance.check(s) {
            panic!(
                "{}: a solution violates {:?} at {}",
                path.display(),
                c.constraint,
                c.position
            );
        }
        n += 1;
        !first_only
    });
    (limit.is_none() || first_only && n > 0).then_some(n)
}

fn judge(dir: &Path, seconds: u64) -> Vec<String> {
    let mut failures = Vec::new();
    for (file, answer) in answers(dir) {
        let path = dir.join(&file);
        let first_only = answer == "sat";
        match (count(&path, seconds, first_only), answer.as_str()) {
            // No reference answer: only a wrong solution (caught by the check) would fail.
            (None, "unknown") => {}
            (None, _) => failures.push(format!(
                "{file}: not answered within {seconds} s (answer {answer})"
            )),
            (Some(_), "unknown") => {}
            (Some(n), "sat") if n > 0 => {}
            (Some(0), "unsat") => {}
            (Some(n), a) if a.parse::<u64>() == Ok(n) => {}
            (Some(n), a) => failures.push(format!("{file}: {n} solutions, expected {a}")),
        }
    }
    failures
}

#[test]
fn small_competition_instances() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/competition");
    assert!(answers(&dir).len() >= 20);
    let failures = judge(&dir, 30);
    assert!(failures.is_empty(), "{failures:#?}");
}

fn shared_data() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("CSP_XCSP_DATA").map(PathBuf::from),
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/xcsp")),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|p| p.join("competition/answers.tsv").is_file())
}

#[test]
#[ignore = "the whole competition set: minutes; needs ../shared/data/xcsp"]
fn whole_competition_set() {
    let Some(data) = shared_data() else {
        eprintln!("no ../shared/data/xcsp/competition here: nothing to test");
        return;
    };
    let failures = judge(&data.join("competition"), 60);
    assert!(failures.is_empty(), "{failures:#?}");
}
