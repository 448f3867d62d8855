//! LCV (least constraining value): the values of the chosen variable ordered by how
//! many legal values of unassigned neighbours each would remove, fewest first, ties to
//! the lower value. A neighbour's value excluded by several constraints counts once.

use std::sync::Arc;

use crate::network::Network;
use crate::propagation::Propagator;
use crate::search::inference::none::Legality;
use crate::var::VarId;

/// One tie between the chosen variable and a neighbour: the binary arc
/// `other -> var`, or an n-ary constraint as `(propagator, position of var, position of
/// other)`.
#[derive(Clone, Copy)]
enum Tie {
    Arc(u32),
    Propagator(u32, u32, u32),
}

/// The units of work (one per binary test, the arity per n-ary test) between two reads
/// of the clock: about a tenth of a millisecond.
const CHECK_WORK: u64 = 1 << 16;

/// Scratch for LCV, reused from node to node: the chosen variable's ties to its
/// neighbours (gathered per decision, so memory stays linear in the model, not in the
/// square of its variables) and the scores of its values.
#[derive(Default)]
pub(in crate::search) struct Lcv {
    ties: Vec<(VarId, Tie)>,
    scores: Vec<(u64, i32)>,
}

impl Lcv {
    /// `var`'s neighbours and how each is tied to it, grouped by neighbour in increasing
    /// order; within a neighbour the arc first, then the n-ary constraints in watch order.
    fn gather_ties(&mut self, var: VarId, network: &Network, props: &[Arc<dyn Propagator>]) {
        self.ties.clear();
        for adj in network.adjacency.row(var.index()) {
            self.ties.push((adj.other, Tie::Arc(adj.in_arc)));
        }
        for watch in network.watches.row(var.index()) {
            for (j, &other) in props[watch.prop as usize].variables().iter().enumerate() {
                if other != var {
                    self.ties
                        .push((other, Tie::Propagator(watch.prop, watch.local, j as u32)));
                }
            }
        }
        // Stable: the order of ties within a neighbour is kept.
        self.ties.sort_by_key(|&(other, _)| other);
    }

    /// `var`'s values in LCV order, with their scores; `None` if `expired` said so (it is
    /// asked every [`CHECK_WORK`] units of work: the work grows with the square of the
    /// domains). `none`: the inference is `none`, so a neighbour's value counts only if it
    /// is legal (agrees with the assigned variables).
    pub(in crate::search) fn order(
        &mut self,
        var: VarId,
        legality: &Legality<'_>,
        none: bool,
        checks: &mut u64,
        expired: &mut dyn FnMut() -> bool,
    ) -> Option<&[(u64, i32)]> {
        let (network, store) = (legality.network(), legality.store());
        self.gather_ties(var, network, legality.props());
        let ties = &self.ties[..];
        self.scores.clear();
        // What the tests cost so far and when the clock is read next. An n-ary test
        // reads every variable of its constraint (n-queens' all-different has n), so it
        // counts as many units as its arity: a clock read per so many tests would come
        // too late on a large model.
        let (mut work, mut next_check) = (0u64, CHECK_WORK);
        let mut cursor = None;
        while let Some(a) = store.next_value(var, cursor) {
            cursor = Some(a);
            let mut removed = 0u64;
            for group in ties.chunk_by(|x, y| x.0 == y.0) {
                let other = group[0].0;
                if legality.is_assigned(other) {
                    continue;
                }
                let cost: u64 = (group.iter())
                    .map(|&(_, tie)| match tie {
                        Tie::Arc(_) => 1,
                        Tie::Propagator(p, ..) => legality.props()[p as usize].variables().len() as u64,
                    })
                    .sum();
                let mut c = None;
                while let Some(b) = store.next_value(other, c) {
                    c = Some(b);
                    work += cost;
                    if work >= next_check {
                        next_check = work + CHECK_WORK;
                        if expired() {
                            return None;
                        }
                    }
                    // A value excluded by several ties counts once.
                    let excluded = group.iter().any(|&(_, tie)| match tie {
                        Tie::Arc(arc) => {
                            *checks += 1;
                            !network.arcs[arc as usize].kind.allows(b, a)
                        }
                        Tie::Propagator(p, local_var, local_other) => !legality.prop_consistent(
                            p as usize,
                            local_other as usize,
                            b,
                            Some((local_var as usize, a)),
                            checks,
                        ),
                    });
                    if excluded && (!none || legality.agrees(other, b, checks)) {
                        removed += 1;
                    }
                }
            }
            self.scores.push((removed, a));
        }
        self.scores.sort_unstable();
        Some(&self.scores)
    }
}
