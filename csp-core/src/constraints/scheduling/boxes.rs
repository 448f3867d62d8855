//! `noOverlap` for boxes of `k` dimensions: for `i != j`, some dimension `d` has
//! `o_i[d] + l_i[d] <= o_j[d]` or `o_j[d] + l_j[d] <= o_i[d]` (with `zero_ignored`, a box
//! with a length 0 in some dimension overlaps nothing). For each pair of boxes, the ways
//! they can still be apart are counted: none fails, and a single one is enforced on the
//! bounds (the pairwise rule of one machine, in its dimension). O(n^2 k) per run.

use super::task::{Bounds, Task, precede};
use crate::constraints::exact_once_complete;
use crate::constraints::forward_check_last;
use crate::propagation::{Conflict, Event, Priority, PropagationContext, Propagator};
use crate::var::VarId;

/// Boxes: `boxes[i][d]` is box `i` along dimension `d` (a task with height 1).
#[derive(Clone, Debug)]
pub(crate) struct NoOverlapBoxes {
    scope: Vec<VarId>,
    boxes: Vec<Vec<Task>>,
    zero_ignored: bool,
}

/// The one way two boxes can still be apart: along a dimension, which goes first.
enum Apart {
    Nowhere,
    Once { dim: usize, i_first: bool },
    Enough,
}

impl NoOverlapBoxes {
    pub(crate) fn new(scope: Vec<VarId>, boxes: Vec<Vec<Task>>, zero_ignored: bool) -> NoOverlapBoxes {
        NoOverlapBoxes {
            scope,
            boxes,
            zero_ignored,
        }
    }

    fn ways(&self, ctx: &PropagationContext<'_>, i: usize, j: usize) -> Result<Apart, Conflict> {
        let mut found = None;
        let mut count = 0;
        for d in 0..self.boxes[i].len() {
            let (a, b) = (self.boxes[i][d].bounds(ctx)?, self.boxes[j][d].bounds(ctx)?);
            if self.zero_ignored && (a.len == 0 || b.len == 0) {
                // One of them may be ignored.
                return Ok(Apart::Enough);
            }
            for (i_first, possible) in [(true, a.ect() <= b.lst), (false, b.ect() <= a.lst)] {
                if possible {
                    count += 1;
                    found = Some((d, i_first));
                }
            }
        }
        Ok(match (count, found) {
            (0, _) => Apart::Nowhere,
            (1, Some((dim, i_first))) => Apart::Once { dim, i_first },
            _ => Apart::Enough,
        })
    }

    fn placed_apart(&self, values: &[i32], i: usize, j: usize) -> bool {
        let mut ignored = false;
        let mut apart = false;
        for (s, t) in self.boxes[i].iter().zip(&self.boxes[j]) {
            let ((o1, l1, _), (o2, l2, _)) = (s.values(values), t.values(values));
            ignored |= self.zero_ignored && (l1 == 0 || l2 == 0);
            apart |= o1 + l1 <= o2 || o2 + l2 <= o1;
        }
        ignored || apart
    }
}

impl Propagator for NoOverlapBoxes {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let n = self.boxes.len();
        (0..n).all(|i| (i + 1..n).all(|j| self.placed_apart(values, i, j)))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        let n = self.boxes.len();
        for i in 0..n {
            for j in i + 1..n {
                match self.ways(ctx, i, j)? {
                    Apart::Nowhere => return Err(Conflict),
                    Apart::Enough => {}
                    Apart::Once { dim, i_first } => {
                        let (s, t) = (&self.boxes[i][dim], &self.boxes[j][dim]);
                        let (a, b): (Bounds, Bounds) = (s.bounds(ctx)?, t.bounds(ctx)?);
                        if i_first {
                            precede(ctx, s, &a, t, &b)?;
                        } else {
                            precede(ctx, t, &b, s, &a)?;
                        }
                    }
                }
            }
        }
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
