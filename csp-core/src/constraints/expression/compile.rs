//! How an intension constraint is posted, by the shape of its expression:
//!
//! - no variable: evaluated once (false: the model has no solution);
//! - one variable: its domain is filtered at posting (values excluded);
//! - linear (`le(add(x, mul(2, y)), 10)`, `ne(x, add(y, 3))`, `in(sub(x, y), set(1, 2))`):
//!   as [`crate::Model::linear`], where two variables may become a fast binary relation
//!   (`x != y + c`, `x == y + c`, `x < y`, `x <= y`);
//! - `|x - y| != c` (`ne(dist(x, y), c)`, `ne(abs(sub(x, y)), c)`): that binary relation;
//! - small scopes (at most three variables, at most 100,000 combinations of values, a table
//!   of at most 512 KiB): the table of the combinations that satisfy it, with generalised
//!   arc consistency (binary: a table relation of the binary network);
//! - sums of functions of one variable each (`eq(add(ge(x, 1), ge(y, 3), abs(z)), 2)`),
//!   compared or tested for membership: a separable sum, which prunes each term by the
//!   bounds the others leave;
//! - anything else: a checker with forward checking.

use crate::constraints::checker::Checker;
use crate::constraints::expression::{Compiled, Expr, ExprOp};
use crate::constraints::linear::LinearKind;
use crate::constraints::separable::{SeparableSum, Term};
use crate::error::ModelError;
use crate::model::Model;
use crate::relation::Relation;
use crate::var::VarId;

/// The largest scope that is turned into a table.
pub(crate) const SMALL_ARITY: usize = 3;
/// The most combinations of values that are enumerated for a table.
pub(crate) const SMALL_PRODUCT: u128 = 100_000;

/// Posts `expr` (which must hold) on `model`.
pub(crate) fn post_intension(model: &mut Model, expr: &Expr) -> Result<(), ModelError> {
    expr.validate()?;
    let vars = expr.variables();
    for &v in &vars {
        model.validate_var(v)?;
    }
    let domain = |v: VarId| {
        let d = model.domain(v);
        (i64::from(d.min()), i64::from(d.max()))
    };
    // Refuses an expression that could leave the integers it is computed in, before any
    // shape is chosen: every path below evaluates it exactly.
    let node = Compiled::new(expr, &vars, &domain)?;
    if vars.is_empty() {
        return if node.holds::<i64>(&[]) {
            Ok(())
        } else {
            model.post_false("intension")
        };
    }
    if let Some((terms, kind)) = linear_shape(expr) {
        return model.post_linear_kind("intension", &terms, kind);
    }
    if let [x] = vars[..] {
        return model.restrict(x, |a| node.holds(&[a]));
    }
    if let Some((x, y, c)) = abs_difference_not_equal(expr) {
        if let Ok(c) = i32::try_from(c) {
            return model.post(x, y, Relation::AbsDiffNotEqual(c));
        }
    }
    if model.small_scope(&vars) && model.try_generated_table(&vars, &|values| node.holds(values))? {
        return Ok(());
    }
    if let Some((terms, kind)) = separable_shape(expr) {
        if let Some(done) = post_separable(model, &terms, kind) {
            return done;
        }
    }
    model.add_propagator(Checker::new(
        vars,
        "intension",
        Box::new(move |values| node.holds(values)),
    ))?;
    Ok(())
}

/// `sum(terms) kind` for a comparison or set membership between linear expressions.
pub(crate) fn linear_shape(expr: &Expr) -> Option<(Vec<(i64, VarId)>, LinearKind)> {
    let (terms, kind) = linear_terms_and_kind(expr)?;
    // A variable's coefficients merged must fit 64 bits, else the expression is posted
    // another way (exactly, with weaker pruning).
    let mut merged: Vec<(i128, VarId)> = Vec::with_capacity(terms.len());
    for &(c, v) in &terms {
        match merged.iter_mut().find(|t| t.1 == v) {
            Some(t) => t.0 += i128::from(c),
            None => merged.push((i128::from(c), v)),
        }
    }
    merged
        .iter()
        .all(|&(c, _)| i64::try_from(c).is_ok())
        .then_some((terms, kind))
}

/// [`linear_shape`] before the merged coefficients are checked.
fn linear_terms_and_kind(expr: &Expr) -> Option<(Vec<(i64, VarId)>, LinearKind)> {
    let Expr::Call(op, args) = expr else {
        return None;
    };
    let mut terms = Vec::new();
    let mut constant = 0i128;
    match op {
        ExprOp::In | ExprOp::NotIn => {
            linear_terms(&args[0], 1, &mut terms, &mut constant)?;
            Some((terms, membership_kind(*op, &args[1], constant)?))
        }
        ExprOp::Lt | ExprOp::Le | ExprOp::Ge | ExprOp::Gt | ExprOp::Eq | ExprOp::Ne if args.len() == 2 => {
            linear_terms(&args[0], 1, &mut terms, &mut constant)?;
            linear_terms(&args[1], -1, &mut terms, &mut constant)?;
            // sum(terms) + constant op 0, that is sum(terms) op -constant.
            Some((terms, comparison_kind(*op, -constant)))
        }
        _ => None,
    }
}

/// `sum op rhs` for a comparison operator (`lt`, `le`, `ge`, `gt`, `eq`, `ne`).
fn comparison_kind(op: ExprOp, rhs: i128) -> LinearKind {
    match op {
        ExprOp::Lt => LinearKind::Range(i128::MIN, rhs - 1),
        ExprOp::Le => LinearKind::Range(i128::MIN, rhs),
        ExprOp::Ge => LinearKind::Range(rhs, i128::MAX),
        ExprOp::Gt => LinearKind::Range(rhs + 1, i128::MAX),
        ExprOp::Eq => LinearKind::Range(rhs, rhs),
        _ => LinearKind::Ne(rhs),
    }
}

/// `sum + constant in set` (or `notin`) as a test on `sum`; `None` unless `set` is a set
/// of constants.
fn membership_kind(op: ExprOp, set: &Expr, constant: i128) -> Option<LinearKind> {
    let Expr::Call(ExprOp::Set, set) = set else {
        return None;
    };
    let mut values = set
        .iter()
        .map(|e| match e {
            Expr::Const(c) => Some(i128::from(*c) - constant),
            _ => None,
        })
        .collect::<Option<Vec<i128>>>()?;
    values.sort_unstable();
    values.dedup();
    Some(match (op, values.is_empty()) {
        // Nothing is in the empty set.
        (ExprOp::In, true) => LinearKind::Range(1, 0),
        (ExprOp::In, false) => LinearKind::In(values),
        _ => LinearKind::NotIn(values),
    })
}

/// Adds `scale * expr` to `terms` and `constant` if `expr` is linear (constants, variables,
/// `add`, `sub`, `neg`, and `mul` with at most one non-constant argument). Coefficients
/// stay within `i64`, constants within `2^100`.
fn linear_terms(expr: &Expr, scale: i128, terms: &mut Vec<(i64, VarId)>, constant: &mut i128) -> Option<()> {
    const LIMIT: i128 = 1 << 100;
    match expr {
        Expr::Const(c) => {
            *constant += scale.checked_mul(i128::from(*c)).filter(|x| x.abs() < LIMIT)?;
            (constant.abs() < LIMIT).then_some(())
        }
        Expr::Var(v) => {
            terms.push((i64::try_from(scale).ok()?, *v));
            Some(())
        }
        Expr::Call(ExprOp::Add, args) => args
            .iter()
            .try_for_each(|a| linear_terms(a, scale, terms, constant)),
        Expr::Call(ExprOp::Sub, args) => {
            linear_terms(&args[0], scale, terms, constant)?;
            linear_terms(&args[1], -scale, terms, constant)
        }
        Expr::Call(ExprOp::Neg, args) => linear_terms(&args[0], -scale, terms, constant),
        Expr::Call(ExprOp::Mul, args) => {
            let mut factor = scale;
            let mut rest = None;
            for a in args {
                match a {
                    Expr::Const(c) => {
                        factor = factor.checked_mul(i128::from(*c)).filter(|x| x.abs() < LIMIT)?
                    }
                    _ if rest.is_none() => rest = Some(a),
                    _ => return None,
                }
            }
            match rest {
                Some(a) => linear_terms(a, factor, terms, constant),
                None => {
                    *constant += factor;
                    (constant.abs() < LIMIT).then_some(())
                }
            }
        }
        _ => None,
    }
}

/// `(x, y, c)` for `ne(dist(x, y), c)` or `ne(abs(sub(x, y)), c)`, either way round.
fn abs_difference_not_equal(expr: &Expr) -> Option<(VarId, VarId, i64)> {
    let Expr::Call(ExprOp::Ne, args) = expr else {
        return None;
    };
    let (diff, c) = match (&args[0], &args[1]) {
        (d, Expr::Const(c)) | (Expr::Const(c), d) => (d, *c),
        _ => return None,
    };
    let pair = match diff {
        Expr::Call(ExprOp::Dist, xy) => &xy[..],
        Expr::Call(ExprOp::Abs, inner) => match &inner[0] {
            Expr::Call(ExprOp::Sub, xy) => &xy[..],
            _ => return None,
        },
        _ => return None,
    };
    match pair {
        [Expr::Var(x), Expr::Var(y)] if x != y => Some((*x, *y, c)),
        _ => None,
    }
}

/// A term of a separable sum: `scale * expr`, `expr` over at most one variable.
type Part<'a> = (i128, &'a Expr);

/// The parts of a comparison or membership test between sums of functions of one variable
/// each, as `sum(parts) kind`.
fn separable_shape(expr: &Expr) -> Option<(Vec<Part<'_>>, LinearKind)> {
    let Expr::Call(op, args) = expr else {
        return None;
    };
    let mut parts = Vec::new();
    match op {
        ExprOp::In | ExprOp::NotIn => {
            separable_parts(&args[0], 1, &mut parts)?;
            Some((parts, membership_kind(*op, &args[1], 0)?))
        }
        ExprOp::Lt | ExprOp::Le | ExprOp::Ge | ExprOp::Gt | ExprOp::Eq | ExprOp::Ne if args.len() == 2 => {
            separable_parts(&args[0], 1, &mut parts)?;
            separable_parts(&args[1], -1, &mut parts)?;
            Some((parts, comparison_kind(*op, 0)))
        }
        _ => None,
    }
}

/// Splits `scale * expr` into parts over at most one variable each, through `add`, `sub`,
/// `neg` and `mul` by constants.
fn separable_parts<'a>(expr: &'a Expr, scale: i128, parts: &mut Vec<Part<'a>>) -> Option<()> {
    const LIMIT: i128 = 1 << 62;
    match expr {
        Expr::Call(ExprOp::Add, args) => args.iter().try_for_each(|a| separable_parts(a, scale, parts)),
        Expr::Call(ExprOp::Sub, args) => {
            separable_parts(&args[0], scale, parts)?;
            separable_parts(&args[1], -scale, parts)
        }
        Expr::Call(ExprOp::Neg, args) => separable_parts(&args[0], -scale, parts),
        Expr::Call(ExprOp::Mul, args)
            if args.iter().filter(|a| !matches!(a, Expr::Const(_))).count() == 1
                && expr.variables().len() > 1 =>
        {
            let mut factor = scale;
            let mut rest = None;
            for a in args {
                match a {
                    Expr::Const(c) => {
                        factor = factor.checked_mul(i128::from(*c)).filter(|f| f.abs() < LIMIT)?
                    }
                    _ => rest = Some(a),
                }
            }
            separable_parts(rest?, factor, parts)
        }
        _ if expr.variables().len() <= 1 => {
            parts.push((scale, expr));
            Some(())
        }
        _ => None,
    }
}

/// Posts `sum(parts) kind` as a separable sum. `None` when the functions' tables would be
/// too large or their values overflow (the caller then posts a checker).
fn post_separable(model: &mut Model, parts: &[Part<'_>], kind: LinearKind) -> Option<Result<(), ModelError>> {
    const MAX_VALUES: usize = 1 << 22;
    let mut constant = 0i128;
    let mut vars: Vec<VarId> = Vec::new();
    let mut groups: Vec<Vec<(i128, Compiled)>> = Vec::new();
    for &(scale, e) in parts {
        match e.variables()[..] {
            [] => match Compiled::new(e, &[], &|_| (0, 0)).ok()?.eval::<i64>(&[]) {
                Some(y) => constant = constant.checked_add(scale.checked_mul(y)?)?,
                // Undefined whatever the values: never holds.
                None => return Some(model.post_false("intension")),
            },
            [v] => {
                let d = model.domain(v);
                let node = Compiled::new(e, &[v], &|_| (i64::from(d.min()), i64::from(d.max()))).ok()?;
                match vars.iter().position(|&u| u == v) {
                    Some(i) => groups[i].push((scale, node)),
                    None => {
                        vars.push(v);
                        groups.push(vec![(scale, node)]);
                    }
                }
            }
            _ => return None,
        }
    }
    // A term's table spans its domain, holes included: two values far apart would
    // otherwise take a table of 2^26 entries.
    let span = |v: VarId| (i64::from(model.domain(v).max()) - i64::from(model.domain(v).min()) + 1) as usize;
    if vars.iter().map(|&v| span(v)).sum::<usize>() > MAX_VALUES {
        return None;
    }
    let mut terms = Vec::with_capacity(vars.len());
    let mut undefined: Vec<(VarId, Vec<i32>)> = Vec::new();
    for (&v, group) in vars.iter().zip(&groups) {
        let domain: Vec<i32> = model.domain(v).values().collect();
        let f = |a: i32| -> Option<i64> {
            let mut y = 0i128;
            for (scale, node) in group {
                y = y.checked_add(scale.checked_mul(node.eval(&[a])?)?)?;
            }
            i64::try_from(y).ok()
        };
        let mut bad = Vec::new();
        let mut overflow = false;
        let term = Term::new(&domain, |a| {
            let y = f(a);
            if y.is_none() {
                // Undefined, or out of range (then this shape is given up).
                overflow |= group.iter().all(|(_, node)| node.eval(&[a]).is_some());
                bad.push(a);
            }
            y
        });
        if overflow {
            return None;
        }
        undefined.push((v, bad));
        terms.push(term);
    }
    let kind = kind.shifted(constant);
    for (v, bad) in undefined {
        if !bad.is_empty() {
            if let Err(e) = model.restrict(v, |a| bad.binary_search(&a).is_err()) {
                return Some(Err(e));
            }
        }
    }
    Some(model.add_propagator(SeparableSum::new(vars, terms, kind)))
}
