//! Restart policies on the command line: one that cannot grow is a usage error (finding
//! G4 of the reliability report), and a factor barely above 1 still finishes.

use crate::common::{code, csp, data, json_lines, stderr};

#[test]
fn restart_factors_of_one_or_less_are_usage_errors() {
    let file = data("4x4.txt");
    for policy in [
        "geometric:1:1",
        "geometric:3:1",
        "geometric:0.5:0.5",
        "geometric:2:1.0",
    ] {
        for args in [
            vec!["queens", "solve", "8", "--restarts", policy],
            vec!["sudoku", "count", &file, "--restarts", policy],
        ] {
            let out = csp(&args);
            assert_eq!(code(&out), 2, "{args:?}");
            assert!(
                stderr(&out).contains("greater than 1"),
                "{args:?}: {}",
                stderr(&out)
            );
        }
    }
}

#[test]
fn a_factor_barely_above_one_still_finishes() {
    let out = csp(&[
        "queens",
        "solve",
        "8",
        "--restarts",
        "geometric:1:1.0000001",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0);
    let line = &json_lines(&out)[0];
    assert_eq!(line["status"], "solved");
    let out = csp(&[
        "sudoku",
        "count",
        &data("top95-sample.txt"),
        "--limit",
        "2",
        "--restarts",
        "geometric:2:1.0000001",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}
