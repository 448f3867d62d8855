//! Generic constraints: `intension` (a predicate), `extension` (a table of supports or
//! conflicts), and the elementary `instantiation`.

use std::sync::Arc;

use csp_core::{Expr, LimitKind, TableCell, Tuples, VarId};

use crate::error::{Error, Result};
use crate::ir::{Constraint, expr_vars, value};
use crate::post::pairs::Binary;
use crate::post::{PAIR_TABLE_LIMIT, Poster};
use crate::read::Reader;
use crate::read::expr::is_boolean;
use crate::read::lists::{Ctx, tokens};
use crate::table::{Cell, Table};
use crate::xml::Node;

/// `<intension>`: the predicate is true (non-zero).
#[derive(Debug)]
pub struct Intension(pub Expr);

impl Constraint for Intension {
    fn kind(&self) -> &'static str {
        "intension"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        expr_vars(&self.0, f);
    }
    fn holds(&self, values: &[i32]) -> bool {
        value(&self.0, values).is_some_and(|v| v != 0)
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        p.intension(&self.0)
    }
}

pub(crate) fn intension<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["function"])?;
    let text = match r.child(node, "function") {
        Some(f) => r.content(f)?,
        None => r.content(node)?,
    };
    let e = r.expr(text, node, ctx)?;
    if !is_boolean(&e) && !matches!(e, Expr::Var(_)) {
        return Err(r.syntax(
            text.trim(),
            node,
            format!("the predicate `{}` is not a boolean expression", text.trim()),
        ));
    }
    r.push(node, Intension(e))
}

/// `<extension>`: the scope's tuple is one of the table's (supports), or none of them
/// (conflicts).
#[derive(Debug)]
pub struct Extension {
    /// The scope.
    pub scope: Vec<VarId>,
    /// The tuples, shared by every scope of a `<group>`.
    pub table: Arc<Table>,
    /// Supports (allowed tuples) or conflicts (forbidden ones).
    pub supports: bool,
}

impl Constraint for Extension {
    fn kind(&self) -> &'static str {
        "extension"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.scope.iter().for_each(|&v| f(v));
    }
    fn holds(&self, values: &[i32]) -> bool {
        let tuple: Vec<i32> = self.scope.iter().map(|v| values[v.index()]).collect();
        self.table.matches(&tuple) == self.supports
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        let (scope, table, supports) = (&self.scope, &self.table, self.supports);
        p.budget.steps(table.cells.len())?;
        if let [v] = scope[..] {
            let listed = |a: i32| {
                table
                    .tuples()
                    .any(|t| matches!(t[0], Cell::Any) || t[0] == Cell::Value(a))
            };
            return p.filter(v, |a| listed(a) == supports);
        }
        if let [x, y] = scope[..] {
            if x != y {
                let dx: Vec<i32> = p.model.domain(x).values().collect();
                let dy: Vec<i32> = p.model.domain(y).values().collect();
                let has_any = table.cells.iter().any(|c| matches!(c, Cell::Any));
                if !has_any || (dx.len() as u64) * (dy.len() as u64) <= PAIR_TABLE_LIMIT {
                    let mut pairs = Vec::with_capacity(table.len());
                    for t in table.tuples() {
                        let xs: &[i32] = match &t[0] {
                            Cell::Value(a) => std::slice::from_ref(a),
                            Cell::Any => &dx,
                        };
                        for &a in xs {
                            match t[1] {
                                Cell::Value(b) => pairs.push((a, b)),
                                Cell::Any => pairs.extend(dy.iter().map(|&b| (a, b))),
                            }
                        }
                    }
                    p.binary(x, y, Binary::Pairs(pairs, supports))?;
                    return Ok(());
                }
            }
        }
        // One set of tuples per table as read (a group shares it), posted on each scope:
        // csp-core builds the bitsets once.
        let key = Arc::as_ptr(table) as usize;
        if !p.shared.contains_key(&key) {
            let cells: Vec<TableCell> = table
                .cells
                .iter()
                .map(|c| match c {
                    Cell::Value(a) => TableCell::Value(*a),
                    Cell::Any => TableCell::Any,
                })
                .collect();
            let limits = p.budget.limits();
            let mut expired = || limits.reached().is_some();
            let shared = Tuples::from_flat_until(table.arity, cells, &mut expired).map_err(|e| p.err(e))?;
            let Some(shared) = shared else {
                return Err(Error::Limit(limits.reached().unwrap_or(LimitKind::Time)));
            };
            p.shared.insert(key, (table.clone(), shared));
        }
        let tuples = &p.shared[&key].1;
        p.model
            .table_shared(scope, tuples, supports)
            .map_err(|e| p.err(e))
    }
}

pub(crate) fn extension<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list", "supports", "conflicts"])?;
    let l = r.require(node, "list")?;
    let scope = r.vars(l, ctx)?;
    let (tnode, supports) = match (r.child(node, "supports"), r.child(node, "conflicts")) {
        (Some(s), None) => (s, true),
        (None, Some(c)) => (c, false),
        _ => return Err(r.syntax("", node, "<extension> needs one <supports> or <conflicts>")),
    };
    let key = tnode.offset();
    let table = match r.tables.get(&key) {
        Some(t) if t.arity == scope.len() => t.clone(),
        _ => {
            let text = r.content(tnode)?;
            let t = Arc::new(table(r, text, tnode, scope.len())?);
            r.tables.insert(key, t.clone());
            t
        }
    };
    r.push(
        node,
        Extension {
            scope,
            table,
            supports,
        },
    )
}

/// The tuples of a table over `arity` variables: `(a,b,*)(c,d,e)`, or for one variable
/// values and intervals.
fn table(r: &mut Reader<'_, '_, '_>, text: &str, node: Node, arity: usize) -> Result<Table> {
    let b = text.as_bytes();
    let mut cells = Vec::new();
    let mut i = 0;
    let skip = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    if arity == 0 {
        return Err(r.syntax(text, node, "a table over no variable"));
    }
    if arity == 1 && !text.trim_start().starts_with('(') {
        // A unary table: values and intervals.
        for t in tokens(text) {
            if let Some((a, bb)) = t.split_once("..") {
                let (lo, hi) = (r.int32(a, node)?, r.int32(bb, node)?);
                if lo > hi {
                    return Err(r.syntax(t, node, format!("the interval `{t}` is empty")));
                }
                r.budget.steps((i64::from(hi) - i64::from(lo)) as usize)?;
                cells.extend((lo..=hi).map(Cell::Value));
            } else if t == "*" {
                cells.push(Cell::Any);
            } else {
                cells.push(Cell::Value(r.int32(t, node)?));
            }
        }
        return Ok(Table { arity, cells });
    }
    loop {
        skip(&mut i);
        if i >= b.len() {
            break;
        }
        r.budget.step()?;
        if b[i] != b'(' {
            return Err(r.syntax(&text[i..], node, "expected `(` to open a tuple"));
        }
        let open = i;
        i += 1;
        let mut count = 0;
        loop {
            skip(&mut i);
            let s = i;
            while i < b.len() && !matches!(b[i], b',' | b')') && !b[i].is_ascii_whitespace() {
                i += 1;
            }
            let tok = &text[s..i];
            if tok == "*" {
                cells.push(Cell::Any);
            } else if tok.is_empty() && i < b.len() && b[i] == b')' && count == 0 {
                // `()`: a tuple of no value
            } else {
                cells.push(Cell::Value(r.int32(tok, node)?));
            }
            count += 1;
            skip(&mut i);
            if i >= b.len() {
                return Err(r.syntax(&text[open..], node, "unclosed tuple"));
            }
            if b[i] == b')' {
                i += 1;
                break;
            }
            if b[i] != b',' {
                return Err(r.syntax(&text[i..], node, "expected `,` or `)` in a tuple"));
            }
            i += 1;
        }
        if count != arity {
            let end = i.min(text.len());
            let shown: String = text[open..end].chars().take(40).collect();
            return Err(r.syntax(
                &text[open..end],
                node,
                format!("a tuple of {count} values for {arity} variables: `{shown}`"),
            ));
        }
    }
    Ok(Table { arity, cells })
}

/// `<instantiation>`: the variables take these values.
#[derive(Debug)]
pub struct Instantiation {
    /// The variables.
    pub vars: Vec<VarId>,
    /// Their values.
    pub values: Vec<i32>,
}

impl Constraint for Instantiation {
    fn kind(&self) -> &'static str {
        "instantiation"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        self.vars.iter().for_each(|&v| f(v));
    }
    fn holds(&self, values: &[i32]) -> bool {
        self.vars
            .iter()
            .zip(&self.values)
            .all(|(v, &w)| values[v.index()] == w)
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        for (&v, &k) in self.vars.iter().zip(&self.values) {
            match p.model.fixed(v) {
                Some(old) if old != k => return p.fail(),
                _ => p.model.fix(v, k).map_err(|e| p.err(e))?,
            }
        }
        Ok(())
    }
}

pub(crate) fn instantiation<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list", "values"])?;
    let l = r.require(node, "list")?;
    let vars = r.vars(l, ctx)?;
    let vn = r.require(node, "values")?;
    let text = r.content(vn)?;
    // `*` for any value; the other tokens are integers, with `vxk` for k times v.
    let mut fixed = Vec::with_capacity(vars.len());
    let mut values = Vec::with_capacity(vars.len());
    let mut at = 0;
    for t in tokens(text) {
        let items: Vec<Option<i64>> = if t == "*" {
            vec![None]
        } else {
            let mut out = Vec::new();
            r.item(t, vn, ctx, &mut out)?;
            out.into_iter()
                .map(|e| match e {
                    Expr::Const(k) => Ok(Some(k)),
                    _ => Err(r.syntax(t, vn, format!("`{t}` is not a value"))),
                })
                .collect::<Result<_>>()?
        };
        for k in items {
            let Some(&v) = vars.get(at) else {
                return Err(r.syntax(text, vn, format!("more values than the {} variables", vars.len())));
            };
            at += 1;
            let Some(k) = k else { continue };
            let k32 = i32::try_from(k).ok().filter(|&k| r.model.domain(v).contains(k));
            let Some(k) = k32 else {
                return Err(r.out_of_range(
                    t,
                    vn,
                    format!("{k} is not in the domain of {}", r.model.name(v)),
                ));
            };
            fixed.push(v);
            values.push(k);
        }
    }
    if at != vars.len() {
        return Err(r.syntax(text, vn, format!("{at} values for {} variables", vars.len())));
    }
    r.push(node, Instantiation { vars: fixed, values })
}
