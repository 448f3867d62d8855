//! `csp explain`: minimal unsatisfiable subsets checked against brute force.
//!
//! `scripts/xcsp_mus_check.py` draws random instances (those of
//! `scripts/xcsp_random_instances.py`, every mode and constraint kind, and its own
//! `--composed` ones, whose MUSes have several members), runs `csp explain` on each, and
//! checks with the generator's evaluator of XCSP3 semantics, written apart from csp, that a
//! satisfiable instance is said to be one, that the subset returned is unsatisfiable and
//! each one-smaller subset satisfiable, and that `--all` finds exactly the MUSes found by
//! trying every subset. The default test runs a few hundred instances; `explain_thousands`
//! (ignored) runs over a thousand unsatisfiable ones of each kind:
//! `cargo test --release --test cli explain_cli -- --ignored`.

use std::process::Command;

use crate::common::{TempDir, code, csp, json_lines, stderr, stdout};
use crate::xcsp_differential_cli::python_or_skip;

/// The checker.
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/xcsp_mus_check.py");

/// Runs the checker over `n` seeds from `first` with `extra` flags; panics on a wrong answer.
fn check(dir: &TempDir, first: u64, n: u64, extra: &[&str]) {
    let out = Command::new("python3")
        .args([
            SCRIPT,
            env!("CARGO_BIN_EXE_csp"),
            &dir.path("m"),
            &n.to_string(),
            &first.to_string(),
        ])
        .args(extra)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{}", text.lines().last().unwrap_or(""));
    assert!(
        out.status.success(),
        "wrong explanations (seeds {first}..{}):\n{text}{}",
        first + n,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("; 0 wrong"), "{text}");
}

#[test]
fn explanations_are_minimal_against_brute_force() {
    if !python_or_skip() {
        return;
    }
    let dir = TempDir::new("explain");
    // The generator's five modes: small, wide, matrix, edge, globals.
    for first in [0, 100_000, 200_000, 300_000, 400_000] {
        check(&dir, first, 40, &["--all-upto", "12"]);
    }
    for method in ["quickxplain", "deletion"] {
        check(
            &dir,
            0,
            40,
            &["--all-upto", "12", "--composed", "1", "--method", method],
        );
    }
}

#[test]
#[ignore = "a thousand unsatisfiable instances of each kind: run with --release --ignored"]
fn explain_thousands() {
    if !python_or_skip() {
        return;
    }
    let dir = TempDir::new("explain-thousands");
    for first in [0, 100_000, 200_000, 300_000, 400_000] {
        check(&dir, first, 5_000, &["--all-upto", "12", "--want", "200"]);
    }
    for method in ["quickxplain", "deletion"] {
        check(
            &dir,
            1_000,
            3_000,
            &[
                "--all-upto",
                "12",
                "--composed",
                "1",
                "--method",
                method,
                "--want",
                "1000",
            ],
        );
    }
}

/// Four variables over three values, pairwise different: no solution, and arc consistency
/// alone does not see it.
const PIGEONS: &str = r#"<instance format="XCSP3" type="CSP">
<variables> <array id="p" size="[4]"> 0..2 </array> <var id="z"> 0..9 </var> </variables>
<constraints>
  <group id="ne">
    <intension> ne(%0,%1) </intension>
    <args> p[0] p[1] </args> <args> p[0] p[2] </args> <args> p[0] p[3] </args>
    <args> p[1] p[2] </args> <args> p[1] p[3] </args> <args> p[2] p[3] </args>
  </group>
  <intension> le(z,5) </intension>
  <intension id="big"> ge(z,3) </intension>
</constraints>
</instance>
"#;

#[test]
fn constraints_are_named_by_id_or_element_line_and_column() {
    let dir = TempDir::new("explain-names");
    let file = dir.file("pigeons.xml", PIGEONS);
    let out = csp(&["explain", &file]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("# unsatisfiable: a minimal unsatisfiable subset of 6 of the 8 constraints"),
        "{text}"
    );
    assert_eq!(lines[1], "ne[0]: intension at line 6, column 5");
    assert_eq!(lines.len(), 7, "{text}");

    // Without ids: the element, line and column; whole groups with --groups blocks.
    let out = csp(&["explain", &file, "--groups", "blocks", "--format", "json"]);
    let answer = &json_lines(&out)[0];
    assert_eq!(answer["status"], "unsatisfiable");
    assert_eq!(answer["minimal"], true);
    assert_eq!(answer["total"], 3);
    assert_eq!(answer["constraints"][0]["name"], "ne");
    assert_eq!(answer["constraints"][0]["units"], 6);
    assert!(answer["calls"].as_u64().unwrap() >= 1);

    let sat = dir.file(
        "sat.xml",
        &PIGEONS.replace("size=\"[4]\"> 0..2", "size=\"[4]\"> 0..3"),
    );
    let out = csp(&["explain", &sat]);
    assert_eq!(
        (code(&out), stdout(&out).trim()),
        (0, "# satisfiable: nothing to explain")
    );
}

#[test]
fn every_mus_of_a_graph_colouring() {
    let dir = TempDir::new("explain-col");
    let k4 = dir.file(
        "k4.col",
        "c K4\np edge 4 6\ne 1 2\ne 1 3\ne 1 4\ne 2 3\ne 2 4\ne 3 4\n",
    );
    // With two colours, the MUSes are the four triangles.
    let out = csp(&["explain", &k4, "--colors", "2", "--all", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let lines = json_lines(&out);
    let mut muses: Vec<Vec<String>> = lines
        .iter()
        .filter_map(|l| l["mus"].as_array())
        .map(|m| {
            m.iter()
                .map(|c| c["name"].as_str().unwrap().to_string())
                .collect()
        })
        .collect();
    muses.sort();
    assert_eq!(muses.len(), 4, "{muses:?}");
    assert!(muses.iter().all(|m| m.len() == 3));
    assert_eq!(lines.last().unwrap()["complete"], true);
    let out = csp(&["explain", &k4, "--colors", "4"]);
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).starts_with("# satisfiable"));
    assert_eq!(code(&csp(&["explain", &k4])), 2);
}

/// A node limit per solver call leaves subsets undecided: they are never taken for
/// unsatisfiable, and what is reported says it is not proved.
#[test]
fn a_node_limit_is_never_a_proof() {
    let dir = TempDir::new("explain-limit");
    let file = dir.file("pigeons.xml", PIGEONS);
    for extra in [&["--node-limit", "1"][..], &["--node-limit", "1", "--all"]] {
        let out = csp(&[
            &["explain", &file, "--format", "json", "--inference", "fc"],
            extra,
        ]
        .concat());
        assert_eq!(code(&out), 1, "{}", stdout(&out));
        let last = json_lines(&out).pop().unwrap();
        assert_eq!(last["limit"], "nodes", "{last}");
        assert_ne!(last["status"], "satisfiable");
        assert_ne!(last["minimal"], true);
        assert_ne!(last["complete"], true);
    }
}
