//! The FlatZinc text as read, before any meaning is given to names: declarations,
//! constraints and the solve item, each with its place in the file.

use crate::error::Pos;
use crate::set::IntSet;

/// An expression: a literal, a name, an array, or (in annotations) a call.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// `true` or `false`.
    Bool(bool),
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// A set of integers: `{1, 3}`, `1..5`, `{}`.
    Set(IntSet),
    /// A set of floats (`1.0..2.5`, `{0.5}`): read so as to be refused with its place.
    FloatSet,
    /// A parameter's or variable's name.
    Ident(String),
    /// `a[i]`: one element of an array (older FlatZinc).
    Access(String, i64),
    /// `[e1, e2, ...]`.
    Array(Vec<Expr>),
    /// A string (annotation arguments only).
    Str(String),
    /// `name(args)` (annotations only).
    Call(String, Vec<Expr>),
}

/// The element type of a declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum BaseType {
    /// `bool`.
    Bool,
    /// `int`, unbounded.
    Int,
    /// `int` within a set: `1..5`, `{1, 3}`.
    IntIn(IntSet),
    /// `float` or a float range.
    Float,
    /// `set of int`, `set of 1..3`, `set of {..}`.
    Set,
}

/// A declaration's type.
#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    /// `var` (a decision variable) or not (a parameter).
    pub is_var: bool,
    /// `array [lo..hi] of ...`: the index range; `None` for a scalar.
    pub array: Option<(i64, i64)>,
    /// The element type.
    pub base: BaseType,
}

/// A parameter or variable declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    /// The name.
    pub name: String,
    /// Where the declaration starts.
    pub pos: Pos,
    /// The type.
    pub ty: Type,
    /// The annotations (`output_var`, `output_array([1..3])`, `is_defined_var`, ...).
    pub anns: Vec<Expr>,
    /// The value after `=`, if any.
    pub value: Option<Expr>,
}

/// `constraint name(args) :: anns;`
#[derive(Clone, Debug, PartialEq)]
pub struct Constraint {
    /// The builtin's or predicate's name.
    pub name: String,
    /// Where the item starts.
    pub pos: Pos,
    /// The arguments.
    pub args: Vec<Expr>,
    /// The annotations.
    pub anns: Vec<Expr>,
}

/// What the solve item asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    /// `satisfy`.
    Satisfy,
    /// `minimize e`.
    Minimize(Expr),
    /// `maximize e`.
    Maximize(Expr),
}

/// `solve :: anns goal;`
#[derive(Clone, Debug, PartialEq)]
pub struct Solve {
    /// Where the item starts.
    pub pos: Pos,
    /// The search annotations (and any other).
    pub anns: Vec<Expr>,
    /// What to solve for.
    pub goal: Goal,
}

/// A whole FlatZinc model.
#[derive(Clone, Debug, PartialEq)]
pub struct Ast {
    /// Parameters and variables, in file order.
    pub decls: Vec<Decl>,
    /// Constraints, in file order.
    pub constraints: Vec<Constraint>,
    /// The solve item.
    pub solve: Solve,
}
