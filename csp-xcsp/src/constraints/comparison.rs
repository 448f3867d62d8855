//! Comparison constraints: `allDifferent` (over a list, several lists, a matrix, with
//! `except`), `allEqual`, `ordered` (with `lengths`), `lex` (lists and `<matrix>`) and
//! `precedence`.

use std::cmp::Ordering;

use csp_core::{Expr, IntOrVar, Order, VarId};

use crate::error::Result;
use crate::ir::{Constraint, Op, expr_vars, values_of};
use crate::post::Poster;
use crate::read::Reader;
use crate::read::lists::Ctx;
use crate::xml::Node;

/// `<allDifferent>`: the items take distinct values, except values of `except`, which may
/// repeat.
#[derive(Debug)]
pub struct AllDifferent {
    /// The items (variables or expressions).
    pub items: Vec<Expr>,
    /// Values that may repeat.
    pub except: Vec<i64>,
}

impl Constraint for AllDifferent {
    fn kind(&self) -> &'static str {
        "allDifferent"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.items.iter().for_each(|e| expr_vars(e, f));
    }
    fn holds(&self, values: &[i32]) -> bool {
        let Some(vals) = values_of(&self.items, values) else {
            return false;
        };
        let except = |v: i128| self.except.iter().any(|&k| i128::from(k) == v);
        (0..vals.len()).all(|i| (i + 1..vals.len()).all(|j| vals[i] != vals[j] || except(vals[i])))
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let items = &self.items;
        if items.len() < 2 {
            return Ok(());
        }
        if self.except.is_empty() {
            // Variables plus constants (`add(q[i],i)`): one all-different over views.
            let views: Option<Vec<(VarId, i64)>> = items.iter().map(view).collect();
            if let Some(views) = views {
                let vars: Vec<VarId> = views.iter().map(|v| v.0).collect();
                let offsets: Option<Vec<i32>> = views.iter().map(|v| i32::try_from(v.1).ok()).collect();
                let mut sorted = vars.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if let (Some(offsets), true) = (offsets, sorted.len() == vars.len()) {
                    return p
                        .model
                        .all_different_offsets(&vars, &offsets, p.options.all_different)
                        .map_err(|err| p.err(err));
                }
            }
        }
        let set = Expr::Call(Op::Set, self.except.iter().map(|&v| Expr::Const(v)).collect());
        for i in 0..items.len() {
            for j in i + 1..items.len() {
                let ne = Expr::Call(Op::Ne, vec![items[i].clone(), items[j].clone()]);
                let e = if self.except.is_empty() {
                    ne
                } else {
                    Expr::Call(
                        Op::Or,
                        vec![ne, Expr::Call(Op::In, vec![items[i].clone(), set.clone()])],
                    )
                };
                p.intension(&e)?;
            }
        }
        Ok(())
    }
}

/// The single variable plus an offset an expression is, if it is one: `x`, `add(x,c)`,
/// `add(c,x)`, `sub(x,c)`.
fn view(e: &Expr) -> Option<(VarId, i64)> {
    match e {
        Expr::Var(v) => Some((*v, 0)),
        Expr::Call(Op::Add, a) if a.len() == 2 => match (&a[0], &a[1]) {
            (Expr::Var(v), Expr::Const(c)) | (Expr::Const(c), Expr::Var(v)) => Some((*v, *c)),
            _ => None,
        },
        Expr::Call(Op::Sub, a) => match (&a[0], &a[1]) {
            (Expr::Var(v), Expr::Const(c)) => Some((*v, c.checked_neg()?)),
            _ => None,
        },
        _ => None,
    }
}

/// `<allDifferent>` over several lists: the lists are distinct tuples, except tuples of
/// `except`.
#[derive(Debug)]
pub struct AllDifferentLists {
    /// The lists, of one length.
    pub lists: Vec<Vec<Expr>>,
    /// Tuples that may repeat.
    pub except: Vec<Vec<i64>>,
}

impl Constraint for AllDifferentLists {
    fn kind(&self) -> &'static str {
        "allDifferent"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.lists.iter().flatten().for_each(|e| expr_vars(e, f));
    }
    fn holds(&self, values: &[i32]) -> bool {
        let Some(vals) = self
            .lists
            .iter()
            .map(|l| values_of(l, values))
            .collect::<Option<Vec<_>>>()
        else {
            return false;
        };
        let except = |t: &[i128]| {
            self.except
                .iter()
                .any(|e| e.len() == t.len() && e.iter().zip(t).all(|(&a, &b)| i128::from(a) == b))
        };
        (0..vals.len()).all(|i| (i + 1..vals.len()).all(|j| vals[i] != vals[j] || except(&vals[i])))
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let lists = &self.lists;
        if self.except.is_empty() {
            let vars = lists.iter().map(|l| p.vars_of(l)).collect::<Result<Vec<_>>>()?;
            return p.model.all_different_lists(&vars).map_err(|e| p.err(e));
        }
        for i in 0..lists.len() {
            for j in i + 1..lists.len() {
                let mut any: Vec<Expr> = lists[i]
                    .iter()
                    .zip(&lists[j])
                    .map(|(a, b)| Expr::Call(Op::Ne, vec![a.clone(), b.clone()]))
                    .collect();
                for t in &self.except {
                    let same: Vec<Expr> = lists[i]
                        .iter()
                        .zip(t)
                        .map(|(a, &k)| Expr::Call(Op::Eq, vec![a.clone(), Expr::Const(k)]))
                        .collect();
                    any.push(Expr::Call(
                        Op::And,
                        same.into_iter().chain([Expr::Const(1)]).collect(),
                    ));
                }
                any.push(Expr::Const(0));
                p.intension(&Expr::Call(Op::Or, any))?;
            }
        }
        Ok(())
    }
}

pub(crate) fn all_different<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list", "matrix", "except"])?;
    let lists = r.children_named(node, "list");
    let matrix = r.child(node, "matrix");
    let except_node = r.child(node, "except");
    let several = lists.len() > 1;
    // With several lists, `except` holds tuples `(0,0)(1,1)`; otherwise integers.
    let mut except = Vec::new();
    let mut except_tuples = Vec::new();
    if let Some(e) = except_node {
        let text = r.content(e)?;
        if several {
            for row in text.split(')').map(str::trim).filter(|s| !s.is_empty()) {
                let Some(body) = row.strip_prefix('(') else {
                    return Err(r.syntax(row, e, "expected `(` to open a tuple"));
                };
                let mut tuple = Vec::new();
                for tok in body.split(',') {
                    tuple.push(r.int(tok.trim(), e)?);
                }
                except_tuples.push(tuple);
            }
        } else {
            except = r.ints(e, ctx)?;
        }
    }
    if let Some(m) = matrix {
        if !lists.is_empty() {
            return Err(r.syntax("", node, "<allDifferent> with both <list> and <matrix>"));
        }
        let rows = r.matrix(m, ctx)?;
        let ncols = rows.first().map_or(0, Vec::len);
        for row in &rows {
            r.push(
                node,
                AllDifferent {
                    items: row.clone(),
                    except: except.clone(),
                },
            )?;
        }
        for j in 0..ncols {
            let items = rows.iter().map(|row| row[j].clone()).collect();
            r.push(
                node,
                AllDifferent {
                    items,
                    except: except.clone(),
                },
            )?;
        }
        return Ok(());
    }
    match lists[..] {
        [] => {
            let items = r.list(node, ctx)?;
            r.push(node, AllDifferent { items, except })
        }
        [l] => {
            let items = r.list(l, ctx)?;
            r.push(node, AllDifferent { items, except })
        }
        _ => {
            let mut ls = Vec::new();
            for l in &lists {
                ls.push(r.list(*l, ctx)?);
            }
            if ls.iter().any(|l| l.len() != ls[0].len()) {
                return Err(r.syntax("", node, "lists of different lengths in <allDifferent>"));
            }
            if except_tuples.iter().any(|t| t.len() != ls[0].len()) {
                return Err(r.syntax("", node, "an <except> tuple of another length than the lists"));
            }
            r.push(
                node,
                AllDifferentLists {
                    lists: ls,
                    except: except_tuples,
                },
            )
        }
    }
}

/// `<allEqual>`: the items take one value.
#[derive(Debug)]
pub struct AllEqual {
    /// The items.
    pub items: Vec<Expr>,
}

impl Constraint for AllEqual {
    fn kind(&self) -> &'static str {
        "allEqual"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.items.iter().for_each(|e| expr_vars(e, f));
    }
    fn holds(&self, values: &[i32]) -> bool {
        values_of(&self.items, values).is_some_and(|v| v.windows(2).all(|w| w[0] == w[1]))
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let vars = p.vars_of(&self.items)?;
        p.model.all_equal(&vars).map_err(|e| p.err(e))
    }
}

pub(crate) fn all_equal<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list"])?;
    let items = match r.children_named(node, "list")[..] {
        [] => r.list(node, ctx)?,
        [l] => r.list(l, ctx)?,
        _ => return Err(r.unsupported(node, "<allEqual> over several lists")),
    };
    r.push(node, AllEqual { items })
}

/// The operator of `<ordered>` and `<lex>`.
pub(crate) fn order(r: &mut Reader<'_, '_, '_>, node: Node) -> Result<Order> {
    let text = r.content(node)?.trim();
    Ok(match text {
        "lt" => Order::Lt,
        "le" => Order::Le,
        "ge" => Order::Ge,
        "gt" => Order::Gt,
        _ => return Err(r.syntax(text, node, format!("expected lt, le, ge or gt, found `{text}`"))),
    })
}

/// Whether `a order b` holds.
fn ordered_pair(a: Ordering, order: Order) -> bool {
    match order {
        Order::Lt => a == Ordering::Less,
        Order::Le => a != Ordering::Greater,
        Order::Ge => a != Ordering::Less,
        Order::Gt => a == Ordering::Greater,
    }
}

/// `<ordered>`: `items[i] + lengths[i] order items[i + 1]`.
#[derive(Debug)]
pub struct Ordered {
    /// The items.
    pub items: Vec<Expr>,
    /// One length per consecutive pair (none: 0).
    pub lengths: Option<Vec<Expr>>,
    /// The operator.
    pub order: Order,
}

impl Constraint for Ordered {
    fn kind(&self) -> &'static str {
        "ordered"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.items
            .iter()
            .chain(self.lengths.iter().flatten())
            .for_each(|e| expr_vars(e, f));
    }
    fn holds(&self, values: &[i32]) -> bool {
        let Some(v) = values_of(&self.items, values) else {
            return false;
        };
        let lengths = match &self.lengths {
            Some(l) => match values_of(l, values) {
                Some(l) => l,
                None => return false,
            },
            None => vec![0; v.len().saturating_sub(1)],
        };
        (0..v.len().saturating_sub(1)).all(|i| ordered_pair((v[i] + lengths[i]).cmp(&v[i + 1]), self.order))
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        if self.items.len() < 2 {
            return Ok(());
        }
        let vars = p.vars_of(&self.items)?;
        let lengths = match &self.lengths {
            Some(l) => Some(int_or_vars(p, l)?),
            None => None,
        };
        p.model
            .ordered(&vars, lengths.as_deref(), self.order)
            .map_err(|e| p.err(e))
    }
}

/// Integers and variables as csp-core takes them (an expression through a variable).
pub(crate) fn int_or_vars(p: &mut Poster<'_, '_>, items: &[Expr]) -> Result<Vec<IntOrVar>> {
    items
        .iter()
        .map(|e| match e {
            Expr::Const(k) => Ok(IntOrVar::Int(*k)),
            other => p.var_of(other).map(IntOrVar::Var),
        })
        .collect()
}

pub(crate) fn ordered<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list", "lengths", "operator"])?;
    let l = r.require(node, "list")?;
    let items = r.list(l, ctx)?;
    let lengths = match r.child(node, "lengths") {
        Some(n) => {
            let lengths = r.list(n, ctx)?;
            if lengths.len() + 1 != items.len() {
                return Err(r.syntax(
                    "",
                    n,
                    format!("{} lengths for {} items", lengths.len(), items.len()),
                ));
            }
            Some(lengths)
        }
        None => None,
    };
    let op = r.require(node, "operator")?;
    let order = order(r, op)?;
    r.push(
        node,
        Ordered {
            items,
            lengths,
            order,
        },
    )
}

/// `<lex>`: each list is lexicographically `order` the next.
#[derive(Debug)]
pub struct Lex {
    /// The lists, of one length.
    pub lists: Vec<Vec<Expr>>,
    /// The operator.
    pub order: Order,
}

impl Constraint for Lex {
    fn kind(&self) -> &'static str {
        "lex"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.lists.iter().flatten().for_each(|e| expr_vars(e, f));
    }
    fn holds(&self, values: &[i32]) -> bool {
        let Some(v) = self
            .lists
            .iter()
            .map(|l| values_of(l, values))
            .collect::<Option<Vec<_>>>()
        else {
            return false;
        };
        v.windows(2).all(|w| ordered_pair(w[0].cmp(&w[1]), self.order))
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let vars = self
            .lists
            .iter()
            .map(|l| p.vars_of(l))
            .collect::<Result<Vec<_>>>()?;
        p.model.lex(&vars, self.order).map_err(|e| p.err(e))
    }
}

pub(crate) fn lex<'d, 'a>(r: &mut Reader<'d, 'a, '_>, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<()> {
    r.check_children(node, &["list", "matrix", "operator"])?;
    let op = r.require(node, "operator")?;
    let order = order(r, op)?;
    if let Some(m) = r.child(node, "matrix") {
        // Rows ordered, and columns ordered.
        let rows = r.matrix(m, ctx)?;
        let width = rows.first().map_or(0, Vec::len);
        let columns: Vec<Vec<Expr>> = (0..width)
            .map(|j| rows.iter().map(|row| row[j].clone()).collect())
            .collect();
        r.push(node, Lex { lists: rows, order })?;
        return r.push(
            node,
            Lex {
                lists: columns,
                order,
            },
        );
    }
    let mut lists = Vec::new();
    for l in r.children_named(node, "list") {
        lists.push(r.list(l, ctx)?);
    }
    if lists.iter().any(|l| l.len() != lists[0].len()) {
        return Err(r.syntax("", node, "lists of different lengths in <lex>"));
    }
    r.push(node, Lex { lists, order })
}

/// `<precedence>`: for consecutive values `v`, `w` of `values`, a `w` in the list comes
/// after a `v`; `covered`: every value is taken.
#[derive(Debug)]
pub struct Precedence {
    /// The list.
    pub items: Vec<Expr>,
    /// The values, in their order of precedence (when the file gives none: the values of
    /// the items' domains, increasing).
    pub values: Vec<i64>,
    /// Every value must be taken.
    pub covered: bool,
}

impl Constraint for Precedence {
    fn kind(&self) -> &'static str {
        "precedence"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.items.iter().for_each(|e| expr_vars(e, f));
    }
    fn holds(&self, values: &[i32]) -> bool {
        let Some(v) = values_of(&self.items, values) else {
            return false;
        };
        let first = |k: i64| v.iter().position(|&x| x == i128::from(k));
        for pair in self.values.windows(2) {
            if let Some(later) = first(pair[1]) {
                if first(pair[0]).is_none_or(|earlier| earlier > later) {
                    return false;
                }
            }
        }
        !self.covered || self.values.iter().all(|&k| first(k).is_some())
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let vars = p.vars_of(&self.items)?;
        let values: Vec<i32> = self
            .values
            .iter()
            .filter_map(|&v| i32::try_from(v).ok())
            .collect();
        if values.len() < self.values.len() && self.covered {
            // A value past 32 bits cannot be taken.
            return p.fail();
        }
        p.model
            .precedence(&vars, &values, self.covered)
            .map_err(|e| p.err(e))
    }
}

pub(crate) fn precedence<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list", "values"])?;
    let items = match r.child(node, "list") {
        Some(l) => r.list(l, ctx)?,
        None => r.list(node, ctx)?,
    };
    let (values, covered) = match r.child(node, "values") {
        Some(v) => {
            let covered = match v.attribute("covered") {
                None | Some("false") => false,
                Some("true") => true,
                Some(x) => return Err(r.syntax("", v, format!("covered=\"{x}\""))),
            };
            (r.ints(v, ctx)?, covered)
        }
        None => {
            // Variables declared together share a domain: each run of one is listed once
            // (thousands of variables over thousands of values would be millions of steps).
            let mut all = std::collections::BTreeSet::new();
            let mut last = None;
            for e in &items {
                if let Expr::Var(v) = e {
                    let domain = r.model.domain(*v);
                    if last != Some(domain) {
                        r.budget.steps(domain.len())?;
                        all.extend(domain.values().map(i64::from));
                        last = Some(domain);
                    }
                }
            }
            (all.into_iter().collect(), false)
        }
    };
    let mut distinct = values.clone();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() != values.len() {
        return Err(r.syntax("", node, "the values of <precedence> repeat"));
    }
    r.push(
        node,
        Precedence {
            items,
            values,
            covered,
        },
    )
}
