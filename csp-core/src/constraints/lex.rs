//! `lex`: a list is lexicographically smaller than (or equal to) another, with
//! generalised arc consistency in one pass over the lists (the reasoning of Frisch, Hnich,
//! Kiziltan, Miguel and Walsh, 2002, written with suffix flags instead of their two
//! pointers).
//!
//! `x <lex y` holds when, at the first position `k` where they differ, `x_k < y_k` (and
//! `x <=lex y` also when they are equal). With `T[j]`: "from position `j` on, after equal
//! prefixes, the rest can still satisfy the constraint" (`T[n]` is true for `<=` only),
//! and the first position where `x_k < y_k` is possible after a prefix that can be equal,
//! every position before it must be able to be equal, and there `x_i <= max(y_i)` and
//! `y_i >= min(x_i)`, strictly when `T[i + 1]` is false. Positions after it are free.

use crate::constraints::exact_once_complete;
use crate::constraints::forward_check_last;
use crate::constraints::scope::Arg;
use crate::constraints::scratch::with_scratch;
use crate::constraints::{bounds, retain_range};
use crate::propagation::{Conflict, Event, PropagationContext, Propagator};
use crate::var::VarId;

/// `x <lex y` (`strict`) or `x <=lex y`, over lists of one length.
#[derive(Clone, Debug)]
pub(crate) struct Lex {
    scope: Vec<VarId>,
    x: Vec<Arg>,
    y: Vec<Arg>,
    strict: bool,
    /// Some variable occurs at two positions: the pass is then sound but not exact.
    repeats: bool,
}

impl Lex {
    pub(crate) fn new(scope: Vec<VarId>, x: Vec<Arg>, y: Vec<Arg>, strict: bool) -> Lex {
        let repeats = scope.len() < x.len() + y.len();
        Lex {
            scope,
            x,
            y,
            strict,
            repeats,
        }
    }

    /// Whether `x_k == y_k` is possible.
    fn can_equal(ctx: &PropagationContext<'_>, x: VarId, y: VarId) -> bool {
        if x == y {
            return true;
        }
        let (small, large) = if ctx.size(x) <= ctx.size(y) {
            (x, y)
        } else {
            (y, x)
        };
        ctx.values(small).any(|a| ctx.contains(large, a))
    }

    /// Whether `x_k < y_k` is possible.
    fn can_less(ctx: &PropagationContext<'_>, x: VarId, y: VarId) -> Result<bool, Conflict> {
        Ok(x != y && ctx.min(x).ok_or(Conflict)? < ctx.max(y).ok_or(Conflict)?)
    }
}

impl Propagator for Lex {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        for (x, y) in self.x.iter().zip(&self.y) {
            let (a, b) = (x.value(values), y.value(values));
            if a != b {
                return a < b;
            }
        }
        !self.strict
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        let n = self.x.len();
        with_scratch(|s| {
            // suffix[j] = T[j] as in the module documentation.
            let suffix = &mut s.flags;
            suffix.clear();
            suffix.resize(n + 1, !self.strict);
            for j in (0..n).rev() {
                let (x, y) = (self.x[j].var, self.y[j].var);
                suffix[j] = Self::can_less(ctx, x, y)? || (suffix[j + 1] && Self::can_equal(ctx, x, y));
            }
            if !suffix[0] {
                return Err(Conflict);
            }
            for i in 0..n {
                let (x, y) = (self.x[i].var, self.y[i].var);
                if x == y {
                    continue;
                }
                let gap = i64::from(!suffix[i + 1]);
                let (x_min, y_max) = (bounds(ctx, x)?.0, bounds(ctx, y)?.1);
                retain_range(ctx, x, i64::MIN, y_max - gap)?;
                retain_range(ctx, y, x_min + gap, i64::MAX)?;
                if Self::can_less(ctx, x, y)? {
                    // Position i can decide: the later ones are free.
                    break;
                }
            }
            Ok(())
        })?;
        if self.repeats {
            forward_check_last(ctx, &self.scope, |values| self.check(values))?;
        }
        Ok(())
    }

    exact_once_complete!();

    fn name(&self) -> &str {
        "lex"
    }
}
