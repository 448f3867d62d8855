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

/// Whether the load at every time satisfies `cond`: at the times where tasks start (the load
/// changes only there and where they end) and at a time where none runs (load 0).
fn loads_hold(o: &[i128], l: &[i128], h: &[i128], cond: &Condition, values: &[i32]) -> bool {
    if !cond.holds(0, values) {
        return false;
    }
    (0..o.len()).filter(|&i| l[i] > 0).all(|i| {
        let t = o[i];
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
                let below = Expr::Call(crate::ir::Op::Sub, vec![Expr::Var(*v), Expr::Const(1)]);
                Some(IntOrVar::Var(p.var_of(&below)?))
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
    /// The bins: `first_bin..first_bin + bins`.
    pub first_bin: i64,
    /// The number of bins.
    pub bins: usize,
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
        let mut loads = vec![0i128; self.bins];
        for (b, &s) in bins.iter().zip(&self.sizes) {
            match usize::try_from(*b - i128::from(self.first_bin))
                .ok()
                .filter(|&k| k < self.bins)
            {
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
        let bins = p.vars_of(&self.items)?;
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
        let mut loads = Vec::with_capacity(self.bins);
        for k in 0..self.bins {
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
        let first =
            i32::try_from(self.first_bin).map_err(|_| p.invalid("the first bin does not fit 32 bits"))?;
        p.model
            .bin_packing(&bins, &self.sizes, &loads, first)
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
    // The bins: numbered from the list's startIndex when each bin is listed, else the
    // values the items' domains hold.
    let (first_bin, bins) = match &bound {
        BinBound::Loads(v) | BinBound::Limits(v) => (r.attr_int(l, "startIndex", 0)?, v.len()),
        BinBound::Conditions(v) => (r.attr_int(l, "startIndex", 0)?, v.len()),
        BinBound::Each(_) => {
            let mut lo = i64::MAX;
            let mut hi = i64::MIN;
            for e in &items {
                let (a, b) = match e {
                    Expr::Var(v) => {
                        let d = r.model.domain(*v);
                        (i64::from(d.min()), i64::from(d.max()))
                    }
                    Expr::Const(k) => (*k, *k),
                    _ => {
                        return Err(r.syntax(
                            "",
                            l,
                            "the items of <binPacking> must be variables or integers",
                        ));
                    }
                };
                lo = lo.min(a);
                hi = hi.max(b);
            }
            if items.is_empty() {
                (0, 0)
            } else {
                (lo, usize::try_from(hi - lo + 1).unwrap_or(usize::MAX))
            }
        }
    };
    if bins > crate::limits::MAX_VARIABLES {
        return Err(r.out_of_range("", node, format!("{bins} bins")));
    }
    r.push(
        node,
        BinPacking {
            items,
            sizes,
            bound,
            first_bin,
            bins,
        },
    )
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
