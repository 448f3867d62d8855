//! `precedence` (value precedence): for consecutive values `s = v[k]`, `t = v[k + 1]`, if
//! some variable takes `t`, an earlier one takes `s`; `covered`: every value is taken.
//!
//! Each consecutive pair gets the filtering of Law and Lee (2004), generalised arc
//! consistent for one pair: no variable up to the first one that can take `s` may take
//! `t`; and when only one variable before the first one fixed to `t` can take `s`, it
//! takes `s`. `covered` amounts to the last value being taken (the chain then takes the
//! others before it): it fails when no variable can take it and fixes the only one that can.

use crate::constraints::exact_once_complete;
use crate::constraints::forward_check_last;
use crate::propagation::{Conflict, Event, PropagationContext, Propagator};
use crate::var::VarId;

/// Value precedence over the sequence `list` (positions into `scope`).
#[derive(Clone, Debug)]
pub(crate) struct Precedence {
    scope: Vec<VarId>,
    list: Vec<VarId>,
    at: Vec<u32>,
    values: Vec<i32>,
    covered: bool,
}

impl Precedence {
    pub(crate) fn new(
        scope: Vec<VarId>,
        list: Vec<VarId>,
        at: Vec<u32>,
        values: Vec<i32>,
        covered: bool,
    ) -> Precedence {
        Precedence {
            scope,
            list,
            at,
            values,
            covered,
        }
    }

    /// Law and Lee's filtering for `s` before `t`.
    fn pair(&self, ctx: &mut PropagationContext<'_>, s: i32, t: i32) -> Result<(), Conflict> {
        let n = self.list.len();
        let alpha = self.list.iter().position(|&x| ctx.contains(x, s)).unwrap_or(n);
        for &x in &self.list[..(alpha + 1).min(n)] {
            ctx.remove(x, t)?;
        }
        if alpha == n {
            return Ok(());
        }
        let fixed_to_t = |x: VarId| ctx.size(x) == 1 && ctx.contains(x, t);
        let Some(gamma) = self.list.iter().position(|&x| fixed_to_t(x)) else {
            return Ok(());
        };
        if gamma <= alpha {
            return Err(Conflict);
        }
        let second = self.list[alpha + 1..gamma].iter().any(|&x| ctx.contains(x, s));
        if !second {
            ctx.fix(self.list[alpha], s)?;
        }
        Ok(())
    }
}

impl Propagator for Precedence {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let first = |v: i32| self.at.iter().position(|&p| values[p as usize] == v);
        let mut previous = Some(0);
        for (k, &v) in self.values.iter().enumerate() {
            let here = first(v);
            match (previous, here) {
                (None, Some(_)) => return false,
                (Some(p), Some(h)) if k > 0 && h < p => return false,
                _ => {}
            }
            previous = here;
        }
        !self.covered || previous.is_some()
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        for w in self.values.windows(2) {
            self.pair(ctx, w[0], w[1])?;
        }
        if self.covered {
            if let Some(&last) = self.values.last() {
                let mut can = self.list.iter().filter(|&&x| ctx.contains(x, last));
                match (can.next(), can.next()) {
                    (None, _) => return Err(Conflict),
                    (Some(&x), None) => {
                        ctx.fix(x, last)?;
                    }
                    _ => {}
                }
            }
        }
        // The pairs are filtered one by one: exact once one variable is left.
        forward_check_last(ctx, &self.scope, |values| self.check(values))
    }

    exact_once_complete!();

    fn name(&self) -> &str {
        "precedence"
    }
}
