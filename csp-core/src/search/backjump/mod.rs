//! Backjumping (Prosser, "Hybrid algorithms for the constraint satisfaction problem",
//! Computational Intelligence 9(3), 1993): BJ and CBJ over chronological backtracking
//! (inference `none`) and over forward checking (FC-BJ, FC-CBJ).
//!
//! Each level keeps a conflict set ([`conflict_sets`]): the earlier levels whose
//! assignments ruled out one of its values.
//! - Under `none` a value is ruled out by the earliest assigned neighbour it disagrees with
//!   (Prosser tests the past variables in the order they were assigned and stops at the
//!   first clash; here every assigned neighbour assigned before the clash found is tested
//!   too, to find the earliest), or, through an n-ary constraint, by the assigned
//!   variables of its scope. The culprits are found when the level runs out of values, by
//!   testing its values again (bookkeeping, not counted in `checks`): the legality test of
//!   plain backtracking is left as it is.
//! - Under `fc` a node whose forward checking empties the domain of `x` is ruled out by the
//!   levels that had pruned `x` ([`pruners`], Prosser's past-fc); when a level runs out of
//!   values, the levels that pruned its own variable join its set.
//!
//! When a level runs out of values, search goes back to the deepest level of its set and
//! the levels in between are jumped over: their values not tried yet are never tried. CBJ
//! passes the rest of the set on to the level it goes back to; BJ (Gaschnig's) jumps only
//! from a level none of whose values passed its test, and otherwise backtracks
//! chronologically.
//!
//! Where a failure's reasons are not recorded (an n-ary propagator under forward
//! checking, the objective's bound, a complete assignment that fails the final check),
//! the set takes every level above: backtracking from there is chronological, which is
//! always sound. So is the level of a solution, so that no level above a solution is
//! jumped over while counting.

mod conflict_sets;
mod pruners;

use conflict_sets::ConflictSets;
use pruners::{Pruner, Pruners};

use super::Solver;
use crate::config::{Backjump, ConfigError, Inference, SearchConfig};
use crate::propagation::engine::Failure;
use crate::var::VarId;

/// The most variables a search with backjumping takes: a conflict set holds a bit per
/// level at each level, `n * n / 8` bytes on the deepest paths (32 MB here).
pub(super) const MAX_VARS: usize = 1 << 14;

/// "Not assigned by search" (a given, or unassigned).
const NO_LEVEL: u32 = u32::MAX;

/// The state of backjumping; see the module documentation.
pub(super) struct Backjumping {
    kind: Backjump,
    sets: ConflictSets,
    /// Under forward checking: which levels pruned each variable.
    pruners: Option<Pruners>,
    /// The level each variable was assigned at by search.
    level_of: Vec<u32>,
    /// The failure the last node's inference met, as [`Solver::blame`] saw it.
    failure: Option<Failure>,
}

impl Backjumping {
    /// The state for `config` over `vars` variables, or `None` without backjumping; an
    /// error for what it does not support.
    pub(super) fn new(config: &SearchConfig, vars: usize) -> Result<Option<Box<Backjumping>>, ConfigError> {
        let kind = config.backjump;
        if kind == Backjump::None {
            return Ok(None);
        }
        // The options fit together (`SearchConfig::check`, called first); the size remains.
        if vars > MAX_VARS {
            return Err(ConfigError::Backjumping {
                backjump: kind,
                reason: format!(
                    "takes at most {MAX_VARS} variables (a conflict set holds a bit per level \
                     at each level); this model has {vars}"
                ),
            });
        }
        Ok(Some(Box::new(Backjumping {
            kind,
            sets: ConflictSets::new(vars),
            pruners: (config.strategy.inference == Inference::Fc).then(|| Pruners::new(vars)),
            level_of: vec![NO_LEVEL; vars],
            failure: None,
        })))
    }

    /// The search level of an assigned variable, `None` for a given.
    #[inline]
    fn level(&self, var: VarId) -> Option<usize> {
        let level = self.level_of[var.index()];
        (level != NO_LEVEL).then_some(level as usize)
    }

    /// Adds to `level`'s set the levels that pruned `var`.
    fn add_pruners_of(&mut self, level: usize, var: VarId) {
        let Some(pruners) = &self.pruners else {
            return;
        };
        for pruner in pruners.of(var.index()) {
            match pruner {
                Pruner::Level(h) if h < level => self.sets.add(level, h),
                Pruner::Through(h) if h < level => self.sets.add_through(level, h),
                // Records of `level` itself or below were forgotten before this call.
                _ => debug_assert!(false, "a record of a level undone"),
            }
        }
    }
}

impl Solver<'_> {
    /// After the node `var = value` at `level` (`ok`: its inference held): records the
    /// level of `var` and, under forward checking, what the node pruned, or, when it
    /// failed, the levels behind the failure.
    pub(super) fn backjump_after_node(&mut self, var: VarId, level: usize, ok: bool) {
        let Some(bj) = &mut self.backjump else {
            return;
        };
        bj.level_of[var.index()] = level as u32;
        bj.sets.reach(level);
        let failure = bj.failure.take();
        if let Some(pruners) = &mut bj.pruners {
            // Records of this level's earlier nodes, and of the levels below them, are stale.
            pruners.forget_from(level);
        }
        if ok {
            if bj.kind == Backjump::Bj {
                // BJ jumps only from a level none of whose values passed.
                bj.sets.add_every(level);
            }
            if let Some(pruners) = &mut bj.pruners {
                // The node's changes since its frame's mark: the assignment, then forward
                // checking. An n-ary constraint on `var` prunes from domains that earlier
                // levels pruned: every level up to this one is behind its removals.
                let through = !self.network.watches.row(var.index()).is_empty();
                let mark = self.state.frames[level].mark;
                self.store.for_each_changed_since(mark, |v| {
                    if v != var.index() {
                        pruners.record(v, level, through);
                    }
                });
            }
            return;
        }
        match failure {
            // Forward checking emptied `x`: the levels that had pruned it are to blame.
            Some(Failure::Arc(arc)) if bj.pruners.is_some() => {
                let x = self.network.arcs[arc as usize].x;
                bj.add_pruners_of(level, x);
            }
            // An n-ary propagator, or the objective's bound: reasons not recorded.
            _ => bj.sets.add_every(level),
        }
    }

    /// Under inference `none`: if `var = a` disagrees with an assigned neighbour, the
    /// earliest level it disagrees with joins the conflict set of the top frame's level
    /// (`var`'s). Returns whether it agrees.
    fn blame_disagreement(&mut self, var: VarId, a: i32) -> bool {
        let bj = self.backjump.as_mut().expect("backjumping");
        let level = self.state.frames.len() - 1;
        let (assigned, values) = (&self.state.assigned, &self.state.value);
        let network = &*self.network;
        // The earliest level `var = a` disagrees with; a clash with a given rules the
        // value out whatever the levels hold.
        let mut earliest: Option<usize> = None;
        let mut clashes = false;
        for adj in network.adjacency.row(var.index()) {
            let other = adj.other;
            if !assigned[other.index()] {
                continue;
            }
            let level_of_other = bj.level(other);
            // Once a clash is found, only earlier levels can give an earlier culprit.
            if clashes && level_of_other.is_none_or(|l| earliest.is_some_and(|e| l >= e)) {
                continue;
            }
            if network.arcs[adj.out_arc as usize]
                .kind
                .allows(a, values[other.index()])
            {
                continue;
            }
            clashes = true;
            match level_of_other {
                None => return false,
                Some(l) => earliest = Some(earliest.map_or(l, |e| e.min(l))),
            }
        }
        if let Some(culprit) = earliest {
            bj.sets.add(level, culprit);
            return false;
        }
        let legality = super::inference::none::Legality::new(network, self.props, &self.state, &self.store);
        for watch in network.watches.row(var.index()) {
            let p = watch.prop as usize;
            // Bookkeeping, not search: not counted in `checks` (see `close_top_frame`).
            let mut retests = 0;
            if legality.prop_consistent(p, watch.local as usize, a, None, &mut retests) {
                continue;
            }
            // The scope's assigned variables decide it together.
            for &v in self.props[p].variables() {
                if let Some(l) = bj.level(v).filter(|_| assigned[v.index()] && v != var) {
                    bj.sets.add(level, l);
                }
            }
            return false;
        }
        true
    }

    /// A complete assignment (`holds`: it passed the final check): backtracking from its
    /// level is chronological, so that no level above a solution is jumped over.
    pub(super) fn backjump_at_complete_assignment(&mut self) {
        if let (Some(bj), Some(level)) = (&mut self.backjump, self.state.frames.len().checked_sub(1)) {
            bj.sets.reach(level);
            bj.sets.add_every(level);
        }
    }

    /// The inference's failure, for the conflict set of the node.
    #[inline]
    pub(super) fn backjump_note_failure(&mut self, failure: Failure) {
        if let Some(bj) = &mut self.backjump {
            bj.failure = Some(failure);
        }
    }

    /// The top frame ran out of values: pops it, and under backjumping jumps back to the
    /// deepest level of its conflict set (the driver then backtracks that level's node as
    /// usual).
    pub(super) fn close_top_frame(&mut self) {
        if self.backjump.is_none() {
            self.state.pop_frame();
            return;
        }
        let level = self.state.frames.len() - 1;
        let var = self.state.frames[level].var;
        let objective = self.objective_var();
        let bj = self.backjump.as_mut().expect("backjumping");
        bj.sets.reach(level);
        if let Some(pruners) = &mut bj.pruners {
            // The level's last node was undone: its records are stale.
            pruners.forget_from(level);
        }
        // The values missing from the level's domain were pruned by earlier levels.
        bj.add_pruners_of(level, var);
        if self.config.strategy.inference == Inference::None {
            // The values that disagreed with an assigned neighbour were skipped (no node):
            // their culprits, found now rather than at each test, so that the legality test
            // of plain backtracking stays as it is. The levels above have not changed since.
            // These tests are backjumping's bookkeeping: `checks` counts the tests that
            // decided which values were tried, as under chronological backtracking.
            let mut cursor = None;
            while let Some(a) = self.store.next_value(var, cursor) {
                cursor = Some(a);
                self.blame_disagreement(var, a);
            }
        }
        let bj = self.backjump.as_mut().expect("backjumping");
        if let Some(objective) = objective {
            // The bound may have ended the level: what limits the objective's domain.
            bj.add_pruners_of(level, objective);
            if let Some(l) = bj.level(objective).filter(|&l| l < level) {
                bj.sets.add(level, l);
            }
        }
        let target = bj.sets.target(level);
        if let (Backjump::Cbj, Some(to)) = (bj.kind, target) {
            bj.sets.pass_on(level, to);
        }
        bj.sets.clear(level);
        self.state.pop_frame();
        // Levels `lowest..level` are jumped over; `target` keeps its open node.
        let lowest = target.map_or(0, |t| t + 1);
        if lowest == level {
            return;
        }
        // The node just above was a dead end: its subtree is exhausted.
        self.stats.backtracks += 1;
        self.stats.backjumps += 1;
        self.stats.levels_skipped += (level - lowest) as u64;
        self.trace_skipped_levels(lowest, level);
        let mark = self.state.frames[lowest].mark;
        self.store.undo_to(mark);
        for jumped in (lowest..level).rev() {
            let var = self.state.frames[jumped].var;
            self.mark_unassigned(var);
            self.state.pop_frame();
            let bj = self.backjump.as_mut().expect("backjumping");
            bj.sets.clear(jumped);
        }
        if let Some(pruners) = &mut self.backjump.as_mut().expect("backjumping").pruners {
            pruners.forget_from(lowest);
        }
        self.state.settled = 0;
    }
}
