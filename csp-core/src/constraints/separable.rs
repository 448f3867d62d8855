//! Separable sums `f_1(x_1) + ... + f_n(x_n) op rhs`, where each `f_i` is any function of
//! one variable given by its values (as `add(ge(x, 1), ge(y, 3), abs(z))` in an intension).
//! A value of `x_i` goes when `f_i` of it cannot meet the bounds the other terms leave
//! (which for `f_i(x) = c * x` is bounds consistency, and more for other functions); `!=`,
//! `in` and `notin` are exact once all but one variable are fixed.

use crate::constraints::forward_check_last;
use crate::constraints::linear::LinearKind;
use crate::propagation::{Conflict, Event, PropagationContext, Propagator, Wake};
use crate::var::VarId;

/// One term: `f(x)` for the values of `x`'s initial domain, `f[x - base]`.
#[derive(Clone, Debug)]
pub(crate) struct Term {
    pub(crate) base: i32,
    /// `None` for values outside the initial domain.
    pub(crate) values: Vec<Option<i64>>,
    /// The smallest and largest `f` over the initial domain.
    pub(crate) min: i64,
    pub(crate) max: i64,
}

impl Term {
    /// `f` over `domain` (increasing values, not empty); `None` where `f` is undefined
    /// (such values must be excluded from the domain by the caller).
    pub(crate) fn new(domain: &[i32], mut f: impl FnMut(i32) -> Option<i64>) -> Term {
        let base = domain[0];
        let span = (i64::from(domain[domain.len() - 1]) - i64::from(base) + 1) as usize;
        let mut values = vec![None; span];
        let (mut min, mut max) = (i64::MAX, i64::MIN);
        for &a in domain {
            if let Some(y) = f(a) {
                values[(i64::from(a) - i64::from(base)) as usize] = Some(y);
                min = min.min(y);
                max = max.max(y);
            }
        }
        if min > max {
            (min, max) = (0, 0);
        }
        Term {
            base,
            values,
            min,
            max,
        }
    }

    #[inline]
    fn at(&self, a: i32) -> i64 {
        let i = i64::from(a) - i64::from(self.base);
        usize::try_from(i)
            .ok()
            .and_then(|i| self.values.get(i).copied().flatten())
            .unwrap_or(0)
    }
}

/// `sum(terms[i](vars[i])) kind`, over distinct variables.
#[derive(Clone, Debug)]
pub(crate) struct SeparableSum {
    vars: Vec<VarId>,
    terms: Vec<Term>,
    kind: LinearKind,
}

impl SeparableSum {
    pub(crate) fn new(vars: Vec<VarId>, terms: Vec<Term>, kind: LinearKind) -> SeparableSum {
        debug_assert_eq!(vars.len(), terms.len());
        SeparableSum { vars, terms, kind }
    }

    fn sum(&self, values: &[i32]) -> i128 {
        self.terms
            .iter()
            .zip(values)
            .map(|(t, &a)| i128::from(t.at(a)))
            .sum()
    }

    /// The smallest and largest value of term `i` in the current domain.
    fn range(&self, ctx: &PropagationContext<'_>, i: usize) -> (i128, i128) {
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        let term = &self.terms[i];
        for a in ctx.values(self.vars[i]) {
            let y = term.at(a);
            lo = lo.min(y);
            hi = hi.max(y);
        }
        (i128::from(lo), i128::from(hi))
    }

    /// Removes the values whose term cannot fit `lo <= sum <= hi`, to a fixpoint (at most a
    /// few passes).
    fn bounds(&self, ctx: &mut PropagationContext<'_>, lo: i128, hi: i128) -> Result<(), Conflict> {
        let n = self.vars.len();
        let mut ranges: smallvec::SmallVec<[(i128, i128); 16]> = smallvec::SmallVec::with_capacity(n);
        for _ in 0..16 {
            ranges.clear();
            let (mut smin, mut smax) = (0i128, 0i128);
            for i in 0..n {
                if ctx.size(self.vars[i]) == 0 {
                    return Err(Conflict);
                }
                let r = self.range(ctx, i);
                smin += r.0;
                smax += r.1;
                ranges.push(r);
            }
            if smin > hi || smax < lo {
                return Err(Conflict);
            }
            if smin >= lo && smax <= hi {
                return Ok(());
            }
            let mut changed = false;
            for (i, &(tmin, tmax)) in ranges.iter().enumerate() {
                // f(x) <= hi - (smin - tmin) and f(x) >= lo - (smax - tmax).
                let upper = if hi == i128::MAX {
                    i128::MAX
                } else {
                    hi - smin + tmin
                };
                let lower = if lo == i128::MIN {
                    i128::MIN
                } else {
                    lo - smax + tmax
                };
                if tmin >= lower && tmax <= upper {
                    continue;
                }
                let var = self.vars[i];
                let term = &self.terms[i];
                let doomed: smallvec::SmallVec<[i32; 16]> = ctx
                    .values(var)
                    .filter(|&a| {
                        let y = i128::from(term.at(a));
                        y < lower || y > upper
                    })
                    .collect();
                for a in doomed {
                    ctx.remove(var, a)?;
                    changed = true;
                }
            }
            if !changed {
                return Ok(());
            }
        }
        Ok(())
    }
}

impl Propagator for SeparableSum {
    fn variables(&self) -> &[VarId] {
        &self.vars
    }

    fn heap_bytes(&self) -> usize {
        self.terms.iter().map(|t| size_of_val(&t.values[..])).sum()
    }

    fn check(&self, values: &[i32]) -> bool {
        self.kind.holds(self.sum(values))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        if let Some((lo, hi)) = self.kind.bounds() {
            self.bounds(ctx, lo, hi)?;
        }
        if !matches!(self.kind, LinearKind::Range(..)) {
            forward_check_last(ctx, &self.vars, |values| self.check(values))?;
        }
        Ok(())
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
        for (i, term) in self.terms.iter().enumerate() {
            match (i == local).then_some(value).or_else(|| assigned(i)) {
                Some(a) => {
                    let y = i128::from(term.at(a));
                    smin += y;
                    smax += y;
                }
                None => {
                    complete = false;
                    smin += i128::from(term.min);
                    smax += i128::from(term.max);
                }
            }
        }
        if complete {
            return self.kind.holds(smin);
        }
        self.kind.bounds().is_none_or(|(lo, hi)| smin <= hi && smax >= lo)
    }

    fn prunes_exactly(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "sum of functions"
    }
}
