//! Counting and summing constraints: `sum`.

use csp_core::{Expr, VarId};

use crate::error::Result;
use crate::ir::{CmpOp, Condition, Constraint, Op, Operand, expr_vars, value};
use crate::post::{PAIR_TABLE_LIMIT, Poster, cmp_of_condition};
use crate::read::Reader;
use crate::read::lists::Ctx;
use crate::xml::Node;

/// `<sum>`: `sum(coeff * item) op operand`, computed exactly.
#[derive(Debug)]
pub struct Sum {
    /// Coefficient and item (each a variable, an integer or an expression).
    pub terms: Vec<(Expr, Expr)>,
    /// The condition.
    pub condition: Condition,
}

impl Sum {
    /// The sum as one expression: `add(mul(c1, x1), ..., 0)`.
    fn expression(&self) -> Expr {
        Expr::Call(
            Op::Add,
            self.terms
                .iter()
                .map(|(c, e)| Expr::Call(Op::Mul, vec![c.clone(), e.clone()]))
                .chain([Expr::Const(0), Expr::Const(0)])
                .collect(),
        )
    }
}

impl Constraint for Sum {
    fn kind(&self) -> &'static str {
        "sum"
    }
    fn for_each_var(&self, f: &mut dyn FnMut(VarId)) {
        for (c, e) in &self.terms {
            expr_vars(c, f);
            expr_vars(e, f);
        }
        if let Some(v) = self.condition.var() {
            f(v);
        }
    }
    fn holds(&self, values: &[i32]) -> bool {
        let mut s = 0i128;
        for (c, e) in &self.terms {
            let (Some(c), Some(e)) = (value(c, values), value(e, values)) else {
                return false;
            };
            let Some(t) = c.checked_mul(e).and_then(|t| s.checked_add(t)) else {
                return false;
            };
            s = t;
        }
        self.condition.holds(s, values)
    }
    fn post(&self, p: &mut Poster<'_, '_>) -> Result<()> {
        // The bounds of the whole sum: refused if they leave 128 bits, exact otherwise.
        p.check_bounds(&self.expression())?;
        p.budget.steps(self.terms.len())?;
        let general = |s: &Sum| s.condition.applied_to(s.expression());
        // Integer coefficients on variables and integers: a linear sum.
        let mut merged: Vec<(i128, VarId)> = Vec::with_capacity(self.terms.len());
        let mut constant = 0i128;
        for (c, e) in &self.terms {
            let Expr::Const(c) = c else {
                return p.intension(&general(self));
            };
            match e {
                Expr::Const(k) => constant += i128::from(*c) * i128::from(*k),
                Expr::Var(v) => match merged.iter_mut().find(|(_, w)| w == v) {
                    Some(t) => t.0 += i128::from(*c),
                    None => merged.push((i128::from(*c), *v)),
                },
                _ => return p.intension(&general(self)),
            }
        }
        merged.retain(|t| t.0 != 0);
        let Some(terms) = merged
            .iter()
            .map(|&(c, v)| i64::try_from(c).ok().map(|c| (c, v)))
            .collect::<Option<Vec<(i64, VarId)>>>()
        else {
            return p.intension(&general(self));
        };
        let distinct: Vec<VarId> = terms.iter().map(|t| t.1).collect();
        let operand_var = self.condition.var();
        let scope_len = distinct.len() + usize::from(operand_var.is_some_and(|v| !distinct.contains(&v)));
        if scope_len <= 2 {
            // Unary and binary sums: through the expression path (tables, fast relations).
            let small = distinct
                .iter()
                .chain(operand_var.iter())
                .map(|&v| p.dom_len(v))
                .product::<u64>();
            if scope_len < 2 || small <= PAIR_TABLE_LIMIT {
                return p.intension(&general(self));
            }
        }
        let shift = |k: i64| i64::try_from(i128::from(k) - constant).ok();
        let outcome = match (&self.condition.operand, self.condition.op) {
            (Operand::Int(k), op) => shift(*k).map(|rhs| p.model.linear(&terms, cmp_of_condition(op), rhs)),
            (Operand::Var(y), op) => {
                let cmp = cmp_of_condition(op);
                if constant == 0 && !distinct.contains(y) {
                    Some(p.model.linear_var(&terms, cmp, *y))
                } else {
                    // sum + constant - y cmp 0; y's coefficient may leave 64 bits
                    // (-9223372036854775808 - 1): then the general path.
                    let mut t = terms.clone();
                    let fits = match t.iter_mut().find(|(_, w)| w == y) {
                        Some(e) => e.0.checked_sub(1).map(|c| e.0 = c).is_some(),
                        None => {
                            t.push((-1, *y));
                            true
                        }
                    };
                    i64::try_from(-constant)
                        .ok()
                        .filter(|_| fits)
                        .map(|rhs| p.model.linear(&t, cmp, rhs))
                }
            }
            (Operand::Range(lo, hi), op) => match (shift(*lo), shift(*hi)) {
                (Some(lo), Some(hi)) => Some(p.model.linear_range(&terms, lo, hi, op == CmpOp::In)),
                _ => None,
            },
            (Operand::Set(values), op) => {
                let shifted: Option<Vec<i64>> = values.iter().map(|&v| shift(v)).collect();
                shifted.map(|vs| p.model.linear_in(&terms, &vs, op == CmpOp::In))
            }
        };
        match outcome {
            Some(result) => result.map_err(|e| p.err(e)),
            // A bound beyond 64 bits: the exact general path.
            None => p.intension(&general(self)),
        }
    }
}

pub(crate) fn sum<'d, 'a>(r: &mut Reader<'d, 'a, '_>, node: Node<'d, 'a>, ctx: Option<&Ctx>) -> Result<()> {
    r.check_children(node, &["list", "coeffs", "condition"])?;
    let list_node = r.require(node, "list")?;
    let items = r.list(list_node, ctx)?;
    let coeffs = match r.child(node, "coeffs") {
        Some(c) => r.list(c, ctx)?,
        None => vec![Expr::Const(1); items.len()],
    };
    if coeffs.len() != items.len() {
        return Err(r.syntax(
            "",
            node,
            format!("{} coefficients for {} terms", coeffs.len(), items.len()),
        ));
    }
    let cond = r.require(node, "condition")?;
    let condition = r.condition(cond, ctx)?;
    r.push(
        node,
        Sum {
            terms: coeffs.into_iter().zip(items).collect(),
            condition,
        },
    )
}
