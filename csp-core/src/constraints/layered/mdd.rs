//! Multi-valued decision diagrams for `mdd`: a root, a terminal, and labelled edges that
//! go from each layer to the next.

use crate::error::ModelError;

/// A multi-valued decision diagram: nodes `0..nodes`, a root and a terminal, and
/// labelled edges `(from, value, to)`. Every node reachable from the root lies at one
/// depth (its distance from the root), every edge goes one layer down, and the terminal
/// lies at the depth that the sequence of variables has as its length (checked when posted).
///
/// ```
/// use csp_core::Mdd;
/// // Two layers: (0 then 1) or (1 then 0).
/// let mdd = Mdd::new(4, 0, 3, vec![(0, 0, 1), (0, 1, 2), (1, 1, 3), (2, 0, 3)]).unwrap();
/// assert_eq!(mdd.depth().unwrap(), 2);
/// assert!(Mdd::new(3, 0, 2, vec![(0, 0, 1), (1, 0, 2), (0, 1, 2)]).is_err()); // 2 at two depths
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mdd {
    /// The number of nodes.
    pub nodes: usize,
    /// The root.
    pub root: usize,
    /// The terminal (the accepting node).
    pub terminal: usize,
    /// The edges `(from, value, to)`.
    pub transitions: Vec<(usize, i32, usize)>,
}

impl Mdd {
    /// A diagram, checked: nodes below `nodes`, each reachable node at one depth, and the
    /// terminal reachable.
    pub fn new(
        nodes: usize,
        root: usize,
        terminal: usize,
        transitions: Vec<(usize, i32, usize)>,
    ) -> Result<Mdd, ModelError> {
        let mdd = Mdd {
            nodes,
            root,
            terminal,
            transitions,
        };
        mdd.depth()?;
        Ok(mdd)
    }

    /// The depth of the terminal (the number of variables the diagram reads), or
    /// [`ModelError::InvalidConstraint`] if the diagram is malformed.
    pub fn depth(&self) -> Result<usize, ModelError> {
        let invalid = |reason: String| ModelError::InvalidConstraint {
            constraint: "mdd",
            reason,
        };
        for (what, node) in [("root", self.root), ("terminal", self.terminal)] {
            if node >= self.nodes {
                return Err(invalid(format!(
                    "the {what} {node} does not exist (the diagram has {} nodes)",
                    self.nodes
                )));
            }
        }
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); self.nodes];
        for &(from, _, to) in &self.transitions {
            if from >= self.nodes || to >= self.nodes {
                return Err(invalid(format!(
                    "the edge ({from}, {to}) names a node that does not exist (the diagram has {} nodes)",
                    self.nodes
                )));
            }
            out[from].push(to);
        }
        // Depths by breadth-first search from the root.
        let mut depth = vec![usize::MAX; self.nodes];
        depth[self.root] = 0;
        let mut queue = std::collections::VecDeque::from([self.root]);
        while let Some(u) = queue.pop_front() {
            for &v in &out[u] {
                if depth[v] == usize::MAX {
                    depth[v] = depth[u] + 1;
                    queue.push_back(v);
                } else if depth[v] != depth[u] + 1 {
                    return Err(invalid(format!(
                        "node {v} lies at depths {} and {}: the diagram is not layered",
                        depth[v],
                        depth[u] + 1
                    )));
                }
            }
        }
        match depth[self.terminal] {
            usize::MAX => Err(invalid("the terminal is not reachable from the root".to_string())),
            d if !out[self.terminal].is_empty() => {
                Err(invalid(format!("the terminal (at depth {d}) has outgoing edges")))
            }
            d => Ok(d),
        }
    }
}
