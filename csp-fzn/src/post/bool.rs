//! The Boolean builtins (Booleans are 0..1 variables): comparisons, connectives,
//! clauses, sums, `bool2int`, each plain, `_reif` and `_imp` where MiniZinc writes them.
//! Connectives and clauses are linear sums over the 0/1 values, whose bounds
//! propagation is unit propagation.

use csp_core::{Cmp, Expr, ExprOp};

use super::int::{reified, split_reif};
use super::{Lit, Poster, Term, expr};
use crate::ast::Constraint;
use crate::error::{Error, Result};

/// Posts `c` if it is a Boolean builtin; `false` if it is not one.
pub(crate) fn post(p: &mut Poster<'_>, c: &Constraint) -> Result<bool> {
    let (stem, reif) = split_reif(&c.name);
    let imp = reif == "_imp";
    match stem {
        "bool_eq" | "bool_ne" | "bool_le" | "bool_lt" | "bool_ge" | "bool_gt" | "bool2int" | "bool_not" => {
            if stem == "bool2int" && !reif.is_empty() {
                return Ok(false);
            }
            // bool_not(a, b) is a != b; bool_not(a, b, r) does not exist.
            if stem == "bool_not" && !reif.is_empty() {
                return Ok(false);
            }
            p.arity(c, if reif.is_empty() { 2 } else { 3 })?;
            let (x, y) = (p.term(c, 0)?, p.term(c, 1)?);
            let cmp = match stem {
                "bool_eq" | "bool2int" => Cmp::Eq,
                "bool_ne" | "bool_not" => Cmp::Ne,
                "bool_le" => Cmp::Le,
                "bool_lt" => Cmp::Lt,
                "bool_ge" => Cmp::Ge,
                _ => Cmp::Gt,
            };
            reified(p, c, &[(1, x), (-1, y)], cmp, 0, reif)?;
        }
        "bool_and" | "bool_or" => {
            // bool_and(a, b, r) is r <-> a /\ b already; bool_and_reif is the same.
            p.arity(c, 3)?;
            let lits = [Lit::pos(p.term(c, 0)?), Lit::pos(p.term(c, 1)?)];
            let r = Lit::pos(p.term(c, 2)?);
            if stem == "bool_and" {
                p.and_reif(c, &lits, r, imp)?;
            } else {
                p.or_reif(c, &lits, r, imp)?;
            }
        }
        "bool_xor" => {
            if c.args.len() == 2 && reif.is_empty() {
                let (x, y) = (p.term(c, 0)?, p.term(c, 1)?);
                p.linear(c, &[(1, x), (1, y)], Cmp::Eq, 1)?;
            } else {
                p.arity(c, 3)?;
                let (x, y, r) = (p.term(c, 0)?, p.term(c, 1)?, p.term(c, 2)?);
                p.lin_reif(c, &[(1, x), (-1, y)], Cmp::Ne, 0, r, imp)?;
            }
        }
        "array_bool_and" | "array_bool_or" => {
            p.arity(c, 2)?;
            let lits: Vec<Lit> = p.terms(c, 0)?.into_iter().map(Lit::pos).collect();
            let r = Lit::pos(p.term(c, 1)?);
            if stem == "array_bool_and" {
                p.and_reif(c, &lits, r, imp)?;
            } else {
                p.or_reif(c, &lits, r, imp)?;
            }
        }
        "array_bool_xor" => {
            let xs = p.terms(c, 0)?;
            let parity = Expr::call(ExprOp::Xor, xs.iter().map(|&t| expr(t)).collect());
            let e = match (reif, c.args.len()) {
                ("", 1) if xs.is_empty() => Expr::Const(0),
                ("", 1) => parity,
                ("_imp", 2) => Expr::call(ExprOp::Imp, vec![expr(p.term(c, 1)?), parity]),
                ("_reif", 2) => Expr::call(ExprOp::Iff, vec![expr(p.term(c, 1)?), parity]),
                _ => {
                    return Err(Error::invalid(
                        c.pos,
                        format!("`{}`: wrong number of arguments", c.name),
                    ));
                }
            };
            p.intension(c, e)?;
        }
        "bool_clause" => {
            p.arity(c, if reif.is_empty() { 2 } else { 3 })?;
            let mut lits: Vec<Lit> = p.terms(c, 0)?.into_iter().map(Lit::pos).collect();
            lits.extend(p.terms(c, 1)?.into_iter().map(Lit::neg));
            let r = if reif.is_empty() {
                Term::Const(1)
            } else {
                p.term(c, 2)?
            };
            p.or_reif(c, &lits, Lit::pos(r), imp)?;
        }
        "bool_lin_eq" | "bool_lin_ne" | "bool_lin_le" | "bool_lin_lt" | "bool_lin_ge" | "bool_lin_gt" => {
            p.arity(c, if reif.is_empty() { 3 } else { 4 })?;
            let a = p.ints(c, 0)?;
            let x = p.terms(c, 1)?;
            if a.len() != x.len() {
                return Err(Error::invalid(
                    c.pos,
                    format!("`{}`: {} coefficients for {} variables", c.name, a.len(), x.len()),
                ));
            }
            let mut terms: Vec<(i64, Term)> = a.into_iter().zip(x).collect();
            terms.push((-1, p.term(c, 2)?));
            let cmp = match &stem[9..] {
                "eq" => Cmp::Eq,
                "ne" => Cmp::Ne,
                "le" => Cmp::Le,
                "lt" => Cmp::Lt,
                "ge" => Cmp::Ge,
                _ => Cmp::Gt,
            };
            reified(p, c, &terms, cmp, 0, reif)?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}
