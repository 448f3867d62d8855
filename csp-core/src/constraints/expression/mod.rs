//! Integer and boolean expressions in the language of XCSP3-core intension constraints,
//! their evaluation, and their compilation to propagators ([`compile`]).

mod bounds;
pub(crate) mod compile;

use std::fmt;

pub use bounds::{Bounds, Interval, RangeError};

use crate::error::ModelError;
use crate::var::VarId;

/// An operator of the XCSP3-core expression language (the names are XCSP3's).
///
/// Booleans are 0 and 1 (any non-zero value counts as true). Arithmetic is exact: values are
/// computed in 128-bit integers, and a constraint whose values could leave them is refused
/// when it is posted ([`ModelError::Arithmetic`]). A division or modulo by zero and a
/// negative exponent are *undefined*; an undefined operand makes its operator undefined,
/// unless the other operands decide the result (a false operand of `and`, a true one of
/// `or`, a false premise or a true conclusion of `imp`, the branch `if` does not take). A
/// constraint whose expression is undefined is not satisfied.
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

    /// The value of the expression when each variable `v` has the value `value(v)`, computed
    /// exactly in 128-bit integers; `None` when it is undefined (see [`ExprOp`]), malformed (a
    /// wrong number of arguments, a `set` outside `in` and `notin`), or when an intermediate
    /// value leaves the 128-bit integers (which a model refuses when the expression is posted:
    /// see [`Expr::bounds`]).
    pub fn eval(&self, value: &dyn Fn(VarId) -> i64) -> Option<i128> {
        let mut vars = Vec::new();
        self.collect_vars(&mut vars);
        self.validate().ok()?;
        let node = Node::lower(self, &vars);
        let values: Vec<i64> = vars.iter().map(|&v| value(v)).collect();
        node.eval::<i128, i64>(&values)
    }

    /// The bounds of the expression's values when each variable `v` lies within `domain(v)`
    /// (`(min, max)`), and whether every subexpression stays within 64 bits. An error names a
    /// subexpression whose values could leave the 128-bit integers: such an expression is
    /// refused when posted.
    ///
    /// ```
    /// use csp_core::{Expr, ExprOp, Model};
    /// let mut m = Model::new();
    /// let x = m.int_var(2, 3).unwrap();
    /// let e = Expr::call(ExprOp::Pow, vec![Expr::var(x), Expr::constant(70)]);
    /// let b = e.bounds(&|_| (2, 3)).unwrap();
    /// assert!(!b.narrow && b.interval.1 == 3i128.pow(70));
    /// assert!(Expr::call(ExprOp::Pow, vec![Expr::var(x), Expr::constant(200)]).bounds(&|_| (2, 3)).is_err());
    /// ```
    pub fn bounds(&self, domain: &dyn Fn(VarId) -> (i64, i64)) -> Result<Bounds, RangeError> {
        bounds::bounds(self, domain)
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
enum Node {
    Const(i64),
    Var(usize),
    Call(ExprOp, Box<[Node]>),
}

/// An expression compiled against a scope, with the integer width its bounds allow.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    node: Node,
    /// Every subexpression fits 64 bits over the domains it was compiled for: evaluated in
    /// `i64`, else in `i128`. Either way exactly (see [`bounds`]).
    narrow: bool,
}

impl Compiled {
    /// Compiles `expr` over the scope `vars` (which holds each of its variables), whose
    /// domains lie within `domain(v)`. Refuses an expression whose values could leave the
    /// 128-bit integers.
    pub(crate) fn new(
        expr: &Expr,
        vars: &[VarId],
        domain: &dyn Fn(VarId) -> (i64, i64),
    ) -> Result<Compiled, ModelError> {
        expr.validate()?;
        let b = expr.bounds(domain).map_err(|e| ModelError::Arithmetic {
            constraint: "intension",
            reason: e.to_string(),
        })?;
        Ok(Compiled {
            node: Node::lower(expr, vars),
            narrow: b.narrow,
        })
    }

    /// The value under `values` (one per scope position, within the domains it was compiled
    /// for); `None` if undefined.
    #[inline]
    pub(crate) fn eval<T: Copy + Into<i64>>(&self, values: &[T]) -> Option<i128> {
        if self.narrow {
            self.node.eval::<i64, T>(values).map(i128::from)
        } else {
            self.node.eval::<i128, T>(values)
        }
    }

    /// Whether the expression holds (is defined and non-zero).
    #[inline]
    pub(crate) fn holds<T: Copy + Into<i64>>(&self, values: &[T]) -> bool {
        if self.narrow {
            self.node.eval::<i64, T>(values).is_some_and(|v| v != 0)
        } else {
            self.node.eval::<i128, T>(values).is_some_and(|v| v != 0)
        }
    }
}

/// The integers an expression is evaluated in: `i64` when its bounds allow, else `i128`.
/// Every operation is checked: `None` is an undefined value (or, outside the bounds the
/// expression was compiled for, an overflow).
trait Int: Copy + Ord + Sized {
    const ZERO: Self;
    const ONE: Self;
    fn of(x: i64) -> Self;
    fn neg(self) -> Option<Self>;
    fn abs(self) -> Option<Self>;
    fn add(self, o: Self) -> Option<Self>;
    fn sub(self, o: Self) -> Option<Self>;
    fn mul(self, o: Self) -> Option<Self>;
    /// Truncating division; `None` for a zero divisor.
    fn div(self, o: Self) -> Option<Self>;
    /// The remainder of [`Int::div`], with the dividend's sign.
    fn rem(self, o: Self) -> Option<Self>;
    fn pow(self, e: u32) -> Option<Self>;
    fn to_u32(self) -> Option<u32>;
}

macro_rules! int_impl {
    ($t:ty) => {
        impl Int for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline]
            fn of(x: i64) -> Self {
                x as $t
            }
            #[inline]
            fn neg(self) -> Option<Self> {
                self.checked_neg()
            }
            #[inline]
            fn abs(self) -> Option<Self> {
                self.checked_abs()
            }
            #[inline]
            fn add(self, o: Self) -> Option<Self> {
                self.checked_add(o)
            }
            #[inline]
            fn sub(self, o: Self) -> Option<Self> {
                self.checked_sub(o)
            }
            #[inline]
            fn mul(self, o: Self) -> Option<Self> {
                self.checked_mul(o)
            }
            #[inline]
            fn div(self, o: Self) -> Option<Self> {
                self.checked_div(o)
            }
            #[inline]
            fn rem(self, o: Self) -> Option<Self> {
                // Only a zero divisor is undefined: `MIN % -1` is 0, though `MIN / -1`
                // overflows (the bounds of `mod` may let it be evaluated in 64 bits).
                if o == 0 {
                    None
                } else {
                    Some(self.wrapping_rem(o))
                }
            }
            #[inline]
            fn pow(self, e: u32) -> Option<Self> {
                self.checked_pow(e)
            }
            #[inline]
            fn to_u32(self) -> Option<u32> {
                u32::try_from(self).ok()
            }
        }
    };
}
int_impl!(i64);
int_impl!(i128);

impl Node {
    fn lower(expr: &Expr, vars: &[VarId]) -> Node {
        match expr {
            Expr::Const(c) => Node::Const(*c),
            Expr::Var(v) => Node::Var(vars.iter().position(|x| x == v).expect("a variable of the scope")),
            Expr::Call(op, args) => Node::Call(*op, args.iter().map(|a| Node::lower(a, vars)).collect()),
        }
    }

    /// The value under `values` (one per scope position) in the integers `N`; `None` if
    /// undefined.
    fn eval<N: Int, T: Copy + Into<i64>>(&self, values: &[T]) -> Option<N> {
        use ExprOp::*;
        let (op, args) = match self {
            Node::Const(c) => return Some(N::of(*c)),
            Node::Var(i) => return Some(N::of(values[*i].into())),
            Node::Call(op, args) => (*op, &args[..]),
        };
        let arg = |i: usize| args[i].eval::<N, T>(values);
        let truth = |b: bool| Some(if b { N::ONE } else { N::ZERO });
        match op {
            Neg => arg(0)?.neg(),
            Abs => arg(0)?.abs(),
            Sqr => {
                let a = arg(0)?;
                a.mul(a)
            }
            Not => truth(arg(0)? == N::ZERO),
            Sub => arg(0)?.sub(arg(1)?),
            Div => arg(0)?.div(arg(1)?),
            Mod => arg(0)?.rem(arg(1)?),
            Pow => power(arg(0)?, arg(1)?),
            Dist => arg(0)?.sub(arg(1)?)?.abs(),
            Lt => truth(arg(0)? < arg(1)?),
            Le => truth(arg(0)? <= arg(1)?),
            Ge => truth(arg(0)? >= arg(1)?),
            Gt => truth(arg(0)? > arg(1)?),
            Ne => truth(arg(0)? != arg(1)?),
            // Lazy where the defined operands decide: `imp(ne(y, 0), ...)` guards a division.
            Imp => match (arg(0), arg(1)) {
                (Some(a), _) if a == N::ZERO => truth(true),
                (_, Some(b)) if b != N::ZERO => truth(true),
                (Some(_), Some(_)) => truth(false),
                _ => None,
            },
            If => {
                if arg(0)? != N::ZERO {
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
                    found |= s.eval::<N, T>(values)? == a;
                }
                truth(found == (op == In))
            }
            Set => None,
            Add => fold(args, values, N::add),
            Mul => fold(args, values, N::mul),
            Min => fold(args, values, |a: N, b: N| Some(a.min(b))),
            Max => fold(args, values, |a: N, b: N| Some(a.max(b))),
            And => decided(args, values, false),
            Or => decided(args, values, true),
            Xor => {
                let mut odd = false;
                for a in args.iter() {
                    odd ^= a.eval::<N, T>(values)? != N::ZERO;
                }
                truth(odd)
            }
            Eq => {
                let first = arg(0)?;
                let mut all = true;
                for a in args[1..].iter() {
                    all &= a.eval::<N, T>(values)? == first;
                }
                truth(all)
            }
            Iff => {
                let first = arg(0)? != N::ZERO;
                let mut all = true;
                for a in args[1..].iter() {
                    all &= (a.eval::<N, T>(values)? != N::ZERO) == first;
                }
                truth(all)
            }
        }
    }
}

/// `and` (`decider` false) or `or` (`decider` true): an operand equal to the decider decides
/// the result even if others are undefined.
fn decided<N: Int, T: Copy + Into<i64>>(args: &[Node], values: &[T], decider: bool) -> Option<N> {
    let mut undefined = false;
    for a in args {
        match a.eval::<N, T>(values) {
            Some(v) if (v != N::ZERO) == decider => return Some(if decider { N::ONE } else { N::ZERO }),
            Some(_) => {}
            None => undefined = true,
        }
    }
    if undefined {
        None
    } else {
        Some(if decider { N::ZERO } else { N::ONE })
    }
}

fn fold<N: Int, T: Copy + Into<i64>>(
    args: &[Node],
    values: &[T],
    f: impl Fn(N, N) -> Option<N>,
) -> Option<N> {
    let mut acc = args[0].eval::<N, T>(values)?;
    for a in &args[1..] {
        acc = f(acc, a.eval::<N, T>(values)?)?;
    }
    Some(acc)
}

/// `base^exp`, undefined for a negative exponent.
fn power<N: Int>(base: N, exp: N) -> Option<N> {
    if exp < N::ZERO {
        return None;
    }
    if exp == N::ZERO {
        return Some(N::ONE);
    }
    if base == N::ZERO || base == N::ONE {
        return Some(base);
    }
    if base == N::ONE.neg()? {
        // (-1)^e: the parity of e, without a 32-bit exponent.
        let even = exp.rem(N::ONE.add(N::ONE)?)? == N::ZERO;
        return Some(if even { N::ONE } else { base });
    }
    base.pow(exp.to_u32()?)
}
