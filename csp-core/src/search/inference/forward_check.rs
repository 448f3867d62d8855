//! Forward checking: after `var = value`, each unassigned neighbour loses the values
//! that conflict with it (one revision per neighbour, no cascade), and each n-ary
//! constraint on `var` runs once. Exclusion arcs into one-word domains run through
//! compiled steps: one shift, one masked write and one trail entry per neighbour.

use crate::network::{FcStep, Network};
use crate::propagation::Event;
use crate::propagation::engine::Failure;
use crate::search::Solver;
use crate::store::{Store, TrailEntry};
use crate::var::VarId;

/// Statistics of a forward-checking pass, kept in registers until it ends.
#[derive(Default)]
struct FcCounts {
    revisions: u64,
    checks: u64,
    pruned: u64,
}

/// Where [`forward_clear`] stopped.
enum FcStop {
    /// Every step done.
    Done,
    /// Step `i` needs the general path (not yet counted or applied).
    General(usize),
    /// Step `i` emptied its neighbour's domain.
    WipeOut(usize),
}

impl Solver<'_> {
    /// Forward checking from the assigned `var`: revise each unassigned neighbour
    /// against it once, and wake each n-ary constraint on `var` once (no cascade).
    pub(in crate::search) fn forward_check(&mut self, var: VarId) -> bool {
        match self.forward_check_from(var) {
            Ok(()) => true,
            Err(failure) => {
                self.blame(Some(failure));
                false
            }
        }
    }

    /// [`Solver::forward_check`], naming the constraint that failed.
    fn forward_check_from(&mut self, var: VarId) -> Result<(), Failure> {
        let network = &*self.network;
        let value = self.state.value[var.index()];
        let steps = network.fc.row(var.index());
        let mut counts = FcCounts::default();
        let mut from = 0;
        let wiped_out = loop {
            match forward_clear(
                &mut self.store,
                &steps[from..],
                &self.state.assigned,
                value,
                &mut counts,
            ) {
                FcStop::Done => break None,
                FcStop::WipeOut(i) => break Some(steps[from + i].in_arc),
                FcStop::General(i) => {
                    let step = &steps[from + i];
                    counts.revisions += 1;
                    let removed =
                        prune_general(network, step.in_arc, value, &mut self.store, &mut counts.checks);
                    counts.pruned += u64::from(removed);
                    if self.store.size(step.other) == 0 {
                        break Some(step.in_arc);
                    }
                    from += i + 1;
                }
            }
        };
        self.stats.revisions += counts.revisions;
        self.stats.checks += counts.checks;
        self.stats.pruned += counts.pruned;
        if let Some(arc) = wiped_out {
            return Err(Failure::Arc(arc));
        }
        for watch in network.watches.row(var.index()) {
            let p = watch.prop as usize;
            let wake = self.engine.flags(p).wake;
            let (store, stats) = (&mut self.store, &mut self.stats);
            let assignment = self.state.assignment();
            let ok = (!wake.on_fixed()
                || self.engine.run_propagator(
                    self.props,
                    p,
                    Event::Fixed(watch.local as usize),
                    store,
                    assignment,
                    stats,
                ))
                && (!wake.on_change()
                    || self
                        .engine
                        .run_propagator(self.props, p, Event::Changed, store, assignment, stats));
            self.engine.drop_changes();
            if !ok {
                return Err(Failure::Propagator(p));
            }
        }
        Ok(())
    }
}

/// Forward checking through compiled steps from a variable just given `value`: clears
/// each step's pattern from its unassigned neighbour's word. Stops early at a step that
/// needs the general path or at a wiped-out domain, and says which.
///
/// One tight loop over plain slices: it runs for every neighbour of every node.
fn forward_clear(
    store: &mut Store,
    steps: &[FcStep],
    assigned: &[bool],
    value: i32,
    counts: &mut FcCounts,
) -> FcStop {
    let parts = store.parts_mut();
    let (words, size, trail) = (parts.words, parts.size, parts.trail);
    // At most one entry per step: no reallocation inside the loop.
    trail.reserve(steps.len());
    for (i, step) in steps.iter().enumerate() {
        let other = step.other.index();
        if assigned[other] {
            continue;
        }
        let Some(clear) = step.cleared_by(value) else {
            return FcStop::General(i);
        };
        counts.revisions += 1;
        counts.checks += u64::from(step.checks);
        let word = &mut words[step.word as usize];
        let old = *word;
        let new = old & !clear;
        if new == old {
            continue;
        }
        let removed = (old & clear).count_ones();
        counts.pruned += u64::from(removed);
        trail.push(TrailEntry {
            word: step.word,
            old_size: size[other],
            old_bits: old,
        });
        size[other] -= removed;
        *word = new;
        if new == 0 {
            return FcStop::WipeOut(i);
        }
    }
    FcStop::Done
}

/// Forward checking through an arc that has no compiled step: kept out of line so the
/// compiled loop keeps its registers.
#[cold]
#[inline(never)]
fn prune_general(network: &Network, arc: u32, value: i32, store: &mut Store, checks: &mut u64) -> u32 {
    let arc = &network.arcs[arc as usize];
    arc.kind.prune_against(arc.x, arc.y, value, store, checks)
}
