//! The `csp` program under careless or hostile use: pipes and FIFOs, closed outputs,
//! signals, endless and huge lines, and messages a user can act on. Each test names the
//! finding of the reliability report it holds to.

use crate::common::{TempDir, code, run, stderr, stdout};

/// `count` solved 9x9 lines (distinct puzzles: a row pattern shifted per puzzle, with a
/// few cells blanked).
fn nine_by_nine(count: usize) -> String {
    let mut text = String::new();
    for k in 0..count {
        for r in 0..9 {
            for c in 0..9 {
                let v = (3 * (r % 3) + r / 3 + c + k) % 9 + 1;
                let blank = (r * 9 + c + k) % 5 == 0;
                text.push(if blank { '.' } else { char::from(b'0' + v as u8) });
            }
        }
        text.push('\n');
    }
    text
}

/// A 36x36 puzzle in numbers format on one line: a full grid with every seventh cell blank.
fn thirty_six() -> String {
    let (n, side) = (6, 36);
    let mut cells = Vec::new();
    for r in 0..side {
        for c in 0..side {
            let v = (n * (r % n) + r / n + c) % side + 1;
            cells.push(if (r * side + c) % 7 == 0 {
                ".".to_string()
            } else {
                v.to_string()
            });
        }
    }
    cells.join(" ")
}

// ---------------------------------------------------------------------------------------------
// I15: one line per solution at every order

#[test]
fn large_solutions_are_one_line_each_and_read_back_as_a_batch() {
    let input = format!("{}\n{}\n", thirty_six(), thirty_six());
    let out = run(&["sudoku", "solve"], Some(&input));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let solutions = stdout(&out);
    assert_eq!(solutions.lines().count(), 2, "one line per puzzle");
    // The output is a file of puzzles again: every line is read back as a solved grid.
    let again = run(&["sudoku", "solve"], Some(&solutions));
    assert_eq!(stdout(&again), solutions);
    let json = run(&["sudoku", "solve", "--format", "json"], Some(&input));
    for line in stdout(&json).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(!v["solution"].as_str().unwrap().contains('\n'));
    }
    // The grid format stays a grid.
    let grid = run(&["sudoku", "solve", "--format", "grid"], Some(&input));
    assert!(stdout(&grid).lines().count() > 72);
}

// ---------------------------------------------------------------------------------------------
// S4: a closed pipe ends every command quietly

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    let dir = TempDir::new("closed-pipe");
    let puzzles = dir.file("puzzles.txt", &nine_by_nine(3000));
    let commands: [&[&str]; 6] = [
        &["queens", "local", "200000"],
        &["queens", "solve", "2000"],
        &["sudoku", "hint", &puzzles],
        &["sudoku", "solve", &puzzles],
        &["sudoku", "rate", &puzzles],
        &["sudoku", "generate", "--count", "100000", "--order", "2"],
    ];
    for args in commands {
        let out = with_reader_gone(args, &[]);
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("error:"), "{args:?}: {}", stderr(&out));
    }
}

/// Runs `csp` with `env`, its standard output a pipe whose reader is gone before the program
/// starts: its first write finds it gone, whatever the load on the machine (closing the read
/// end after the start would race with the program's first writes).
#[cfg(unix)]
fn with_reader_gone(args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    use std::process::{Command, Stdio};
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let child = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.wait_with_output().unwrap()
}

/// `sudoku compare` writes each contender's row as it is done: a reader that is gone ends
/// the comparison at the next row instead of after every contender.
#[cfg(unix)]
#[test]
fn compare_stops_when_its_reader_is_gone() {
    let dir = TempDir::new("compare-pipe");
    let puzzles = dir.file("puzzles.txt", &nine_by_nine(3));
    let out = with_reader_gone(&["sudoku", "compare", &puzzles], &[("RUST_LOG", "info")]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // One info line per contender run (21 by default); the header's write finds the
    // reader gone, so none runs.
    let runs = stderr(&out)
        .lines()
        .filter(|l| l.contains(" of 3 solved"))
        .count();
    assert_eq!(runs, 0, "{}", stderr(&out));
}

// ---------------------------------------------------------------------------------------------
// I4: the fields after a puzzle (`puzzle:count[:solution]`) are checked

#[test]
fn fields_after_a_puzzle_that_are_malformed_or_wrong_get_a_warning() {
    let puzzle = nine_by_nine(1).trim_end().to_string();
    let wrong_solution = "1".repeat(81);
    let input = [
        format!("{puzzle}:abc"),
        format!("{puzzle}:1:2:3:4"),
        format!("{puzzle}:1:{wrong_solution}"),
        format!("{puzzle}:2"),
        format!("{puzzle}:1"),
    ]
    .join("\n");
    let out = run(&["sudoku", "count", "--limit", "2"], Some(&format!("{input}\n")));
    // Every puzzle is still read and counted: the fields are not needed for that.
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "1\n".repeat(5));
    let text = stderr(&out);
    let warnings: Vec<&str> = text.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 4, "{text}");
    assert!(warnings[0].starts_with("# line 1, column 83: warning: invalid count field `abc`"));
    assert!(warnings[1].starts_with("# line 2, column 85: warning: invalid solution field"));
    assert!(warnings[2].contains("line 3, column 85: warning: the solution does not solve the puzzle"));
    assert_eq!(
        warnings[3],
        "# line 4: warning: the line says 2 solutions; the puzzle has exactly 1"
    );
    // `solve` checks the fields as they are read too.
    let out = run(&["sudoku", "solve"], Some(&format!("{input}\n")));
    assert_eq!(code(&out), 0);
    assert_eq!(stderr(&out).matches("warning").count(), 3, "{}", stderr(&out));
}

// ---------------------------------------------------------------------------------------------
// I14: a pipe given as a path is read exactly once

/// Solves the puzzles written into a FIFO whose path is given to `csp`, with a
/// pseudo-terminal on standard error if asked (through `script`), and returns the lines
/// written; `None` when the terminal is asked for and `script` is missing.
#[cfg(unix)]
fn solve_through_fifo(dir: &TempDir, puzzles: &str, tty_stderr: bool) -> Option<String> {
    use std::io::Write;
    use std::process::Command;
    let fifo = dir.path("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().ok()?;
    assert!(made.success());
    let output = dir.path("out.txt");
    let writer = {
        let (fifo, puzzles) = (fifo.clone(), puzzles.to_string());
        std::thread::spawn(move || {
            let mut pipe = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
            let _ = pipe.write_all(puzzles.as_bytes());
        })
    };
    let bin = env!("CARGO_BIN_EXE_csp");
    let status = if tty_stderr {
        // `script` runs the command with a pseudo-terminal on standard error.
        let line = format!("'{bin}' sudoku solve '{fifo}' > '{output}'");
        match Command::new("script").args(["-qec", &line, "/dev/null"]).output() {
            Ok(out) => out.status,
            Err(_) => {
                // No `script` here: let the writer finish and skip the terminal case.
                let _ = std::fs::File::open(&fifo).map(|f| std::io::copy(&mut &f, &mut std::io::sink()));
                writer.join().unwrap();
                return None;
            }
        }
    } else {
        Command::new(bin)
            .args(["sudoku", "solve", &fifo])
            .stdout(std::fs::File::create(&output).unwrap())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap()
    };
    writer.join().unwrap();
    assert!(status.success(), "{status}");
    std::fs::remove_file(&fifo).unwrap();
    Some(std::fs::read_to_string(&output).unwrap())
}

#[cfg(unix)]
#[test]
fn a_fifo_is_read_once_with_or_without_a_terminal() {
    let dir = TempDir::new("fifo");
    let puzzles = nine_by_nine(2000);
    let plain = solve_through_fifo(&dir, &puzzles, false).expect("mkfifo works");
    assert_eq!(plain.lines().count(), 2000);
    assert!(!plain.contains('#'), "every puzzle solved");
    // With a terminal on standard error the progress bar must not drain the FIFO.
    if let Some(on_terminal) = solve_through_fifo(&dir, &puzzles, true) {
        assert_eq!(on_terminal, plain);
    }
}

// ---------------------------------------------------------------------------------------------
// I8-I12: line-format input keeps memory flat whatever arrives

#[test]
fn a_line_longer_than_any_puzzle_is_reported_and_the_batch_goes_on() {
    let good = nine_by_nine(2);
    let (first, second) = good.split_once('\n').unwrap();
    let input = format!("{first}\n{}\n{second}", ".".repeat(200_000));
    for mode in ["auto", "lines"] {
        let out = run(&["sudoku", "solve", "--input", mode], Some(&input));
        assert_eq!(code(&out), 1);
        let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert_eq!(
            lines[1],
            "# line 2: error: longer than any puzzle (more than 65536 bytes)"
        );
        assert!(!lines[0].starts_with('#') && !lines[2].starts_with('#'));
    }
    // Without a line end at all.
    let out = run(&["sudoku", "solve"], Some(&"0".repeat(100_000)));
    assert!(stdout(&out).starts_with("# line 1: error: longer than any puzzle"));
}

#[test]
fn a_bad_first_line_does_not_make_the_rest_a_grid() {
    // The first line could be the row of a grid; the second cannot, so the input is lines.
    let input = format!("bad line\n{}", nine_by_nine(500));
    let out = run(&["sudoku", "solve"], Some(&input));
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 501);
    assert!(text.starts_with("# line 1: error: found 7 cells"));
    assert_eq!(text.matches('#').count(), 1);
    // Rows of a grid after comments are still one grid, with lines counted from the file.
    let grid = "# a grid\n\n1 . 3 .\n. . 1 .\n. 1 . .\n4 . . 1\n";
    let out = run(&["sudoku", "solve"], Some(grid));
    assert_eq!((code(&out), stdout(&out).lines().count()), (0, 1));
    let wrong = grid.replace("4 . . 1", "4 . . 4");
    let out = run(&["sudoku", "solve"], Some(&wrong));
    assert!(
        stdout(&out).starts_with("# line 6, column 7: error: 4 appears twice"),
        "{}",
        stdout(&out)
    );
}

// ---------------------------------------------------------------------------------------------
// S1, S2: a signal stops a batch, and every answer found is kept

/// Waits up to `seconds` for `done` to hold.
fn wait_for(seconds: u64, mut done: impl FnMut() -> bool) -> bool {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while std::time::Instant::now() < end {
        if done() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    done()
}

#[cfg(unix)]
#[test]
fn a_signal_stops_a_batch_and_every_answer_found_is_written() {
    use std::process::{Command, Stdio};
    let dir = TempDir::new("signal");
    // Five puzzles counted at once, then empty grids whose count takes minutes.
    let input = format!("{}{}", nine_by_nine(5), format!("{}\n", ".".repeat(81)).repeat(3));
    let puzzles = dir.file("puzzles.txt", &input);
    for (signal, exit, jobs) in [("INT", 130, "1"), ("TERM", 143, "1"), ("INT", 130, "2")] {
        let output = dir.path(&format!("{signal}-{jobs}.txt"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_csp"))
            .args(["sudoku", "count", &puzzles, "--limit", "1000000000", "-j", jobs])
            .stdout(std::fs::File::create(&output).unwrap())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The answers found are in the file about a second later, long before the end (S2).
        let lines = || std::fs::read_to_string(&output).unwrap().lines().count();
        assert!(wait_for(20, || lines() == 5), "{} lines", lines());
        let killed = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let mut done = None;
        assert!(wait_for(20, || {
            done = child.try_wait().unwrap();
            done.is_some()
        }));
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(exit));
        let written = std::fs::read_to_string(&output).unwrap();
        let lines: Vec<&str> = written.lines().collect();
        // The five answers, then the counts in progress stopped as at a limit (one per
        // worker at most), nothing more.
        let workers: usize = jobs.parse().unwrap();
        assert!((6..=5 + workers).contains(&lines.len()), "{written}");
        assert!(lines[..5].iter().all(|l| *l == "1"), "{written}");
        assert!(lines[5].starts_with("# line 6: limit: cancelled"), "{written}");
        assert!(
            lines[5..].iter().all(|l| l.contains("limit: cancelled")),
            "{written}"
        );
        let summary = stderr(&out);
        assert!(
            summary.contains(&format!("interrupted by SIG{signal}")),
            "{summary}"
        );
        let counted = format!("{} puzzles: 5 counted", lines.len());
        assert!(summary.contains(&counted), "{summary}");
    }
}

/// `/dev/zero` (I9): its first line is reported at once, and past 64 MiB without a line
/// end the input is given up, with exit 1, in every command that reads puzzles.
#[cfg(unix)]
#[test]
fn an_endless_line_is_reported_at_once_and_the_input_given_up() {
    for command in ["solve", "count", "rate", "hint", "compare"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_csp"))
            .args(["sudoku", command, "/dev/zero"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert!(
            stderr(&out).contains("line 1: no line end within 64 MiB"),
            "{command}: {}",
            stderr(&out)
        );
        if command == "solve" {
            assert_eq!(
                stdout(&out),
                "# line 1: error: longer than any puzzle (more than 65536 bytes)\n"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// G2, G3, G5, G6, I13: messages and exit codes

/// Runs `csp` and returns its exit code and standard error.
fn refused(args: &[&str]) -> (i32, String) {
    let out = run(args, Some(""));
    (code(&out), stderr(&out))
}

#[test]
fn bad_values_are_usage_errors_that_say_what_is_wrong() {
    let seeds = crate::common::data("seeds.txt");
    let cases: [(&[&str], &str); 17] = [
        // A negative value is the flag's value, not another flag.
        (
            &["queens", "solve", "8", "--var", "-1"],
            "invalid value '-1' for '--var <ORDER>': unknown variable order `-1`",
        ),
        (
            &["sudoku", "solve", &seeds, "-j", "-1"],
            "--jobs <JOBS>': must be a whole number >= 0, got `-1`",
        ),
        (
            &["sudoku", "generate", "--clues", "-1"],
            "--clues <C>': must be a whole number >= 0, got `-1`",
        ),
        (
            &["count", &seeds, "--limit", "-1"],
            "--limit <K>': must be a whole number >= 0, got `-1`",
        ),
        (
            &[
                "sudoku",
                "compare",
                &seeds,
                "--branching",
                "places",
                "--strategies",
                "mrv/asc/none",
            ],
            "--branching places needs inference fc or mac (the contender pairwise:mrv/asc/none has none)",
        ),
        (
            &["queens", "solve", "20001"],
            "at most 20000 with systematic search; try `csp queens local`",
        ),
        (
            &["queens", "solve", "8", "--seed", "-1"],
            "--seed <S>': must be a whole number >= 0, got `-1`",
        ),
        (
            &["queens", "solve", "8", "--node-limit", "-1"],
            "must be a whole number >= 0",
        ),
        (
            &["queens", "local", "8", "--max-steps", "-1"],
            "must be a whole number >= 0",
        ),
        (
            &["queens", "local", "8", "--restart-after", "-0"],
            "must be a whole number >= 0",
        ),
        (
            &["queens", "local", "8", "--seed", "NaN"],
            "must be a whole number >= 0, got `NaN`",
        ),
        (
            &["queens", "local", "8", "--max-steps", "0"],
            "--max-steps must be at least 1",
        ),
        (
            &["sudoku", "generate", "--count", "0"],
            "--count must be at least 1",
        ),
        (
            &[
                "sudoku",
                "solve",
                &seeds,
                "--branching",
                "places",
                "--inference",
                "none",
            ],
            "--branching places needs --inference fc or mac",
        ),
        (
            &[
                "queens",
                "solve",
                "8",
                "--branching",
                "places",
                "--inference",
                "none",
            ],
            "--branching places needs --inference fc or mac",
        ),
        (
            &[
                "sudoku",
                "solve",
                &seeds,
                "--method",
                "annealing",
                "--restarts",
                "luby",
            ],
            "--branching and --restarts apply to backtracking",
        ),
        (
            &[
                "sudoku",
                "solve",
                &seeds,
                "--method",
                "min-conflicts",
                "--branching",
                "places",
            ],
            "--branching and --restarts apply to backtracking",
        ),
    ];
    for (args, message) in cases {
        let (code, text) = refused(args);
        assert_eq!(code, 2, "{args:?}: {text}");
        assert!(text.contains(message), "{args:?}: {text}");
    }
    // The pairwise model still points at the alldiff one.
    let (code, text) = refused(&["queens", "solve", "3000", "--model", "pairwise"]);
    assert_eq!(code, 2);
    assert!(text.contains("try --model alldiff"), "{text}");
}

#[test]
fn compare_exits_1_when_it_skipped_lines() {
    let input = "not a puzzle\n1.34.4...32.2.4.\n";
    let out = run(&["sudoku", "compare", "--strategies", "mrv/asc/fc"], Some(input));
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("line 1: skipped"));
    assert!(stdout(&out).contains("mrv/asc/fc"));
}

#[test]
fn queens_local_solves_every_seed_by_default() {
    let boards: [(u64, u64); 6] = [(8, 200), (6, 50), (7, 50), (9, 50), (10, 50), (12, 50)];
    for (n, seeds) in boards {
        for seed in 0..seeds {
            let (n, seed) = (n.to_string(), seed.to_string());
            let out = run(
                &[
                    "queens",
                    "local",
                    &n,
                    "--seed",
                    &seed,
                    "--max-steps",
                    "100000",
                    "--verify",
                ],
                None,
            );
            assert_eq!(code(&out), 0, "n = {n}, seed {seed}: {}", stdout(&out));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// I2, I3, I5, I6: each bad line gets a message with one location

#[test]
fn bad_lines_get_one_location_and_a_message_to_act_on() {
    let puzzle = nine_by_nine(1).trim_end().to_string();
    let with = |at: usize, odd: &str| format!("{}{odd}{}", &puzzle[..at], &puzzle[at + 1..]);
    let cases = [
        // I2: separators only.
        ("|||---+++".to_string(), "# line 1: error: no cells on this line"),
        ("()".to_string(), "# line 1: error: no cells on this line"),
        ("'".to_string(), "# line 1: error: no cells on this line"),
        // I5: odd white space is named at its column.
        (
            with(10, "\u{b}"),
            "# line 1, column 11: error: `\\u{b}` is not a cell symbol",
        ),
        (
            with(10, "\u{c}"),
            "# line 1, column 11: error: `\\u{c}` is not a cell symbol",
        ),
        (
            with(10, "\u{a0}"),
            "# line 1, column 11: error: `\\u{a0}` is not a cell symbol",
        ),
        // I3: a sign only before a number that stands alone.
        (
            format!("1 2 3 4 -4 {}", ". ".repeat(11)),
            "# line 1, column 9: error: `-4` is read as a negative number",
        ),
    ];
    for (line, expected) in cases {
        let out = run(&["sudoku", "solve"], Some(&format!("{line}\n")));
        assert_eq!(code(&out), 1, "{line}");
        assert!(stdout(&out).starts_with(expected), "{line}: {}", stdout(&out));
    }
    // I3: `-` and `+` separate cells in line format, also between cells and before a
    // digit (`-8` inside `.....-8-.5`).
    let plain = run(&["sudoku", "solve"], Some(&format!("{puzzle}\n")));
    let separated: Vec<String> = puzzle.chars().map(String::from).collect();
    for line in [
        format!("+-{puzzle}-+"),
        separated.join("-"),
        separated.join("+"),
        format!("{}-{}", &puzzle[..6], &puzzle[6..]),
    ] {
        let out = run(&["sudoku", "solve"], Some(&format!("{line}\n")));
        assert_eq!(code(&out), 0, "{line}: {}", stdout(&out));
        assert_eq!(stdout(&out), stdout(&plain), "{line}");
    }
    // I6: a grid's mistake is named at its own line only.
    let grid = "1 . 3 .\n. . 1 .\n. 1 . .\n4 . . 4\n";
    for command in ["solve", "count", "rate"] {
        let out = run(&["sudoku", command], Some(grid));
        let text = stdout(&out);
        assert!(
            text.starts_with("# line 4, column 7: error: 4 appears twice"),
            "{command}: {text}"
        );
        assert_eq!(text.matches("line ").count(), 1, "{command}: {text}");
    }
}

// ---------------------------------------------------------------------------------------------
// L7: hint, rate and generate take --timeout

#[test]
fn hint_rate_and_generate_stop_at_their_timeout() {
    // No solution, found after a few hundred nodes: more than one check interval.
    let hard = ".......8...6.8.1..7....3..2.47..5...5..32............53....4..7......9...1.9...6.\n";
    let tiny = "0.000000001";
    let out = run(&["sudoku", "hint", "--timeout", tiny], Some(hard));
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).starts_with("no hint: time limit reached"),
        "{}",
        stdout(&out)
    );
    let out = run(&["sudoku", "rate", "--timeout", tiny], Some(hard));
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains("not rated: time limit reached"),
        "{}",
        stdout(&out)
    );
    // Without the limit both finish and find the grid wrong.
    let out = run(&["sudoku", "hint"], Some(hard));
    assert!(stdout(&out).starts_with("wrong entry"), "{}", stdout(&out));
    let out = run(&["sudoku", "generate", "--order", "4", "--timeout", tiny], None);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("puzzle 1: not made within --timeout"),
        "{}",
        stderr(&out)
    );
    // A generous limit changes nothing.
    let unlimited = run(&["sudoku", "generate", "--count", "3", "--seed", "3"], None);
    let limited = run(
        &[
            "sudoku",
            "generate",
            "--count",
            "3",
            "--seed",
            "3",
            "--timeout",
            "60",
        ],
        None,
    );
    assert_eq!(stdout(&limited), stdout(&unlimited));
}

/// A batch waiting for its next line is ended two seconds after a signal, with what it
/// found written. `timeout` signals the program and then its process group, so the same
/// SIGTERM comes twice: a second signal soon after the first is that same request, and
/// only one half a second or more later ends the program at once (without the watchdog's
/// message).
#[cfg(unix)]
#[test]
fn a_signal_ends_a_batch_that_waits_for_input() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::time::Duration;
    for (second_after, at_once) in [(None, false), (Some(100), false), (Some(800), true)] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_csp"))
            .args(["sudoku", "solve"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // One puzzle, and the pipe stays open: the batch waits for the next line.
        let mut input = child.stdin.take().unwrap();
        input.write_all(b"1.34.4...32.2.4.\n").unwrap();
        input.flush().unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let kill = || {
            let killed = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status()
                .unwrap();
            assert!(killed.success());
        };
        kill();
        if let Some(ms) = second_after {
            std::thread::sleep(Duration::from_millis(ms));
            kill();
        }
        let mut done = None;
        assert!(wait_for(20, || {
            done = child.try_wait().unwrap();
            done.is_some()
        }));
        let out = child.wait_with_output().unwrap();
        drop(input);
        assert_eq!(out.status.code(), Some(143), "{second_after:?}");
        let watchdog = stderr(&out).contains("interrupted by SIGTERM");
        assert_eq!(watchdog, !at_once, "{second_after:?}: {}", stderr(&out));
        if !at_once {
            assert_eq!(stdout(&out), "1234341243212143\n");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Arbitrary bytes: no panic, an error with its line for each bad line, every good line answered

#[test]
fn arbitrary_bytes_get_an_error_per_line_and_the_good_lines_are_solved() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(22);
    let good = nine_by_nine(50);
    let mut bytes = Vec::new();
    let mut expected = Vec::new(); // (line, good)
    for (k, puzzle) in good.lines().enumerate() {
        let mut junk: Vec<u8> = (0..rng.random_range(1..200))
            .map(|_| rng.random::<u8>())
            .collect();
        junk.retain(|b| !matches!(b, b'\n' | b'\r'));
        // Lines that are blank or comments are no puzzles; keep the junk a puzzle line.
        junk.insert(0, b'x');
        bytes.extend_from_slice(&junk);
        bytes.push(b'\n');
        bytes.extend_from_slice(puzzle.as_bytes());
        bytes.push(b'\n');
        expected.push((2 * k + 1, false));
        expected.push((2 * k + 2, true));
    }
    let dir = TempDir::new("bytes");
    let path = dir.path("junk.txt");
    std::fs::write(&path, &bytes).unwrap();
    for format in ["line", "json"] {
        let out = run(&["sudoku", "solve", &path, "--format", format], None);
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), expected.len());
        for (printed, (line, good)) in lines.iter().zip(&expected) {
            if format == "json" {
                let v: serde_json::Value = serde_json::from_str(printed).unwrap();
                assert_eq!(v["line"], *line);
                assert_eq!(v["status"], if *good { "solved" } else { "error" }, "{printed}");
            } else if *good {
                assert!(!printed.starts_with('#'), "{printed}");
            } else {
                let at = format!("# line {line}");
                assert!(
                    printed.starts_with(&at) && printed.contains(": error: "),
                    "{printed}"
                );
            }
        }
    }
}
