//! AIMA's tree-structured algorithm (Russell and Norvig, *Artificial Intelligence: A
//! Modern Approach*, §6.5, TREE-CSP-SOLVER) for a model whose constraint graph is a
//! forest: order each tree from a root so that every variable comes after its parent,
//! make each parent arc consistent with its child from the last variable up (directional
//! arc consistency), then assign the variables in order, each the first value that agrees
//! with its parent's. After the first pass no assignment can fail: a tree is solved in
//! `O(n d²)` without backtracking.
//!
//! Its node-count contract (in `docs/heuristics.md`): a **node** is one assignment of the
//! second pass, givens aside, so a solution takes one node per variable that is not a
//! given and `backtracks` is 0; the first pass makes no node and counts in `revisions`
//! (one per arc made consistent), `checks` (pair tests) and `pruned`. An unsatisfiable
//! model is found in the first pass, with 0 nodes. [`TreeSolver::count`] multiplies along
//! the trees, from the leaves up: no assignment, no node.
//!
//! ```
//! use csp_core::{Model, Outcome, SearchConfig, TreeSolver};
//! // A path x0 < x1 < x2 over 0..2: one solution.
//! let mut m = Model::new();
//! let x = m.int_vars(3, 0, 2).unwrap();
//! m.post(x[0], x[1], csp_core::Relation::Less).unwrap();
//! m.post(x[1], x[2], csp_core::Relation::Less).unwrap();
//! let mut tree = TreeSolver::new(&m, &SearchConfig::default()).unwrap();
//! assert_eq!(tree.solve(), Outcome::Solved(vec![0, 1, 2]));
//! assert_eq!((tree.stats().nodes, tree.stats().backtracks), (3, 0));
//! assert_eq!(TreeSolver::new(&m, &SearchConfig::default()).unwrap().count(), Ok(1));
//! m.post(x[2], x[0], csp_core::Relation::NotEqual).unwrap();
//! assert!(TreeSolver::new(&m, &SearchConfig::default()).is_err(), "a cycle");
//! ```

mod forest;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use smallvec::SmallVec;
use thiserror::Error;

pub use forest::NotATree;
use forest::{Edge, Forest};

use crate::config::{Limits, SearchConfig};
use crate::model::Model;
use crate::network::Network;
use crate::propagation::Propagator;
use crate::propagation::root::load_givens;
use crate::stats::{LimitKind, Outcome, Stats};
use crate::trace::{NodeStatus, Trace, TraceNode};
use crate::var::VarId;

/// What [`TreeSolver::count`] cannot give.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TreeCountError {
    /// More solutions than a `u64` holds.
    #[error("more than {} solutions", u64::MAX)]
    Overflow,
    /// A limit stopped the count.
    #[error("{0}")]
    Limit(LimitKind),
}

/// The tree-structured algorithm on one model; see the module documentation.
pub struct TreeSolver<'m> {
    model: &'m Model,
    network: Arc<Network>,
    forest: Forest,
    limits: Limits,
    trace: Option<Trace>,
    stats: Stats,
    started: Instant,
}

impl<'m> TreeSolver<'m> {
    /// Prepares the algorithm for `model`, whose constraint graph must be a forest of
    /// binary constraints; `config` gives the limits and the trace (its strategy plays no
    /// part).
    pub fn new(model: &'m Model, config: &SearchConfig) -> Result<TreeSolver<'m>, NotATree> {
        let started = Instant::now();
        let network = Network::of(model);
        let forest = Forest::of(model, &network)?;
        Ok(TreeSolver {
            model,
            network,
            forest,
            limits: config.limits.clone(),
            trace: config.trace.clone(),
            stats: Stats::default(),
            started,
        })
    }

    /// The statistics so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The first solution (each variable the lowest value that agrees with its parent's,
    /// in the forest's order), or a proof that there is none.
    pub fn solve(&mut self) -> Outcome {
        let outcome = self.solve_inner();
        self.stats.elapsed = self.started.elapsed();
        outcome
    }

    fn solve_inner(&mut self) -> Outcome {
        let mut domains = match self.arc_consistent_domains() {
            Ok(Some(domains)) => domains,
            Ok(None) => return Outcome::Unsatisfiable,
            Err(kind) => return Outcome::Limit(kind),
        };
        let n = self.model.num_vars();
        let mut values = vec![0i32; n];
        let mut last_node: Option<u64> = None;
        let order = std::mem::take(&mut self.forest.order);
        let mut outcome = None;
        let nodes_in_all = order.iter().filter(|&&v| self.model.fixed(v).is_none()).count();
        for &var in &order {
            let chosen = match self.forest.parent[var.index()] {
                None => domains[var.index()].first().copied(),
                Some((parent, e)) => {
                    let b = values[parent.index()];
                    let candidates = std::mem::take(&mut domains[var.index()]);
                    let found = candidates
                        .iter()
                        .copied()
                        .find(|&a| self.allows(e, (parent, b), a));
                    domains[var.index()] = candidates;
                    found
                }
            };
            // Directional arc consistency leaves every value a support in each child.
            let Some(value) = chosen else {
                debug_assert!(false, "an assignment of the second pass failed");
                outcome = Some(Outcome::Unsatisfiable);
                break;
            };
            values[var.index()] = value;
            if self.model.fixed(var).is_some() {
                continue;
            }
            if let Some(kind) = self.limit(self.stats.nodes) {
                outcome = Some(Outcome::Limit(kind));
                break;
            }
            self.stats.nodes += 1;
            self.stats.max_depth = self.stats.nodes;
            let status = if self.stats.nodes as usize == nodes_in_all {
                NodeStatus::Solution
            } else {
                NodeStatus::Branch
            };
            last_node = self.trace_node(last_node, var, value, status);
        }
        self.forest.order = order;
        if let Some(outcome) = outcome {
            return outcome;
        }
        self.stats.solutions += 1;
        Outcome::Solved(values)
    }

    /// The number of solutions: for each tree, from the leaves up, the solutions of each
    /// variable's subtree for each of its values, multiplied over its children.
    pub fn count(&mut self) -> Result<u64, TreeCountError> {
        let counted = self.count_inner();
        self.stats.elapsed = self.started.elapsed();
        if let Ok(solutions) = counted {
            self.stats.solutions = solutions;
        }
        counted
    }

    fn count_inner(&mut self) -> Result<u64, TreeCountError> {
        let domains = match self.arc_consistent_domains() {
            Ok(Some(domains)) => domains,
            Ok(None) => return Ok(0),
            Err(kind) => return Err(TreeCountError::Limit(kind)),
        };
        let n = self.model.num_vars();
        // ways[v][k]: the solutions of v's subtree with v at its k-th value.
        let mut ways: Vec<Vec<u64>> = domains.iter().map(|d| vec![1; d.len()]).collect();
        let mut total: u64 = 1;
        for i in (0..n).rev() {
            let var = self.forest.order[i];
            let Some((parent, e)) = self.forest.parent[var.index()] else {
                let sum = ways[var.index()]
                    .iter()
                    .try_fold(0u64, |s, &w| s.checked_add(w))
                    .ok_or(TreeCountError::Overflow)?;
                total = total.checked_mul(sum).ok_or(TreeCountError::Overflow)?;
                continue;
            };
            for (k, &a) in domains[parent.index()].iter().enumerate() {
                let mut sum = 0u64;
                for (j, &b) in domains[var.index()].iter().enumerate() {
                    if self.allows(e, (parent, a), b) {
                        sum = sum
                            .checked_add(ways[var.index()][j])
                            .ok_or(TreeCountError::Overflow)?;
                    }
                }
                let w = &mut ways[parent.index()][k];
                *w = w.checked_mul(sum).ok_or(TreeCountError::Overflow)?;
            }
            if let Some(kind) = self.limit(0) {
                return Err(TreeCountError::Limit(kind));
            }
        }
        Ok(total)
    }

    /// The domains after the givens, exclusions and unary constraints, made directionally
    /// arc consistent from the last variable up; `None` when a domain empties.
    fn arc_consistent_domains(&mut self) -> Result<Option<Vec<Vec<i32>>>, LimitKind> {
        let model = self.model;
        let mut store = self.network.fresh_store(model);
        if !load_givens(model, &mut store, |_, _| {}) {
            return Ok(None);
        }
        let mut domains: Vec<Vec<i32>> = model.vars().map(|v| store.values(v).collect()).collect();
        let props = model.propagators();
        for &(var, p) in &self.forest.unary {
            let before = domains[var.index()].len();
            let arity = props[p].variables().len();
            domains[var.index()].retain(|&a| props[p].check(&vec![a; arity]));
            self.stats.checks += before as u64;
            self.stats.pruned += (before - domains[var.index()].len()) as u64;
        }
        if domains.iter().any(Vec::is_empty) {
            return Ok(None);
        }
        for i in (0..self.forest.order.len()).rev() {
            let child = self.forest.order[i];
            let Some((parent, e)) = self.forest.parent[child.index()] else {
                continue;
            };
            if let Some(kind) = self.limit(0) {
                return Err(kind);
            }
            // Make `parent -> child` consistent: each parent value keeps a support.
            self.stats.revisions += 1;
            let supports = std::mem::take(&mut domains[child.index()]);
            let mut checks = 0u64;
            let before = domains[parent.index()].len();
            domains[parent.index()].retain(|&a| {
                supports.iter().any(|&b| {
                    checks += 1;
                    self.allows(e, (parent, a), b)
                })
            });
            domains[child.index()] = supports;
            self.stats.checks += checks;
            self.stats.pruned += (before - domains[parent.index()].len()) as u64;
            if domains[parent.index()].is_empty() {
                return Ok(None);
            }
        }
        Ok(Some(domains))
    }

    /// Whether edge `e` allows `(var, value)` on one side and `other` on the other.
    fn allows(&self, e: usize, (var, value): (VarId, i32), other: i32) -> bool {
        let edge = &self.forest.edges[e];
        let (x, y) = if var == edge.a {
            (value, other)
        } else {
            (other, value)
        };
        allows(&self.network, self.model.propagators(), edge, x, y)
    }

    /// The limit reached, if any (`nodes` made so far).
    fn limit(&self, nodes: u64) -> Option<LimitKind> {
        if self.limits.nodes.is_some_and(|max| nodes >= max) {
            return Some(LimitKind::Nodes);
        }
        if self
            .limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Some(LimitKind::Cancelled);
        }
        match self.limits.time {
            Some(max) if self.started.elapsed() >= max => Some(LimitKind::Time),
            _ => None,
        }
    }

    /// Writes a node of the second pass, whose parent in the search tree is the node
    /// before it (the pass is one path); returns its id.
    fn trace_node(&self, parent: Option<u64>, var: VarId, value: i32, status: NodeStatus) -> Option<u64> {
        let trace = self.trace.as_ref()?;
        let id = trace.next_id();
        trace.emit(&TraceNode {
            id,
            parent,
            depth: self.stats.nodes as u32,
            name: self.model.name(var),
            var,
            value: Some(value),
            status,
            restart: 0,
        });
        Some(id)
    }
}

/// Whether `edge` (between its `a` and `b`) allows `a = x, b = y`.
fn allows(network: &Network, props: &[Arc<dyn Propagator>], edge: &Edge, x: i32, y: i32) -> bool {
    if let Some(arc) = edge.arc {
        if !network.arcs[arc as usize].kind.allows(x, y) {
            return false;
        }
    }
    edge.props.iter().all(|&p| {
        // The constraint's variables are the edge's two, maybe repeated.
        let values: SmallVec<[i32; 8]> = props[p]
            .variables()
            .iter()
            .map(|&v| if v == edge.a { x } else { y })
            .collect();
        props[p].check(&values)
    })
}
