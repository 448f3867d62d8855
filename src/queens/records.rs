//! The JSON lines of `csp queens`: one typed record per command.
//!
//! The fields of each record are declared in alphabetical order, the search statistics
//! among them, so that each line reads as a sorted object, the same as every earlier
//! version of these lines (the tests below hold every record to that).

use csp_core::{LimitKind, LocalStats, Stats};
use serde::Serialize;

/// Milliseconds, fractional, as the `elapsed_ms` fields of csp-core write them.
fn millis(elapsed: std::time::Duration) -> f64 {
    elapsed.as_secs_f64() * 1000.0
}

/// One JSON line of `csp queens solve`.
#[derive(Serialize)]
pub struct SolveLine<'a> {
    pub backjump: String,
    pub backjumps: u64,
    pub backtracks: u64,
    pub checks: u64,
    pub decomposition_nodes: u64,
    pub elapsed_ms: f64,
    pub levels_skipped: u64,
    pub limit: Option<LimitKind>,
    pub lns_nodes: u64,
    pub lns_solutions: u64,
    pub max_depth: u64,
    pub model: String,
    pub n: usize,
    pub neighbourhoods: u64,
    pub nodes: u64,
    pub nodes_to_best: Option<u64>,
    pub nodes_to_proof: Option<u64>,
    pub nogoods: u64,
    pub objective: Option<i64>,
    pub place_decisions: u64,
    pub probes: u64,
    pub propagations: u64,
    pub pruned: u64,
    pub restart_policy: String,
    pub restarts: u64,
    pub revisions: u64,
    pub seed: u64,
    pub solution: Option<&'a [u32]>,
    pub solutions: u64,
    pub status: &'static str,
    pub strategy: String,
    pub subproblems: u64,
    pub tie_break: String,
    pub verified: Option<bool>,
}

/// What a solve line says besides its statistics.
pub struct SolveFacts<'a> {
    pub n: usize,
    pub backjump: String,
    pub status: &'static str,
    pub solution: Option<&'a [u32]>,
    pub strategy: String,
    pub model: String,
    pub tie_break: String,
    pub restart_policy: String,
    pub seed: u64,
    pub limit: Option<LimitKind>,
    pub verified: Option<bool>,
}

impl<'a> SolveLine<'a> {
    /// The line of a solve with these facts and statistics.
    pub fn new(facts: SolveFacts<'a>, stats: &Stats) -> SolveLine<'a> {
        SolveLine {
            backjump: facts.backjump,
            backjumps: stats.backjumps,
            backtracks: stats.backtracks,
            checks: stats.checks,
            decomposition_nodes: stats.decomposition_nodes,
            elapsed_ms: millis(stats.elapsed),
            levels_skipped: stats.levels_skipped,
            limit: facts.limit,
            lns_nodes: stats.lns_nodes,
            lns_solutions: stats.lns_solutions,
            max_depth: stats.max_depth,
            model: facts.model,
            n: facts.n,
            neighbourhoods: stats.neighbourhoods,
            nodes: stats.nodes,
            nodes_to_best: stats.nodes_to_best,
            nodes_to_proof: stats.nodes_to_proof,
            nogoods: stats.nogoods,
            subproblems: stats.subproblems,
            objective: stats.objective,
            place_decisions: stats.place_decisions,
            probes: stats.probes,
            propagations: stats.propagations,
            pruned: stats.pruned,
            restart_policy: facts.restart_policy,
            restarts: stats.restarts,
            revisions: stats.revisions,
            seed: facts.seed,
            solution: facts.solution,
            solutions: stats.solutions,
            status: facts.status,
            strategy: facts.strategy,
            tie_break: facts.tie_break,
            verified: facts.verified,
        }
    }
}

/// One JSON line of `csp queens count`. `solution` is always null: a count keeps none.
#[derive(Serialize)]
pub struct CountLine {
    pub backjump: String,
    pub backjumps: u64,
    pub backtracks: u64,
    pub checks: u64,
    pub complete: bool,
    pub decomposition_nodes: u64,
    pub distinct: Option<u64>,
    pub elapsed_ms: f64,
    pub levels_skipped: u64,
    pub limit: Option<LimitKind>,
    pub lns_nodes: u64,
    pub lns_solutions: u64,
    pub max_depth: u64,
    pub model: String,
    pub n: usize,
    pub neighbourhoods: u64,
    pub nodes: u64,
    pub nodes_to_best: Option<u64>,
    pub nodes_to_proof: Option<u64>,
    pub nogoods: u64,
    pub objective: Option<i64>,
    pub place_decisions: u64,
    pub probes: u64,
    pub propagations: u64,
    pub pruned: u64,
    pub restarts: u64,
    pub revisions: u64,
    pub solution: Option<()>,
    pub solutions: u64,
    pub status: &'static str,
    pub strategy: String,
    pub subproblems: u64,
    pub symmetry: bool,
    pub tie_break: String,
}

/// What a count line says besides its statistics.
pub struct CountFacts {
    pub n: usize,
    pub backjump: String,
    pub status: &'static str,
    pub distinct: Option<u64>,
    pub complete: bool,
    pub symmetry: bool,
    pub strategy: String,
    pub model: String,
    pub tie_break: String,
    pub limit: Option<LimitKind>,
}

impl CountLine {
    /// The line of a count with these facts and statistics (whose `solutions` is the count).
    pub fn new(facts: CountFacts, stats: &Stats) -> CountLine {
        CountLine {
            backjump: facts.backjump,
            backjumps: stats.backjumps,
            backtracks: stats.backtracks,
            checks: stats.checks,
            decomposition_nodes: stats.decomposition_nodes,
            complete: facts.complete,
            distinct: facts.distinct,
            elapsed_ms: millis(stats.elapsed),
            levels_skipped: stats.levels_skipped,
            limit: facts.limit,
            lns_nodes: stats.lns_nodes,
            lns_solutions: stats.lns_solutions,
            max_depth: stats.max_depth,
            model: facts.model,
            n: facts.n,
            neighbourhoods: stats.neighbourhoods,
            nodes: stats.nodes,
            nodes_to_best: stats.nodes_to_best,
            nodes_to_proof: stats.nodes_to_proof,
            nogoods: stats.nogoods,
            subproblems: stats.subproblems,
            objective: stats.objective,
            place_decisions: stats.place_decisions,
            probes: stats.probes,
            propagations: stats.propagations,
            pruned: stats.pruned,
            restarts: stats.restarts,
            revisions: stats.revisions,
            solution: None,
            solutions: stats.solutions,
            status: facts.status,
            strategy: facts.strategy,
            symmetry: facts.symmetry,
            tie_break: facts.tie_break,
        }
    }
}

/// One JSON line of `csp queens local`.
#[derive(Serialize)]
pub struct LocalLine<'a> {
    pub conflicts: u64,
    pub elapsed_ms: f64,
    pub initial_conflicts: u64,
    pub max_steps: u64,
    pub n: usize,
    pub restarts: u64,
    pub seed: u64,
    pub solution: Option<&'a [u32]>,
    pub status: &'static str,
    pub steps: u64,
    pub strategy: &'static str,
    pub verified: Option<bool>,
}

impl<'a> LocalLine<'a> {
    /// The line of a min-conflicts run.
    pub fn new(
        n: usize,
        status: &'static str,
        solution: Option<&'a [u32]>,
        (seed, max_steps): (u64, u64),
        verified: Option<bool>,
        stats: &LocalStats,
    ) -> LocalLine<'a> {
        LocalLine {
            conflicts: stats.conflicts,
            elapsed_ms: millis(stats.elapsed),
            initial_conflicts: stats.initial_conflicts,
            max_steps,
            n,
            restarts: stats.restarts,
            seed,
            solution,
            status,
            steps: stats.steps,
            strategy: "min-conflicts",
            verified,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, Value};

    /// The keys of a record, in the order it writes them.
    fn keys(record: &impl Serialize) -> Vec<String> {
        let text = serde_json::to_string(record).unwrap();
        let map: Map<String, Value> = serde_json::from_str(&text).unwrap();
        // `Map` without `preserve_order` sorts; read the order from the text instead.
        let mut at: Vec<(usize, String)> = map
            .keys()
            .map(|k| (text.find(&format!("\"{k}\":")).unwrap(), k.clone()))
            .collect();
        at.sort();
        at.into_iter().map(|(_, k)| k).collect()
    }

    fn stats_keys<T: Serialize + Default>() -> Vec<String> {
        let value = serde_json::to_value(T::default()).unwrap();
        value.as_object().unwrap().keys().cloned().collect()
    }

    fn assert_sorted_with(record_keys: &[String], stats: &[String]) {
        let mut sorted = record_keys.to_vec();
        sorted.sort();
        assert_eq!(record_keys, sorted, "fields in alphabetical order");
        for key in stats {
            assert!(record_keys.contains(key), "statistic {key} missing");
        }
    }

    fn solve_facts() -> SolveFacts<'static> {
        SolveFacts {
            n: 8,
            backjump: String::new(),
            status: "solved",
            solution: None,
            strategy: String::new(),
            model: String::new(),
            tie_break: String::new(),
            restart_policy: String::new(),
            seed: 0,
            limit: None,
            verified: None,
        }
    }

    #[test]
    fn solve_lines_are_sorted_and_carry_every_statistic() {
        let line = SolveLine::new(solve_facts(), &Stats::default());
        assert_sorted_with(&keys(&line), &stats_keys::<Stats>());
    }

    #[test]
    fn count_lines_are_sorted_and_carry_every_statistic() {
        let facts = CountFacts {
            n: 8,
            backjump: String::new(),
            status: "solved",
            distinct: None,
            complete: true,
            symmetry: false,
            strategy: String::new(),
            model: String::new(),
            tie_break: String::new(),
            limit: None,
        };
        let line = CountLine::new(facts, &Stats::default());
        assert_sorted_with(&keys(&line), &stats_keys::<Stats>());
    }

    #[test]
    fn local_lines_are_sorted_and_carry_every_statistic() {
        let line = LocalLine::new(8, "solved", None, (0, 1), None, &LocalStats::default());
        assert_sorted_with(&keys(&line), &stats_keys::<LocalStats>());
    }
}
