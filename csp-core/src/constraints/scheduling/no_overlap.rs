//! `noOverlap` on one machine: for `i != j`, `o_i + l_i <= o_j` or `o_j + l_j <= o_i`
//! (with `zero_ignored`, a task of length 0 overlaps nothing). Time-tabling on the
//! compulsory parts and the pairwise disjunctive rule; O(n^2) per run.

use super::task::{Bounds, Task, disjunctive_pair, with_bounds};
use crate::constraints::exact_once_complete;
use crate::constraints::forward_check_last;
use crate::propagation::{Conflict, Event, Priority, PropagationContext, Propagator};
use crate::var::VarId;

/// Tasks on one machine (heights are 1).
#[derive(Clone, Debug)]
pub(crate) struct NoOverlap {
    scope: Vec<VarId>,
    tasks: Vec<Task>,
    zero_ignored: bool,
}

impl NoOverlap {
    pub(crate) fn new(scope: Vec<VarId>, tasks: Vec<Task>, zero_ignored: bool) -> NoOverlap {
        NoOverlap {
            scope,
            tasks,
            zero_ignored,
        }
    }

    /// Whether two placed tasks are apart.
    pub(crate) fn apart(o1: i64, l1: i64, o2: i64, l2: i64, zero_ignored: bool) -> bool {
        (zero_ignored && (l1 == 0 || l2 == 0)) || o1 + l1 <= o2 || o2 + l2 <= o1
    }

    /// Time-tabling: no task starts where it would overlap another's compulsory part.
    fn time_table(&self, ctx: &mut PropagationContext<'_>, bounds: &[Bounds]) -> Result<(), Conflict> {
        for (i, (s, a)) in self.tasks.iter().zip(bounds).enumerate() {
            let Some((from, to)) = a.compulsory() else {
                continue;
            };
            for (j, (t, b)) in self.tasks.iter().zip(bounds).enumerate() {
                if i == j || t.origin.var == s.origin.var || (self.zero_ignored && b.len == 0) {
                    continue;
                }
                // t overlaps [from, to) when it starts in (from - len, to) (a task of
                // length 0 strictly inside, when those count).
                t.forbid_starts(ctx, b, from - b.len + 1, to - 1)?;
            }
        }
        Ok(())
    }
}

impl Propagator for NoOverlap {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let placed: Vec<(i64, i64, i64)> = self.tasks.iter().map(|t| t.values(values)).collect();
        (0..placed.len()).all(|i| {
            (i + 1..placed.len()).all(|j| {
                let ((o1, l1, _), (o2, l2, _)) = (placed[i], placed[j]);
                NoOverlap::apart(o1, l1, o2, l2, self.zero_ignored)
            })
        })
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        with_bounds(ctx, &self.tasks, |ctx, bounds| {
            self.time_table(ctx, bounds)?;
            for (i, s) in self.tasks.iter().enumerate() {
                for (j, t) in self.tasks.iter().enumerate().skip(i + 1) {
                    disjunctive_pair(ctx, (s, &bounds[i]), (t, &bounds[j]), self.zero_ignored)?;
                }
            }
            Ok(())
        })?;
        forward_check_last(ctx, &self.scope, |values| self.check(values))
    }

    fn priority(&self) -> Priority {
        Priority::Slow
    }

    exact_once_complete!();

    fn name(&self) -> &str {
        "noOverlap"
    }
}
