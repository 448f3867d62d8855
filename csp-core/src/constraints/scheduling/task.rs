//! A task as the scheduling propagators see it: an origin variable, a length and a height
//! (constants or variables), and their bounds in the current domains.

use std::cell::RefCell;

use crate::constraints::scope::{Arg, Term};
use crate::constraints::{bounds, remove_range, retain_range};
use crate::propagation::{Conflict, PropagationContext};

/// An origin, a length (non-negative) and a height (non-negative; 1 where there is none).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Task {
    pub(crate) origin: Arg,
    pub(crate) length: Term,
    pub(crate) height: Term,
}

/// A task's bounds in the current domains.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds {
    /// Earliest start.
    pub(crate) est: i64,
    /// Latest start.
    pub(crate) lst: i64,
    /// Smallest length.
    pub(crate) len: i64,
    /// Smallest height.
    pub(crate) height: i64,
    /// Largest length.
    pub(crate) len_max: i64,
}

impl Bounds {
    /// Earliest end.
    pub(crate) fn ect(&self) -> i64 {
        self.est + self.len
    }

    /// The compulsory part `[lst, ect)`, if not empty.
    pub(crate) fn compulsory(&self) -> Option<(i64, i64)> {
        (self.lst < self.ect()).then_some((self.lst, self.ect()))
    }
}

impl Task {
    pub(crate) fn bounds(&self, ctx: &PropagationContext<'_>) -> Result<Bounds, Conflict> {
        let (est, lst) = bounds(ctx, self.origin.var)?;
        Ok(Bounds {
            est,
            lst,
            len: self.length.min(ctx)?,
            height: self.height.min(ctx)?,
            len_max: self.length.max(ctx)?,
        })
    }

    /// Removes the starts in `from..=to`, where it still has some (its bounds as `b`).
    pub(crate) fn forbid_starts(
        &self,
        ctx: &mut PropagationContext<'_>,
        b: &Bounds,
        from: i64,
        to: i64,
    ) -> Result<(), Conflict> {
        if from > b.lst || to < b.est {
            return Ok(());
        }
        remove_range(ctx, self.origin.var, from, to)
    }

    /// Its values in a complete assignment: origin, length, height.
    pub(crate) fn values(&self, values: &[i32]) -> (i64, i64, i64) {
        (
            i64::from(self.origin.value(values)),
            self.length.value(values),
            self.height.value(values),
        )
    }
}

/// Orders `first` before `second` (`first.o + first.l <= second.o`) on their bounds:
/// `second` starts at the earliest when `first` can end, `first` starts late enough to end
/// before `second` must start, and `first`'s length fits between.
pub(crate) fn precede(
    ctx: &mut PropagationContext<'_>,
    first: &Task,
    a: &Bounds,
    second: &Task,
    b: &Bounds,
) -> Result<(), Conflict> {
    retain_range(ctx, second.origin.var, a.ect(), i64::MAX)?;
    retain_range(ctx, first.origin.var, i64::MIN, b.lst - a.len)?;
    first.length.restrict(ctx, i64::MIN, b.lst - a.est)
}

/// The pairwise disjunctive rule for two tasks that may not overlap: fails when neither
/// can go first, orders them when only one can. `zero_ignored`: a task that may have length
/// 0 overlaps nothing, so nothing is inferred. `a` and `b` are their bounds as computed at the
/// start of the run (looser than the current ones, so the test stays sound); an ordering
/// reads the current ones.
pub(crate) fn disjunctive_pair(
    ctx: &mut PropagationContext<'_>,
    (s, a): (&Task, &Bounds),
    (t, b): (&Task, &Bounds),
    zero_ignored: bool,
) -> Result<(), Conflict> {
    if zero_ignored && (a.len == 0 || b.len == 0) {
        return Ok(());
    }
    let s_first = a.ect() <= b.lst;
    let t_first = b.ect() <= a.lst;
    if s_first && t_first {
        return Ok(());
    }
    let (a, b) = (s.bounds(ctx)?, t.bounds(ctx)?);
    match (a.ect() <= b.lst, b.ect() <= a.lst) {
        (false, false) => Err(Conflict),
        (true, false) => precede(ctx, s, &a, t, &b),
        (false, true) => precede(ctx, t, &b, s, &a),
        (true, true) => Ok(()),
    }
}

thread_local! {
    /// The bounds of the tasks of the run in progress, reused from run to run.
    static BOUNDS: RefCell<Vec<Bounds>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with the bounds of every task, read once from the domains (they go stale as `f`
/// prunes, which keeps them sound: they only get looser).
pub(crate) fn with_bounds<R>(
    ctx: &mut PropagationContext<'_>,
    tasks: &[Task],
    f: impl FnOnce(&mut PropagationContext<'_>, &[Bounds]) -> Result<R, Conflict>,
) -> Result<R, Conflict> {
    let mut fresh = Vec::new();
    BOUNDS.with(|cell| {
        let mut borrowed = cell.try_borrow_mut();
        let all = match borrowed.as_deref_mut() {
            Ok(v) => v,
            Err(_) => &mut fresh,
        };
        all.clear();
        for t in tasks {
            all.push(t.bounds(ctx)?);
        }
        f(ctx, all)
    })
}
