//! Posting the n-ary constraint families of files such as XCSP3: tables, linear sums,
//! element and intension (see `crate::constraints`).

use std::collections::HashSet;

use crate::constraints::checker::Checker;
use crate::constraints::element::{Element, Operand};
use crate::constraints::expression::Expr;
use crate::constraints::expression::compile::{SMALL_ARITY, SMALL_PRODUCT, post_intension};
use crate::constraints::linear::{Linear, LinearKind};
use crate::constraints::table::{Table, Tuples};
use crate::constraints::{Cmp, TableCell, check_scope};
use crate::error::ModelError;
use crate::model::Model;
use crate::propagation::Propagator;
use crate::relation::Relation;
use crate::var::VarId;

/// The most words of bitsets a table built by the engine itself may take (512 KiB).
const MAX_TABLE_WORDS: u128 = 1 << 16;
/// The most value pairs a binary table with `*` or of conflicts is expanded to for the
/// binary network (each pair is looked up in the table: some milliseconds).
const MAX_PAIRS: u128 = 1 << 18;

impl Model {
    /// Posts a table (extension) constraint: the values of `vars` must form one of `tuples`
    /// (`supports`), or none of them (conflicts). A [`TableCell::Any`] cell (`*`) stands
    /// for every value. A variable may appear several times in `vars`; values outside a
    /// variable's domain are ignored.
    ///
    /// Tables get generalised arc consistency by bitsets over their tuples; binary ones go
    /// to the binary network (as [`Relation::Table`]) when their domains are small enough.
    ///
    /// ```
    /// use csp_core::{Model, SearchConfig, Solver, TableCell::{Any, Value}};
    /// let mut m = Model::new();
    /// let v = m.int_vars(3, 0, 2).unwrap();
    /// m.table(&v, vec![vec![Value(0), Any, Value(1)], vec![Value(2), Value(2), Value(2)]], true).unwrap();
    /// assert_eq!(Solver::new(&m, SearchConfig::default()).unwrap().count().solutions, 4);
    /// ```
    pub fn table(
        &mut self,
        vars: &[VarId],
        tuples: Vec<Vec<TableCell>>,
        supports: bool,
    ) -> Result<(), ModelError> {
        check_scope("table", vars.iter().copied(), self.num_vars())?;
        if let Some(t) = tuples.iter().find(|t| t.len() != vars.len()) {
            return Err(ModelError::LengthMismatch {
                what: "table tuple",
                expected: vars.len(),
                found: t.len(),
            });
        }
        let mut scope: Vec<VarId> = Vec::new();
        let local: Vec<usize> = vars
            .iter()
            .map(|v| {
                scope.iter().position(|u| u == v).unwrap_or_else(|| {
                    scope.push(*v);
                    scope.len() - 1
                })
            })
            .collect();
        let mut rows: Vec<Vec<Option<i32>>> = Vec::with_capacity(tuples.len());
        'tuples: for tuple in tuples {
            let mut row = vec![None; scope.len()];
            for (cell, &p) in tuple.iter().zip(&local) {
                if let TableCell::Value(a) = *cell {
                    // A value no variable can take, or two values for one variable: the tuple
                    // never matches.
                    if !self.domain(scope[p]).contains(a) || row[p].is_some_and(|b| b != a) {
                        continue 'tuples;
                    }
                    row[p] = Some(a);
                }
            }
            rows.push(row);
        }
        self.post_table_rows(scope, rows, !supports)
    }

    /// [`Model::table`] with tuples prepared once ([`Tuples`]) and shared by every
    /// constraint posted with them: the bitsets over the tuples are built once, not once per
    /// scope. Values outside a variable's domain are allowed in the tuples (such tuples
    /// never match).
    pub fn table_shared(
        &mut self,
        vars: &[VarId],
        tuples: &Tuples,
        supports: bool,
    ) -> Result<(), ModelError> {
        check_scope("table", vars.iter().copied(), self.num_vars())?;
        if vars.len() != tuples.arity() {
            return Err(ModelError::LengthMismatch {
                what: "table scope",
                expected: tuples.arity(),
                found: vars.len(),
            });
        }
        let distinct = vars.iter().enumerate().all(|(i, v)| !vars[..i].contains(v));
        let short_conflicts = !supports && tuples.data.has_star();
        if distinct && vars.len() > 2 && !short_conflicts {
            let mut table = Table::shared(vars.to_vec(), tuples.data.clone(), !supports);
            self.restrict_to_table(&mut table)?;
            self.add_propagator(table)?;
            return Ok(());
        }
        // Small, repeated or short conflicts: as a table of its own.
        self.table(vars, tuples.iter().collect(), supports)
    }

    /// Posts `sum(c * x for (c, x) in terms) cmp rhs`. A variable may appear in several
    /// terms. Bounds consistency for `<`, `<=`, `>=`, `>` and `==`; `!=` is exact once all
    /// but one variable are fixed. Two variables with coefficients 1 and -1 become a binary
    /// relation where one matches (`x - y != c` is `x != y + c`), and small scopes (three
    /// variables or fewer, at most 100,000 combinations) a table.
    ///
    /// ```
    /// use csp_core::{Cmp, Model, SearchConfig, Solver};
    /// let mut m = Model::new();
    /// let v = m.int_vars(4, 0, 3).unwrap();
    /// m.linear(&[(1, v[0]), (2, v[1]), (3, v[2]), (-1, v[3])], Cmp::Eq, 10).unwrap();
    /// let mut solver = Solver::new(&m, SearchConfig::default()).unwrap();
    /// for s in solver.solutions() {
    ///     assert_eq!(s[0] + 2 * s[1] + 3 * s[2] - s[3], 10);
    /// }
    /// ```
    pub fn linear(&mut self, terms: &[(i64, VarId)], cmp: Cmp, rhs: i64) -> Result<(), ModelError> {
        let rhs = i128::from(rhs);
        let kind = match cmp {
            Cmp::Lt => LinearKind::Range(i128::MIN, rhs - 1),
            Cmp::Le => LinearKind::Range(i128::MIN, rhs),
            Cmp::Ge => LinearKind::Range(rhs, i128::MAX),
            Cmp::Gt => LinearKind::Range(rhs + 1, i128::MAX),
            Cmp::Eq => LinearKind::Range(rhs, rhs),
            Cmp::Ne => LinearKind::Ne(rhs),
        };
        self.post_linear_kind("sum", terms, kind)
    }

    /// Posts `sum(c * x for (c, x) in terms) cmp rhs` for a variable `rhs`.
    pub fn linear_var(&mut self, terms: &[(i64, VarId)], cmp: Cmp, rhs: VarId) -> Result<(), ModelError> {
        let mut all = terms.to_vec();
        all.push((-1, rhs));
        self.linear(&all, cmp, 0)
    }

    /// Posts that `sum(c * x for (c, x) in terms)` is one of `values` (`inside`), or none of
    /// them. Exact once all but one variable are fixed; `inside` also prunes by the bounds
    /// of `values`.
    pub fn linear_in(
        &mut self,
        terms: &[(i64, VarId)],
        values: &[i64],
        inside: bool,
    ) -> Result<(), ModelError> {
        let mut set: Vec<i128> = values.iter().map(|&v| i128::from(v)).collect();
        set.sort_unstable();
        set.dedup();
        let kind = match (inside, set.is_empty()) {
            (true, true) => LinearKind::Range(1, 0),
            (true, false) => LinearKind::In(set),
            (false, _) => LinearKind::NotIn(set),
        };
        self.post_linear_kind("sum", terms, kind)
    }

    /// Posts that `sum(c * x for (c, x) in terms)` lies in `lo..=hi` (`inside`, with bounds
    /// consistency), or outside it (exact once all but one variable are fixed).
    pub fn linear_range(
        &mut self,
        terms: &[(i64, VarId)],
        lo: i64,
        hi: i64,
        inside: bool,
    ) -> Result<(), ModelError> {
        let (lo, hi) = (i128::from(lo), i128::from(hi));
        let kind = if inside {
            LinearKind::Range(lo, hi)
        } else {
            LinearKind::Outside(lo, hi)
        };
        self.post_linear_kind("sum", terms, kind)
    }

    /// Posts `list[index - start] == value`. The entries of `list` and `value` must be
    /// [`Expr::Var`] or [`Expr::Const`]. Generalised arc consistency on the index and the
    /// value.
    ///
    /// ```
    /// use csp_core::{Expr, Model, SearchConfig, Solver};
    /// let mut m = Model::new();
    /// let i = m.int_var(0, 5).unwrap();
    /// let x = m.int_var(0, 9).unwrap();
    /// let list: Vec<Expr> = [3, 1, 4, 1, 5, 9].into_iter().map(Expr::Const).collect();
    /// m.element(&list, i, 1, Expr::Var(x)).unwrap(); // list[i - 1] == x
    /// m.fix(x, 1).unwrap();
    /// let mut solver = Solver::new(&m, SearchConfig::default()).unwrap();
    /// assert_eq!(solver.solutions().collect::<Vec<_>>(), vec![vec![2, 1], vec![4, 1]]);
    /// ```
    pub fn element(
        &mut self,
        list: &[Expr],
        index: VarId,
        start: i64,
        value: Expr,
    ) -> Result<(), ModelError> {
        let invalid = |reason: String| ModelError::InvalidConstraint {
            constraint: "element",
            reason,
        };
        if list.is_empty() {
            return Err(invalid("the list is empty".to_string()));
        }
        let mut scope = vec![index];
        let operand = |e: &Expr, scope: &mut Vec<VarId>| match e {
            Expr::Const(c) => Ok(Operand::Const(*c)),
            Expr::Var(v) => Ok(Operand::Var(scope.iter().position(|u| u == v).unwrap_or_else(
                || {
                    scope.push(*v);
                    scope.len() - 1
                },
            ))),
            other => Err(invalid(format!("expected a variable or an integer, got {other}"))),
        };
        let entries = list
            .iter()
            .map(|e| operand(e, &mut scope))
            .collect::<Result<Vec<_>, _>>()?;
        let value = operand(&value, &mut scope)?;
        check_scope("element", scope.iter().copied(), self.num_vars())?;
        // Index values past the list, ruled out at posting (`start` may be any 64-bit
        // integer: the difference is checked, as in the propagator).
        let len = entries.len() as i64;
        self.restrict(index, |i| {
            i64::from(i)
                .checked_sub(start)
                .is_some_and(|p| (0..len).contains(&p))
        })?;
        self.add_propagator(Element::new(scope, 0, start, entries, value))?;
        Ok(())
    }

    /// Posts an intension constraint: `expr` must be defined and non-zero (see [`Expr`] and
    /// [`crate::ExprOp`] for the semantics). How it is propagated depends on its shape:
    /// unary ones filter the domain at posting; `x != y + c`, `x == y + c`, `x < y`,
    /// `x <= y`, `|x - y| != c` become binary relations; other linear ones linear sums;
    /// small scopes a table of their solutions; the rest a checker with forward checking.
    ///
    /// ```
    /// use csp_core::{Expr, ExprOp::*, Model, SearchConfig, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var(0, 9).unwrap();
    /// let y = m.int_var(0, 9).unwrap();
    /// // x * y == 12 and x < y
    /// let e = Expr::call(And, vec![
    ///     Expr::call(Eq, vec![Expr::call(Mul, vec![Expr::Var(x), Expr::Var(y)]), Expr::Const(12)]),
    ///     Expr::call(Lt, vec![Expr::Var(x), Expr::Var(y)]),
    /// ]);
    /// m.intension(&e).unwrap();
    /// let mut solver = Solver::new(&m, SearchConfig::default()).unwrap();
    /// assert_eq!(solver.solutions().collect::<Vec<_>>(), vec![vec![2, 6], vec![3, 4]]);
    /// ```
    pub fn intension(&mut self, expr: &Expr) -> Result<(), ModelError> {
        post_intension(self, expr)
    }

    // ----- shared by the constraint families -----

    /// [`ModelError::UnknownVariable`] unless `var` belongs to the model.
    pub(crate) fn validate_var(&self, var: VarId) -> Result<(), ModelError> {
        self.check_var(var)
    }

    /// A constraint that never holds: the model has no solution.
    pub(crate) fn post_false(&mut self, constraint: &'static str) -> Result<(), ModelError> {
        let Some(first) = self.var(0) else {
            return Err(ModelError::InvalidConstraint {
                constraint,
                reason: "the constraint never holds, and the model has no variable".to_string(),
            });
        };
        self.add_propagator(Checker::new(vec![first], constraint, Box::new(|_| false)))?;
        Ok(())
    }

    /// Excludes, at posting, the values of `var` for which `keep` is false.
    pub(crate) fn restrict(&mut self, var: VarId, keep: impl Fn(i32) -> bool) -> Result<(), ModelError> {
        self.check_var(var)?;
        let domain = self.domain(var).clone();
        let base = i64::from(domain.base());
        let mut chunk: Option<(i64, u64)> = None;
        for a in domain.values() {
            if keep(a) {
                continue;
            }
            let k = (i64::from(a) - base) / 64;
            match &mut chunk {
                Some((c, bits)) if *c == k => *bits |= 1 << ((i64::from(a) - base) % 64),
                _ => {
                    if let Some((c, bits)) = chunk.take() {
                        self.exclude_bits(var, (base + 64 * c) as i32, bits)?;
                    }
                    chunk = Some((k, 1 << ((i64::from(a) - base) % 64)));
                }
            }
        }
        if let Some((c, bits)) = chunk {
            self.exclude_bits(var, (base + 64 * c) as i32, bits)?;
        }
        Ok(())
    }

    /// The number of combinations of the variables' initial values (saturating).
    fn combinations(&self, vars: &[VarId]) -> u128 {
        vars.iter()
            .fold(1u128, |p, &v| p.saturating_mul(self.domain(v).len() as u128))
    }

    /// Whether a scope is small enough to enumerate into a table.
    pub(crate) fn small_scope(&self, vars: &[VarId]) -> bool {
        vars.len() <= SMALL_ARITY && self.combinations(vars) <= SMALL_PRODUCT
    }

    /// Whether `x` and `y` can take a binary table of the network: no relation on the pair
    /// yet (a second relation would make the pair's check a scan), and a support matrix of
    /// reasonable size.
    fn binary_table_fits(&self, x: VarId, y: VarId) -> bool {
        let key = if x < y { (x, y) } else { (y, x) };
        !self.pairs().contains_key(&key) && self.binary_matrix_fits(x, y)
    }

    /// Whether a support matrix between `x` and `y` stays within [`MAX_TABLE_WORDS`].
    fn binary_matrix_fits(&self, x: VarId, y: VarId) -> bool {
        let span = |v: VarId| {
            let d = self.domain(v);
            (i64::from(d.max()) - i64::from(d.base()) + 1) as u128
        };
        span(x) * span(y).div_ceil(64) <= MAX_TABLE_WORDS
    }

    /// Posts, as a table, the combinations of initial values of `vars` (a small scope) that
    /// pass `test`, if that table stays small ([`MAX_TABLE_WORDS`]); returns whether it did.
    pub(crate) fn try_generated_table(
        &mut self,
        vars: &[VarId],
        test: &dyn Fn(&[i32]) -> bool,
    ) -> Result<bool, ModelError> {
        if let [x, y] = vars[..] {
            if !self.binary_matrix_fits(x, y) {
                return Ok(false);
            }
        }
        let domains: Vec<Vec<i32>> = vars.iter().map(|&v| self.domain(v).values().collect()).collect();
        let mut rows = Vec::new();
        let mut at = vec![0usize; vars.len()];
        let mut values: Vec<i32> = domains.iter().map(|d| d[0]).collect();
        'odometer: loop {
            if test(&values) {
                rows.push(values.iter().map(|&a| Some(a)).collect());
            }
            for p in (0..vars.len()).rev() {
                at[p] += 1;
                if at[p] < domains[p].len() {
                    values[p] = domains[p][at[p]];
                    continue 'odometer;
                }
                at[p] = 0;
                values[p] = domains[p][0];
            }
            break;
        }
        // Every combination holds: the constraint is entailed by the domains (which only
        // shrink), so no table is kept for it.
        if rows.len() as u128 == self.combinations(vars) {
            return Ok(true);
        }
        let binary = matches!(vars, [x, y] if self.binary_table_fits(*x, *y));
        if !binary && !self.table_fits(vars, &rows) {
            return Ok(false);
        }
        self.post_table_rows(vars.to_vec(), rows, false)?;
        Ok(true)
    }

    /// Whether a table of `rows` over `vars` stays within [`MAX_TABLE_WORDS`].
    fn table_fits(&self, vars: &[VarId], rows: &[Vec<Option<i32>>]) -> bool {
        let words = (rows.len() as u128).div_ceil(64);
        let values: u128 = vars.iter().map(|&v| self.domain(v).len() as u128).sum();
        values * words <= MAX_TABLE_WORDS
    }

    /// Posts a table over the distinct `scope`, its rows restricted to the domains.
    fn post_table_rows(
        &mut self,
        scope: Vec<VarId>,
        rows: Vec<Vec<Option<i32>>>,
        negative: bool,
    ) -> Result<(), ModelError> {
        let has_star = rows.iter().any(|r| r.iter().any(Option::is_none));
        if let [x] = scope[..] {
            let any = rows.iter().any(|r| r[0].is_none());
            let listed: HashSet<i32> = rows.iter().filter_map(|r| r[0]).collect();
            return self.restrict(x, |a| (any || listed.contains(&a)) != negative);
        }
        if let [x, y] = scope[..] {
            if !negative && !has_star && self.binary_table_fits(x, y) {
                // The pairs as they are (the rows hold domain values only).
                let pairs = rows.iter().filter_map(|r| Some((r[0]?, r[1]?)));
                return self.post(x, y, Relation::table(pairs));
            }
            if self.combinations(&scope) <= MAX_PAIRS && self.binary_table_fits(x, y) {
                let mut exact: HashSet<(i32, i32)> = HashSet::new();
                let (mut any_x, mut any_y, mut any) = (HashSet::new(), HashSet::new(), false);
                for r in &rows {
                    match (r[0], r[1]) {
                        (Some(a), Some(b)) => {
                            exact.insert((a, b));
                        }
                        (None, Some(b)) => {
                            any_x.insert(b);
                        }
                        (Some(a), None) => {
                            any_y.insert(a);
                        }
                        (None, None) => any = true,
                    }
                }
                let mut pairs = Vec::new();
                for a in self.domain(x).values() {
                    for b in self.domain(y).values() {
                        let listed =
                            any || exact.contains(&(a, b)) || any_x.contains(&b) || any_y.contains(&a);
                        if listed != negative {
                            pairs.push((a, b));
                        }
                    }
                }
                return self.post(x, y, Relation::table(pairs));
            }
        }
        if negative && has_star {
            // Counting conflicts needs them disjoint; `*` breaks that. Few combinations
            // become supports, more a checker.
            let conflicts = Table::new(scope.clone(), rows, true);
            if self.combinations(&scope) <= SMALL_PRODUCT
                && self.try_generated_table(&scope, &|values| conflicts.check_values(values))?
            {
                return Ok(());
            }
            let bytes = conflicts.heap_bytes();
            self.add_propagator(
                Checker::new(
                    scope,
                    "conflicts table",
                    Box::new(move |values| conflicts.check_values(values)),
                )
                .holding(bytes),
            )?;
            return Ok(());
        }
        let mut table = Table::new(scope, rows, negative);
        self.restrict_to_table(&mut table)?;
        self.add_propagator(table)?;
        Ok(())
    }

    /// Supports: keeps, at posting, only the values some tuple holds (or all, where a tuple
    /// has `*`). Forward checking never runs a constraint before one of its variables is
    /// assigned; this way it never tries a value that no tuple has.
    fn restrict_to_table(&mut self, table: &mut Table) -> Result<(), ModelError> {
        for p in 0..table.variables().len() {
            let var = table.variables()[p];
            if let Some(held) = table.held_values(p) {
                if self.domain(var).values().any(|a| held.binary_search(&a).is_err()) {
                    let held = held.to_vec();
                    self.restrict(var, |a| held.binary_search(&a).is_ok())?;
                }
                table.declare_within(p);
            }
        }
        Ok(())
    }

    /// Posts `sum(terms) kind`: merged terms, then by size: constant, unary filtering, a
    /// binary relation, a table, or the linear propagator.
    pub(crate) fn post_linear_kind(
        &mut self,
        constraint: &'static str,
        terms: &[(i64, VarId)],
        kind: LinearKind,
    ) -> Result<(), ModelError> {
        check_scope(constraint, terms.iter().map(|t| t.1), self.num_vars())?;
        let mut merged: Vec<(i128, VarId)> = Vec::new();
        for &(c, v) in terms {
            match merged.iter_mut().find(|t| t.1 == v) {
                Some(t) => t.0 += i128::from(c),
                None => merged.push((i128::from(c), v)),
            }
        }
        merged.retain(|t| t.0 != 0);
        let mut coefs = Vec::with_capacity(merged.len());
        let mut vars = Vec::with_capacity(merged.len());
        for (c, v) in merged {
            coefs.push(i64::try_from(c).map_err(|_| ModelError::Arithmetic {
                constraint,
                reason: format!("the coefficient of {} leaves the 64-bit integers", self.name(v)),
            })?);
            vars.push(v);
        }
        let holds = {
            let (coefs, kind) = (coefs.clone(), kind.clone());
            move |values: &[i32]| {
                kind.holds(
                    coefs
                        .iter()
                        .zip(values)
                        .map(|(&c, &a)| i128::from(c) * i128::from(a))
                        .sum(),
                )
            }
        };
        match vars[..] {
            [] => {
                return if kind.holds(0) {
                    Ok(())
                } else {
                    self.post_false(constraint)
                };
            }
            [x] => return self.restrict(x, |a| holds(&[a])),
            [x, y] => {
                if let Some(relations) = binary_relations(coefs[0], coefs[1], &kind) {
                    for (first, r) in relations {
                        let (a, b) = if first { (x, y) } else { (y, x) };
                        self.post(a, b, r)?;
                    }
                    return Ok(());
                }
            }
            _ => {}
        }
        if self.small_scope(&vars) && self.try_generated_table(&vars, &holds)? {
            return Ok(());
        }
        let initial = vars
            .iter()
            .map(|&v| {
                // The bounds from the bitset's ends: walking millions of values per variable
                // made reading a model of wide domains take minutes.
                let d = self.domain(v);
                (d.min(), d.max())
            })
            .collect();
        self.add_propagator(Linear::new(vars, coefs, kind, initial))?;
        Ok(())
    }
}

/// The binary relations equivalent to `a * x + b * y kind`, each with `true` when posted
/// on `(x, y)` and `false` on `(y, x)`; `None` when none matches.
fn binary_relations(a: i64, b: i64, kind: &LinearKind) -> Option<Vec<(bool, Relation)>> {
    // d = first - second, with `first` true when d = x - y.
    let first = match (a, b) {
        (1, -1) => true,
        (-1, 1) => false,
        _ => return None,
    };
    let offset = |c: i128| i32::try_from(c).ok();
    match *kind {
        LinearKind::Range(lo, hi) if lo == hi => {
            let c = offset(lo)?;
            Some(vec![(
                first,
                if c == 0 {
                    Relation::Equal
                } else {
                    Relation::EqualOffset(c)
                },
            )])
        }
        // d <= 0, d <= -1.
        LinearKind::Range(i128::MIN, 0) => Some(vec![(first, Relation::LessEq)]),
        LinearKind::Range(i128::MIN, -1) => Some(vec![(first, Relation::Less)]),
        // d >= 0, d >= 1: the other way round.
        LinearKind::Range(0, i128::MAX) => Some(vec![(!first, Relation::LessEq)]),
        LinearKind::Range(1, i128::MAX) => Some(vec![(!first, Relation::Less)]),
        LinearKind::Ne(c) => {
            let c = offset(c)?;
            Some(vec![(
                first,
                if c == 0 {
                    Relation::NotEqual
                } else {
                    Relation::NotEqualOffset(c)
                },
            )])
        }
        LinearKind::NotIn(ref set) if !set.is_empty() && set.len() <= 8 => set
            .iter()
            .map(|&c| offset(c).map(|c| (first, Relation::NotEqualOffset(c))))
            .collect(),
        _ => None,
    }
}
