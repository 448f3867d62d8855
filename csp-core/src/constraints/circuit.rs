//! `circuit`: successor variables (`succ[i] = j + start`: `j` follows `i`) whose arcs,
//! loops `succ[i] = i + start` aside (vertex `i` is not on the circuit), form exactly one
//! cycle, of at least two vertices (all loops is not a circuit, as in ACE); `size`: the
//! number of vertices on it.
//!
//! The posting adds a GAC all-different on the successors. This propagator follows the
//! chains of fixed arcs (Caseau and Laburthe's "no sub-tour"): a vertex entered by a fixed
//! arc is on the circuit (no loop); the end of a chain may not close it into a cycle
//! unless every vertex outside the chain can loop and the cycle can have that size; a
//! closed cycle sends every other vertex to its loop; and the size lies between the
//! vertices that cannot loop and those that can be on the circuit. O(n) per run.

use crate::constraints::exact_once_complete;
use crate::constraints::forward_check_last;
use crate::constraints::scope::{Arg, Term};
use crate::constraints::scratch::with_scratch;
use crate::propagation::{Conflict, Event, PropagationContext, Propagator};
use crate::var::VarId;

const NONE: u32 = u32::MAX;

/// One circuit over the successor variables `succ` (values from `start`).
#[derive(Clone, Debug)]
pub(crate) struct Circuit {
    scope: Vec<VarId>,
    succ: Vec<Arg>,
    start: i64,
    size: Option<Term>,
}

impl Circuit {
    pub(crate) fn new(scope: Vec<VarId>, succ: Vec<Arg>, start: i64, size: Option<Term>) -> Circuit {
        Circuit {
            scope,
            succ,
            start,
            size,
        }
    }

    /// The value that stands for vertex `j`.
    fn value_of(&self, j: usize) -> Result<i32, Conflict> {
        i32::try_from(self.start + j as i64).map_err(|_| Conflict)
    }

    /// Whether vertex `i` can loop.
    fn can_loop(&self, ctx: &PropagationContext<'_>, i: usize) -> bool {
        self.value_of(i).is_ok_and(|a| ctx.contains(self.succ[i].var, a))
    }

    /// The successor of vertex `i` if its arc is fixed and not a loop.
    fn fixed_arc(&self, ctx: &PropagationContext<'_>, i: usize) -> Result<Option<usize>, Conflict> {
        let x = self.succ[i].var;
        if ctx.size(x) != 1 {
            return Ok(None);
        }
        let j = i64::from(ctx.min(x).ok_or(Conflict)?) - self.start;
        let j = usize::try_from(j)
            .ok()
            .filter(|&j| j < self.succ.len())
            .ok_or(Conflict)?;
        Ok((j != i).then_some(j))
    }

    /// The bounds of the size: at least 2, at most n.
    fn size_bounds(&self, ctx: &PropagationContext<'_>) -> Result<(i64, i64), Conflict> {
        let n = self.succ.len() as i64;
        Ok(match self.size {
            None => (2, n),
            Some(t) => (t.min(ctx)?.max(2), t.max(ctx)?.min(n)),
        })
    }

    fn filter(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let n = self.succ.len();
        with_scratch(|s| {
            // The fixed arcs as they are now (the removals below may fix more: the next
            // run sees those).
            let (pred, arc) = (&mut s.indices, &mut s.more_indices);
            pred.clear();
            pred.resize(n, NONE);
            arc.clear();
            arc.resize(n, NONE);
            for (i, out) in arc.iter_mut().enumerate() {
                if let Some(j) = self.fixed_arc(ctx, i)? {
                    if pred[j] != NONE {
                        return Err(Conflict);
                    }
                    pred[j] = i as u32;
                    *out = j as u32;
                }
            }
            // A vertex entered by an arc is on the circuit.
            for (j, &p) in pred.iter().enumerate() {
                if p != NONE {
                    ctx.remove(self.succ[j].var, self.value_of(j)?)?;
                }
            }
            let (size_lo, size_hi) = self.size_bounds(ctx)?;
            if size_lo > size_hi {
                return Err(Conflict);
            }
            let mandatory = (0..n).filter(|&i| !self.can_loop(ctx, i)).count() as i64;
            let possible = (0..n)
                .filter(|&i| ctx.size(self.succ[i].var) > 1 || !self.can_loop(ctx, i))
                .count() as i64;
            if mandatory > size_hi || possible < size_lo {
                return Err(Conflict);
            }
            // The chains from their heads (a fixed arc out, none in).
            let visited = &mut s.flags;
            visited.clear();
            visited.resize(n, false);
            for head in 0..n {
                if pred[head] != NONE || arc[head] == NONE {
                    continue;
                }
                let (mut tail, mut nodes, mut inside) = (head, 0i64, 0i64);
                loop {
                    visited[tail] = true;
                    nodes += 1;
                    inside += i64::from(!self.can_loop(ctx, tail));
                    match arc[tail] {
                        NONE => break,
                        next => tail = next as usize,
                    }
                }
                // Closing the chain makes a cycle of `nodes` vertices and loops the rest.
                let closable = inside == mandatory && (size_lo..=size_hi).contains(&nodes);
                if !closable {
                    ctx.remove(self.succ[tail].var, self.value_of(head)?)?;
                }
            }
            // Vertices entered but not reached from a head lie on closed cycles.
            let mut cycle = None;
            for i in 0..n {
                if visited[i] || pred[i] == NONE {
                    continue;
                }
                if cycle.is_some() {
                    return Err(Conflict);
                }
                let mut length = 0i64;
                let mut v = i;
                while !visited[v] {
                    visited[v] = true;
                    length += 1;
                    v = match arc[v] {
                        NONE => return Err(Conflict),
                        next => next as usize,
                    };
                }
                cycle = Some(length);
            }
            if let Some(length) = cycle {
                if !(size_lo..=size_hi).contains(&length) {
                    return Err(Conflict);
                }
                // The one cycle: every vertex off it loops.
                for (k, &on) in visited.iter().enumerate() {
                    if !on {
                        ctx.fix(self.succ[k].var, self.value_of(k)?)?;
                    }
                }
                if let Some(t) = self.size {
                    t.restrict(ctx, length, length)?;
                }
                return Ok(());
            }
            // The size between the vertices that cannot loop and those that can be on it.
            if let Some(t) = self.size {
                t.restrict(ctx, mandatory.max(2), possible)?;
            }
            let (lo, hi) = self.size_bounds(ctx)?;
            for i in 0..n {
                let open = ctx.size(self.succ[i].var) > 1 && self.can_loop(ctx, i);
                if open && hi == mandatory {
                    ctx.fix(self.succ[i].var, self.value_of(i)?)?;
                } else if open && lo == possible {
                    ctx.remove(self.succ[i].var, self.value_of(i)?)?;
                }
            }
            Ok(())
        })
    }
}

impl Propagator for Circuit {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let n = self.succ.len();
        let next: Option<Vec<usize>> = self
            .succ
            .iter()
            .map(|x| {
                usize::try_from(i64::from(x.value(values)) - self.start)
                    .ok()
                    .filter(|&j| j < n)
            })
            .collect();
        let Some(next) = next else {
            return false;
        };
        let mut seen = vec![false; n];
        for &j in &next {
            if std::mem::replace(&mut seen[j], true) {
                return false;
            }
        }
        let on: Vec<usize> = (0..n).filter(|&i| next[i] != i).collect();
        if on.len() < 2 {
            return false;
        }
        // Following the arcs from one vertex on the circuit visits all of them.
        let (mut v, mut steps) = (on[0], 0);
        loop {
            v = next[v];
            steps += 1;
            if v == on[0] || steps > n {
                break;
            }
        }
        let size_ok = self.size.is_none_or(|t| t.value(values) == on.len() as i64);
        steps == on.len() && size_ok
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        self.filter(ctx)?;
        forward_check_last(ctx, &self.scope, |values| self.check(values))
    }

    exact_once_complete!();

    fn name(&self) -> &str {
        "circuit"
    }
}
