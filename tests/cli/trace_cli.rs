//! Search trees, backjumping and the tree-structured algorithm from the command line:
//! `--trace` on `csp solve|count` and `csp queens solve|count`, `csp tree` drawing AIMA's
//! 4-queens tree, `--backjump`, `--method tree`, and the combinations refused. Oracles: an
//! independent backtracker for the 4-queens tree, the runs' own statistics for the
//! traces, and search for the tree algorithm's counts.

use std::collections::HashMap;

use crate::common::{TempDir, code, csp, json_lines, stderr, stdout};
use serde_json::Value;

/// The textbook strategy: static order, ascending values, chronological backtracking.
const TEXTBOOK: [&str; 6] = ["--var", "static", "--val", "asc", "--inference", "none"];

/// The lines of a trace file.
fn trace_lines(path: &str) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("a trace")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The lines of a trace that are nodes (not skipped levels).
fn nodes_of(lines: &[Value]) -> u64 {
    lines.iter().filter(|l| l["status"] != "skipped").count() as u64
}

/// The textbook backtracker on n-queens (static order, ascending values, a value tried
/// only if it agrees with the queens placed): each node as `(label, parent label path,
/// status)`, up to the first solution.
fn textbook_queens_tree(n: i32) -> Vec<(Vec<String>, &'static str)> {
    fn search(n: i32, placed: &mut Vec<i32>, out: &mut Vec<(Vec<String>, &'static str)>) -> bool {
        let col = placed.len() as i32;
        let mut had_child = false;
        for row in 0..n {
            let agrees = placed
                .iter()
                .enumerate()
                .all(|(c, &r)| r != row && (r - row).abs() != col - c as i32);
            if !agrees {
                continue;
            }
            had_child = true;
            placed.push(row);
            let path: Vec<String> = placed
                .iter()
                .enumerate()
                .map(|(c, r)| format!("q{c}={r}"))
                .collect();
            let at = out.len();
            out.push((path, "branch"));
            if placed.len() as i32 == n {
                out[at].1 = "solution";
                return true;
            }
            let (found, children) = {
                let before = out.len();
                let found = search(n, placed, out);
                (found, out.len() > before)
            };
            if !children {
                out[at].1 = "failure";
            }
            placed.pop();
            if found {
                return true;
            }
        }
        let _ = had_child;
        false
    }
    let mut out = Vec::new();
    search(n, &mut Vec::new(), &mut out);
    out
}

/// The nodes of an SVG drawn by `csp tree`: id to (parent, status, label, x, y).
fn svg_nodes(svg: &str) -> HashMap<String, (String, String, String, f64, f64)> {
    let attr = |chunk: &str, name: &str| -> String {
        let from = chunk.find(&format!("{name}=\"")).expect("the attribute") + name.len() + 2;
        chunk[from..].split('"').next().unwrap().to_string()
    };
    svg.split(r#"<g class="node""#)
        .skip(1)
        .map(|chunk| {
            let chunk = chunk.split("</g>").next().unwrap();
            let (x, y) = (
                attr(chunk, "cx").parse().unwrap(),
                attr(chunk, "cy").parse().unwrap(),
            );
            (
                attr(chunk, "data-id"),
                (
                    attr(chunk, "data-parent"),
                    attr(chunk, "data-status"),
                    attr(chunk, "data-label"),
                    x,
                    y,
                ),
            )
        })
        .collect()
}

#[test]
fn the_svg_of_static_asc_none_on_4_queens_shows_aima_s_tree() {
    let dir = TempDir::new("trace-aima");
    let (trace, svg) = (dir.path("t.jsonl"), dir.path("t.svg"));
    let args = [&["queens", "solve", "4"][..], &TEXTBOOK, &["--trace", &trace]].concat();
    assert_eq!(code(&csp(&args)), 0);
    let out = csp(&["tree", &trace, "--svg", &svg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let nodes = svg_nodes(&std::fs::read_to_string(&svg).unwrap());
    let expected = textbook_queens_tree(4);
    assert_eq!(nodes.len(), expected.len(), "one mark per node");
    // Each node: its label, its parent's, its status, as the textbook backtracker has them.
    let label_path = |id: &str| -> Vec<String> {
        let mut path = Vec::new();
        let mut at = id.to_string();
        while at != "root" {
            let (parent, _, label, _, _) = &nodes[&at];
            path.push(label.clone());
            at = parent.clone();
        }
        path.reverse();
        path
    };
    let mut drawn: Vec<(Vec<String>, String)> = nodes
        .keys()
        .map(|id| (label_path(id), nodes[id].1.clone()))
        .collect();
    drawn.sort();
    let mut want: Vec<(Vec<String>, String)> =
        expected.iter().map(|(p, s)| (p.clone(), s.to_string())).collect();
    want.sort();
    assert_eq!(drawn, want);
    // Drawn as a tree: each child a level below its parent; siblings left to right in the
    // order of their ids; each parent over the middle of its children.
    let mut children: HashMap<String, Vec<(u64, f64)>> = HashMap::new();
    for (id, (parent, _, _, x, y)) in &nodes {
        if let Some((_, _, _, _, py)) = nodes.get(parent) {
            assert!(y > py, "{id} below its parent");
        }
        children
            .entry(parent.clone())
            .or_default()
            .push((id.parse().unwrap(), *x));
    }
    for (parent, kids) in &mut children {
        kids.sort_by_key(|k| k.0);
        assert!(
            kids.windows(2).all(|w| w[0].1 < w[1].1),
            "siblings of {parent} left to right"
        );
        if let Some((_, _, _, px, _)) = nodes.get(parent) {
            let middle = (kids[0].1 + kids[kids.len() - 1].1) / 2.0;
            assert!((px - middle).abs() < 0.2, "{parent} over its children");
        }
    }
}

#[test]
fn a_trace_has_as_many_nodes_as_the_run_on_8_queens() {
    let dir = TempDir::new("trace-queens");
    let trace = dir.path("t.jsonl");
    // Static order and ascending values, with each backjumping over its inference.
    let cbj = [&TEXTBOOK[..], &["--backjump", "cbj"]].concat();
    let fc_bj = [&TEXTBOOK[..4], &["--inference", "fc", "--backjump", "bj"]].concat();
    let strategies: [&[&str]; 7] = [
        &[],
        &TEXTBOOK,
        &["--var", "mrv", "--val", "lcv", "--inference", "fc"],
        &["--var", "dom-wdeg", "--inference", "mac"],
        &cbj,
        &fc_bj,
        &["--val", "random", "--restarts", "luby:4", "--seed", "3"],
    ];
    for flags in strategies {
        for command in ["solve", "count"] {
            if command == "count" && flags.contains(&"--restarts") {
                continue;
            }
            let mut args = vec!["queens", command, "8", "--format", "json", "--trace", &trace];
            args.extend_from_slice(flags);
            let out = csp(&args);
            assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
            let record = &json_lines(&out)[0];
            let lines = trace_lines(&trace);
            assert_eq!(Some(nodes_of(&lines)), record["nodes"].as_u64(), "{args:?}");
            let skipped = lines.len() as u64 - nodes_of(&lines);
            assert_eq!(Some(skipped), record["levels_skipped"].as_u64(), "{args:?}");
            let summary = stdout(&csp(&["tree", &trace]));
            assert!(
                summary.contains(&format!("nodes={}\n", nodes_of(&lines))),
                "{summary}"
            );
        }
    }
}

#[test]
fn backjumping_on_instance_files_keeps_the_answers_and_reports_its_jumps() {
    let dir = TempDir::new("trace-files");
    for seed in 0..6 {
        let xml = stdout(&csp(&[
            "random",
            "model-b",
            "--n",
            "12",
            "--d",
            "4",
            "--p1",
            "0.4",
            "--p2",
            "0.35",
            "--seed",
            &seed.to_string(),
        ]));
        let file = dir.file("b.xml", &xml);
        let trace = dir.path("t.jsonl");
        let count = |flags: &[&str]| -> Value {
            let mut args = vec!["count", &file, "--format", "json"];
            args.extend_from_slice(flags);
            let out = csp(&args);
            assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
            json_lines(&out).remove(0)
        };
        for inference in ["none", "fc"] {
            let plain = count(&["--var", "static", "--val", "asc", "--inference", inference]);
            let cbj = count(&[
                "--var",
                "static",
                "--val",
                "asc",
                "--inference",
                inference,
                "--backjump",
                "cbj",
                "--trace",
                &trace,
            ]);
            assert_eq!(cbj["solutions"], plain["solutions"], "seed {seed} {inference}");
            assert!(cbj["nodes"].as_u64() <= plain["nodes"].as_u64());
            let lines = trace_lines(&trace);
            assert_eq!(Some(nodes_of(&lines)), cbj["nodes"].as_u64());
            assert_eq!(
                Some(lines.len() as u64 - nodes_of(&lines)),
                cbj["levels_skipped"].as_u64()
            );
        }
    }
}

#[test]
fn the_tree_method_solves_forests_and_refuses_cycles() {
    let dir = TempDir::new("trace-tree-method");
    // A tree: x0 - x1, x0 - x2, x2 - x3, with `<` and `!=`, plus an isolated x4.
    let forest = dir.file(
        "forest.xml",
        r#"<instance format="XCSP3" type="CSP">
  <variables> <array id="x" size="[5]"> 0..3 </array> </variables>
  <constraints>
    <intension> lt(x[0],x[1]) </intension>
    <intension> ne(x[0],x[2]) </intension>
    <intension> lt(x[3],x[2]) </intension>
  </constraints>
</instance>"#,
    );
    let out = csp(&["solve", &forest, "--method", "tree", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let answer = &json_lines(&out)[0];
    assert_eq!(answer["status"], "solved");
    // A node per variable that is not a given (the reader fixes the unused x[4]): as many
    // as a search's path to a solution.
    let search = json_lines(&csp(&["solve", &forest, "--format", "json", "--inference", "fc"]))[0].clone();
    assert_eq!(answer["nodes"], search["max_depth"], "a node per variable");
    assert_eq!(answer["max_depth"], search["max_depth"]);
    assert_eq!(answer["backtracks"], 0);
    let by_tree = json_lines(&csp(&["count", &forest, "--method", "tree", "--format", "json"]))[0].clone();
    let by_search = json_lines(&csp(&["count", &forest, "--format", "json"]))[0].clone();
    assert_eq!(by_tree["solutions"], by_search["solutions"]);
    assert_eq!(by_tree["nodes"], 0, "counting multiplies along the tree");

    let cycle = dir.file(
        "cycle.xml",
        r#"<instance format="XCSP3" type="CSP">
  <variables> <array id="x" size="[3]"> 0..2 </array> </variables>
  <constraints> <allDifferent> x[0] x[1] x[2] </allDifferent> <intension> ne(x[0],x[1]) </intension> </constraints>
</instance>"#,
    );
    let out = csp(&["solve", &cycle, "--method", "tree", "--alldiff", "value"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("binary constraints only"),
        "{}",
        stderr(&out)
    );
    let ring = dir.file(
        "ring.xml",
        r#"<instance format="XCSP3" type="CSP">
  <variables> <array id="x" size="[3]"> 0..2 </array> </variables>
  <constraints>
    <intension> ne(x[0],x[1]) </intension> <intension> ne(x[1],x[2]) </intension> <intension> ne(x[2],x[0]) </intension>
  </constraints>
</instance>"#,
    );
    let out = csp(&["solve", &ring, "--method", "tree", "--format", "xcsp"]);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("s UNSUPPORTED"));
    // The ring, closed where it starts, in some order.
    let message = stderr(&out);
    let cycle = message
        .split("has a cycle: ")
        .nth(1)
        .expect("the cycle named")
        .trim();
    let names: Vec<&str> = cycle.split(" - ").collect();
    assert_eq!(names.len(), 4, "{message}");
    assert_eq!(names[0], names[3]);
    let mut three = names[..3].to_vec();
    three.sort_unstable();
    assert_eq!(three, ["x[0]", "x[1]", "x[2]"]);
}

#[test]
fn combinations_backjumping_and_traces_cannot_run_are_usage_errors() {
    let dir = TempDir::new("trace-usage");
    let file = dir.file(
        "b.xml",
        &stdout(&csp(&[
            "random", "model-b", "--n", "6", "--d", "3", "--p1", "0.5", "--p2", "0.3",
        ])),
    );
    let refused: [(&[&str], &str); 6] = [
        (
            &["queens", "solve", "8", "--backjump", "cbj", "--inference", "mac"],
            "not mac",
        ),
        (
            &["queens", "solve", "8", "--backjump", "cbj", "--restarts", "luby"],
            "restarts",
        ),
        (&["solve", &file, "--backjump", "cbj"], "not mac"),
        (
            &["solve", &file, &file, "--trace", "t.jsonl", "--inference", "fc"],
            "one instance",
        ),
        (
            &["solve", &file, "--method", "tree", "--var", "mrv"],
            "no strategy flag",
        ),
        (
            &[
                "sudoku",
                "solve",
                "--backjump",
                "bj",
                "--inference",
                "fc",
                "--branching",
                "places",
            ],
            "places",
        ),
    ];
    for (args, why) in refused {
        let out = csp(args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(why), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn a_large_trace_is_summarised_and_its_start_drawn() {
    let dir = TempDir::new("trace-large");
    let (trace, svg) = (dir.path("t.jsonl"), dir.path("t.svg"));
    let args = [&["queens", "count", "8"][..], &TEXTBOOK, &["--trace", &trace]].concat();
    assert_eq!(code(&csp(&args)), 0);
    let lines = trace_lines(&trace).len();
    assert_eq!(lines, 2056, "the textbook enumeration's nodes");
    // Within the limit: drawn.
    assert_eq!(code(&csp(&["tree", &trace, "--svg", &svg])), 0);
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(drawn.matches(r#"<g class="node""#).count(), lines);
    // The first 100 lines.
    assert_eq!(code(&csp(&["tree", &trace, "--svg", &svg, "--first", "100"])), 0);
    assert_eq!(
        std::fs::read_to_string(&svg)
            .unwrap()
            .matches(r#"<g class="node""#)
            .count(),
        100
    );
    // Over the limit: figures, a message, no drawing.
    let big = dir.path("big.jsonl");
    let args = [&["queens", "count", "9"][..], &TEXTBOOK, &["--trace", &big]].concat();
    assert_eq!(code(&csp(&args)), 0);
    let out = csp(&["tree", &big, "--dot", &dir.path("big.dot")]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("too many to draw legibly"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("solution=352\n"), "{}", stdout(&out));
    // A line out of place is named.
    let bad = dir.file(
        "bad.jsonl",
        "{\"id\":2,\"parent\":7,\"depth\":2,\"var\":\"x\",\"value\":1,\"status\":\"branch\",\"restart\":0}\n",
    );
    let out = csp(&["tree", &bad]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("bad.jsonl:1: parent 7"), "{}", stderr(&out));
    // A missing file is a usage error, as in every other command.
    let out = csp(&["tree", &dir.path("missing.jsonl")]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("missing.jsonl: no such file"),
        "{}",
        stderr(&out)
    );
}
