//! Counting and summing constraints: `sum`, `count` (with `among`, `atLeast`, `atMost`,
//! `exactly` as its special cases), `nValues` and `cardinality`.

use csp_core::{Expr, VarId};

use crate::error::Result;
use crate::ir::{CmpOp, Condition, Constraint, Op, Operand, expr_vars, value, values_of};
use crate::post::{PAIR_TABLE_LIMIT, Poster, cmp_of_condition};
use crate::read::Reader;
use crate::read::lists::{Ctx, tokens};
use crate::xml::Node;

/// `<sum>`: `sum(coeff * item) op operand`, computed exactly.
#[derive(Debug)]
pub struct Sum {
    /// Coefficient and item (each a variable, an integer or an expression).
    pub terms: Vec<(Expr, Expr)>,
    /// The condition.
    pub condition: Condition,
}

impl Sum {
    /// The sum as one expression: `add(mul(c1, x1), ..., 0)`.
    fn expression(&self) -> Expr {
        Expr::Call(
            Op::Add,
            self.terms
                .iter()
                .map(|(c, e)| Expr::Call(Op::Mul, vec![c.clone(), e.clone()]))
                .chain([Expr::Const(0), Expr::Const(0)])
                .collect(),
        )
    }
}

impl Constraint for Sum {
    fn kind(&self) -> &'static str {
        "sum"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        for (c, e) in &self.terms {
            expr_vars(c, f);
            expr_vars(e, f);
        }
        if let Some(v) = self.condition.var() {
            f(v);
        }
    }
    fn holds(&self, values: &[i32]) -> bool {
        let mut s = 0i128;
        for (c, e) in &self.terms {
            let (Some(c), Some(e)) = (value(c, values), value(e, values)) else {
                return false;
            };
            let Some(t) = c.checked_mul(e).and_then(|t| s.checked_add(t)) else {
                return false;
            };
            s = t;
        }
        self.condition.holds(s, values)
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        // The bounds of the whole sum: refused if they leave 128 bits, exact otherwise.
        p.check_bounds(&self.expression())?;
        p.budget.steps(self.terms.len())?;
        let general = |s: &Sum| s.condition.applied_to(s.expression());
        // Integer coefficients on variables and integers: a linear sum.
        let mut merged: Vec<(i128, VarId)> = Vec::with_capacity(self.terms.len());
        let mut constant = 0i128;
        for (c, e) in &self.terms {
            // Each term as a coefficient on a variable: a product of two variables, or a
            // function of a few variables with few values (`mul(x[i][k], x[j][k])` in a
            // scalar product), through an auxiliary variable tied to it by a table.
            let (c, e) = match (c, e) {
                (Expr::Const(c), e) => (*c, e.clone()),
                (v, Expr::Const(k)) => (*k, v.clone()),
                (v, e) => (1, Expr::Call(Op::Mul, vec![v.clone(), e.clone()])),
            };
            let v = match e {
                Expr::Const(k) => {
                    constant += i128::from(c) * i128::from(k);
                    continue;
                }
                Expr::Var(v) => v,
                f if p.small_function(&f) => match p.var_of_or(&f)? {
                    Ok(v) => v,
                    // Values no variable holds (a product past 32 bits): the general path.
                    Err(_) => return p.intension(&general(self)),
                },
                _ => return p.intension(&general(self)),
            };
            match merged.iter_mut().find(|(_, w)| *w == v) {
                Some(t) => t.0 += i128::from(c),
                None => merged.push((i128::from(c), v)),
            }
        }
        merged.retain(|t| t.0 != 0);
        let Some(terms) = merged
            .iter()
            .map(|&(c, v)| i64::try_from(c).ok().map(|c| (c, v)))
            .collect::<Option<Vec<(i64, VarId)>>>()
        else {
            return p.intension(&general(self));
        };
        let distinct: Vec<VarId> = terms.iter().map(|t| t.1).collect();
        let operand_var = self.condition.var();
        let scope_len = distinct.len() + usize::from(operand_var.is_some_and(|v| !distinct.contains(&v)));
        if scope_len <= 2 {
            // Unary and binary sums: through the expression path (tables, fast relations).
            let small = distinct
                .iter()
                .chain(operand_var.iter())
                .map(|&v| p.dom_len(v))
                .product::<u64>();
            if scope_len < 2 || small <= PAIR_TABLE_LIMIT {
                return p.intension(&general(self));
            }
        }
        let shift = |k: i64| i64::try_from(i128::from(k) - constant).ok();
        let outcome = match (&self.condition.operand, self.condition.op) {
            (Operand::Int(k), op) => shift(*k).map(|rhs| p.model.linear(&terms, cmp_of_condition(op), rhs)),
            (Operand::Var(y), op) => {
                let cmp = cmp_of_condition(op);
                if constant == 0 && !distinct.contains(y) {
                    Some(p.model.linear_var(&terms, cmp, *y))
                } else {
                    // sum + constant - y cmp 0; y's coefficient may leave 64 bits
                    // (-9223372036854775808 - 1): then the general path.
                    let mut t = terms.clone();
                    let fits = match t.iter_mut().find(|(_, w)| w == y) {
                        Some(e) => e.0.checked_sub(1).map(|c| e.0 = c).is_some(),
                        None => {
                            t.push((-1, *y));
                            true
                        }
                    };
                    i64::try_from(-constant)
                        .ok()
                        .filter(|_| fits)
                        .map(|rhs| p.model.linear(&t, cmp, rhs))
                }
            }
            (Operand::Range(lo, hi), op) => match (shift(*lo), shift(*hi)) {
                (Some(lo), Some(hi)) => Some(p.model.linear_range(&terms, lo, hi, op == CmpOp::In)),
                _ => None,
            },
            (Operand::Set(values), op) => {
                let shifted: Option<Vec<i64>> = values.iter().map(|&v| shift(v)).collect();
                shifted.map(|vs| p.model.linear_in(&terms, &vs, op == CmpOp::In))
            }
        };
        match outcome {
            Some(result) => result.map_err(|e| p.err(e)),
            // A bound beyond 64 bits: the exact general path.
            None => p.intension(&general(self)),
        }
    }
}

pub(crate) fn sum<'d, 'a>(r: &mut Reader<'d, 'a, '_>, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<()> {
    r.check_children(node, &["list", "coeffs", "condition"])?;
    let list_node = r.require(node, "list")?;
    let items = r.list(list_node, ctx)?;
    let coeffs = match r.child(node, "coeffs") {
        Some(c) => r.list(c, ctx)?,
        None => vec![Expr::Const(1); items.len()],
    };
    if coeffs.len() != items.len() {
        return Err(r.syntax(
            "",
            node,
            format!("{} coefficients for {} terms", coeffs.len(), items.len()),
        ));
    }
    let cond = r.require(node, "condition")?;
    let condition = r.condition(cond, ctx)?;
    r.push(
        node,
        Sum {
            terms: coeffs.into_iter().zip(items).collect(),
            condition,
        },
    )
}

/// `<count>`: the number of items that take one of `values` satisfies the condition.
#[derive(Debug)]
pub struct Count {
    /// The items.
    pub items: Vec<Expr>,
    /// The values counted (integers or variables).
    pub values: Vec<Expr>,
    /// The condition on the count.
    pub condition: Condition,
}

impl Constraint for Count {
    fn kind(&self) -> &'static str {
        "count"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.items
            .iter()
            .chain(&self.values)
            .for_each(|e| expr_vars(e, f));
        if let Some(v) = self.condition.var() {
            f(v);
        }
    }
    fn holds(&self, values: &[i32]) -> bool {
        let (Some(items), Some(counted)) = (values_of(&self.items, values), values_of(&self.values, values))
        else {
            return false;
        };
        let k = items.iter().filter(|x| counted.contains(x)).count();
        self.condition.holds(k as i128, values)
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let vars = p.vars_of(&self.items)?;
        let n = vars.len() as i64;
        let ints = integers(&self.values);
        match (ints, &self.values[..]) {
            (Some(ints), _) => {
                // A value past 32 bits is taken by no variable.
                let values: Vec<i32> = ints.iter().filter_map(|&k| i32::try_from(k).ok()).collect();
                // A constant condition needs no counter variable (the search would branch
                // on it).
                if let Some(allowed) = self.condition.allowed_within(0, n) {
                    return p
                        .model
                        .count_within(&vars, &values, &allowed)
                        .map_err(|e| p.err(e));
                }
                let counter = p.var_under(0, n, &self.condition)?;
                p.model.count(&vars, &values, counter).map_err(|e| p.err(e))
            }
            (None, [value]) => {
                let value = p.var_of(value)?;
                let counter = p.var_under(0, n, &self.condition)?;
                p.model.count_var(&vars, value, counter).map_err(|e| p.err(e))
            }
            (None, _) => {
                // Several values, some of them variables: a sum of truth values.
                let set: Vec<Expr> = self.values.clone();
                let terms: Vec<Expr> = self
                    .items
                    .iter()
                    .map(|x| {
                        let hits: Vec<Expr> = set
                            .iter()
                            .map(|v| Expr::Call(Op::Eq, vec![x.clone(), v.clone()]))
                            .chain([Expr::Const(0), Expr::Const(0)])
                            .collect();
                        Expr::Call(Op::Or, hits)
                    })
                    .chain([Expr::Const(0), Expr::Const(0)])
                    .collect();
                p.condition(Expr::Call(Op::Add, terms), &self.condition)
            }
        }
    }
}

pub(crate) fn count<'d, 'a>(r: &mut Reader<'d, 'a, '_>, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<()> {
    r.check_children(node, &["list", "values", "condition"])?;
    let l = r.require(node, "list")?;
    let items = r.list(l, ctx)?;
    let v = r.require(node, "values")?;
    let values = r.list(v, ctx)?;
    if values.is_empty() {
        return Err(r.syntax("", v, "<count> needs at least one value"));
    }
    let c = r.require(node, "condition")?;
    let condition = r.condition(c, ctx)?;
    r.push(
        node,
        Count {
            items,
            values,
            condition,
        },
    )
}

/// `<nValues>`: the number of distinct values the items take (values of `except` aside)
/// satisfies the condition.
#[derive(Debug)]
pub struct NValues {
    /// The items.
    pub items: Vec<Expr>,
    /// Values not counted.
    pub except: Vec<i64>,
    /// The condition on the number.
    pub condition: Condition,
}

impl Constraint for NValues {
    fn kind(&self) -> &'static str {
        "nValues"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.items.iter().for_each(|e| expr_vars(e, f));
        if let Some(v) = self.condition.var() {
            f(v);
        }
    }
    fn holds(&self, values: &[i32]) -> bool {
        let Some(mut v) = values_of(&self.items, values) else {
            return false;
        };
        v.retain(|x| !self.except.iter().any(|&e| i128::from(e) == *x));
        v.sort_unstable();
        v.dedup();
        self.condition.holds(v.len() as i128, values)
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let vars = p.vars_of(&self.items)?;
        let except: Vec<i32> = self
            .except
            .iter()
            .filter_map(|&v| i32::try_from(v).ok())
            .collect();
        let n = vars.len() as i64;
        // A constant bound (`(gt,1)`: not all equal) needs no counter variable, which the
        // search would branch on (a decision `count = 2` on three variables prunes little).
        if let Some(allowed) = self.condition.allowed_within(0, n) {
            return p
                .model
                .n_values_within(&vars, &except, &allowed)
                .map_err(|e| p.err(e));
        }
        let counter = p.var_under(0, n, &self.condition)?;
        p.model.n_values(&vars, &except, counter).map_err(|e| p.err(e))
    }
}

pub(crate) fn n_values<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list", "except", "condition"])?;
    let lists = r.children_named(node, "list");
    let [l] = lists[..] else {
        return Err(r.unsupported(node, "<nValues> over other than one list"));
    };
    let items = r.list(l, ctx)?;
    let except = match r.child(node, "except") {
        Some(e) => r.ints(e, ctx)?,
        None => Vec::new(),
    };
    let c = r.require(node, "condition")?;
    let condition = r.condition(c, ctx)?;
    r.push(
        node,
        NValues {
            items,
            except,
            condition,
        },
    )
}

/// An occurrence bound of `<cardinality>`: an integer, a variable, or an interval.
#[derive(Clone, Debug)]
pub enum Occurs {
    /// Exactly this number (an integer or a variable).
    Exactly(Expr),
    /// Within `lo..=hi`.
    Within(i64, i64),
}

/// `<cardinality>`: each value occurs among the items as often as its bound says;
/// `closed`: every item takes one of the values.
#[derive(Debug)]
pub struct Cardinality {
    /// The items.
    pub items: Vec<Expr>,
    /// The values (integers or variables).
    pub values: Vec<Expr>,
    /// One bound per value.
    pub occurs: Vec<Occurs>,
    /// Every item must take one of the values.
    pub closed: bool,
}

impl Cardinality {
    /// Posts the constraint as one `count` with constant bounds per value, when the values
    /// are distinct integers and every bound an interval: no occurrence variable is made
    /// (a search, above all one without inference, would branch on them). `false` when it
    /// takes the general form.
    fn post_within(&self, p: &mut Poster<'_, '_>, vars: &[VarId]) -> Result<bool> {
        let ints = integers(&self.values);
        let bounds: Option<Vec<(i64, i64)>> = self
            .occurs
            .iter()
            .map(|o| match o {
                Occurs::Within(lo, hi) => Some((*lo, *hi)),
                Occurs::Exactly(Expr::Const(k)) => Some((*k, *k)),
                Occurs::Exactly(_) => None,
            })
            .collect();
        let (Some(ints), Some(bounds)) = (ints, bounds) else {
            return Ok(false);
        };
        let mut distinct = ints.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() != ints.len() {
            return Ok(false);
        }
        if self.closed {
            for &x in vars {
                p.filter(x, |a| distinct.binary_search(&i64::from(a)).is_ok())?;
            }
        }
        for (&value, &(lo, hi)) in ints.iter().zip(&bounds) {
            // A value past 32 bits is taken by no variable: its count is 0.
            let values: Vec<i32> = i32::try_from(value).into_iter().collect();
            p.model
                .count_within(vars, &values, &[(lo, hi)])
                .map_err(|e| p.err(e))?;
        }
        Ok(true)
    }
}

impl Constraint for Cardinality {
    fn kind(&self) -> &'static str {
        "cardinality"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.items
            .iter()
            .chain(&self.values)
            .for_each(|e| expr_vars(e, f));
        for o in &self.occurs {
            if let Occurs::Exactly(e) = o {
                expr_vars(e, f);
            }
        }
    }
    fn holds(&self, values: &[i32]) -> bool {
        let (Some(items), Some(vals)) = (values_of(&self.items, values), values_of(&self.values, values))
        else {
            return false;
        };
        let counts_hold = vals.iter().zip(&self.occurs).all(|(v, o)| {
            let k = items.iter().filter(|x| *x == v).count() as i128;
            match o {
                Occurs::Exactly(e) => value(e, values) == Some(k),
                Occurs::Within(lo, hi) => i128::from(*lo) <= k && k <= i128::from(*hi),
            }
        });
        counts_hold && (!self.closed || items.iter().all(|x| vals.contains(x)))
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let vars = p.vars_of(&self.items)?;
        let n = vars.len() as i64;
        if self.post_within(p, &vars)? {
            return Ok(());
        }
        let mut occurs = Vec::with_capacity(self.occurs.len());
        for o in &self.occurs {
            occurs.push(match o {
                Occurs::Exactly(e) => p.var_of(e)?,
                Occurs::Within(lo, hi) => {
                    // A count lies within 0..=n.
                    let (lo, hi) = ((*lo).max(0), (*hi).min(n));
                    if lo > hi {
                        return p.fail();
                    }
                    p.new_var(lo, hi)?
                }
            });
        }
        let ints: Option<Vec<i32>> = self
            .values
            .iter()
            .map(|e| match e {
                Expr::Const(k) => i32::try_from(*k).ok(),
                _ => None,
            })
            .collect();
        if let Some(values) = ints {
            let mut distinct = values.clone();
            distinct.sort_unstable();
            distinct.dedup();
            if distinct.len() == values.len() {
                return p
                    .model
                    .cardinality(&vars, &values, &occurs, self.closed)
                    .map_err(|e| p.err(e));
            }
        }
        // Values given as variables (or repeated): one count per value.
        for (v, &o) in self.values.iter().zip(&occurs) {
            let value = p.var_of(v)?;
            p.model.count_var(&vars, value, o).map_err(|e| p.err(e))?;
        }
        if self.closed {
            for x in &self.items {
                let any: Vec<Expr> = self
                    .values
                    .iter()
                    .map(|v| Expr::Call(Op::Eq, vec![x.clone(), v.clone()]))
                    .chain([Expr::Const(0), Expr::Const(0)])
                    .collect();
                p.intension(&Expr::Call(Op::Or, any))?;
            }
        }
        Ok(())
    }
}

pub(crate) fn cardinality<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list", "values", "occurs"])?;
    let l = r.require(node, "list")?;
    let items = r.list(l, ctx)?;
    let v = r.require(node, "values")?;
    let closed = match v.attribute("closed") {
        None | Some("false") => false,
        Some("true") => true,
        Some(x) => return Err(r.syntax("", v, format!("closed=\"{x}\""))),
    };
    let values = r.list(v, ctx)?;
    let o = r.require(node, "occurs")?;
    let text = r.content(o)?;
    let mut occurs = Vec::new();
    for t in tokens(text) {
        match t.split_once("..").filter(|_| !t.starts_with('%')) {
            Some((a, b)) => {
                let (lo, hi) = (r.int(a, o)?, r.int(b, o)?);
                if lo > hi {
                    return Err(r.syntax(t, o, format!("the interval `{t}` is empty")));
                }
                occurs.push(Occurs::Within(lo, hi));
            }
            None => {
                let mut out = Vec::new();
                r.item(t, o, ctx, &mut out)?;
                occurs.extend(out.into_iter().map(Occurs::Exactly));
            }
        }
    }
    if occurs.len() != values.len() {
        return Err(r.syntax(
            "",
            o,
            format!("{} occurrence bounds for {} values", occurs.len(), values.len()),
        ));
    }
    r.push(
        node,
        Cardinality {
            items,
            values,
            occurs,
            closed,
        },
    )
}

/// The integers of a list, if every item is one.
fn integers(items: &[Expr]) -> Option<Vec<i64>> {
    items
        .iter()
        .map(|e| match e {
            Expr::Const(k) => Some(*k),
            _ => None,
        })
        .collect()
}
