//! The parts constraints share: exact values of expressions under an assignment, and the
//! `<condition>` of XCSP3 (`(op, operand)`).

use std::fmt;

use csp_core::{Expr, VarId};

/// The operators of the XCSP3 expression language: csp-core's, which name and parse them.
pub use csp_core::ExprOp as Op;

/// The value of an expression under a complete assignment, exactly; `None` where it is
/// undefined (a division by zero...).
pub fn value(e: &Expr, values: &[i32]) -> Option<i128> {
    match e {
        Expr::Const(c) => Some(i128::from(*c)),
        Expr::Var(v) => Some(i128::from(values[v.index()])),
        _ => e.eval(&|v| i64::from(values[v.index()])),
    }
}

/// Calls `f` on every variable of `e`.
pub fn expr_vars(e: &Expr, f: &mut dyn FnMut(VarId)) {
    match e {
        Expr::Const(_) => {}
        Expr::Var(v) => f(*v),
        Expr::Call(_, args) => args.iter().for_each(|a| expr_vars(a, f)),
    }
}

/// The values of several expressions, or `None` if one is undefined.
pub fn values_of(items: &[Expr], values: &[i32]) -> Option<Vec<i128>> {
    items.iter().map(|e| value(e, values)).collect()
}

/// A comparison operator of a `<condition>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum CmpOp {
    Lt,
    Le,
    Ge,
    Gt,
    Eq,
    Ne,
    In,
    NotIn,
}

impl CmpOp {
    /// The operator's XCSP3 name.
    pub fn name(self) -> &'static str {
        match self {
            CmpOp::Lt => "lt",
            CmpOp::Le => "le",
            CmpOp::Ge => "ge",
            CmpOp::Gt => "gt",
            CmpOp::Eq => "eq",
            CmpOp::Ne => "ne",
            CmpOp::In => "in",
            CmpOp::NotIn => "notin",
        }
    }

    /// The operator with this XCSP3 name.
    pub fn from_name(name: &str) -> Option<CmpOp> {
        [
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Ge,
            CmpOp::Gt,
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::In,
            CmpOp::NotIn,
        ]
        .into_iter()
        .find(|op| op.name() == name)
    }
}

/// The right side of a `<condition>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// An integer.
    Int(i64),
    /// A variable.
    Var(VarId),
    /// The interval `lo..hi` (for `in` and `notin`).
    Range(i64, i64),
    /// A set of integers (for `in` and `notin`).
    Set(Vec<i64>),
}

/// A `<condition>`: `(op, operand)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    /// The operator.
    pub op: CmpOp,
    /// The operand.
    pub operand: Operand,
}

impl Condition {
    /// Whether `lhs op operand` holds under `values`.
    pub fn holds(&self, lhs: i128, values: &[i32]) -> bool {
        let rhs = match &self.operand {
            Operand::Int(k) => i128::from(*k),
            Operand::Var(v) => i128::from(values[v.index()]),
            Operand::Range(lo, hi) => {
                let inside = i128::from(*lo) <= lhs && lhs <= i128::from(*hi);
                return inside == (self.op == CmpOp::In);
            }
            Operand::Set(s) => {
                let inside = s.iter().any(|&k| i128::from(k) == lhs);
                return inside == (self.op == CmpOp::In);
            }
        };
        match self.op {
            CmpOp::Lt => lhs < rhs,
            CmpOp::Le => lhs <= rhs,
            CmpOp::Ge => lhs >= rhs,
            CmpOp::Gt => lhs > rhs,
            CmpOp::Eq | CmpOp::In => lhs == rhs,
            CmpOp::Ne | CmpOp::NotIn => lhs != rhs,
        }
    }

    /// The values of `lo..=hi` that satisfy the condition, as sorted disjoint inclusive
    /// ranges; `None` when the operand is a variable. The condition's truth changes only at
    /// its constants (`k` and `k + 1`), so it is tested once per stretch between them.
    pub fn allowed_within(&self, lo: i64, hi: i64) -> Option<Vec<(i64, i64)>> {
        let constants: Vec<i64> = match &self.operand {
            Operand::Var(_) => return None,
            Operand::Int(k) => vec![*k],
            Operand::Range(a, b) => vec![*a, *b],
            Operand::Set(set) => set.clone(),
        };
        let mut cuts: Vec<i128> = vec![i128::from(lo), i128::from(hi) + 1];
        for k in constants.into_iter().map(i128::from) {
            cuts.extend(
                [k, k + 1]
                    .into_iter()
                    .filter(|&c| c > i128::from(lo) && c <= i128::from(hi)),
            );
        }
        cuts.sort_unstable();
        cuts.dedup();
        let mut ranges: Vec<(i64, i64)> = Vec::new();
        for w in cuts.windows(2) {
            let (from, to) = (w[0], w[1] - 1);
            if !self.holds(from, &[]) {
                continue;
            }
            // Both ends lie within `lo..=hi`, so they fit 64 bits.
            let (from, to) = (from as i64, to as i64);
            match ranges.last_mut() {
                Some(last) if last.1 + 1 == from => last.1 = to,
                _ => ranges.push((from, to)),
            }
        }
        Some(ranges)
    }

    /// The variable of the operand, if it is one.
    pub fn var(&self) -> Option<VarId> {
        match self.operand {
            Operand::Var(v) => Some(v),
            _ => None,
        }
    }

    /// The expression `lhs op operand` (`in`/`notin` of an interval as two comparisons).
    pub fn applied_to(&self, lhs: Expr) -> Expr {
        let call = Expr::Call;
        let operand = match &self.operand {
            Operand::Int(k) => Expr::Const(*k),
            Operand::Var(v) => Expr::Var(*v),
            Operand::Range(lo, hi) => {
                let inside = call(
                    Op::And,
                    vec![
                        call(Op::Ge, vec![lhs.clone(), Expr::Const(*lo)]),
                        call(Op::Le, vec![lhs, Expr::Const(*hi)]),
                    ],
                );
                return if self.op == CmpOp::In {
                    inside
                } else {
                    call(Op::Not, vec![inside])
                };
            }
            Operand::Set(s) => {
                let set = call(Op::Set, s.iter().map(|&v| Expr::Const(v)).collect());
                let op = if self.op == CmpOp::In { Op::In } else { Op::NotIn };
                return call(op, vec![lhs, set]);
            }
        };
        let op = match self.op {
            CmpOp::Lt => Op::Lt,
            CmpOp::Le => Op::Le,
            CmpOp::Ge => Op::Ge,
            CmpOp::Gt => Op::Gt,
            CmpOp::Eq | CmpOp::In => Op::Eq,
            CmpOp::Ne | CmpOp::NotIn => Op::Ne,
        };
        call(op, vec![lhs, operand])
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.operand {
            Operand::Int(k) => write!(f, "({},{k})", self.op.name()),
            Operand::Var(v) => write!(f, "({},{v})", self.op.name()),
            Operand::Range(lo, hi) => write!(f, "({},{lo}..{hi})", self.op.name()),
            Operand::Set(s) => {
                let items: Vec<String> = s.iter().map(i64::to_string).collect();
                write!(f, "({},{{{}}})", self.op.name(), items.join(","))
            }
        }
    }
}

/// The most characters of an expression a message shows.
const SHOWN: usize = 200;

/// An expression in XCSP3 notation with the variables' names in `model` (as the file
/// declares them; an auxiliary variable as `aux#N`), for messages; cut after about 200
/// characters.
pub(crate) fn show(model: &csp_core::Model, e: &Expr) -> String {
    fn go(model: &csp_core::Model, e: &Expr, out: &mut String) {
        if out.len() > SHOWN {
            return;
        }
        match e {
            Expr::Const(k) => out.push_str(&k.to_string()),
            Expr::Var(v) => out.push_str(model.name(*v)),
            Expr::Call(op, args) => {
                out.push_str(op.name());
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    go(model, a, out);
                }
                out.push(')');
            }
        }
    }
    let mut out = String::new();
    go(model, e, &mut out);
    if out.len() > SHOWN {
        let cut = (0..=SHOWN).rev().find(|&i| out.is_char_boundary(i)).unwrap_or(0);
        out.truncate(cut);
        out.push_str("...");
    }
    out
}
