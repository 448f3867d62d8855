//! Interval bounds of an expression over the variables' domains, in exact 128-bit
//! arithmetic: the posting check that makes every later evaluation exact.
//!
//! csp evaluates expressions in 128-bit integers. Before a constraint is posted, the bounds
//! of every subexpression are computed from the domains; a subexpression that could leave
//! the 128-bit range is refused ([`RangeError`]), so no evaluation during search can
//! overflow and no tuple is ever lost to an overflow. When every bound also fits 64 bits,
//! the constraint is evaluated in 64-bit integers, which is faster and as exact.

use super::{Expr, ExprOp};
use crate::var::VarId;

/// The bounds `lo..=hi` of a value.
pub type Interval = (i128, i128);

/// An expression some of whose values can leave the 128-bit integers csp computes in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeError {
    /// The subexpression whose bounds overflow, as written in XCSP3 notation.
    pub subexpression: String,
}

impl std::fmt::Display for RangeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the values of `{}` can leave the 128-bit integers csp computes in",
            self.subexpression
        )
    }
}

/// What the bounds analysis found: the expression's interval, and whether every
/// subexpression stays within 64 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The smallest and largest value the expression can take (not always reached).
    pub interval: Interval,
    /// Every subexpression's bounds fit `i64`.
    pub narrow: bool,
}

fn fits_i64((lo, hi): Interval) -> bool {
    i64::try_from(lo).is_ok() && i64::try_from(hi).is_ok()
}

/// The bounds of `expr` when each variable `v` lies within `domain(v)`.
pub fn bounds(expr: &Expr, domain: &dyn Fn(VarId) -> (i64, i64)) -> Result<Bounds, RangeError> {
    let mut narrow = true;
    let interval = interval(expr, domain, &mut narrow)?;
    Ok(Bounds { interval, narrow })
}

fn overflow(expr: &Expr) -> RangeError {
    let mut text = expr.to_string();
    if text.len() > 200 {
        let cut = (0..=200).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        text.truncate(cut);
        text.push_str("...");
    }
    RangeError { subexpression: text }
}

fn interval(
    expr: &Expr,
    domain: &dyn Fn(VarId) -> (i64, i64),
    narrow: &mut bool,
) -> Result<Interval, RangeError> {
    let result = match expr {
        Expr::Const(c) => (i128::from(*c), i128::from(*c)),
        Expr::Var(v) => {
            let (lo, hi) = domain(*v);
            (i128::from(lo), i128::from(hi))
        }
        Expr::Call(op, args) => {
            let mut parts = Vec::with_capacity(args.len());
            for (i, a) in args.iter().enumerate() {
                // The operands of a set are values, not arithmetic: they still must be exact.
                if matches!(op, ExprOp::In | ExprOp::NotIn) && i == 1 {
                    if let Expr::Call(ExprOp::Set, items) = a {
                        for item in items {
                            interval(item, domain, narrow)?;
                        }
                    }
                    parts.push((0, 1));
                    continue;
                }
                parts.push(interval(a, domain, narrow)?);
            }
            if matches!(op, ExprOp::Add | ExprOp::Mul) {
                // Evaluation folds from the left: a partial sum or product must fit 64 bits
                // too for the 64-bit evaluation (`add(-9223372036854775807, y, neg(z))` with
                // y, z in -11..-10 passes i64::MIN on the way to a result within it).
                let mut acc = parts[0];
                for &p in &parts[1..] {
                    acc = call(*op, &[acc, p]).ok_or_else(|| overflow(expr))?;
                    *narrow &= fits_i64(acc);
                }
            }
            call(*op, &parts).ok_or_else(|| overflow(expr))?
        }
    };
    *narrow &= fits_i64(result);
    Ok(result)
}

/// The interval of `op` applied to operands within `parts`; `None` on overflow.
fn call(op: ExprOp, parts: &[Interval]) -> Option<Interval> {
    use ExprOp::*;
    const BOOL: Interval = (0, 1);
    Some(match op {
        Neg => (parts[0].1.checked_neg()?, parts[0].0.checked_neg()?),
        Abs => abs(parts[0])?,
        Sqr => mul(parts[0], parts[0])?,
        Add => parts[1..].iter().try_fold(parts[0], |(lo, hi), &(a, b)| {
            Some((lo.checked_add(a)?, hi.checked_add(b)?))
        })?,
        Sub => (
            parts[0].0.checked_sub(parts[1].1)?,
            parts[0].1.checked_sub(parts[1].0)?,
        ),
        Mul => parts[1..].iter().try_fold(parts[0], |acc, &p| mul(acc, p))?,
        // |a / b| <= |a| and |a % b| <= |a| (truncating division, the dividend's sign).
        Div | Mod => {
            let m = magnitude(parts[0])?;
            (m.checked_neg()?, m)
        }
        Pow => pow(parts[0], parts[1])?,
        Min => parts[1..]
            .iter()
            .fold(parts[0], |(lo, hi), &(a, b)| (lo.min(a), hi.min(b))),
        Max => parts[1..]
            .iter()
            .fold(parts[0], |(lo, hi), &(a, b)| (lo.max(a), hi.max(b))),
        Dist => abs((
            parts[0].0.checked_sub(parts[1].1)?,
            parts[0].1.checked_sub(parts[1].0)?,
        ))?,
        If => (parts[1].0.min(parts[2].0), parts[1].1.max(parts[2].1)),
        // A set is only an operand of in and notin, where it was handled above.
        Set => (0, 0),
        Lt | Le | Ge | Gt | Ne | Eq | In | NotIn | Not | And | Or | Xor | Iff | Imp => BOOL,
    })
}

fn magnitude((lo, hi): Interval) -> Option<i128> {
    Some(lo.checked_abs()?.max(hi.checked_abs()?))
}

fn abs((lo, hi): Interval) -> Option<Interval> {
    let m = magnitude((lo, hi))?;
    Some(if lo >= 0 {
        (lo, hi)
    } else if hi <= 0 {
        (hi.checked_neg()?, m)
    } else {
        (0, m)
    })
}

fn mul((a, b): Interval, (c, d): Interval) -> Option<Interval> {
    let products = [
        a.checked_mul(c)?,
        a.checked_mul(d)?,
        b.checked_mul(c)?,
        b.checked_mul(d)?,
    ];
    Some((
        products.into_iter().min().expect("four"),
        products.into_iter().max().expect("four"),
    ))
}

/// `base^exp` for `exp >= 0` (a negative exponent is undefined and contributes nothing).
fn pow(base: Interval, (_, emax): Interval) -> Option<Interval> {
    if emax < 0 {
        return Some((0, 0));
    }
    let m = magnitude(base)?;
    if m <= 1 {
        return Some((-1, 1));
    }
    let e = u32::try_from(emax).ok()?;
    let top = m.checked_pow(e)?;
    Some((top.checked_neg()?, top))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::var::VarId;

    fn var(i: u32) -> Expr {
        Expr::Var(VarId(i))
    }

    fn call(op: ExprOp, args: Vec<Expr>) -> Expr {
        Expr::Call(op, args)
    }

    #[test]
    fn products_of_32_bit_values_are_wide_but_exact() {
        let big = |_: VarId| (2_147_483_646i64, 2_147_483_647i64);
        let e = call(
            ExprOp::Add,
            vec![
                call(ExprOp::Mul, vec![var(0), var(1)]),
                call(ExprOp::Mul, vec![var(1), var(2)]),
                call(ExprOp::Mul, vec![var(0), var(2)]),
            ],
        );
        let b = bounds(&e, &big).unwrap();
        assert!(!b.narrow);
        assert_eq!(b.interval.1, 3 * 2_147_483_647i128 * 2_147_483_647);
    }

    #[test]
    fn powers_beyond_128_bits_are_refused() {
        let d = |v: VarId| if v.0 == 0 { (2, 3) } else { (60, 200) };
        let e = call(ExprOp::Pow, vec![var(0), var(1)]);
        assert!(bounds(&e, &d).is_err());
        let d = |v: VarId| if v.0 == 0 { (2, 3) } else { (60, 70) };
        assert!(bounds(&e, &d).is_ok());
        let d = |v: VarId| {
            if v.0 == 0 {
                (-1, 1)
            } else {
                (0, i64::from(i32::MAX))
            }
        };
        assert_eq!(bounds(&e, &d).unwrap().interval, (-1, 1));
    }

    #[test]
    fn partial_sums_and_products_past_64_bits_are_wide() {
        let d = |v: VarId| if v.0 == 0 { (-11, -10) } else { (0, 0) };
        let sum = call(
            ExprOp::Add,
            vec![Expr::Const(-i64::MAX), var(0), call(ExprOp::Neg, vec![var(0)])],
        );
        let b = bounds(&sum, &d).unwrap();
        assert!(fits_i64(b.interval) && !b.narrow, "{b:?}");
        let product = call(ExprOp::Mul, vec![Expr::Const(i64::MAX), Expr::Const(2), var(1)]);
        let b = bounds(&product, &d).unwrap();
        assert_eq!(b.interval, (0, 0));
        assert!(!b.narrow);
    }

    #[test]
    fn small_expressions_stay_narrow() {
        let d = |_: VarId| (-3, 3);
        let e = call(ExprOp::Div, vec![call(ExprOp::Mul, vec![var(0), var(1)]), var(2)]);
        assert_eq!(
            bounds(&e, &d).unwrap(),
            Bounds {
                interval: (-9, 9),
                narrow: true
            }
        );
    }
}
