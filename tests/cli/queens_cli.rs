//! The `csp queens` commands as a user runs them: output, JSON fields, exit codes.

use crate::common::{csp, stderr};
use serde_json::Value;

fn json(args: &[&str]) -> (Value, i32) {
    let out = csp(args);
    let text = String::from_utf8(out.stdout).unwrap();
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (value, out.status.code().unwrap())
}

/// `csp queens COMMAND N --var static --val asc --inference none EXTRA... --format json`.
fn textbook_json(command: &str, n: &str, extra: &[&str]) -> (Value, i32) {
    let mut args = vec![
        "queens",
        command,
        n,
        "--var",
        "static",
        "--val",
        "asc",
        "--inference",
        "none",
    ];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--format", "json"]);
    json(&args)
}

fn rows(value: &Value) -> Vec<u32> {
    value["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_u64().unwrap() as u32)
        .collect()
}

#[test]
fn textbook_solve_has_the_textbook_figures_in_json() {
    let (v, code) = textbook_json("solve", "8", &[]);
    assert_eq!(code, 0);
    assert_eq!(v["status"], "solved");
    assert_eq!(rows(&v), vec![0, 4, 7, 5, 2, 6, 1, 3]);
    assert_eq!(v["nodes"], 113);
    assert_eq!(v["backtracks"], 105);
    assert_eq!(v["n"], 8);
    assert_eq!(v["strategy"], "static/asc/none");
    assert_eq!(v["model"], "pairwise");
    for key in [
        "checks",
        "pruned",
        "revisions",
        "max_depth",
        "restarts",
        "elapsed_ms",
    ] {
        assert!(v[key].is_number(), "{key} in {v}");
    }
}

#[test]
fn default_solve_is_verified_and_uses_restarts() {
    let (v, code) = json(&["queens", "solve", "200", "--format", "json", "--verify"]);
    assert_eq!(code, 0);
    assert_eq!(v["verified"], true);
    assert_eq!(v["strategy"], "mrv/random/fc");
    assert_eq!(v["tie_break"], "random");
    assert!(v["restart_policy"].as_str().unwrap().starts_with("luby"));
    assert_eq!(csp_queens::verify(&rows(&v)), Ok(()));
    // Another seed and restart policy work too.
    let (v, code) = json(&[
        "queens",
        "solve",
        "100",
        "--seed",
        "7",
        "--restarts",
        "geometric:50:2",
        "--format",
        "json",
    ]);
    assert_eq!((code, v["seed"].as_u64()), (0, Some(7)));
}

#[test]
fn text_output_has_rows_board_and_statistics() {
    let out = csp(&["queens", "solve", "4"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("rows: "), "{text}");
    assert_eq!(text.lines().filter(|l| l.contains('Q')).count(), 4, "{text}");
    assert!(text.contains("\nnodes="), "{text}");
    assert!(text.contains("\nstatus=solved\n"), "{text}");
    // No board beyond 40.
    let out = csp(&["queens", "solve", "41"]);
    assert!(!String::from_utf8(out.stdout).unwrap().contains(". ."));
}

#[test]
fn two_and_three_have_no_solution_with_exit_code_one() {
    for n in ["2", "3"] {
        let (v, code) = json(&["queens", "solve", n, "--format", "json"]);
        assert_eq!((code, v["status"].as_str()), (1, Some("unsatisfiable")));
        assert!(v["solution"].is_null());
        let out = csp(&["queens", "solve", n]);
        assert_eq!(out.status.code(), Some(1));
        assert!(String::from_utf8(out.stdout).unwrap().starts_with("no solution"));
        let (v, code) = json(&["queens", "local", n, "--format", "json"]);
        assert_eq!((code, v["status"].as_str()), (1, Some("unsatisfiable")));
    }
}

#[test]
fn node_limit_gives_status_limit_and_exit_code_one() {
    let (v, code) = textbook_json("solve", "30", &["--node-limit", "100"]);
    assert_eq!(
        (code, v["status"].as_str(), v["nodes"].as_u64()),
        (1, Some("limit"), Some(100))
    );
    assert_eq!(v["limit"], "nodes");
}

#[test]
fn count_reports_solutions_and_distinct() {
    let (v, code) = json(&["queens", "count", "8", "--format", "json"]);
    assert_eq!(
        (code, v["solutions"].as_u64(), v["status"].as_str()),
        (0, Some(92), Some("solved"))
    );
    let full_nodes = v["nodes"].as_u64().unwrap();
    let (v, _) = json(&[
        "queens",
        "count",
        "8",
        "--symmetry",
        "--distinct",
        "--format",
        "json",
    ]);
    assert_eq!(
        (v["solutions"].as_u64(), v["distinct"].as_u64()),
        (Some(92), Some(12))
    );
    assert!(v["nodes"].as_u64().unwrap() < full_nodes);
    let (v, _) = textbook_json("count", "8", &[]);
    assert_eq!(
        (v["solutions"].as_u64(), v["nodes"].as_u64()),
        (Some(92), Some(2056))
    );
    let out = csp(&["queens", "count", "9", "--distinct"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("solutions: 352\ndistinct: 46\n"), "{text}");
    let (v, code) = json(&["queens", "count", "3", "--format", "json"]);
    assert_eq!((code, v["solutions"].as_u64()), (1, Some(0)));
}

#[test]
fn local_search_solves_and_verifies() {
    let (v, code) = json(&[
        "queens", "local", "5000", "--seed", "3", "--verify", "--format", "json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        (v["status"].as_str(), v["verified"].as_bool()),
        (Some("solved"), Some(true))
    );
    assert_eq!(rows(&v).len(), 5000);
    for key in ["steps", "restarts", "conflicts", "elapsed_ms"] {
        assert!(v[key].is_number(), "{key}");
    }
    let out = csp(&["queens", "local", "12", "--max-steps", "1000"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout).unwrap().contains("\nsteps="));
}

#[test]
fn bad_arguments_exit_with_two_and_a_clear_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["queens", "solve", "0"], "at least 1"),
        (&["queens", "solve", "-3"], "must be positive"),
        (&["queens", "solve", "abc"], "not a board size"),
        (&["queens", "solve", "99999999999999999999999"], "too large"),
        (&["queens", "local", "18446744073709551616"], "too large"),
        (
            &["queens", "count", "-99999999999999999999999"],
            "must be positive",
        ),
        (
            &["queens", "local", "10", "--timeout", "-1"],
            "positive number of seconds",
        ),
        (&["queens", "local", "10", "--timeout", "1e300"], "too large"),
        (&["queens", "solve", "8", "--timeout", "1e300"], "too large"),
        (&["queens", "solve", "3000", "--model", "pairwise"], "too large"),
        (&["queens", "solve", "50000"], "too large"),
        (&["queens", "solve", "8", "--model", "triangle"], "unknown model"),
        (
            &["queens", "solve", "8", "--restarts", "sometimes"],
            "unknown restart policy",
        ),
        (&["queens", "solve", "8", "--var", "biggest"], "invalid value"),
        (&["queens", "count", "21"], "too large"),
        (&["queens", "count", "0"], "at least 1"),
        (&["queens", "local", "100000001"], "too large"),
        (&["queens", "local", "0"], "at least 1"),
        (&["queens", "local", "10", "--seed", "-1"], "-1"),
    ];
    for (args, message) in cases {
        let out = csp(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// The search with the baseline vector code (`CSP_NO_WIDE_VECTORS` set) and with the
/// code chosen for this processor: the same solution and the same statistics. On a
/// processor without the wider features both runs take the baseline.
#[test]
fn wide_and_baseline_vector_code_search_alike() {
    let run = |baseline: bool, args: &[&str]| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_csp"));
        command.args(args).env_remove("CSP_NO_WIDE_VECTORS");
        if baseline {
            command.env("CSP_NO_WIDE_VECTORS", "1");
        }
        let out = command.output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut value: Value = serde_json::from_slice(&out.stdout).unwrap();
        value.as_object_mut().unwrap().remove("elapsed_ms");
        value
    };
    // The default search (lines along rows and diagonals, MRV with random ties) and MAC
    // with ascending values on the same model.
    for args in [
        &["queens", "solve", "700", "--verify", "--format", "json"][..],
        &[
            "queens",
            "solve",
            "300",
            "--var",
            "mrv",
            "--val",
            "asc",
            "--inference",
            "mac",
            "--model",
            "alldiff",
            "--verify",
            "--format",
            "json",
        ],
    ] {
        let (wide, baseline) = (run(false, args), run(true, args));
        assert_eq!(wide["status"], "solved", "{args:?}");
        assert_eq!(wide["verified"], true, "{args:?}");
        assert!(wide["pruned"].as_u64().unwrap() > 0, "{args:?}");
        assert_eq!(wide, baseline, "{args:?}");
    }
}

#[test]
fn counts_on_threads_are_the_sequential_counts_and_nodes() {
    for n in ["6", "9"] {
        let (one, code) = json(&["queens", "count", n, "--format", "json"]);
        assert_eq!(code, 0);
        for threads in ["2", "5"] {
            let (many, code) = json(&["queens", "count", n, "--threads", threads, "--format", "json"]);
            assert_eq!(code, 0);
            assert_eq!(many["solutions"], one["solutions"], "n = {n}, {threads} threads");
            // The default count (mrv/asc/fc on the pairwise model) chooses from the domains:
            // the subproblems' nodes and the decomposition's add up to the sequential ones.
            assert_eq!(many["nodes"], one["nodes"], "n = {n}, {threads} threads");
            // (Six queens are all found by the decomposition itself.)
            assert_eq!(many["subproblems"].as_u64().unwrap() > 0, n == "9", "{many}");
        }
    }
}

#[test]
fn a_deterministic_solve_on_threads_is_the_sequential_solution() {
    let args = |threads: &'static str| {
        vec![
            "queens",
            "solve",
            "16",
            "--var",
            "mrv",
            "--val",
            "asc",
            "--threads",
            threads,
            "--deterministic",
            "--format",
            "json",
        ]
    };
    let (one, _) = json(&args("1"));
    for threads in ["2", "3"] {
        let (many, code) = json(&args(threads));
        assert_eq!(code, 0);
        assert_eq!(rows(&many), rows(&one), "{threads} threads");
    }
}

#[test]
fn a_traced_search_runs_on_one_thread() {
    let out = csp(&["queens", "count", "6", "--threads", "2", "--trace", "-"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("one thread"), "{}", stderr(&out));
    let out = csp(&["queens", "count", "6", "--threads", "2000"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
