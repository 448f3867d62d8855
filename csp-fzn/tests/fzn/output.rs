//! The output format and the flags, as the FlatZinc specification gives them.

use std::process::Command;

use csp_fzn::{RunOptions, StrategyFlags};

use crate::run_text;

fn all() -> RunOptions {
    RunOptions {
        all: true,
        ..RunOptions::default()
    }
}

#[test]
fn the_specification_examples() {
    // "Asking for a single solution": the solution, no search-complete marker.
    assert_eq!(
        run_text(
            "var 1..3: x :: output_var;\nsolve satisfy;",
            &RunOptions::default()
        ),
        "x = 1;\n----------\n"
    );
    // All solutions: each one, then the marker.
    let fzn = "array [1..2] of var 1..3: xs :: output_array([1..2]);\nconstraint int_lt(xs[1], xs[2]);\nsolve satisfy;";
    assert_eq!(
        run_text(fzn, &all()),
        "xs = array1d(1..2, [1, 2]);\n----------\nxs = array1d(1..2, [1, 3]);\n----------\n\
         xs = array1d(1..2, [2, 3]);\n----------\n==========\n"
    );
    // Optimisation: the optimum, then the marker.
    assert_eq!(
        run_text(
            "var 1..10: x :: output_var;\nsolve maximize x;",
            &RunOptions::default()
        ),
        "x = 10;\n----------\n==========\n"
    );
    // Unsatisfiable.
    let fzn =
        "var 1..3: x :: output_var;\nvar 4..6: y :: output_var;\nconstraint int_lt(y, x);\nsolve satisfy;";
    assert_eq!(run_text(fzn, &RunOptions::default()), "=====UNSATISFIABLE=====\n");
    assert_eq!(run_text(fzn, &all()), "=====UNSATISFIABLE=====\n");
}

#[test]
fn arrays_booleans_and_constants() {
    let fzn = "var bool: b :: output_var;\nvar 0..1: i;\nvar 5..5: five :: output_var;\n\
               array [1..4] of var int: m :: output_array([0..1, 1..2]) = [i, 7, five, i];\n\
               array [1..2] of var bool: bs :: output_array([1..2]) = [b, true];\n\
               array [1..2] of int: p :: output_array([1..2]) = [3, 4];\n\
               constraint bool2int(b, i);\nsolve maximize i;";
    assert_eq!(
        run_text(fzn, &RunOptions::default()),
        "b = true;\nfive = 5;\nm = array2d(0..1, 1..2, [1, 7, 5, 1]);\nbs = array1d(1..2, [true, true]);\n\
         p = array1d(1..2, [3, 4]);\n----------\n==========\n"
    );
    let fzn = "array [1..0] of var int: e :: output_array([1..0]) = [];\nsolve satisfy;";
    assert_eq!(
        run_text(fzn, &RunOptions::default()),
        "e = array1d(1..0, []);\n----------\n"
    );
}

#[test]
fn solution_limits() {
    let fzn = "var 1..5: x :: output_var;\nsolve satisfy;";
    let two = RunOptions {
        solutions: Some(2),
        ..RunOptions::default()
    };
    assert_eq!(run_text(fzn, &two), "x = 1;\n----------\nx = 2;\n----------\n");
    let ten = RunOptions {
        solutions: Some(10),
        all: true,
        ..RunOptions::default()
    };
    assert_eq!(run_text(fzn, &ten).matches("----------").count(), 5);
    assert!(run_text(fzn, &ten).ends_with("==========\n"));
}

#[test]
fn optimisation() {
    let fzn = "array [1..3] of var 0..3: x :: output_array([1..3]);\nvar 0..20: obj :: output_var;\n\
               constraint int_lin_le([2, 3, 4], x, 10);\nconstraint int_lin_eq([3, 4, 6, -1], [x[1], x[2], x[3], obj], 0);\n\
               solve maximize obj;";
    let best = run_text(fzn, &RunOptions::default());
    assert_eq!(best.matches("----------").count(), 1, "{best}");
    assert!(
        best.contains("obj = 15;") && best.ends_with("==========\n"),
        "{best}"
    );
    // Every improving solution with -a (and -i), increasing, the last one optimal.
    for options in [
        all(),
        RunOptions {
            intermediate: true,
            ..RunOptions::default()
        },
    ] {
        let text = run_text(fzn, &options);
        let objs: Vec<i64> = text
            .lines()
            .filter_map(|l| l.strip_prefix("obj = ")?.strip_suffix(';')?.parse().ok())
            .collect();
        assert!(objs.windows(2).all(|w| w[0] < w[1]), "{text}");
        assert_eq!(objs.last(), Some(&15));
        assert!(text.ends_with("==========\n"));
    }
    // Minimisation through a defined objective without bounds.
    let fzn = "var 1..4: a :: output_var;\nvar 1..4: b :: output_var;\nvar int: cost :: is_defined_var;\n\
               constraint int_lin_eq([3, -2, -1], [a, b, cost], -20) :: defines_var(cost);\n\
               constraint int_ne(a, b);\nsolve minimize cost;";
    assert_eq!(
        run_text(fzn, &RunOptions::default()),
        "a = 1;\nb = 4;\n----------\n==========\n"
    );
    // A constant objective: the first solution is optimal.
    let fzn = "var 1..3: x :: output_var;\nsolve minimize 4;";
    assert_eq!(
        run_text(fzn, &RunOptions::default()),
        "x = 1;\n----------\n==========\n"
    );
}

#[test]
fn statistics() {
    let fzn = "var 1..3: x :: output_var;\nvar 1..3: y;\nconstraint int_lt(x, y);\nsolve satisfy;";
    let text = run_text(
        fzn,
        &RunOptions {
            stats: true,
            all: true,
            ..RunOptions::default()
        },
    );
    let stats: Vec<&str> = text.lines().skip_while(|l| *l != "==========").skip(1).collect();
    assert_eq!(stats.last(), Some(&"%%%mzn-stat-end"));
    for name in [
        "nodes",
        "failures",
        "solveTime",
        "initTime",
        "peakDepth",
        "solutions",
    ] {
        assert!(
            stats
                .iter()
                .any(|l| l.starts_with(&format!("%%%mzn-stat: {name}="))),
            "{name}: {text}"
        );
    }
    assert!(stats.contains(&"%%%mzn-stat: solutions=3"), "{text}");
}

#[test]
fn search_annotations() {
    // input_order / indomain_max: the annotated variables first, largest values first.
    let fzn = "var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\nconstraint int_ne(x, y);\n\
               solve :: int_search([y, x], input_order, indomain_max, complete) satisfy;";
    assert_eq!(
        run_text(fzn, &RunOptions::default()),
        "x = 2;\ny = 3;\n----------\n"
    );
    // -f: the annotation is ignored.
    let free = RunOptions {
        free: true,
        ..RunOptions::default()
    };
    let text = run_text(fzn, &free);
    assert!(
        ["x = 1;\ny = 2;\n----------\n", "x = 2;\ny = 1;\n----------\n"].contains(&text.as_str()),
        "{text}"
    );
    let instance = csp_fzn::Instance::from_str(
        "var 1..3: x;\nsolve :: seq_search([int_search([x], occurrence, indomain_split, complete)]) satisfy;",
    )
    .expect("read");
    assert_eq!(instance.search.notes.len(), 2, "{:?}", instance.search.notes);
    assert!(instance.search.notes[0].contains("`occurrence`"));
}

/// The program on a search that runs out of time: no half line, no marker but what the
/// specification allows, exit code 0.
#[test]
fn time_limit_and_interruption() {
    let dir = std::env::temp_dir().join(format!("csp-fzn-output-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    // Pigeons: 13 into 12 holes, pairwise, no all-different: a long search.
    let n = 13;
    let mut fzn = String::new();
    for i in 0..n {
        fzn.push_str(&format!("var 1..{}: p{i} :: output_var;\n", n - 1));
    }
    for i in 0..n {
        for j in i + 1..n {
            fzn.push_str(&format!("constraint int_ne(p{i}, p{j});\n"));
        }
    }
    fzn.push_str("solve :: int_search([p0], input_order, indomain_min, complete) satisfy;\n");
    let path = dir.join("pigeons.fzn");
    std::fs::write(&path, &fzn).expect("writing");
    let exe = env!("CARGO_BIN_EXE_fzn-csp");
    let out = Command::new(exe)
        .args(["-t", "300"])
        .arg(&path)
        .output()
        .expect("running fzn-csp");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "=====UNKNOWN=====\n");

    // SIGTERM: the best solution so far is printed.
    let mut opt = fzn.replace(
        "solve :: int_search([p0], input_order, indomain_min, complete) satisfy;\n",
        "",
    );
    opt.push_str("var 0..100: obj :: output_var;\nconstraint int_lin_eq([1, -1], [p0, obj], 0);\nsolve maximize obj;\n");
    let opt = opt.replace(&format!("constraint int_ne(p{}, p{});\n", n - 2, n - 1), "");
    let path = dir.join("pigeons-opt.fzn");
    std::fs::write(&path, &opt).expect("writing");
    // `-i` prints each better solution: the signal is sent once the first is out (the
    // handler is installed by then), not after a guess at how long that takes.
    let mut child = Command::new(exe)
        .arg("-i")
        .arg(&path)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("piped"));
    let mut text = String::new();
    while !text.ends_with("----------\n") && !text.ends_with("==========\n") {
        let read = std::io::BufRead::read_line(&mut stdout, &mut text).expect("reading");
        assert!(read > 0, "fzn-csp ended before a solution: {text}");
    }
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    std::io::Read::read_to_string(&mut stdout, &mut text).expect("reading");
    let status = child.wait().expect("waiting");
    assert_eq!(status.code(), Some(0), "{text}");
    // Either the search finished (the optimum) or the best so far, whole.
    assert!(
        text.ends_with("----------\n") || text.ends_with("==========\n"),
        "{text}"
    );
    assert!(text.contains("obj = "), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The solutions printed, as a sorted list of their texts (each `----------`-terminated).
fn printed_solutions(text: &str) -> Vec<String> {
    let mut solutions: Vec<String> = text
        .split("----------\n")
        .filter(|part| !part.is_empty() && !part.starts_with("=========="))
        .map(str::to_string)
        .collect();
    solutions.sort();
    solutions
}

#[test]
fn several_threads_print_the_same_solutions_and_optimum() {
    // Six queens, every solution, and the smallest sum of a permutation's first two values
    // under a difference constraint.
    let queens = "array [1..6] of var 1..6: q :: output_array([1..6]);\n\
        constraint csp_all_different_int(q);\n"
        .to_string()
        + &(1..=6)
            .flat_map(|i| (i + 1..=6).map(move |j| (i, j)))
            .map(|(i, j)| {
                format!(
                    "constraint int_lin_ne([1,-1],[q[{i}],q[{j}]],{d});\nconstraint int_lin_ne([1,-1],[q[{i}],q[{j}]],-{d});\n",
                    d = j - i
                )
            })
            .collect::<String>()
        + "solve satisfy;\n";
    let sequential = run_text(&queens, &all());
    assert_eq!(printed_solutions(&sequential).len(), 4);
    for threads in [2, 3, 8] {
        let options = RunOptions { threads, ..all() };
        let parallel = run_text(&queens, &options);
        assert_eq!(
            printed_solutions(&parallel),
            printed_solutions(&sequential),
            "{threads} threads"
        );
        assert!(parallel.ends_with("==========\n"), "{parallel}");
    }
    let optimise = "array [1..4] of var 1..4: x :: output_array([1..4]);\n\
        var 2..8: s :: output_var;\n\
        constraint csp_all_different_int(x);\n\
        constraint int_lin_eq([1,1,-1],[x[1],x[2],s],0);\n\
        constraint int_lin_ne([1,-1],[x[1],x[2]],1);\n\
        constraint int_lin_ne([1,-1],[x[1],x[2]],-1);\n\
        solve minimize s;\n";
    let best = |text: &str| {
        text.lines()
            .rev()
            .find(|l| l.starts_with("s = "))
            .map(str::to_string)
    };
    let sequential = run_text(optimise, &RunOptions::default());
    for threads in [2, 4] {
        let options = RunOptions {
            threads,
            ..RunOptions::default()
        };
        let parallel = run_text(optimise, &options);
        assert_eq!(best(&parallel), best(&sequential), "{threads} threads");
        assert!(parallel.ends_with("==========\n"), "{parallel}");
    }
}

/// n-queens as MiniZinc flattens the textbook model: for each pair of columns, three
/// `int_lin_ne` on the two rows (`q[i] != q[j]` and the two diagonals).
fn pairwise_queens(n: usize) -> String {
    let mut fzn = String::from("array [1..2] of int: c = [1, -1];\n");
    for i in 1..=n {
        fzn.push_str(&format!("var 1..{n}: q{i} :: output_var;\n"));
    }
    for i in 1..=n {
        for j in i + 1..=n {
            let d = (j - i) as i64;
            for k in [0, d, -d] {
                fzn.push_str(&format!("constraint int_lin_ne(c, [q{i}, q{j}], {k});\n"));
            }
        }
    }
    fzn + "solve satisfy;\n"
}

/// The `nodes` statistic of a `-s` run.
pub fn nodes_statistic(text: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix("%%%mzn-stat: nodes="))
        .unwrap_or_else(|| panic!("no nodes statistic in\n{text}"))
        .parse()
        .expect("a node count")
}

#[test]
fn strategy_flags_count_the_textbook_nodes() {
    // csp's own strategy flags replace the default strategy; on the textbook model each
    // of the 18 strategies expands the nodes `csp queens solve --model pairwise` does,
    // and finds the same first solution.
    for n in [6, 8] {
        let fzn = pairwise_queens(n);
        for strategy in csp_core::Strategy::textbook() {
            let options = RunOptions {
                stats: true,
                strategy: StrategyFlags {
                    var: Some(strategy.var_order),
                    value: Some(strategy.value_order),
                    inference: Some(strategy.inference),
                    ..StrategyFlags::default()
                },
                ..RunOptions::default()
            };
            let text = run_text(&fzn, &options);
            let queens = csp_queens::solve(
                n,
                csp_queens::Encoding::Pairwise,
                csp_core::SearchConfig::with_strategy(strategy),
            )
            .expect("queens");
            assert_eq!(
                nodes_statistic(&text),
                queens.stats.nodes,
                "{n} queens, {strategy}"
            );
            let rows = queens.rows().expect("a solution");
            for (i, row) in rows.iter().enumerate() {
                let line = format!("q{} = {};", i + 1, row + 1);
                assert!(text.contains(&line), "{n} queens, {strategy}: {line} in\n{text}");
            }
        }
    }
}

#[test]
fn search_annotations_count_the_textbook_nodes() {
    // `int_search` maps onto the same orders, with maintained arc consistency.
    let n = 8;
    let vars: Vec<String> = (1..=n).map(|i| format!("q{i}")).collect();
    for (choice, var) in [
        ("input_order", "static"),
        ("first_fail", "mrv"),
        ("most_constrained", "mrv-degree"),
    ] {
        let fzn = pairwise_queens(n).replace(
            "solve satisfy;",
            &format!(
                "solve :: int_search([{}], {choice}, indomain_min, complete) satisfy;",
                vars.join(", ")
            ),
        );
        let text = run_text(
            &fzn,
            &RunOptions {
                stats: true,
                ..RunOptions::default()
            },
        );
        let strategy = format!("{var}/asc/mac").parse().expect("a strategy");
        let queens = csp_queens::solve(
            n,
            csp_queens::Encoding::Pairwise,
            csp_core::SearchConfig::with_strategy(strategy),
        )
        .expect("queens");
        assert_eq!(nodes_statistic(&text), queens.stats.nodes, "{choice}: {text}");
    }
}

#[test]
fn strategy_flags_that_do_not_fit_are_refused() {
    // Exit code 2, before any search: backjumping does not run under maintained arc
    // consistency.
    let dir = std::env::temp_dir().join(format!("csp-fzn-flags-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("q.fzn");
    std::fs::write(&path, pairwise_queens(4)).expect("writing");
    let out = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
        .args(["--inference", "mac", "--backjump", "cbj"])
        .arg(&path)
        .output()
        .expect("running fzn-csp");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    let out = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
        .args(["-s", "--var", "static", "--val", "asc", "--inference", "none"])
        .arg(&path)
        .output()
        .expect("running fzn-csp");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let queens = csp_queens::solve(
        4,
        csp_queens::Encoding::Pairwise,
        csp_core::SearchConfig::with_strategy("static/asc/none".parse().expect("a strategy")),
    )
    .expect("queens");
    assert_eq!(nodes_statistic(&text), queens.stats.nodes, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
