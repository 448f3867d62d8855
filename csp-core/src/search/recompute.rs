//! The bounded trail, on the search's side (the store's side is `store/bounded.rs`).
//! After a node, when the trail holds more than [`crate::SearchConfig::max_trail`]
//! records, the records of the oldest levels are dropped; a level whose records are
//! gone is rebuilt, when search backtracks to it, from the root domains by replaying
//! the decisions above it.
//!
//! A replay is not search: it counts no node and leaves every statistic as it was. It
//! repeats decisions that were consistent, in their order, on the same domains and the
//! same assigned variables, so each inference prunes what it pruned the first time
//! (forward checking is a function of those; a fixpoint of monotone propagators is
//! unique) and the rebuilt level is the one that was left: the search goes on exactly
//! as if nothing had been dropped.

use super::Solver;
use super::driver::clock_hit;
use crate::config::ValueOrder;
use crate::network::initial_words;
use crate::stats::LimitKind;
use crate::var::VarId;

/// A restart's view of the run it abandons: each level's decision, and each branch a
/// level finished as `(level, var, value)`.
pub(super) type RunSummary = (Vec<(VarId, i32)>, Vec<(usize, VarId, i32)>);

impl Solver<'_> {
    /// After a node: drops the records of the oldest levels if the trail is over budget.
    #[inline]
    pub(super) fn bound_trail(&mut self) {
        self.bound_trail_below(self.state.frames.len());
    }

    /// [`Solver::bound_trail`] when only the first `levels` frames have their marks (the
    /// others are not replayed yet).
    #[inline]
    fn bound_trail_below(&mut self, levels: usize) {
        if self.store.trail_len() > self.config.max_trail {
            self.drop_oldest_levels(levels);
        }
    }

    /// Whether a level below the current one, or the root, lost its records.
    #[inline]
    pub(super) fn levels_dropped(&self) -> bool {
        self.root_mark < self.store.floor()
    }

    /// Drops the records of the levels below the highest of the first `levels` frames
    /// that fit in a quarter of the budget, at most up to the last of them (whose node is
    /// open), after keeping the root domains. Keeping a quarter, not more, makes moving
    /// the kept records to the trail's front cheap next to writing them.
    #[cold]
    #[inline(never)]
    fn drop_oldest_levels(&mut self, levels: usize) {
        let Some(last) = levels.checked_sub(1) else {
            return;
        };
        self.store.keep_root(self.root_mark);
        let end = self.store.mark();
        let keep = self.config.max_trail / 4;
        let frames = &self.state.frames[..levels];
        // Marks grow with depth: the first frame whose records and those above fit.
        let first_kept = frames.partition_point(|f| end - f.mark > keep).min(last);
        log::trace!("trail: dropping the records below level {first_kept}");
        self.store.drop_below(frames[first_kept].mark);
    }

    /// [`Solver::undo_node`] when the top frame's records were dropped: rebuilds the
    /// domains at its mark and leaves its variable unassigned. A replay of thousands of
    /// levels takes as long as the search that made them, so the limits are read at each
    /// level; a limit leaves the rebuild for [`Solver::finish_rebuild`] and is returned.
    #[cold]
    #[inline(never)]
    pub(super) fn rebuild_top_level(&mut self) -> Option<LimitKind> {
        log::debug!(
            "trail: rebuilding level {} from the root",
            self.state.frames.len() - 1
        );
        self.rewind_to_root();
        self.rebuilding = Some(0);
        self.finish_rebuild()
    }

    /// Goes on with a rebuild a limit stopped, if any (see [`Solver::rebuild_top_level`]).
    #[inline]
    pub(super) fn finish_rebuild(&mut self) -> Option<LimitKind> {
        let from = self.rebuilding?;
        let top = self.state.frames.len() - 1;
        let kept = self.stats.clone();
        for level in from..top {
            if let Some(kind) = clock_hit(&self.config.limits, self.started) {
                self.stats = kept;
                self.rebuilding = Some(level);
                return Some(kind);
            }
            self.replay(level);
        }
        self.stats = kept;
        self.rebuilding = None;
        self.state.frames[top].mark = self.store.mark();
        self.state.settled = 0;
        None
    }

    /// Unassigns every frame's variable, top down (so the degree counts of mrv-degree
    /// unwind as they were wound), and restores the root domains.
    fn rewind_to_root(&mut self) {
        for level in (0..self.state.frames.len()).rev() {
            let var = self.state.frames[level].var;
            if self.state.assigned[var.index()] {
                self.mark_unassigned(var);
            }
        }
        self.store.restore_root(initial_words(self.model));
    }

    /// Repeats the decision of the frame at `level` on the domains at its mark.
    fn replay(&mut self, level: usize) {
        let var = self.state.frames[level].var;
        let value = self.state.value[var.index()];
        self.state.frames[level].mark = self.store.mark();
        let consistent = self.decide(var, value, level);
        // It was consistent the first time; were it not now, the empty domain it left
        // would only make the search backtrack (pruning stays sound): no wrong answer.
        debug_assert!(consistent, "a replayed decision failed");
        self.bound_trail_below(level + 1);
    }

    /// What [`Solver::restart`] needs from the abandoned run when levels were dropped,
    /// leaving the root domains and no variable of a frame assigned. Ascending values
    /// read the tried values off the domain at each frame's mark, so those levels are
    /// replayed bottom up; other orders keep them on the value stack.
    pub(super) fn summarise_dropped_run(&mut self) -> RunSummary {
        let frames = self.state.frames.clone();
        let decisions: Vec<Option<i32>> = frames
            .iter()
            .map(|f| f.open.then(|| self.state.value[f.var.index()]))
            .collect();
        self.rewind_to_root();
        let reads_domains = self.config.strategy.value_order == ValueOrder::Asc;
        let kept = self.stats.clone();
        let mut path = Vec::with_capacity(frames.len());
        let mut finished = Vec::new();
        for (level, (frame, &decision)) in frames.iter().zip(&decisions).enumerate() {
            path.push((frame.var, decision.unwrap_or_default()));
            for (var, value) in self.finished_branches(frame, decision) {
                finished.push((level, var, value));
            }
            if reads_domains && level + 1 < frames.len() {
                self.replay(level);
            }
        }
        self.stats = kept;
        if reads_domains {
            self.rewind_to_root();
        }
        self.state.frames.clear();
        (path, finished)
    }
}
