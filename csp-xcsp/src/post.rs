//! Posting the constraints read to a csp-core model.
//!
//! - Unary constraints (an intension, a table or a sum over one variable) remove values
//!   before search ([`Model::exclude`]).
//! - Binary ones are gathered per pair of variables and posted as one relation: the fast
//!   built-in ones (`x != y + c`, `|x - y| != c`, `x == y + c`, `x < y`, `x <= y`) as such,
//!   anything else as one table of the allowed pairs, when the pair's domains have at most
//!   [`PAIR_TABLE_LIMIT`] pairs of values.
//! - Linear comparisons (`sum`, and intensions such as `le(sub(x,y),3)` over three
//!   variables or more, or over wide domains) become linear sums with bounds consistency.
//! - All-different over variables plus constants (`add(q[i],i)`) is one all-different over
//!   views; `element` is one element constraint; anything else is a general expression.

use std::collections::HashMap;

use std::sync::Arc;

use csp_core::{Cmp, Expr, Model, ModelError, Relation, Strength, TableCell, Tuples, VarId};

use crate::error::{Error, Position, Result};
use crate::ir::{Cell, CmpOp, Condition, Constraint, Ex, Located, Op, Operand};

/// The most pairs of values a binary constraint is tabulated over.
pub const PAIR_TABLE_LIMIT: u64 = 1 << 20;

/// How the constraints are posted.
#[derive(Clone, Copy, Debug)]
pub struct PostOptions {
    /// The strength of all-different constraints.
    pub all_different: Strength,
    /// Fix every variable that appears in no constraint to its smallest value, so that
    /// solutions are counted as the XCSP3 solvers (ACE) count them: over the constrained
    /// variables only. Default: true.
    pub fix_free: bool,
}

impl Default for PostOptions {
    fn default() -> Self {
        PostOptions {
            all_different: Strength::Gac,
            fix_free: true,
        }
    }
}

/// A binary constraint waiting for the others on its pair: `pred(x, y)`.
enum Binary {
    /// A built-in relation on `(x, y)`.
    Fast(Relation),
    /// An expression over `x` and `y`.
    Expr(Ex),
    /// Allowed (or forbidden) pairs.
    Pairs(Vec<(i32, i32)>, bool),
}

struct Poster<'m> {
    model: &'m mut Model,
    options: PostOptions,
    /// Per pair `(x, y)` with `x < y`: the constraints on it, oriented `(x, y)`.
    pairs: HashMap<(VarId, VarId), Vec<Binary>>,
    pair_order: Vec<(VarId, VarId)>,
    position: Position,
    /// Auxiliary variables standing for unary functions (`ge(x,3)`), by function.
    aux: HashMap<Ex, VarId>,
    /// The tuples handed to csp-core, per table as read (kept alive so the key stays unique).
    shared: HashMap<usize, (Arc<crate::ir::Table>, Tuples)>,
}

/// The most values a unary function's auxiliary variable may take.
const AUX_MAX_VALUES: usize = 1 << 16;

/// A linear combination of unary terms: `sum(c * t) + k`, each `t` a variable or a
/// function of one variable.
fn unary_linear(e: &Ex, scale: i64, terms: &mut Vec<(i64, Ex)>, k: &mut i64) -> Option<()> {
    match e {
        Ex::Int(c) => *k = k.checked_add(c.checked_mul(scale)?)?,
        Ex::Call(Op::Add, a) => {
            for x in a {
                unary_linear(x, scale, terms, k)?;
            }
        }
        Ex::Call(Op::Sub, a) => {
            unary_linear(&a[0], scale, terms, k)?;
            unary_linear(&a[1], scale.checked_neg()?, terms, k)?;
        }
        Ex::Call(Op::Neg, a) => unary_linear(&a[0], scale.checked_neg()?, terms, k)?,
        Ex::Call(Op::Mul, a) if a.len() == 2 && matches!(a[0], Ex::Int(_)) != matches!(a[1], Ex::Int(_)) => {
            let ((Ex::Int(c), other) | (other, Ex::Int(c))) = (&a[0], &a[1]) else {
                return None;
            };
            unary_linear(other, scale.checked_mul(*c)?, terms, k)?;
        }
        other => {
            if other.vars().len() != 1 {
                return None;
            }
            terms.push((scale, other.clone()));
        }
    }
    Some(())
}

fn to_expr(e: &Ex) -> Expr {
    match e {
        Ex::Int(k) => Expr::Const(*k),
        Ex::Var(v) => Expr::Var(*v),
        Ex::Call(op, args) => Expr::Call(*op, args.iter().map(to_expr).collect()),
    }
}

fn call(op: Op, args: Vec<Ex>) -> Ex {
    Ex::Call(op, args)
}

/// `e` as `sum(c * x) + k`, if it is linear.
fn linear(e: &Ex) -> Option<(Vec<(i64, VarId)>, i64)> {
    fn go(e: &Ex, scale: i64, terms: &mut Vec<(i64, VarId)>, k: &mut i64) -> Option<()> {
        match e {
            Ex::Int(c) => *k = k.checked_add(c.checked_mul(scale)?)?,
            Ex::Var(v) => terms.push((scale, *v)),
            Ex::Call(Op::Add, a) => {
                for x in a {
                    go(x, scale, terms, k)?;
                }
            }
            Ex::Call(Op::Sub, a) => {
                go(&a[0], scale, terms, k)?;
                go(&a[1], scale.checked_neg()?, terms, k)?;
            }
            Ex::Call(Op::Neg, a) => go(&a[0], scale.checked_neg()?, terms, k)?,
            Ex::Call(Op::Mul, a) => {
                let mut factor = scale;
                let mut rest = None;
                for x in a {
                    match x {
                        Ex::Int(c) => factor = factor.checked_mul(*c)?,
                        other if rest.is_none() => rest = Some(other),
                        _ => return None,
                    }
                }
                match rest {
                    Some(r) => go(r, factor, terms, k)?,
                    None => *k = k.checked_add(factor)?,
                }
            }
            _ => return None,
        }
        Some(())
    }
    let mut terms = Vec::new();
    let mut k = 0;
    go(e, 1, &mut terms, &mut k)?;
    // Merge repeated variables.
    let mut merged: Vec<(i64, VarId)> = Vec::with_capacity(terms.len());
    for (c, v) in terms {
        match merged.iter_mut().find(|(_, w)| *w == v) {
            Some(t) => t.0 = t.0.checked_add(c)?,
            None => merged.push((c, v)),
        }
    }
    merged.retain(|t| t.0 != 0);
    Some((merged, k))
}

fn cmp_of(op: Op) -> Option<Cmp> {
    Some(match op {
        Op::Lt => Cmp::Lt,
        Op::Le => Cmp::Le,
        Op::Ge => Cmp::Ge,
        Op::Gt => Cmp::Gt,
        Op::Eq => Cmp::Eq,
        Op::Ne => Cmp::Ne,
        _ => return None,
    })
}

/// The expression `lhs cond`.
fn condition_expr(lhs: Ex, cond: &Condition) -> Ex {
    let operand = match &cond.operand {
        Operand::Int(k) => Ex::Int(*k),
        Operand::Var(v) => Ex::Var(*v),
        Operand::Range(lo, hi) => {
            let inside = call(
                Op::And,
                vec![
                    call(Op::Ge, vec![lhs.clone(), Ex::Int(*lo)]),
                    call(Op::Le, vec![lhs, Ex::Int(*hi)]),
                ],
            );
            return if cond.op == CmpOp::In {
                inside
            } else {
                call(Op::Not, vec![inside])
            };
        }
        Operand::Set(s) => {
            let set = call(Op::Set, s.iter().map(|&v| Ex::Int(v)).collect());
            return call(
                if cond.op == CmpOp::In { Op::In } else { Op::NotIn },
                vec![lhs, set],
            );
        }
    };
    let op = match cond.op {
        CmpOp::Lt => Op::Lt,
        CmpOp::Le => Op::Le,
        CmpOp::Ge => Op::Ge,
        CmpOp::Gt => Op::Gt,
        CmpOp::Eq | CmpOp::In => Op::Eq,
        CmpOp::Ne | CmpOp::NotIn => Op::Ne,
    };
    call(op, vec![lhs, operand])
}

/// Posts every constraint.
pub(crate) fn post_all(model: &mut Model, constraints: &[Located], options: PostOptions) -> Result<()> {
    let declared = model.num_vars();
    let mut p = Poster {
        model,
        options,
        pairs: HashMap::new(),
        pair_order: Vec::new(),
        position: Position::default(),
        aux: HashMap::new(),
        shared: HashMap::new(),
    };
    for c in constraints {
        p.position = c.position;
        p.constraint(&c.constraint)?;
    }
    p.flush_pairs()?;
    if options.fix_free {
        let mut used = vec![false; p.model.num_vars()];
        for c in constraints {
            c.constraint.for_each_var(&mut |v| used[v.index()] = true);
        }
        let free: Vec<VarId> = p
            .model
            .vars()
            .take(declared)
            .filter(|v| !used[v.index()] && p.model.fixed(*v).is_none())
            .collect();
        for v in free {
            let lo = p.model.domain(v).values().next().expect("domains are not empty");
            p.model.fix(v, lo).map_err(|e| p.err(e))?;
        }
    }
    Ok(())
}

impl Poster<'_> {
    fn err(&self, source: ModelError) -> Error {
        Error::Model {
            position: self.position,
            source,
        }
    }

    fn dom_len(&self, v: VarId) -> u64 {
        self.model.domain(v).len() as u64
    }

    /// The model has no solution.
    fn fail(&mut self) -> Result<()> {
        let first = self.model.vars().next();
        match first {
            Some(v) => {
                let values: Vec<i32> = self.model.domain(v).values().collect();
                for a in values {
                    self.model.exclude(v, a).map_err(|e| self.err(e))?;
                }
                Ok(())
            }
            None => self.model.intension(&Expr::Const(0)).map_err(|e| self.err(e)),
        }
    }

    /// Keeps only the values of `v` that `keep` accepts.
    fn filter(&mut self, v: VarId, keep: impl Fn(i32) -> bool) -> Result<()> {
        let drop: Vec<i32> = self.model.domain(v).values().filter(|&a| !keep(a)).collect();
        for a in drop {
            self.model.exclude(v, a).map_err(|e| self.err(e))?;
        }
        Ok(())
    }

    fn constraint(&mut self, c: &Constraint) -> Result<()> {
        match c {
            Constraint::Intension(e) => self.intension(e),
            Constraint::Extension {
                scope,
                table,
                supports,
            } => {
                if scope.len() == 1 {
                    let v = scope[0];
                    let listed = |a: i32| {
                        table
                            .tuples()
                            .any(|t| matches!(t[0], Cell::Any) || t[0] == Cell::Value(a))
                    };
                    let supports = *supports;
                    return self.filter(v, |a| listed(a) == supports);
                }
                if scope.len() == 2 && scope[0] != scope[1] {
                    let (x, y) = (scope[0], scope[1]);
                    let dx: Vec<i32> = self.model.domain(x).values().collect();
                    let dy: Vec<i32> = self.model.domain(y).values().collect();
                    let has_any = table.cells.iter().any(|c| matches!(c, Cell::Any));
                    if !has_any || (dx.len() as u64) * (dy.len() as u64) <= PAIR_TABLE_LIMIT {
                        let mut pairs = Vec::with_capacity(table.len());
                        for t in table.tuples() {
                            let xs: Vec<i32> = match t[0] {
                                Cell::Value(a) => vec![a],
                                Cell::Any => dx.clone(),
                            };
                            for a in xs {
                                match t[1] {
                                    Cell::Value(b) => pairs.push((a, b)),
                                    Cell::Any => pairs.extend(dy.iter().map(|&b| (a, b))),
                                }
                            }
                        }
                        self.binary(x, y, Binary::Pairs(pairs, *supports));
                        return Ok(());
                    }
                }
                // One set of tuples per table as read (a group shares it), posted on each
                // scope: csp-core builds the bitsets once.
                let key = Arc::as_ptr(table) as usize;
                if !self.shared.contains_key(&key) {
                    let tuples: Vec<Vec<TableCell>> = table
                        .tuples()
                        .map(|t| {
                            t.iter()
                                .map(|c| match c {
                                    Cell::Value(a) => TableCell::Value(*a),
                                    Cell::Any => TableCell::Any,
                                })
                                .collect()
                        })
                        .collect();
                    let shared = Tuples::new(table.arity, tuples).map_err(|e| self.err(e))?;
                    self.shared.insert(key, (table.clone(), shared));
                }
                let tuples = &self.shared[&key].1;
                self.model
                    .table_shared(scope, tuples, *supports)
                    .map_err(|e| self.err(e))
            }
            Constraint::AllDifferent { items, except } => self.all_different(items, except),
            Constraint::AllDifferentLists { lists, .. } => {
                for i in 0..lists.len() {
                    for j in i + 1..lists.len() {
                        let ne: Vec<Ex> = lists[i]
                            .iter()
                            .zip(&lists[j])
                            .map(|(a, b)| call(Op::Ne, vec![a.clone(), b.clone()]))
                            .collect();
                        let e = if ne.len() == 1 {
                            ne.into_iter().next().expect("one")
                        } else {
                            call(Op::Or, ne)
                        };
                        self.intension(&e)?;
                    }
                }
                Ok(())
            }
            Constraint::Sum { terms, condition } => self.sum(terms, condition),
            Constraint::Element {
                list,
                index,
                start,
                condition,
            } => self.element(list, index.as_ref(), *start, condition),
            Constraint::Instantiation { vars, values } => {
                for (&v, &k) in vars.iter().zip(values) {
                    let k = i32::try_from(k)
                        .ok()
                        .filter(|k| self.model.domain(v).contains(*k));
                    match (k, self.model.fixed(v)) {
                        (None, _) => return self.fail(),
                        (Some(k), Some(old)) if old != k => return self.fail(),
                        (Some(k), _) => self.model.fix(v, k).map_err(|e| self.err(e))?,
                    }
                }
                Ok(())
            }
        }
    }

    fn binary(&mut self, x: VarId, y: VarId, b: Binary) {
        // Stored oriented (x, y) with x < y.
        let (key, b) = if x < y {
            ((x, y), b)
        } else {
            let flipped = match b {
                Binary::Pairs(p, s) => Binary::Pairs(p.into_iter().map(|(a, b)| (b, a)).collect(), s),
                Binary::Expr(e) => Binary::Expr(e),
                Binary::Fast(r) => {
                    // Only called with x < y for relations.
                    Binary::Fast(r)
                }
            };
            ((y, x), flipped)
        };
        let entry = self.pairs.entry(key).or_default();
        if entry.is_empty() {
            self.pair_order.push(key);
        }
        entry.push(b);
    }

    /// A fast built-in relation for a binary expression over `x < y`, if it is one.
    fn fast(&self, e: &Ex, x: VarId, y: VarId) -> Option<Relation> {
        let Ex::Call(op, a) = e else { return None };
        let cmp = cmp_of(*op)?;
        if a.len() != 2 {
            return None;
        }
        // |x - y| != c
        if cmp == Cmp::Ne {
            let is_xy = |p: &Ex, q: &Ex| matches!((p, q), (Ex::Var(p), Ex::Var(q)) if (*p == x && *q == y) || (*p == y && *q == x));
            let dist = |d: &Ex, c: &Ex| -> Option<i64> {
                let Ex::Int(c) = c else { return None };
                match d {
                    Ex::Call(Op::Dist, v) if is_xy(&v[0], &v[1]) => Some(*c),
                    Ex::Call(Op::Abs, v) => match &v[0] {
                        Ex::Call(Op::Sub, w) if is_xy(&w[0], &w[1]) => Some(*c),
                        _ => None,
                    },
                    _ => None,
                }
            };
            if let Some(c) = dist(&a[0], &a[1]).or_else(|| dist(&a[1], &a[0])) {
                return i32::try_from(c).ok().map(Relation::AbsDiffNotEqual);
            }
        }
        // a*x + b*y + k cmp 0
        let (l, kl) = linear(&a[0])?;
        let (r, kr) = linear(&a[1])?;
        let mut cx = 0i64;
        let mut cy = 0i64;
        for (c, v) in l {
            if v == x { cx += c } else { cy += c }
        }
        for (c, v) in r {
            if v == x { cx -= c } else { cy -= c }
        }
        let k = kl.checked_sub(kr)?;
        // normalise to x - y + k cmp 0, or y - x + k cmp 0
        let (k, cmp) = match (cx, cy) {
            (1, -1) => (k, cmp),
            (-1, 1) => (k.checked_neg()?, flip_sign(cmp)),
            _ => return None,
        };
        // x - y + k cmp 0  <=>  x cmp y - k
        let c = i32::try_from(k.checked_neg()?).ok()?;
        match (cmp, c) {
            (Cmp::Ne, c) => Some(Relation::NotEqualOffset(c)),
            (Cmp::Eq, c) => Some(Relation::EqualOffset(c)),
            (Cmp::Lt, 0) => Some(Relation::Less),
            (Cmp::Le, 0) => Some(Relation::LessEq),
            _ => None,
        }
    }

    fn intension(&mut self, e: &Ex) -> Result<()> {
        let vars = e.vars();
        match vars.len() {
            0 => {
                if e.eval(&[]).is_some_and(|v| v != 0) {
                    Ok(())
                } else {
                    self.fail()
                }
            }
            1 => {
                let v = vars[0];
                let mut values = vec![0i32; v.index() + 1];
                let keep: Vec<bool> = self
                    .model
                    .domain(v)
                    .values()
                    .map(|a| {
                        values[v.index()] = a;
                        e.eval(&values).is_some_and(|r| r != 0)
                    })
                    .collect();
                let dom: Vec<i32> = self.model.domain(v).values().collect();
                let drop: Vec<i32> = dom
                    .iter()
                    .zip(&keep)
                    .filter(|(_, k)| !**k)
                    .map(|(a, _)| *a)
                    .collect();
                for a in drop {
                    self.model.exclude(v, a).map_err(|err| self.err(err))?;
                }
                Ok(())
            }
            2 => {
                let (x, y) = if vars[0] < vars[1] {
                    (vars[0], vars[1])
                } else {
                    (vars[1], vars[0])
                };
                if let Some(r) = self.fast(e, x, y) {
                    self.binary(x, y, Binary::Fast(r));
                    return Ok(());
                }
                if self.dom_len(x) * self.dom_len(y) <= PAIR_TABLE_LIMIT {
                    self.binary(x, y, Binary::Expr(e.clone()));
                    return Ok(());
                }
                self.nary(e)
            }
            _ => self.nary(e),
        }
    }

    /// An expression over three variables or more (or two with wide domains).
    fn nary(&mut self, e: &Ex) -> Result<()> {
        if let Ex::Call(op, a) = e {
            if let (Some(cmp), 2) = (cmp_of(*op), a.len()) {
                if let (Some((l, kl)), Some((r, kr))) = (linear(&a[0]), linear(&a[1])) {
                    // l + kl cmp r + kr  <=>  l - r cmp kr - kl
                    let mut terms = l;
                    terms.extend(r.into_iter().map(|(c, v)| (-c, v)));
                    if let Some(rhs) = kr.checked_sub(kl) {
                        return self.model.linear(&terms, cmp, rhs).map_err(|err| self.err(err));
                    }
                }
                // A comparison of sums of unary functions (`eq(add(ge(x,1),ge(y,2),...),3)`):
                // one auxiliary variable per function, linked to its variable by a binary
                // table, and a linear constraint over them.
                let mut terms = Vec::new();
                let mut k = 0i64;
                if unary_linear(&a[0], 1, &mut terms, &mut k).is_some()
                    && unary_linear(&a[1], -1, &mut terms, &mut k).is_some()
                    && terms.iter().any(|(_, t)| !matches!(t, Ex::Var(_)))
                {
                    let mut lin = Vec::with_capacity(terms.len());
                    let mut ok = true;
                    for (c, t) in &terms {
                        match t {
                            Ex::Var(v) => lin.push((*c, *v)),
                            f => match self.aux_var(f)? {
                                Some(v) => lin.push((*c, v)),
                                None => {
                                    ok = false;
                                    break;
                                }
                            },
                        }
                    }
                    if ok {
                        if let Some(rhs) = k.checked_neg() {
                            return self.model.linear(&lin, cmp, rhs).map_err(|err| self.err(err));
                        }
                    }
                }
            }
        }
        self.model.intension(&to_expr(e)).map_err(|err| self.err(err))
    }

    /// The auxiliary variable equal to `f(x)` (`f` over one variable), made on first use;
    /// values of `x` where `f` is undefined are removed. `None` when the function takes too
    /// many values or values beyond 32 bits.
    fn aux_var(&mut self, f: &Ex) -> Result<Option<VarId>> {
        if let Some(&v) = self.aux.get(f) {
            return Ok(Some(v));
        }
        let x = f.vars()[0];
        let mut values = vec![0i32; x.index() + 1];
        let mut pairs = Vec::new();
        let mut undefined = Vec::new();
        for a in self.model.domain(x).values() {
            values[x.index()] = a;
            match f.eval(&values).map(i32::try_from) {
                Some(Ok(r)) => pairs.push((a, r)),
                Some(Err(_)) => return Ok(None),
                None => undefined.push(a),
            }
        }
        let image: std::collections::BTreeSet<i32> = pairs.iter().map(|p| p.1).collect();
        if image.is_empty() || image.len() > AUX_MAX_VALUES {
            return Ok(None);
        }
        for a in undefined {
            self.model.exclude(x, a).map_err(|e| self.err(e))?;
        }
        let domain = csp_core::Domain::from_values(image).map_err(|e| self.err(e))?;
        let name = format!("aux#{}", self.aux.len());
        let v = self.model.add_named_var(name, domain);
        self.binary(x, v, Binary::Pairs(pairs, true));
        self.aux.insert(f.clone(), v);
        Ok(Some(v))
    }

    fn all_different(&mut self, items: &[Ex], except: &[i64]) -> Result<()> {
        if items.len() < 2 {
            return Ok(());
        }
        if except.is_empty() {
            let views: Option<Vec<(VarId, i64)>> = items.iter().map(Ex::as_view).collect();
            if let Some(views) = views {
                let vars: Vec<VarId> = views.iter().map(|v| v.0).collect();
                let offsets: Option<Vec<i32>> = views.iter().map(|v| i32::try_from(v.1).ok()).collect();
                let mut sorted = vars.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if let (Some(offsets), true) = (offsets, sorted.len() == vars.len()) {
                    return self
                        .model
                        .all_different_offsets(&vars, &offsets, self.options.all_different)
                        .map_err(|err| self.err(err));
                }
            }
        }
        let set = call(Op::Set, except.iter().map(|&v| Ex::Int(v)).collect());
        for i in 0..items.len() {
            for j in i + 1..items.len() {
                let ne = call(Op::Ne, vec![items[i].clone(), items[j].clone()]);
                let e = if except.is_empty() {
                    ne
                } else {
                    call(
                        Op::Or,
                        vec![ne, call(Op::In, vec![items[i].clone(), set.clone()])],
                    )
                };
                self.intension(&e)?;
            }
        }
        Ok(())
    }

    fn sum(&mut self, terms: &[(Ex, Ex)], condition: &Condition) -> Result<()> {
        let simple: Option<Vec<(i64, VarId)>> = terms
            .iter()
            .map(|(c, e)| match (c, e) {
                (Ex::Int(c), Ex::Var(v)) => Some((*c, *v)),
                _ => None,
            })
            .collect();
        let constant: i64 = terms
            .iter()
            .filter_map(|(c, e)| match (c, e) {
                (Ex::Int(c), Ex::Int(k)) => c.checked_mul(*k),
                _ => None,
            })
            .sum();
        let simple = simple.or_else(|| {
            // Integers among the items are constants.
            terms
                .iter()
                .filter(|(c, e)| !matches!((c, e), (Ex::Int(_), Ex::Int(_))))
                .map(|(c, e)| match (c, e) {
                    (Ex::Int(c), Ex::Var(v)) => Some((*c, *v)),
                    _ => None,
                })
                .collect()
        });
        let general = || {
            let sum = call(
                Op::Add,
                terms
                    .iter()
                    .map(|(c, e)| call(Op::Mul, vec![c.clone(), e.clone()]))
                    .chain(std::iter::once(Ex::Int(0)))
                    .collect(),
            );
            condition_expr(sum, condition)
        };
        let Some(mut lin) = simple else {
            return self.intension(&general());
        };
        let has_constants = terms
            .iter()
            .any(|(c, e)| matches!((c, e), (Ex::Int(_), Ex::Int(_))));
        let constant = if has_constants { constant } else { 0 };
        // Merge repeated variables, drop zero coefficients.
        let mut merged: Vec<(i64, VarId)> = Vec::with_capacity(lin.len());
        for (c, v) in lin.drain(..) {
            match merged.iter_mut().find(|(_, w)| *w == v) {
                Some(t) => t.0 += c,
                None => merged.push((c, v)),
            }
        }
        merged.retain(|t| t.0 != 0);
        let distinct: Vec<VarId> = merged.iter().map(|t| t.1).collect();
        let operand_var = match condition.operand {
            Operand::Var(v) => Some(v),
            _ => None,
        };
        let scope_len = distinct.len() + usize::from(operand_var.is_some_and(|v| !distinct.contains(&v)));
        if scope_len <= 2 {
            // Unary and binary sums: through the expression path (tables, fast relations).
            let small = distinct
                .iter()
                .chain(operand_var.iter())
                .map(|&v| self.dom_len(v))
                .product::<u64>();
            if scope_len < 2 || small <= PAIR_TABLE_LIMIT {
                return self.intension(&general());
            }
        }
        let shift = |k: i64| k.checked_sub(constant);
        match (&condition.operand, condition.op) {
            (Operand::Int(k), op) => {
                let cmp = match op {
                    CmpOp::Lt => Cmp::Lt,
                    CmpOp::Le => Cmp::Le,
                    CmpOp::Ge => Cmp::Ge,
                    CmpOp::Gt => Cmp::Gt,
                    CmpOp::Eq | CmpOp::In => Cmp::Eq,
                    CmpOp::Ne | CmpOp::NotIn => Cmp::Ne,
                };
                match shift(*k) {
                    Some(rhs) => self.model.linear(&merged, cmp, rhs).map_err(|e| self.err(e)),
                    None => self.intension(&general()),
                }
            }
            (Operand::Var(y), op) => {
                let cmp = match op {
                    CmpOp::Lt => Cmp::Lt,
                    CmpOp::Le => Cmp::Le,
                    CmpOp::Ge => Cmp::Ge,
                    CmpOp::Gt => Cmp::Gt,
                    CmpOp::Eq | CmpOp::In => Cmp::Eq,
                    CmpOp::Ne | CmpOp::NotIn => Cmp::Ne,
                };
                if constant == 0 && !distinct.contains(y) {
                    self.model.linear_var(&merged, cmp, *y).map_err(|e| self.err(e))
                } else {
                    // sum + constant - y cmp 0
                    let mut t = merged.clone();
                    match t.iter_mut().find(|(_, w)| w == y) {
                        Some(e) => e.0 -= 1,
                        None => t.push((-1, *y)),
                    }
                    self.model.linear(&t, cmp, -constant).map_err(|e| self.err(e))
                }
            }
            (Operand::Range(lo, hi), op) => match (shift(*lo), shift(*hi)) {
                (Some(lo), Some(hi)) => self
                    .model
                    .linear_range(&merged, lo, hi, op == CmpOp::In)
                    .map_err(|e| self.err(e)),
                _ => self.intension(&general()),
            },
            (Operand::Set(values), op) => {
                let shifted: Option<Vec<i64>> = values.iter().map(|&v| shift(v)).collect();
                match shifted {
                    Some(vs) => self
                        .model
                        .linear_in(&merged, &vs, op == CmpOp::In)
                        .map_err(|e| self.err(e)),
                    None => self.intension(&general()),
                }
            }
        }
    }

    fn element(&mut self, list: &[Ex], index: Option<&Ex>, start: i64, condition: &Condition) -> Result<()> {
        match index {
            None => {
                let any: Vec<Ex> = list
                    .iter()
                    .map(|e| condition_expr(e.clone(), condition))
                    .collect();
                if any.is_empty() {
                    return self.fail();
                }
                self.intension(&call(
                    Op::Or,
                    any.into_iter().chain(std::iter::once(Ex::Int(0))).collect(),
                ))
            }
            Some(Ex::Int(i)) => match usize::try_from(i - start).ok().and_then(|k| list.get(k)) {
                Some(item) => self.intension(&condition_expr(item.clone(), condition)),
                None => self.fail(),
            },
            Some(Ex::Var(index))
                if condition.op == CmpOp::Eq
                    && !matches!(condition.operand, Operand::Range(..) | Operand::Set(_)) =>
            {
                let value = match &condition.operand {
                    Operand::Int(k) => Expr::Const(*k),
                    Operand::Var(v) => Expr::Var(*v),
                    _ => unreachable!("checked above"),
                };
                let list: Vec<Expr> = list.iter().map(to_expr).collect();
                self.model
                    .element(&list, *index, start, value)
                    .map_err(|e| self.err(e))
            }
            Some(index) => {
                // or over i: index == start + i and list[i] cond
                let any: Vec<Ex> = list
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        call(
                            Op::And,
                            vec![
                                call(Op::Eq, vec![index.clone(), Ex::Int(start + i as i64)]),
                                condition_expr(e.clone(), condition),
                            ],
                        )
                    })
                    .chain(std::iter::once(Ex::Int(0)))
                    .collect();
                self.intension(&call(Op::Or, any))
            }
        }
    }

    /// Posts the binary constraints gathered per pair.
    fn flush_pairs(&mut self) -> Result<()> {
        let order = std::mem::take(&mut self.pair_order);
        for key in order {
            let (x, y) = key;
            let list = self.pairs.remove(&key).unwrap_or_default();
            if list.iter().all(|b| matches!(b, Binary::Fast(_))) {
                for b in list {
                    let Binary::Fast(r) = b else { unreachable!() };
                    self.model.post(x, y, r).map_err(|e| self.err(e))?;
                }
                continue;
            }
            let dx: Vec<i32> = self.model.domain(x).values().collect();
            let dy: Vec<i32> = self.model.domain(y).values().collect();
            let product = dx.len() as u64 * dy.len() as u64;
            if product > PAIR_TABLE_LIMIT {
                // Wide domains: each constraint on its own.
                for b in list {
                    match b {
                        Binary::Fast(r) => self.model.post(x, y, r).map_err(|e| self.err(e))?,
                        Binary::Expr(e) => self.model.intension(&to_expr(&e)).map_err(|err| self.err(err))?,
                        Binary::Pairs(p, supports) => {
                            let tuples = p
                                .iter()
                                .map(|&(a, b)| vec![TableCell::Value(a), TableCell::Value(b)])
                                .collect();
                            self.model
                                .table(&[x, y], tuples, supports)
                                .map_err(|e| self.err(e))?;
                        }
                    }
                }
                continue;
            }
            // One table: the pairs every constraint allows.
            let (sx, sy) = (dx.len(), dy.len());
            let mut allowed = vec![true; sx * sy];
            let base_x = dx[0];
            let base_y = dy[0];
            let ix: HashMap<i32, usize> = dx.iter().enumerate().map(|(i, &a)| (a, i)).collect();
            let iy: HashMap<i32, usize> = dy.iter().enumerate().map(|(i, &a)| (a, i)).collect();
            let _ = (base_x, base_y);
            let mut values = vec![0i32; x.index().max(y.index()) + 1];
            for b in &list {
                match b {
                    Binary::Fast(r) => {
                        for (i, &a) in dx.iter().enumerate() {
                            for (j, &c) in dy.iter().enumerate() {
                                if !r.holds(a, c) {
                                    allowed[i * sy + j] = false;
                                }
                            }
                        }
                    }
                    Binary::Expr(e) => {
                        for (i, &a) in dx.iter().enumerate() {
                            values[x.index()] = a;
                            for (j, &c) in dy.iter().enumerate() {
                                if allowed[i * sy + j] {
                                    values[y.index()] = c;
                                    if e.eval(&values).is_none_or(|r| r == 0) {
                                        allowed[i * sy + j] = false;
                                    }
                                }
                            }
                        }
                    }
                    Binary::Pairs(p, supports) => {
                        let mut listed = vec![false; sx * sy];
                        for (a, c) in p {
                            if let (Some(&i), Some(&j)) = (ix.get(a), iy.get(c)) {
                                listed[i * sy + j] = true;
                            }
                        }
                        for (k, l) in listed.into_iter().enumerate() {
                            if l != *supports {
                                allowed[k] = false;
                            }
                        }
                    }
                }
            }
            // The same pairs as a fast built-in relation, if one fits (`x != y` written as
            // conflicts (0,0)(1,1)..., for example).
            let first = |want: bool| {
                (0..sx * sy)
                    .find(|&k| allowed[k] == want)
                    .map(|k| (dx[k / sy], dy[k % sy]))
            };
            let mut candidates = vec![Relation::Less, Relation::LessEq];
            if let Some((a, b)) = first(false) {
                if let Some(c) = a.checked_sub(b) {
                    candidates.push(Relation::NotEqualOffset(c));
                    candidates.push(Relation::AbsDiffNotEqual(c.saturating_abs()));
                }
            }
            if let Some((a, b)) = first(true) {
                if let Some(c) = a.checked_sub(b) {
                    candidates.push(Relation::EqualOffset(c));
                }
            }
            let fits = |r: &Relation| (0..sx * sy).all(|k| allowed[k] == r.holds(dx[k / sy], dy[k % sy]));
            if let Some(r) = candidates.into_iter().find(|r| fits(r)) {
                let r = match r {
                    Relation::NotEqualOffset(0) => Relation::NotEqual,
                    Relation::EqualOffset(0) => Relation::Equal,
                    r => r,
                };
                self.model.post(x, y, r).map_err(|e| self.err(e))?;
                continue;
            }
            let pairs: Vec<(i32, i32)> = (0..sx * sy)
                .filter(|&k| allowed[k])
                .map(|k| (dx[k / sy], dy[k % sy]))
                .collect();
            self.model
                .post(x, y, Relation::table(pairs))
                .map_err(|e| self.err(e))?;
        }
        Ok(())
    }
}

fn flip_sign(c: Cmp) -> Cmp {
    // -(lhs) cmp 0  <=>  lhs flip(cmp) 0
    match c {
        Cmp::Lt => Cmp::Gt,
        Cmp::Le => Cmp::Ge,
        Cmp::Ge => Cmp::Le,
        Cmp::Gt => Cmp::Lt,
        other => other,
    }
}
