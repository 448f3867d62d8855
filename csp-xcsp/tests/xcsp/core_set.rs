//! The XCSP3-core suite (global constraints and optimisation) with known answers, read from
//! `../shared/data/xcsp/core/` (ignored by default: minutes; run with `cargo test -p
//! csp-xcsp --release --test core -- --ignored` when the folder is there, or point
//! `CSP_XCSP_DATA` at a folder holding `core/`). A CSP must give its number of solutions
//! (each checked against the constraints as read), a COP its optimum, proved, each within
//! 60 s under the default strategy; none may give a wrong answer.

use std::path::{Path, PathBuf};
use std::time::Duration;

use csp_core::{Inference, Limits, SearchConfig, Solver, Strategy, ValueOrder, VarOrder};
use csp_xcsp::Instance;

fn shared_data() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("CSP_XCSP_DATA").map(PathBuf::from),
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/xcsp")),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|p| p.join("core/answers.tsv").is_file())
}

/// The rows of `answers.tsv`: file, type (`CSP`/`COP`) and answer (a number or `unsat`).
fn answers(dir: &Path) -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(dir.join("answers.tsv")).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let parts: Vec<&str> = l.split('\t').collect();
            (parts[0].to_string(), parts[2].to_string(), parts[3].to_string())
        })
        .collect()
}

/// The answer under the default strategy within `seconds`: the count (CSP) or the proved
/// optimum (COP); `unsat` for none; `None` when a limit stopped it.
fn answer(path: &Path, cop: bool, seconds: u64) -> Option<String> {
    let instance = Instance::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut config =
        SearchConfig::with_strategy(Strategy::new(VarOrder::DomWdeg, ValueOrder::Asc, Inference::Mac));
    config.limits = Limits {
        time: Some(Duration::from_secs(seconds)),
        ..Limits::default()
    };
    let mut solver = Solver::new(&instance.model, config).unwrap();
    let check = |s: &[i32]| {
        if let Err(c) = instance.check(s) {
            panic!(
                "{}: a solution violates {:?} at {}",
                path.display(),
                c.constraint,
                c.position
            );
        }
    };
    if cop {
        let optimum = solver
            .optimize_with(|s, value| {
                check(s);
                assert_eq!(
                    instance.objective_value(s),
                    Some(i128::from(value)),
                    "{}",
                    path.display()
                );
                true
            })
            .unwrap();
        return optimum
            .proved
            .then(|| optimum.objective.map_or("unsat".to_string(), |v| v.to_string()));
    }
    let mut n = 0u64;
    let limit = solver.for_each_solution(|s| {
        check(s);
        n += 1;
        true
    });
    limit.is_none().then(|| {
        if n == 0 {
            "unsat".to_string()
        } else {
            n.to_string()
        }
    })
}

#[test]
#[ignore = "the XCSP3-core suite: minutes; needs ../shared/data/xcsp/core"]
fn core_suite_answers() {
    let Some(data) = shared_data() else {
        eprintln!("no ../shared/data/xcsp/core here: nothing to test");
        return;
    };
    let dir = data.join("core");
    let mut failures = Vec::new();
    for (file, kind, expected) in answers(&dir) {
        let path = dir.join("instances").join(&file);
        match answer(&path, kind == "COP", 60) {
            Some(got) if got == expected => {}
            Some(got) => failures.push(format!("{file}: {got}, expected {expected}")),
            None => failures.push(format!("{file}: not answered within 60 s (answer {expected})")),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
