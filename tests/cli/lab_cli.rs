//! `csp random`, `csp sweep`, and campaigns: `csp compare --format jsonl` with `--seeds`,
//! `--shard` and `--resume`, merged by `csp report`. Oracles: counts read back from the
//! files, the XCSP3 reader's own check of hidden solutions, brute force over small
//! instances, and unsharded runs against merged shards.

use std::collections::BTreeSet;
use std::process::{Command, Stdio};

use crate::common::{TempDir, code, csp, stderr, stdout};
use csp_core::random::ModelB;
use serde_json::Value;

/// The `<conflicts>` lists of an instance: one list of tuples per constraint, with its scope.
fn extensions(xml: &str) -> Vec<(Vec<String>, Vec<String>)> {
    xml.split("<extension>")
        .skip(1)
        .map(|c| {
            let list = c.split("<list>").nth(1).unwrap().split("</list>").next().unwrap();
            let conflicts = c
                .split("<conflicts>")
                .nth(1)
                .unwrap()
                .split("</conflicts>")
                .next()
                .unwrap();
            let tuples = conflicts
                .split(')')
                .map(|t| t.trim().trim_start_matches('(').to_string())
                .filter(|t| !t.is_empty())
                .collect();
            (list.split_whitespace().map(str::to_string).collect(), tuples)
        })
        .collect()
}

/// The hidden solution written in the comment of a forced instance.
fn hidden(xml: &str) -> Vec<i32> {
    let line = xml
        .lines()
        .find(|l| l.contains("hidden solution:"))
        .expect("a hidden solution");
    line.split(':')
        .nth(1)
        .unwrap()
        .trim_end_matches("-->")
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect()
}

#[test]
fn forced_rb_has_the_judged_counts_and_its_hidden_solution() {
    for seed in ["0", "1", "2"] {
        let args = [
            "random", "rb", "--k", "2", "--n", "30", "--alpha", "0.8", "--r", "2.7808", "--p", "0.25",
            "--forced", "--seed", seed,
        ];
        let out = csp(&args);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let xml = stdout(&out);
        let instance = csp_xcsp::Instance::from_str(&xml).expect("csp reads its own files");
        assert_eq!(instance.model.num_vars(), 30);
        assert!(
            instance
                .model
                .vars()
                .all(|v| instance.model.domain(v).len() == 15)
        );
        let constraints = extensions(&xml);
        assert_eq!(constraints.len(), 284);
        for (scope, tuples) in &constraints {
            assert_eq!(scope.len(), 2);
            assert_ne!(scope[0], scope[1]);
            assert_eq!(tuples.len(), 56);
            assert_eq!(
                tuples.iter().collect::<BTreeSet<_>>().len(),
                56,
                "distinct nogoods"
            );
        }
        // The reader's checker, independent of the generator, accepts the hidden solution.
        let solution = hidden(&xml);
        assert_eq!(solution.len(), 30);
        assert!(instance.check(&solution).is_ok());
        // And the solver finds some solution (it is satisfiable).
        let dir = TempDir::new("rb");
        let file = dir.file("rb.xml", &xml);
        let solved = csp(&["solve", &file, "--format", "xcsp"]);
        assert_eq!(code(&solved), 0);
        assert!(stdout(&solved).starts_with("s SATISFIABLE"));
    }
}

#[test]
fn model_b_files_have_exactly_the_requested_numbers() {
    for (n, d, p1, p2) in [
        (20, 10, 0.5, 0.38),
        (12, 3, 0.3, 0.5),
        (6, 4, 1.0, 0.1),
        (30, 2, 0.05, 0.75),
    ] {
        let args: Vec<String> = ["random", "model-b", "--n", &n.to_string(), "--d", &d.to_string()]
            .into_iter()
            .map(str::to_string)
            .chain([
                "--p1".into(),
                p1.to_string(),
                "--p2".into(),
                p2.to_string(),
                "--seed".into(),
                "9".into(),
            ])
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = csp(&args);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let xml = stdout(&out);
        let constraints = extensions(&xml);
        let pairs = (n * (n - 1) / 2) as f64;
        assert_eq!(constraints.len(), (p1 * pairs).round() as usize, "{args:?}");
        let scopes: BTreeSet<_> = constraints.iter().map(|c| c.0.clone()).collect();
        assert_eq!(scopes.len(), constraints.len(), "distinct pairs of variables");
        let per = (p2 * (d * d) as f64).round() as usize;
        for (scope, tuples) in &constraints {
            assert_eq!((scope.len(), tuples.len()), (2, per));
            assert_eq!(tuples.iter().collect::<BTreeSet<_>>().len(), per);
            for t in tuples {
                assert!(t.split(',').all(|v| (0..d).contains(&v.parse().unwrap())));
            }
        }
        let instance = csp_xcsp::Instance::from_str(&xml).unwrap();
        assert_eq!(instance.model.num_vars(), n);
    }
}

#[test]
fn files_are_reproducible_from_the_seed() {
    let dir = TempDir::new("random-seeds");
    let flags = ["model-b", "--n", "10", "--d", "5", "--p1", "0.5", "--p2", "0.3"];
    let out = csp(&[
        &["random"],
        &flags[..],
        &["--seed", "5", "--count", "3", "--out", &dir.path("set")],
    ]
    .concat());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let paths: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(paths.len(), 3);
    for (i, path) in paths.iter().enumerate() {
        let seed = (5 + i).to_string();
        assert!(path.ends_with(&format!("-s{seed}.xml")), "{path}");
        let single = stdout(&csp(&[&["random"], &flags[..], &["--seed", &seed]].concat()));
        assert_eq!(std::fs::read_to_string(path).unwrap(), single);
    }
    assert_ne!(
        std::fs::read_to_string(&paths[0]).unwrap(),
        std::fs::read_to_string(&paths[1]).unwrap()
    );
}

#[test]
fn bad_generator_arguments_are_usage_errors() {
    let b = ["random", "model-b", "--n", "10", "--d", "5", "--p1", "0.5"];
    for extra in [
        &["--p2", "1.5"][..],
        &["--p2", "0.1:0.5:0.1"],
        &[],
        &["--p2", "0.2", "--count", "2"],
    ] {
        let out = csp(&[&b[..], extra].concat());
        assert_eq!(code(&out), 2, "{extra:?}: {}", stderr(&out));
    }
    let out = csp(&[
        "random", "rb", "--k", "2", "--n", "10", "--alpha", "0.8", "--r", "1", "--p", "1", "--forced",
    ]);
    assert_eq!(code(&out), 2, "a forced instance cannot forbid every tuple");
    // d = 2, k = 2: round(0.88 · 4) = 4 tuples, all of them; the message gives the rule.
    let out = csp(&[
        "random", "rb", "--k", "2", "--n", "2", "--alpha", "1", "--r", "1", "--p", "0.88", "--forced",
    ]);
    assert_eq!(code(&out), 2);
    let message = stderr(&out);
    assert!(
        message.contains("round(p·d^k) must be below d^k = 4") && message.contains("below 0.875"),
        "{message}"
    );
    let out = csp(&[
        "random", "rb", "--k", "2", "--n", "2", "--alpha", "1", "--r", "1", "--p", "0.87", "--forced",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = csp(&[
        "sweep",
        "model-b",
        "--n",
        "10",
        "--d",
        "5",
        "--p1",
        "0.5",
        "--p2",
        "0.1:0.2:0.1",
        "--kappa",
        "0.5:1:0.5",
    ]);
    assert_eq!(code(&out), 2);
}

/// Whether a model B instance has a solution, by trying every assignment.
fn brute_force_solvable(params: ModelB, seed: u64) -> bool {
    let csp = params.generate(seed).unwrap();
    let (n, d) = (csp.variables, csp.domain_size as i32);
    let mut values = vec![0; n];
    loop {
        if csp.violated(&values).is_none() {
            return true;
        }
        let mut i = 0;
        while i < n && values[i] == d - 1 {
            values[i] = 0;
            i += 1;
        }
        if i == n {
            return false;
        }
        values[i] += 1;
    }
}

/// A small sweep of model B: 4 points, 6 instances each, two strategies.
fn sweep_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "sweep",
        "model-b",
        "--n",
        "7",
        "--d",
        "4",
        "--p1",
        "0.6",
        "--p2",
        "0.1:0.7:0.2",
        "--instances",
        "6",
        "--seed",
        "3",
        "--strategies",
        "mrv/asc/fc,static/asc/none",
    ];
    args.extend(extra);
    args
}

#[test]
fn sweep_writes_every_run_and_its_answers_are_right() {
    let dir = TempDir::new("sweep");
    let (jsonl, csv, svg) = (
        dir.path("runs.jsonl"),
        dir.path("runs.csv"),
        dir.path("chart.svg"),
    );
    let out = csp(&sweep_args(&[
        "-j", "2", "--jsonl", &jsonl, "--csv", &csv, "--svg", &svg,
    ]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let records: Vec<Value> = std::fs::read_to_string(&jsonl)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 4 * 6 * 2);
    let csv_text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv_text.lines().count(), 1 + 4 * 6 * 2);
    assert!(csv_text.starts_with("model,parameter,value,"));
    for r in &records {
        let p2 = r["value"].as_f64().unwrap();
        let seed = r["seed"].as_u64().unwrap();
        assert_eq!(r["instance"].as_u64().unwrap() + 3, seed);
        let solvable = brute_force_solvable(
            ModelB {
                n: 7,
                d: 4,
                p1: 0.6,
                p2,
            },
            seed,
        );
        let expected = if solvable { "solved" } else { "unsatisfiable" };
        assert_eq!(r["status"], expected, "{r}");
    }
    let table = stdout(&out);
    assert!(table.contains("# fraction solvable"), "{table}");
    assert_eq!(table.lines().filter(|l| !l.starts_with('#')).count(), 1 + 4);
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.starts_with("<svg") && chart.contains("predicted: κ = 1") && chart.contains("polyline"));
    // The same sweep gives the same runs (times aside).
    let again = dir.path("again.jsonl");
    let out = csp(&sweep_args(&["--jsonl", &again]));
    assert_eq!(code(&out), 0);
    assert_eq!(
        without_times(&read_lines(&again)),
        without_times(&read_lines(&jsonl))
    );
}

#[test]
fn a_sweep_over_kappa_draws_instances_of_that_kappa() {
    let dir = TempDir::new("sweep-kappa");
    let (jsonl, svg) = (dir.path("runs.jsonl"), dir.path("chart.svg"));
    let out = csp(&[
        "sweep",
        "model-b",
        "--n",
        "12",
        "--d",
        "10",
        "--p1",
        "0.5",
        "--kappa",
        "0.5:1.5:0.5",
        "--instances",
        "2",
        "--strategies",
        "mrv/asc/fc",
        "--jsonl",
        &jsonl,
        "--svg",
        &svg,
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let records = read_lines(&jsonl);
    assert_eq!(records.len(), 3 * 2);
    for r in &records {
        // Nogood counts are whole numbers (one in 100 pairs here): κ is near the asked one.
        let (asked, drawn) = (r["value"].as_f64().unwrap(), r["kappa"].as_f64().unwrap());
        assert_eq!(r["parameter"], "kappa");
        assert!((asked - drawn).abs() < 0.05, "{r}");
    }
    // Over κ the predicted crossover is κ = 1, whatever the model.
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.contains("predicted: κ = 1 at 1.000"));
}

/// A file's JSON lines.
fn read_lines(path: &str) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Records without their times, sorted: what any two runs of a campaign share.
fn without_times(records: &[Value]) -> Vec<String> {
    let mut out: Vec<String> = records
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.as_object_mut().unwrap().remove("elapsed_ms");
            r.to_string()
        })
        .collect();
    out.sort();
    out
}

/// Six small model B instances near the crossover, as files.
fn campaign_files(dir: &TempDir) -> Vec<String> {
    let out = csp(&[
        "random",
        "model-b",
        "--n",
        "16",
        "--d",
        "6",
        "--p1",
        "0.5",
        "--p2",
        "0.3",
        "--count",
        "6",
        "--out",
        &dir.path("instances"),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    stdout(&out).lines().map(str::to_string).collect()
}

/// `csp compare` over the files, with three strategies and three seeds of random tie-breaks.
fn campaign(files: &[String], extra: &[&str]) -> std::process::Output {
    let mut args = vec!["compare"];
    args.extend(files.iter().map(String::as_str));
    args.extend([
        "--strategies",
        "mrv/asc/fc,dom-wdeg/random/mac,static/asc/none",
        "--seeds",
        "0..2",
        "--tie-break",
        "random",
        "--node-limit",
        "300",
        "--format",
        "jsonl",
    ]);
    args.extend(extra);
    csp(&args)
}

#[test]
fn merged_shards_equal_the_unsharded_run() {
    let dir = TempDir::new("shards");
    let files = campaign_files(&dir);
    let whole = campaign(&files, &[]);
    assert_eq!(code(&whole), 0, "{}", stderr(&whole));
    let whole_records: Vec<Value> = crate::common::json_lines(&whole);
    assert_eq!(whole_records.len(), 6 * 3 * 3);
    assert!(
        whole_records.iter().any(|r| r["status"] == "limit"),
        "some runs hit the node limit"
    );
    let mut parts = Vec::new();
    let mut merged = Vec::new();
    for k in 1..=4 {
        let shard = format!("{k}/4");
        let out = campaign(&files, &["--shard", &shard, "-j", "2"]);
        assert_eq!(code(&out), 0);
        let part = dir.file(&format!("part{k}.jsonl"), &stdout(&out));
        merged.extend(crate::common::json_lines(&out));
        parts.push(part);
    }
    assert_eq!(without_times(&merged), without_times(&whole_records));
    // The report of the parts is the report of the whole, times aside.
    let whole_file = dir.file("whole.jsonl", &stdout(&whole));
    let report = |files: &[&str]| {
        let out = csp(&[&["report", "--format", "json"], files].concat());
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let mut v: Value = serde_json::from_str(&stdout(&out)).unwrap();
        for row in v["strategies"].as_array_mut().unwrap() {
            let row = row.as_object_mut().unwrap();
            row.remove("par2_s");
            row.remove("time_s_total");
        }
        v
    };
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    let merged_report = report(&parts);
    assert_eq!(merged_report, report(&[&whole_file]));
    assert_eq!(merged_report["runs"], 54);
    assert_eq!(merged_report["instances"], 18);
}

#[test]
fn a_cut_off_campaign_resumes_without_repeating_or_losing_runs() {
    let dir = TempDir::new("resume-cut");
    let files = campaign_files(&dir);
    let whole = campaign(&files, &[]);
    let text = stdout(&whole);
    // A run stopped while its line was being written: three whole lines and half of one.
    let lines: Vec<&str> = text.lines().collect();
    let cut = format!(
        "{}\n{}\n{}\n{}",
        lines[0],
        lines[1],
        lines[2],
        &lines[3][..lines[3].len() / 2]
    );
    let file = dir.file("campaign.jsonl", &cut);
    let resumed = campaign(&files, &["--resume", &file, "-j", "2"]);
    assert_eq!(code(&resumed), 0, "{}", stderr(&resumed));
    assert!(stderr(&resumed).contains("cut off"), "{}", stderr(&resumed));
    assert_eq!(stdout(&resumed), "", "records go to the file");
    assert_eq!(
        without_times(&read_lines(&file)),
        without_times(&crate::common::json_lines(&whole))
    );
    // Resuming a finished campaign runs nothing.
    let again = campaign(&files, &["--resume", &file]);
    assert_eq!(code(&again), 0);
    assert_eq!(read_lines(&file).len(), 54);
    // --resume needs the records' format.
    let out = csp(&["compare", &files[0], "--resume", &file]);
    assert_eq!(code(&out), 2);
}

#[test]
fn a_campaign_stopped_by_sigterm_resumes_without_repeating_or_losing_runs() {
    let dir = TempDir::new("resume-term");
    // A hard instance first: its runs without inference take 2,000,000 nodes each, so that
    // the signal most likely lands in one of them. Wherever it lands, the file must hold
    // whole records of finished runs only, and the resumed campaign every run once.
    let hard = stdout(&csp(&[
        "random", "model-b", "--n", "30", "--d", "10", "--p1", "0.5", "--p2", "0.27", "--seed", "1",
    ]));
    let mut files = vec![dir.file("hard.xml", &hard)];
    files.extend(campaign_files(&dir));
    let file = dir.path("campaign.jsonl");
    let mut args: Vec<&str> = vec!["compare"];
    args.extend(files.iter().map(String::as_str));
    // No time limit that a busy machine could reach: every run ends the same way.
    args.extend([
        "--strategies",
        "mrv/asc/fc,static/asc/none",
        "--seeds",
        "0..1",
        "--tie-break",
        "random",
        "--node-limit",
        "2000000",
        "--timeout",
        "100000",
        "--format",
        "jsonl",
    ]);
    let whole = csp(&args);
    assert_eq!(code(&whole), 0, "{}", stderr(&whole));
    let expected = without_times(&crate::common::json_lines(&whole));
    assert_eq!(expected.len(), 7 * 2 * 2);
    args.extend(["--resume", &file]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait for the first record (or the end), then stop it.
    for _ in 0..20_000 {
        if std::fs::metadata(&file).is_ok_and(|m| m.len() > 0) || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let status = child.wait().unwrap();
    assert!(matches!(status.code(), Some(0 | 143)), "{status:?}");
    let stopped = read_lines(&file);
    assert!(
        stopped.iter().all(|r| r["limit"] != "cancelled"),
        "no record of a cancelled run"
    );
    let resumed = csp(&args);
    assert_eq!(code(&resumed), 0, "{}", stderr(&resumed));
    assert_eq!(without_times(&read_lines(&file)), expected);
}

#[test]
fn report_tables_wins_and_charts() {
    let dir = TempDir::new("report");
    let files = campaign_files(&dir);
    let runs = dir.file("runs.jsonl", &stdout(&campaign(&files, &[])));
    let svg = dir.path("report.svg");
    let out = csp(&[
        "report",
        &runs,
        "--svg",
        &svg,
        "--scatter",
        "mrv/asc/fc,static/asc/none",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let table = stdout(&out);
    assert!(table.starts_with("54 runs on 18 instances"), "{table}");
    for s in [
        "mrv/asc/fc",
        "dom-wdeg/random/mac",
        "static/asc/none",
        "PAR-2 s",
        "wins",
    ] {
        assert!(table.contains(s), "{s}: {table}");
    }
    // Wins, from the records: a run beats another on the same file and seed when it
    // answered and the other did not, or with fewer nodes.
    let records = read_lines(&runs);
    let run = |s: &str, file: &Value, seed: &Value| {
        records
            .iter()
            .find(|r| r["strategy"] == s && &r["file"] == file && &r["seed"] == seed)
            .unwrap()
    };
    let answered = |r: &Value| r["status"] == "solved" || r["status"] == "unsatisfiable";
    let mut wins = 0;
    for r in records.iter().filter(|r| r["strategy"] == "mrv/asc/fc") {
        let other = run("static/asc/none", &r["file"], &r["seed"]);
        if answered(r) && (!answered(other) || r["nodes"].as_u64() < other["nodes"].as_u64()) {
            wins += 1;
        }
    }
    let json = csp(&["report", &runs, "--format", "json"]);
    let v: Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(v["wins"]["mrv/asc/fc"]["static/asc/none"], wins);
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.contains("Runs answered within a time") && chart.contains("one against the other"));
    assert_eq!(
        code(&csp(&[
            "report",
            &runs,
            "--svg",
            &svg,
            "--scatter",
            "mrv/asc/fc,x/y/z"
        ])),
        2
    );
    // Unknown strategies are an error without --svg too, before anything is written.
    let out = csp(&["report", &runs, "--scatter", "nosuch,alsonot"]);
    assert_eq!(code(&out), 2);
    assert!(
        stdout(&out).is_empty() && stderr(&out).contains("nosuch"),
        "{}",
        stderr(&out)
    );
    assert_eq!(code(&csp(&["report", &dir.path("missing.jsonl")])), 2);
    let bad = dir.file("bad.jsonl", "{\"not\": \"a record\"}\n");
    assert_eq!(code(&csp(&["report", &bad])), 1);
}

/// The `#` line of a sweep's output that starts with `prefix`, its number after `at NAME = `.
fn reported(table: &str, prefix: &str) -> f64 {
    let line = table
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("{prefix}: {table}"));
    let value = line.split(" = ").nth(1).unwrap();
    value.split([';', ' ']).next().unwrap().parse().unwrap()
}

/// The phase transition of model B ⟨20, 10, 0.5, p2⟩ where theory puts it: the fraction
/// solvable crosses 1/2 within 0.04 of κ = 1 (p2 = 0.384), and the median nodes of forward
/// checking with MRV peak within 0.04 of that crossing.
#[test]
fn model_b_crosses_over_near_kappa_one() {
    let out = csp(&[
        "sweep",
        "model-b",
        "--n",
        "20",
        "--d",
        "10",
        "--p1",
        "0.5",
        "--p2",
        "0.05:0.60:0.01",
        "--instances",
        "50",
        "--strategies",
        "mrv/asc/fc",
        "-j",
        "2",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let table = stdout(&out);
    let predicted = 1.0 - 10f64.powf(-20.0 / 95.0);
    let crossing = reported(&table, "# fraction solvable crosses 0.5");
    assert!(
        (crossing - predicted).abs() <= 0.04,
        "{crossing} against {predicted}: {table}"
    );
    let peak = reported(&table, "# median nodes of mrv/asc/fc peak");
    assert!(
        (peak - crossing).abs() <= 0.04,
        "{peak} against {crossing}: {table}"
    );
}
