//! The constraints of an instance as read, before they are posted to a csp-core model:
//! an intermediate form that also checks a complete assignment (for tests by brute force).

use std::sync::Arc;

use csp_core::VarId;

use crate::error::Position;

/// The operators of the XCSP3 expression language: csp-core's, which name and parse them.
pub use csp_core::ExprOp as Op;

/// The number of operands XCSP3 allows an operator: `(min, max)` (n-ary ones take two or more).
pub fn operand_count(op: Op) -> (usize, usize) {
    match op {
        Op::Neg | Op::Abs | Op::Sqr | Op::Not => (1, 1),
        Op::If => (3, 3),
        Op::Set => (0, usize::MAX),
        Op::Add | Op::Mul | Op::Min | Op::Max | Op::And | Op::Or | Op::Xor | Op::Iff | Op::Eq => {
            (2, usize::MAX)
        }
        _ => (2, 2),
    }
}

/// An expression: an integer, a variable, or an operator applied to operands.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ex {
    /// An integer constant (booleans are 0 and 1).
    Int(i64),
    /// A variable.
    Var(VarId),
    /// An operator applied to operands.
    Call(Op, Vec<Ex>),
}

impl Ex {
    /// Every variable the expression mentions, in first-occurrence order, without repeats.
    pub fn vars(&self) -> Vec<VarId> {
        let mut out = Vec::new();
        self.collect_vars(&mut out);
        out
    }

    fn collect_vars(&self, out: &mut Vec<VarId>) {
        match self {
            Ex::Int(_) => {}
            Ex::Var(v) => {
                if !out.contains(v) {
                    out.push(*v);
                }
            }
            Ex::Call(_, args) => args.iter().for_each(|a| a.collect_vars(out)),
        }
    }

    /// The value under a complete assignment (`values[v.index()]`), or `None` where it is
    /// undefined (division by zero, a negative power, an overflow).
    pub fn eval(&self, values: &[i32]) -> Option<i64> {
        Some(match self {
            Ex::Int(k) => *k,
            Ex::Var(v) => i64::from(values[v.index()]),
            Ex::Call(op, args) => {
                let arg = |i: usize| args[i].eval(values);
                let b = |x: bool| i64::from(x);
                match op {
                    Op::Neg => arg(0)?.checked_neg()?,
                    Op::Abs => arg(0)?.checked_abs()?,
                    Op::Sqr => {
                        let x = arg(0)?;
                        x.checked_mul(x)?
                    }
                    Op::Add => {
                        let mut s = 0i64;
                        for a in args {
                            s = s.checked_add(a.eval(values)?)?;
                        }
                        s
                    }
                    Op::Mul => {
                        let mut s = 1i64;
                        for a in args {
                            s = s.checked_mul(a.eval(values)?)?;
                        }
                        s
                    }
                    Op::Sub => arg(0)?.checked_sub(arg(1)?)?,
                    Op::Div => {
                        // Java semantics, as the XCSP3 tools: truncation toward zero.
                        let d = arg(1)?;
                        if d == 0 {
                            return None;
                        }
                        arg(0)?.checked_div(d)?
                    }
                    Op::Mod => {
                        let d = arg(1)?;
                        if d == 0 {
                            return None;
                        }
                        arg(0)?.checked_rem(d)?
                    }
                    Op::Pow => {
                        let e = arg(1)?;
                        if e < 0 {
                            return None;
                        }
                        arg(0)?.checked_pow(u32::try_from(e).ok()?)?
                    }
                    Op::Min => {
                        let mut m = i64::MAX;
                        for a in args {
                            m = m.min(a.eval(values)?);
                        }
                        m
                    }
                    Op::Max => {
                        let mut m = i64::MIN;
                        for a in args {
                            m = m.max(a.eval(values)?);
                        }
                        m
                    }
                    Op::Dist => arg(0)?.checked_sub(arg(1)?)?.checked_abs()?,
                    Op::Lt => b(arg(0)? < arg(1)?),
                    Op::Le => b(arg(0)? <= arg(1)?),
                    Op::Ge => b(arg(0)? >= arg(1)?),
                    Op::Gt => b(arg(0)? > arg(1)?),
                    Op::Ne => b(arg(0)? != arg(1)?),
                    Op::Eq => {
                        let first = arg(0)?;
                        let mut all = true;
                        for a in &args[1..] {
                            all &= a.eval(values)? == first;
                        }
                        b(all)
                    }
                    Op::In | Op::NotIn => {
                        let x = arg(0)?;
                        let Ex::Call(Op::Set, items) = &args[1] else {
                            return None;
                        };
                        let mut found = false;
                        for a in items {
                            found |= a.eval(values)? == x;
                        }
                        b(found == (*op == Op::In))
                    }
                    Op::Set => return None,
                    Op::Not => b(arg(0)? == 0),
                    Op::And => {
                        let mut all = true;
                        for a in args {
                            all &= a.eval(values)? != 0;
                        }
                        b(all)
                    }
                    Op::Or => {
                        let mut any = false;
                        for a in args {
                            any |= a.eval(values)? != 0;
                        }
                        b(any)
                    }
                    Op::Xor => {
                        let mut odd = false;
                        for a in args {
                            odd ^= a.eval(values)? != 0;
                        }
                        b(odd)
                    }
                    Op::Iff => {
                        let first = arg(0)? != 0;
                        let mut all = true;
                        for a in &args[1..] {
                            all &= (a.eval(values)? != 0) == first;
                        }
                        b(all)
                    }
                    Op::Imp => b(arg(0)? == 0 || arg(1)? != 0),
                    Op::If => {
                        if arg(0)? != 0 {
                            arg(1)?
                        } else {
                            arg(2)?
                        }
                    }
                    // An operator this reader does not know evaluates to nothing.
                    _ => return None,
                }
            }
        })
    }

    /// The single variable plus an offset this expression is, if it is one: `x`,
    /// `add(x,c)`, `add(c,x)`, `sub(x,c)`.
    pub fn as_view(&self) -> Option<(VarId, i64)> {
        match self {
            Ex::Var(v) => Some((*v, 0)),
            Ex::Call(Op::Add, a) if a.len() == 2 => match (&a[0], &a[1]) {
                (Ex::Var(v), Ex::Int(c)) | (Ex::Int(c), Ex::Var(v)) => Some((*v, *c)),
                _ => None,
            },
            Ex::Call(Op::Sub, a) => match (&a[0], &a[1]) {
                (Ex::Var(v), Ex::Int(c)) => Some((*v, c.checked_neg()?)),
                _ => None,
            },
            _ => None,
        }
    }
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
    pub fn holds(&self, lhs: i64, values: &[i32]) -> bool {
        let rhs = match &self.operand {
            Operand::Int(k) => *k,
            Operand::Var(v) => i64::from(values[v.index()]),
            Operand::Range(lo, hi) => {
                let inside = *lo <= lhs && lhs <= *hi;
                return inside == (self.op == CmpOp::In);
            }
            Operand::Set(s) => {
                let inside = s.contains(&lhs);
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
}

/// A cell of a table: a value or `*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// This value.
    Value(i32),
    /// Any value (`*` in a short table).
    Any,
}

/// The tuples of an `<extension>`, stored flat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The number of values a tuple has.
    pub arity: usize,
    /// The tuples one after the other.
    pub cells: Vec<Cell>,
}

impl Table {
    /// The number of tuples.
    pub fn len(&self) -> usize {
        self.cells.len().checked_div(self.arity).unwrap_or(0)
    }

    /// Whether there is no tuple.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The tuples.
    pub fn tuples(&self) -> impl Iterator<Item = &[Cell]> {
        self.cells.chunks_exact(self.arity.max(1))
    }

    /// Whether `tuple` matches one of the rows.
    pub fn matches(&self, tuple: &[i32]) -> bool {
        self.tuples().any(|row| {
            row.iter()
                .zip(tuple)
                .all(|(c, &v)| matches!(c, Cell::Any) || *c == Cell::Value(v))
        })
    }
}

/// A constraint as read.
#[derive(Clone, Debug, PartialEq)]
pub enum Constraint {
    /// A predicate: the expression is true (non-zero).
    Intension(Ex),
    /// A table over variables.
    Extension {
        /// The scope.
        scope: Vec<VarId>,
        /// The tuples.
        table: Arc<Table>,
        /// Supports (allowed tuples) or conflicts (forbidden ones).
        supports: bool,
    },
    /// The items take distinct values, except values of `except` that may repeat.
    AllDifferent {
        /// The items (variables or expressions).
        items: Vec<Ex>,
        /// Values that may repeat.
        except: Vec<i64>,
    },
    /// The lists (tuples of the same length) are distinct vectors.
    AllDifferentLists {
        /// The lists.
        lists: Vec<Vec<Ex>>,
        /// Tuples made only of these values may repeat (one per list position, or one value).
        except: Vec<Vec<i64>>,
    },
    /// `sum(coeff * item) op operand`.
    Sum {
        /// Coefficient and item (a variable or an expression).
        terms: Vec<(Ex, Ex)>,
        /// The condition.
        condition: Condition,
    },
    /// `list[index - start] op operand`; without an index, some item satisfies the condition.
    Element {
        /// The list.
        list: Vec<Ex>,
        /// The index (absent: member form).
        index: Option<Ex>,
        /// The number of the first item.
        start: i64,
        /// The condition on the selected item.
        condition: Condition,
    },
    /// The variables take these values.
    Instantiation {
        /// The variables.
        vars: Vec<VarId>,
        /// Their values.
        values: Vec<i64>,
    },
}

impl Constraint {
    /// Calls `f` on every variable the constraint mentions (repeats included).
    pub fn for_each_var(&self, f: &mut impl FnMut(VarId)) {
        fn ex(e: &Ex, f: &mut impl FnMut(VarId)) {
            match e {
                Ex::Int(_) => {}
                Ex::Var(v) => f(*v),
                Ex::Call(_, a) => a.iter().for_each(|x| ex(x, f)),
            }
        }
        let operand = |c: &Condition, f: &mut dyn FnMut(VarId)| {
            if let Operand::Var(v) = c.operand {
                f(v);
            }
        };
        match self {
            Constraint::Intension(e) => ex(e, f),
            Constraint::Extension { scope, .. } => scope.iter().for_each(|&v| f(v)),
            Constraint::AllDifferent { items, .. } => items.iter().for_each(|e| ex(e, f)),
            Constraint::AllDifferentLists { lists, .. } => lists.iter().flatten().for_each(|e| ex(e, f)),
            Constraint::Sum { terms, condition } => {
                for (c, e) in terms {
                    ex(c, f);
                    ex(e, f);
                }
                operand(condition, f);
            }
            Constraint::Element {
                list,
                index,
                condition,
                ..
            } => {
                list.iter().for_each(|e| ex(e, f));
                if let Some(i) = index {
                    ex(i, f);
                }
                operand(condition, f);
            }
            Constraint::Instantiation { vars, .. } => vars.iter().for_each(|&v| f(v)),
        }
    }

    /// Whether the constraint holds under a complete assignment.
    pub fn holds(&self, values: &[i32]) -> bool {
        match self {
            Constraint::Intension(e) => e.eval(values).is_some_and(|v| v != 0),
            Constraint::Extension {
                scope,
                table,
                supports,
            } => {
                let tuple: Vec<i32> = scope.iter().map(|v| values[v.index()]).collect();
                table.matches(&tuple) == *supports
            }
            Constraint::AllDifferent { items, except } => {
                let Some(vals) = items.iter().map(|e| e.eval(values)).collect::<Option<Vec<_>>>() else {
                    return false;
                };
                for i in 0..vals.len() {
                    for j in i + 1..vals.len() {
                        if vals[i] == vals[j] && !except.contains(&vals[i]) {
                            return false;
                        }
                    }
                }
                true
            }
            Constraint::AllDifferentLists { lists, except } => {
                let Some(vals) = lists
                    .iter()
                    .map(|l| l.iter().map(|e| e.eval(values)).collect::<Option<Vec<_>>>())
                    .collect::<Option<Vec<_>>>()
                else {
                    return false;
                };
                for i in 0..vals.len() {
                    for j in i + 1..vals.len() {
                        if vals[i] == vals[j] && !except.contains(&vals[i]) {
                            return false;
                        }
                    }
                }
                true
            }
            Constraint::Sum { terms, condition } => {
                let mut s = 0i64;
                for (c, e) in terms {
                    let (Some(c), Some(e)) = (c.eval(values), e.eval(values)) else {
                        return false;
                    };
                    s += c * e;
                }
                condition.holds(s, values)
            }
            Constraint::Element {
                list,
                index,
                start,
                condition,
            } => match index {
                Some(index) => {
                    let Some(i) = index.eval(values) else { return false };
                    let Some(item) = usize::try_from(i - start).ok().and_then(|k| list.get(k)) else {
                        return false;
                    };
                    item.eval(values).is_some_and(|v| condition.holds(v, values))
                }
                None => list
                    .iter()
                    .any(|e| e.eval(values).is_some_and(|v| condition.holds(v, values))),
            },
            Constraint::Instantiation { vars, values: want } => vars
                .iter()
                .zip(want)
                .all(|(v, &w)| i64::from(values[v.index()]) == w),
        }
    }
}

/// A constraint with the place it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    /// The constraint.
    pub constraint: Constraint,
    /// Where its element starts.
    pub position: Position,
}
