//! The `csp sudoku` commands as a user runs them: files and standard input, the three output
//! formats, error reporting with line and column, exit codes, parallel runs, counting and the
//! strategy comparison. Every solution printed is checked against its puzzle with csp-sudoku.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::common::{TempDir, code, csp, data as path, json_lines, run, stderr, stdout};
use csp_sudoku::{Grid, ParseError, PuzzleReader, parse_puzzle};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Data

fn text(name: &str) -> String {
    std::fs::read_to_string(path(name)).unwrap()
}

/// The puzzles of a line-format file with their line numbers; bad lines as their errors.
fn items(text: &str) -> Vec<(usize, Result<Grid, ParseError>)> {
    PuzzleReader::new(text).collect()
}

/// The good puzzles of a line-format file with their line numbers.
fn good(text: &str) -> Vec<(usize, Grid)> {
    items(text)
        .into_iter()
        .filter_map(|(l, r)| r.ok().map(|g| (l, g)))
        .collect()
}

/// Parses a printed solution and checks it against the puzzle.
fn check(puzzle: &Grid, printed: &str) -> Grid {
    let solution = parse_puzzle(printed).unwrap_or_else(|e| panic!("unreadable solution {printed}: {e}"));
    assert!(
        solution.is_solution_of(puzzle),
        "{solution} does not solve {puzzle}"
    );
    solution
}

/// Seed 000's printed solution.
fn printed_solution() -> String {
    text("seeds-solutions.txt")
        .lines()
        .find(|l| !l.starts_with('#'))
        .unwrap()
        .trim()
        .to_string()
}

// ---------------------------------------------------------------------------------------------
// solve: formats and inputs

#[test]
fn solve_line_format_prints_one_checked_line_per_puzzle() {
    let input = text("4x4.txt");
    let out = csp(&["sudoku", "solve", &path("4x4.txt")]);
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    let puzzles = good(&input);
    assert_eq!(lines.len(), puzzles.len());
    for ((_, puzzle), line) in puzzles[..3].iter().zip(&lines) {
        check(puzzle, line);
    }
    // The last has no solution.
    assert!(lines[3].starts_with("# line 4"), "{}", lines[3]);
    assert!(lines[3].contains("unsatisfiable"), "{}", lines[3]);
    assert_eq!(code(&out), 1);
    let summary = stderr(&out);
    assert!(summary.contains("4 puzzles"), "{summary}");
    assert!(
        summary.contains("3 solved") && summary.contains("1 unsatisfiable"),
        "{summary}"
    );
    assert!(summary.contains("puzzles/s"), "{summary}");
}

#[test]
fn solve_exits_0_when_every_puzzle_is_solved() {
    let input = text("top95-sample.txt");
    let out = csp(&["sudoku", "solve", &path("top95-sample.txt")]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    let puzzles = good(&input);
    assert_eq!((lines.len(), puzzles.len()), (20, 20));
    for ((_, puzzle), line) in puzzles.iter().zip(&lines) {
        assert_eq!(line.len(), 81, "{line}");
        check(puzzle, line);
    }
    assert!(stderr(&out).contains("20 puzzles: 20 solved"), "{}", stderr(&out));
}

#[test]
fn solve_reads_standard_input_with_dash_and_without_argument() {
    let input = text("seeds.txt");
    let from_file = csp(&["sudoku", "solve", &path("seeds.txt")]);
    let dash = run(&["sudoku", "solve", "-"], Some(&input));
    let bare = run(&["sudoku", "solve"], Some(&input));
    for out in [&from_file, &dash, &bare] {
        assert_eq!(code(out), 0, "{}", stderr(out));
        assert!(stderr(out).contains("14 puzzles: 14 solved"), "{}", stderr(out));
    }
    assert_eq!(stdout(&dash), stdout(&from_file));
    assert_eq!(stdout(&bare), stdout(&from_file));
    let lines: Vec<String> = stdout(&bare).lines().map(String::from).collect();
    let puzzles = good(&input);
    assert_eq!(lines.len(), puzzles.len());
    for ((_, puzzle), line) in puzzles.iter().zip(&lines) {
        check(puzzle, line);
    }
    assert_eq!(lines[0], printed_solution());
}

#[test]
fn solve_grid_format_prints_checked_grids() {
    for file in ["4x4.txt", "seeds.txt", "janko-16x16-sample.txt"] {
        let input = text(file);
        let out = run(&["sudoku", "solve", "--format", "grid"], Some(&input));
        let output = stdout(&out);
        let blocks: Vec<&str> = output.split("\n\n").filter(|b| !b.trim().is_empty()).collect();
        let puzzles = good(&input);
        assert_eq!(blocks.len(), puzzles.len(), "{file}:\n{output}");
        for ((line, puzzle), block) in puzzles.iter().zip(&blocks) {
            let block = block.trim();
            if block.starts_with('#') {
                assert_eq!(file, "4x4.txt");
                assert!(
                    block.starts_with(&format!("# line {line}: unsatisfiable")),
                    "{block}"
                );
                continue;
            }
            let rows = block.lines().filter(|r| r.contains('|')).count();
            assert_eq!(
                rows,
                puzzle.size(),
                "{file}: one printed row per board row\n{block}"
            );
            assert!(
                block.contains('+') && block.contains('-'),
                "box separators\n{block}"
            );
            check(puzzle, block);
        }
    }
}

#[test]
fn solve_json_lines_carry_the_documented_fields() {
    let mut input = text("seeds.txt");
    input.push_str(&text("4x4.txt"));
    let out = run(&["sudoku", "solve", "--format", "json"], Some(&input));
    assert_eq!(code(&out), 1, "the last 4x4 has no solution");
    let records = json_lines(&out);
    let puzzles = good(&input);
    assert_eq!(records.len(), puzzles.len());
    for ((line, puzzle), record) in puzzles.iter().zip(&records) {
        assert_eq!(record["line"], *line as u64, "{record}");
        assert!(
            record["nodes"].is_u64() && record["backtracks"].is_u64(),
            "{record}"
        );
        assert!(
            record["elapsed_ms"].as_f64().is_some_and(|ms| ms >= 0.0),
            "{record}"
        );
        assert!(record["error"].is_null(), "no error: {record}");
        match record["status"].as_str().unwrap() {
            "solved" => {
                let solution = record["solution"].as_str().unwrap();
                assert_eq!(solution.len(), puzzle.cells().len(), "line format: {record}");
                check(puzzle, solution);
            }
            "unsatisfiable" => {
                assert_eq!(
                    *line,
                    text("seeds.txt").lines().count() + 4,
                    "only the last line: {record}"
                );
                assert!(record["solution"].is_null(), "{record}");
            }
            other => panic!("unexpected status {other}: {record}"),
        }
    }
    assert_eq!(records[0]["solution"], printed_solution());
    let unsat = records.iter().filter(|r| r["status"] == "unsatisfiable").count();
    assert_eq!(unsat, 1);
}

#[test]
fn solve_json_reports_limits_with_an_error_and_exit_1() {
    let out = csp(&[
        "sudoku",
        "solve",
        &path("top95-sample.txt"),
        "--model",
        "pairwise",
        "--var",
        "static",
        "--val",
        "asc",
        "--inference",
        "none",
        "--node-limit",
        "50",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 1);
    let records = json_lines(&out);
    assert_eq!(records.len(), 20);
    for record in &records {
        assert_eq!(record["status"], "limit", "{record}");
        assert!(record["solution"].is_null(), "{record}");
        assert_eq!(record["nodes"], 50, "{record}");
        assert!(
            record["error"].as_str().unwrap().contains("node limit"),
            "{record}"
        );
    }
    // In line format, a `#` line says why.
    let out = csp(&[
        "sudoku",
        "solve",
        &path("top95-sample.txt"),
        "--model",
        "pairwise",
        "--inference",
        "none",
        "--var",
        "static",
        "--node-limit",
        "50",
    ]);
    assert_eq!(code(&out), 1);
    for (i, line) in stdout(&out).lines().enumerate() {
        assert!(line.starts_with(&format!("# line {}: limit", i + 1)), "{line}");
    }
}

#[test]
fn seed_000_grid_file_solves_to_the_printed_solution() {
    let out = csp(&["sudoku", "solve", &path("seed000.txt")]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), printed_solution());
    let puzzle = parse_puzzle(&text("seed000.txt")).unwrap();
    check(&puzzle, stdout(&out).trim());
    // The same from standard input, and as JSON.
    let out = run(
        &["sudoku", "solve", "--format", "json"],
        Some(&text("seed000.txt")),
    );
    assert_eq!(code(&out), 0);
    let records = json_lines(&out);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["status"], "solved");
    assert_eq!(records[0]["line"], 1);
    assert_eq!(records[0]["solution"], printed_solution());
}

#[test]
fn bad_lines_are_reported_with_line_and_column_and_the_rest_is_solved() {
    let input = text("bad.txt");
    // (line, column) of each bad line; lines without a column are whole-line length errors.
    let expected_errors = [
        (3, None),
        (4, Some(9)),
        (6, Some(16)),
        (7, Some(2)),
        (9, None),
        (10, Some(16)),
        (13, Some(4)),
    ];
    let out = csp(&["sudoku", "solve", &path("bad.txt")]);
    assert_eq!(code(&out), 1);
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    let all = items(&input);
    assert_eq!(lines.len(), all.len(), "one output per input puzzle");
    let mut errors = Vec::new();
    for ((number, parsed), printed) in all.iter().zip(&lines) {
        match parsed {
            Ok(puzzle) => {
                check(puzzle, printed);
            }
            Err(_) => {
                // One location: the line, and the column where one applies.
                let at = format!("# line {number}");
                assert!(printed.starts_with(&at), "{printed}");
                assert!(printed.contains(": error: "), "{printed}");
                assert_eq!(printed.matches("line ").count(), 1, "{printed}");
                errors.push(*number);
            }
        }
    }
    assert_eq!(errors, expected_errors.map(|(l, _)| l));
    for (number, col) in expected_errors {
        let printed = lines
            .iter()
            .find(|l| {
                l.starts_with(&format!("# line {number}:")) || l.starts_with(&format!("# line {number},"))
            })
            .unwrap();
        if let Some(col) = col {
            assert!(
                printed.starts_with(&format!("# line {number}, column {col}: error: ")),
                "{printed}"
            );
        }
    }
    assert!(
        stderr(&out).contains("3 solved") && stderr(&out).contains("7 error"),
        "{}",
        stderr(&out)
    );

    // JSON: status `error` with the message, good lines solved.
    let out = csp(&["sudoku", "solve", &path("bad.txt"), "--format", "json"]);
    assert_eq!(code(&out), 1);
    let records = json_lines(&out);
    assert_eq!(records.len(), all.len());
    for ((number, parsed), record) in all.iter().zip(&records) {
        assert_eq!(record["line"], *number as u64);
        match parsed {
            Ok(puzzle) => {
                assert_eq!(record["status"], "solved", "{record}");
                check(puzzle, record["solution"].as_str().unwrap());
            }
            Err(e) => {
                assert_eq!(record["status"], "error", "{record}");
                assert!(record["solution"].is_null());
                assert_eq!(record["error"], e.to_string());
            }
        }
    }
    let bad_symbol = records.iter().find(|r| r["line"] == 4).unwrap();
    assert!(
        bad_symbol["error"].as_str().unwrap().contains("line 4, column 9"),
        "{bad_symbol}"
    );
}

#[test]
fn an_unsolvable_puzzle_gets_a_hash_line_and_exit_1() {
    let out = csp(&["sudoku", "solve", &path("no-solution-9x9.txt")]);
    assert_eq!(code(&out), 1);
    let output = stdout(&out);
    assert!(output.starts_with("# line 1: unsatisfiable"), "{output}");
    assert_eq!(output.lines().count(), 1);
    for model in [
        ["--model", "pairwise"],
        ["--alldiff", "value"],
        ["--alldiff", "hidden"],
    ] {
        let out = csp(&[
            "sudoku",
            "solve",
            &path("no-solution-9x9.txt"),
            "--format",
            "json",
            model[0],
            model[1],
        ]);
        assert_eq!(code(&out), 1);
        let records = json_lines(&out);
        assert_eq!(records[0]["status"], "unsatisfiable", "{model:?}");
        assert!(records[0]["solution"].is_null());
    }
}

#[test]
fn every_model_and_strategy_flag_solves_the_seeds() {
    let input = text("seeds.txt");
    let puzzles = good(&input);
    for flags in [
        &[
            "--model",
            "pairwise",
            "--var",
            "mrv",
            "--val",
            "asc",
            "--inference",
            "fc",
        ][..],
        &[
            "--model",
            "pairwise",
            "--var",
            "mrv-degree",
            "--val",
            "lcv",
            "--inference",
            "mac",
        ],
        &["--model", "alldiff", "--alldiff", "value"],
        &["--alldiff", "hidden", "--inference", "fc"],
        &["--model", "alldiff", "--alldiff", "gac", "--var", "static"],
        &["--branching", "places", "--var", "mrv", "--inference", "fc"],
    ] {
        let mut args = vec!["sudoku", "solve", "-"];
        args.extend_from_slice(flags);
        let out = run(&args, Some(&input));
        assert_eq!(code(&out), 0, "{flags:?}: {}", stderr(&out));
        let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
        assert_eq!(lines.len(), puzzles.len());
        for ((_, puzzle), line) in puzzles.iter().zip(&lines) {
            check(puzzle, line);
        }
    }
}

#[test]
fn bad_flags_are_usage_errors_with_exit_2() {
    let file = path("4x4.txt");
    for (args, mention) in [
        (vec!["sudoku", "solve", &file, "--var", "fastest"], "fastest"),
        (vec!["sudoku", "solve", &file, "--val", "up"], "up"),
        (vec!["sudoku", "solve", &file, "--inference", "ac4"], "ac4"),
        (
            vec![
                "sudoku",
                "solve",
                &file,
                "--model",
                "pairwise",
                "--alldiff",
                "gac",
            ],
            "--alldiff",
        ),
        (vec!["sudoku", "solve", &file, "--model", "sat"], "sat"),
        (vec!["sudoku", "solve", &file, "--alldiff", "strong"], "strong"),
        (vec!["sudoku", "solve", &file, "--node-limit", "-3"], "-3"),
        (vec!["sudoku", "solve", &file, "--node-limit=-3"], "-3"),
        (vec!["sudoku", "solve", &file, "--node-limit", "many"], "many"),
        (vec!["sudoku", "solve", &file, "--timeout", "0"], "timeout"),
        (
            vec!["sudoku", "solve", &file, "--timeout", "-1"],
            "positive number of seconds",
        ),
        (vec!["sudoku", "solve", &file, "--timeout", "1e300"], "too large"),
        (vec!["sudoku", "count", &file, "--timeout", "1e300"], "too large"),
        (vec!["sudoku", "solve", &file, "--jobs", "100000"], "at most 1024"),
        (vec!["sudoku", "count", &file, "--jobs", "-1"], "-1"),
        (
            vec!["sudoku", "compare", &file, "--timeout", "1e300"],
            "too large",
        ),
        (vec!["sudoku", "solve", &file, "--format", "xml"], "xml"),
        (vec!["sudoku", "count", &file, "--limit", "0"], "--limit"),
        (vec!["sudoku", "count", &file, "--limit", "two"], "two"),
        (vec!["sudoku", "count", &file, "--var", "fastest"], "fastest"),
        (vec!["sudoku", "count", &file, "--branching", "values"], "values"),
        (
            vec!["sudoku", "compare", &file, "--strategies", "mrv/asc"],
            "mrv/asc",
        ),
        (
            vec!["sudoku", "compare", &file, "--models", "alldiff-max"],
            "alldiff-max",
        ),
    ] {
        let out = csp(&args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}");
        assert!(stderr(&out).contains(mention), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn parallel_runs_give_the_same_output_in_input_order() {
    // More puzzles than one parallel chunk, mixing orders, errors and an unsolvable puzzle.
    let mut input = String::new();
    for _ in 0..2 {
        for file in [
            "bad.txt",
            "top95-sample.txt",
            "4x4.txt",
            "seeds.txt",
            "janko-16x16-sample.txt",
        ] {
            input.push_str(&text(file));
        }
    }
    assert!(good(&input).len() > 64);
    // `count --limit 2`: the seeds hold the empty 9x9 grid.
    for command in [&["solve"][..], &["count", "--limit", "2"]] {
        let one = run(&[&["sudoku"], command, &["--jobs", "1"]].concat(), Some(&input));
        let two = run(&[&["sudoku"], command, &["--jobs", "2"]].concat(), Some(&input));
        assert_eq!(code(&one), 1, "bad lines");
        assert_eq!(code(&two), code(&one));
        assert_eq!(stdout(&two), stdout(&one), "{command:?}");
        assert_eq!(stdout(&one).lines().count(), items(&input).len());
    }
    let out = run(&["sudoku", "solve", "-j", "2"], Some(&input));
    for ((_, parsed), line) in items(&input).iter().zip(stdout(&out).lines()) {
        if let Ok(puzzle) = parsed {
            if !line.starts_with('#') {
                check(puzzle, line);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// count

/// The puzzles of `counts-sample.txt` as a line-format file, with their counts.
fn counted_sample() -> (String, Vec<u64>) {
    let text = text("counts-sample.txt");
    let mut puzzles = String::new();
    let mut counts = Vec::new();
    for (_, counted) in csp_sudoku::CountedReader::new(&text) {
        let counted = counted.unwrap();
        puzzles.push_str(&format!("{}\n", counted.puzzle));
        counts.push(counted.count);
    }
    (puzzles, counts)
}

#[test]
fn count_prints_exact_counts_one_per_line() {
    let (input, counts) = counted_sample();
    let out = run(&["sudoku", "count"], Some(&input));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let printed: Vec<u64> = stdout(&out).lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(printed, counts);
    assert!(stderr(&out).contains("15 puzzles"), "{}", stderr(&out));

    let mut input = text("4x4.txt");
    input.push_str(&text("empty-4x4.txt"));
    let out = run(&["sudoku", "count", "-"], Some(&input));
    assert_eq!(stdout(&out), "1\n1\n1\n0\n288\n");
    assert_eq!(code(&out), 0, "an exact count of 0 is an answer");
}

/// Counts the counted sample with `count --format json` and these flags, checks every
/// count, and returns the sum of `field` over the puzzles.
fn count_sample_summing(flags: &[&str], field: &str) -> u64 {
    let (input, counts) = counted_sample();
    let mut args = vec!["sudoku", "count", "--format", "json"];
    args.extend_from_slice(flags);
    let out = run(&args, Some(&input));
    assert_eq!(code(&out), 0, "{flags:?}: {}", stderr(&out));
    let lines = json_lines(&out);
    let printed: Vec<u64> = lines.iter().map(|l| l["solutions"].as_u64().unwrap()).collect();
    assert_eq!(printed, counts, "{flags:?}");
    lines.iter().map(|l| l[field].as_u64().unwrap_or(0)).sum()
}

/// Branching on places, chosen for every order, alone and with restarts: the same
/// counts, and some decisions were on places.
#[test]
fn count_with_branching_on_places_stays_exact() {
    for flags in [
        &["--branching", "places"][..],
        &["--branching", "places", "--restarts", "luby:3"],
    ] {
        let on_places = count_sample_summing(flags, "place_decisions");
        assert!(on_places > 0, "{flags:?}: some decisions were on places");
    }
}

/// From 25x25 up the default branches on places; `--branching variables` turns it off.
/// (A sample puzzle with its first 100 givens blanked: several solutions, and decisions.)
#[test]
fn default_branching_is_on_places_from_25x25_up() {
    let puzzle = good(&text("generated-25x25-375-sample.txt")).remove(0).1;
    let mut line: Vec<char> = puzzle.to_string().chars().collect();
    for c in line.iter_mut().filter(|c| **c != '.').take(100) {
        *c = '.';
    }
    let input: String = line.into_iter().chain(['\n']).collect();
    let decisions = |extra: &[&str]| {
        let mut args = vec!["sudoku", "count", "--limit", "2", "--format", "json"];
        args.extend_from_slice(extra);
        let out = run(&args, Some(&input));
        assert_eq!(code(&out), 0, "{extra:?}: {}", stderr(&out));
        let line = &json_lines(&out)[0];
        assert_eq!(line["solutions"], 2, "{extra:?}");
        line["place_decisions"].as_u64().unwrap_or(0)
    };
    assert!(decisions(&[]) > 0);
    assert_eq!(decisions(&["--branching", "variables"]), 0);
}

/// Restarts after a few nodes each: the nogoods they record keep every count exact,
/// for the default strategy and for the textbook pairwise model under forward checking.
#[test]
fn count_with_restarts_stays_exact() {
    for flags in [
        &["--restarts", "luby:3"][..],
        &[
            "--restarts",
            "luby:3",
            "--model",
            "pairwise",
            "--var",
            "mrv",
            "--inference",
            "fc",
        ],
    ] {
        let restarts = count_sample_summing(flags, "restarts");
        assert!(restarts > 0, "{flags:?}: the runs restarted");
    }
    let out = csp(&["sudoku", "count", "--restarts", "often", &path("4x4.txt")]);
    assert_eq!(code(&out), 2, "a bad policy is a usage error");
    assert!(
        stderr(&out).contains("unknown restart policy"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn count_with_limit_2_checks_uniqueness() {
    let (input, counts) = counted_sample();
    let out = run(&["sudoku", "count", "--limit", "2"], Some(&input));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let printed: Vec<u64> = stdout(&out).lines().map(|l| l.parse().unwrap()).collect();
    let capped: Vec<u64> = counts.iter().map(|&c| c.min(2)).collect();
    assert_eq!(printed, capped);

    let out = run(
        &["sudoku", "count", "--limit", "2", "--format", "json"],
        Some(&input),
    );
    assert_eq!(code(&out), 0);
    let records = json_lines(&out);
    assert_eq!(records.len(), counts.len());
    for (i, (record, &expected)) in records.iter().zip(&counts).enumerate() {
        assert_eq!(record["line"], i as u64 + 1);
        assert_eq!(record["solutions"], expected.min(2), "{record}");
        let status = match expected {
            0 => "unsatisfiable",
            1 => "solved",
            _ => "capped",
        };
        assert_eq!(record["status"], status, "{record}");
        assert!(record["nodes"].is_u64(), "{record}");
        assert!(
            record["elapsed_ms"].as_f64().is_some_and(|ms| ms >= 0.0),
            "{record}"
        );
    }
}

#[test]
fn count_json_reports_exact_counts_and_limits() {
    let (input, counts) = counted_sample();
    let out = run(
        &[
            "sudoku",
            "count",
            "--format",
            "json",
            "--model",
            "pairwise",
            "--inference",
            "mac",
        ],
        Some(&input),
    );
    assert_eq!(code(&out), 0);
    let records = json_lines(&out);
    let found: Vec<u64> = records.iter().map(|r| r["solutions"].as_u64().unwrap()).collect();
    assert_eq!(found, counts);

    // Counting the empty 9x9 grid stops at the node limit: status `limit`, exit 1.
    let empty = format!("{}\n", ".".repeat(81));
    let out = run(
        &["sudoku", "count", "--node-limit", "200", "--format", "json"],
        Some(&empty),
    );
    assert_eq!(code(&out), 1);
    let records = json_lines(&out);
    assert_eq!(records[0]["status"], "limit", "{}", records[0]);
    assert!(records[0]["nodes"].as_u64().unwrap() <= 200);
    let out = run(&["sudoku", "count", "--node-limit", "200"], Some(&empty));
    assert!(stdout(&out).starts_with("# line 1: limit"), "{}", stdout(&out));
    assert_eq!(code(&out), 1);
}

// ---------------------------------------------------------------------------------------------
// compare

const STRATEGIES: &str = "static/asc/none,mrv/lcv/fc";
const MODELS: &str = "pairwise,alldiff-gac";
const CONTENDERS: [&str; 4] = [
    "pairwise:static/asc/none",
    "pairwise:mrv/lcv/fc",
    "alldiff-gac:static/asc/none",
    "alldiff-gac:mrv/lcv/fc",
];

/// A tiny puzzle file: two 4x4 puzzles and s2.
fn tiny(dir: &TempDir) -> String {
    let lines: Vec<String> = good(&text("4x4.txt"))[..2]
        .iter()
        .map(|(_, g)| g.to_string())
        .collect();
    dir.file(
        "tiny.txt",
        &format!("# tiny\n{}\n1.34.4...32.2.4.\n", lines.join("\n")),
    )
}

fn compare(file: &str, format: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "sudoku",
        "compare",
        file,
        "--strategies",
        STRATEGIES,
        "--models",
        MODELS,
        "--format",
        format,
    ];
    args.extend_from_slice(extra);
    csp(&args)
}

#[test]
fn compare_table_has_a_row_per_contender() {
    let dir = TempDir::new("table");
    let out = compare(&tiny(&dir), "table", &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let output = stdout(&out);
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines.len(), 1 + CONTENDERS.len(), "{output}");
    assert!(
        lines[0].contains("strategy") && lines[0].contains("nodes"),
        "{output}"
    );
    for (line, contender) in lines[1..].iter().zip(CONTENDERS) {
        assert!(line.starts_with(contender), "{line}");
        assert!(line.contains("3/3"), "{line}");
    }
}

#[test]
fn compare_csv_and_json_agree_with_solve() {
    let dir = TempDir::new("csv-json");
    let file = tiny(&dir);
    let out = compare(&file, "csv", &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let output = stdout(&out);
    let lines: Vec<&str> = output.lines().collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    assert_eq!(
        &header[..6],
        ["model", "strategy", "puzzles", "solved", "unsatisfiable", "limit"]
    );
    assert!(header.contains(&"nodes_mean") && header.contains(&"nodes_max"));
    assert_eq!(lines.len(), 1 + CONTENDERS.len());
    for (line, contender) in lines[1..].iter().zip(CONTENDERS) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), header.len(), "{line}");
        assert_eq!(format!("{}:{}", fields[0], fields[1]), contender);
        assert_eq!(&fields[2..6], ["3", "3", "0", "0"], "{line}");
    }

    // The JSON figures, under either branching, are those of `solve` with the same flags.
    // Places need inference: contenders without it are refused, as `solve` refuses them.
    check_compare_json_against_solve(&file, "variables", &CONTENDERS);
    let refused = compare(&file, "json", &["--branching", "places"]);
    assert_eq!(code(&refused), 2);
    assert!(
        stderr(&refused).contains("--branching places needs inference fc or mac"),
        "{}",
        stderr(&refused)
    );
    check_compare_json_against_solve(&file, "places", &[CONTENDERS[1], CONTENDERS[3]]);
}

fn check_compare_json_against_solve(file: &str, branching: &str, contenders: &[&str]) {
    // Each model runs every strategy: the strategies of the contenders, once each.
    let mut strategies: Vec<&str> = Vec::new();
    for contender in contenders {
        let strategy = contender.split_once(':').unwrap().1;
        if !strategies.contains(&strategy) {
            strategies.push(strategy);
        }
    }
    let strategies = strategies.join(",");
    let args = [
        "sudoku",
        "compare",
        file,
        "--strategies",
        &strategies,
        "--models",
        MODELS,
        "--format",
        "json",
        "--branching",
        branching,
    ];
    let out = csp(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let summaries: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let summaries = summaries.as_array().unwrap();
    assert_eq!(summaries.len(), contenders.len());
    for (summary, &contender) in summaries.iter().zip(contenders) {
        assert_eq!(summary["contender"], contender);
        assert_eq!(
            (summary["puzzles"].as_u64(), summary["solved"].as_u64()),
            (Some(3), Some(3))
        );
        assert_eq!(summary["limit"], 0);
        // The node figures are those of `solve` with the same model and strategy.
        let (model, strategy) = contender.split_once(':').unwrap();
        let [var, val, inference]: [&str; 3] = strategy.split('/').collect::<Vec<_>>().try_into().unwrap();
        let model_flags: &[&str] = match model {
            "pairwise" => &["--model", "pairwise"],
            _ => &["--alldiff", "gac"],
        };
        let mut args = vec![
            "sudoku",
            "solve",
            file,
            "--format",
            "json",
            "--branching",
            branching,
            "--var",
            var,
            "--val",
            val,
            "--inference",
            inference,
        ];
        args.extend_from_slice(model_flags);
        let nodes: Vec<u64> = json_lines(&csp(&args))
            .iter()
            .map(|r| r["nodes"].as_u64().unwrap())
            .collect();
        let mean = nodes.iter().sum::<u64>() as f64 / nodes.len() as f64;
        assert!(
            (summary["nodes_mean"].as_f64().unwrap() - mean).abs() < 1e-9,
            "{branching}: {summary} vs {nodes:?}"
        );
        assert_eq!(
            summary["nodes_max"],
            *nodes.iter().max().unwrap(),
            "{branching}: {summary}"
        );
    }
}

#[test]
fn compare_svg_to_an_unwritable_path_fails_before_running() {
    let dir = TempDir::new("svg-missing-dir");
    let svg = dir.0.join("no-such-dir").join("chart.svg");
    let out = compare(&tiny(&dir), "table", &["--svg", svg.to_str().unwrap()]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
    assert!(stderr(&out).contains("chart.svg"), "{}", stderr(&out));
    assert_eq!(stdout(&out), "", "no strategy ran");
}

#[test]
fn compare_svg_writes_a_chart() {
    let dir = TempDir::new("svg");
    let svg = dir.0.join("chart.svg");
    let out = compare(&tiny(&dir), "table", &["--svg", svg.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let chart = std::fs::read_to_string(&svg).expect("the chart was written");
    assert!(chart.starts_with("<svg"), "{chart}");
    assert!(chart.trim_end().ends_with("</svg>"));
    for contender in CONTENDERS {
        assert!(chart.contains(contender), "{contender} in the chart");
    }
    assert_eq!(
        stdout(&out).lines().count(),
        1 + CONTENDERS.len(),
        "the table is still printed"
    );
}

// ---------------------------------------------------------------------------------------------
// Unusual and bad input

#[test]
fn byte_order_mark_and_any_line_ends_are_read() {
    let puzzle = text("seeds.txt")
        .lines()
        .find(|l| !l.starts_with('#'))
        .unwrap()
        .to_string();
    for input in [
        format!("\u{feff}{puzzle}\n{puzzle}\n"),
        format!("{puzzle}\r\n{puzzle}\r\n"),
        format!("{puzzle}\r{puzzle}\r"),
        format!("\u{feff}# comment\r\n{puzzle}\r\n\r\n{puzzle}"),
    ] {
        let out = run(&["sudoku", "solve"], Some(&input));
        assert_eq!(code(&out), 0, "{input:?}: {}", stdout(&out));
        let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
        assert_eq!(lines, [printed_solution(), printed_solution()], "{input:?}");
    }
    // A grid with CRLF line ends and a byte-order mark.
    let grid = format!("\u{feff}{}", text("seed000.txt").replace('\n', "\r\n"));
    let out = run(&["sudoku", "solve"], Some(&grid));
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(stdout(&out).trim(), printed_solution());
}

#[test]
fn empty_input_is_an_error_not_zero_puzzles_solved() {
    for input in ["", "\n\n", "# only\n   # comments\n", "\u{feff}"] {
        for command in [
            &["solve"][..],
            &["count"],
            &["rate"],
            &["solve", "--input", "lines"],
        ] {
            let out = run(&[&["sudoku"], command].concat(), Some(input));
            assert_eq!(code(&out), 1, "{command:?} {input:?}");
            assert!(
                stdout(&out).starts_with("# line 1: error: no puzzle found"),
                "{command:?} {input:?}: {}",
                stdout(&out)
            );
        }
        let out = run(&["sudoku", "solve", "--format", "json"], Some(input));
        assert_eq!(code(&out), 1);
        let records = json_lines(&out);
        assert_eq!(records.len(), 1, "{input:?}");
        assert_eq!(records[0]["status"], "error");
        assert!(records[0]["error"].as_str().unwrap().contains("no puzzle found"));
    }
}

#[test]
fn a_grid_with_a_mistake_is_reported_once_at_its_line_and_column() {
    let grid = text("seed000.txt");
    let lines: Vec<&str> = grid.lines().collect();
    let with_line = |n: usize, row: &str| {
        let mut rows = lines.clone();
        rows[n - 1] = row;
        rows.join("\n") + "\n"
    };
    assert_eq!(lines[4].trim(), "? 9 ? 2 3 4 ? 7 ?");
    assert_eq!(lines[0].trim(), "? ? 8 ? ? ? 1 5 ?");
    for (input, message) in [
        (
            with_line(5, "     ? 9 ? 2 3 4 ? X ?"),
            "line 5, column 20: `X` is out of range",
        ),
        (
            with_line(5, "     ? 9 ? 2 3 4 ? ! ?"),
            "line 5, column 20: `!` is not a cell symbol",
        ),
        (
            with_line(1, "     ! ? 8 ? ? ? 1 5 ?"),
            "line 1, column 6: `!` is not a cell symbol",
        ),
        (
            with_line(5, "     ? 9 ? 2 3 4 ? 7 9"),
            "line 5, column 22: 9 appears twice",
        ),
        (
            with_line(5, "     ? 9 ? 2 3 4 ? 7"),
            "line 5: a row of 8 cells, expected 9",
        ),
        (lines[..8].join("\n"), "line 1: found 72 cells"),
    ] {
        let out = run(&["sudoku", "solve"], Some(&input));
        assert_eq!(code(&out), 1, "{message}");
        let output = stdout(&out);
        assert_eq!(output.lines().count(), 1, "one error for the grid: {output}");
        // The mistake's own line and column, and no other location.
        let (place, what) = message.split_once(": ").unwrap();
        assert!(
            output.starts_with(&format!("# {place}: error: {what}")),
            "{message}: {output}"
        );
        let out = run(&["sudoku", "hint"], Some(&input));
        assert_eq!(code(&out), 1);
        assert!(stdout(&out).contains(message), "{message}: {}", stdout(&out));
    }
    // A file of puzzle lines whose first line is bad is still read line by line.
    let input = format!("..8...15.\n{}", text("seeds.txt"));
    let out = run(&["sudoku", "solve"], Some(&input));
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out).lines().count(), good(&input).len() + 1);
    // So is a file of bad puzzle lines only, even when it starts with a short line.
    let input = format!("..8...15.\n{}\n{}\n", "1".repeat(80), ".".repeat(82));
    let out = run(&["sudoku", "solve"], Some(&input));
    assert_eq!(code(&out), 1);
    let output = stdout(&out);
    for expected in [
        "# line 1: error: 9 cells make a 3x3 board",
        "# line 2: error: found 80 cells",
        "# line 3: error: found 82 cells",
    ] {
        assert!(output.contains(expected), "{expected}: {output}");
    }
}

#[test]
fn a_bad_number_is_named_with_its_column() {
    let row = "1 0 0 0 0 0 0 0 0 0 0 0 0 0 0";
    for (last, message) in [
        ("x2", "line 1, column 31: `x2` is not a cell symbol"),
        ("1.5", "line 1, column 31: `1.5` is not a cell symbol"),
        ("-1", "line 1, column 31: `-1` is read as a negative number"),
        ("+3", "line 1, column 31: `+3` is not a cell symbol"),
        ("5", "line 1, column 31: `5` is out of range for a 4x4 board"),
        (
            "99999999999999999999",
            "line 1, column 31: `99999999999999999999` is out of range",
        ),
    ] {
        let input = format!("{row} {last}\n");
        let out = run(&["sudoku", "solve"], Some(&input));
        assert_eq!(code(&out), 1, "{input}: {}", stdout(&out));
        let (place, what) = message.split_once(": ").unwrap();
        assert!(
            stdout(&out).starts_with(&format!("# {place}: error: {what}")),
            "{message}: {}",
            stdout(&out)
        );
    }
    // Signs are no part of a blank or a value in line format either.
    let puzzle = format!("-{}", &text("4x4.txt")[1..16]);
    let out = run(&["sudoku", "solve"], Some(&puzzle));
    assert_eq!(code(&out), 1);
}

#[test]
fn invisible_characters_are_shown_escaped() {
    let puzzle = printed_solution();
    for (symbol, shown) in [
        ("\u{200b}", "`\\u{200b}`"),
        ("\u{1}", "`\\u{1}`"),
        ("\u{feff}", "`\\u{feff}`"),
    ] {
        let input = format!("{}{symbol}{}\n", &puzzle[..40], &puzzle[41..]);
        let out = run(&["sudoku", "solve"], Some(&input));
        assert_eq!(code(&out), 1);
        assert!(
            stdout(&out).starts_with(&format!(
                "# line 1, column 41: error: {shown} is not a cell symbol"
            )),
            "{}",
            stdout(&out)
        );
    }
}

#[test]
fn missing_files_and_directories_are_usage_errors() {
    let dir = TempDir::new("missing");
    let missing = dir.0.join("no-such-file.txt");
    let missing = missing.to_string_lossy();
    let directory = dir.0.to_string_lossy();
    for command in ["solve", "count", "rate", "hint", "compare"] {
        for file in [&*missing, &*directory] {
            let out = csp(&["sudoku", command, file]);
            assert_eq!(code(&out), 2, "{command} {file}: {}", stderr(&out));
            assert!(stdout(&out).is_empty());
            assert!(
                stderr(&out).contains(&format!("cannot read {file}")),
                "{}",
                stderr(&out)
            );
        }
    }
}

#[test]
fn closed_output_streams_do_not_panic() {
    let input = text("top95-sample.txt").repeat(50);
    for (command, closed) in [
        (&["sudoku", "solve"][..], "stdout"),
        (&["sudoku", "solve"], "stderr"),
        (&["sudoku", "solve", "--format", "json", "-j", "2"], "stdout"),
        (&["sudoku", "count", "--limit", "2"], "stderr"),
        (&["sudoku", "rate"], "stderr"),
        (&["sudoku", "solve", "--timeout", "1e300"], "stderr"),
    ] {
        // One output is a pipe closed before the program writes anything (it waits for its
        // input), the other is discarded.
        let (stdout, stderr) = match closed {
            "stdout" => (Stdio::piped(), Stdio::null()),
            _ => (Stdio::null(), Stdio::piped()),
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_csp"))
            .args(command)
            .stdin(Stdio::piped())
            .stdout(stdout)
            .stderr(stderr)
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        drop(child.stderr.take());
        let mut pipe = child.stdin.take().unwrap();
        let _ = pipe.write_all(input.as_bytes());
        drop(pipe);
        let status = child.wait().unwrap();
        assert_ne!(
            status.code(),
            Some(101),
            "{command:?} with {closed} closed panicked"
        );
        assert!(status.code().is_some(), "{command:?}: {status}");
    }
}

#[test]
fn counts_on_threads_are_the_sequential_counts() {
    for file in ["top95-sample.txt", "janko-16x16-sample.txt", "counts-sample.txt"] {
        let path = path(file);
        let run = |threads: &str| {
            let out = csp(&[
                "sudoku",
                "count",
                "--limit",
                "3",
                "--threads",
                threads,
                "--format",
                "json",
                &path,
            ]);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8(out.stdout)
                .unwrap()
                .lines()
                .map(|l| {
                    let v: Value = serde_json::from_str(l).unwrap();
                    (v["line"].clone(), v["status"].clone(), v["solutions"].clone())
                })
                .collect::<Vec<_>>()
        };
        let one = run("1");
        assert!(!one.is_empty());
        assert_eq!(run("3"), one, "{file}");
    }
}
