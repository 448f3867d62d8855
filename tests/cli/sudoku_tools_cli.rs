//! `csp sudoku generate|rate|hint` and `solve --method` as a user runs them: output,
//! JSON fields, exit codes.

use std::process::Output;

use crate::common::{data, json_lines, stdout};

fn csp(args: &[&str], stdin: &str) -> Output {
    crate::common::run(args, Some(stdin))
}

const EASY: &str = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
const GUESS: &str = "6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6.....";

#[test]
fn generate_writes_unique_puzzles_reproducibly() {
    let args = [
        "sudoku", "generate", "--order", "3", "--count", "4", "--seed", "9",
    ];
    let a = csp(&args, "");
    assert_eq!(a.status.code(), Some(0), "{}", String::from_utf8_lossy(&a.stderr));
    let text = stdout(&a);
    assert_eq!(text.lines().count(), 4);
    assert_eq!(stdout(&csp(&args, "")), text);
    let mut parallel = args.to_vec();
    parallel.extend(["--jobs", "2"]);
    assert_eq!(stdout(&csp(&parallel, "")), text);
    // Every puzzle has exactly one solution, as `count` says.
    let counted = csp(&["sudoku", "count"], &text);
    assert_eq!(stdout(&counted), "1\n1\n1\n1\n");
}

#[test]
fn generate_clues_symmetry_full_and_large_orders() {
    let out = csp(
        &[
            "sudoku",
            "generate",
            "--clues",
            "32",
            "--symmetry",
            "rotational",
            "--seed",
            "1",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let line = stdout(&out);
    assert_eq!(line.trim().chars().filter(|&c| c != '.').count(), 32);
    let full = csp(
        &["sudoku", "generate", "--full", "--order", "2", "--count", "3"],
        "",
    );
    for l in stdout(&full).lines() {
        assert!(!l.contains('.'), "{l}");
        assert_eq!(l.len(), 16);
    }
    // 36x36 grids are written as numbers, one grid per line, and read back.
    let big = csp(&["sudoku", "generate", "--full", "--order", "6"], "");
    let text = stdout(&big);
    assert_eq!(text.lines().count(), 1);
    assert_eq!(text.split_whitespace().count(), 1296);
    let solved = csp(&["sudoku", "solve", "--format", "json"], &text);
    assert_eq!(json_lines(&solved)[0]["status"], "solved");
}

#[test]
fn generate_difficulty_json() {
    let out = csp(
        &[
            "sudoku",
            "generate",
            "--difficulty",
            "easy",
            "--format",
            "json",
            "--count",
            "2",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    for v in json_lines(&out) {
        assert_eq!(v["level"], "easy");
        assert!(v["score"].as_f64().unwrap() < 20.0);
        assert_eq!(
            v["clues"].as_u64().unwrap() as usize,
            v["puzzle"].as_str().unwrap().matches(|c| c != '.').count()
        );
    }
}

#[test]
fn generate_bad_arguments_exit_2() {
    for args in [
        vec!["--order", "7"],
        vec!["--order", "1"],
        vec!["--clues", "82"],
        vec!["--clues", "-1"],
        vec!["--clues", "10"],
        vec!["--order", "2", "--clues", "7", "--symmetry", "mirror"],
        vec!["--difficulty", "evil"],
        vec!["--symmetry", "diagonal"],
        vec!["--full", "--clues", "30"],
    ] {
        let mut all = vec!["sudoku", "generate"];
        all.extend(&args);
        let out = csp(&all, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
    // A non-number order is named as a box side with the range, not as a parse failure.
    for order in ["-1", "x"] {
        let out = csp(&["sudoku", "generate", "--order", order], "");
        assert_eq!(out.status.code(), Some(2), "{order}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("is not a box side") && err.contains("2 to 6"),
            "{err}"
        );
    }
}

#[test]
fn rate_json_and_errors() {
    let input = format!("{EASY}\n{GUESS}\n12345\n");
    let out = csp(&["sudoku", "rate", "--format", "json"], &input);
    assert_eq!(out.status.code(), Some(1), "a bad line makes exit 1");
    let v = json_lines(&out);
    assert_eq!(v.len(), 3);
    assert_eq!(v[0]["level"], "easy");
    assert_eq!(v[0]["guessing"], false);
    assert!(v[0]["techniques"]["naked-single"].as_u64().unwrap() > 0);
    assert!(v[0]["nodes"].as_u64().is_some() && v[0]["backtracks"].as_u64().is_some());
    assert_eq!(v[1]["guessing"], true);
    assert_eq!(v[1]["level"], "expert");
    assert!(v[1]["score"].as_f64().unwrap() > v[0]["score"].as_f64().unwrap());
    assert_eq!(v[2]["line"], 3);
    assert!(v[2]["error"].as_str().unwrap().contains("cells"));

    let line = csp(&["sudoku", "rate", &data("seeds.txt")], "");
    assert_eq!(line.status.code(), Some(0));
    assert_eq!(stdout(&line).lines().count(), 14);
    assert!(stdout(&line).lines().nth(2).unwrap().contains(" easy "));
}

#[test]
fn hint_gives_the_next_step_or_a_clear_error() {
    let out = csp(&["sudoku", "hint", "--format", "json"], "12.434..21.34.21\n");
    assert_eq!(out.status.code(), Some(0));
    let v = &json_lines(&out)[0];
    assert_eq!(
        (v["row"].as_u64(), v["col"].as_u64(), v["value"].as_u64()),
        (Some(1), Some(3), Some(3))
    );
    assert_eq!(v["technique"], "naked-single");
    assert!(!v["reason"].as_str().unwrap().is_empty());

    // A multi-line grid, text output.
    let grid = std::fs::read_to_string(data("seed000.txt")).unwrap();
    let text = csp(&["sudoku", "hint"], &grid);
    assert_eq!(text.status.code(), Some(0));
    assert!(stdout(&text).starts_with('r'), "{}", stdout(&text));

    // A repeated value: a clear message, no hint.
    let wrong = csp(&["sudoku", "hint"], "11..............\n");
    assert_eq!(wrong.status.code(), Some(1));
    assert!(stdout(&wrong).contains("wrong entry"), "{}", stdout(&wrong));
    // No conflict, but no solution.
    let none = std::fs::read_to_string(data("no-solution-9x9.txt")).unwrap();
    let out = csp(&["sudoku", "hint", "--format", "json"], &none);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        json_lines(&out)[0]["error"]
            .as_str()
            .unwrap()
            .contains("wrong entry")
    );
}

#[test]
fn solve_with_local_search_methods() {
    for method in ["annealing", "min-conflicts"] {
        let out = csp(
            &[
                "sudoku", "solve", "--method", method, "--format", "json", "--seed", "2",
            ],
            EASY,
        );
        assert_eq!(out.status.code(), Some(0), "{method}");
        let v = &json_lines(&out)[0];
        assert_eq!(v["status"], "solved");
        assert_eq!(v["method"], method);
        assert!(v["steps"].as_u64().unwrap() > 0);
        assert!(v["elapsed_ms"].as_f64().is_some());
        let solution = v["solution"].as_str().unwrap();
        let check = csp(&["sudoku", "count", "--format", "json"], solution);
        assert_eq!(json_lines(&check)[0]["solutions"], 1);
        // The reported solution is this puzzle's only solution.
        let systematic = csp(&["sudoku", "solve"], EASY);
        assert_eq!(stdout(&systematic).trim(), solution);
    }
    let limited = csp(
        &["sudoku", "solve", "--method", "annealing", "--max-steps", "10"],
        GUESS,
    );
    assert_eq!(limited.status.code(), Some(1));
    assert!(stdout(&limited).starts_with("# line 1: limit"));
    let json = csp(
        &[
            "sudoku",
            "solve",
            "--method",
            "min-conflicts",
            "--max-steps",
            "10",
            "--format",
            "json",
        ],
        GUESS,
    );
    assert_eq!(json_lines(&json)[0]["status"], "limit");
}

#[test]
fn solve_method_bad_arguments_exit_2() {
    for args in [
        vec!["--method", "tabu"],
        vec!["--max-steps", "100"],
        vec!["--method", "annealing", "--var", "mrv"],
        vec!["--method", "annealing", "--node-limit", "5"],
        vec!["--method", "min-conflicts", "--max-steps", "0"],
    ] {
        let mut all = vec!["sudoku", "solve"];
        all.extend(&args);
        let out = csp(&all, EASY);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}
