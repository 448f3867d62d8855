//! Runs with a trace, and the checks every trace must pass. Each test file uses a part of
//! these helpers.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use csp_core::{Model, NodeStatus, SearchConfig, Solver, Stats, Trace, TracedNode};

/// A node named by its path from the root: `(variable, value)` at each level.
pub type Path = Vec<(String, i32)>;

/// One run: its trace, statistics and the answer (the first solution, or the count).
pub struct Run {
    pub lines: Vec<TracedNode>,
    pub stats: Stats,
    pub first: Option<Vec<i32>>,
    pub count: Option<u64>,
}

/// Runs `config` on `model` with a trace: the first solution, or every one if `all`.
pub fn traced(model: &Model, config: &SearchConfig, all: bool) -> Run {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let into = Arc::clone(&lines);
    let trace = Trace::new(move |node: &csp_core::TraceNode<'_>| into.lock().unwrap().push(node.to_owned()));
    let config = SearchConfig {
        trace: Some(trace),
        ..config.clone()
    };
    let mut solver = Solver::new(model, config).expect("a valid configuration");
    let (first, count) = if all {
        (None, Some(solver.count().solutions))
    } else {
        (solver.solve().solution().map(<[i32]>::to_vec), None)
    };
    let stats = solver.stats().clone();
    drop(solver);
    let lines = std::mem::take(&mut *lines.lock().unwrap());
    Run {
        lines,
        stats,
        first,
        count,
    }
}

/// The paths of a trace's nodes (skipped levels are no nodes), checking on the way that
/// ids rise, parents come first, depths follow parents, no node is made twice in a run,
/// the counts match the run's, and (without restarts, which leave their last node open)
/// that branches have children and other nodes none.
pub fn node_paths(run: &Run) -> HashSet<Path> {
    let mut paths: HashMap<u64, Path> = HashMap::new();
    let mut children: HashMap<u64, u64> = HashMap::new();
    let mut made: HashSet<(u32, Path)> = HashSet::new();
    let mut last = 0;
    for line in &run.lines {
        assert!(line.id > last, "ids rise: {line:?}");
        last = line.id;
        let mut path = match line.parent {
            None => Vec::new(),
            Some(p) => paths.get(&p).expect("the parent comes first").clone(),
        };
        assert_eq!(line.depth as usize, path.len() + 1, "{line:?}");
        if line.status == NodeStatus::Skipped {
            assert_eq!(line.value, None);
            continue;
        }
        if let Some(p) = line.parent {
            *children.entry(p).or_default() += 1;
        }
        path.push((line.var.clone(), line.value.expect("a node has a value")));
        assert!(
            made.insert((line.restart, path.clone())),
            "a node made twice: {path:?}"
        );
        paths.insert(line.id, path);
    }
    let skipped = run
        .lines
        .iter()
        .filter(|l| l.status == NodeStatus::Skipped)
        .count();
    assert_eq!(made.len() as u64, run.stats.nodes, "one line per node");
    assert_eq!(
        skipped as u64, run.stats.levels_skipped,
        "one line per level skipped"
    );
    let solutions = run
        .lines
        .iter()
        .filter(|l| l.status == NodeStatus::Solution)
        .count();
    assert_eq!(solutions as u64, run.stats.solutions);
    if run.stats.restarts == 0 {
        for line in run.lines.iter().filter(|l| l.status != NodeStatus::Skipped) {
            let has_children = children.contains_key(&line.id);
            assert_eq!(line.status == NodeStatus::Branch, has_children, "{line:?}");
        }
    }
    made.into_iter().map(|(_, path)| path).collect()
}
