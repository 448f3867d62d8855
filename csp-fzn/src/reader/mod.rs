//! From the parsed file to a [`csp_core::Model`]: names resolved, equal variables merged,
//! domains settled (bounds inferred where the file gives none), one model variable per
//! class of equal variables (named as in the file; the search annotation's variables
//! first), then the constraints posted.

pub(crate) mod bounds;
pub(crate) mod symbols;

use csp_core::{Domain, MAX_DOMAIN_SPAN, Model};

use crate::ast::{Ast, Expr, Goal as AstGoal};
use crate::error::{Error, Result};
use crate::limits::ReadLimits;
use crate::output::Output;
use crate::post::{Poster, Term};
use crate::search::SearchSpec;
use crate::set::IntSet;
use bounds::{Bounds, INF};
use symbols::{PreTerm, Symbols};

/// What to solve for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Any solution (or all of them).
    Satisfy,
    /// The smallest value of the term.
    Minimize(Term),
    /// The largest value of the term.
    Maximize(Term),
}

/// A FlatZinc model read into csp.
#[derive(Debug)]
pub struct Instance {
    /// The model: one variable per class of equal FlatZinc variables that is not fixed
    /// (named after a variable of the class, preferring one the modeller wrote), then the
    /// fixed variables some propagators need for constants, and auxiliary ones.
    pub model: Model,
    /// Set when reading found that the model has no solution (a constraint that never
    /// holds, an empty domain): why, with the line.
    pub unsat: Option<String>,
    /// What to print for each solution.
    pub outputs: Vec<Output>,
    /// What to solve for.
    pub goal: Goal,
    /// The search annotations, as csp follows them.
    pub search: SearchSpec,
    /// Model variables made for integer and Boolean FlatZinc variables.
    pub int_vars: usize,
    /// See [`Instance::int_vars`].
    pub bool_vars: usize,
    /// Constraint items in the file.
    pub constraints: usize,
}

/// The widest domain csp holds, as an `i128` span.
const MAX_SPAN: i128 = MAX_DOMAIN_SPAN as i128;

/// Reads a parsed model within `limits` (the deadline and the cancel flag, checked as the
/// constraints are posted).
pub fn read_within(ast: &Ast, limits: &ReadLimits) -> Result<Instance> {
    let mut sym = Symbols::read(&ast.decls)?;

    // Equal variables become one: `bool2int(b, i)`, `int_eq(x, y)`, `bool_eq(a, b)`.
    let mut merged = vec![false; ast.constraints.len()];
    for (i, c) in ast.constraints.iter().enumerate() {
        if matches!(c.name.as_str(), "bool2int" | "int_eq" | "bool_eq") && c.args.len() == 2 {
            if let (Ok(PreTerm::Var(a)), Ok(PreTerm::Var(b))) =
                (sym.pre_term(&c.args[0], c.pos), sym.pre_term(&c.args[1], c.pos))
            {
                sym.union(a, b);
                merged[i] = true;
            }
        }
    }

    sym.compress();

    // The domain of each class: the intersection of its members'.
    let n = sym.vars.len();
    let mut domains: Vec<Option<IntSet>> = vec![None; n];
    let mut is_bool = vec![false; n];
    // The class's name: the first member the modeller wrote, if any.
    let mut name_of: Vec<usize> = (0..n).collect();
    for v in 0..n {
        let r = sym.root(v);
        if sym.vars[name_of[r]].introduced && !sym.vars[v].introduced {
            name_of[r] = v;
        }
        is_bool[r] |= sym.vars[v].is_bool;
        if let Some(d) = &sym.vars[v].domain {
            domains[r] = Some(match domains[r].take() {
                None => d.clone(),
                Some(e) => e.intersect(d),
            });
        }
    }
    let span = |d: &IntSet| match (d.min(), d.max()) {
        (Some(lo), Some(hi)) => i128::from(hi) - i128::from(lo) + 1,
        _ => 0,
    };
    let roots: Vec<usize> = (0..n).filter(|&v| sym.root(v) == v).collect();
    let needy: Vec<bool> = (0..n)
        .map(|v| sym.root(v) == v && domains[v].as_ref().is_none_or(|d| span(d) > MAX_SPAN))
        .collect();
    let found = Bounds::new(&sym, &domains, needy.clone()).infer(&ast.constraints);
    for &r in &roots {
        if !needy[r] {
            continue;
        }
        let iv = found[r];
        let info = &sym.vars[r];
        if iv.lo <= -INF || iv.hi >= INF {
            return Err(Error::unsupported(
                info.pos,
                format!(
                    "`{}` has no bounds csp can use{} and its constraints do not bound it: csp's domains are finite \
                     (at most {MAX_DOMAIN_SPAN} values); give it bounds in the model",
                    info.name,
                    if domains[r].is_some() {
                        " (its domain is too wide)"
                    } else {
                        ""
                    }
                ),
            ));
        }
        let range = IntSet::range(
            iv.lo.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64,
            iv.hi.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64,
        );
        domains[r] = Some(match domains[r].take() {
            None => range,
            Some(d) => d.intersect(&range),
        });
    }

    let search = SearchSpec::read(&sym, &ast.solve.anns, ast.solve.pos.line);

    // Model variables: the annotated ones first, in the annotation's order.
    let mut order: Vec<usize> = search.vars.iter().map(|&v| sym.root(v)).collect();
    order.extend(roots.iter().copied());
    let mut made = vec![false; n];
    let mut terms_by_root: Vec<Term> = vec![Term::Const(0); n];
    let mut model = Model::new();
    let mut unsat: Option<String> = None;
    let (mut int_vars, mut bool_vars) = (0, 0);
    for r in order {
        if std::mem::replace(&mut made[r], true) {
            continue;
        }
        let d = domains[r].clone().unwrap_or_default();
        let info = &sym.vars[r];
        if d.is_empty() {
            unsat.get_or_insert(format!(
                "line {}: `{}` has an empty domain",
                info.pos.line, info.name
            ));
            continue;
        }
        let (lo, hi) = (d.min().unwrap_or(0), d.max().unwrap_or(0));
        if lo == hi {
            terms_by_root[r] = Term::Const(lo);
            continue;
        }
        let fits = |x: i64| i32::try_from(x).is_ok();
        if !fits(lo) || !fits(hi) || span(&d) > MAX_SPAN {
            return Err(Error::unsupported(
                info.pos,
                format!(
                    "`{}` has the domain {lo}..{hi}: csp's domains are 32-bit values, at most {MAX_DOMAIN_SPAN} wide",
                    info.name
                ),
            ));
        }
        let domain = if d.ranges().len() == 1 {
            Domain::range(lo as i32, hi as i32)
        } else {
            Domain::from_values(d.values().map(|v| v as i32))
        }
        .map_err(|e| Error::invalid(info.pos, format!("`{}`: {e}", info.name)))?;
        terms_by_root[r] = Term::Var(model.add_named_var(sym.vars[name_of[r]].name.clone(), domain));
        if is_bool[r] {
            bool_vars += 1;
        } else {
            int_vars += 1;
        }
    }
    let terms: Vec<Term> = (0..n).map(|v| terms_by_root[sym.root(v)]).collect();

    let mut poster = Poster::new(&mut model, &sym, &terms);
    for (c, merged) in ast.constraints.iter().zip(merged) {
        // The clock is read at every constraint: posting one can take milliseconds (a
        // table, a large linear sum).
        if let Some(kind) = limits.reached() {
            return Err(Error::Limit(kind));
        }
        if !merged {
            poster.post(c)?;
        }
    }
    let objective = |e: &Expr| -> Result<Term> {
        match sym.pre_term(e, ast.solve.pos)? {
            PreTerm::Const(k) => Ok(Term::Const(k)),
            PreTerm::Var(v) => Ok(terms[v]),
        }
    };
    let goal = match &ast.solve.goal {
        AstGoal::Satisfy => Goal::Satisfy,
        AstGoal::Minimize(e) => Goal::Minimize(objective(e)?),
        AstGoal::Maximize(e) => Goal::Maximize(objective(e)?),
    };
    unsat = unsat.or(poster.unsat.take());
    if unsat.is_some() {
        // The model alone must have no solution either, for whoever searches it without
        // looking at `unsat`: a variable with its one value ruled out.
        let marked = Domain::range(0, 0)
            .map(|d| model.add_named_var("unsatisfiable", d))
            .and_then(|v| model.exclude(v, 0));
        marked.map_err(|e| Error::invalid(ast.solve.pos, e.to_string()))?;
    }
    match goal {
        Goal::Minimize(Term::Var(v)) => model.minimize(v),
        Goal::Maximize(Term::Var(v)) => model.maximize(v),
        _ => Ok(()),
    }
    .map_err(|e| Error::invalid(ast.solve.pos, e.to_string()))?;

    let resolve = |t: &PreTerm| match *t {
        PreTerm::Const(k) => Term::Const(k),
        PreTerm::Var(v) => terms[v],
    };
    let outputs = sym
        .outputs
        .iter()
        .map(|o| Output {
            name: o.name.clone(),
            is_bool: o.is_bool,
            dims: o.dims.clone(),
            elems: o.elems.iter().map(resolve).collect(),
        })
        .collect();
    Ok(Instance {
        model,
        unsat,
        outputs,
        goal,
        search,
        int_vars,
        bool_vars,
        constraints: ast.constraints.len(),
    })
}
