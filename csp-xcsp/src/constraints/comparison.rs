//! Comparison constraints: `allDifferent` (over a list, several lists, a matrix, with
//! `except`).

use csp_core::{Expr, VarId};

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
