//! `csp solve`, `csp count` and `csp compare` on XCSP3 and DIMACS files: formats and exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn csp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(args)
        .output()
        .expect("csp runs")
}

fn data(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("csp-xcsp/tests/data")
        .join(rel)
        .display()
        .to_string()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("csp-instance-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn solve_prints_name_value_pairs_in_declaration_order() {
    let o = csp(&["solve", &data("conformance/instantiation.xml")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "x=1 y=2 z=3\n");
    let o = csp(&["solve", &data("conformance/all_different_matrix.xml"), "--all"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let mut lines: Vec<&str> = out.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        [
            "m[0][0]=0 m[0][1]=1 m[1][0]=1 m[1][1]=0",
            "m[0][0]=1 m[0][1]=0 m[1][0]=0 m[1][1]=1"
        ]
    );
}

#[test]
fn json_and_xcsp_formats() {
    let o = csp(&[
        "solve",
        &data("conformance/instantiation.xml"),
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["status"], "solved");
    assert_eq!(v["solution"]["y"], 2);
    assert!(v["nodes"].is_u64() && v["backtracks"].is_u64());
    let o = csp(&[
        "solve",
        &data("conformance/instantiation.xml"),
        "--format",
        "xcsp",
    ]);
    let out = stdout(&o);
    assert!(out.starts_with("s SATISFIABLE\nv <instantiation> <list> x y z </list> <values> 1 2 3 </values> </instantiation>\n"), "{out}");
    let o = csp(&[
        "count",
        &data("competition/QuasiGroup-3-04.xml.xz"),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        (v["status"].as_str(), v["solutions"].as_u64()),
        (Some("solved"), Some(2))
    );
    assert!(v["solution"].is_object());
}

#[test]
fn unsatisfiable_is_an_answer() {
    let o = csp(&[
        "solve",
        &data("competition/Dubois-015.xml.xz"),
        "--format",
        "xcsp",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("s UNSATISFIABLE\n"));
    let o = csp(&[
        "count",
        &data("competition/Dubois-015.xml.xz"),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        (v["status"].as_str(), v["solutions"].as_u64()),
        (Some("unsatisfiable"), Some(0))
    );
}

#[test]
fn count_with_cap_and_lzma_input() {
    let o = csp(&["count", &data("competition/ColouredQueens-05_c18.xml.lzma")]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "240\n"));
    let o = csp(&[
        "count",
        &data("competition/ColouredQueens-05_c18.xml.lzma"),
        "--limit",
        "3",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        (v["status"].as_str(), v["solutions"].as_u64()),
        (Some("capped"), Some(3))
    );
}

#[test]
fn a_limit_exits_with_1() {
    let o = csp(&[
        "count",
        &data("competition/Queens-0008-m1.xml.xz"),
        "--node-limit",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["status"], "limit");
    let o = csp(&[
        "solve",
        &data("competition/Queens-0008-m1.xml.xz"),
        "--node-limit",
        "1",
        "--var",
        "static",
        "--inference",
        "none",
        "--format",
        "xcsp",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("s UNKNOWN"));
}

#[test]
fn bad_instances_exit_with_1_and_say_where() {
    let head = "<instance format=\"XCSP3\" type=\"CSP\">\n<variables> <var id=\"x\"> 0..3 </var> </variables>\n<constraints>\n";
    for (name, body, needle) in [
        (
            "malformed.xml",
            "<intension> ne(x,1) </intension>\n</constraint></instance>",
            "line 5, column 1: malformed XML",
        ),
        (
            "unknown.xml",
            "<intension> ne(x,y) </intension>\n</constraints></instance>",
            "line 4, column 18: unknown variable `y`",
        ),
        (
            "range.xml",
            "<instantiation> <list> x </list> <values> 9 </values> </instantiation>\n</constraints></instance>",
            "line 4, column 43: value out of range",
        ),
        (
            "unsupported.xml",
            "<stretch/>\n</constraints></instance>",
            "line 4, column 1: unsupported constraint <stretch>",
        ),
    ] {
        let path = temp_file(name, &format!("{head}{body}"));
        for cmd in ["solve", "count"] {
            let o = csp(&[cmd, path.to_str().unwrap(), "--format", "json"]);
            assert_eq!(o.status.code(), Some(1), "{name}");
            assert!(stderr(&o).contains(needle), "{name}: {}", stderr(&o));
            let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
            assert_eq!(v["status"], "error");
        }
    }
    // A file that does not exist is an argument error, found before anything runs.
    let o = csp(&["solve", "/nonexistent/file.xml"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn bad_arguments_exit_with_2() {
    assert_eq!(csp(&["solve"]).status.code(), Some(2));
    assert_eq!(
        csp(&["count", &data("conformance/slide.xml"), "--var", "nope"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        csp(&["solve", &data("dimacs/myciel3.col")]).status.code(),
        Some(2)
    );
    assert_eq!(
        csp(&["compare", &data("conformance/slide.xml"), "--strategies", "x/y/z"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn graph_colouring() {
    for (name, k, code) in [("myciel3", "4", 0), ("myciel4", "5", 0), ("myciel5", "6", 0)] {
        let o = csp(&["solve", &data(&format!("dimacs/{name}.col")), "--colors", k]);
        assert_eq!(o.status.code(), Some(code), "{name}");
        assert!(stdout(&o).starts_with("v1="), "{}", stdout(&o));
    }
    for (name, k) in [("myciel3", "3"), ("myciel4", "4")] {
        let o = csp(&[
            "solve",
            &data(&format!("dimacs/{name}.col")),
            "--colors",
            k,
            "--format",
            "xcsp",
        ]);
        assert_eq!(o.status.code(), Some(0), "{name}");
        assert!(stdout(&o).starts_with("s UNSATISFIABLE"), "{name}");
    }
}

#[test]
fn compare_table_csv_json_svg() {
    let files = [
        data("competition/Queens-0008-m1.xml.xz"),
        data("conformance/slide.xml"),
    ];
    let o = csp(&[
        "compare",
        &files[0],
        &files[1],
        "--strategies",
        "mrv/asc/fc,dom-wdeg/asc/mac",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("strategy") && out.contains("dom-wdeg/asc/mac") && out.contains("2/2"),
        "{out}"
    );
    let o = csp(&[
        "compare",
        &files[0],
        "--strategies",
        "mrv/asc/fc",
        "--format",
        "csv",
    ]);
    assert!(
        stdout(&o)
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("mrv/asc/fc,1,1,0,0,")
    );
    let svg = temp_file("chart.svg", "");
    let o = csp(&[
        "compare",
        &files[0],
        "--strategies",
        "textbook",
        "--format",
        "json",
        "--svg",
        svg.to_str().unwrap(),
        "-j",
        "2",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 18);
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
}

#[test]
fn sigterm_stops_the_count_and_reports_it() {
    let path = temp_file(
        "many.xml",
        "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"x\" size=\"[12]\"> 0..11 </array></variables>\n<constraints><allDifferent> x[] </allDifferent></constraints></instance>",
    );
    let child = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(["count", path.to_str().unwrap(), "--format", "json"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    // 128 + SIGTERM, as every command that a signal stops.
    assert_eq!(o.status.code(), Some(143));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["status"], "limit");
    assert_eq!(v["limit"], "cancelled");
    assert!(v["solutions"].as_u64().unwrap() > 0 && v["solution"].is_object());
}

/// A graph's isolated vertices are set apart from the search: `count` multiplies by K for
/// each, `solve --all` writes every colouring (each checked against brute force), JSON counts
/// the graph's colourings, and a count past u64 is an error unless `--limit` caps it.
#[test]
fn isolated_vertices_are_counted_and_enumerated() {
    // Vertices 1..6; edges 1-3, 3-5; 2, 4 and 6 are isolated. With 3 colours: 3*2*2 for
    // the path times 3^3.
    let path = temp_file("isolated.col", "p edge 6 2\ne 1 3\ne 3 5\n");
    let path = path.display().to_string();
    let mut brute = Vec::new();
    for code in 0..3u32.pow(6) {
        let c: Vec<u32> = (0..6).map(|i| code / 3u32.pow(5 - i) % 3).collect();
        if c[0] != c[2] && c[2] != c[4] {
            brute.push(
                (0..6)
                    .map(|i| format!("v{}={}", i + 1, c[i]))
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
    }
    let o = csp(&["count", &path, "--colors", "3"]);
    assert_eq!(stdout(&o).trim(), brute.len().to_string(), "{}", stderr(&o));
    let o = csp(&[
        "count", &path, "--colors", "3", "--format", "json", "--method", "tree",
    ]);
    let answer: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(answer["solutions"], brute.len());
    let o = csp(&["solve", &path, "--colors", "3", "--all"]);
    let mut lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    lines.sort();
    brute.sort();
    assert_eq!(lines, brute);
    let o = csp(&["solve", &path, "--colors", "3", "--all", "--format", "json"]);
    let last: serde_json::Value = serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
    assert_eq!(
        (&last["count"], &last["solutions"]),
        (&brute.len().into(), &brute.len().into())
    );
    // A count is capped where asked, inside a model solution's colourings.
    let o = csp(&["count", &path, "--colors", "3", "--limit", "50"]);
    assert_eq!(stdout(&o).trim(), "50 (capped)");
    // `compare --count` records the graph's count too.
    let o = csp(&[
        "compare",
        &path,
        "--colors",
        "3",
        "--count",
        "--format",
        "jsonl",
        "--strategies",
        "mrv/asc/fc,dom-wdeg/asc/mac",
    ]);
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stderr(&o));
    for line in stdout(&o).lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(record["solutions"], brute.len(), "{line}");
    }

    // A million isolated vertices: 3^999,998 colourings per colouring of the edge.
    let big = temp_file("isolated-big.col", "p edge 1000000 1\ne 1 1000000\n");
    let big = big.display().to_string();
    let o = csp(&["count", &big, "--colors", "3"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("more than 18446744073709551615 solutions"),
        "{}",
        stderr(&o)
    );
    let o = csp(&["count", &big, "--colors", "3", "--limit", "7"]);
    assert_eq!(stdout(&o).trim(), "7 (capped)");
    let o = csp(&["solve", &big, "--colors", "3", "--format", "json"]);
    let answer: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let solution = answer["solution"].as_object().unwrap();
    assert_eq!(solution.len(), 1_000_000);
    assert_ne!(solution["v1"], solution["v1000000"]);
    assert_eq!(solution["v2"], 0);
}

/// A knapsack: 14 items, the most value within the capacity.
fn knapsack_file() -> PathBuf {
    let weights: Vec<String> = (0..14).map(|i| (3 + (i * 7) % 11).to_string()).collect();
    let values: Vec<String> = (0..14).map(|i| (2 + (i * 5) % 13).to_string()).collect();
    let text = format!(
        "<instance format=\"XCSP3\" type=\"COP\">\n<variables>\n<array id=\"x\" size=\"[14]\"> 0 1 </array>\n</variables>\n\
         <constraints>\n<sum>\n<list> x[] </list>\n<coeffs> {} </coeffs>\n<condition> (le,40) </condition>\n</sum>\n</constraints>\n\
         <objectives>\n<maximize type=\"sum\">\n<list> x[] </list>\n<coeffs> {} </coeffs>\n</maximize>\n</objectives>\n</instance>\n",
        weights.join(" "),
        values.join(" ")
    );
    temp_file("knapsack.xml", &text)
}

#[test]
fn large_neighbourhood_search_proves_the_same_optimum_and_reports_its_bound() {
    let path = knapsack_file();
    let path = path.to_str().unwrap();
    let mut optima = Vec::new();
    for lns in ["off", "on"] {
        let o = csp(&["solve", path, "--lns", lns, "--format", "json"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let answer: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(answer["status"], "optimal", "--lns {lns}: {answer}");
        assert_eq!(
            answer["bound"], answer["objective"],
            "--lns {lns}: a proved optimum is its own bound"
        );
        assert!(answer["lns_nodes"].as_u64().unwrap() <= answer["nodes"].as_u64().unwrap());
        if lns == "off" {
            assert_eq!(answer["lns_nodes"], 0, "branch and bound alone");
        }
        optima.push(answer["objective"].as_i64().unwrap());
    }
    assert_eq!(optima[0], optima[1]);
    // Stopped early: the best so far and a bound no solution is above (maximising).
    for (lns, kinds) in [("on", "random,pg"), ("on", "rpg,objective"), ("off", "random")] {
        let o = csp(&[
            "solve",
            path,
            "--lns",
            lns,
            "--neighbourhoods",
            kinds,
            "--node-limit",
            "40",
            "--format",
            "xcsp",
        ]);
        let out = stdout(&o);
        assert!(out.contains("s SATISFIABLE"), "--lns {lns}: {out}");
        let bound: i64 = out
            .lines()
            .find_map(|l| l.strip_prefix("d BOUND "))
            .unwrap_or_else(|| panic!("no bound: {out}"))
            .parse()
            .unwrap();
        let best: i64 = out
            .lines()
            .filter_map(|l| l.strip_prefix("o "))
            .next_back()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            best <= optima[0] && optima[0] <= bound,
            "--lns {lns}: {best} {} {bound}",
            optima[0]
        );
    }
    let o = csp(&["solve", path, "--neighbourhoods", "nosuch"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
