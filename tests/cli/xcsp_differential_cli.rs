//! Differential test of the XCSP3 front end: random instances from
//! `scripts/xcsp_random_instances.py`, an evaluator of XCSP3 semantics written apart from csp
//! (Python's unbounded integers, csp's documented rules for undefined values), are counted by
//! `csp count` under several search configurations and enumerated by `csp solve --all`; every
//! count must equal the script's brute force, every enumeration its solution set, and every
//! optimum (the instances that suit are given an objective) the brute force's. The
//! instances mix the script's five modes: `small` (3 to 7 variables, every constraint family
//! and syntax helper), `wide` (intensions past csp's table threshold), `matrix`, `edge`
//! (values at the edges of 32 and 64 bits whose sums and products leave 64 bits but not 128;
//! one edge seed in 25 holds a constraint whose values leave 128 bits, which csp must refuse)
//! and `globals` (XCSP3-core global constraints over small domains or values at those edges).
//!
//! The default test runs a few hundred instances; `differential_thousands` (ignored) runs
//! thousands under more configurations:
//! `cargo test --release --test cli xcsp_differential -- --ignored`.
//! Python 3 is needed: without it the tests fail, unless `CSP_SKIP_PYTHON` is set.

use std::collections::BTreeMap;
use std::process::Command;

use crate::common::{TempDir, code, run, stderr, stdout};
use serde_json::Value;

/// The generator and evaluator.
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/xcsp_random_instances.py");

/// At most this many files per `csp` call.
const BATCH: usize = 100;

/// What the evaluator says of an instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expected {
    /// This many solutions.
    Count(u64),
    /// Some constraint's values leave the 128-bit integers: csp must refuse the file.
    Refused,
}

impl std::fmt::Display for Expected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expected::Count(n) => write!(f, "{n} solutions"),
            Expected::Refused => f.write_str("a refusal (values past 128 bits)"),
        }
    }
}

/// A generated instance.
struct Generated {
    seed: u64,
    mode: String,
    file: String,
    expected: Expected,
    /// The file of its solutions, one per line (only for instances with few solutions).
    solutions: Option<String>,
    /// For an instance made a COP: the brute force's optimum (`None`: no solution).
    optimum: Option<Option<i64>>,
}

impl Generated {
    /// The instance, for a failure message: how to write it again.
    fn describe(&self) -> String {
        format!(
            "seed {} ({} mode, {}; to write it again: python3 scripts/xcsp_random_instances.py OUTDIR 1 {})",
            self.seed, self.mode, self.file, self.seed
        )
    }
}

/// A search configuration of `csp count`.
struct Config {
    name: &'static str,
    args: &'static [&'static str],
    /// Only instances with at most this many solutions (restarts after every node or two are
    /// slow on large counts).
    max_count: u64,
}

/// The configurations of the reliability report, each run on every instance.
const CONFIGS: &[Config] = &[
    Config {
        name: "default",
        args: &[],
        max_count: u64::MAX,
    },
    Config {
        name: "static/asc/none",
        args: &["--var", "static", "--val", "asc", "--inference", "none"],
        max_count: u64::MAX,
    },
    Config {
        name: "mrv/lcv/fc",
        args: &["--var", "mrv", "--val", "lcv", "--inference", "fc"],
        max_count: u64::MAX,
    },
    Config {
        name: "dom-wdeg/desc/mac --alldiff value",
        args: &[
            "--var",
            "dom-wdeg",
            "--val",
            "desc",
            "--inference",
            "mac",
            "--alldiff",
            "value",
        ],
        max_count: u64::MAX,
    },
    Config {
        name: "mrv-degree/random/mac --alldiff hidden --probe",
        args: &[
            "--var",
            "mrv-degree",
            "--val",
            "random",
            "--inference",
            "mac",
            "--alldiff",
            "hidden",
            "--probe",
        ],
        max_count: u64::MAX,
    },
    Config {
        name: "dom-wdeg-fixed/fc --restarts luby:1",
        args: &[
            "--var",
            "dom-wdeg-fixed",
            "--inference",
            "fc",
            "--restarts",
            "luby:1",
        ],
        max_count: 2000,
    },
    Config {
        name: "--threads 3",
        args: &["--threads", "3"],
        max_count: u64::MAX,
    },
    Config {
        name: "mrv/asc/fc --threads 2 --subproblems 1 --restarts luby:2",
        args: &[
            "--var",
            "mrv",
            "--inference",
            "fc",
            "--threads",
            "2",
            "--subproblems",
            "1",
            "--restarts",
            "luby:2",
        ],
        max_count: 20_000,
    },
];

/// The report's further configurations, for the ignored test.
const MORE_CONFIGS: &[Config] = &[
    Config {
        name: "--branching places",
        args: &["--branching", "places"],
        max_count: u64::MAX,
    },
    Config {
        name: "--restarts geometric:2:1.5",
        args: &["--restarts", "geometric:2:1.5"],
        max_count: 20_000,
    },
    Config {
        name: "random values and ties",
        args: &["--val", "random", "--tie-break", "random", "--seed", "7"],
        max_count: u64::MAX,
    },
    Config {
        name: "--alldiff hidden --probe --restarts luby:3",
        args: &["--alldiff", "hidden", "--probe", "--restarts", "luby:3"],
        max_count: 20_000,
    },
    Config {
        name: "static/lcv/mac",
        args: &["--var", "static", "--val", "lcv", "--inference", "mac"],
        max_count: u64::MAX,
    },
];

/// The optimisations of every instance made a COP (the script's `--objective`): branch and
/// bound alone, and large neighbourhood search with turns and neighbourhoods of a node or two,
/// so that it runs on these small instances.
const OPTIMISATIONS: &[&[&str]] = &[
    &[],
    &["--lns", "off"],
    &["--threads", "2"],
    &[
        "--threads",
        "4",
        "--subproblems",
        "2",
        "--var",
        "mrv",
        "--inference",
        "fc",
    ],
    &["--turn-nodes", "1", "--neighbourhood-failures", "2"],
    &[
        "--turn-nodes",
        "1",
        "--neighbourhood-failures",
        "5",
        "--var",
        "mrv",
        "--inference",
        "fc",
        "--neighbourhoods",
        "pg,rpg",
    ],
];

/// Whether python3 runs; a failure says how to skip, unless `CSP_SKIP_PYTHON` is set.
pub(crate) fn python_or_skip() -> bool {
    let found = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        return true;
    }
    if std::env::var_os("CSP_SKIP_PYTHON").is_some() {
        eprintln!("python3 not found and CSP_SKIP_PYTHON is set: the differential test is skipped");
        return false;
    }
    panic!(
        "the differential test needs python3 (scripts/xcsp_random_instances.py), which was not \
         found; install it, or set CSP_SKIP_PYTHON=1 to skip this test"
    );
}

/// Writes the instances of seeds `first..first + n` into `dir`, with the solutions of those
/// that have at most `max_solutions`.
fn generate(dir: &TempDir, first: u64, n: u64, max_solutions: u64) -> Vec<Generated> {
    let out = Command::new("python3")
        .args([
            SCRIPT,
            &dir.path(""),
            &n.to_string(),
            &first.to_string(),
            "--solutions",
            &max_solutions.to_string(),
            "--objective",
        ])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{SCRIPT} {n} {first}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (first..first + n)
        .map(|seed| {
            let meta = std::fs::read_to_string(dir.path(&format!("r{seed:05}.json"))).unwrap();
            let meta: Value = serde_json::from_str(&meta).unwrap();
            let expected = match meta["expect"].as_str() {
                Some("refused") => Expected::Refused,
                _ => Expected::Count(meta["brute"].as_u64().expect("a count")),
            };
            let solutions = dir.path(&format!("r{seed:05}.sols"));
            Generated {
                seed,
                mode: meta["mode"].as_str().unwrap().to_string(),
                file: dir.path(&format!("r{seed:05}.xml")),
                expected,
                solutions: std::path::Path::new(&solutions).exists().then_some(solutions),
                optimum: meta.get("goal").map(|_| meta["optimum"].as_i64()),
            }
        })
        .collect()
}

/// `csp ARGS FILES`, and when it dies (a panic, a signal) instead of answering, the same on
/// each file alone, to name the one that kills it: the answers by file, or failure messages.
fn answers(args: &[&str], batch: &[&Generated], failures: &mut Vec<String>) -> BTreeMap<String, Value> {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(batch.iter().map(|g| g.file.as_str()));
    let out = run(&all, None);
    if !matches!(out.status.code(), Some(0 | 1)) {
        if batch.len() > 1 {
            let mut found = BTreeMap::new();
            for g in batch {
                found.append(&mut answers(args, &[g], failures));
            }
            return found;
        }
        let err = stderr(&out);
        let tail: String = err
            .chars()
            .skip(err.chars().count().saturating_sub(600))
            .collect();
        failures.push(format!(
            "{}: csp {} ended with {:?}: {tail}",
            batch[0].describe(),
            args.join(" "),
            out.status
        ));
        return BTreeMap::new();
    }
    stdout(&out)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| Some((v["file"].as_str()?.to_string(), v)))
        .collect()
}

/// Counts every instance under `config` and compares with the brute force; failure messages.
fn check_counts(instances: &[Generated], config: &Config, failures: &mut Vec<String>) -> usize {
    let chosen: Vec<&Generated> = instances
        .iter()
        .filter(|g| match g.expected {
            Expected::Count(n) => n <= config.max_count,
            Expected::Refused => true,
        })
        .collect();
    let mut args = vec!["count", "--format", "json"];
    args.extend_from_slice(config.args);
    for batch in chosen.chunks(BATCH) {
        let found = answers(&args, batch, failures);
        for g in batch {
            let Some(answer) = found.get(&g.file) else {
                if !failures.iter().any(|f| f.contains(&g.file)) {
                    failures.push(format!("{}, {}: no answer", g.describe(), config.name));
                }
                continue;
            };
            let status = answer["status"].as_str().unwrap_or("?");
            let ok = match g.expected {
                Expected::Count(n) => {
                    matches!(status, "solved" | "unsatisfiable")
                        && answer["complete"] == true
                        && answer["solutions"].as_u64() == Some(n)
                }
                Expected::Refused => {
                    status == "error" && answer["error"].as_str().is_some_and(|e| e.contains("128-bit"))
                }
            };
            if !ok {
                let said = match answer["error"].as_str() {
                    Some(e) => format!("an error: {e}"),
                    None => format!("{} solutions (status {status})", answer["solutions"]),
                };
                failures.push(format!(
                    "{}, {}: the brute force gives {}, csp {said}",
                    g.describe(),
                    config.name,
                    g.expected,
                ));
            }
        }
    }
    chosen.len()
}

/// A solution line with its `name=value` pairs sorted, so that the order within a line
/// does not matter.
fn canonical(line: &str) -> String {
    let mut pairs: Vec<&str> = line.split_whitespace().collect();
    pairs.sort_unstable();
    pairs.join(" ")
}

/// `csp solve --all` on every instance with a solution file: the lines must be exactly the
/// brute force's solutions. Returns how many instances were enumerated.
fn check_solutions(instances: &[Generated], extra: &[&str], failures: &mut Vec<String>) -> usize {
    let chosen: Vec<&Generated> = instances.iter().filter(|g| g.solutions.is_some()).collect();
    for batch in chosen.chunks(BATCH) {
        let mut args = vec!["solve", "--all"];
        args.extend_from_slice(extra);
        args.extend(batch.iter().map(|g| g.file.as_str()));
        let out = run(&args, None);
        if !matches!(out.status.code(), Some(0 | 1)) {
            failures.push(format!(
                "csp solve --all {} on seeds {}..={} ended with {:?}: {}",
                extra.join(" "),
                batch[0].seed,
                batch[batch.len() - 1].seed,
                out.status,
                stderr(&out)
            ));
            continue;
        }
        // With several files each answer follows a `# FILE` line. Other `#` lines than
        // `# unsatisfiable` (an error, a limit) are kept for the failure message.
        let mut found: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        let mut notes: BTreeMap<&str, String> = BTreeMap::new();
        let mut current = if batch.len() == 1 {
            batch[0].file.as_str()
        } else {
            ""
        };
        let text = stdout(&out);
        for line in text.lines() {
            if let Some(g) = line
                .strip_prefix("# ")
                .and_then(|f| batch.iter().find(|g| g.file == f))
            {
                current = &g.file;
                found.entry(current).or_default();
            } else if line.starts_with('#') {
                if line != "# unsatisfiable" {
                    notes.insert(current, line.to_string());
                }
            } else {
                found.entry(current).or_default().push(canonical(line));
            }
        }
        for g in batch {
            let mut expected: Vec<String> = std::fs::read_to_string(g.solutions.as_ref().unwrap())
                .unwrap()
                .lines()
                .map(canonical)
                .collect();
            expected.sort_unstable();
            let mut got = found.remove(g.file.as_str()).unwrap_or_default();
            got.sort_unstable();
            if got != expected {
                let missing: Vec<&String> = expected.iter().filter(|l| !got.contains(l)).take(3).collect();
                let extra_lines: Vec<&String> =
                    got.iter().filter(|l| !expected.contains(l)).take(3).collect();
                failures.push(format!(
                    "{}, solve --all {}: {} solutions by brute force, {} lines from csp{}; missing {missing:?}, \
                     not solutions or repeated {extra_lines:?}",
                    g.describe(),
                    extra.join(" "),
                    expected.len(),
                    got.len(),
                    notes.get(g.file.as_str()).map(|n| format!(" and `{n}`")).unwrap_or_default()
                ));
            }
        }
    }
    chosen.len()
}

/// `csp solve` on every instance made a COP, under `extra`: the optimum proved must be the
/// brute force's (or no solution). Returns how many instances were optimised.
fn check_optima(instances: &[Generated], extra: &[&str], failures: &mut Vec<String>) -> usize {
    let chosen: Vec<&Generated> = instances.iter().filter(|g| g.optimum.is_some()).collect();
    let mut args = vec!["solve", "--format", "json"];
    args.extend_from_slice(extra);
    for batch in chosen.chunks(BATCH) {
        let found = answers(&args, batch, failures);
        for g in batch {
            let Some(answer) = found.get(&g.file) else {
                if !failures.iter().any(|f| f.contains(&g.file)) {
                    failures.push(format!("{}, solve {}: no answer", g.describe(), extra.join(" ")));
                }
                continue;
            };
            let expected = g.optimum.expect("a COP");
            let ok = match expected {
                Some(best) => answer["status"] == "optimal" && answer["objective"].as_i64() == Some(best),
                None => answer["status"] == "unsatisfiable",
            };
            if !ok {
                failures.push(format!(
                    "{}, solve {}: the brute force's optimum is {expected:?}, csp says {} {}",
                    g.describe(),
                    extra.join(" "),
                    answer["status"],
                    answer["objective"]
                ));
            }
        }
    }
    chosen.len()
}

/// Each refused instance alone: exit code 1 and a message about 128-bit integers.
fn check_refusals(instances: &[Generated], failures: &mut Vec<String>) {
    for g in instances.iter().filter(|g| g.expected == Expected::Refused) {
        let out = run(&["count", &g.file], None);
        if code(&out) != 1 || !stderr(&out).contains("128-bit") {
            failures.push(format!(
                "{}: expected a refusal (exit 1, 128-bit), got exit {:?}: {} {}",
                g.describe(),
                out.status.code(),
                stdout(&out),
                stderr(&out)
            ));
        }
    }
}

/// Generates the seed ranges, runs every check, and fails with every disagreement.
fn differential(
    name: &str,
    ranges: &[(u64, u64)],
    configs: &[&Config],
    solve_extra: &[&[&str]],
    optimise_extra: &[&[&str]],
) {
    if !python_or_skip() {
        return;
    }
    let dir = TempDir::new(name);
    let mut instances = Vec::new();
    for &(first, n) in ranges {
        instances.extend(generate(&dir, first, n, 500));
    }
    let mut failures = Vec::new();
    check_refusals(&instances, &mut failures);
    let mut runs = 0;
    for config in configs {
        runs += check_counts(&instances, config, &mut failures);
    }
    let mut enumerated = 0;
    for extra in solve_extra {
        enumerated += check_solutions(&instances, extra, &mut failures);
    }
    let mut optimised = 0;
    for extra in optimise_extra {
        optimised += check_optima(&instances, extra, &mut failures);
    }
    let refused = instances
        .iter()
        .filter(|g| g.expected == Expected::Refused)
        .count();
    eprintln!(
        "{name}: {} instances ({refused} to refuse), {} configurations, {runs} counts, {enumerated} enumerations, {optimised} optimisations",
        instances.len(),
        configs.len()
    );
    let shown: Vec<&String> = failures.iter().take(20).collect();
    assert!(
        failures.is_empty(),
        "{} disagreements with the brute force (the first 20):\n{}",
        failures.len(),
        shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn counts_and_solutions_equal_brute_force_with_exact_integers() {
    differential(
        "differential",
        &[
            (0, 240),
            (100_000, 40),
            (200_000, 40),
            (300_000, 480),
            (400_000, 200),
        ],
        &CONFIGS.iter().collect::<Vec<_>>(),
        &[&[], &["--threads", "3"]],
        OPTIMISATIONS,
    );
}

#[test]
#[ignore = "thousands of instances: a few minutes"]
fn differential_thousands() {
    differential(
        "differential-thousands",
        &[
            (0, 3000),
            (100_000, 1000),
            (200_000, 500),
            (300_000, 6000),
            (400_000, 2000),
        ],
        &CONFIGS.iter().chain(MORE_CONFIGS).collect::<Vec<_>>(),
        &[
            &[],
            &["--var", "mrv", "--val", "lcv", "--inference", "fc"],
            &["--threads", "4", "--subproblems", "3"],
        ],
        &[
            OPTIMISATIONS,
            &[
                &["--lns", "off", "--var", "static", "--inference", "none"],
                &[
                    "--turn-nodes",
                    "2",
                    "--restarts",
                    "luby:1",
                    "--neighbourhoods",
                    "objective",
                ],
                &[
                    "--turn-nodes",
                    "1",
                    "--neighbourhood-failures",
                    "1",
                    "--neighbourhoods",
                    "random",
                ],
            ],
        ]
        .concat(),
    );
}
