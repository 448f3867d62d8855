//! Posting what was read to a csp-core model: the machinery every family of constraints
//! shares.
//!
//! - Unary constraints remove values before search ([`Model::exclude`]).
//! - Binary ones are gathered per pair of variables ([`pairs`]) and posted as one relation:
//!   a fast built-in one (`x != y + c`, `|x - y| != c`, `x == y + c`, `x < y`, `x <= y`)
//!   where it fits, else one table of the allowed pairs when the pair's domains have at
//!   most [`PAIR_TABLE_LIMIT`] pairs of values.
//! - Linear comparisons become linear sums with bounds consistency.
//! - A global constraint over expressions (`allEqual(add(x,1), y)`) sees each expression
//!   through an auxiliary variable equal to it ([`Poster::var_of`]), named `aux#N`; such
//!   variables are determined by the declared ones, so they change no count and are left
//!   out of solutions.
//!
//! Every expression is checked against the 128-bit bounds before it is evaluated: values
//! are exact everywhere ([`Poster::check_bounds`]).

pub(crate) mod pairs;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use csp_core::{Cmp, Domain, Expr, Model, ModelError, Strength, Tuples, VarId};

use crate::condition::{CmpOp, Condition, Op, Operand};
use crate::error::{Error, Position, Result};
use crate::limits::Budget;
use crate::table::Table;

pub use pairs::PAIR_TABLE_LIMIT;
use pairs::{Binary, Pairs};

/// How the constraints are posted.
#[derive(Clone, Copy, Debug)]
pub struct PostOptions {
    /// The strength of all-different constraints.
    pub all_different: Strength,
    /// Fix every variable that appears in no constraint (nor the objective) to its smallest
    /// value, so that solutions are counted as the XCSP3 solvers (ACE) count them: over the
    /// constrained variables only. Default: true.
    pub fix_free: bool,
    /// Post the objective of an optimisation instance (its variable, optimised). False for
    /// counting or enumerating, which ignore it: the objective is still read (and checked),
    /// but nothing is posted for it, so its values need not fit a variable. Default: true.
    pub objective: bool,
}

impl Default for PostOptions {
    fn default() -> Self {
        PostOptions {
            all_different: Strength::Gac,
            fix_free: true,
            objective: true,
        }
    }
}

/// The most values an auxiliary variable's domain is enumerated over (the combinations of
/// its expression's variables); beyond, its domain is the expression's bounds.
const AUX_ENUMERATION: u128 = 1 << 16;

/// The most values a unary function's auxiliary variable may take.
const AUX_MAX_VALUES: usize = 1 << 16;

/// What posts the constraints of an instance to its model.
pub struct Poster<'m, 'l> {
    pub(crate) model: &'m mut Model,
    pub(crate) options: PostOptions,
    pairs: Pairs,
    /// Where the constraint being posted was read, for errors.
    pub(crate) position: Position,
    /// Auxiliary variables, by the expression they stand for.
    aux: HashMap<Expr, VarId>,
    /// How many auxiliary variables were made (they are named `aux#0`, `aux#1`, ...).
    aux_count: usize,
    /// The tuples handed to csp-core, per table as read (kept alive so the key stays unique).
    pub(crate) shared: HashMap<usize, (Arc<Table>, Tuples)>,
    pub(crate) budget: Budget<'l>,
}

impl<'m, 'l> Poster<'m, 'l> {
    pub(crate) fn new(model: &'m mut Model, options: PostOptions, budget: Budget<'l>) -> Self {
        Poster {
            model,
            options,
            pairs: Pairs::default(),
            position: Position::default(),
            aux: HashMap::new(),
            aux_count: 0,
            shared: HashMap::new(),
            budget,
        }
    }

    /// A model error at the current constraint.
    pub(crate) fn err(&self, source: ModelError) -> Error {
        Error::Model {
            position: self.position,
            source,
        }
    }

    /// An error of the constraint being posted, with its place.
    pub(crate) fn invalid(&self, message: impl Into<String>) -> Error {
        Error::Syntax {
            position: self.position,
            message: message.into(),
        }
    }

    /// Posts the binary constraints gathered per pair; call once after every constraint.
    pub(crate) fn finish(&mut self) -> Result<()> {
        let pairs = std::mem::take(&mut self.pairs);
        pairs.flush(self)
    }

    pub(crate) fn dom_len(&self, v: VarId) -> u64 {
        self.model.domain(v).len() as u64
    }

    /// The bounds of a variable's domain.
    pub(crate) fn bounds_of(&self, v: VarId) -> (i64, i64) {
        let d = self.model.domain(v);
        (i64::from(d.min()), i64::from(d.max()))
    }

    /// Refuses an expression whose values could leave the 128-bit integers (computed from
    /// the domains): every later evaluation of it is then exact.
    pub(crate) fn check_bounds(&self, e: &Expr) -> Result<csp_core::Bounds> {
        e.bounds(&|v| self.bounds_of(v)).map_err(|r| {
            self.err(ModelError::Arithmetic {
                constraint: "expression",
                reason: format!(
                    "the values of `{}` can leave the 128-bit integers csp computes in",
                    self.show(&r.expr)
                ),
            })
        })
    }

    /// An expression with the file's names, for messages.
    pub(crate) fn show(&self, e: &Expr) -> String {
        crate::condition::show(self.model, e)
    }

    /// The model has no solution.
    pub(crate) fn fail(&mut self) -> Result<()> {
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
    pub(crate) fn filter(&mut self, v: VarId, keep: impl Fn(i32) -> bool) -> Result<()> {
        let drop: Vec<i32> = self.model.domain(v).values().filter(|&a| !keep(a)).collect();
        self.budget.steps(self.model.domain(v).len())?;
        for a in drop {
            self.model.exclude(v, a).map_err(|e| self.err(e))?;
        }
        Ok(())
    }

    /// Gathers a binary constraint on `(x, y)`. The pairs are posted at the end: they are
    /// counted here against the model's cap ([`csp_core::MAX_CONSTRAINED_PAIRS`]), so that
    /// millions of them are refused before they are all held.
    pub(crate) fn binary(&mut self, x: VarId, y: VarId, b: Binary) -> Result<()> {
        if self.pairs.is_new(x, y) {
            let pairs = (self.pairs.len() + self.model.num_pairs()) as u64 + 1;
            if pairs > csp_core::MAX_CONSTRAINED_PAIRS {
                return Err(self.err(ModelError::ConstraintsTooLarge {
                    bytes: pairs.saturating_mul(csp_core::BYTES_PER_CONSTRAINED_PAIR),
                    max: csp_core::MAX_MODEL_MEMORY,
                }));
            }
        }
        self.pairs.add(x, y, b);
        Ok(())
    }

    /// Posts `e`, which must hold (be defined and non-zero).
    pub(crate) fn intension(&mut self, e: &Expr) -> Result<()> {
        self.budget.step()?;
        self.check_bounds(e)?;
        let vars = e.variables();
        match vars[..] {
            [] => {
                if e.eval(&|_| 0).is_some_and(|v| v != 0) {
                    Ok(())
                } else {
                    self.fail()
                }
            }
            [v] => {
                let holds = |a: i32| e.eval(&|_| i64::from(a)).is_some_and(|r| r != 0);
                self.filter(v, holds)
            }
            [a, b] => {
                let (x, y) = if a < b { (a, b) } else { (b, a) };
                if let Some(r) = pairs::fast(e, x, y) {
                    self.binary(x, y, Binary::Fast(r))?;
                    return Ok(());
                }
                if self.dom_len(x) * self.dom_len(y) <= PAIR_TABLE_LIMIT {
                    self.binary(x, y, Binary::Expr(e.clone()))?;
                    return Ok(());
                }
                self.nary(e)
            }
            _ => self.nary(e),
        }
    }

    /// An expression over three variables or more (or two with wide domains).
    fn nary(&mut self, e: &Expr) -> Result<()> {
        if let Some(done) = self.linear_of_functions(e)? {
            return Ok(done);
        }
        self.model.intension(e).map_err(|err| self.err(err))
    }

    /// A comparison of sums of functions (`eq(add(ge(x,1),ge(y,2),...),3)`, or a sum of
    /// `and(ne(x,11),eq(x,y))` terms bounded by an objective's variable): one auxiliary
    /// variable per function, a unary one tied to its variable by a binary table, one of a
    /// few variables by a generated table ([`Poster::var_of`]), and a linear constraint over
    /// them, with bounds consistency. Posted as one expression instead, it would be checked
    /// only once all but one of its variables are fixed. `None` when `e` has not that form
    /// (a function too large for a table, a coefficient past 64 bits).
    fn linear_of_functions(&mut self, e: &Expr) -> Result<Option<()>> {
        let Expr::Call(op, a) = e else {
            return Ok(None);
        };
        let (Some(cmp), 2) = (cmp_of(*op), a.len()) else {
            return Ok(None);
        };
        let mut terms = Vec::new();
        let mut k = 0i128;
        if linear::function_terms(&a[0], 1, &mut terms, &mut k).is_none()
            || linear::function_terms(&a[1], -1, &mut terms, &mut k).is_none()
            || terms.iter().all(|(_, t)| matches!(t, Expr::Var(_)))
            || terms.iter().any(|(c, _)| i64::try_from(*c).is_err())
        {
            return Ok(None);
        }
        // A function of several variables gets its own variable only beside another such
        // function. Alone, the comparison is left to the expression path (a generated table,
        // arc consistent, when its scope is small), and `eq(aux, f)`, which ties `f`'s own
        // auxiliary variable, must not be posted through that variable.
        let several = terms.iter().filter(|(_, t)| t.variables().len() > 1).count();
        if several == 1 {
            return Ok(None);
        }
        let mut lin = Vec::with_capacity(terms.len());
        for (c, t) in &terms {
            let v = match t {
                Expr::Var(v) => Some(*v),
                f if f.variables().len() == 1 => self.unary_aux(f)?,
                f if self.small_function(f) => self.var_of_or(f)?.ok(),
                _ => None,
            };
            match (v, i64::try_from(*c)) {
                (Some(v), Ok(c)) => lin.push((c, v)),
                _ => return Ok(None),
            }
        }
        // The coefficients of a variable met twice (`x` and `neg(x)`, or one function written
        // twice) add up: past 64 bits, the general path.
        let (Ok(rhs), true) = (i64::try_from(-k), merged_fit(&lin)) else {
            return Ok(None);
        };
        self.model.linear(&lin, cmp, rhs).map_err(|err| self.err(err))?;
        Ok(Some(()))
    }

    /// The auxiliary variable equal to `f(x)` (`f` over one variable), made on first use;
    /// values of `x` where `f` is undefined are removed. `None` when the function takes too
    /// many values or values beyond 32 bits.
    fn unary_aux(&mut self, f: &Expr) -> Result<Option<VarId>> {
        if let Some(&v) = self.aux.get(f) {
            return Ok(Some(v));
        }
        let x = f.variables()[0];
        let mut pairs = Vec::new();
        let mut undefined = Vec::new();
        for a in self.model.domain(x).values() {
            match f.eval(&|_| i64::from(a)).map(i32::try_from) {
                Some(Ok(r)) => pairs.push((a, r)),
                Some(Err(_)) => return Ok(None),
                None => undefined.push(a),
            }
        }
        let image: BTreeSet<i32> = pairs.iter().map(|p| p.1).collect();
        if image.is_empty() || image.len() > AUX_MAX_VALUES {
            return Ok(None);
        }
        // A few values spread too far apart for a domain (`if(x,2147483647,0)`): no
        // auxiliary variable, the general path instead.
        let Ok(domain) = Domain::from_values(image) else {
            return Ok(None);
        };
        for a in undefined {
            self.model.exclude(x, a).map_err(|e| self.err(e))?;
        }
        let v = self.new_aux(domain);
        self.binary(x, v, Binary::Pairs(pairs, true))?;
        self.aux.insert(f.clone(), v);
        Ok(Some(v))
    }

    /// A fresh auxiliary variable over these values.
    pub(crate) fn var_over(&mut self, values: BTreeSet<i32>) -> Result<VarId> {
        let domain = Domain::from_values(values).map_err(|e| self.err(e))?;
        Ok(self.new_aux(domain))
    }

    /// A fresh auxiliary variable over `lo..=hi`.
    pub(crate) fn new_var(&mut self, lo: i64, hi: i64) -> Result<VarId> {
        let fit = |x: i64| i32::try_from(x).map_err(|_| self.invalid(format!("{x} does not fit 32 bits")));
        let domain = Domain::range(fit(lo)?, fit(hi)?).map_err(|e| self.err(e))?;
        Ok(self.new_aux(domain))
    }

    fn new_aux(&mut self, domain: Domain) -> VarId {
        let name = format!("aux#{}", self.aux_count);
        self.aux_count += 1;
        self.model.add_named_var(name, domain)
    }

    /// A variable equal to `e`: `e` itself if it is a variable, else an auxiliary variable
    /// over the values `e` can take, tied to it by `eq(aux, e)` (made once per expression).
    pub(crate) fn var_of(&mut self, e: &Expr) -> Result<VarId> {
        self.var_of_or(e)?
    }

    /// [`Poster::var_of`], with the reason inside (`Ok(Err(...))`) when no variable can hold
    /// the values of `e`: values past 32 bits (a product of two 32-bit variables), or too far
    /// apart for a domain. A caller that can post `e` another way does so then.
    pub(crate) fn var_of_or(&mut self, e: &Expr) -> Result<Result<VarId>> {
        if let Expr::Var(v) = e {
            return Ok(Ok(*v));
        }
        if let Some(&v) = self.aux.get(e) {
            return Ok(Ok(v));
        }
        let bounds = self.check_bounds(e)?;
        let domain = if let Some(taken) = image(self.model, e) {
            let mut image = BTreeSet::new();
            for r in taken {
                let Ok(r) = i32::try_from(r) else {
                    return Ok(Err(self.invalid(format!(
                        "a value of `{}` ({r}) does not fit 32 bits",
                        self.show(e)
                    ))));
                };
                image.insert(r);
            }
            if image.is_empty() {
                // Undefined everywhere: no solution.
                self.fail()?;
                image.insert(0);
            }
            Domain::from_values(image)
        } else {
            let (lo, hi) = bounds.interval;
            let fit = |x: i128| i32::try_from(x).ok();
            match (fit(lo), fit(hi)) {
                (Some(lo), Some(hi)) => Domain::range(lo, hi),
                _ => {
                    return Ok(Err(self.invalid(format!(
                        "the values of `{}` range over {lo}..{hi}, beyond the 32-bit values a variable can take",
                        self.show(e)
                    ))));
                }
            }
        };
        let domain = match domain {
            Ok(domain) => domain,
            Err(err) => return Ok(Err(self.err(err))),
        };
        let v = self.new_aux(domain);
        self.aux.insert(e.clone(), v);
        self.intension(&Expr::Call(Op::Eq, vec![Expr::Var(v), e.clone()]))?;
        Ok(Ok(v))
    }

    /// Whether `f` is a function of at most three variables with few combinations of values:
    /// one an auxiliary variable and a generated table ([`Poster::var_of`]) capture exactly,
    /// with arc consistency.
    pub(crate) fn small_function(&self, f: &Expr) -> bool {
        let vars = f.variables();
        vars.len() <= 3
            && vars
                .iter()
                .fold(1u128, |n, &v| n.saturating_mul(self.dom_len(v) as u128))
                <= AUX_ENUMERATION
    }

    /// Variables for each expression of a list.
    pub(crate) fn vars_of(&mut self, items: &[Expr]) -> Result<Vec<VarId>> {
        items.iter().map(|e| self.var_of(e)).collect()
    }

    /// Posts `lhs cond`, where `lhs` is an expression.
    pub(crate) fn condition(&mut self, lhs: Expr, cond: &Condition) -> Result<()> {
        self.intension(&cond.applied_to(lhs))
    }

    /// A fresh variable over `lo..=hi` restricted by `cond` (`var cond` holds), or the
    /// condition's own variable when the condition is `(eq, y)`: for counts, loads and the
    /// like that a global constraint defines and the condition then bounds.
    pub(crate) fn var_under(&mut self, lo: i64, hi: i64, cond: &Condition) -> Result<VarId> {
        self.var_restricted(cond, |p| p.new_var(lo, hi))
    }

    /// [`Poster::var_under`] over `values` instead of an interval.
    pub(crate) fn var_over_under(&mut self, values: BTreeSet<i32>, cond: &Condition) -> Result<VarId> {
        self.var_restricted(cond, |p| p.var_over(values))
    }

    fn var_restricted(
        &mut self,
        cond: &Condition,
        fresh: impl FnOnce(&mut Self) -> Result<VarId>,
    ) -> Result<VarId> {
        if let (CmpOp::Eq, Operand::Var(y)) = (cond.op, &cond.operand) {
            return Ok(*y);
        }
        let v = fresh(self)?;
        self.condition(Expr::Var(v), cond)?;
        Ok(v)
    }
}

/// The values `e` takes where it is defined, over the domains of its variables, or `None`
/// when these have more than [`AUX_ENUMERATION`] combinations.
pub(crate) fn image(model: &Model, e: &Expr) -> Option<BTreeSet<i128>> {
    let vars = e.variables();
    let combinations = vars
        .iter()
        .fold(1u128, |p, &v| p.saturating_mul(model.domain(v).len() as u128));
    if combinations > AUX_ENUMERATION {
        return None;
    }
    let domains: Vec<Vec<i32>> = vars.iter().map(|&v| model.domain(v).values().collect()).collect();
    let mut image = BTreeSet::new();
    let mut at = vec![0usize; vars.len()];
    let mut values: HashMap<VarId, i64> = HashMap::new();
    'odometer: loop {
        for (k, &v) in vars.iter().enumerate() {
            values.insert(v, i64::from(domains[k][at[k]]));
        }
        if let Some(r) = e.eval(&|v| values[&v]) {
            image.insert(r);
        }
        for k in (0..vars.len()).rev() {
            at[k] += 1;
            if at[k] < domains[k].len() {
                continue 'odometer;
            }
            at[k] = 0;
        }
        return Some(image);
    }
}

/// Linear forms of expressions.
pub(crate) mod linear {
    use csp_core::{Expr, VarId};

    use crate::condition::Op;

    /// Adds `scale * e` to `terms` and `k` when `e` is a linear combination of terms, each a
    /// variable or a function of some variables that is not itself a sum, difference,
    /// negation or product by a constant.
    pub(crate) fn function_terms(
        e: &Expr,
        scale: i128,
        terms: &mut Vec<(i128, Expr)>,
        k: &mut i128,
    ) -> Option<()> {
        match e {
            Expr::Const(c) => *k = k.checked_add(i128::from(*c).checked_mul(scale)?)?,
            Expr::Call(Op::Add, a) => {
                for x in a {
                    function_terms(x, scale, terms, k)?;
                }
            }
            Expr::Call(Op::Sub, a) => {
                function_terms(&a[0], scale, terms, k)?;
                function_terms(&a[1], scale.checked_neg()?, terms, k)?;
            }
            Expr::Call(Op::Neg, a) => function_terms(&a[0], scale.checked_neg()?, terms, k)?,
            Expr::Call(Op::Mul, a)
                if a.len() == 2 && matches!(a[0], Expr::Const(_)) != matches!(a[1], Expr::Const(_)) =>
            {
                let ((Expr::Const(c), other) | (other, Expr::Const(c))) = (&a[0], &a[1]) else {
                    return None;
                };
                function_terms(other, scale.checked_mul(i128::from(*c))?, terms, k)?;
            }
            other => {
                if other.variables().is_empty() {
                    return None;
                }
                terms.push((scale, other.clone()));
            }
        }
        Some(())
    }

    /// `e` as `sum(c * x) + k`, if it is linear with 64-bit coefficients.
    pub(crate) fn linear(e: &Expr) -> Option<(Vec<(i64, VarId)>, i128)> {
        fn go(e: &Expr, scale: i128, terms: &mut Vec<(i128, VarId)>, k: &mut i128) -> Option<()> {
            match e {
                Expr::Const(c) => *k = k.checked_add(i128::from(*c).checked_mul(scale)?)?,
                Expr::Var(v) => terms.push((scale, *v)),
                Expr::Call(Op::Add, a) => {
                    for x in a {
                        go(x, scale, terms, k)?;
                    }
                }
                Expr::Call(Op::Sub, a) => {
                    go(&a[0], scale, terms, k)?;
                    go(&a[1], scale.checked_neg()?, terms, k)?;
                }
                Expr::Call(Op::Neg, a) => go(&a[0], scale.checked_neg()?, terms, k)?,
                Expr::Call(Op::Mul, a) => {
                    let mut factor = scale;
                    let mut rest = None;
                    for x in a {
                        match x {
                            Expr::Const(c) => factor = factor.checked_mul(i128::from(*c))?,
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
        let mut merged: Vec<(i128, VarId)> = Vec::with_capacity(terms.len());
        for (c, v) in terms {
            match merged.iter_mut().find(|(_, w)| *w == v) {
                Some(t) => t.0 = t.0.checked_add(c)?,
                None => merged.push((c, v)),
            }
        }
        merged.retain(|t| t.0 != 0);
        let terms = merged
            .into_iter()
            .map(|(c, v)| Some((i64::try_from(c).ok()?, v)))
            .collect::<Option<Vec<_>>>()?;
        Some((terms, k))
    }
}

/// Whether the coefficients of `terms`, added up per variable, fit 64 bits (as
/// [`Model::linear`] needs them).
fn merged_fit(terms: &[(i64, VarId)]) -> bool {
    let mut merged: HashMap<VarId, i128> = HashMap::with_capacity(terms.len());
    for &(c, v) in terms {
        *merged.entry(v).or_insert(0) += i128::from(c);
    }
    merged.values().all(|&c| i64::try_from(c).is_ok())
}

/// The csp-core comparison of an expression operator.
pub(crate) fn cmp_of(op: Op) -> Option<Cmp> {
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

/// The csp-core comparison of a condition operator (`in` and `notin` of one value as `eq`
/// and `ne`).
pub(crate) fn cmp_of_condition(op: CmpOp) -> Cmp {
    match op {
        CmpOp::Lt => Cmp::Lt,
        CmpOp::Le => Cmp::Le,
        CmpOp::Ge => Cmp::Ge,
        CmpOp::Gt => Cmp::Gt,
        CmpOp::Eq | CmpOp::In => Cmp::Eq,
        CmpOp::Ne | CmpOp::NotIn => Cmp::Ne,
    }
}
