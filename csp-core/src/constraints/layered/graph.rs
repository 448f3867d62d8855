//! The layered graph of `regular` and `mdd`: node 0 is the source, layer `i` of edges
//! reads the value of `seq[i]`, and every node of the last layer accepts. Built with only
//! the edges on some source-to-accepting path through the initial domains.
//!
//! Each run sweeps the edges forward (the nodes reachable from the source through the
//! current domains), then backward (the nodes from which an accepting node is reachable),
//! keeping the values of the edges on both: generalised arc consistency when the variables
//! of the sequence are distinct, in O(edges). It holds no state between runs.

use smallvec::SmallVec;

use crate::constraints::exact_once_complete;
use crate::constraints::forward_check_last;
use crate::constraints::scope::Arg;
use crate::constraints::scratch::with_scratch;
use crate::propagation::{Conflict, Event, PropagationContext, Propagator};
use crate::var::VarId;

/// An edge between two nodes (global indices) of consecutive layers.
#[derive(Clone, Copy, Debug)]
struct Edge {
    from: u32,
    to: u32,
    value: i32,
}

/// An automaton as [`LayeredGraph::unroll`] reads it (an MDD is one whose states are its
/// nodes, with the terminal as the only accepting state).
#[derive(Clone, Copy)]
pub(crate) struct Machine<'a> {
    pub(crate) states: usize,
    pub(crate) start: usize,
    /// Per state, whether it accepts.
    pub(crate) accepting: &'a [bool],
    pub(crate) transitions: &'a [(usize, i32, usize)],
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct LayeredGraph {
    scope: Vec<VarId>,
    seq: Vec<Arg>,
    /// The nodes of layer `i` are `node_start[i]..node_start[i + 1]` (`seq.len() + 1` layers).
    node_start: Vec<u32>,
    /// The edges of layer `i` are `edge_start[i]..edge_start[i + 1]`.
    edge_start: Vec<u32>,
    edges: Vec<Edge>,
    /// A variable occurs twice in the sequence: the sweep is then sound but not exact.
    repeats: bool,
    name: &'static str,
}

impl LayeredGraph {
    /// Unrolls the automaton with states `0..states` over `seq`: layer `i` holds the
    /// transitions from the states reachable after `i` values, restricted to values
    /// `allowed(i, value)` and to paths that end in an accepting state.
    pub(crate) fn unroll(
        scope: Vec<VarId>,
        seq: Vec<Arg>,
        machine: Machine<'_>,
        allowed: impl Fn(usize, i32) -> bool,
        name: &'static str,
    ) -> LayeredGraph {
        let Machine {
            states,
            start,
            accepting,
            transitions,
        } = machine;
        let n = seq.len();
        // The transitions by source state.
        let mut by_state: Vec<Vec<(i32, usize)>> = vec![Vec::new(); states];
        for &(from, value, to) in transitions {
            by_state[from].push((value, to));
        }
        // Forward: the states reachable at each layer.
        let mut reach = vec![vec![false; states]; n + 1];
        reach[0][start] = true;
        for i in 0..n {
            for s in 0..states {
                if reach[i][s] {
                    for &(value, to) in &by_state[s] {
                        if allowed(i, value) {
                            reach[i + 1][to] = true;
                        }
                    }
                }
            }
        }
        // Backward: the reachable states from which an accepting one is reached.
        let mut alive = vec![vec![false; states]; n + 1];
        for s in 0..states {
            alive[n][s] = reach[n][s] && accepting[s];
        }
        for i in (0..n).rev() {
            for s in 0..states {
                alive[i][s] = reach[i][s]
                    && by_state[s]
                        .iter()
                        .any(|&(value, to)| alive[i + 1][to] && allowed(i, value));
            }
        }
        // Number the live states layer by layer; the start state is node 0.
        let mut node_of = vec![vec![u32::MAX; states]; n + 1];
        let mut node_start = Vec::with_capacity(n + 2);
        let mut next = 0u32;
        for i in 0..=n {
            node_start.push(next);
            for s in 0..states {
                if alive[i][s] {
                    node_of[i][s] = next;
                    next += 1;
                }
            }
        }
        node_start.push(next);
        let mut edges = Vec::new();
        let mut edge_start = Vec::with_capacity(n + 1);
        for i in 0..n {
            edge_start.push(edges.len() as u32);
            for s in 0..states {
                if !alive[i][s] {
                    continue;
                }
                for &(value, to) in &by_state[s] {
                    if alive[i + 1][to] && allowed(i, value) {
                        edges.push(Edge {
                            from: node_of[i][s],
                            to: node_of[i + 1][to],
                            value,
                        });
                    }
                }
            }
        }
        edge_start.push(edges.len() as u32);
        let repeats = scope.len() < seq.len();
        LayeredGraph {
            scope,
            seq,
            node_start,
            edge_start,
            edges,
            repeats,
            name,
        }
    }

    fn layer(&self, i: usize) -> &[Edge] {
        &self.edges[self.edge_start[i] as usize..self.edge_start[i + 1] as usize]
    }

    fn num_nodes(&self) -> usize {
        *self.node_start.last().unwrap_or(&0) as usize
    }

    /// Whether the graph has a path at all (its source node exists).
    fn has_source(&self) -> bool {
        self.node_start[1] > 0
    }
}

impl Propagator for LayeredGraph {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn heap_bytes(&self) -> usize {
        size_of_val(&self.seq[..])
            + size_of_val(&self.node_start[..])
            + size_of_val(&self.edge_start[..])
            + size_of_val(&self.edges[..])
    }

    fn check(&self, values: &[i32]) -> bool {
        if !self.has_source() {
            return false;
        }
        let mut here = vec![false; self.num_nodes()];
        here[0] = true;
        for (i, x) in self.seq.iter().enumerate() {
            let a = x.value(values);
            for e in self.layer(i) {
                if here[e.from as usize] && e.value == a {
                    here[e.to as usize] = true;
                }
            }
        }
        let n = self.seq.len();
        (self.node_start[n]..self.node_start[n + 1]).any(|v| here[v as usize])
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        if !self.has_source() {
            return Err(Conflict);
        }
        let n = self.seq.len();
        with_scratch(|s| {
            let (forward, backward) = (&mut s.flags, &mut s.more_flags);
            forward.clear();
            forward.resize(self.num_nodes(), false);
            backward.clear();
            backward.resize(self.num_nodes(), false);
            forward[0] = true;
            for (i, x) in self.seq.iter().enumerate() {
                for e in self.layer(i) {
                    if forward[e.from as usize] && ctx.contains(x.var, e.value) {
                        forward[e.to as usize] = true;
                    }
                }
            }
            let last = self.node_start[n] as usize..self.node_start[n + 1] as usize;
            let mut any = false;
            for v in last {
                backward[v] = forward[v];
                any |= forward[v];
            }
            if !any {
                return Err(Conflict);
            }
            for (i, x) in self.seq.iter().enumerate().rev() {
                let base = i64::from(ctx.base(x.var));
                let words = ctx.bits(x.var).len();
                let mut mask: SmallVec<[u64; 8]> = SmallVec::from_elem(0, words);
                for e in self.layer(i) {
                    if backward[e.to as usize] && forward[e.from as usize] && ctx.contains(x.var, e.value) {
                        backward[e.from as usize] = true;
                        let bit = (i64::from(e.value) - base) as usize;
                        mask[bit / 64] |= 1 << (bit % 64);
                    }
                }
                ctx.retain_bits(x.var, &mask)?;
            }
            Ok(())
        })?;
        if self.repeats {
            forward_check_last(ctx, &self.scope, |values| self.check(values))?;
        }
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        !self.repeats
    }

    exact_once_complete!();

    fn name(&self) -> &str {
        self.name
    }
}
