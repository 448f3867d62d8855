//! `csp solve` and `csp count` on FlatZinc files: the same door as XCSP3 and DIMACS, with
//! csp's own flags, formats and exit codes. Answers are checked against `csp queens` and
//! against brute force over the file's meaning, written out here.

use crate::common::{TempDir, code, csp, json_lines, stderr, stdout};

/// n-queens as MiniZinc flattens the textbook model: three `int_lin_ne` per pair of columns.
fn queens_fzn(n: i64) -> String {
    let mut fzn = String::from("array [1..2] of int: c = [1, -1];\n");
    for i in 1..=n {
        fzn.push_str(&format!("var 1..{n}: x{i};\n"));
    }
    let xs: Vec<String> = (1..=n).map(|i| format!("x{i}")).collect();
    fzn.push_str(&format!(
        "array [1..{n}] of var int: q :: output_array([1..{n}]) = [{}];\n",
        xs.join(", ")
    ));
    for i in 1..=n {
        for j in i + 1..=n {
            for k in [0, j - i, i - j] {
                fzn.push_str(&format!("constraint int_lin_ne(c, [x{i}, x{j}], {k});\n"));
            }
        }
    }
    fzn + "solve satisfy;\n"
}

/// The rows of one `q[1]=.. q[2]=..` line.
fn rows(line: &str, n: usize) -> Vec<i64> {
    let rows: Vec<i64> = line
        .split(' ')
        .enumerate()
        .map(|(i, pair)| {
            let (name, value) = pair.split_once('=').expect("name=value");
            assert_eq!(name, format!("q[{}]", i + 1), "{line}");
            value.parse().expect("a number")
        })
        .collect();
    assert_eq!(rows.len(), n, "{line}");
    rows
}

fn is_queens_solution(rows: &[i64]) -> bool {
    (0..rows.len()).all(|i| {
        (i + 1..rows.len()).all(|j| {
            let d = (j - i) as i64;
            rows[i] != rows[j] && (rows[i] - rows[j]).abs() != d
        })
    })
}

#[test]
fn solve_and_count_read_flatzinc() {
    let dir = TempDir::new("fzn");
    for n in [4, 6, 7] {
        let file = dir.file(&format!("q{n}.fzn"), &queens_fzn(n));
        let queens = csp(&["queens", "count", &n.to_string(), "--format", "json"]);
        let expected = json_lines(&queens)[0]["solutions"].as_u64().expect("a count");
        for threads in ["1", "2"] {
            let o = csp(&["count", &file, "--threads", threads]);
            assert_eq!(code(&o), 0, "{}", stderr(&o));
            assert_eq!(
                stdout(&o).trim(),
                expected.to_string(),
                "{n} queens, {threads} threads"
            );
        }
        let o = csp(&["solve", &file, "--all"]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let all: Vec<Vec<i64>> = stdout(&o).lines().map(|l| rows(l, n as usize)).collect();
        assert_eq!(all.len() as u64, expected);
        assert!(all.iter().all(|r| is_queens_solution(r)), "{all:?}");
    }
}

#[test]
fn strategy_flags_count_the_textbook_nodes() {
    let dir = TempDir::new("fzn-nodes");
    let file = dir.file("q8.fzn", &queens_fzn(8));
    for strategy in ["static/asc/fc", "mrv/lcv/mac", "mrv-degree/asc/none"] {
        let parts: Vec<&str> = strategy.split('/').collect();
        let flags = [
            "--var",
            parts[0],
            "--val",
            parts[1],
            "--inference",
            parts[2],
            "--format",
            "json",
        ];
        let o = csp(&[&["solve", &file, "--restarts", "none"], &flags[..]].concat());
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let queens = csp(&[&["queens", "solve", "8", "--model", "pairwise"], &flags[..]].concat());
        let (ours, theirs) = (&json_lines(&o)[0], &json_lines(&queens)[0]);
        assert_eq!(ours["nodes"], theirs["nodes"], "{strategy}");
    }
}

#[test]
fn optimisation_and_unsatisfiable_files() {
    // maximize z = x * y subject to 2x + 3y <= 20, x, y in 1..9: brute force here.
    let fzn = "array [1..2] of int: c = [2, 3];\nvar 1..9: x :: output_var;\nvar 1..9: y :: output_var;\n\
               var 1..81: z :: output_var;\nconstraint int_lin_le(c, [x, y], 20);\n\
               constraint int_times(x, y, z);\nsolve maximize z;\n";
    let best = (1..=9)
        .flat_map(|x| (1..=9).map(move |y| (x, y)))
        .filter(|(x, y)| 2 * x + 3 * y <= 20)
        .map(|(x, y)| x * y)
        .max()
        .expect("a solution");
    let dir = TempDir::new("fzn-opt");
    let file = dir.file("opt.fzn", fzn);
    for threads in ["1", "2"] {
        let o = csp(&["solve", &file, "--format", "json", "--threads", threads]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let answer = &json_lines(&o)[0];
        assert_eq!(answer["status"], "optimal", "{answer}");
        assert_eq!(answer["objective"], best, "{answer}");
        let s = &answer["solution"];
        let (x, y, z) = (s["x"].as_i64(), s["y"].as_i64(), s["z"].as_i64());
        assert_eq!(x.zip(y).map(|(x, y)| x * y), z, "{answer}");
    }
    // A constraint that never holds: the model has no solution, however it is searched.
    let unsat = dir.file(
        "unsat.fzn",
        "var 1..3: x :: output_var;\nconstraint int_lt(x, 1);\nsolve satisfy;\n",
    );
    let o = csp(&["solve", &unsat, "--format", "json"]);
    assert_eq!(json_lines(&o)[0]["status"], "unsatisfiable", "{}", stdout(&o));
    let o = csp(&["count", &unsat]);
    assert_eq!(stdout(&o).trim(), "0");
}

#[test]
fn bad_files_are_named_and_the_batch_goes_on() {
    let dir = TempDir::new("fzn-bad");
    let bad = dir.file(
        "bad.fzn",
        "var 1..3: x;\nconstraint int_le(x 3);\nsolve satisfy;\n",
    );
    let float = dir.file("float.fzn", "var 1.0..3.0: f;\nsolve satisfy;\n");
    let good = dir.file(
        "good.fzn",
        "var 1..3: x :: output_var;\nconstraint int_le(x, 1);\nsolve satisfy;\n",
    );
    let model = dir.file("model.mzn", "var 1..3: x;\nsolve satisfy;\n");
    let o = csp(&["solve", &bad, &float, &model, &good, "--format", "json"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let answers = json_lines(&o);
    assert_eq!(answers.len(), 4, "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("line 2, column 21: syntax error"), "{err}");
    assert!(err.contains("line 1") && err.contains("float"), "{err}");
    assert!(err.contains("minizinc --solver csp -c"), "{err}");
    assert_eq!(answers[3]["solution"]["x"], 1, "{}", stdout(&o));
}

#[test]
fn minizinc_install_writes_what_minizinc_lists() {
    let dir = TempDir::new("mzn-install");
    let csp_exe = std::path::Path::new(env!("CARGO_BIN_EXE_csp"));
    // `cargo test --workspace` builds fzn-csp beside csp; without it, any program stands in
    // for the files' check.
    let fzn_csp = csp_exe.with_file_name(format!("fzn-csp{}", std::env::consts::EXE_SUFFIX));
    let executable = if fzn_csp.is_file() {
        fzn_csp.clone()
    } else {
        csp_exe.to_path_buf()
    };
    let target = dir.path("mzn");
    let o = csp(&[
        "minizinc",
        "install",
        "--dir",
        &target,
        "--executable",
        &executable.to_string_lossy(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let root = std::path::Path::new(&target);
    let config = std::fs::read_to_string(root.join("solvers/csp.msc")).expect("csp.msc");
    let library = root.join("csp");
    assert!(
        config.contains(&format!("\"mznlib\": \"{}\"", library.display())),
        "{config}"
    );
    assert!(
        config.contains(&format!("\"executable\": \"{}\"", executable.display())),
        "{config}"
    );
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("csp-fzn/share/minizinc/csp");
    let names = |d: &std::path::Path| {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .expect("a directory")
            .map(|e| e.expect("an entry").file_name())
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&library), names(&shipped));
    // A program that does not exist is refused.
    let o = csp(&[
        "minizinc",
        "install",
        "--dir",
        &target,
        "--executable",
        &dir.path("none"),
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));

    let minizinc = std::process::Command::new("minizinc").arg("--version").output();
    if !minizinc.is_ok_and(|m| m.status.success()) || !fzn_csp.is_file() {
        println!("skipped the MiniZinc half: minizinc or fzn-csp is missing");
        return;
    }
    let solvers = root.join("solvers");
    let listed = std::process::Command::new("minizinc")
        .arg("--solvers")
        .env("MZN_SOLVER_PATH", &solvers)
        .output()
        .expect("minizinc --solvers");
    assert!(
        String::from_utf8_lossy(&listed.stdout).contains("org.csp.csp"),
        "{listed:?}"
    );
    let model = dir.file(
        "australia.mzn",
        "int: c = 3;\nset of int: S = 1..c;\nvar S: wa; var S: nt; var S: sa; var S: q; var S: nsw; var S: v; var S: t;\n\
         constraint wa != nt /\\ wa != sa /\\ nt != sa /\\ nt != q /\\ sa != q /\\ sa != nsw /\\ sa != v /\\ q != nsw /\\ nsw != v;\n\
         solve satisfy;\n",
    );
    let solved = std::process::Command::new("minizinc")
        .args(["--solver", "csp", "-a", &model])
        .env("MZN_SOLVER_PATH", &solvers)
        .current_dir(&dir.0)
        .output()
        .expect("minizinc --solver csp");
    let text = String::from_utf8_lossy(&solved.stdout);
    assert!(solved.status.success(), "{solved:?}");
    // 3 colours of the mainland (6 proper colourings of the triangle chain) times 3 for
    // Tasmania: counted here by brute force.
    let mut expected = 0;
    for c in 0..3_i32.pow(7) {
        let k: Vec<i32> = (0..7).map(|i| c / 3_i32.pow(i) % 3).collect();
        let (wa, nt, sa, q, nsw, v) = (k[0], k[1], k[2], k[3], k[4], k[5]);
        let ok = wa != nt
            && wa != sa
            && nt != sa
            && nt != q
            && sa != q
            && sa != nsw
            && sa != v
            && q != nsw
            && nsw != v;
        expected += usize::from(ok);
    }
    assert_eq!(text.matches("----------").count(), expected, "{text}");
    assert!(text.trim_end().ends_with("=========="), "{text}");
}
