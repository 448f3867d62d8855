//! Bounds for variables declared without usable ones. csp's domains are finite bitsets
//! (at most [`csp_core::MAX_DOMAIN_SPAN`] values wide), but FlatZinc has `var int` and
//! MiniZinc writes it for many variables it introduces: the objective defined by an
//! `int_lin_eq`, the result of an `int_times`. Their bounds follow from the constraints
//! that define them, by interval arithmetic over the other variables' domains, repeated
//! until nothing changes (a few passes: MiniZinc writes definitions in order). Only
//! variables that need bounds get them; the others keep their declared domains, so
//! that the model keeps the search space the file describes.

use crate::ast::Constraint;
use crate::reader::symbols::{PreTerm, Symbols, Value};
use crate::set::IntSet;

/// Stands for an infinite bound: far beyond any product of two 64-bit values, so that
/// arithmetic on finite bounds never reaches it, and an exact `i128` still.
pub(crate) const INF: i128 = 1 << 100;

/// The most passes over the constraints (a chain `x < y < z ...` of unbounded variables
/// would otherwise narrow by one a pass forever).
const MAX_PASSES: usize = 50;

/// An interval; `-INF` and `INF` are open ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Iv {
    pub lo: i128,
    pub hi: i128,
}

impl Iv {
    const ALL: Iv = Iv { lo: -INF, hi: INF };

    fn point(c: i64) -> Iv {
        Iv {
            lo: i128::from(c),
            hi: i128::from(c),
        }
    }

    fn finite(self) -> bool {
        self.lo > -INF && self.hi < INF
    }

    fn scale(self, a: i128) -> Iv {
        let (x, y) = (mul(self.lo, a), mul(self.hi, a));
        Iv {
            lo: x.min(y),
            hi: x.max(y),
        }
    }

    fn magnitude(self) -> i128 {
        self.lo.abs().max(self.hi.abs())
    }
}

/// A product, open when either factor is (an open end times 0 is taken as open too:
/// the bound is then only weaker).
fn mul(a: i128, b: i128) -> i128 {
    if a == 0 || b == 0 {
        return 0;
    }
    if a.abs() >= INF || b.abs() >= INF {
        return if (a > 0) == (b > 0) { INF } else { -INF };
    }
    a.checked_mul(b)
        .map_or(if (a > 0) == (b > 0) { INF } else { -INF }, |p| {
            p.clamp(-INF, INF)
        })
}

fn clamp(x: i128) -> i128 {
    x.clamp(-INF, INF)
}

/// `floor(a / b)` for `b != 0`, open ends kept open.
fn div_floor(a: i128, b: i128) -> i128 {
    if a.abs() >= INF {
        return if (a > 0) == (b > 0) { INF } else { -INF };
    }
    let (q, r) = (a / b, a % b);
    if r != 0 && ((r < 0) != (b < 0)) { q - 1 } else { q }
}

fn div_ceil(a: i128, b: i128) -> i128 {
    if a.abs() >= INF {
        return if (a > 0) == (b > 0) { INF } else { -INF };
    }
    -div_floor(-a, b)
}

/// What the reader knows of each variable class while it infers bounds.
pub(crate) struct Bounds<'a> {
    sym: &'a Symbols,
    /// By class representative.
    iv: Vec<Iv>,
    /// By class representative: whether the class needs bounds.
    needy: Vec<bool>,
}

impl<'a> Bounds<'a> {
    /// Starts from the domains (`None`: unbounded); `needy[r]`: class `r` needs bounds.
    pub fn new(sym: &'a Symbols, domains: &[Option<IntSet>], needy: Vec<bool>) -> Bounds<'a> {
        let iv = domains
            .iter()
            .zip(&needy)
            .map(|(d, &n)| match d {
                Some(s) if !n => Iv {
                    lo: s.min().map_or(INF, i128::from),
                    hi: s.max().map_or(-INF, i128::from),
                },
                _ => Iv::ALL,
            })
            .collect();
        Bounds { sym, iv, needy }
    }

    /// Narrows the needy classes by the constraints until nothing changes; returns the
    /// bounds found, by class representative (open ends where none was found).
    pub fn infer(mut self, constraints: &[Constraint]) -> Vec<Iv> {
        if !self.needy.iter().any(|&n| n) {
            return self.iv;
        }
        for _ in 0..MAX_PASSES {
            let mut changed = false;
            for c in constraints {
                for (v, iv) in self.implied(c).unwrap_or_default() {
                    changed |= self.narrow(v, iv);
                }
            }
            if !changed {
                break;
            }
        }
        self.iv
    }

    fn narrow(&mut self, t: PreTerm, iv: Iv) -> bool {
        let PreTerm::Var(v) = t else { return false };
        let r = self.sym.root(v);
        if !self.needy[r] {
            return false;
        }
        let old = self.iv[r];
        let new = Iv {
            lo: old.lo.max(clamp(iv.lo)),
            hi: old.hi.min(clamp(iv.hi)),
        };
        self.iv[r] = new;
        new != old
    }

    fn of(&self, t: PreTerm) -> Iv {
        match t {
            PreTerm::Const(c) => Iv::point(c),
            PreTerm::Var(v) => self.iv[self.sym.root(v)],
        }
    }

    fn term(&self, c: &Constraint, i: usize) -> Option<PreTerm> {
        self.sym.pre_term(c.args.get(i)?, c.pos).ok()
    }

    fn terms(&self, c: &Constraint, i: usize) -> Option<Vec<PreTerm>> {
        self.sym.pre_terms(c.args.get(i)?, c.pos).ok()
    }

    fn ints(&self, c: &Constraint, i: usize) -> Option<Vec<i64>> {
        self.sym
            .values(c.args.get(i)?, c.pos)
            .ok()?
            .into_iter()
            .map(|v| match v {
                Value::Int(i) => Some(i),
                Value::Bool(b) => Some(i64::from(b)),
                _ => None,
            })
            .collect()
    }

    /// The bounds constraint `c` implies on its variables, given the others' bounds.
    fn implied(&self, c: &Constraint) -> Option<Vec<(PreTerm, Iv)>> {
        let t = |i| self.term(c, i);
        Some(match c.name.as_str() {
            "int_lin_eq" | "int_lin_le" | "bool_lin_eq" | "bool_lin_le" => {
                let a = self.ints(c, 0)?;
                let x = self.terms(c, 1)?;
                let mut terms: Vec<(i128, PreTerm)> = a.iter().map(|&a| i128::from(a)).zip(x).collect();
                let rhs = match t(2)? {
                    PreTerm::Const(k) => i128::from(k),
                    v => {
                        terms.push((-1, v));
                        0
                    }
                };
                self.linear(&terms, rhs, c.name.ends_with("_eq"))
            }
            "int_plus" => self.linear(&[(1, t(0)?), (1, t(1)?), (-1, t(2)?)], 0, true),
            "int_minus" => self.linear(&[(1, t(0)?), (-1, t(1)?), (-1, t(2)?)], 0, true),
            "int_negate" => self.linear(&[(1, t(0)?), (1, t(1)?)], 0, true),
            "int_eq" | "bool2int" => self.linear(&[(1, t(0)?), (-1, t(1)?)], 0, true),
            "int_le" => self.linear(&[(1, t(0)?), (-1, t(1)?)], 0, false),
            "int_lt" => self.linear(&[(1, t(0)?), (-1, t(1)?)], -1, false),
            "int_times" => {
                let (a, b) = (self.of(t(0)?), self.of(t(1)?));
                let corners = [mul(a.lo, b.lo), mul(a.lo, b.hi), mul(a.hi, b.lo), mul(a.hi, b.hi)];
                let iv = Iv {
                    lo: corners.into_iter().min()?,
                    hi: corners.into_iter().max()?,
                };
                vec![(t(2)?, iv)]
            }
            "int_div" => {
                let m = self.of(t(0)?).magnitude();
                vec![(t(2)?, Iv { lo: -m, hi: m })]
            }
            "int_mod" => {
                let a = self.of(t(0)?);
                let m = a.magnitude().min(self.of(t(1)?).magnitude() - 1).max(0);
                let lo = if a.lo >= 0 { 0 } else { -m };
                let hi = if a.hi <= 0 { 0 } else { m };
                vec![(t(2)?, Iv { lo, hi })]
            }
            "int_abs" => {
                let (a, b) = (self.of(t(0)?), self.of(t(1)?));
                vec![
                    (
                        t(1)?,
                        Iv {
                            lo: 0,
                            hi: a.magnitude(),
                        },
                    ),
                    (t(0)?, Iv { lo: -b.hi, hi: b.hi }),
                ]
            }
            "int_min" | "int_max" => {
                let (a, b) = (self.of(t(0)?), self.of(t(1)?));
                let iv = if c.name == "int_min" {
                    Iv {
                        lo: a.lo.min(b.lo),
                        hi: a.hi.min(b.hi),
                    }
                } else {
                    Iv {
                        lo: a.lo.max(b.lo),
                        hi: a.hi.max(b.hi),
                    }
                };
                vec![(t(2)?, iv)]
            }
            "int_pow" | "int_pow_fixed" => {
                let (a, b) = (self.of(t(0)?), self.of(t(1)?));
                if !a.finite() || !b.finite() || b.hi > 128 {
                    return None;
                }
                let m = a.magnitude();
                let big = u32::try_from(b.hi.max(0))
                    .ok()
                    .and_then(|e| m.checked_pow(e))
                    .unwrap_or(INF);
                // A negative exponent gives `1 div x^-y`: -1, 0 or 1.
                let big = big.max(1);
                let lo = if a.lo >= 0 && b.lo >= 0 { 0 } else { -big };
                vec![(t(2)?, Iv { lo, hi: big })]
            }
            "array_int_element" => {
                let values = self.ints(c, 1)?;
                let iv = Iv {
                    lo: i128::from(*values.iter().min()?),
                    hi: i128::from(*values.iter().max()?),
                };
                vec![
                    (t(2)?, iv),
                    (
                        t(0)?,
                        Iv {
                            lo: 1,
                            hi: values.len() as i128,
                        },
                    ),
                ]
            }
            "array_var_int_element" => {
                let items = self.terms(c, 1)?;
                let ivs: Vec<Iv> = items.iter().map(|&x| self.of(x)).collect();
                let iv = Iv {
                    lo: ivs.iter().map(|i| i.lo).min()?,
                    hi: ivs.iter().map(|i| i.hi).max()?,
                };
                vec![
                    (t(2)?, iv),
                    (
                        t(0)?,
                        Iv {
                            lo: 1,
                            hi: items.len() as i128,
                        },
                    ),
                ]
            }
            "array_int_maximum" | "array_int_minimum" => {
                let ivs: Vec<Iv> = self.terms(c, 1)?.iter().map(|&x| self.of(x)).collect();
                let (los, his) = (ivs.iter().map(|i| i.lo), ivs.iter().map(|i| i.hi));
                let iv = if c.name == "array_int_maximum" {
                    Iv {
                        lo: los.max()?,
                        hi: his.max()?,
                    }
                } else {
                    Iv {
                        lo: los.min()?,
                        hi: his.min()?,
                    }
                };
                vec![(t(0)?, iv)]
            }
            "set_in" => {
                let Ok(Value::Set(s)) = self.sym.value(c.args.get(1)?, c.pos) else {
                    return None;
                };
                let iv = Iv {
                    lo: i128::from(s.min()?),
                    hi: i128::from(s.max()?),
                };
                vec![(t(0)?, iv)]
            }
            "csp_count_eq" => vec![(
                t(2)?,
                Iv {
                    lo: 0,
                    hi: self.terms(c, 0)?.len() as i128,
                },
            )],
            "csp_among" | "csp_nvalue" => vec![(
                t(0)?,
                Iv {
                    lo: 0,
                    hi: self.terms(c, 1)?.len() as i128,
                },
            )],
            "csp_global_cardinality" => {
                let n = self.terms(c, 0)?.len() as i128;
                self.terms(c, 2)?
                    .into_iter()
                    .map(|x| (x, Iv { lo: 0, hi: n }))
                    .collect()
            }
            "csp_bin_packing_load" => {
                let total: i128 = self.ints(c, 2)?.iter().map(|&w| i128::from(w.max(0))).sum();
                self.terms(c, 0)?
                    .into_iter()
                    .map(|x| (x, Iv { lo: 0, hi: total }))
                    .collect()
            }
            _ => return None,
        })
    }

    /// `sum(a * x) = rhs` (`eq`) or `<= rhs`: each term's bounds from the others'.
    fn linear(&self, terms: &[(i128, PreTerm)], rhs: i128, eq: bool) -> Vec<(PreTerm, Iv)> {
        let parts: Vec<Iv> = terms.iter().map(|&(a, x)| self.of(x).scale(a)).collect();
        // Sums of the finite ends, and how many ends are open, so that each term's "rest"
        // is the total less its own part.
        let (mut lo, mut hi, mut open_lo, mut open_hi) = (0i128, 0i128, 0, 0);
        for p in &parts {
            if p.lo <= -INF {
                open_lo += 1
            } else {
                lo += p.lo
            }
            if p.hi >= INF { open_hi += 1 } else { hi += p.hi }
        }
        let mut out = Vec::new();
        for (&(a, x), p) in terms.iter().zip(&parts) {
            if a == 0 || !matches!(x, PreTerm::Var(_)) {
                continue;
            }
            let rest_lo = if open_lo - i32::from(p.lo <= -INF) > 0 {
                -INF
            } else {
                lo - if p.lo <= -INF { 0 } else { p.lo }
            };
            let rest_hi = if open_hi - i32::from(p.hi >= INF) > 0 {
                INF
            } else {
                hi - if p.hi >= INF { 0 } else { p.hi }
            };
            // a * x <= rhs - rest_lo, and for an equation a * x >= rhs - rest_hi.
            let upper = if rest_lo <= -INF { INF } else { rhs - rest_lo };
            let lower = if !eq || rest_hi >= INF {
                -INF
            } else {
                rhs - rest_hi
            };
            let iv = if a > 0 {
                Iv {
                    lo: if lower <= -INF { -INF } else { div_ceil(lower, a) },
                    hi: if upper >= INF { INF } else { div_floor(upper, a) },
                }
            } else {
                Iv {
                    lo: if upper >= INF { -INF } else { div_ceil(upper, a) },
                    hi: if lower <= -INF { INF } else { div_floor(lower, a) },
                }
            };
            out.push((x, iv));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisions_round_the_right_way() {
        assert_eq!(div_floor(7, 2), 3);
        assert_eq!(div_floor(-7, 2), -4);
        assert_eq!(div_ceil(-7, 2), -3);
        assert_eq!(div_ceil(7, -2), -3);
        assert_eq!(div_floor(7, -2), -4);
        assert_eq!(mul(INF, -1), -INF);
    }
}
