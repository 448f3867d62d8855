//! Integer and boolean expressions in the language of XCSP3-core intension constraints,
//! their evaluation, and their compilation to propagators ([`compile`]).

pub(crate) mod compile;

use std::fmt;

use crate::error::ModelError;
use crate::var::VarId;

/// An operator of the XCSP3-core expression language (the names are XCSP3's).
///
/// Booleans are 0 and 1 (any non-zero value counts as true). Arithmetic is on `i64`; a
/// result that overflows, a division or modulo by zero, and a negative exponent are
/// *undefined*, and an expression with an undefined part is not satisfied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ExprOp {
    /// `neg(a) = -a`.
    Neg,
    /// `abs(a) = |a|`.
    Abs,
    /// `add(a, b, ...)`: the sum (one argument or more).
    Add,
    /// `sub(a, b) = a - b`.
    Sub,
    /// `mul(a, b, ...)`: the product (one argument or more).
    Mul,
    /// `div(a, b)`: the quotient truncated toward zero (as in Java, and ACE).
    Div,
    /// `mod(a, b)`: the remainder of [`ExprOp::Div`], with the sign of `a`.
    Mod,
    /// `sqr(a) = a * a`.
    Sqr,
    /// `pow(a, b) = a^b` for `b >= 0`.
    Pow,
    /// `min(a, b, ...)`.
    Min,
    /// `max(a, b, ...)`.
    Max,
    /// `dist(a, b) = |a - b|`.
    Dist,
    /// `lt(a, b)`: `a < b`.
    Lt,
    /// `le(a, b)`: `a <= b`.
    Le,
    /// `ge(a, b)`: `a >= b`.
    Ge,
    /// `gt(a, b)`: `a > b`.
    Gt,
    /// `ne(a, b)`: `a != b`.
    Ne,
    /// `eq(a, b, ...)`: all arguments equal (two or more).
    Eq,
    /// `in(a, set(...))`: `a` is one of the set's values.
    In,
    /// `notin(a, set(...))`: `a` is none of the set's values.
    NotIn,
    /// `set(...)`: a set of values, only as the second argument of `in` and `notin`.
    Set,
    /// `not(a)`.
    Not,
    /// `and(a, b, ...)`.
    And,
    /// `or(a, b, ...)`.
    Or,
    /// `xor(a, b, ...)`: an odd number of true arguments.
    Xor,
    /// `iff(a, b, ...)`: all arguments true or all false (two or more).
    Iff,
    /// `imp(a, b)`: `a` implies `b`.
    Imp,
    /// `if(c, a, b)`: `a` if `c` is true, else `b`. Only the branch taken is evaluated, so
    /// `if(ne(y, 0), div(x, y), 0)` is defined for `y = 0`.
    If,
}

impl ExprOp {
    /// Every operator.
    pub const ALL: [ExprOp; 28] = [
        ExprOp::Neg,
        ExprOp::Abs,
        ExprOp::Add,
        ExprOp::Sub,
        ExprOp::Mul,
        ExprOp::Div,
        ExprOp::Mod,
        ExprOp::Sqr,
        ExprOp::Pow,
        ExprOp::Min,
        ExprOp::Max,
        ExprOp::Dist,
        ExprOp::Lt,
        ExprOp::Le,
        ExprOp::Ge,
        ExprOp::Gt,
        ExprOp::Ne,
        ExprOp::Eq,
        ExprOp::In,
        ExprOp::NotIn,
        ExprOp::Set,
        ExprOp::Not,
        ExprOp::And,
        ExprOp::Or,
        ExprOp::Xor,
        ExprOp::Iff,
        ExprOp::Imp,
        ExprOp::If,
    ];

    /// The XCSP3 name (`add`, `notin`, `iff`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ExprOp::Neg => "neg",
            ExprOp::Abs => "abs",
            ExprOp::Add => "add",
            ExprOp::Sub => "sub",
            ExprOp::Mul => "mul",
            ExprOp::Div => "div",
            ExprOp::Mod => "mod",
            ExprOp::Sqr => "sqr",
            ExprOp::Pow => "pow",
            ExprOp::Min => "min",
            ExprOp::Max => "max",
            ExprOp::Dist => "dist",
            ExprOp::Lt => "lt",
            ExprOp::Le => "le",
            ExprOp::Ge => "ge",
            ExprOp::Gt => "gt",
            ExprOp::Ne => "ne",
            ExprOp::Eq => "eq",
            ExprOp::In => "in",
            ExprOp::NotIn => "notin",
            ExprOp::Set => "set",
            ExprOp::Not => "not",
            ExprOp::And => "and",
            ExprOp::Or => "or",
            ExprOp::Xor => "xor",
            ExprOp::Iff => "iff",
            ExprOp::Imp => "imp",
            ExprOp::If => "if",
        }
    }

    /// The operator with this XCSP3 name.
    pub fn from_name(name: &str) -> Option<ExprOp> {
        ExprOp::ALL.into_iter().find(|op| op.name() == name)
    }

    /// The allowed numbers of arguments: `(min, max)`.
    fn arity(self) -> (usize, usize) {
        use ExprOp::*;
        match self {
            Neg | Abs | Sqr | Not => (1, 1),
            Sub | Div | Mod | Pow | Dist | Lt | Le | Ge | Gt | Ne | Imp | In | NotIn => (2, 2),
            If => (3, 3),
            Add | Mul | Min | Max | And | Or | Xor => (1, usize::MAX),
            Eq | Iff => (2, usize::MAX),
            Set => (0, usize::MAX),
        }
    }
}

impl fmt::Display for ExprOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An expression over the variables of a model, as in an XCSP3 `intension` constraint.
///
/// ```
/// use csp_core::{Expr, ExprOp, Model};
/// let mut m = Model::new();
/// let x = m.int_var(-3, 3).unwrap();
/// // mod(x, 2) has the sign of x, as in Java: mod(-3, 2) = -1.
/// let e = Expr::call(ExprOp::Mod, vec![Expr::var(x), Expr::constant(2)]);
/// assert_eq!(e.eval(&|_| -3), Some(-1));
/// assert_eq!(Expr::call(ExprOp::Div, vec![Expr::var(x), Expr::constant(0)]).eval(&|_| 1), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// An integer constant.
    Const(i64),
    /// A variable's value.
    Var(VarId),
    /// An operator applied to arguments.
    Call(ExprOp, Vec<Expr>),
}

impl Expr {
    /// A variable's value.
    pub fn var(v: VarId) -> Expr {
        Expr::Var(v)
    }

    /// A constant.
    pub fn constant(c: i64) -> Expr {
        Expr::Const(c)
    }

    /// `op(args...)`.
    pub fn call(op: ExprOp, args: Vec<Expr>) -> Expr {
        Expr::Call(op, args)
    }

    /// The distinct variables of the expression, in order of first occurrence.
    pub fn variables(&self) -> Vec<VarId> {
        let mut out = Vec::new();
        self.collect_vars(&mut out);
        out
    }

    fn collect_vars(&self, out: &mut Vec<VarId>) {
        match self {
            Expr::Const(_) => {}
            Expr::Var(v) => {
                if !out.contains(v) {
                    out.push(*v);
                }
            }
            Expr::Call(_, args) => args.iter().for_each(|a| a.collect_vars(out)),
        }
    }

    /// The value of the expression when each variable `v` has the value `value(v)`;
    /// `None` when it is undefined (see [`ExprOp`]) or malformed (a wrong number of
    /// arguments, a `set` outside `in` and `notin`).
    pub fn eval(&self, value: &dyn Fn(VarId) -> i64) -> Option<i64> {
        let mut vars = Vec::new();
        self.collect_vars(&mut vars);
        let node = Node::compile(self, &vars).ok()?;
        let values: Vec<i64> = vars.iter().map(|&v| value(v)).collect();
        node.eval(&values)
    }

    /// Checks the shape: argument counts, `set` only as the second argument of `in`/`notin`.
    pub(crate) fn validate(&self) -> Result<(), ModelError> {
        let Expr::Call(op, args) = self else {
            return Ok(());
        };
        let (lo, hi) = op.arity();
        if args.len() < lo || args.len() > hi {
            return Err(invalid(format!(
                "{op} takes {} arguments, got {}",
                if lo == hi {
                    lo.to_string()
                } else if hi == usize::MAX {
                    format!("at least {lo}")
                } else {
                    format!("{lo} to {hi}")
                },
                args.len()
            )));
        }
        for (i, a) in args.iter().enumerate() {
            let set_here = matches!(op, ExprOp::In | ExprOp::NotIn) && i == 1;
            let is_set = matches!(a, Expr::Call(ExprOp::Set, _));
            if set_here && !is_set {
                return Err(invalid(format!("the second argument of {op} must be a set")));
            }
            if is_set && !set_here {
                return Err(invalid(format!(
                    "a set may appear only as the second argument of in or notin, not under {op}"
                )));
            }
            a.validate()?;
        }
        Ok(())
    }
}

impl From<VarId> for Expr {
    fn from(v: VarId) -> Expr {
        Expr::Var(v)
    }
}

impl From<i64> for Expr {
    fn from(c: i64) -> Expr {
        Expr::Const(c)
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Const(c) => write!(f, "{c}"),
            Expr::Var(v) => write!(f, "{v}"),
            Expr::Call(op, args) => {
                write!(f, "{op}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(")")
            }
        }
    }
}

fn invalid(reason: String) -> ModelError {
    ModelError::InvalidConstraint {
        constraint: "intension",
        reason,
    }
}

/// An expression compiled against a scope: variables are positions in it.
#[derive(Clone, Debug)]
pub(crate) enum Node {
    Const(i64),
    Var(usize),
    Call(ExprOp, Box<[Node]>),
}

impl Node {
    /// Compiles a validated-or-not expression over the scope `vars` (which holds each of its
    /// variables).
    pub(crate) fn compile(expr: &Expr, vars: &[VarId]) -> Result<Node, ModelError> {
        expr.validate()?;
        Ok(Node::lower(expr, vars))
    }

    fn lower(expr: &Expr, vars: &[VarId]) -> Node {
        match expr {
            Expr::Const(c) => Node::Const(*c),
            Expr::Var(v) => Node::Var(vars.iter().position(|x| x == v).expect("a variable of the scope")),
            Expr::Call(op, args) => Node::Call(*op, args.iter().map(|a| Node::lower(a, vars)).collect()),
        }
    }

    /// The value under `values` (one per scope position); `None` if undefined.
    pub(crate) fn eval<T: Copy + Into<i64>>(&self, values: &[T]) -> Option<i64> {
        use ExprOp::*;
        let (op, args) = match self {
            Node::Const(c) => return Some(*c),
            Node::Var(i) => return Some(values[*i].into()),
            Node::Call(op, args) => (*op, &args[..]),
        };
        let arg = |i: usize| args[i].eval(values);
        let truth = |b: bool| Some(i64::from(b));
        match op {
            Neg => arg(0)?.checked_neg(),
            Abs => arg(0)?.checked_abs(),
            Sqr => {
                let a = arg(0)?;
                a.checked_mul(a)
            }
            Not => truth(arg(0)? == 0),
            Sub => arg(0)?.checked_sub(arg(1)?),
            Div => arg(0)?.checked_div(arg(1)?),
            Mod => arg(0)?.checked_rem(arg(1)?),
            Pow => power(arg(0)?, arg(1)?),
            Dist => arg(0)?.checked_sub(arg(1)?)?.checked_abs(),
            Lt => truth(arg(0)? < arg(1)?),
            Le => truth(arg(0)? <= arg(1)?),
            Ge => truth(arg(0)? >= arg(1)?),
            Gt => truth(arg(0)? > arg(1)?),
            Ne => truth(arg(0)? != arg(1)?),
            Imp => {
                let (a, b) = (arg(0)?, arg(1)?);
                truth(a == 0 || b != 0)
            }
            If => {
                if arg(0)? != 0 {
                    arg(1)
                } else {
                    arg(2)
                }
            }
            In | NotIn => {
                let a = arg(0)?;
                let Node::Call(Set, set) = &args[1] else {
                    return None;
                };
                let mut found = false;
                for s in set.iter() {
                    found |= s.eval(values)? == a;
                }
                truth(found == (op == In))
            }
            Set => None,
            Add => fold(args, values, |a, b| a.checked_add(b)),
            Mul => fold(args, values, |a, b| a.checked_mul(b)),
            Min => fold(args, values, |a, b| Some(a.min(b))),
            Max => fold(args, values, |a, b| Some(a.max(b))),
            And => {
                let mut all = true;
                for a in args.iter() {
                    all &= a.eval(values)? != 0;
                }
                truth(all)
            }
            Or => {
                let mut any = false;
                for a in args.iter() {
                    any |= a.eval(values)? != 0;
                }
                truth(any)
            }
            Xor => {
                let mut odd = false;
                for a in args.iter() {
                    odd ^= a.eval(values)? != 0;
                }
                truth(odd)
            }
            Eq => {
                let first = arg(0)?;
                let mut all = true;
                for a in args[1..].iter() {
                    all &= a.eval(values)? == first;
                }
                truth(all)
            }
            Iff => {
                let first = arg(0)? != 0;
                let mut all = true;
                for a in args[1..].iter() {
                    all &= (a.eval(values)? != 0) == first;
                }
                truth(all)
            }
        }
    }

    /// Whether the expression holds (is defined and non-zero).
    pub(crate) fn holds<T: Copy + Into<i64>>(&self, values: &[T]) -> bool {
        self.eval(values).is_some_and(|v| v != 0)
    }
}

fn fold<T: Copy + Into<i64>>(
    args: &[Node],
    values: &[T],
    f: impl Fn(i64, i64) -> Option<i64>,
) -> Option<i64> {
    let mut acc = args[0].eval(values)?;
    for a in &args[1..] {
        acc = f(acc, a.eval(values)?)?;
    }
    Some(acc)
}

/// `base^exp`, undefined for a negative exponent or on overflow.
fn power(base: i64, exp: i64) -> Option<i64> {
    match (base, exp) {
        (_, e) if e < 0 => None,
        (_, 0) => Some(1),
        (0 | 1, _) => Some(base),
        (-1, e) => Some(if e % 2 == 0 { 1 } else { -1 }),
        (_, e) => base.checked_pow(u32::try_from(e).ok()?),
    }
}
