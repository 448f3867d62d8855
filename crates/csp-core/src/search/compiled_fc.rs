//! The compiled forward-checking search: the search of [`Solver::advance`] for the
//! textbook setting of binary models, as one loop over plain slices.
//!
//! It applies when the model has binary constraints only, every domain is the one word
//! at its variable's index (one shared base) and every forward-checking step is compiled
//! to a bit pattern ([`crate::network::Network::compiled_fc`]), and the strategy is
//! forward checking with ascending values and static or MRV order (ties to the lowest
//! index), without restarts. The nodes, their order and every statistic are those of the
//! general loop: only the bookkeeping around them is lighter (the domains, sizes and
//! trail stay in registers, and nothing is dispatched per node).

use std::sync::Arc;

use super::{Frame, Phase, Solver, Step, limit_hit};
use crate::config::{Inference, TieBreak, ValueOrder, VarOrder};
use crate::model::VarId;
use crate::network::FcStep;
use crate::stats::Stats;
use crate::store::UniformStore;

impl Solver<'_> {
    /// Whether [`Solver::advance_compiled_fc`] can run this search.
    pub(super) fn compiled_fc_applies(&self) -> bool {
        let strategy = &self.config.strategy;
        let order = match strategy.var_order {
            VarOrder::Static => true,
            VarOrder::Mrv => self.config.tie_break == TieBreak::Lowest,
            VarOrder::MrvDegree | VarOrder::DomWdeg => false,
        };
        self.network.compiled_fc
            && !self.final_check
            && order
            && strategy.inference == Inference::Fc
            && strategy.value_order == ValueOrder::Asc
            && self.config.restarts.is_none()
    }

    /// The search loop of [`Solver::advance`] in the compiled setting (see the module
    /// documentation), from a state that loop could have left, to the next solution,
    /// exhaustion or limit.
    pub(super) fn advance_compiled_fc(&mut self) -> Step {
        let network = Arc::clone(&self.network);
        let mrv = self.config.strategy.var_order == VarOrder::Mrv;
        let Solver {
            store,
            assigned,
            value,
            frames,
            stats,
            num_unassigned,
            descend,
            phase,
            started,
            config,
            ..
        } = self;
        let mut store = store.uniform_mut().expect("the uniform layout");
        let n = assigned.len();
        loop {
            if *descend {
                *descend = false;
                if *num_unassigned == 0 {
                    stats.solutions += 1;
                    return Step::Solution;
                }
                let var = if mrv {
                    first_smallest(assigned, store.size)
                } else {
                    let from = frames.last().map_or(0, |f| f.var.index() + 1);
                    (from..n)
                        .chain(0..from)
                        .find(|&i| !assigned[i])
                        .expect("an unassigned variable")
                };
                frames.push(Frame {
                    var: VarId(var as u32),
                    mark: store.mark(),
                    open: false,
                    last: None,
                    start: 0,
                    len: 0,
                    pos: 0,
                });
            }
            let depth = frames.len() as u64;
            let Some(top) = frames.last_mut() else {
                *phase = Phase::Done;
                return Step::Exhausted;
            };
            let var = top.var.index();
            if top.open {
                top.open = false;
                store.undo_to(top.mark);
                assigned[var] = false;
                *num_unassigned += 1;
                stats.backtracks += 1;
            }
            if let Some(kind) = limit_hit(&config.limits, stats.nodes, *started) {
                return Step::Limit(kind);
            }
            // The next value above the last one tried.
            let word = store.words[var];
            let untried = match top.last {
                None => word,
                Some(last) => match last - store.base + 1 {
                    from @ 0..64 => word & (!0u64 << from),
                    _ => 0,
                },
            };
            if untried == 0 {
                frames.pop();
                continue;
            }
            let rel = untried.trailing_zeros();
            let a = store.base + rel as i32;
            top.last = Some(a);
            top.open = true;
            stats.nodes += 1;
            stats.max_depth = stats.max_depth.max(depth);
            let others = word & !(1u64 << rel);
            if others != 0 {
                store.clear(var, others);
            }
            assigned[var] = true;
            value[var] = a;
            *num_unassigned -= 1;
            if clear_neighbours(&mut store, network.fc.row(var), assigned, i64::from(rel), stats) {
                *descend = true;
            }
        }
    }
}

/// Forward checking from a variable just given the value at bit `rel`: clears each
/// step's pattern from its unassigned neighbour. Returns `false` at a wiped-out domain.
#[inline(always)]
fn clear_neighbours(
    store: &mut UniformStore<'_>,
    steps: &[FcStep],
    assigned: &[bool],
    rel: i64,
    stats: &mut Stats,
) -> bool {
    let (mut revisions, mut checks, mut pruned) = (0u64, 0u64, 0u64);
    let mut holds = true;
    for step in steps {
        let other = step.other.index();
        // An assigned neighbour holds a value consistent with this one (forward checking
        // from it removed the others from this domain), so its pattern hits nothing:
        // only the statistics need to leave it out, and they do without a branch.
        let open = u64::from(!assigned[other]);
        revisions += open;
        checks += open * u64::from(step.checks);
        let hit = store.words[other] & step.cleared_at(rel);
        if hit != 0 {
            pruned += u64::from(hit.count_ones());
            if store.clear(other, hit) == 0 {
                holds = false;
                break;
            }
        }
    }
    stats.revisions += revisions;
    stats.checks += checks;
    stats.pruned += pruned;
    holds
}

/// The first unassigned variable with the fewest values: the choice of
/// [`super::smallest_size`], by a scan without data-dependent branches (a forced
/// variable has the fewest values, so reading on past it changes nothing).
#[inline(always)]
fn first_smallest(assigned: &[bool], sizes: &[u32]) -> usize {
    let (mut best, mut at) = (u64::MAX, 0);
    for (i, (&assigned, &size)) in assigned.iter().zip(sizes).enumerate() {
        // Assigned variables sort after every unassigned one.
        let key = u64::from(size) | u64::from(assigned) << 32;
        let better = key < best;
        best = if better { key } else { best };
        at = if better { i } else { at };
    }
    debug_assert!(best >> 32 == 0, "an unassigned variable");
    at
}
