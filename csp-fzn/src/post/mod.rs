//! Posting FlatZinc constraints onto a [`csp_core::Model`]: the arguments resolved to
//! constants and model variables, then each builtin by the native propagator that fits
//! it (linear sums for comparisons and clauses, element, minimum and maximum, the
//! globals), or by an expression constraint (`Model::intension`, which turns small
//! scopes into tables) where csp-core has none.

mod bool;
mod global;
mod int;

use std::collections::HashMap;

use csp_core::{Cmp, Domain, Expr, ExprOp, Model, ModelError, VarId};

use crate::ast::{Constraint, Expr as Ast};
use crate::error::{Error, Result};
use crate::reader::symbols::{PreTerm, Symbols, Value};
use crate::set::IntSet;

/// A constraint argument once the model exists: a constant or a model variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A constant (a Boolean is 0 or 1).
    Const(i64),
    /// A variable of the model.
    Var(VarId),
}

/// A Boolean literal: a term or its negation (`1 - term`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lit {
    term: Term,
    positive: bool,
}

impl Lit {
    fn pos(term: Term) -> Lit {
        Lit { term, positive: true }
    }

    fn neg(term: Term) -> Lit {
        Lit {
            term,
            positive: false,
        }
    }
}

/// Posts the constraints of one file.
pub(crate) struct Poster<'a> {
    pub model: &'a mut Model,
    sym: &'a Symbols,
    /// The term of each scalar variable of the file, by index.
    terms: &'a [Term],
    /// Fixed variables standing for constants where a propagator needs variables.
    consts: HashMap<i64, VarId>,
    /// Why the model has no solution, when posting found out (the first reason).
    pub unsat: Option<String>,
}

impl<'a> Poster<'a> {
    pub fn new(model: &'a mut Model, sym: &'a Symbols, terms: &'a [Term]) -> Poster<'a> {
        Poster {
            model,
            sym,
            terms,
            consts: HashMap::new(),
            unsat: None,
        }
    }

    /// Posts one constraint item.
    pub fn post(&mut self, c: &Constraint) -> Result<()> {
        let name = c.name.as_str();
        if int::post(self, c)? || bool::post(self, c)? || global::post(self, c)? {
            return Ok(());
        }
        let hint = if name.starts_with("float_") || name.contains("_float_") {
            ": csp has no float variables"
        } else if name.starts_with("set_") || name.contains("_set_") {
            ": csp has no set variables (MiniZinc decomposes sets with csp's library: compile with `--solver csp`)"
        } else {
            ": compile the model with csp's MiniZinc library (`minizinc --solver csp`), which writes only the constraints csp knows"
        };
        Err(Error::unsupported(
            c.pos,
            format!("unknown constraint `{name}`{hint}"),
        ))
    }

    // ----- arguments -----

    pub(crate) fn arity(&self, c: &Constraint, n: usize) -> Result<()> {
        if c.args.len() == n {
            Ok(())
        } else {
            Err(Error::invalid(
                c.pos,
                format!("`{}` takes {n} arguments, got {}", c.name, c.args.len()),
            ))
        }
    }

    fn arg<'c>(&self, c: &'c Constraint, i: usize) -> Result<&'c Ast> {
        c.args.get(i).ok_or_else(|| {
            Error::invalid(
                c.pos,
                format!("`{}` needs more than {} arguments", c.name, c.args.len()),
            )
        })
    }

    fn resolve(&self, t: PreTerm) -> Term {
        match t {
            PreTerm::Const(c) => Term::Const(c),
            PreTerm::Var(v) => self.terms[v],
        }
    }

    /// Argument `i`, a scalar.
    pub(crate) fn term(&self, c: &Constraint, i: usize) -> Result<Term> {
        let t = self
            .sym
            .pre_term(self.arg(c, i)?, c.pos)
            .map_err(|e| self.in_arg(c, i, e))?;
        Ok(self.resolve(t))
    }

    /// Argument `i`, an array of scalars.
    pub(crate) fn terms(&self, c: &Constraint, i: usize) -> Result<Vec<Term>> {
        let ts = self
            .sym
            .pre_terms(self.arg(c, i)?, c.pos)
            .map_err(|e| self.in_arg(c, i, e))?;
        Ok(ts.into_iter().map(|t| self.resolve(t)).collect())
    }

    /// Argument `i`, an integer (or Boolean) parameter.
    pub(crate) fn int(&self, c: &Constraint, i: usize) -> Result<i64> {
        match self.term(c, i)? {
            Term::Const(k) => Ok(k),
            Term::Var(_) => Err(self.bad_arg(c, i, "a parameter")),
        }
    }

    /// Argument `i`, an array of integer (or Boolean) parameters.
    pub(crate) fn ints(&self, c: &Constraint, i: usize) -> Result<Vec<i64>> {
        self.terms(c, i)?
            .into_iter()
            .map(|t| match t {
                Term::Const(k) => Ok(k),
                Term::Var(_) => Err(self.bad_arg(c, i, "an array of parameters")),
            })
            .collect()
    }

    /// Argument `i`, a set of integers.
    pub(crate) fn set(&self, c: &Constraint, i: usize) -> Result<IntSet> {
        match self
            .sym
            .value(self.arg(c, i)?, c.pos)
            .map_err(|e| self.in_arg(c, i, e))?
        {
            Value::Set(s) => Ok(s),
            _ => Err(self.bad_arg(c, i, "a set of integers")),
        }
    }

    /// Argument `i`, an array of sets of integers.
    pub(crate) fn sets(&self, c: &Constraint, i: usize) -> Result<Vec<IntSet>> {
        self.sym
            .values(self.arg(c, i)?, c.pos)
            .map_err(|e| self.in_arg(c, i, e))?
            .into_iter()
            .map(|v| match v {
                Value::Set(s) => Ok(s),
                _ => Err(self.bad_arg(c, i, "an array of sets of integers")),
            })
            .collect()
    }

    fn in_arg(&self, c: &Constraint, i: usize, e: Error) -> Error {
        match e {
            Error::Invalid { pos, message } => {
                Error::invalid(pos, format!("`{}`, argument {}: {message}", c.name, i + 1))
            }
            other => other,
        }
    }

    fn bad_arg(&self, c: &Constraint, i: usize, expected: &str) -> Error {
        Error::invalid(
            c.pos,
            format!("`{}`, argument {}: expected {expected}", c.name, i + 1),
        )
    }

    /// A model error, placed at the constraint.
    pub(crate) fn err(&self, c: &Constraint, e: ModelError) -> Error {
        Error::invalid(c.pos, format!("`{}`: {e}", c.name))
    }

    // ----- building blocks -----

    /// The model has no solution: the first reason is kept.
    pub(crate) fn fail(&mut self, c: &Constraint, why: &str) {
        if self.unsat.is_none() {
            self.unsat = Some(format!("line {}: `{}` {why}", c.pos.line, c.name));
        }
    }

    /// A variable for `t`: itself, or a fixed variable standing for the constant (one per
    /// value, shared).
    pub(crate) fn var_of(&mut self, c: &Constraint, t: Term) -> Result<VarId> {
        match t {
            Term::Var(v) => Ok(v),
            Term::Const(k) => {
                if let Some(&v) = self.consts.get(&k) {
                    return Ok(v);
                }
                let value = i32::try_from(k).map_err(|_| {
                    Error::invalid(
                        c.pos,
                        format!("`{}`: the constant {k} does not fit in 32 bits", c.name),
                    )
                })?;
                let domain = Domain::range(value, value).map_err(|e| self.err(c, e))?;
                let v = self.model.add_named_var(format!("{k}"), domain);
                // A given: never a search node.
                self.model.fix(v, value).map_err(|e| self.err(c, e))?;
                self.consts.insert(k, v);
                Ok(v)
            }
        }
    }

    pub(crate) fn vars_of(&mut self, c: &Constraint, ts: &[Term]) -> Result<Vec<VarId>> {
        ts.iter().map(|&t| self.var_of(c, t)).collect()
    }

    /// The smallest and largest values of `t`.
    pub(crate) fn bounds(&self, t: Term) -> (i64, i64) {
        match t {
            Term::Const(k) => (k, k),
            Term::Var(v) => {
                let d = self.model.domain(v);
                (i64::from(d.min()), i64::from(d.max()))
            }
        }
    }

    /// Posts `e`, which must hold; an expression without variables is decided here.
    pub(crate) fn intension(&mut self, c: &Constraint, e: Expr) -> Result<()> {
        if e.variables().is_empty() {
            if e.eval(&|_| 0).is_none_or(|v| v == 0) {
                self.fail(c, "never holds");
            }
            return Ok(());
        }
        self.model.intension(&e).map_err(|err| self.err(c, err))
    }

    /// Posts `sum(a * t) cmp rhs`, constants folded; decided here when no variable is left.
    pub(crate) fn linear(&mut self, c: &Constraint, terms: &[(i64, Term)], cmp: Cmp, rhs: i64) -> Result<()> {
        let mut k = i128::from(rhs);
        let mut vars: Vec<(i64, VarId)> = Vec::with_capacity(terms.len());
        for &(a, t) in terms {
            match t {
                Term::Const(x) => k = fold(c, k, a, x)?,
                Term::Var(v) if a != 0 => vars.push((a, v)),
                Term::Var(_) => {}
            }
        }
        if vars.is_empty() {
            if !holds(cmp, 0, k) {
                self.fail(c, "never holds");
            }
            return Ok(());
        }
        let k = i64::try_from(k).map_err(|_| {
            Error::invalid(
                c.pos,
                format!("`{}`: the constant {k} does not fit in 64 bits", c.name),
            )
        })?;
        self.model.linear(&vars, cmp, k).map_err(|e| self.err(c, e))
    }

    /// Posts `sum(a * lit) cmp rhs` over literals.
    pub(crate) fn linear_lits(
        &mut self,
        c: &Constraint,
        lits: &[(i64, Lit)],
        cmp: Cmp,
        rhs: i64,
    ) -> Result<()> {
        let mut k = i128::from(rhs);
        let mut terms = Vec::with_capacity(lits.len());
        for &(a, l) in lits {
            if l.positive {
                terms.push((a, l.term));
            } else {
                // a * (1 - t) = a - a * t
                k -= i128::from(a);
                terms.push((-a, l.term));
            }
        }
        let k = i64::try_from(k).map_err(|_| {
            Error::invalid(c.pos, format!("`{}`: a constant does not fit in 64 bits", c.name))
        })?;
        self.linear(c, &terms, cmp, k)
    }

    /// `r <-> or(lits)` (`imp`: `r -> or(lits)`), by linear sums over 0/1 values: the
    /// same propagation as unit propagation on the clauses.
    pub(crate) fn or_reif(&mut self, c: &Constraint, lits: &[Lit], r: Lit, imp: bool) -> Result<()> {
        if !imp {
            for &l in lits {
                self.linear_lits(c, &[(1, r), (-1, l)], Cmp::Ge, 0)?;
            }
        }
        let mut sum: Vec<(i64, Lit)> = lits.iter().map(|&l| (1, l)).collect();
        sum.push((-1, r));
        self.linear_lits(c, &sum, Cmp::Ge, 0)
    }

    /// `r <-> and(lits)` (`imp`: `r -> and(lits)`).
    pub(crate) fn and_reif(&mut self, c: &Constraint, lits: &[Lit], r: Lit, imp: bool) -> Result<()> {
        for &l in lits {
            self.linear_lits(c, &[(1, l), (-1, r)], Cmp::Ge, 0)?;
        }
        if !imp {
            let n = lits.len() as i64;
            let mut sum: Vec<(i64, Lit)> = lits.iter().map(|&l| (1, l)).collect();
            sum.push((-1, r));
            self.linear_lits(c, &sum, Cmp::Le, n - 1)?;
        }
        Ok(())
    }

    /// `r <-> sum(a * t) cmp rhs` (`imp`: `r -> ...`). Inequalities (and the implied half
    /// of an equation) are posted as linear sums with `r` weighted by the sum's bounds, so
    /// that they propagate both ways with bounds consistency; what is not linear (`not r ->
    /// sum != rhs`) by an expression constraint. Small scopes become one table.
    pub(crate) fn lin_reif(
        &mut self,
        c: &Constraint,
        terms: &[(i64, Term)],
        cmp: Cmp,
        rhs: i64,
        r: Term,
        imp: bool,
    ) -> Result<()> {
        // Normalise to <=, == and !=.
        let (terms, cmp, rhs): (Vec<(i64, Term)>, Cmp, i128) = match cmp {
            Cmp::Lt => (terms.to_vec(), Cmp::Le, i128::from(rhs) - 1),
            Cmp::Ge => (
                terms.iter().map(|&(a, t)| (-a, t)).collect(),
                Cmp::Le,
                -i128::from(rhs),
            ),
            Cmp::Gt => (
                terms.iter().map(|&(a, t)| (-a, t)).collect(),
                Cmp::Le,
                -i128::from(rhs) - 1,
            ),
            other => (terms.to_vec(), other, i128::from(rhs)),
        };
        let mut k = rhs;
        let mut vars: Vec<(i128, VarId)> = Vec::new();
        for &(a, t) in &terms {
            match t {
                Term::Const(x) => k = fold(c, k, a, x)?,
                Term::Var(v) if a != 0 => vars.push((i128::from(a), v)),
                Term::Var(_) => {}
            }
        }
        let (mut lo, mut hi) = (0i128, 0i128);
        for &(a, v) in &vars {
            let (x, y) = self.bounds(Term::Var(v));
            let (p, q) = (a * i128::from(x), a * i128::from(y));
            lo += p.min(q);
            hi += p.max(q);
        }
        // Decided by the bounds alone?
        let decided = match cmp {
            Cmp::Le if hi <= k => Some(true),
            Cmp::Le if lo > k => Some(false),
            Cmp::Eq | Cmp::Ne if k < lo || k > hi => Some(cmp == Cmp::Ne),
            Cmp::Eq | Cmp::Ne if lo == hi && lo == k => Some(cmp == Cmp::Eq),
            _ => None,
        };
        let k64 = |x: i128| {
            i64::try_from(x).map_err(|_| {
                Error::invalid(c.pos, format!("`{}`: a constant does not fit in 64 bits", c.name))
            })
        };
        match (decided, r) {
            (Some(truth), _) => {
                // r is the truth (reif), or at most the truth (imp).
                return match (truth, imp) {
                    (true, true) => Ok(()),
                    (true, false) => self.linear(c, &[(1, r)], Cmp::Eq, 1),
                    (false, _) => self.linear(c, &[(1, r)], Cmp::Eq, 0),
                };
            }
            (None, Term::Const(b)) => {
                let sum: Vec<(i64, Term)> = terms.clone();
                return match (b != 0, imp) {
                    (true, _) => self.linear(c, &sum, cmp, k64(rhs)?),
                    (false, true) => Ok(()),
                    (false, false) => {
                        let neg = match cmp {
                            Cmp::Le => Cmp::Gt,
                            Cmp::Eq => Cmp::Ne,
                            _ => Cmp::Eq,
                        };
                        self.linear(c, &sum, neg, k64(rhs)?)
                    }
                };
            }
            (None, Term::Var(_)) => {}
        }
        let Term::Var(rv) = r else { return Ok(()) };
        let sum = Expr::call(
            ExprOp::Add,
            vars.iter()
                .map(|&(a, v)| Expr::call(ExprOp::Mul, vec![Expr::Const(a as i64), Expr::Var(v)]))
                .collect(),
        );
        let test = Expr::call(
            match cmp {
                Cmp::Le => ExprOp::Le,
                Cmp::Eq => ExprOp::Eq,
                _ => ExprOp::Ne,
            },
            vec![sum, Expr::Const(k64(k)?)],
        );
        let link = |test: Expr| {
            Expr::call(
                if imp { ExprOp::Imp } else { ExprOp::Iff },
                vec![Expr::Var(rv), test],
            )
        };
        let mut scope: Vec<VarId> = vars.iter().map(|&(_, v)| v).collect();
        scope.push(rv);
        let combinations = scope.iter().fold(1u128, |p, &v| {
            p.saturating_mul(self.model.domain(v).len() as u128)
        });
        if scope.len() <= 3 && combinations <= 100_000 {
            return self.intension(c, link(test));
        }
        // Big-M forms: `sum + m * r <= hi` is `r -> sum <= hi - m`.
        let with_r = |m: i128| -> Option<Vec<(i64, VarId)>> {
            let mut t: Vec<(i64, VarId)> = vars
                .iter()
                .map(|&(a, v)| i64::try_from(a).ok().map(|a| (a, v)))
                .collect::<Option<_>>()?;
            t.push((i64::try_from(m).ok()?, rv));
            Some(t)
        };
        let mut exact = true;
        let mut post = |me: &mut Self, m: i128, cmp: Cmp, bound: i128| -> Result<()> {
            match (with_r(m), i64::try_from(bound)) {
                (Some(t), Ok(b)) => me.model.linear(&t, cmp, b).map_err(|e| me.err(c, e)),
                _ => {
                    exact = false;
                    Ok(())
                }
            }
        };
        match cmp {
            Cmp::Le => {
                post(self, hi.saturating_sub(k), Cmp::Le, hi)?; // r -> sum <= k
                if !imp {
                    post(
                        self,
                        k.saturating_add(1).saturating_sub(lo),
                        Cmp::Ge,
                        k.saturating_add(1),
                    )?; // not r -> sum >= k + 1
                }
            }
            Cmp::Eq => {
                post(self, hi.saturating_sub(k), Cmp::Le, hi)?; // r -> sum <= k
                post(self, lo.saturating_sub(k), Cmp::Ge, lo)?; // r -> sum >= k
                exact &= imp; // not r -> sum != k is not linear
            }
            _ => {
                if !imp {
                    post(self, k.saturating_sub(hi), Cmp::Le, k)?; // not r -> sum <= k
                    post(self, k.saturating_sub(lo), Cmp::Ge, k)?; // not r -> sum >= k
                }
                exact = false; // r -> sum != k is not linear
            }
        }
        if !exact {
            self.intension(c, link(test))?;
        }
        Ok(())
    }
}

/// `k - a * x`, or an error if it leaves 128 bits (constants near the 64-bit limits).
fn fold(c: &Constraint, k: i128, a: i64, x: i64) -> Result<i128> {
    (i128::from(a) * i128::from(x))
        .checked_neg()
        .and_then(|p| k.checked_add(p))
        .ok_or_else(|| Error::invalid(c.pos, format!("`{}`: its constants overflow 128 bits", c.name)))
}

/// Whether `a cmp b`, in 128 bits.
pub(crate) fn holds(cmp: Cmp, a: i128, b: i128) -> bool {
    match cmp {
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Ge => a >= b,
        Cmp::Gt => a > b,
        Cmp::Eq => a == b,
        _ => a != b,
    }
}

/// `t` as an expression.
pub(crate) fn expr(t: Term) -> Expr {
    match t {
        Term::Const(k) => Expr::Const(k),
        Term::Var(v) => Expr::Var(v),
    }
}

/// `x in s` as an expression: a test per range (or a set of values when there are many
/// short ranges).
pub(crate) fn member(x: Expr, s: &IntSet) -> Expr {
    let ranges = s.ranges();
    if ranges.len() > 8 && s.len() <= 1 << 16 {
        return Expr::call(
            ExprOp::In,
            vec![x, Expr::call(ExprOp::Set, s.values().map(Expr::Const).collect())],
        );
    }
    let tests: Vec<Expr> = ranges
        .iter()
        .map(|&(lo, hi)| {
            if lo == hi {
                Expr::call(ExprOp::Eq, vec![x.clone(), Expr::Const(lo)])
            } else {
                Expr::call(
                    ExprOp::And,
                    vec![
                        Expr::call(ExprOp::Ge, vec![x.clone(), Expr::Const(lo)]),
                        Expr::call(ExprOp::Le, vec![x.clone(), Expr::Const(hi)]),
                    ],
                )
            }
        })
        .collect();
    match tests.len() {
        0 => Expr::Const(0),
        1 => tests.into_iter().next().unwrap_or(Expr::Const(0)),
        _ => Expr::call(ExprOp::Or, tests),
    }
}
