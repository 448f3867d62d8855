//! Binary constraints gathered per pair of variables, and posted as one relation per pair:
//! a fast built-in relation where the allowed pairs are exactly one, else one table of the
//! pairs every constraint on the pair allows.

use std::collections::HashMap;

use csp_core::{Cmp, Expr, Relation, TableCell, VarId};

use super::Poster;
use super::linear::linear;
use crate::condition::Op;
use crate::error::Result;

/// The most pairs of values a binary constraint is tabulated over.
pub const PAIR_TABLE_LIMIT: u64 = 1 << 20;

/// A binary constraint waiting for the others on its pair: `pred(x, y)`.
pub(crate) enum Binary {
    /// A built-in relation on `(x, y)`.
    Fast(Relation),
    /// An expression over `x` and `y` (its bounds checked: evaluated exactly).
    Expr(Expr),
    /// Allowed (`true`) or forbidden (`false`) pairs.
    Pairs(Vec<(i32, i32)>, bool),
}

/// The binary constraints per pair `(x, y)` with `x < y`, oriented `(x, y)`, in the order
/// the pairs were first met.
#[derive(Default)]
pub(crate) struct Pairs {
    by_pair: HashMap<(VarId, VarId), Vec<Binary>>,
    order: Vec<(VarId, VarId)>,
}

impl Pairs {
    /// Adds `b` on `(x, y)`; a relation must be given with `x < y`.
    pub(crate) fn add(&mut self, x: VarId, y: VarId, b: Binary) {
        let (key, b) = if x < y {
            ((x, y), b)
        } else {
            let flipped = match b {
                Binary::Pairs(p, s) => Binary::Pairs(p.into_iter().map(|(a, b)| (b, a)).collect(), s),
                other => other,
            };
            ((y, x), flipped)
        };
        let entry = self.by_pair.entry(key).or_default();
        if entry.is_empty() {
            self.order.push(key);
        }
        entry.push(b);
    }

    /// The pairs gathered so far, each once.
    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether no constraint on `(x, y)` (either way) has been gathered yet.
    pub(crate) fn is_new(&self, x: VarId, y: VarId) -> bool {
        !self.by_pair.contains_key(&(x.min(y), x.max(y)))
    }

    /// Posts every pair's constraints.
    pub(crate) fn flush(mut self, p: &mut Poster<'_, '_>) -> Result<()> {
        for key in std::mem::take(&mut self.order) {
            let list = self.by_pair.remove(&key).unwrap_or_default();
            p.budget.step()?;
            post_pair(p, key, list)?;
        }
        Ok(())
    }
}

fn post_pair(p: &mut Poster<'_, '_>, (x, y): (VarId, VarId), list: Vec<Binary>) -> Result<()> {
    if list.iter().all(|b| matches!(b, Binary::Fast(_))) {
        for b in list {
            let Binary::Fast(r) = b else { unreachable!() };
            p.model.post(x, y, r).map_err(|e| p.err(e))?;
        }
        return Ok(());
    }
    let dx: Vec<i32> = p.model.domain(x).values().collect();
    let dy: Vec<i32> = p.model.domain(y).values().collect();
    let (sx, sy) = (dx.len(), dy.len());
    if sx as u64 * sy as u64 > PAIR_TABLE_LIMIT {
        // Wide domains: each constraint on its own.
        for b in list {
            match b {
                Binary::Fast(r) => p.model.post(x, y, r).map_err(|e| p.err(e))?,
                Binary::Expr(e) => p.model.intension(&e).map_err(|err| p.err(err))?,
                Binary::Pairs(pairs, supports) => {
                    let tuples = pairs
                        .iter()
                        .map(|&(a, b)| vec![TableCell::Value(a), TableCell::Value(b)])
                        .collect();
                    p.model.table(&[x, y], tuples, supports).map_err(|e| p.err(e))?;
                }
            }
        }
        return Ok(());
    }
    // One table: the pairs every constraint allows.
    let mut allowed = vec![true; sx * sy];
    let ix: HashMap<i32, usize> = dx.iter().enumerate().map(|(i, &a)| (a, i)).collect();
    let iy: HashMap<i32, usize> = dy.iter().enumerate().map(|(i, &a)| (a, i)).collect();
    for b in &list {
        p.budget.steps(sx * sy)?;
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
                    for (j, &c) in dy.iter().enumerate() {
                        if allowed[i * sy + j] {
                            let value = |v: VarId| i64::from(if v == x { a } else { c });
                            if e.eval(&value).is_none_or(|r| r == 0) {
                                allowed[i * sy + j] = false;
                            }
                        }
                    }
                }
            }
            Binary::Pairs(pairs, supports) => {
                let mut listed = vec![false; sx * sy];
                for (a, c) in pairs {
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
        return p.model.post(x, y, r).map_err(|e| p.err(e));
    }
    let pairs: Vec<(i32, i32)> = (0..sx * sy)
        .filter(|&k| allowed[k])
        .map(|k| (dx[k / sy], dy[k % sy]))
        .collect();
    p.model.post(x, y, Relation::table(pairs)).map_err(|e| p.err(e))
}

/// A fast built-in relation for a binary expression over `x < y`, if it is one.
pub(crate) fn fast(e: &Expr, x: VarId, y: VarId) -> Option<Relation> {
    let Expr::Call(op, a) = e else { return None };
    let cmp = super::cmp_of(*op)?;
    if a.len() != 2 {
        return None;
    }
    // |x - y| != c
    if cmp == Cmp::Ne {
        let is_xy = |p: &Expr, q: &Expr| matches!((p, q), (Expr::Var(p), Expr::Var(q)) if (*p == x && *q == y) || (*p == y && *q == x));
        let dist = |d: &Expr, c: &Expr| -> Option<i64> {
            let Expr::Const(c) = c else { return None };
            match d {
                Expr::Call(Op::Dist, v) if is_xy(&v[0], &v[1]) => Some(*c),
                Expr::Call(Op::Abs, v) => match &v[0] {
                    Expr::Call(Op::Sub, w) if is_xy(&w[0], &w[1]) => Some(*c),
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
    let mut cx = 0i128;
    let mut cy = 0i128;
    for (c, v) in l {
        if v == x {
            cx += i128::from(c)
        } else {
            cy += i128::from(c)
        }
    }
    for (c, v) in r {
        if v == x {
            cx -= i128::from(c)
        } else {
            cy -= i128::from(c)
        }
    }
    let k = kl.checked_sub(kr)?;
    // normalise to x - y + k cmp 0
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

/// `-(lhs) cmp 0  <=>  lhs flip(cmp) 0`.
fn flip_sign(c: Cmp) -> Cmp {
    match c {
        Cmp::Lt => Cmp::Gt,
        Cmp::Le => Cmp::Ge,
        Cmp::Ge => Cmp::Le,
        Cmp::Gt => Cmp::Lt,
        other => other,
    }
}
