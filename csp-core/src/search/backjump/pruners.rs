//! Which levels pruned each variable (Prosser's past-fc sets), for FC-BJ and FC-CBJ: a
//! stack of records, one per level and variable it pruned, each linked to the variable's
//! previous record. A variable's set is its chain; undoing a level pops its records,
//! which lie on top. The stack grows to the most records a path held and is then reused.

/// "No record".
const NONE: u32 = u32::MAX;

/// Level `level` pruned variable `var`.
#[derive(Clone, Copy)]
struct Record {
    var: u32,
    level: u32,
    /// Not only `level` but every level up to it is behind the pruning: an n-ary
    /// propagator pruned too, from domains that earlier levels had pruned.
    through: bool,
    /// The variable's previous record.
    previous: u32,
}

/// The levels behind each variable's pruned values.
pub(super) struct Pruners {
    /// Each variable's newest record.
    newest: Vec<u32>,
    records: Vec<Record>,
}

/// One reason a variable lost values: a level, or every level up to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pruner {
    /// The assignment at this level.
    Level(usize),
    /// The assignments at every level up to this one.
    Through(usize),
}

impl Pruners {
    pub(super) fn new(vars: usize) -> Pruners {
        Pruners {
            newest: vec![NONE; vars],
            records: Vec::new(),
        }
    }

    /// Forgets what the levels from `level` down pruned (they were undone).
    #[inline]
    pub(super) fn forget_from(&mut self, level: usize) {
        while let Some(top) = self.records.last() {
            if (top.level as usize) < level {
                break;
            }
            self.newest[top.var as usize] = top.previous;
            self.records.pop();
        }
    }

    /// Level `level` (the deepest so far) pruned `var`.
    #[inline]
    pub(super) fn record(&mut self, var: usize, level: usize, through: bool) {
        let newest = self.newest[var];
        if let Some(last) = self.records.get_mut(newest as usize) {
            if last.level as usize == level {
                last.through |= through;
                return;
            }
        }
        self.newest[var] = self.records.len() as u32;
        self.records.push(Record {
            var: var as u32,
            level: level as u32,
            through,
            previous: newest,
        });
    }

    /// The reasons `var` lost values, newest first.
    pub(super) fn of(&self, var: usize) -> impl Iterator<Item = Pruner> + '_ {
        let mut at = self.newest[var];
        std::iter::from_fn(move || {
            let record = self.records.get(at as usize)?;
            at = record.previous;
            let level = record.level as usize;
            Some(if record.through {
                Pruner::Through(level)
            } else {
                Pruner::Level(level)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Pruner, Pruners};

    #[test]
    fn records_are_forgotten_with_their_levels() {
        let mut p = Pruners::new(3);
        p.record(1, 0, false);
        p.record(2, 0, false);
        p.record(1, 2, false);
        p.record(1, 2, true);
        p.record(2, 3, false);
        assert_eq!(
            p.of(1).collect::<Vec<_>>(),
            [Pruner::Through(2), Pruner::Level(0)]
        );
        p.forget_from(2);
        assert_eq!(p.of(1).collect::<Vec<_>>(), [Pruner::Level(0)]);
        assert_eq!(p.of(2).collect::<Vec<_>>(), [Pruner::Level(0)]);
        assert_eq!(p.of(0).count(), 0);
    }
}
