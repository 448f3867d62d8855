//! Names: the declarations turned into parameters, scalar variables (each `var` of the
//! file, and each element of a `var` array declared without a value), arrays of them, and
//! the classes of variables that are equal (`var int: y = x;`, `bool2int`, `int_eq`), so
//! that each class becomes one variable of the model.

use std::collections::HashMap;

use crate::ast::{BaseType, Decl, Expr};
use crate::error::{Error, Pos, Result};
use crate::set::IntSet;

/// A parameter's value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Bool(bool),
    Int(i64),
    Float(f64),
    Set(IntSet),
}

/// A constraint argument before the model exists: a constant or a scalar variable (by
/// its index in [`Symbols::vars`]; Booleans are 0 and 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PreTerm {
    Const(i64),
    Var(usize),
}

/// What a name stands for.
#[derive(Clone, Debug)]
pub(crate) enum Sym {
    Par(Value),
    ParArray(Vec<Value>),
    Var(usize),
    /// An array of variables (its elements may be constants).
    VarArray(Vec<PreTerm>),
}

/// One scalar variable of the file.
#[derive(Clone, Debug)]
pub(crate) struct VarInfo {
    pub name: String,
    pub pos: Pos,
    pub is_bool: bool,
    /// `None`: `var int`, no bounds given.
    pub domain: Option<IntSet>,
    /// Annotated `var_is_introduced` or `is_defined_var`: made by the compiler, so a
    /// worse name for the class's variable than one the modeller wrote.
    pub introduced: bool,
}

/// An output annotation: what to print for each solution.
#[derive(Clone, Debug)]
pub(crate) struct PreOutput {
    pub name: String,
    pub is_bool: bool,
    /// `None` for `output_var`; the index ranges of `output_array`.
    pub dims: Option<Vec<(i64, i64)>>,
    pub elems: Vec<PreTerm>,
}

/// Everything the declarations define.
#[derive(Debug, Default)]
pub(crate) struct Symbols {
    pub names: HashMap<String, Sym>,
    pub vars: Vec<VarInfo>,
    /// Union-find over `vars`: the representative of a class is its lowest index.
    parent: Vec<usize>,
    pub outputs: Vec<PreOutput>,
}

impl Symbols {
    /// Reads the declarations, in order (a name is used after its declaration).
    pub fn read(decls: &[Decl]) -> Result<Symbols> {
        let mut s = Symbols::default();
        for d in decls {
            if s.names.contains_key(&d.name) {
                return Err(Error::invalid(d.pos, format!("`{}` is declared twice", d.name)));
            }
            let sym = if d.ty.is_var {
                s.var_decl(d)?
            } else {
                s.par_decl(d)?
            };
            s.names.insert(d.name.clone(), sym);
            s.output(d)?;
        }
        Ok(s)
    }

    /// The representative of `v`'s class.
    pub fn root(&self, mut v: usize) -> usize {
        while self.parent[v] != v {
            v = self.parent[v];
        }
        v
    }

    /// [`Symbols::root`], halving the path on the way (chains of `var int: y = x;` would
    /// otherwise make merging quadratic).
    fn find(&mut self, mut v: usize) -> usize {
        while self.parent[v] != v {
            self.parent[v] = self.parent[self.parent[v]];
            v = self.parent[v];
        }
        v
    }

    /// Points every variable straight at its class's representative, so that
    /// [`Symbols::root`] takes one step. A representative is the lowest index of its
    /// class, so each variable's parent comes before it and one pass in index order does.
    pub fn compress(&mut self) {
        for v in 0..self.parent.len() {
            self.parent[v] = self.parent[self.parent[v]];
        }
    }

    /// Merges the classes of `a` and `b` (the variables are equal).
    pub fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent[hi] = lo;
        }
    }

    fn new_var(
        &mut self,
        name: String,
        pos: Pos,
        is_bool: bool,
        domain: Option<IntSet>,
        introduced: bool,
    ) -> usize {
        self.vars.push(VarInfo {
            name,
            pos,
            is_bool,
            domain,
            introduced,
        });
        self.parent.push(self.vars.len() - 1);
        self.vars.len() - 1
    }

    fn par_decl(&self, d: &Decl) -> Result<Sym> {
        let Some(value) = &d.value else {
            return Err(Error::invalid(
                d.pos,
                format!("the parameter `{}` has no value", d.name),
            ));
        };
        if d.ty.array.is_some() {
            let items = match value {
                Expr::Array(items) => items
                    .iter()
                    .map(|e| self.value(e, d.pos))
                    .collect::<Result<_>>()?,
                Expr::Ident(other) => match self.names.get(other) {
                    Some(Sym::ParArray(v)) => v.clone(),
                    _ => {
                        return Err(Error::invalid(
                            d.pos,
                            format!("`{other}` is not an array of parameters"),
                        ));
                    }
                },
                _ => {
                    return Err(Error::invalid(
                        d.pos,
                        format!("the array `{}` needs an array literal", d.name),
                    ));
                }
            };
            Ok(Sym::ParArray(items))
        } else {
            Ok(Sym::Par(self.value(value, d.pos)?))
        }
    }

    /// The value of a parameter expression.
    pub fn value(&self, e: &Expr, pos: Pos) -> Result<Value> {
        Ok(match e {
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Int(i) => Value::Int(*i),
            Expr::Float(x) => Value::Float(*x),
            Expr::Set(s) => Value::Set(s.clone()),
            Expr::FloatSet => Value::Float(0.0),
            Expr::Ident(name) => match self.names.get(name) {
                Some(Sym::Par(v)) => v.clone(),
                Some(_) => return Err(Error::invalid(pos, format!("`{name}` is not a parameter"))),
                None => return Err(Error::invalid(pos, format!("unknown name `{name}`"))),
            },
            Expr::Access(name, i) => match self.names.get(name) {
                Some(Sym::ParArray(items)) => index(items, *i)
                    .cloned()
                    .ok_or_else(|| Error::invalid(pos, format!("`{name}[{i}]` is out of range")))?,
                _ => {
                    return Err(Error::invalid(
                        pos,
                        format!("`{name}` is not an array of parameters"),
                    ));
                }
            },
            other => return Err(Error::invalid(pos, format!("expected a literal, got {other:?}"))),
        })
    }

    fn var_decl(&mut self, d: &Decl) -> Result<Sym> {
        let kind = match &d.ty.base {
            BaseType::Float => "float",
            BaseType::Set => "set",
            _ => "",
        };
        if !kind.is_empty() {
            return Err(Error::unsupported(
                d.pos,
                format!(
                    "`{}` is a {kind} variable: csp has integer and Boolean variables only (solve this model with a solver that has {kind} variables)",
                    d.name
                ),
            ));
        }
        let is_bool = d.ty.base == BaseType::Bool;
        let domain = match &d.ty.base {
            BaseType::Bool => Some(IntSet::range(0, 1)),
            BaseType::IntIn(s) => Some(s.clone()),
            _ => None,
        };
        let introduced = d
            .anns
            .iter()
            .any(|a| matches!(a, Expr::Ident(n) if n == "var_is_introduced" || n == "is_defined_var"));
        let Some((lo, hi)) = d.ty.array else {
            let v = self.new_var(d.name.clone(), d.pos, is_bool, domain, introduced);
            match &d.value {
                None => {}
                Some(e) => match self.pre_term(e, d.pos)? {
                    PreTerm::Var(other) => self.union(v, other),
                    PreTerm::Const(c) => {
                        let fixed = IntSet::range(c, c);
                        let info = &mut self.vars[v];
                        info.domain = Some(
                            info.domain
                                .as_ref()
                                .map_or(fixed.clone(), |s| s.intersect(&fixed)),
                        );
                    }
                },
            }
            return Ok(Sym::Var(v));
        };
        let elems = match &d.value {
            Some(Expr::Array(items)) => items
                .iter()
                .map(|e| self.pre_term(e, d.pos))
                .collect::<Result<Vec<_>>>()?,
            Some(Expr::Ident(other)) => match self.names.get(other) {
                Some(Sym::VarArray(t)) => t.clone(),
                Some(Sym::ParArray(v)) => v.iter().map(|x| const_of(x, d.pos)).collect::<Result<_>>()?,
                _ => return Err(Error::invalid(d.pos, format!("`{other}` is not an array"))),
            },
            Some(_) => {
                return Err(Error::invalid(
                    d.pos,
                    format!("the array `{}` needs an array literal", d.name),
                ));
            }
            None => {
                // Not written by MiniZinc, but meaningful: fresh variables.
                let n = (i128::from(hi) - i128::from(lo) + 1).max(0);
                if n > 1 << 24 {
                    return Err(Error::invalid(
                        d.pos,
                        format!("the array `{}` is too long", d.name),
                    ));
                }
                (lo..=hi)
                    .map(|i| {
                        let name = format!("{}[{i}]", d.name);
                        PreTerm::Var(self.new_var(name, d.pos, is_bool, domain.clone(), introduced))
                    })
                    .collect()
            }
        };
        // The element type's domain is a constraint on the elements.
        if let (Some(dom), false) = (&domain, is_bool) {
            for t in &elems {
                if let PreTerm::Var(v) = *t {
                    let info = &mut self.vars[v];
                    info.domain = Some(info.domain.as_ref().map_or(dom.clone(), |s| s.intersect(dom)));
                }
            }
        }
        Ok(Sym::VarArray(elems))
    }

    fn output(&mut self, d: &Decl) -> Result<()> {
        for ann in &d.anns {
            let dims = match ann {
                Expr::Ident(n) if n == "output_var" => None,
                Expr::Call(n, args) if n == "output_array" => {
                    let Some(Expr::Array(ranges)) = args.first() else {
                        return Err(Error::invalid(d.pos, "output_array needs a list of index ranges"));
                    };
                    let mut dims = Vec::new();
                    for r in ranges {
                        match r {
                            Expr::Set(s) if s.is_empty() => dims.push((1, 0)),
                            Expr::Set(s) if s.ranges().len() == 1 => dims.push(s.ranges()[0]),
                            _ => {
                                return Err(Error::invalid(
                                    d.pos,
                                    "output_array's index sets must be ranges",
                                ));
                            }
                        }
                    }
                    Some(dims)
                }
                _ => continue,
            };
            let elems = match self.names.get(&d.name) {
                Some(Sym::Var(v)) => vec![PreTerm::Var(*v)],
                Some(Sym::VarArray(t)) => t.clone(),
                Some(Sym::Par(v)) => vec![const_of(v, d.pos)?],
                Some(Sym::ParArray(vs)) => vs.iter().map(|v| const_of(v, d.pos)).collect::<Result<_>>()?,
                None => Vec::new(),
            };
            if let Some(dims) = &dims {
                let cells = dims
                    .iter()
                    .map(|&(lo, hi)| (i128::from(hi) - i128::from(lo) + 1).max(0))
                    .fold(1i128, i128::saturating_mul);
                if cells != elems.len() as i128 {
                    return Err(Error::invalid(
                        d.pos,
                        format!(
                            "output_array of `{}`: the index sets hold {cells} cells, the array {}",
                            d.name,
                            elems.len()
                        ),
                    ));
                }
            }
            self.outputs.push(PreOutput {
                name: d.name.clone(),
                is_bool: d.ty.base == BaseType::Bool,
                dims,
                elems,
            });
        }
        Ok(())
    }

    /// A scalar argument: a constant or a variable.
    pub fn pre_term(&self, e: &Expr, pos: Pos) -> Result<PreTerm> {
        match e {
            Expr::Ident(name) => match self.names.get(name) {
                Some(Sym::Var(v)) => Ok(PreTerm::Var(*v)),
                Some(Sym::Par(v)) => const_of(v, pos),
                Some(_) => Err(Error::invalid(
                    pos,
                    format!("`{name}` is an array, expected a single value"),
                )),
                None => Err(Error::invalid(pos, format!("unknown name `{name}`"))),
            },
            Expr::Access(name, i) => {
                let item = match self.names.get(name) {
                    Some(Sym::VarArray(t)) => index(t, *i).copied(),
                    Some(Sym::ParArray(v)) => index(v, *i).map(|x| const_of(x, pos)).transpose()?,
                    _ => return Err(Error::invalid(pos, format!("`{name}` is not an array"))),
                };
                item.ok_or_else(|| Error::invalid(pos, format!("`{name}[{i}]` is out of range")))
            }
            other => const_of(&self.value(other, pos)?, pos),
        }
    }

    /// An array argument of scalars.
    pub fn pre_terms(&self, e: &Expr, pos: Pos) -> Result<Vec<PreTerm>> {
        match e {
            Expr::Array(items) => items.iter().map(|x| self.pre_term(x, pos)).collect(),
            Expr::Ident(name) => match self.names.get(name) {
                Some(Sym::VarArray(t)) => Ok(t.clone()),
                Some(Sym::ParArray(v)) => v.iter().map(|x| const_of(x, pos)).collect(),
                Some(_) => Err(Error::invalid(pos, format!("`{name}` is not an array"))),
                None => Err(Error::invalid(pos, format!("unknown name `{name}`"))),
            },
            _ => Err(Error::invalid(pos, "expected an array")),
        }
    }

    /// An array argument of parameters.
    pub fn values(&self, e: &Expr, pos: Pos) -> Result<Vec<Value>> {
        match e {
            Expr::Array(items) => items.iter().map(|x| self.value(x, pos)).collect(),
            Expr::Ident(name) => match self.names.get(name) {
                Some(Sym::ParArray(v)) => Ok(v.clone()),
                Some(_) => Err(Error::invalid(
                    pos,
                    format!("`{name}` is not an array of parameters"),
                )),
                None => Err(Error::invalid(pos, format!("unknown name `{name}`"))),
            },
            _ => Err(Error::invalid(pos, "expected an array of parameters")),
        }
    }
}

/// The `i`-th element of a 1-based array.
fn index<T>(items: &[T], i: i64) -> Option<&T> {
    i.checked_sub(1)
        .and_then(|i| usize::try_from(i).ok())
        .and_then(|i| items.get(i))
}

/// A parameter as a constant term (Booleans are 0 and 1).
pub(crate) fn const_of(v: &Value, pos: Pos) -> Result<PreTerm> {
    match v {
        Value::Int(i) => Ok(PreTerm::Const(*i)),
        Value::Bool(b) => Ok(PreTerm::Const(i64::from(*b))),
        Value::Float(_) => Err(Error::unsupported(
            pos,
            "a float where an integer or a Boolean is expected: csp has no floats",
        )),
        Value::Set(_) => Err(Error::invalid(
            pos,
            "a set where an integer or a Boolean is expected",
        )),
    }
}
