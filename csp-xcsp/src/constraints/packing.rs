//! Packing and scheduling constraints: `noOverlap` (one dimension, or boxes), `cumulative`,
//! `binPacking` and `knapsack`.

use std::sync::Arc;

use csp_core::{Conflict, Event, Expr, IntOrVar, PropagationContext, Propagator, VarId};

use super::comparison::int_or_vars;
use super::counting::Sum;
use crate::error::{Error, Result};
use crate::ir::{CmpOp, Condition, Constraint, Operand, expr_vars, value, values_of};
use crate::post::Poster;
use crate::read::Reader;
use crate::read::lists::Ctx;
use crate::xml::Node;

/// `<noOverlap>`: tasks (or boxes) placed at `origins` with `lengths` do not overlap;
/// `zero_ignored`: a task (box) with a length 0 overlaps nothing.
#[derive(Debug)]
pub struct NoOverlap {
    /// Per task, its origin in each dimension (one dimension: one each).
    pub origins: Vec<Vec<Expr>>,
    /// Per task, its length in each dimension.
    pub lengths: Vec<Vec<Expr>>,
    /// A length 0 makes a task overlap nothing.
    pub zero_ignored: bool,
}

impl Constraint for NoOverlap {
    fn kind(&self) -> &'static str {
        "noOverlap"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.origins
            .iter()
            .chain(&self.lengths)
            .flatten()
            .for_each(|e| expr_vars(e, f));
    }
    fn holds(&self, values: &[i32]) -> bool {
        let tasks: Option<Vec<(Vec<i128>, Vec<i128>)>> = self
            .origins
            .iter()
            .zip(&self.lengths)
            .map(|(o, l)| Some((values_of(o, values)?, values_of(l, values)?)))
            .collect();
        let Some(tasks) = tasks else { return false };
        for i in 0..tasks.len() {
            for j in i + 1..tasks.len() {
                let ((oi, li), (oj, lj)) = (&tasks[i], &tasks[j]);
                if self.zero_ignored && (li.contains(&0) || lj.contains(&0)) {
                    continue;
                }
                let apart = (0..oi.len()).any(|d| oi[d] + li[d] <= oj[d] || oj[d] + lj[d] <= oi[d]);
                if !apart {
                    return false;
                }
            }
        }
        true
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let dims = self.origins.first().map_or(1, Vec::len);
        let mut origins = Vec::with_capacity(self.origins.len());
        let mut lengths = Vec::with_capacity(self.lengths.len());
        for (o, l) in self.origins.iter().zip(&self.lengths) {
            origins.push(p.vars_of(o)?);
            lengths.push(non_negative(int_or_vars(p, l)?, p, "noOverlap")?);
        }
        if dims == 1 {
            let origins: Vec<VarId> = origins.into_iter().flatten().collect();
            let lengths: Vec<IntOrVar> = lengths.into_iter().flatten().collect();
            return p
                .model
                .no_overlap(&origins, &lengths, self.zero_ignored)
                .map_err(|e| p.err(e));
        }
        p.model
            .no_overlap_boxes(&origins, &lengths, self.zero_ignored)
            .map_err(|e| p.err(e))
    }
}

/// The tuples `(a,b)(c,d)...` of a text: items of each, by [`Reader::item`].
fn tuples<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<Vec<Vec<Expr>>> {
    let text = r.content(node)?;
    let mut out = Vec::new();
    for piece in text.split(')') {
        let piece = piece.trim();
        if piece.is_empty() {
            continue;
        }
        let Some(body) = piece.strip_prefix('(') else {
            return Err(r.syntax(piece, node, "expected `(` to open a tuple"));
        };
        let mut items = Vec::new();
        for t in body.split(',') {
            r.item(t.trim(), node, ctx, &mut items)?;
        }
        out.push(items);
    }
    Ok(out)
}

pub(crate) fn no_overlap<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["origins", "lengths"])?;
    let zero_ignored = match node.attribute("zeroIgnored") {
        None | Some("true") => true,
        Some("false") => false,
        Some(x) => return Err(r.syntax("", node, format!("zeroIgnored=\"{x}\""))),
    };
    let o = r.require(node, "origins")?;
    let l = r.require(node, "lengths")?;
    let boxes = r.content(o)?.trim_start().starts_with('(');
    let (origins, lengths) = if boxes {
        (tuples(r, o, ctx)?, tuples(r, l, ctx)?)
    } else {
        let single = |v: Vec<Expr>| v.into_iter().map(|e| vec![e]).collect::<Vec<_>>();
        (single(r.list(o, ctx)?), single(r.list(l, ctx)?))
    };
    if origins.len() != lengths.len() {
        return Err(r.syntax(
            "",
            l,
            format!("{} lengths for {} tasks", lengths.len(), origins.len()),
        ));
    }
    let dims = origins.first().map_or(1, Vec::len);
    if origins.iter().chain(&lengths).any(|t| t.len() != dims) {
        return Err(r.syntax(
            "",
            node,
            "the boxes of <noOverlap> have different numbers of dimensions",
        ));
    }
    r.push(
        node,
        NoOverlap {
            origins,
            lengths,
            zero_ignored,
        },
    )
}

/// `<cumulative>`: at every time `t`, the heights of the tasks running at `t` (`o <= t <
/// o + l`) add up to a load that satisfies the condition; `ends`: `e = o + l`.
#[derive(Debug)]
pub struct Cumulative {
    /// The origins.
    pub origins: Vec<Expr>,
    /// The lengths.
    pub lengths: Vec<Expr>,
    /// The ends, if given.
    pub ends: Option<Vec<Expr>>,
    /// The heights.
    pub heights: Vec<Expr>,
    /// The condition on the load at every time.
    pub condition: Condition,
}

/// Whether the load at every time satisfies `cond`. The load is constant between the times
/// where a task starts or ends, so those times and one where no task runs (load 0: time is
/// unbounded, so there always is one) are every load it takes. The load just after a task
/// ends must be checked too: with `ne` or a set, the load there can be forbidden while the
/// loads at every start are allowed.
fn loads_hold(o: &[i128], l: &[i128], h: &[i128], cond: &Condition, values: &[i32]) -> bool {
    if !cond.holds(0, values) {
        return false;
    }
    let mut times = (0..o.len())
        .filter(|&i| l[i] > 0)
        .flat_map(|i| [o[i], o[i] + l[i]]);
    times.all(|t| {
        let load: i128 = (0..o.len())
            .filter(|&j| o[j] <= t && t < o[j] + l[j])
            .map(|j| h[j])
            .sum();
        cond.holds(load, values)
    })
}

impl Constraint for Cumulative {
    fn kind(&self) -> &'static str {
        "cumulative"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.origins
            .iter()
            .chain(&self.lengths)
            .chain(self.ends.iter().flatten())
            .chain(&self.heights)
            .for_each(|e| expr_vars(e, f));
        if let Some(v) = self.condition.var() {
            f(v);
        }
    }
    fn holds(&self, values: &[i32]) -> bool {
        let (Some(o), Some(l), Some(h)) = (
            values_of(&self.origins, values),
            values_of(&self.lengths, values),
            values_of(&self.heights, values),
        ) else {
            return false;
        };
        if let Some(ends) = &self.ends {
            let Some(e) = values_of(ends, values) else {
                return false;
            };
            if (0..o.len()).any(|i| o[i] + l[i] != e[i]) {
                return false;
            }
        }
        loads_hold(&o, &l, &h, &self.condition, values)
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        if let Some(ends) = &self.ends {
            for ((o, l), e) in self.origins.iter().zip(&self.lengths).zip(ends) {
                let sum = Expr::Call(crate::ir::Op::Add, vec![o.clone(), l.clone()]);
                p.intension(&Expr::Call(crate::ir::Op::Eq, vec![sum, e.clone()]))?;
            }
        }
        let origins = p.vars_of(&self.origins)?;
        let lengths = non_negative(int_or_vars(p, &self.lengths)?, p, "cumulative")?;
        let heights = non_negative(int_or_vars(p, &self.heights)?, p, "cumulative")?;
        // The load is 0 where no task runs: the condition must accept 0.
        let limit = match (self.condition.op, &self.condition.operand) {
            (CmpOp::Le, Operand::Int(k)) => Some(IntOrVar::Int(*k)),
            (CmpOp::Lt, Operand::Int(k)) => Some(IntOrVar::Int(k.saturating_sub(1))),
            (CmpOp::Le, Operand::Var(v)) => Some(IntOrVar::Var(*v)),
            (CmpOp::Lt, Operand::Var(v)) => {
                // `v - 1` as a variable; where it leaves 32 bits (v down to -2^31), the
                // exact check of complete assignments below.
                let below = Expr::Call(crate::ir::Op::Sub, vec![Expr::Var(*v), Expr::Const(1)]);
                p.var_of_or(&below)?.ok().map(IntOrVar::Var)
            }
            (CmpOp::In, Operand::Range(lo, hi)) if *lo <= 0 => Some(IntOrVar::Int(*hi)),
            _ => None,
        };
        // A limit past 32 bits (loads can add up past them) is left to the exact check of
        // complete assignments below, as the other conditions are.
        let limit = limit.filter(|l| !matches!(l, IntOrVar::Int(k) if i32::try_from(*k).is_err()));
        match limit {
            Some(limit) => p
                .model
                .cumulative(&origins, &lengths, &heights, limit, false)
                .map_err(|e| p.err(e)),
            None => {
                // Other conditions (`ge`, `in` a set, ...) are checked once every task is
                // placed, as the definition states them.
                let mut scope: Vec<VarId> = Vec::new();
                self.for_each_var(&mut |v| {
                    if !scope.contains(&v) {
                        scope.push(v);
                    }
                });
                let test = CumulativeLoads {
                    origins: self.origins.clone(),
                    lengths: self.lengths.clone(),
                    heights: self.heights.clone(),
                    condition: self.condition.clone(),
                };
                p.model
                    .add_propagator(CheckOnly::new(scope, Arc::new(test)))
                    .map_err(|e| p.err(e))
            }
        }
    }
}

/// The loads of a `cumulative`, checked on complete assignments.
#[derive(Debug)]
struct CumulativeLoads {
    origins: Vec<Expr>,
    lengths: Vec<Expr>,
    heights: Vec<Expr>,
    condition: Condition,
}

impl CumulativeLoads {
    fn holds(&self, values: &[i32]) -> bool {
        match (
            values_of(&self.origins, values),
            values_of(&self.lengths, values),
            values_of(&self.heights, values),
        ) {
            (Some(o), Some(l), Some(h)) => loads_hold(&o, &l, &h, &self.condition, values),
            _ => false,
        }
    }
}

/// A constraint csp-core checks on each complete assignment, without pruning: for the rare
/// forms no propagator takes.
struct CheckOnly {
    scope: Vec<VarId>,
    /// The model's number of variables the test indexes values by.
    width: usize,
    test: Arc<CumulativeLoads>,
}

impl CheckOnly {
    fn new(scope: Vec<VarId>, test: Arc<CumulativeLoads>) -> CheckOnly {
        let width = scope.iter().map(|v| v.index() + 1).max().unwrap_or(0);
        CheckOnly { scope, width, test }
    }
}

impl Propagator for CheckOnly {
    fn variables(&self) -> &[VarId] {
        &self.scope
    }
    fn check(&self, values: &[i32]) -> bool {
        // The test reads values by variable index: spread the scope's values out.
        let mut all = vec![0i32; self.width];
        for (v, &a) in self.scope.iter().zip(values) {
            all[v.index()] = a;
        }
        self.test.holds(&all)
    }
    fn propagate(
        &self,
        _ctx: &mut PropagationContext<'_>,
        _event: Event,
    ) -> std::result::Result<(), Conflict> {
        Ok(())
    }
    fn name(&self) -> &str {
        "cumulative (checked)"
    }
}

pub(crate) fn cumulative<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["origins", "lengths", "ends", "heights", "condition"])?;
    let o = r.require(node, "origins")?;
    let origins = r.list(o, ctx)?;
    let l = r.require(node, "lengths")?;
    let lengths = r.list(l, ctx)?;
    let ends = match r.child(node, "ends") {
        Some(e) => Some(r.list(e, ctx)?),
        None => None,
    };
    let h = r.require(node, "heights")?;
    let heights = r.list(h, ctx)?;
    let c = r.require(node, "condition")?;
    let condition = r.condition(c, ctx)?;
    let n = origins.len();
    if lengths.len() != n || heights.len() != n || ends.as_ref().is_some_and(|e| e.len() != n) {
        return Err(r.syntax("", node, "the lists of <cumulative> have different lengths"));
    }
    r.push(
        node,
        Cumulative {
            origins,
            lengths,
            ends,
            heights,
            condition,
        },
    )
}

/// How `binPacking` bounds each bin's load.
#[derive(Debug)]
pub enum BinBound {
    /// Every bin's load satisfies the condition.
    Each(Condition),
    /// Bin `b`'s load equals `loads[b]`.
    Loads(Vec<Expr>),
    /// Bin `b`'s load is at most `limits[b]`.
    Limits(Vec<Expr>),
    /// Bin `b`'s load satisfies `conditions[b]`.
    Conditions(Vec<Condition>),
}

/// `<binPacking>`: item `i` of size `sizes[i]` goes in bin `items[i]`; each bin's load (the
/// sizes of its items) is bounded.
#[derive(Debug)]
pub struct BinPacking {
    /// The bins of the items.
    pub items: Vec<Expr>,
    /// Their sizes.
    pub sizes: Vec<i64>,
    /// The bounds on the loads.
    pub bound: BinBound,
    /// The bins, in increasing order: with `<condition>`, every value an item's domain holds
    /// (as the XCSP3 specification defines them, so a value no item can take is no bin);
    /// else `startIndex` on, one per load, limit or condition.
    pub bins: Vec<i64>,
}

impl BinPacking {
    /// The index in [`BinPacking::bins`] of the bin `b`.
    fn bin_index(&self, b: i128) -> Option<usize> {
        let b = i64::try_from(b).ok()?;
        self.bins.binary_search(&b).ok()
    }

    /// The allowed loads of each value from the first bin to the last, within `0..=total`,
    /// when every bound is a constant (a value between bins takes no item: load 0).
    fn allowed_loads(&self, total: i64) -> Option<Vec<Vec<(i64, i64)>>> {
        let (Some(&first), Some(&last)) = (self.bins.first(), self.bins.last()) else {
            return Some(Vec::new());
        };
        let mut allowed = Vec::new();
        for b in first..=last {
            let ranges = match self.bin_index(i128::from(b)) {
                None => vec![(0, 0)],
                Some(k) => match &self.bound {
                    BinBound::Each(c) => c.allowed_within(0, total)?,
                    BinBound::Conditions(cs) => cs[k].allowed_within(0, total)?,
                    BinBound::Limits(l) => match l[k] {
                        Expr::Const(limit) => vec![(0, limit.min(total))],
                        _ => return None,
                    },
                    BinBound::Loads(_) => return None,
                },
            };
            allowed.push(ranges);
        }
        Some(allowed)
    }
}

impl Constraint for BinPacking {
    fn kind(&self) -> &'static str {
        "binPacking"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.items.iter().for_each(|e| expr_vars(e, f));
        match &self.bound {
            BinBound::Each(c) => c.var().into_iter().for_each(&mut *f),
            BinBound::Loads(l) | BinBound::Limits(l) => l.iter().for_each(|e| expr_vars(e, f)),
            BinBound::Conditions(cs) => cs.iter().filter_map(Condition::var).for_each(f),
        }
    }
    fn holds(&self, values: &[i32]) -> bool {
        let Some(bins) = values_of(&self.items, values) else {
            return false;
        };
        let mut loads = vec![0i128; self.bins.len()];
        for (&b, &s) in bins.iter().zip(&self.sizes) {
            match self.bin_index(b) {
                Some(k) => loads[k] += i128::from(s),
                None => return false,
            }
        }
        loads.iter().enumerate().all(|(k, &load)| match &self.bound {
            BinBound::Each(c) => c.holds(load, values),
            BinBound::Loads(l) => value(&l[k], values) == Some(load),
            BinBound::Limits(l) => value(&l[k], values).is_some_and(|limit| load <= limit),
            BinBound::Conditions(cs) => cs[k].holds(load, values),
        })
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let items = p.vars_of(&self.items)?;
        // A bin's load is a variable: the sum of the sizes (its largest value) must be 32-bit.
        let total: i128 = self.sizes.iter().map(|&s| i128::from(s.max(0))).sum();
        let Ok(total) = i32::try_from(total).map(i64::from) else {
            return Err(Error::Unsupported {
                position: p.position,
                what: format!(
                    "binPacking whose sizes add up to {total}: csp holds each bin's load in a \
                     variable, whose values are 32-bit"
                ),
            });
        };
        let (Some(&first), Some(&last)) = (self.bins.first(), self.bins.last()) else {
            // No bin: only an empty list of items fits.
            return if items.is_empty() { Ok(()) } else { p.fail() };
        };
        let first = i32::try_from(first).map_err(|_| p.invalid("the first bin does not fit 32 bits"))?;
        // Constant bounds need no load variables (the search would branch on them).
        if let Some(allowed) = self.allowed_loads(total) {
            return p
                .model
                .bin_packing_within(&items, &self.sizes, &allowed, first)
                .map_err(|e| p.err(e));
        }
        let mut loads = Vec::new();
        for b in i64::from(first)..=last {
            let Some(k) = self.bin_index(i128::from(b)) else {
                loads.push(p.new_var(0, 0)?);
                continue;
            };
            let load = match &self.bound {
                BinBound::Each(c) => p.var_under(0, total, c)?,
                BinBound::Conditions(cs) => p.var_under(0, total, &cs[k])?,
                BinBound::Loads(l) => p.var_of(&l[k])?,
                BinBound::Limits(l) => {
                    let load = p.new_var(0, total)?;
                    let le = Expr::Call(crate::ir::Op::Le, vec![Expr::Var(load), l[k].clone()]);
                    p.intension(&le)?;
                    load
                }
            };
            loads.push(load);
        }
        p.model
            .bin_packing(&items, &self.sizes, &loads, first)
            .map_err(|e| p.err(e))
    }
}

pub(crate) fn bin_packing<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(
        node,
        &["list", "sizes", "condition", "loads", "limits", "conditions"],
    )?;
    let l = r.require(node, "list")?;
    let items = r.list(l, ctx)?;
    let s = r.require(node, "sizes")?;
    let sizes = r.ints(s, ctx)?;
    if sizes.len() != items.len() {
        return Err(r.syntax("", s, format!("{} sizes for {} items", sizes.len(), items.len())));
    }
    if let Some(bad) = sizes.iter().find(|&&x| x < 0) {
        return Err(r.syntax("", s, format!("a negative size {bad}")));
    }
    let bound = if let Some(c) = r.child(node, "condition") {
        BinBound::Each(r.condition(c, ctx)?)
    } else if let Some(n) = r.child(node, "loads") {
        BinBound::Loads(r.list(n, ctx)?)
    } else if let Some(n) = r.child(node, "limits") {
        BinBound::Limits(r.list(n, ctx)?)
    } else if let Some(n) = r.child(node, "conditions") {
        let text = r.content(n)?;
        let mut conditions = Vec::new();
        for piece in text.split(')').map(str::trim).filter(|s| !s.is_empty()) {
            conditions.push(r.condition_text(&format!("{piece})"), n, ctx)?);
        }
        BinBound::Conditions(conditions)
    } else {
        return Err(r.syntax(
            "",
            node,
            "<binPacking> needs a <condition>, <loads>, <limits> or <conditions>",
        ));
    };
    let bins: Vec<i64> = match &bound {
        BinBound::Loads(v) | BinBound::Limits(v) => numbered(r.attr_int(l, "startIndex", 0)?, v.len()),
        BinBound::Conditions(v) => numbered(r.attr_int(l, "startIndex", 0)?, v.len()),
        BinBound::Each(_) => {
            // The values of the items' domains, an expression's being the values it takes.
            let mut values = std::collections::BTreeSet::new();
            for e in &items {
                match e {
                    Expr::Var(v) => values.extend(r.model.domain(*v).values().map(i64::from)),
                    Expr::Const(k) => {
                        values.insert(*k);
                    }
                    _ => match crate::post::image(&r.model, e) {
                        Some(taken) => values.extend(taken.into_iter().filter_map(|b| i64::try_from(b).ok())),
                        None => {
                            return Err(r.unsupported(
                                l,
                                format!(
                                    "binPacking with <condition> over an item whose values csp does \
                                     not enumerate (`{}`): its bins are the values of the items",
                                    crate::condition::show(&r.model, e)
                                ),
                            ));
                        }
                    },
                }
                if values.len() > crate::limits::MAX_VARIABLES {
                    break;
                }
            }
            values.into_iter().collect()
        }
    };
    let span = match (bins.first(), bins.last()) {
        (Some(a), Some(b)) => u64::try_from(b - a).unwrap_or(u64::MAX).saturating_add(1),
        _ => 0,
    };
    if span > crate::limits::MAX_VARIABLES as u64 {
        return Err(r.out_of_range("", node, format!("bins spread over {span} values")));
    }
    r.push(
        node,
        BinPacking {
            items,
            sizes,
            bound,
            bins,
        },
    )
}

/// The bins `first..first + count`.
fn numbered(first: i64, count: usize) -> Vec<i64> {
    (0..count as i64).map(|k| first.saturating_add(k)).collect()
}

/// `<knapsack>`: the weights of the items taken (each item's value is how many times it is
/// taken) satisfy one condition, their profits another.
#[derive(Debug)]
pub struct Knapsack {
    /// `sum(weights * items) cond`.
    pub weight: Sum,
    /// `sum(profits * items) cond`.
    pub profit: Sum,
}

impl Constraint for Knapsack {
    fn kind(&self) -> &'static str {
        "knapsack"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.weight.for_each_var(f);
        self.profit.for_each_var(f);
    }
    fn holds(&self, values: &[i32]) -> bool {
        self.weight.holds(values) && self.profit.holds(values)
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        self.weight.post(p)?;
        self.profit.post(p)
    }
}

pub(crate) fn knapsack<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list", "weights", "profits", "condition"])?;
    let l = r.require(node, "list")?;
    let items = r.list(l, ctx)?;
    let w = r.require(node, "weights")?;
    let weights = r.list(w, ctx)?;
    let pr = r.require(node, "profits")?;
    let profits = r.list(pr, ctx)?;
    let conditions = r.children_named(node, "condition");
    let [cw, cp] = conditions[..] else {
        return Err(r.syntax(
            "",
            node,
            "<knapsack> needs two <condition>s: on the weight, then on the profit",
        ));
    };
    if weights.len() != items.len() || profits.len() != items.len() {
        return Err(r.syntax("", node, "the lists of <knapsack> have different lengths"));
    }
    let weight = Sum {
        terms: weights.into_iter().zip(items.iter().cloned()).collect(),
        condition: r.condition(cw, ctx)?,
    };
    let profit = Sum {
        terms: profits.into_iter().zip(items).collect(),
        condition: r.condition(cp, ctx)?,
    };
    r.push(node, Knapsack { weight, profit })
}

/// Refuses lengths or heights that can be negative, constants and variables alike: the
/// XCSP3 specification does not say what a negative length means, and csp's scheduling
/// propagators take non-negative ones (they would silently drop a variable's negative values).
fn non_negative(items: Vec<IntOrVar>, p: &Poster<'_, '_>, constraint: &str) -> Result<Vec<IntOrVar>> {
    for t in &items {
        let (name, lo) = match *t {
            IntOrVar::Int(c) => (c.to_string(), c),
            IntOrVar::Var(v) => (format!("`{}`", p.model.name(v)), p.bounds_of(v).0),
        };
        if lo < 0 {
            return Err(Error::Unsupported {
                position: p.position,
                what: format!(
                    "{constraint} with a length or height that can be negative ({name}, down to {lo}): \
                     csp takes non-negative lengths and heights"
                ),
            });
        }
    }
    Ok(items)
}
