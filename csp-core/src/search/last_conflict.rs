//! Last-conflict reasoning (after Lecoutre, Sais, Tabary and Vidal, "Reasoning from last
//! conflict(s) in constraint programming", AIJ 2009), over any variable order, for the
//! d-way branching of this search. A variable whose level was exhausted with no
//! solution below it (every value failed) is recorded, up to `k` variables (`--last-conflict
//! K`; ACE's default is 2); while one of them is unassigned, the first recorded one that is
//! is chosen before the order is asked. When every recorded variable is assigned again,
//! the record is emptied (the reasoning ends), and so it is at each restart. The paper's
//! binary branching records the variable of the last failed decision and then those
//! refuted on the way back to a consistent state; under d-way branching a failed
//! variable's other values are tried first, so the conflict is its exhausted level, and
//! the variable of each further exhausted level joins it.

use crate::var::VarId;

/// The recorded variables, and which levels had solutions below them.
pub(super) struct LastConflicts {
    max: usize,
    recorded: Vec<VarId>,
    /// Levels below this one have had a solution found below them since they were made:
    /// exhausting them is no conflict.
    clean_from: usize,
}

impl LastConflicts {
    /// Nothing recorded; at most `max` variables will be.
    pub(super) fn new(max: usize) -> LastConflicts {
        LastConflicts {
            max,
            recorded: Vec::with_capacity(max),
            clean_from: 0,
        }
    }

    /// The level `level`, on `var`'s values, is exhausted.
    #[inline]
    pub(super) fn on_exhausted(&mut self, level: usize, var: VarId) {
        if level < self.clean_from {
            // A solution was found below it: no conflict. The levels below it keep theirs.
            self.clean_from = level;
        } else if self.recorded.len() < self.max && !self.recorded.contains(&var) {
            self.recorded.push(var);
        }
    }

    /// A solution was found at depth `depth` (the levels `0..depth`).
    #[inline]
    pub(super) fn on_solution(&mut self, depth: usize) {
        self.clean_from = depth;
    }

    /// The variable to choose first, if a recorded one is unassigned; ends the
    /// reasoning when none is.
    #[inline]
    pub(super) fn priority(&mut self, assigned: &[bool]) -> Option<VarId> {
        if self.recorded.is_empty() {
            return None;
        }
        let first = self.recorded.iter().find(|v| !assigned[v.index()]).copied();
        if first.is_none() {
            self.recorded.clear();
        }
        first
    }

    /// A restart: nothing recorded, no level left.
    pub(super) fn clear(&mut self) {
        self.recorded.clear();
        self.clean_from = 0;
    }
}
