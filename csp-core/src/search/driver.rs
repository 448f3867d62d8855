//! The search loop. It walks the frame stack: descend (select a variable, push a
//! frame), try the frame's next value, backtrack when none is left. What to select,
//! in which order to try values and what to infer are the parts' business; the loop
//! only calls them, and checks the limits.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::Solver;
use super::frame::Choice;
use super::order_state;
use crate::config::{Limits, SearchConfig};
use crate::stats::{LimitKind, Stats};
use crate::var::VarId;

/// Where a search is.
pub(super) enum Phase {
    Fresh,
    Searching,
    Done,
    /// A limit stopped [`Solver::new`] while it compiled the model: every step reports it.
    Stopped(LimitKind),
}

/// What one call of [`Solver::advance`] ended with.
pub(super) enum Step {
    Solution,
    Exhausted,
    Limit(LimitKind),
}

impl Solver<'_> {
    /// Runs the search to the next solution, exhaustion or limit.
    pub(super) fn advance(&mut self) -> Step {
        let step = self.advance_inner();
        if let (Step::Limit(_), true) = (&step, self.plan.observed) {
            self.trace_left_open();
        }
        if let Some(start) = self.started {
            self.stats.elapsed = start.elapsed();
        }
        step
    }

    fn advance_inner(&mut self) -> Step {
        match self.phase {
            Phase::Done => return Step::Exhausted,
            Phase::Stopped(kind) => {
                self.started = Some(self.created);
                return Step::Limit(kind);
            }
            Phase::Fresh => {
                if !self.enter_search() {
                    return Step::Exhausted;
                }
                self.descend = true;
            }
            Phase::Searching => {
                if let Some(kind) = self.finish_rebuild() {
                    return Step::Limit(kind);
                }
            }
        }
        // The compiled loop keeps every record (at most 64 per variable in its one-word
        // domains): it takes over only a search that dropped none.
        if self.plan.compiled_fc && self.store.kept_root().is_none() {
            return self.advance_compiled_fc();
        }
        loop {
            if self.descend {
                self.descend = false;
                if self.plan.forced_runs {
                    self.assign_forced_run();
                }
                if self.state.num_unassigned == 0 {
                    let holds = self.complete_assignment_holds();
                    if self.plan.observed {
                        self.observe_complete_assignment(holds);
                    }
                    if holds {
                        self.note_solution();
                        self.stats.solutions += 1;
                        return Step::Solution;
                    }
                } else if self.state.frames.len() >= self.frontier {
                    // A node at the frontier of a decomposition: reported as a solution,
                    // which `next_piece` tells apart by the variables left.
                    return Step::Solution;
                } else {
                    let var = self.select_var();
                    if let Some(kind) = self.selection_cut.take() {
                        // A limit within the choice: nothing was assigned; choose again
                        // next time.
                        self.descend = true;
                        return Step::Limit(kind);
                    }
                    match self.two_places_instead(var) {
                        Some(places) => self.push_places_frame(places),
                        None => {
                            if let Some(kind) = self.push_frame(var) {
                                // Ordering the values took too long: select again next time.
                                self.descend = true;
                                return Step::Limit(kind);
                            }
                        }
                    }
                }
            }
            let Some(&top) = self.state.frames.last() else {
                self.phase = Phase::Done;
                return Step::Exhausted;
            };
            if top.open && matches!(top.choice, Choice::Forced) {
                // What the general steps below would do, without their dispatch: the
                // store is at this frame's mark already, and no value is left to try.
                debug_assert_eq!(self.store.mark(), top.mark, "a forced frame changed no domain");
                self.state.settled = 0;
                self.mark_unassigned(top.var);
                self.stats.backtracks += 1;
                self.state.frames.pop();
                if let Some(kind) = self.limit_reached() {
                    return Step::Limit(kind);
                }
                continue;
            }
            // Whether the step backs up from a node: this one, or the one a limit stopped
            // right after (the restart it may make is still to be decided).
            let backed_up = top.open || std::mem::take(&mut self.backed_up);
            if top.open {
                self.stats.backtracks += 1;
                if let Some(kind) = self.undo_node() {
                    // A limit while rebuilding a level: the next step finishes it.
                    self.backed_up = true;
                    return Step::Limit(kind);
                }
            }
            if let Some(kind) = self.limit_reached() {
                self.backed_up = backed_up;
                return Step::Limit(kind);
            }
            // A run restarts when it backs up past its cutoff, never on the way down: a
            // run that has not failed since its cutoff has learnt nothing a new run could
            // use, and on a long path without a failure (a sparse graph colouring) every
            // restart would only descend it again.
            if backed_up && self.restart_due() {
                if !self.restart() {
                    self.phase = Phase::Done;
                    return Step::Exhausted;
                }
                continue;
            }
            match self.next_value_in_bound() {
                None => {
                    self.note_exhausted();
                    if self.plan.observed {
                        self.observe_exhausted_frame();
                    } else {
                        self.state.pop_frame();
                    }
                }
                Some(value) => {
                    // A frame on places has just moved on to its next variable.
                    let var = self.state.frames.last().expect("a frame").var;
                    if self.assign(var, value) {
                        self.descend = true;
                    }
                    self.bound_trail();
                }
            }
        }
    }

    /// The first step of a fresh search: the clock starts (from [`Solver::new`]) and the
    /// root is propagated. Returns `false` (and the search is done) if that proves the
    /// model unsatisfiable.
    pub(super) fn enter_search(&mut self) -> bool {
        self.started = Some(self.created);
        self.phase = Phase::Searching;
        if !self.propagate_root() {
            self.phase = Phase::Done;
            return false;
        }
        self.root_mark = self.store.mark();
        self.note_root_bound();
        true
    }

    pub(super) fn limit_reached(&self) -> Option<LimitKind> {
        if self.fail_cap.is_some_and(|cap| self.stats.backtracks >= cap) {
            return Some(LimitKind::Nodes);
        }
        limit_hit(&self.config, &self.stats, self.started, self.plan.clock_every)
    }

    // Once per node: inlined into the search loop.
    #[inline(always)]
    pub(super) fn mark_assigned(&mut self, var: VarId, value: i32) {
        self.state.assign(var, value);
        if let Some(degrees) = &mut self.degrees {
            degrees.on_assign(var);
        }
        order_state::track_assign(
            &mut self.weights,
            &mut self.orders.scopes,
            var,
            &self.state.assigned,
        );
    }

    #[inline]
    pub(super) fn mark_unassigned(&mut self, var: VarId) {
        self.state.unassign(var);
        if let Some(degrees) = &mut self.degrees {
            degrees.on_unassign(var);
        }
        self.track_unassign(var);
    }

    /// Undoes the open node of the top frame. Returns the limit that stopped rebuilding
    /// its level (`recompute.rs`), which the next step then finishes.
    // Once per node: inlined into the search loop.
    #[inline(always)]
    pub(super) fn undo_node(&mut self) -> Option<LimitKind> {
        self.state.settled = 0;
        let top = self.state.frames.last_mut().expect("a frame");
        top.open = false;
        let (var, mark) = (top.var, top.mark);
        if mark < self.store.floor() {
            return self.rebuild_top_level();
        }
        self.store.undo_to(mark);
        self.mark_unassigned(var);
        None
    }

    /// Propagators whose pruning may be incomplete get the last word on a full assignment.
    fn complete_assignment_holds(&mut self) -> bool {
        if !self.plan.final_check {
            return true;
        }
        let mut values = std::mem::take(&mut self.check_values);
        let mut holds = true;
        for p in self.props.iter().filter(|p| !p.prunes_exactly()) {
            values.clear();
            values.extend(p.variables().iter().map(|v| self.state.value[v.index()]));
            if !p.check(&values) {
                holds = false;
                break;
            }
        }
        self.check_values = values;
        holds
    }
}

/// The limit that stops a search after `stats.nodes` nodes, if any. The clock and the
/// cancel flag are read when `nodes` is a multiple of `clock_every` (a power of two, chosen
/// by the search plan), and the live statistics are copied then.
#[inline]
pub(super) fn limit_hit(
    config: &SearchConfig,
    stats: &Stats,
    started: Option<Instant>,
    clock_every: u64,
) -> Option<LimitKind> {
    let limits = &config.limits;
    if limits.nodes.is_some_and(|max| stats.nodes >= max) {
        return Some(LimitKind::Nodes);
    }
    if stats.nodes & (clock_every - 1) == 0 {
        if config.live_stats.is_some() {
            publish(config, stats, started);
        }
        return clock_hit(limits, started);
    }
    None
}

/// Copies the statistics into [`SearchConfig::live_stats`]: a plain copy every few
/// thousand nodes, and `try_lock`, so a reader never holds the search up. Out of line: the
/// search loop keeps only the test that there is somewhere to copy to.
#[cold]
#[inline(never)]
fn publish(config: &SearchConfig, stats: &Stats, started: Option<Instant>) {
    let Some(live) = &config.live_stats else {
        return;
    };
    if let Ok(mut copy) = live.try_lock() {
        *copy = Stats {
            elapsed: started.map_or(stats.elapsed, |s| s.elapsed()),
            ..stats.clone()
        };
    }
}

/// The cancel flag or the time limit, read now: for work within one node that may take
/// long (ordering the values of a huge domain).
pub(super) fn clock_hit(limits: &Limits, started: Option<Instant>) -> Option<LimitKind> {
    if limits.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
        return Some(LimitKind::Cancelled);
    }
    match (limits.time, started) {
        (Some(max), Some(start)) if start.elapsed() >= max => Some(LimitKind::Time),
        _ => None,
    }
}
