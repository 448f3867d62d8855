//! The learning variable orders and the modifiers on the command line: `csp compare
//! --strategies` and `csp sudoku compare --strategies` accept each name, with restarts and
//! last-conflict reasoning; `csp solve` and `csp count` take them with `--var`, `--val` and
//! `--last-conflict`; `--last-conflict` out of range is a usage error; the defaults of
//! `csp solve` and `csp count` on instance files.

use crate::common::{code, csp, data, json_lines, stderr, stdout};

/// Every variable order the issue names, and `dom-wdeg-all` (today's dom/wdeg).
const ORDERS: [&str; 10] = [
    "dom-wdeg",
    "dom-wdeg-all",
    "wdeg-cacd",
    "chs",
    "frb-dom",
    "frba-dom",
    "pick-dom",
    "activity",
    "impact",
    "run-robin",
];

fn queens8() -> String {
    format!(
        "{}/csp-xcsp/tests/data/competition/Queens-0008-m1.xml.xz",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn compare_accepts_every_order_and_saved_values() {
    let mut strategies: Vec<String> = ORDERS.iter().map(|o| format!("{o}/asc/mac")).collect();
    strategies.push("mrv/saved/fc".into());
    strategies.push("run-robin/saved/none".into());
    for extra in [&[][..], &["--restarts", "luby:10", "--last-conflict", "2"][..]] {
        let mut args = vec![
            "compare".to_string(),
            queens8(),
            "--count".into(),
            "--strategies".into(),
            strategies.join(","),
            "--format".into(),
            "csv".into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = csp(&args);
        assert_eq!(code(&out), 0, "{extra:?}: {}", stderr(&out));
        let text = stdout(&out);
        for s in &strategies {
            // Every strategy answered the one instance: all 92 solutions counted.
            let row = text
                .lines()
                .find(|l| l.starts_with(&format!("{s},")))
                .unwrap_or_else(|| {
                    panic!("{extra:?}: no row for {s}: {text}");
                });
            assert!(row.starts_with(&format!("{s},1,1,")), "{extra:?}: {row}");
        }
    }
}

#[test]
fn sudoku_compare_accepts_every_order() {
    let strategies: Vec<String> = ORDERS
        .iter()
        .map(|o| format!("{o}/asc/fc"))
        .chain(["mrv/saved/mac".to_string()])
        .collect();
    let out = csp(&[
        "sudoku",
        "compare",
        &data("4x4.txt"),
        "--strategies",
        &strategies.join(","),
        "--restarts",
        "luby:4",
        "--last-conflict",
        "1",
        "--format",
        "csv",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    for s in &strategies {
        assert!(
            text.lines().any(|l| l.contains(&format!(",{s},"))),
            "no row for {s}: {text}"
        );
    }
}

#[test]
fn solve_and_count_take_the_orders_and_modifiers() {
    for order in ORDERS {
        let out = csp(&[
            "count",
            &queens8(),
            "--var",
            order,
            "--val",
            "saved",
            "--last-conflict",
            "2",
            "--restarts",
            "luby:5",
            "--format",
            "json",
        ]);
        assert_eq!(code(&out), 0, "{order}: {}", stderr(&out));
        let line = &json_lines(&out)[0];
        assert_eq!(line["solutions"], 92, "{order}");
    }
}

#[test]
fn last_conflict_out_of_range_is_a_usage_error() {
    for k in ["-1", "1001", "x"] {
        let out = csp(&["solve", &queens8(), "--last-conflict", k]);
        assert_eq!(code(&out), 2, "{k}");
        let out = csp(&["compare", &queens8(), "--last-conflict", k]);
        assert_eq!(code(&out), 2, "{k}: {}", stderr(&out));
    }
}

/// The nodes and restarts of one run, from the JSON line of `csp solve` or `csp count`.
fn nodes_and_restarts(args: &[&str]) -> (u64, u64) {
    let out = csp(args);
    assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    let line = &json_lines(&out)[0];
    let field = |key: &str| line[key].as_u64().unwrap_or_else(|| panic!("{args:?}: no {key}"));
    (field("nodes"), field("restarts"))
}

/// The defaults of instance files: `csp solve` runs run robin with geometric restarts
/// (100, 1.5), `csp count` runs dom/wdeg without restarts. LangfordBin-06 (unsatisfiable)
/// takes more than 100 nodes under each order, so the flags left out make a difference. Under
/// `--backjump`, `csp solve` takes no restarts unless asked.
#[test]
fn solve_and_count_defaults_for_instance_files() {
    let file = format!(
        "{}/csp-xcsp/tests/data/competition/LangfordBin-06_c18.xml.lzma",
        env!("CARGO_MANIFEST_DIR")
    );
    let run = |extra: &[&str], command: &str| {
        let mut args = vec![command, file.as_str(), "--format", "json"];
        args.extend_from_slice(extra);
        nodes_and_restarts(&args)
    };
    let solve = run(&[], "solve");
    assert!(solve.1 > 0, "the default solve restarts: {solve:?}");
    assert_eq!(
        solve,
        run(
            &["--var", "run-robin", "--restarts", "geometric:100:1.5"],
            "solve"
        )
    );
    assert_ne!(solve, run(&["--restarts", "none"], "solve"));
    let count = run(&[], "count");
    assert_eq!(count.1, 0, "a count does not restart by default");
    assert_eq!(count, run(&["--var", "dom-wdeg", "--restarts", "none"], "count"));
    assert_ne!(count, run(&["--var", "run-robin"], "count"));
    // Backjumping does not restart: the default restarts step aside for it.
    let backjump = run(&["--backjump", "cbj", "--inference", "fc"], "solve");
    assert_eq!(backjump.1, 0);
    assert_eq!(
        backjump,
        run(
            &["--backjump", "cbj", "--inference", "fc", "--restarts", "none"],
            "solve"
        )
    );
}
