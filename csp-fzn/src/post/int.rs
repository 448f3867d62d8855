//! The integer builtins: comparisons and linear sums (plain, `_reif`, `_imp`),
//! arithmetic, element, minimum and maximum, and membership in a constant set.

use csp_core::{Cmp, Expr, ExprOp};

use super::{Poster, Term, expr, member};
use crate::ast::Constraint;
use crate::error::{Error, Result};

/// The comparison a builtin's name ends with (`int_le_reif` is `le`).
fn cmp_of(op: &str) -> Option<Cmp> {
    Some(match op {
        "eq" => Cmp::Eq,
        "ne" => Cmp::Ne,
        "le" => Cmp::Le,
        "lt" => Cmp::Lt,
        "ge" => Cmp::Ge,
        "gt" => Cmp::Gt,
        _ => return None,
    })
}

/// `name` split into its stem and its reification (`""`, `"_reif"` or `"_imp"`).
pub(crate) fn split_reif(name: &str) -> (&str, &str) {
    for suffix in ["_reif", "_imp"] {
        if let Some(stem) = name.strip_suffix(suffix) {
            return (stem, suffix);
        }
    }
    (name, "")
}

/// Posts `c` if it is an integer builtin; `false` if it is not one.
pub(crate) fn post(p: &mut Poster<'_>, c: &Constraint) -> Result<bool> {
    let (stem, reif) = split_reif(&c.name);
    // int_eq, int_lin_le_reif, ...
    if let Some(op) = stem.strip_prefix("int_lin_") {
        let Some(cmp) = cmp_of(op) else { return Ok(false) };
        p.arity(c, if reif.is_empty() { 3 } else { 4 })?;
        let a = p.ints(c, 0)?;
        let x = p.terms(c, 1)?;
        if a.len() != x.len() {
            return Err(Error::invalid(
                c.pos,
                format!("`{}`: {} coefficients for {} variables", c.name, a.len(), x.len()),
            ));
        }
        let terms: Vec<(i64, Term)> = a.into_iter().zip(x).collect();
        let rhs = p.int(c, 2)?;
        return reified(p, c, &terms, cmp, rhs, reif).map(|()| true);
    }
    if let Some(cmp) = stem.strip_prefix("int_").and_then(cmp_of) {
        p.arity(c, if reif.is_empty() { 2 } else { 3 })?;
        let (x, y) = (p.term(c, 0)?, p.term(c, 1)?);
        return reified(p, c, &[(1, x), (-1, y)], cmp, 0, reif).map(|()| true);
    }
    match c.name.as_str() {
        "int_plus" | "int_minus" => {
            p.arity(c, 3)?;
            let sign = if c.name == "int_plus" { 1 } else { -1 };
            let (x, y, z) = (p.term(c, 0)?, p.term(c, 1)?, p.term(c, 2)?);
            p.linear(c, &[(1, x), (sign, y), (-1, z)], Cmp::Eq, 0)?;
        }
        "int_negate" => {
            p.arity(c, 2)?;
            let (x, y) = (p.term(c, 0)?, p.term(c, 1)?);
            p.linear(c, &[(1, x), (1, y)], Cmp::Eq, 0)?;
        }
        "int_times" => {
            p.arity(c, 3)?;
            let (x, y, z) = (p.term(c, 0)?, p.term(c, 1)?, p.term(c, 2)?);
            match (x, y) {
                (Term::Const(k), t) | (t, Term::Const(k)) => p.linear(c, &[(k, t), (-1, z)], Cmp::Eq, 0)?,
                _ => binary_op(p, c, ExprOp::Mul, x, y, z)?,
            }
        }
        "int_div" | "int_mod" => {
            p.arity(c, 3)?;
            let op = if c.name == "int_div" {
                ExprOp::Div
            } else {
                ExprOp::Mod
            };
            let (x, y, z) = (p.term(c, 0)?, p.term(c, 1)?, p.term(c, 2)?);
            binary_op(p, c, op, x, y, z)?;
        }
        "int_pow" | "int_pow_fixed" => {
            p.arity(c, 3)?;
            let (x, y, z) = (p.term(c, 0)?, p.term(c, 1)?, p.term(c, 2)?);
            let (xe, ye) = (expr(x), expr(y));
            let pow = Expr::call(ExprOp::Pow, vec![xe.clone(), ye.clone()]);
            // MiniZinc: a negative exponent gives `1 div x^-y` (undefined for x = 0).
            let value = if p.bounds(y).0 >= 0 {
                pow
            } else {
                let inverse = Expr::call(
                    ExprOp::Div,
                    vec![
                        Expr::Const(1),
                        Expr::call(ExprOp::Pow, vec![xe, Expr::call(ExprOp::Neg, vec![ye.clone()])]),
                    ],
                );
                Expr::call(
                    ExprOp::If,
                    vec![Expr::call(ExprOp::Ge, vec![ye, Expr::Const(0)]), pow, inverse],
                )
            };
            p.intension(c, Expr::call(ExprOp::Eq, vec![value, expr(z)]))?;
        }
        "int_abs" => {
            p.arity(c, 2)?;
            let (x, y) = (p.term(c, 0)?, p.term(c, 1)?);
            let e = Expr::call(ExprOp::Eq, vec![Expr::call(ExprOp::Abs, vec![expr(x)]), expr(y)]);
            p.intension(c, e)?;
        }
        "int_min" | "int_max" => {
            p.arity(c, 3)?;
            let (x, y, z) = (p.term(c, 0)?, p.term(c, 1)?, p.term(c, 2)?);
            min_max(p, c, &[x, y], z, c.name == "int_max")?;
        }
        "array_int_maximum" | "array_int_minimum" => {
            p.arity(c, 2)?;
            let m = p.term(c, 0)?;
            let xs = p.terms(c, 1)?;
            if xs.is_empty() {
                return Err(Error::invalid(c.pos, format!("`{}` of an empty array", c.name)));
            }
            min_max(p, c, &xs, m, c.name == "array_int_maximum")?;
        }
        "array_int_element" | "array_var_int_element" | "array_bool_element" | "array_var_bool_element" => {
            p.arity(c, 3)?;
            let i = p.term(c, 0)?;
            let list = p.terms(c, 1)?;
            let value = p.term(c, 2)?;
            element(p, c, i, &list, value)?;
        }
        "set_in" | "set_in_reif" | "set_in_imp" => {
            p.arity(c, if c.name == "set_in" { 2 } else { 3 })?;
            let x = p.term(c, 0)?;
            let s = p.set(c, 1)?;
            let test = member(expr(x), &s);
            let e = match c.name.as_str() {
                "set_in" => test,
                "set_in_reif" => Expr::call(ExprOp::Iff, vec![expr(p.term(c, 2)?), test]),
                _ => Expr::call(ExprOp::Imp, vec![expr(p.term(c, 2)?), test]),
            };
            p.intension(c, e)?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// `sum cmp rhs`, plain or reified (`_reif`, `_imp`: the last argument is the Boolean).
pub(crate) fn reified(
    p: &mut Poster<'_>,
    c: &Constraint,
    terms: &[(i64, Term)],
    cmp: Cmp,
    rhs: i64,
    reif: &str,
) -> Result<()> {
    if reif.is_empty() {
        return p.linear(c, terms, cmp, rhs);
    }
    let r = p.term(c, c.args.len() - 1)?;
    p.lin_reif(c, terms, cmp, rhs, r, reif == "_imp")
}

/// `z = op(x, y)` by an expression constraint.
fn binary_op(p: &mut Poster<'_>, c: &Constraint, op: ExprOp, x: Term, y: Term, z: Term) -> Result<()> {
    let e = Expr::call(ExprOp::Eq, vec![Expr::call(op, vec![expr(x), expr(y)]), expr(z)]);
    p.intension(c, e)
}

/// `m = max(xs)` (or min) by csp's propagator.
fn min_max(p: &mut Poster<'_>, c: &Constraint, xs: &[Term], m: Term, is_max: bool) -> Result<()> {
    let consts: Option<Vec<i64>> = xs
        .iter()
        .map(|t| match t {
            Term::Const(k) => Some(*k),
            Term::Var(_) => None,
        })
        .collect();
    if let Some(values) = consts {
        let v = if is_max {
            values.iter().max()
        } else {
            values.iter().min()
        };
        return p.linear(c, &[(1, m)], Cmp::Eq, v.copied().unwrap_or(0));
    }
    let vars = p.vars_of(c, xs)?;
    let mv = p.var_of(c, m)?;
    let done = if is_max {
        p.model.maximum(&vars, mv)
    } else {
        p.model.minimum(&vars, mv)
    };
    done.map_err(|e| p.err(c, e))
}

/// `value = list[i]` (1-based) by csp's element propagator.
fn element(p: &mut Poster<'_>, c: &Constraint, i: Term, list: &[Term], value: Term) -> Result<()> {
    match i {
        Term::Const(k) => match k
            .checked_sub(1)
            .and_then(|k| usize::try_from(k).ok())
            .and_then(|k| list.get(k))
        {
            Some(&item) => p.linear(c, &[(1, item), (-1, value)], Cmp::Eq, 0),
            None => {
                p.fail(c, "has its index outside the array");
                Ok(())
            }
        },
        Term::Var(iv) => {
            if list.is_empty() {
                p.fail(c, "has an empty array");
                return Ok(());
            }
            let items: Vec<Expr> = list.iter().map(|&t| expr(t)).collect();
            p.model
                .element(&items, iv, 1, expr(value))
                .map_err(|e| p.err(c, e))
        }
    }
}
