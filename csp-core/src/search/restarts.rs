//! Restarts: a run is cut off at its first backtrack past the policy's node cutoff
//! ([`crate::Restarts`]) and the search starts again from the root, keeping the dom/wdeg
//! weights. Each subtree the run finished becomes a nogood (the decisions above it plus
//! the value it refuted; see [`crate::propagation::nogoods`]), so later runs never enter
//! it again: search with restarts stays complete and counts stay exact.

use super::Solver;
use super::frame::{Choice, Frame};
use super::recompute::RunSummary;
use crate::propagation::nogoods::Added;
use crate::var::VarId;

/// Which run the search is in, and where it started.
#[derive(Default)]
pub(super) struct RunCounter {
    run: u32,
    start_nodes: u64,
}

impl RunCounter {
    /// The run the search is in: 0 before the first restart.
    #[inline]
    pub(super) fn run(&self) -> u32 {
        self.run
    }
}

impl Solver<'_> {
    /// Whether the current run has reached its cutoff (and the nogood store has room).
    #[inline]
    pub(super) fn restart_due(&self) -> bool {
        match self.config.restarts {
            Some(policy) => {
                self.stats.nodes - self.runs.start_nodes >= policy.cutoff(self.runs.run)
                    && self.engine.nogoods.has_room()
            }
            None => false,
        }
    }

    /// Abandons the current run: back to the root state, with the next cutoff. Each
    /// subtree the run finished becomes a nogood, propagated at the root. Returns `false`
    /// if that leaves no solution.
    pub(super) fn restart(&mut self) -> bool {
        self.trace_left_open();
        let (path, finished) = if self.levels_dropped() {
            self.summarise_dropped_run()
        } else {
            self.summarise_run()
        };
        self.state.value_stack.clear();
        self.store.undo_to(self.root_mark);
        self.state.settled = 0;
        self.runs.run += 1;
        self.runs.start_nodes = self.stats.nodes;
        self.stats.restarts += 1;
        self.descend = true;
        self.note_restart();
        log::debug!(
            "restart {} after {} nodes, {} new nogoods",
            self.runs.run,
            self.stats.nodes,
            finished.len()
        );
        let holds = self.add_nogoods(&path, &finished) && self.prune_root_to_bound();
        self.root_mark = self.store.mark();
        if holds {
            self.note_root_bound();
        }
        holds
    }

    /// The decision of each frame, bottom up, and each branch a frame finished, undoing
    /// the frames top down.
    fn summarise_run(&mut self) -> RunSummary {
        let mut path = vec![(VarId(0), 0); self.state.frames.len()];
        let mut finished = Vec::new();
        while let Some(frame) = self.state.frames.last().copied() {
            let depth = self.state.frames.len() - 1;
            let decision = frame.open.then(|| self.state.value[frame.var.index()]);
            if frame.open {
                // Nothing was dropped (else `summarise_dropped_run`): nothing to rebuild.
                let rebuilt = self.undo_node();
                debug_assert!(rebuilt.is_none());
            }
            // The store is back at the frame's mark: the domain its values came from.
            path[depth] = (frame.var, decision.unwrap_or_default());
            for (var, value) in self.finished_branches(&frame, decision) {
                finished.push((depth, var, value));
            }
            self.state.frames.pop();
        }
        (path, finished)
    }

    /// The branches `frame` finished, as assignments: tried (or skipped as inconsistent)
    /// and not the `decision` still open. Reads the store at the frame's mark.
    pub(super) fn finished_branches(&self, frame: &Frame, decision: Option<i32>) -> Vec<(VarId, i32)> {
        if let Choice::Places(places) = frame.choice {
            // The places tried; the last one is still open if the frame is.
            let done = usize::from(places.tried) - usize::from(frame.open);
            return places.vars[..done]
                .iter()
                .map(|&var| (var, places.value))
                .collect();
        }
        let mut values = self.tried_values(frame);
        values.retain(|&a| Some(a) != decision);
        values.into_iter().map(|a| (frame.var, a)).collect()
    }

    /// Records the nogoods `path[..depth] + (var, value)` for each `(depth, var, value)`
    /// in `finished`, at the root, and propagates them there.
    fn add_nogoods(&mut self, path: &[(VarId, i32)], finished: &[(usize, VarId, i32)]) -> bool {
        let mut lits = Vec::with_capacity(path.len());
        let mut holds = true;
        for &(depth, var, value) in finished {
            lits.clear();
            lits.extend_from_slice(&path[..depth]);
            lits.push((var, value));
            self.stats.nogoods += 1;
            match self
                .engine
                .nogoods
                .add(&lits, &mut self.store, self.model.num_vars())
            {
                Added::Kept => {}
                Added::Pruned(var) => {
                    self.stats.pruned += 1;
                    if self.plan.mac {
                        self.engine.announce_change(
                            &self.network,
                            &self.store,
                            &self.state.assigned,
                            var,
                            None,
                        );
                    }
                }
                Added::Violated => {
                    holds = false;
                    break;
                }
            }
        }
        if !holds || (self.plan.mac && !self.fixpoint()) {
            self.engine.clear_nogood_queue();
            return false;
        }
        true
    }
}
