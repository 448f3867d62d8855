//! csp's native globals, as csp's MiniZinc library (`share/minizinc/csp/`) passes them
//! through: `csp_*` constraints, each posted on the csp-core propagator of the same
//! meaning. Where MiniZinc's definition and csp's differ at the edges (a circuit of
//! loops, lists of different lengths), the difference is made up here.

use csp_core::{Automaton, Cmp, IntOrVar, Order, Strength, TableCell, VarId};

use super::{Poster, Term, expr, member};
use crate::ast::Constraint;
use crate::error::{Error, Result};
use crate::set::IntSet;

/// Posts `c` if it is one of csp's globals; `false` if it is not one.
pub(crate) fn post(p: &mut Poster<'_>, c: &Constraint) -> Result<bool> {
    let Some(name) = c.name.strip_prefix("csp_") else {
        return Ok(false);
    };
    if empty_list(p, c, name)? {
        return Ok(true);
    }
    match name {
        "all_different_int" => {
            p.arity(c, 1)?;
            let xs = p.terms(c, 0)?;
            let vars = p.vars_of(c, &xs)?;
            if has_repeat(&vars) {
                p.fail(c, "lists one variable (or value) twice");
            } else if vars.len() > 1 {
                p.model
                    .all_different_nary(&vars, Strength::Gac)
                    .map_err(|e| p.err(c, e))?;
            }
        }
        "alldifferent_except" => {
            p.arity(c, 2)?;
            let xs = p.terms(c, 0)?;
            let except = small_values(c, &p.set(c, 1)?)?;
            let vars = p.vars_of(c, &xs)?;
            p.model
                .all_different_except(&vars, &except)
                .map_err(|e| p.err(c, e))?;
        }
        "all_equal_int" => {
            p.arity(c, 1)?;
            let xs = p.terms(c, 0)?;
            let vars = p.vars_of(c, &xs)?;
            p.model.all_equal(&vars).map_err(|e| p.err(c, e))?;
        }
        "table_int" | "table_bool" => {
            p.arity(c, 2)?;
            let xs = p.terms(c, 0)?;
            let flat = p.ints(c, 1)?;
            table(p, c, &xs, &flat)?;
        }
        "regular" | "regular_nfa" => {
            p.arity(c, 6)?;
            let xs = p.terms(c, 0)?;
            let (q, s) = (p.int(c, 1)?, p.int(c, 2)?);
            let targets: Vec<IntSet> = if name == "regular" {
                p.ints(c, 3)?.into_iter().map(|t| IntSet::range(t, t)).collect()
            } else {
                p.sets(c, 3)?
            };
            let (q0, finals) = (p.int(c, 4)?, p.set(c, 5)?);
            regular(p, c, &xs, q, s, &targets, q0, &finals)?;
        }
        "circuit" | "subcircuit" => {
            p.arity(c, 2)?;
            let xs = p.terms(c, 0)?;
            let start = p.int(c, 1)?;
            circuit(p, c, &xs, start, name == "subcircuit")?;
        }
        "cumulative" => {
            p.arity(c, 4)?;
            let (s, d, r) = (p.terms(c, 0)?, p.terms(c, 1)?, p.terms(c, 2)?);
            let b = p.term(c, 3)?;
            same_len(c, &[s.len(), d.len(), r.len()])?;
            let origins = p.vars_of(c, &s)?;
            let lengths: Vec<IntOrVar> = d.iter().map(|&t| int_or_var(t)).collect();
            let heights: Vec<IntOrVar> = r.iter().map(|&t| int_or_var(t)).collect();
            p.model
                .cumulative(&origins, &lengths, &heights, int_or_var(b), false)
                .map_err(|e| p.err(c, e))?;
        }
        "disjunctive" | "disjunctive_strict" => {
            p.arity(c, 2)?;
            let (s, d) = (p.terms(c, 0)?, p.terms(c, 1)?);
            same_len(c, &[s.len(), d.len()])?;
            let origins = p.vars_of(c, &s)?;
            let lengths: Vec<IntOrVar> = d.iter().map(|&t| int_or_var(t)).collect();
            p.model
                .no_overlap(&origins, &lengths, name == "disjunctive")
                .map_err(|e| p.err(c, e))?;
        }
        "diffn" | "diffn_nonstrict" => {
            p.arity(c, 4)?;
            let (x, y, dx, dy) = (p.terms(c, 0)?, p.terms(c, 1)?, p.terms(c, 2)?, p.terms(c, 3)?);
            same_len(c, &[x.len(), y.len(), dx.len(), dy.len()])?;
            let mut origins = Vec::with_capacity(x.len());
            let mut lengths = Vec::with_capacity(x.len());
            for i in 0..x.len() {
                origins.push(vec![p.var_of(c, x[i])?, p.var_of(c, y[i])?]);
                lengths.push(vec![int_or_var(dx[i]), int_or_var(dy[i])]);
            }
            if !origins.is_empty() {
                p.model
                    .no_overlap_boxes(&origins, &lengths, name == "diffn_nonstrict")
                    .map_err(|e| p.err(c, e))?;
            }
        }
        "bin_packing_load" => {
            p.arity(c, 4)?;
            let (load, bin, w) = (p.terms(c, 0)?, p.terms(c, 1)?, p.ints(c, 2)?);
            let first = small(c, p.int(c, 3)?)?;
            same_len(c, &[bin.len(), w.len()])?;
            let (loads, bins) = (p.vars_of(c, &load)?, p.vars_of(c, &bin)?);
            if loads.is_empty() {
                if !bins.is_empty() {
                    p.fail(c, "has items and no bin");
                }
            } else {
                p.model
                    .bin_packing(&bins, &w, &loads, first)
                    .map_err(|e| p.err(c, e))?;
            }
        }
        "bin_packing_capa" => {
            p.arity(c, 4)?;
            let (capa, bin, w) = (p.ints(c, 0)?, p.terms(c, 1)?, p.ints(c, 2)?);
            let first = small(c, p.int(c, 3)?)?;
            same_len(c, &[bin.len(), w.len()])?;
            let bins = p.vars_of(c, &bin)?;
            if capa.is_empty() {
                if !bins.is_empty() {
                    p.fail(c, "has items and no bin");
                }
            } else {
                let allowed: Vec<Vec<(i64, i64)>> = capa.iter().map(|&k| vec![(0, k)]).collect();
                p.model
                    .bin_packing_within(&bins, &w, &allowed, first)
                    .map_err(|e| p.err(c, e))?;
            }
        }
        "global_cardinality" => {
            p.arity(c, 4)?;
            let (xs, cover, counts) = (p.terms(c, 0)?, p.ints(c, 1)?, p.terms(c, 2)?);
            let closed = p.int(c, 3)? != 0;
            same_len(c, &[cover.len(), counts.len()])?;
            let cover32: Vec<i32> = cover.iter().map(|&v| small(c, v)).collect::<Result<_>>()?;
            let vars = p.vars_of(c, &xs)?;
            let occurs = p.vars_of(c, &counts)?;
            let mut sorted = cover32.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted.len() == cover32.len() {
                p.model
                    .cardinality(&vars, &cover32, &occurs, closed)
                    .map_err(|e| p.err(c, e))?;
            } else {
                // A value listed twice: one count each, and MiniZinc's bound on their sum
                // (which counts a variable once per listing of its value).
                for (&v, &o) in cover32.iter().zip(&occurs) {
                    p.model.count(&vars, &[v], o).map_err(|e| p.err(c, e))?;
                }
                let sum: Vec<(i64, Term)> = counts.iter().map(|&t| (1, t)).collect();
                p.linear(c, &sum, Cmp::Le, xs.len() as i64)?;
                if closed {
                    within(p, c, &xs, &IntSet::from_values(cover.iter().copied()))?;
                }
            }
        }
        "global_cardinality_low_up" => {
            p.arity(c, 5)?;
            let (xs, cover, lo, hi) = (p.terms(c, 0)?, p.ints(c, 1)?, p.ints(c, 2)?, p.ints(c, 3)?);
            let closed = p.int(c, 4)? != 0;
            same_len(c, &[cover.len(), lo.len(), hi.len()])?;
            let vars = p.vars_of(c, &xs)?;
            for i in 0..cover.len() {
                let v = small(c, cover[i])?;
                p.model
                    .count_within(&vars, &[v], &[(lo[i], hi[i])])
                    .map_err(|e| p.err(c, e))?;
            }
            if closed {
                within(p, c, &xs, &IntSet::from_values(cover.iter().copied()))?;
            }
        }
        "count_eq" => {
            p.arity(c, 3)?;
            let (xs, y, n) = (p.terms(c, 0)?, p.term(c, 1)?, p.term(c, 2)?);
            let vars = p.vars_of(c, &xs)?;
            let done = match (y, n) {
                (Term::Const(v), Term::Const(k)) => p.model.count_within(&vars, &[small(c, v)?], &[(k, k)]),
                (Term::Const(v), n) => {
                    let n = p.var_of(c, n)?;
                    p.model.count(&vars, &[small(c, v)?], n)
                }
                (Term::Var(y), n) => {
                    let n = p.var_of(c, n)?;
                    p.model.count_var(&vars, y, n)
                }
            };
            done.map_err(|e| p.err(c, e))?;
        }
        "count_in" => {
            p.arity(c, 3)?;
            let (xs, value, counts) = (p.terms(c, 0)?, p.int(c, 1)?, p.set(c, 2)?);
            if counts.is_empty() {
                p.fail(c, "allows no number of occurrences");
            } else if xs.is_empty() {
                if !counts.contains(0) {
                    p.fail(c, "asks for occurrences in an empty list");
                }
            } else {
                let vars = p.vars_of(c, &xs)?;
                p.model
                    .count_within(&vars, &[small(c, value)?], counts.ranges())
                    .map_err(|e| p.err(c, e))?;
            }
        }
        "among" => {
            p.arity(c, 3)?;
            let (n, xs) = (p.term(c, 0)?, p.terms(c, 1)?);
            let values = small_values(c, &p.set(c, 2)?)?;
            let vars = p.vars_of(c, &xs)?;
            let done = match n {
                Term::Const(k) => p.model.count_within(&vars, &values, &[(k, k)]),
                Term::Var(n) => p.model.count(&vars, &values, n),
            };
            done.map_err(|e| p.err(c, e))?;
        }
        "nvalue" => {
            p.arity(c, 2)?;
            let (n, xs) = (p.term(c, 0)?, p.terms(c, 1)?);
            let vars = p.vars_of(c, &xs)?;
            let done = match n {
                Term::Const(k) => p.model.n_values_within(&vars, &[], &[(k, k)]),
                Term::Var(n) => p.model.n_values(&vars, &[], n),
            };
            done.map_err(|e| p.err(c, e))?;
        }
        "lex_less_int" | "lex_lesseq_int" | "lex_less_bool" | "lex_lesseq_bool" => {
            p.arity(c, 2)?;
            let (x, y) = (p.terms(c, 0)?, p.terms(c, 1)?);
            lex(p, c, &x, &y, name.starts_with("lex_less_"))?;
        }
        "inverse" => {
            p.arity(c, 4)?;
            let (f, f0, g, g0) = (p.terms(c, 0)?, p.int(c, 1)?, p.terms(c, 2)?, p.int(c, 3)?);
            if f.len() != g.len() {
                p.fail(c, "links arrays of different lengths (no bijection)");
            } else if !f.is_empty() {
                let (fv, gv) = (p.vars_of(c, &f)?, p.vars_of(c, &g)?);
                p.model
                    .channel(&fv, small(c, f0)?, &gv, small(c, g0)?)
                    .map_err(|e| p.err(c, e))?;
            }
        }
        "increasing_int"
        | "increasing_bool"
        | "decreasing_int"
        | "decreasing_bool"
        | "strictly_increasing_int"
        | "strictly_decreasing_int" => {
            p.arity(c, 1)?;
            let xs = p.terms(c, 0)?;
            let order = match name {
                "strictly_increasing_int" => Order::Lt,
                "strictly_decreasing_int" => Order::Gt,
                n if n.starts_with("increasing") => Order::Le,
                _ => Order::Ge,
            };
            if xs.len() > 1 {
                let vars = p.vars_of(c, &xs)?;
                p.model.ordered(&vars, None, order).map_err(|e| p.err(c, e))?;
            }
        }
        "value_precede_int" => {
            p.arity(c, 3)?;
            let (s, t, xs) = (p.int(c, 0)?, p.int(c, 1)?, p.terms(c, 2)?);
            precede(p, c, &[s, t], &xs)?;
        }
        "value_precede_chain_int" => {
            p.arity(c, 2)?;
            let (values, xs) = (p.ints(c, 0)?, p.terms(c, 1)?);
            precede(p, c, &values, &xs)?;
        }
        "mdd" => {
            p.arity(c, 7)?;
            let xs = p.terms(c, 0)?;
            let (nodes, edges) = (p.int(c, 1)?, p.int(c, 3)?);
            let (from, labels, to) = (p.ints(c, 4)?, p.sets(c, 5)?, p.ints(c, 6)?);
            same_len(c, &[from.len(), labels.len(), to.len()])?;
            if edges != from.len() as i64 || !(1..=1 << 24).contains(&nodes) {
                return Err(Error::invalid(
                    c.pos,
                    format!("`{}`: {edges} edges declared, {} given", c.name, from.len()),
                ));
            }
            mdd(p, c, &xs, nodes, &from, &labels, &to)?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// MiniZinc's `mdd`: nodes `1..=nodes` (the root is 1), 0 the accepting terminal, edge
/// `e` from `from[e]` to `to[e]` for the values `labels[e]`.
fn mdd(
    p: &mut Poster<'_>,
    c: &Constraint,
    xs: &[Term],
    nodes: i64,
    from: &[i64],
    labels: &[IntSet],
    to: &[i64],
) -> Result<()> {
    let node = |n: i64| usize::try_from(n).ok().filter(|&n| n as i64 <= nodes);
    let mut transitions = Vec::new();
    for e in 0..from.len() {
        let (Some(a), Some(b)) = (node(from[e]), node(to[e])) else {
            return Err(Error::invalid(
                c.pos,
                format!("`{}`: edge {} leaves the nodes", c.name, e + 1),
            ));
        };
        for v in small_values(c, &labels[e])? {
            transitions.push((a, v, b));
        }
    }
    // A diagram whose terminal is not reached, or not at the depth of the list, accepts
    // nothing.
    match csp_core::Mdd::new(nodes as usize + 1, 1, 0, transitions) {
        Ok(d) if !xs.is_empty() => {
            let vars = p.vars_of(c, xs)?;
            if p.model.mdd(&vars, &d).is_err() {
                p.fail(c, "accepts no word of the list's length");
            }
        }
        _ => p.fail(c, "accepts no word of the list's length"),
    }
    Ok(())
}

/// A global over an empty list (csp-core's propagators need a scope): what it means is
/// posted here, and `true` returned; `false` when the list is not empty.
fn empty_list(p: &mut Poster<'_>, c: &Constraint, name: &str) -> Result<bool> {
    let list = match name {
        "all_different_int"
        | "alldifferent_except"
        | "all_equal_int"
        | "cumulative"
        | "disjunctive"
        | "disjunctive_strict"
        | "diffn"
        | "diffn_nonstrict"
        | "circuit"
        | "subcircuit"
        | "count_eq"
        | "global_cardinality"
        | "global_cardinality_low_up" => 0,
        "among" | "nvalue" | "value_precede_chain_int" => 1,
        "value_precede_int" => 2,
        _ => return Ok(false),
    };
    if c.args.len() <= list || !p.terms(c, list)?.is_empty() {
        return Ok(false);
    }
    match name {
        "count_eq" => p.linear(c, &[(1, p.term(c, 2)?)], Cmp::Eq, 0)?,
        "among" | "nvalue" => p.linear(c, &[(1, p.term(c, 0)?)], Cmp::Eq, 0)?,
        "global_cardinality" => {
            for k in p.terms(c, 2)? {
                p.linear(c, &[(1, k)], Cmp::Eq, 0)?;
            }
        }
        "global_cardinality_low_up" => {
            let (lo, hi) = (p.ints(c, 2)?, p.ints(c, 3)?);
            if lo.iter().any(|&l| l > 0) || hi.iter().any(|&h| h < 0) {
                p.fail(c, "asks for occurrences in an empty list");
            }
        }
        // Holds of no variable (a circuit of no vertex: MiniZinc's library writes none).
        _ => {}
    }
    Ok(true)
}

fn int_or_var(t: Term) -> IntOrVar {
    match t {
        Term::Const(k) => IntOrVar::Int(k),
        Term::Var(v) => IntOrVar::Var(v),
    }
}

fn has_repeat(vars: &[VarId]) -> bool {
    let mut sorted = vars.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).any(|w| w[0] == w[1])
}

fn same_len(c: &Constraint, lens: &[usize]) -> Result<()> {
    if lens.windows(2).all(|w| w[0] == w[1]) {
        Ok(())
    } else {
        Err(Error::invalid(
            c.pos,
            format!("`{}`: its arrays have different lengths ({lens:?})", c.name),
        ))
    }
}

/// A constant that csp compares with values (32 bits).
fn small(c: &Constraint, v: i64) -> Result<i32> {
    i32::try_from(v).map_err(|_| Error::invalid(c.pos, format!("`{}`: {v} does not fit in 32 bits", c.name)))
}

/// The values of a set, each within 32 bits (values beyond cannot be taken).
fn small_values(c: &Constraint, s: &IntSet) -> Result<Vec<i32>> {
    if s.len() > 1 << 24 {
        return Err(Error::invalid(
            c.pos,
            format!("`{}`: the set {s} is too large", c.name),
        ));
    }
    Ok(s.values().filter_map(|v| i32::try_from(v).ok()).collect())
}

/// Every term takes a value of `s`.
fn within(p: &mut Poster<'_>, c: &Constraint, xs: &[Term], s: &IntSet) -> Result<()> {
    for &x in xs {
        p.intension(c, member(expr(x), s))?;
    }
    Ok(())
}

/// A positive table over `xs`, its tuples one after the other in `flat`.
fn table(p: &mut Poster<'_>, c: &Constraint, xs: &[Term], flat: &[i64]) -> Result<()> {
    let n = xs.len();
    if n == 0 {
        if flat.is_empty() {
            p.fail(c, "has no tuple");
        }
        return Ok(());
    }
    if !flat.len().is_multiple_of(n) {
        return Err(Error::invalid(
            c.pos,
            format!("`{}`: {} table entries for {n} variables", c.name, flat.len()),
        ));
    }
    // A value beyond 32 bits matches no variable: its tuple is dropped.
    let tuples: Vec<Vec<TableCell>> = flat
        .chunks(n)
        .filter_map(|row| {
            row.iter()
                .map(|&v| i32::try_from(v).ok().map(TableCell::Value))
                .collect()
        })
        .collect();
    if tuples.is_empty() {
        p.fail(c, "has no tuple");
        return Ok(());
    }
    let vars = p.vars_of(c, xs)?;
    p.model.table(&vars, tuples, true).map_err(|e| p.err(c, e))
}

/// MiniZinc's `regular`: states `1..=q` (0 is the failing state), symbols `1..=s`,
/// `targets[(state - 1) * s + symbol - 1]` the states a transition may go to.
#[allow(clippy::too_many_arguments)]
fn regular(
    p: &mut Poster<'_>,
    c: &Constraint,
    xs: &[Term],
    q: i64,
    s: i64,
    targets: &[IntSet],
    q0: i64,
    finals: &IntSet,
) -> Result<()> {
    let cells = i128::from(q) * i128::from(s);
    // The transitions are listed in full, so a real automaton has as many states as its
    // table allows; a larger count (with no symbol) would only allocate.
    if q < 1 || s < 0 || cells != targets.len() as i128 || q > 1 << 24 {
        return Err(Error::invalid(
            c.pos,
            format!(
                "`{}`: {} transitions for {q} states and {s} symbols",
                c.name,
                targets.len()
            ),
        ));
    }
    if !(1..=q).contains(&q0) {
        p.fail(c, "starts in a state that does not exist");
        return Ok(());
    }
    let s_us = usize::try_from(s).unwrap_or(0);
    let mut transitions = Vec::new();
    for (i, to) in targets.iter().enumerate() {
        let (from, symbol) = (i / s_us.max(1), i % s_us.max(1) + 1);
        for t in to.values().filter(|t| (1..=q).contains(t)) {
            transitions.push((from, symbol as i32, (t - 1) as usize));
        }
    }
    let finals: Vec<usize> = finals
        .values()
        .filter(|f| (1..=q).contains(f))
        .map(|f| (f - 1) as usize)
        .collect();
    let automaton =
        Automaton::new(q as usize, (q0 - 1) as usize, finals, transitions).map_err(|e| p.err(c, e))?;
    if xs.is_empty() {
        if !automaton.finals.contains(&automaton.start) {
            p.fail(c, "rejects the empty word");
        }
        return Ok(());
    }
    let vars = p.vars_of(c, xs)?;
    p.model.regular(&vars, &automaton).map_err(|e| p.err(c, e))
}

/// MiniZinc's `circuit` (every vertex on one cycle) and `subcircuit` (the vertices that
/// do not loop form one cycle, or none does). csp's circuit is the latter without the
/// empty case: loops are forbidden for `circuit`, and for `subcircuit` two extra vertices
/// that can only point at each other make a cycle of their own exactly when every real
/// vertex loops.
fn circuit(p: &mut Poster<'_>, c: &Constraint, xs: &[Term], start: i64, sub: bool) -> Result<()> {
    let start32 = small(c, start)?;
    let n = xs.len() as i64;
    if !sub {
        for (i, &x) in xs.iter().enumerate() {
            p.linear(c, &[(1, x)], Cmp::Ne, start + i as i64)?;
        }
        if n < 2 {
            // One vertex cannot make a cycle without its loop.
            p.fail(c, "has fewer than two vertices");
            return Ok(());
        }
        let vars = p.vars_of(c, xs)?;
        return p.model.circuit(&vars, start32, None).map_err(|e| p.err(c, e));
    }
    let mut vars = p.vars_of(c, xs)?;
    let (d1, d2) = (start + n, start + n + 1);
    let (a, b) = (small(c, d1)?, small(c, d2)?);
    let domain = csp_core::Domain::from_values([a, b]).map_err(|e| p.err(c, e))?;
    vars.push(
        p.model
            .add_named_var(format!("{}#dummy1", c.name), domain.clone()),
    );
    vars.push(p.model.add_named_var(format!("{}#dummy2", c.name), domain));
    // The real vertices never point at the dummies.
    for &x in xs {
        p.linear(c, &[(1, x)], Cmp::Lt, d1)?;
    }
    p.model.circuit(&vars, start32, None).map_err(|e| p.err(c, e))
}

/// MiniZinc's `lex_less` (`strict`) or `lex_lesseq` on lists of any lengths: on lists of
/// one length csp's propagator; otherwise the common prefix decides, and on a tie the
/// shorter list is the smaller.
fn lex(p: &mut Poster<'_>, c: &Constraint, x: &[Term], y: &[Term], strict: bool) -> Result<()> {
    let m = x.len().min(y.len());
    // With a common prefix equal: x < y iff x is shorter; x <= y iff x is not longer.
    let tie_ok = if strict {
        x.len() < y.len()
    } else {
        x.len() <= y.len()
    };
    if m == 0 {
        if !tie_ok {
            p.fail(c, "never holds");
        }
        return Ok(());
    }
    let (xv, yv) = (p.vars_of(c, &x[..m])?, p.vars_of(c, &y[..m])?);
    let order = if tie_ok { Order::Le } else { Order::Lt };
    p.model.lex(&[xv, yv], order).map_err(|e| p.err(c, e))
}

/// `value_precede_chain`: each value of `values` is first taken (if at all) after the
/// value before it. A value listed right after itself can then never be taken.
fn precede(p: &mut Poster<'_>, c: &Constraint, values: &[i64], xs: &[Term]) -> Result<()> {
    let mut distinct = values.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() == values.len() {
        let vs: Vec<i32> = values.iter().map(|&v| small(c, v)).collect::<Result<_>>()?;
        let vars = p.vars_of(c, xs)?;
        return p.model.precedence(&vars, &vs, false).map_err(|e| p.err(c, e));
    }
    for w in values.windows(2) {
        if w[0] == w[1] {
            for &x in xs {
                p.linear(c, &[(1, x)], Cmp::Ne, w[0])?;
            }
        } else {
            let vs = [small(c, w[0])?, small(c, w[1])?];
            let vars = p.vars_of(c, xs)?;
            p.model.precedence(&vars, &vs, false).map_err(|e| p.err(c, e))?;
        }
    }
    Ok(())
}
