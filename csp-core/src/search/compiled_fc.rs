//! The compiled forward-checking search: the search of [`Solver::advance`] for the
//! textbook setting of binary models, as one loop over plain slices.
//!
//! It applies when the model has binary constraints only, every domain is the one word
//! at its variable's index (one shared base) and every forward-checking step is compiled
//! to a bit pattern ([`crate::network::Network::compiled_fc`]), and the strategy is
//! forward checking with ascending values and static or MRV order (ties to the lowest
//! index), without restarts. The nodes, their order and every statistic are those of the
//! general loop: only the bookkeeping around them is lighter. The unassigned variables
//! are a bitset, so forward checking visits just the unassigned neighbours (the set
//! ANDed with the variable's neighbour set) and MRV scans just the unassigned
//! variables; nothing is dispatched per node, and the statistics stay in registers.
//!
//! Optimising ([`super::branch_and_bound`]), it keeps the bound's rules on the
//! objective's word: a level that leaves the objective no value within the bound ends,
//! values beyond it are skipped, and each node prunes the objective before forward
//! checking, as `decide` does.

use super::Solver;
use super::driver::{Phase, Step, limit_hit};
use super::frame::{Choice, Frame};
use super::state::SearchState;
use super::var_order::mrv::first_smallest;
use crate::config::VarOrder;
use crate::network::FcStep;
use crate::stats::Stats;
use crate::store::UniformStore;
use crate::var::VarId;

impl Solver<'_> {
    /// The search loop of [`Solver::advance`] in the compiled setting (see the module
    /// documentation), from a state that loop could have left, to the next solution,
    /// exhaustion or limit.
    pub(super) fn advance_compiled_fc(&mut self) -> Step {
        // Optimising: the objective and its values within the bound, which no solution
        // changes inside this loop (`branch_and_bound.rs` has the rules kept below).
        let bound = self.store.uniform_base().and_then(|base| self.bound_word(base));
        // Up to 64 variables, the sets are single words and their loops unroll. The loop
        // without a bound has no test of one: a test per node showed in the time of a
        // search without an objective (docs/experiments.md, 2026-11-27).
        match (self.state.open_vars.len(), bound) {
            (1, None) => self.advance_compiled_fc_in::<1, false>((0, !0)),
            (_, None) => self.advance_compiled_fc_in::<0, false>((0, !0)),
            (1, Some(bound)) => self.advance_compiled_fc_in::<1, true>(bound),
            (_, Some(bound)) => self.advance_compiled_fc_in::<0, true>(bound),
        }
    }

    /// [`Solver::advance_compiled_fc`] over sets of `WORDS` words (0: any number), under
    /// the `bound` on the objective (its variable and the bits of its word within the
    /// bound) if `BOUNDED`.
    fn advance_compiled_fc_in<const WORDS: usize, const BOUNDED: bool>(
        &mut self,
        bound: (usize, u64),
    ) -> Step {
        let network = &*self.network;
        let sets = network.compiled_fc.as_ref().expect("the compiled setting");
        let words = if WORDS == 0 { sets.words() } else { WORDS };
        let mrv = self.config.strategy.var_order == VarOrder::Mrv;
        let clock_every = self.plan.clock_every;
        let (objective, within) = bound;
        let Solver {
            store,
            state,
            stats: solver_stats,
            descend,
            phase,
            started,
            config,
            ..
        } = self;
        let SearchState {
            assigned,
            value,
            frames,
            num_unassigned,
            open_vars: open,
            ..
        } = state;
        let mut store = store.uniform_mut().expect("the uniform layout");
        let n = assigned.len();
        debug_assert!(
            assigned
                .iter()
                .enumerate()
                .all(|(i, &a)| (open[i / 64] >> (i % 64) & 1 == 0) == a),
            "the open set mirrors `assigned`"
        );
        // The statistics stay in registers until the loop returns.
        let mut local = solver_stats.clone();
        let stats = &mut local;
        let step = loop {
            if *descend {
                *descend = false;
                if *num_unassigned == 0 {
                    stats.solutions += 1;
                    break Step::Solution;
                }
                let var = if mrv {
                    first_smallest(&open[..words], store.size)
                } else {
                    let from = frames.last().map_or(0, |f| f.var.index() + 1);
                    (from..n)
                        .chain(0..from)
                        .find(|&i| !assigned[i])
                        .expect("an unassigned variable")
                };
                frames.push(Frame::on_values(
                    VarId(var as u32),
                    store.mark(),
                    store.words[var],
                    0,
                    0,
                ));
            }
            let depth = frames.len() as u64;
            let Some(top) = frames.last_mut() else {
                *phase = Phase::Done;
                break Step::Exhausted;
            };
            let var = top.var.index();
            if top.open {
                top.open = false;
                store.undo_to(top.mark);
                assigned[var] = false;
                set_bit(open, var, true);
                *num_unassigned += 1;
                stats.backtracks += 1;
            }
            if let Some(kind) = limit_hit(config, stats, *started, clock_every) {
                break Step::Limit(kind);
            }
            // The lowest value not tried yet. The frame keeps `untried` and `last` as the
            // general loop does, so either loop can carry on the other's search (`count`
            // after a `solve` with restarts switches to this one).
            let Choice::Values(cursor) = &mut top.choice else {
                unreachable!("the compiled loop makes frames on values only");
            };
            let mut untried = cursor.untried;
            if BOUNDED {
                if store.words[objective] & within == 0 {
                    // The level leaves the objective no value within the bound.
                    untried = 0;
                } else if var == objective {
                    // Values beyond the bound are skipped, never nodes.
                    untried &= within;
                }
            }
            if untried == 0 {
                frames.pop();
                continue;
            }
            let rel = untried.trailing_zeros();
            cursor.untried = untried & (untried - 1);
            let a = store.base + rel as i32;
            cursor.last = Some(a);
            let word = store.words[var];
            top.open = true;
            stats.nodes += 1;
            stats.max_depth = stats.max_depth.max(depth);
            let others = word & !(1u64 << rel);
            if others != 0 {
                store.clear(var, others);
            }
            assigned[var] = true;
            set_bit(open, var, false);
            value[var] = a;
            *num_unassigned -= 1;
            if BOUNDED {
                // The bound prunes before forward checking, as `decide` does.
                let cut = store.words[objective] & !within;
                if cut != 0 {
                    stats.pruned += u64::from(cut.count_ones());
                    if store.clear(objective, cut) == 0 {
                        continue;
                    }
                }
            }
            let steps = network.fc.row(var);
            let open = &open[..words];
            if clear_neighbours(&mut store, steps, sets.of(var), open, i64::from(rel), stats) {
                *descend = true;
            }
        };
        *solver_stats = local;
        step
    }
}

#[inline(always)]
fn set_bit(set: &mut [u64], i: usize, on: bool) {
    let bit = 1u64 << (i % 64);
    set[i / 64] = if on { set[i / 64] | bit } else { set[i / 64] & !bit };
}

/// Forward checking from `var`, just given the value at bit `rel`: clears each step's
/// pattern from its neighbour, for the unassigned neighbours (`open`) in row order.
/// Returns `false` at a wiped-out domain.
#[inline(always)]
fn clear_neighbours(
    store: &mut UniformStore<'_>,
    steps: &[FcStep],
    (neighbours, ranks): (&[u64], &[u32]),
    open: &[u64],
    rel: i64,
    stats: &mut Stats,
) -> bool {
    let (mut revisions, mut checks, mut pruned) = (0u64, 0u64, 0u64);
    let mut holds = true;
    let words = neighbours.iter().zip(ranks).zip(open);
    'words: for ((&neighbours, &rank), &open) in words {
        let mut bits = neighbours & open;
        while bits != 0 {
            let bit = bits.trailing_zeros();
            bits &= bits - 1;
            // The step's place in the row: the neighbours before it.
            let before = (neighbours & ((1u64 << bit) - 1)).count_ones();
            let step = &steps[(rank + before) as usize];
            revisions += 1;
            checks += u64::from(step.checks);
            let hit = store.words[step.other.index()] & step.cleared_at(rel);
            pruned += u64::from(hit.count_ones());
            // Most visits remove something: recording without a branch on it is faster.
            if store.clear_any(step.other.index(), hit) == 0 {
                holds = false;
                break 'words;
            }
        }
    }
    stats.revisions += revisions;
    stats.checks += checks;
    stats.pruned += pruned;
    holds
}
