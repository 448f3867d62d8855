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
    /// The subexpression whose bounds overflow, as written in XCSP3 notation (variables as
    /// `x0`, `x1`, ... by index; at most about 200 characters).
    pub subexpression: String,
    /// The subexpression itself, for a caller that names the variables its own way.
    pub expr: Expr,
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
    RangeError {
        subexpression: text,
        expr: expr.clone(),
    }
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
        Div => div(parts[0], parts[1])?,
        Mod => rem(parts[0], parts[1])?,
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
        // The branch the condition's values allow (a condition that cannot be 0 takes the
        // first; one that is always 0, the second).
        If => match parts[0] {
            (0, 0) => parts[2],
            (lo, hi) if lo > 0 || hi < 0 => parts[1],
            _ => (parts[1].0.min(parts[2].0), parts[1].1.max(parts[2].1)),
        },
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

/// Truncating division over the nonzero divisors of `(c, d)`: on each side of 0 the quotient
/// is monotone in both operands, so its extremes are at the corners. No nonzero divisor: the
/// division is never defined, and `(0, 0)` is as good as any interval.
fn div((a, b): Interval, (c, d): Interval) -> Option<Interval> {
    let mut out: Option<Interval> = None;
    for (lo, hi) in [(c, d.min(-1)), (c.max(1), d)] {
        if lo > hi {
            continue;
        }
        let q = [
            a.checked_div(lo)?,
            a.checked_div(hi)?,
            b.checked_div(lo)?,
            b.checked_div(hi)?,
        ];
        let (qlo, qhi) = (*q.iter().min().expect("four"), *q.iter().max().expect("four"));
        out = Some(match out {
            None => (qlo, qhi),
            Some((l, h)) => (l.min(qlo), h.max(qhi)),
        });
    }
    Some(out.unwrap_or((0, 0)))
}

/// The remainder of truncating division takes the dividend's sign and is smaller than the
/// divisor in magnitude and no larger than the dividend: `|a % b| <= min(|a|, |b| - 1)`.
fn rem((a, b): Interval, divisor: Interval) -> Option<Interval> {
    let k = magnitude(divisor)?.saturating_sub(1).max(0);
    Some((a.max(-k).min(0), b.min(k).max(0)))
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
    // A base that is never negative has no negative power.
    let bottom = if base.0 >= 0 { 0 } else { top.checked_neg()? };
    Some((bottom, top))
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

    /// A random expression over `x0`, `x1` of every arithmetic operator (and `if` on a
    /// comparison), constants included, at most `depth` deep.
    fn random_expr(seed: &mut u64, depth: u32) -> Expr {
        let mut next = |n: u64| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed % n
        };
        if depth == 0 || next(4) == 0 {
            return match next(3) {
                0 => Expr::Const(next(9) as i64 - 4),
                _ => var(next(2) as u32),
            };
        }
        use ExprOp::*;
        let ops = [Neg, Abs, Sqr, Add, Sub, Mul, Div, Mod, Pow, Min, Max, Dist, If];
        let op = ops[next(ops.len() as u64) as usize];
        let arity = match op {
            Neg | Abs | Sqr => 1,
            If => 3,
            _ => 2,
        };
        let mut args: Vec<Expr> = (0..arity).map(|_| random_expr(seed, depth - 1)).collect();
        if op == If {
            args[0] = call(Lt, vec![args[0].clone(), var(0)]);
        }
        call(op, args)
    }

    /// The bounds contain every value the expression takes (brute force over small domains),
    /// and those of `div`, `mod` and `if` are not looser than the operands force.
    #[test]
    fn bounds_contain_every_value_brute_force() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for case in 0..3000 {
            let e = random_expr(&mut seed, 3);
            let lo0 = (case % 7) as i64 - 4;
            let hi0 = lo0 + (case % 5) as i64;
            let d = |v: VarId| if v.0 == 0 { (lo0, hi0) } else { (-3, 2) };
            let Ok(b) = bounds(&e, &d) else { continue };
            for x in lo0..=hi0 {
                for y in -3..=2 {
                    if let Some(r) = e.eval(&|v| if v.0 == 0 { x } else { y }) {
                        assert!(
                            b.interval.0 <= r && r <= b.interval.1,
                            "{e} at x0={x} x1={y} is {r}, outside {:?}",
                            b.interval
                        );
                    }
                }
            }
        }
        // The divisor bounds the remainder, and a positive divisor the quotient.
        let d = |v: VarId| if v.0 == 0 { (0, 200) } else { (-3, 2) };
        let m = call(ExprOp::Mod, vec![var(0), Expr::Const(2)]);
        assert_eq!(bounds(&m, &d).unwrap().interval, (0, 1));
        let m = call(ExprOp::Mod, vec![var(1), Expr::Const(-10)]);
        assert_eq!(bounds(&m, &d).unwrap().interval, (-3, 2));
        let q = call(ExprOp::Div, vec![var(0), Expr::Const(7)]);
        assert_eq!(bounds(&q, &d).unwrap().interval, (0, 28));
        let p = call(ExprOp::Pow, vec![Expr::Const(3), m.clone()]);
        assert!(bounds(&p, &d).is_ok());
    }

    #[test]
    fn the_remainder_of_the_smallest_integer_by_minus_one_is_zero() {
        let e = call(ExprOp::Mod, vec![Expr::Const(i64::MIN), var(0)]);
        let d = |_: VarId| (-1, -1);
        let b = bounds(&e, &d).unwrap();
        assert_eq!(b.interval, (0, 0));
        assert_eq!(e.eval(&|_| -1), Some(0));
        let q = call(ExprOp::Div, vec![Expr::Const(i64::MIN), var(0)]);
        assert!(!bounds(&q, &d).unwrap().narrow);
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
