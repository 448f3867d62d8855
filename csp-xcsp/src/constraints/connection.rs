//! Connection constraints: `minimum` and `maximum` (with `index`), `element` (on a list or a
//! matrix) and `channel` (one list, two lists, a list and a value).

use csp_core::{Domain, Expr, VarId};

use crate::error::Result;
use crate::ir::{CmpOp, Condition, Constraint, Op, Operand, expr_vars, value, values_of};
use crate::post::Poster;
use crate::read::Reader;
use crate::read::lists::Ctx;
use crate::xml::Node;

/// `<element>`: `list[index - start] op operand`; without an index, some item satisfies the
/// condition.
#[derive(Debug)]
pub struct Element {
    /// The list.
    pub list: Vec<Expr>,
    /// The index (absent: the member form).
    pub index: Option<Expr>,
    /// The number of the first item.
    pub start: i64,
    /// The condition on the selected item.
    pub condition: Condition,
}

impl Constraint for Element {
    fn kind(&self) -> &'static str {
        "element"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.list.iter().for_each(|e| expr_vars(e, f));
        if let Some(i) = &self.index {
            expr_vars(i, f);
        }
        if let Some(v) = self.condition.var() {
            f(v);
        }
    }
    fn holds(&self, values: &[i32]) -> bool {
        let holds = |e: &Expr| value(e, values).is_some_and(|v| self.condition.holds(v, values));
        match &self.index {
            Some(index) => {
                let Some(i) = value(index, values) else {
                    return false;
                };
                let item = usize::try_from(i - i128::from(self.start))
                    .ok()
                    .and_then(|k| self.list.get(k));
                item.is_some_and(holds)
            }
            None => self.list.iter().any(holds),
        }
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let (list, start, condition) = (&self.list, self.start, &self.condition);
        match &self.index {
            None => {
                let any: Vec<Expr> = list
                    .iter()
                    .map(|e| condition.applied_to(e.clone()))
                    .chain([Expr::Const(0), Expr::Const(0)])
                    .collect();
                p.intension(&Expr::Call(Op::Or, any))
            }
            Some(Expr::Const(i)) => {
                match i128::from(*i)
                    .checked_sub(i128::from(start))
                    .and_then(|k| usize::try_from(k).ok())
                    .and_then(|k| list.get(k))
                {
                    Some(item) => p.condition(item.clone(), condition),
                    None => p.fail(),
                }
            }
            Some(index) => {
                let index = p.var_of(index)?;
                let items: Vec<Expr> = list
                    .iter()
                    .map(|e| match e {
                        Expr::Var(_) | Expr::Const(_) => Ok(e.clone()),
                        other => p.var_of(other).map(Expr::Var),
                    })
                    .collect::<Result<_>>()?;
                // `(eq, v)` is the element constraint itself; another condition bears on
                // the selected item, seen through a variable.
                let (value, rest) = match (condition.op, &condition.operand) {
                    (CmpOp::Eq, Operand::Int(k)) => (Expr::Const(*k), None),
                    (CmpOp::Eq, Operand::Var(v)) => (Expr::Var(*v), None),
                    _ => match selected_var(p, &items)? {
                        Some(v) => (Expr::Var(v), Some(condition)),
                        // An item no variable can hold with the others (past 32 bits, or
                        // too far from them): the disjunction over the positions.
                        None => return p.intension(&positions(index, &items, start, condition)),
                    },
                };
                p.model
                    .element(&items, index, start, value.clone())
                    .map_err(|e| p.err(e))?;
                match rest {
                    Some(c) => p.condition(value, c),
                    None => Ok(()),
                }
            }
        }
    }
}

/// A variable over every value the items can take: the one an index selects; `None` when
/// no domain holds them (an integer past 32 bits, or values too far apart).
fn selected_var(p: &mut Poster<'_, '_>, items: &[Expr]) -> Result<Option<VarId>> {
    let mut values = std::collections::BTreeSet::new();
    for e in items {
        match e {
            Expr::Const(k) => match i32::try_from(*k) {
                Ok(k) => values.insert(k),
                Err(_) => return Ok(None),
            },
            Expr::Var(v) => {
                values.extend(p.model.domain(*v).values());
                true
            }
            other => unreachable!("items are variables and integers: {other}"),
        };
    }
    if values.is_empty() {
        p.fail()?;
        values.insert(0);
    }
    if Domain::from_values(values.clone()).is_err() {
        return Ok(None);
    }
    p.var_over(values).map(Some)
}

/// `list[index - start] cond` as one expression: some position is the index's and its
/// item satisfies the condition.
fn positions(index: VarId, items: &[Expr], start: i64, condition: &Condition) -> Expr {
    let any = items
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            // A position past 64 bits is no 32-bit index's.
            let at = i64::try_from(i128::from(start) + i as i128).ok()?;
            Some(Expr::Call(
                Op::And,
                vec![
                    Expr::Call(Op::Eq, vec![Expr::Var(index), Expr::Const(at)]),
                    condition.applied_to(e.clone()),
                ],
            ))
        })
        .chain([Expr::Const(0), Expr::Const(0)])
        .collect();
    Expr::Call(Op::Or, any)
}

pub(crate) fn element<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list", "matrix", "index", "value", "condition"])?;
    if r.child(node, "matrix").is_some() {
        return element_matrix(r, node, ctx);
    }
    let l = r.require(node, "list")?;
    let list = r.list(l, ctx)?;
    let start = r.attr_int(l, "startIndex", 0)?;
    let index = match r.child(node, "index") {
        None => None,
        Some(i) => {
            if let Some(rank) = i.attribute("rank") {
                if rank != "any" {
                    return Err(r.unsupported(i, format!("rank=\"{rank}\" on <index>")));
                }
            }
            match r.list(i, ctx)?.as_slice() {
                [e @ (Expr::Var(_) | Expr::Const(_))] => Some(e.clone()),
                _ => return Err(r.syntax("", i, "<index> must be one variable")),
            }
        }
    };
    let condition = value_or_condition(r, node, ctx)?;
    r.push(
        node,
        Element {
            list,
            index,
            start,
            condition,
        },
    )
}

/// The `<value>` (as `(eq, value)`) or `<condition>` of an `<element>`.
fn value_or_condition<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<Condition> {
    match (r.child(node, "value"), r.child(node, "condition")) {
        (Some(v), None) => {
            let operand = match r.list(v, ctx)?.as_slice() {
                [Expr::Var(x)] => Operand::Var(*x),
                [Expr::Const(k)] => Operand::Int(*k),
                _ => return Err(r.syntax("", v, "<value> must be one variable or integer")),
            };
            Ok(Condition {
                op: CmpOp::Eq,
                operand,
            })
        }
        (None, Some(c)) => r.condition(c, ctx),
        _ => Err(r.syntax("", node, "<element> needs one <value> or <condition>")),
    }
}

/// `<element>` on a matrix: `matrix[row - start_row][col - start_col] op operand`.
#[derive(Debug)]
pub struct ElementMatrix {
    /// The rows, of one length.
    pub rows: Vec<Vec<Expr>>,
    /// The row index and the column index.
    pub index: (Expr, Expr),
    /// The numbers of the first row and column.
    pub start: (i64, i64),
    /// The condition on the selected item.
    pub condition: Condition,
}

impl Constraint for ElementMatrix {
    fn kind(&self) -> &'static str {
        "element"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.rows.iter().flatten().for_each(|e| expr_vars(e, f));
        expr_vars(&self.index.0, f);
        expr_vars(&self.index.1, f);
        if let Some(v) = self.condition.var() {
            f(v);
        }
    }
    fn holds(&self, values: &[i32]) -> bool {
        let (Some(i), Some(j)) = (value(&self.index.0, values), value(&self.index.1, values)) else {
            return false;
        };
        let at = |x: i128, start: i64| usize::try_from(x - i128::from(start)).ok();
        let item = at(i, self.start.0)
            .and_then(|i| self.rows.get(i))
            .and_then(|row| at(j, self.start.1).and_then(|j| row.get(j)));
        item.and_then(|e| value(e, values))
            .is_some_and(|v| self.condition.holds(v, values))
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let (nrows, ncols) = (
            self.rows.len() as i64,
            self.rows.first().map_or(0, Vec::len) as i64,
        );
        let (row, col) = (&self.index.0, &self.index.1);
        let (sr, sc) = self.start;
        let within = |e: &Expr, start: i64, n: i64| {
            Expr::Call(
                Op::And,
                vec![
                    Expr::Call(Op::Ge, vec![e.clone(), Expr::Const(start)]),
                    Expr::Call(Op::Lt, vec![e.clone(), Expr::Const(start.saturating_add(n))]),
                ],
            )
        };
        // Indices out of the matrix select nothing (and must not alias another row).
        p.intension(&within(row, sr, nrows))?;
        p.intension(&within(col, sc, ncols))?;
        let flat_index = Expr::Call(
            Op::Add,
            vec![
                Expr::Call(
                    Op::Mul,
                    vec![
                        Expr::Call(Op::Sub, vec![row.clone(), Expr::Const(sr)]),
                        Expr::Const(ncols),
                    ],
                ),
                Expr::Call(Op::Sub, vec![col.clone(), Expr::Const(sc)]),
            ],
        );
        let flat = Element {
            list: self.rows.iter().flatten().cloned().collect(),
            index: Some(flat_index),
            start: 0,
            condition: self.condition.clone(),
        };
        flat.post(p)
    }
}

fn element_matrix<'d, 'a>(r: &mut Reader<'d, 'a, '_>, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<()> {
    let m = r.require(node, "matrix")?;
    let rows = r.matrix(m, ctx)?;
    let start = (
        r.attr_int(m, "startRowIndex", 0)?,
        r.attr_int(m, "startColIndex", 0)?,
    );
    let i = r.require(node, "index")?;
    let index = match <[Expr; 2]>::try_from(r.list(i, ctx)?) {
        Ok([a, b]) => (a, b),
        Err(_) => return Err(r.syntax("", i, "<index> of a matrix must give a row and a column")),
    };
    let condition = value_or_condition(r, node, ctx)?;
    r.push(
        node,
        ElementMatrix {
            rows,
            index,
            start,
            condition,
        },
    )
}

/// How `<minimum>`/`<maximum>` with `<index>` picks among equal extrema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rank {
    /// Any position holding the extremum.
    Any,
    /// The first one.
    First,
    /// The last one.
    Last,
}

/// `<minimum>` / `<maximum>`: the least (greatest) item satisfies the condition; with an
/// index, `index - start` is a position that holds it.
#[derive(Debug)]
pub struct Extremum {
    /// `maximum` (else `minimum`).
    pub maximum: bool,
    /// The items.
    pub items: Vec<Expr>,
    /// The index, the number of the first item, and which position.
    pub index: Option<(Expr, i64, Rank)>,
    /// The condition on the extremum.
    pub condition: Option<Condition>,
}

impl Constraint for Extremum {
    fn kind(&self) -> &'static str {
        if self.maximum { "maximum" } else { "minimum" }
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.items.iter().for_each(|e| expr_vars(e, f));
        if let Some((i, _, _)) = &self.index {
            expr_vars(i, f);
        }
        if let Some(v) = self.condition.as_ref().and_then(Condition::var) {
            f(v);
        }
    }
    fn holds(&self, values: &[i32]) -> bool {
        let Some(v) = values_of(&self.items, values) else {
            return false;
        };
        let best = if self.maximum {
            v.iter().max()
        } else {
            v.iter().min()
        };
        let Some(&best) = best else { return false };
        if let Some((index, start, rank)) = &self.index {
            let Some(i) = value(index, values) else {
                return false;
            };
            let Some(k) = usize::try_from(i - i128::from(*start))
                .ok()
                .filter(|&k| k < v.len())
            else {
                return false;
            };
            let first = v.iter().position(|&x| x == best);
            let last = v.iter().rposition(|&x| x == best);
            let ok = match rank {
                Rank::Any => v[k] == best,
                Rank::First => first == Some(k),
                Rank::Last => last == Some(k),
            };
            if !ok {
                return false;
            }
        }
        self.condition.as_ref().is_none_or(|c| c.holds(best, values))
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let vars = p.vars_of(&self.items)?;
        if vars.is_empty() {
            return p.fail();
        }
        let lo = vars.iter().map(|&v| p.bounds_of(v).0).min().expect("not empty");
        let hi = vars.iter().map(|&v| p.bounds_of(v).1).max().expect("not empty");
        if self.index.is_none() {
            // Without an index a constant condition bounds the extremum inside the
            // propagator, and no condition leaves nothing to post: no result variable,
            // which a search would branch on.
            let Some(c) = &self.condition else {
                return Ok(());
            };
            if let Some(allowed) = c.allowed_within(lo, hi) {
                let posted = if self.maximum {
                    p.model.maximum_within(&vars, &allowed)
                } else {
                    p.model.minimum_within(&vars, &allowed)
                };
                return posted.map_err(|e| p.err(e));
            }
        }
        let spanned = i32::try_from(lo)
            .ok()
            .zip(i32::try_from(hi).ok())
            .is_some_and(|(lo, hi)| Domain::range(lo, hi).is_ok());
        if !spanned {
            // Items too far apart for a result variable over lo..hi: the condition on
            // `min(...)` (`max(...)`) as an expression, and the index by expressions too.
            let op = if self.maximum { Op::Max } else { Op::Min };
            let extremum = Expr::Call(op, vars.iter().map(|&v| Expr::Var(v)).collect());
            if let Some(c) = &self.condition {
                p.condition(extremum.clone(), c)?;
            }
            return match &self.index {
                Some((index, start, rank)) => self.post_index(p, &vars, index, *start, *rank, extremum),
                None => Ok(()),
            };
        }
        // The extremum is one of the items' values: a result over those alone, when they are
        // few, instead of every value between (items 0..1 and -30,000,000 made a result of
        // 30 million values, each counted as a legal value without inference).
        let few = vars.iter().map(|&v| p.dom_len(v)).sum::<u64>() <= 1 << 16;
        let taken = |p: &Poster<'_, '_>| vars.iter().flat_map(|&v| p.model.domain(v).values()).collect();
        let result = match (&self.condition, few) {
            (Some(c), true) => p.var_over_under(taken(p), c)?,
            (None, true) => p.var_over(taken(p))?,
            (Some(c), false) => p.var_under(lo, hi, c)?,
            (None, false) => p.new_var(lo, hi)?,
        };
        if self.maximum {
            p.model.maximum(&vars, result).map_err(|e| p.err(e))?;
        } else {
            p.model.minimum(&vars, result).map_err(|e| p.err(e))?;
        }
        match &self.index {
            Some((index, start, rank)) => self.post_index(p, &vars, index, *start, *rank, Expr::Var(result)),
            None => Ok(()),
        }
    }
}

impl Extremum {
    /// Posts that the item at `index` holds the extremum (an expression or the result
    /// variable): the first or the last such item as `rank` says.
    fn post_index(
        &self,
        p: &mut Poster<'_, '_>,
        vars: &[VarId],
        index: &Expr,
        start: i64,
        rank: Rank,
        extremum: Expr,
    ) -> Result<()> {
        let index = p.var_of(index)?;
        if let Expr::Var(result) = extremum {
            let list: Vec<Expr> = vars.iter().map(|&v| Expr::Var(v)).collect();
            p.model
                .element(&list, index, start, Expr::Var(result))
                .map_err(|e| p.err(e))?;
        } else {
            // The item at the index equals the extremum, and the index is one of the items'.
            let mut positions = Vec::with_capacity(vars.len());
            for (j, &v) in vars.iter().enumerate() {
                let at = Expr::Const(start.saturating_add(j as i64));
                positions.push(Expr::Call(Op::Eq, vec![at.clone(), Expr::Var(index)]));
                p.intension(&Expr::Call(
                    Op::Imp,
                    vec![
                        Expr::Call(Op::Eq, vec![at, Expr::Var(index)]),
                        Expr::Call(Op::Eq, vec![Expr::Var(v), extremum.clone()]),
                    ],
                ))?;
            }
            positions.extend([Expr::Const(0), Expr::Const(0)]);
            p.intension(&Expr::Call(Op::Or, positions))?;
        }
        // First: no earlier position holds the extremum; last: no later one.
        let before = match rank {
            Rank::Any => return Ok(()),
            Rank::First => Op::Lt,
            Rank::Last => Op::Gt,
        };
        for (j, &v) in vars.iter().enumerate() {
            let at = Expr::Const(start.saturating_add(j as i64));
            p.intension(&Expr::Call(
                Op::Imp,
                vec![
                    Expr::Call(before, vec![at, Expr::Var(index)]),
                    Expr::Call(Op::Ne, vec![Expr::Var(v), extremum.clone()]),
                ],
            ))?;
        }
        Ok(())
    }
}

pub(crate) fn extremum<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list", "index", "condition"])?;
    let (items, start) = match r.child(node, "list") {
        Some(l) => (r.list(l, ctx)?, r.attr_int(l, "startIndex", 0)?),
        None => (r.list(node, ctx)?, 0),
    };
    let index = match r.child(node, "index") {
        None => None,
        Some(i) => {
            let rank = match i.attribute("rank") {
                None | Some("any") => Rank::Any,
                Some("first") => Rank::First,
                Some("last") => Rank::Last,
                Some(x) => return Err(r.syntax("", i, format!("rank=\"{x}\""))),
            };
            match <[Expr; 1]>::try_from(r.list(i, ctx)?) {
                Ok([e]) => Some((e, start, rank)),
                Err(_) => return Err(r.syntax("", i, "<index> must be one variable")),
            }
        }
    };
    let condition = match r.child(node, "condition") {
        Some(c) => Some(r.condition(c, ctx)?),
        None => None,
    };
    if index.is_none() && condition.is_none() {
        return Err(r.syntax(
            "",
            node,
            format!("<{}> needs a <condition> or an <index>", node.name()),
        ));
    }
    r.push(
        node,
        Extremum {
            maximum: node.name() == "maximum",
            items,
            index,
            condition,
        },
    )
}

/// `<channel>` in its three forms.
#[derive(Debug)]
pub enum Channel {
    /// One list: `x[i] = j + start <=> x[j] = i + start`.
    One {
        /// The list.
        list: Vec<Expr>,
        /// The number of its first item.
        start: i64,
    },
    /// Two lists: `x[i] = j + sy => y[j] = i + sx`, both ways when they have one length.
    Two {
        /// The first list and its start.
        xs: (Vec<Expr>, i64),
        /// The second list and its start.
        ys: (Vec<Expr>, i64),
    },
    /// A list of 0/1 items and a value: `x[i] = 1 <=> value = i + start`.
    Value {
        /// The 0/1 items.
        list: Vec<Expr>,
        /// The number of the first.
        start: i64,
        /// The value.
        value: Expr,
    },
}

impl Constraint for Channel {
    fn kind(&self) -> &'static str {
        "channel"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        match self {
            Channel::One { list, .. } => list.iter().for_each(|e| expr_vars(e, f)),
            Channel::Two { xs, ys } => xs.0.iter().chain(&ys.0).for_each(|e| expr_vars(e, f)),
            Channel::Value { list, value, .. } => list.iter().chain([value]).for_each(|e| expr_vars(e, f)),
        }
    }
    fn holds(&self, values: &[i32]) -> bool {
        let at =
            |x: i128, start: i64, n: usize| usize::try_from(x - i128::from(start)).ok().filter(|&k| k < n);
        match self {
            Channel::One { list, start } => {
                let Some(v) = values_of(list, values) else {
                    return false;
                };
                let n = v.len();
                (0..n).all(|i| at(v[i], *start, n).is_some_and(|j| v[j] == i as i128 + i128::from(*start)))
            }
            Channel::Two { xs, ys } => {
                let (Some(x), Some(y)) = (values_of(&xs.0, values), values_of(&ys.0, values)) else {
                    return false;
                };
                let forward = (0..x.len())
                    .all(|i| at(x[i], ys.1, y.len()).is_some_and(|j| y[j] == i as i128 + i128::from(xs.1)));
                let backward = x.len() != y.len()
                    || (0..y.len()).all(|j| {
                        at(y[j], xs.1, x.len()).is_some_and(|i| x[i] == j as i128 + i128::from(ys.1))
                    });
                forward && backward
            }
            Channel::Value {
                list,
                start,
                value: v,
            } => {
                let (Some(b), Some(v)) = (values_of(list, values), value(v, values)) else {
                    return false;
                };
                (0..b.len())
                    .all(|i| (b[i] == 1) == (v == i as i128 + i128::from(*start)) && (b[i] == 0 || b[i] == 1))
            }
        }
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let start32 = |p: &Poster<'_, '_>, s: i64| {
            i32::try_from(s).map_err(|_| p.invalid(format!("startIndex {s} does not fit 32 bits")))
        };
        match self {
            Channel::One { list, start } => {
                let vars = p.vars_of(list)?;
                let start = start32(p, *start)?;
                p.model.channel_self(&vars, start).map_err(|e| p.err(e))
            }
            Channel::Two { xs, ys } => {
                let x = p.vars_of(&xs.0)?;
                let y = p.vars_of(&ys.0)?;
                let (sx, sy) = (start32(p, xs.1)?, start32(p, ys.1)?);
                if x.len() > y.len() {
                    return Err(p.invalid("the first list of <channel> is longer than the second"));
                }
                p.model.channel(&x, sx, &y, sy).map_err(|e| p.err(e))
            }
            Channel::Value { list, start, value } => {
                let bools = p.vars_of(list)?;
                let value = p.var_of(value)?;
                let start = start32(p, *start)?;
                p.model.channel_value(&bools, start, value).map_err(|e| p.err(e))
            }
        }
    }
}

pub(crate) fn channel<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list", "value"])?;
    let lists = r.children_named(node, "list");
    let channel = match (&lists[..], r.child(node, "value")) {
        ([], None) => Channel::One {
            list: r.list(node, ctx)?,
            start: 0,
        },
        ([l], None) => Channel::One {
            list: r.list(*l, ctx)?,
            start: r.attr_int(*l, "startIndex", 0)?,
        },
        ([a, b], None) => Channel::Two {
            xs: (r.list(*a, ctx)?, r.attr_int(*a, "startIndex", 0)?),
            ys: (r.list(*b, ctx)?, r.attr_int(*b, "startIndex", 0)?),
        },
        ([l], Some(v)) => {
            let value = match <[Expr; 1]>::try_from(r.list(v, ctx)?) {
                Ok([e]) => e,
                Err(_) => return Err(r.syntax("", v, "<value> must be one variable")),
            };
            Channel::Value {
                list: r.list(*l, ctx)?,
                start: r.attr_int(*l, "startIndex", 0)?,
                value,
            }
        }
        _ => {
            return Err(r.syntax(
                "",
                node,
                "<channel> takes one list, two lists, or a list and a <value>",
            ));
        }
    };
    r.push(node, channel)
}
