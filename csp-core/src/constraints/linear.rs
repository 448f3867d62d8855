//! Linear constraints `sum(c_i * x_i) op rhs`: bounds consistency for `<=`, `>=`, `==` and
//! intervals; `!=`, `in` and `notin` exact once all but one variable are fixed (`in` also
//! prunes by the bounds of its set).
//!
//! Sums are computed in `i128`: coefficients are `i64` and values `i32`, so no sum of fewer
//! than 2^32 terms overflows.

use crate::constraints::{forward_check_last, open_positions, retain_range};
use crate::propagation::{Conflict, Event, PropagationContext, Propagator, Wake};
use crate::var::VarId;

/// What the sum must satisfy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LinearKind {
    /// `lo <= sum <= hi` (`i128::MIN` / `i128::MAX` for no bound).
    Range(i128, i128),
    /// `sum != rhs`.
    Ne(i128),
    /// `sum` is one of these values (sorted, distinct, not empty).
    In(Vec<i128>),
    /// `sum` is none of these values (sorted, distinct).
    NotIn(Vec<i128>),
    /// `sum < lo` or `sum > hi`.
    Outside(i128, i128),
}

impl LinearKind {
    /// Whether a sum satisfies it.
    pub(crate) fn holds(&self, sum: i128) -> bool {
        match self {
            LinearKind::Range(lo, hi) => *lo <= sum && sum <= *hi,
            LinearKind::Ne(rhs) => sum != *rhs,
            LinearKind::In(set) => set.binary_search(&sum).is_ok(),
            LinearKind::NotIn(set) => set.binary_search(&sum).is_err(),
            LinearKind::Outside(lo, hi) => sum < *lo || sum > *hi,
        }
    }

    /// The same condition on `sum + c`: `kind.shifted(c).holds(s) == kind.holds(s + c)`.
    pub(crate) fn shifted(&self, c: i128) -> LinearKind {
        let shift = |x: i128| {
            if x == i128::MIN || x == i128::MAX {
                x
            } else {
                x - c
            }
        };
        let set = |s: &[i128]| s.iter().map(|&x| x - c).collect();
        match self {
            LinearKind::Range(lo, hi) => LinearKind::Range(shift(*lo), shift(*hi)),
            LinearKind::Ne(r) => LinearKind::Ne(r - c),
            LinearKind::In(s) => LinearKind::In(set(s)),
            LinearKind::NotIn(s) => LinearKind::NotIn(set(s)),
            LinearKind::Outside(lo, hi) => LinearKind::Outside(lo - c, hi - c),
        }
    }

    /// The bounds every satisfying sum lies within.
    pub(crate) fn bounds(&self) -> Option<(i128, i128)> {
        match self {
            LinearKind::Range(lo, hi) => Some((*lo, *hi)),
            LinearKind::In(set) => Some((set[0], set[set.len() - 1])),
            _ => None,
        }
    }
}

/// `sum(coefs[i] * vars[i])` satisfies `kind`, over distinct variables with non-zero
/// coefficients.
#[derive(Clone, Debug)]
pub(crate) struct Linear {
    vars: Vec<VarId>,
    coefs: Vec<i64>,
    kind: LinearKind,
    /// The variables' initial bounds, for [`Propagator::is_consistent`].
    initial: Vec<(i32, i32)>,
}

impl Linear {
    pub(crate) fn new(
        vars: Vec<VarId>,
        coefs: Vec<i64>,
        kind: LinearKind,
        initial: Vec<(i32, i32)>,
    ) -> Linear {
        debug_assert_eq!(vars.len(), coefs.len());
        Linear {
            vars,
            coefs,
            kind,
            initial,
        }
    }

    fn sum(&self, values: &[i32]) -> i128 {
        self.coefs
            .iter()
            .zip(values)
            .map(|(&c, &v)| i128::from(c) * i128::from(v))
            .sum()
    }

    /// The smallest and largest contribution of term `i` with `x` in `lo..=hi`.
    #[inline]
    fn term_bounds(c: i64, lo: i32, hi: i32) -> (i128, i128) {
        let (a, b) = (i128::from(c) * i128::from(lo), i128::from(c) * i128::from(hi));
        if c > 0 { (a, b) } else { (b, a) }
    }

    /// Bounds consistency on `lo <= sum <= hi`, to a fixpoint (at most a few passes).
    fn bounds(&self, ctx: &mut PropagationContext<'_>, lo: i128, hi: i128) -> Result<(), Conflict> {
        for _ in 0..16 {
            let (mut smin, mut smax) = (0i128, 0i128);
            for (&v, &c) in self.vars.iter().zip(&self.coefs) {
                let (a, b) = Self::term_bounds(c, ctx.min(v).ok_or(Conflict)?, ctx.max(v).ok_or(Conflict)?);
                smin += a;
                smax += b;
            }
            if smin > hi || smax < lo {
                return Err(Conflict);
            }
            if smin >= lo && smax <= hi {
                return Ok(());
            }
            let mut changed = false;
            for (&v, &c) in self.vars.iter().zip(&self.coefs) {
                let (tmin, tmax) =
                    Self::term_bounds(c, ctx.min(v).ok_or(Conflict)?, ctx.max(v).ok_or(Conflict)?);
                // c * x <= hi - (smin - tmin) and c * x >= lo - (smax - tmax).
                let upper = if hi == i128::MAX {
                    None
                } else {
                    Some(hi - smin + tmin)
                };
                let lower = if lo == i128::MIN {
                    None
                } else {
                    Some(lo - smax + tmax)
                };
                let c = i128::from(c);
                let (mut xlo, mut xhi) = (i128::MIN, i128::MAX);
                if let Some(u) = upper {
                    if c > 0 {
                        xhi = xhi.min(u.div_euclid(c));
                    } else {
                        xlo = xlo.max(ceil_div(u, c));
                    }
                }
                if let Some(l) = lower {
                    if c > 0 {
                        xlo = xlo.max(ceil_div(l, c));
                    } else {
                        xhi = xhi.min(floor_div(l, c));
                    }
                }
                let (min, max) = (
                    i128::from(ctx.min(v).ok_or(Conflict)?),
                    i128::from(ctx.max(v).ok_or(Conflict)?),
                );
                if xlo > min || xhi < max {
                    let clamp = |x: i128| x.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
                    retain_range(ctx, v, clamp(xlo), clamp(xhi))?;
                    changed = true;
                }
            }
            if !changed {
                return Ok(());
            }
        }
        Ok(())
    }

    /// `sum != rhs`: once all but one are fixed, removes the one value that makes it equal.
    fn not_equal(&self, ctx: &mut PropagationContext<'_>, rhs: i128) -> Result<(), Conflict> {
        let (open, last) = open_positions(ctx, &self.vars);
        if open > 1 {
            return Ok(());
        }
        let mut rest = 0i128;
        for (i, (&v, &c)) in self.vars.iter().zip(&self.coefs).enumerate() {
            if open == 0 || i != last {
                rest += i128::from(c) * i128::from(ctx.min(v).ok_or(Conflict)?);
            }
        }
        if open == 0 {
            return if rest != rhs { Ok(()) } else { Err(Conflict) };
        }
        let c = i128::from(self.coefs[last]);
        let gap = rhs - rest;
        if gap % c == 0 {
            if let Ok(x) = i32::try_from(gap / c) {
                ctx.remove(self.vars[last], x)?;
            }
        }
        Ok(())
    }
}

/// `ceil(a / b)` for `b != 0`.
fn ceil_div(a: i128, b: i128) -> i128 {
    -floor_div(-a, b)
}

/// `floor(a / b)` for `b != 0`.
fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

impl Propagator for Linear {
    fn variables(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[i32]) -> bool {
        self.kind.holds(self.sum(values))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        match &self.kind {
            LinearKind::Range(lo, hi) => self.bounds(ctx, *lo, *hi),
            LinearKind::Ne(rhs) => self.not_equal(ctx, *rhs),
            kind => {
                if let Some((lo, hi)) = kind.bounds() {
                    self.bounds(ctx, lo, hi)?;
                }
                forward_check_last(ctx, &self.vars, |values| self.check(values))
            }
        }
    }

    fn terms_of(&self, var: VarId) -> Option<Vec<(i64, VarId)>> {
        // Only an equation defines `var`: `c_y * y + sum(c_i * x_i) = rhs`, so `y` grows
        // with `x_i` by `-c_i / c_y`.
        let LinearKind::Range(lo, hi) = self.kind else {
            return None;
        };
        let at = self.vars.iter().position(|&x| x == var).filter(|_| lo == hi)?;
        let sign = self.coefs[at].signum();
        let terms = self
            .vars
            .iter()
            .zip(&self.coefs)
            .enumerate()
            .filter(|&(i, _)| i != at);
        Some(terms.map(|(_, (&x, &c))| (-c.saturating_mul(sign), x)).collect())
    }

    fn wake(&self) -> Wake {
        match self.kind {
            LinearKind::Range(..) | LinearKind::In(_) => Wake::OnChange,
            _ => Wake::OnFixed,
        }
    }

    fn is_consistent(&self, local: usize, value: i32, assigned: &dyn Fn(usize) -> Option<i32>) -> bool {
        let (mut smin, mut smax) = (0i128, 0i128);
        let mut complete = true;
        for (i, &c) in self.coefs.iter().enumerate() {
            let (lo, hi) = match (i == local).then_some(value).or_else(|| assigned(i)) {
                Some(a) => (a, a),
                None => {
                    complete = false;
                    self.initial[i]
                }
            };
            let (a, b) = Self::term_bounds(c, lo, hi);
            smin += a;
            smax += b;
        }
        if complete {
            return self.kind.holds(smin);
        }
        // Before that, only what the initial bounds rule out.
        self.kind.bounds().is_none_or(|(lo, hi)| smin <= hi && smax >= lo)
    }

    fn prunes_exactly(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "linear"
    }
}
