//! Connection constraints: `element`.

use csp_core::{Expr, VarId};

use crate::error::Result;
use crate::ir::{CmpOp, Condition, Constraint, Op, Operand, expr_vars, value};
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
            Some(Expr::Var(index))
                if condition.op == CmpOp::Eq
                    && matches!(condition.operand, Operand::Int(_) | Operand::Var(_)) =>
            {
                let value = match &condition.operand {
                    Operand::Int(k) => Expr::Const(*k),
                    Operand::Var(v) => Expr::Var(*v),
                    _ => unreachable!("checked above"),
                };
                let items: Vec<Expr> = list
                    .iter()
                    .map(|e| match e {
                        Expr::Var(_) | Expr::Const(_) => Ok(e.clone()),
                        other => p.var_of(other).map(Expr::Var),
                    })
                    .collect::<Result<_>>()?;
                p.model
                    .element(&items, *index, start, value)
                    .map_err(|e| p.err(e))
            }
            Some(index) => {
                // or over i: index == start + i and list[i] cond
                let any: Vec<Expr> = list
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        let at = i64::try_from(i128::from(start) + i as i128).unwrap_or(i64::MAX);
                        Expr::Call(
                            Op::And,
                            vec![
                                Expr::Call(Op::Eq, vec![index.clone(), Expr::Const(at)]),
                                condition.applied_to(e.clone()),
                            ],
                        )
                    })
                    .chain([Expr::Const(0), Expr::Const(0)])
                    .collect();
                p.intension(&Expr::Call(Op::Or, any))
            }
        }
    }
}

pub(crate) fn element<'d, 'a>(
    r: &mut Reader<'d, 'a, '_>,
    node: Node<'d, 'a>,
    ctx: Option<&Ctx>,
) -> Result<()> {
    r.check_children(node, &["list", "index", "value", "condition"])?;
    if r.child(node, "list").is_none() {
        return Err(r.unsupported(node, "<element> without <list> (matrix form)"));
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
    let condition = match (r.child(node, "value"), r.child(node, "condition")) {
        (Some(v), None) => {
            let operand = match r.list(v, ctx)?.as_slice() {
                [Expr::Var(x)] => Operand::Var(*x),
                [Expr::Const(k)] => Operand::Int(*k),
                _ => return Err(r.syntax("", v, "<value> must be one variable or integer")),
            };
            Condition {
                op: CmpOp::Eq,
                operand,
            }
        }
        (None, Some(c)) => r.condition(c, ctx)?,
        _ => return Err(r.syntax("", node, "<element> needs one <value> or <condition>")),
    };
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
