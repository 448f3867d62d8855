//! The constraint graph of a model as a forest: its edges (binary constraints), a
//! topological order of each tree from its root, and, when the graph is no forest, why.

use std::collections::VecDeque;

use thiserror::Error;

use crate::model::Model;
use crate::network::Network;
use crate::var::VarId;

/// Why a model is no case for the tree-structured algorithm.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotATree {
    /// The constraint graph has a cycle: its variables in order, the first repeated last.
    #[error("the constraint graph has a cycle: {}", .0.join(" - "))]
    Cycle(Vec<String>),
    /// A constraint on three variables or more.
    #[error(
        "constraint {index} is on {arity} variables ({}): the tree-structured algorithm takes binary constraints only",
        .scope.join(", ")
    )]
    NAry {
        /// The constraint's index among the model's n-ary constraints.
        index: usize,
        /// Its number of distinct variables.
        arity: usize,
        /// Their names (the first few).
        scope: Vec<String>,
    },
}

/// A binary constraint between two variables `a` and `b`: the network's arc pair and the
/// n-ary constraints that happen to be on just these two.
pub(super) struct Edge {
    pub(super) a: VarId,
    pub(super) b: VarId,
    /// The arc `a -> b` of the network (its reverse is the next arc), if any.
    pub(super) arc: Option<u32>,
    /// Constraints on exactly these two variables.
    pub(super) props: Vec<usize>,
}

/// The forest: each variable's parent and the edge to it, and every variable in an order
/// where a parent comes before its children (the roots, each tree's lowest variable,
/// first of their trees).
pub(super) struct Forest {
    pub(super) order: Vec<VarId>,
    /// The parent of each variable that has one, and the edge to it.
    pub(super) parent: Vec<Option<(VarId, usize)>>,
    pub(super) edges: Vec<Edge>,
    /// Constraints on one variable, with it (filters of its domain).
    pub(super) unary: Vec<(VarId, usize)>,
}

impl Forest {
    /// The forest of `model`'s constraint graph, or why it is none.
    pub(super) fn of(model: &Model, network: &Network) -> Result<Forest, NotATree> {
        let n = model.num_vars();
        let mut edges: Vec<Edge> = Vec::new();
        let mut edge_of: std::collections::HashMap<(u32, u32), usize> = std::collections::HashMap::new();
        // The network's pairs: arcs `2k` and `2k + 1` are the two directions of pair `k`.
        for (k, pair) in network.arcs.chunks(2).enumerate() {
            let (a, b) = (pair[0].x, pair[0].y);
            edge_of.insert((a.0.min(b.0), a.0.max(b.0)), edges.len());
            edges.push(Edge {
                a,
                b,
                arc: Some(2 * k as u32),
                props: Vec::new(),
            });
        }
        let mut unary = Vec::new();
        for (p, prop) in model.propagators().iter().enumerate() {
            let mut scope: Vec<VarId> = prop.variables().to_vec();
            scope.sort_unstable();
            scope.dedup();
            match scope[..] {
                [] => {}
                [x] => unary.push((x, p)),
                [x, y] => {
                    let at = *edge_of.entry((x.0, y.0)).or_insert_with(|| {
                        edges.push(Edge {
                            a: x,
                            b: y,
                            arc: None,
                            props: Vec::new(),
                        });
                        edges.len() - 1
                    });
                    edges[at].props.push(p);
                }
                _ => {
                    return Err(NotATree::NAry {
                        index: p,
                        arity: scope.len(),
                        scope: scope.iter().take(6).map(|&v| model.name(v).to_string()).collect(),
                    });
                }
            }
        }
        // Union-find over the edges in order: the first edge inside a tree closes a cycle.
        let mut root: Vec<u32> = (0..n as u32).collect();
        fn find(root: &mut [u32], mut v: u32) -> u32 {
            while root[v as usize] != v {
                root[v as usize] = root[root[v as usize] as usize];
                v = root[v as usize];
            }
            v
        }
        let mut adjacency: Vec<Vec<(VarId, usize)>> = vec![Vec::new(); n];
        for (e, edge) in edges.iter().enumerate() {
            let (a, b) = (edge.a, edge.b);
            let (ra, rb) = (find(&mut root, a.0), find(&mut root, b.0));
            if ra == rb {
                let mut cycle: Vec<String> = path(&adjacency, a, b)
                    .into_iter()
                    .map(|v| model.name(v).to_string())
                    .collect();
                cycle.push(model.name(a).to_string());
                return Err(NotATree::Cycle(cycle));
            }
            root[ra as usize] = rb;
            adjacency[a.index()].push((b, e));
            adjacency[b.index()].push((a, e));
        }
        // Each tree from its lowest variable, breadth first.
        let mut parent = vec![None; n];
        let mut seen = vec![false; n];
        let mut order = Vec::with_capacity(n);
        let mut queue = VecDeque::new();
        for start in 0..n {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            queue.push_back(VarId(start as u32));
            while let Some(v) = queue.pop_front() {
                order.push(v);
                for &(w, e) in &adjacency[v.index()] {
                    if !seen[w.index()] {
                        seen[w.index()] = true;
                        parent[w.index()] = Some((v, e));
                        queue.push_back(w);
                    }
                }
            }
        }
        Ok(Forest {
            order,
            parent,
            edges,
            unary,
        })
    }
}

/// The path from `from` to `to` in a forest given by its adjacency (they are in one tree).
fn path(adjacency: &[Vec<(VarId, usize)>], from: VarId, to: VarId) -> Vec<VarId> {
    let mut came_from: std::collections::HashMap<VarId, VarId> = std::collections::HashMap::new();
    let mut queue = VecDeque::from([from]);
    came_from.insert(from, from);
    while let Some(v) = queue.pop_front() {
        if v == to {
            break;
        }
        for &(w, _) in &adjacency[v.index()] {
            if let std::collections::hash_map::Entry::Vacant(slot) = came_from.entry(w) {
                slot.insert(v);
                queue.push_back(w);
            }
        }
    }
    let mut out = vec![to];
    let mut at = to;
    while at != from {
        at = came_from[&at];
        out.push(at);
    }
    out.reverse();
    out
}
