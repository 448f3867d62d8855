//! One neighbourhood of a solution, searched for a better one: what large neighbourhood
//! search (`LnsSolver`) asks of a solver. Some variables are fixed to the incumbent's
//! values at the root (not nodes: the fixings define the subproblem), propagated one at a
//! time so that the caller can see what each one implied. The bound (better than the
//! incumbent) comes only after them: fixings to a solution's values never fail, so every
//! neighbourhood has the size asked, and one that cannot hold a better solution is told by
//! the bound's propagation at once. The others are searched under the bound with a budget;
//! then every change is undone back to the root, and the solver is ready for the next
//! neighbourhood. The dom/wdeg weights and the saved values
//! carry over from one neighbourhood to the next.
//!
//! A neighbourhood is a subproblem: it proves nothing about the whole problem, except when
//! nothing was fixed (then exhausting it is a proof of optimality). Such a solver must not
//! restart (a nogood would hold only under the fixings) nor drop levels of its trail (the
//! fixings are undone to one mark); `LnsSolver` configures it so.

use super::Solver;
use super::driver::{Phase, Step};
use crate::model::Objective;
use crate::stats::LimitKind;
use crate::store::Mark;
use crate::var::VarId;

/// How a slice of a neighbourhood's search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SliceEnd {
    /// A better solution ([`Solver::solution`]); the search can go on in the same
    /// neighbourhood, under the tightened bound.
    Improved(i64),
    /// The neighbourhood holds no better solution.
    Exhausted,
    /// The node budget ran out.
    Budget,
    /// One of the run's own limits (time, cancel).
    Limit(LimitKind),
}

/// The fixings in force.
pub(super) struct Fixings {
    /// The store at the root, before the first fixing.
    mark: Mark,
    /// The variables fixed, in order.
    vars: Vec<VarId>,
}

impl Solver<'_> {
    /// Makes the search fresh at the root if it is not there yet (the first call). Returns
    /// `false` if the model has no solution.
    fn ensure_root(&mut self) -> bool {
        match self.phase {
            Phase::Fresh => self.enter_search(),
            Phase::Searching => true,
            Phase::Done | Phase::Stopped(_) => false,
        }
    }

    /// The limit that stopped [`Solver::new`] while it compiled the model, if one did.
    pub(crate) fn stopped_by(&self) -> Option<LimitKind> {
        match self.phase {
            Phase::Stopped(kind) => Some(kind),
            _ => None,
        }
    }

    /// Opens a neighbourhood of `incumbent`, of objective value `value` under
    /// `objective`: only better solutions will be searched (see
    /// [`Solver::bound_neighbourhood`]), and the search tries the incumbent's values first
    /// where its value order saves values. Returns `false` if the model has no solution.
    pub(crate) fn open_neighbourhood(
        &mut self,
        objective: &Objective,
        incumbent: &[i32],
        value: i64,
    ) -> bool {
        debug_assert!(self.fixings.is_none(), "a neighbourhood is open");
        if !self.ensure_root() {
            return false;
        }
        self.adopt_incumbent(objective, incumbent, value);
        if let Some(saved) = &mut self.orders.saved {
            saved.on_solution(incumbent);
        }
        self.descend = true;
        self.fixings = Some(Box::new(Fixings {
            mark: self.root_mark,
            vars: Vec::new(),
        }));
        true
    }

    /// Fixes `var` to `value` in the open neighbourhood and propagates. On a failure the
    /// fixing is undone and `false` returned: the neighbourhood stays as it was before.
    /// A variable already assigned, or without `value`, is left as it is (`false`).
    pub(crate) fn fix_in_neighbourhood(&mut self, var: VarId, value: i32) -> bool {
        if self.state.assigned[var.index()] || !self.store.contains(var, value) {
            return false;
        }
        let mark = self.store.mark();
        let removed = self.store.fix(var, value);
        self.mark_assigned(var, value);
        let holds = removed == 0 || self.maintain_arc_consistency(var);
        if holds {
            self.fixings
                .as_mut()
                .expect("an open neighbourhood")
                .vars
                .push(var);
        } else {
            self.store.undo_to(mark);
            self.mark_unassigned(var);
        }
        holds
    }

    /// Once the fixings are made: the objective pruned to the bound, and propagated (undone
    /// with the neighbourhood). Returns `false` if the neighbourhood holds no better
    /// solution.
    pub(crate) fn bound_neighbourhood(&mut self) -> bool {
        let level = self.state.frames.len();
        debug_assert_eq!(level, 0, "before the neighbourhood's search");
        self.note_decision(level);
        match self.prune_to_bound(level) {
            None => false,
            Some(0) => true,
            Some(_) => self.fixpoint(),
        }
    }

    /// The size of `var`'s domain now.
    #[inline]
    pub(crate) fn domain_size(&self, var: VarId) -> u32 {
        self.store.size(var)
    }

    /// Whether search or a fixing has assigned `var`.
    #[inline]
    pub(crate) fn is_assigned(&self, var: VarId) -> bool {
        self.state.assigned[var.index()]
    }

    /// Where the store is now, for [`Solver::changed_since`].
    #[inline]
    pub(crate) fn store_mark(&self) -> Mark {
        self.store.mark()
    }

    /// Calls `changed(v)` for the index of each variable whose domain changed since `mark`
    /// (once per change).
    pub(crate) fn changed_since(&self, mark: Mark, changed: impl FnMut(usize)) {
        self.store.for_each_changed_since(mark, changed);
    }

    /// Searches the open neighbourhood for at most `budget` more nodes and `failures` more
    /// backtracks. After [`SliceEnd::Improved`] the next call goes on where this one
    /// stopped.
    pub(crate) fn search_neighbourhood(&mut self, budget: u64, failures: u64) -> SliceEnd {
        debug_assert!(self.fixings.is_some(), "no neighbourhood is open");
        if matches!(self.phase, Phase::Done) {
            return SliceEnd::Exhausted;
        }
        let own = self.config.limits.nodes;
        let cap = self.stats.nodes.saturating_add(budget);
        self.config.limits.nodes = Some(own.map_or(cap, |n| n.min(cap)));
        self.fail_cap = Some(self.stats.backtracks.saturating_add(failures));
        let step = self.advance();
        self.fail_cap = None;
        self.config.limits.nodes = own;
        match step {
            Step::Solution => {
                let bound = self.bound.as_mut().expect("a neighbourhood has a bound");
                let value = i64::from(self.state.value[bound.var.index()]);
                bound.improve(&self.state.value, value);
                self.stats.objective = Some(value);
                SliceEnd::Improved(value)
            }
            Step::Exhausted => SliceEnd::Exhausted,
            // The budget's limits stop with `Nodes`; the run's own node limit is not set here
            // (`LnsSolver` keeps it).
            Step::Limit(LimitKind::Nodes) if own.is_none_or(|n| self.stats.nodes < n) => SliceEnd::Budget,
            Step::Limit(kind) => SliceEnd::Limit(kind),
        }
    }

    /// The solution just found (one value per variable).
    pub(crate) fn solution(&self) -> &[i32] {
        &self.state.value
    }

    /// Closes the open neighbourhood: every search level and every fixing undone, back
    /// to the root.
    pub(crate) fn close_neighbourhood(&mut self) {
        let fixings = self.fixings.take().expect("an open neighbourhood");
        while let Some(frame) = self.state.frames.last().copied() {
            if frame.open {
                let rebuilt = self.undo_node();
                debug_assert!(rebuilt.is_none(), "a neighbourhood's search keeps its trail");
            }
            self.state.pop_frame();
        }
        self.state.value_stack.clear();
        self.store.undo_to(fixings.mark);
        for &var in fixings.vars.iter().rev() {
            self.mark_unassigned(var);
        }
        self.state.settled = 0;
        self.note_restart();
        self.phase = Phase::Searching;
        self.descend = true;
        self.backed_up = false;
    }
}
