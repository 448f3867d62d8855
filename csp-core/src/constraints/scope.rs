//! The scope of a global constraint: its arguments (lists that may repeat a variable, and
//! constants or variables for lengths, heights and limits) mapped onto the distinct
//! variables the engine sees.

use std::collections::HashMap;

use crate::propagation::{Conflict, PropagationContext};
use crate::var::{IntOrVar, VarId};

/// Collects the distinct variables of a constraint's arguments, in order of first
/// occurrence; each argument keeps its position among them (for [`crate::Propagator::check`]).
#[derive(Default)]
pub(crate) struct ScopeBuilder {
    vars: Vec<VarId>,
    index: HashMap<VarId, u32>,
}

impl ScopeBuilder {
    pub(crate) fn new() -> ScopeBuilder {
        ScopeBuilder::default()
    }

    /// The position of `var` in the scope (added if new).
    pub(crate) fn add(&mut self, var: VarId) -> u32 {
        let next = self.vars.len() as u32;
        *self.index.entry(var).or_insert_with(|| {
            self.vars.push(var);
            next
        })
    }

    /// The variables of `vars` as arguments.
    pub(crate) fn list(&mut self, vars: &[VarId]) -> Vec<Arg> {
        vars.iter()
            .map(|&var| Arg {
                var,
                at: self.add(var),
            })
            .collect()
    }

    /// A constant or a variable as a term.
    pub(crate) fn term(&mut self, term: IntOrVar) -> Term {
        match term {
            IntOrVar::Int(c) => Term::Const(c),
            IntOrVar::Var(var) => Term::Var(Arg {
                var,
                at: self.add(var),
            }),
        }
    }

    /// The distinct variables.
    pub(crate) fn finish(self) -> Vec<VarId> {
        self.vars
    }
}

/// A variable argument: the variable, and its position in the scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Arg {
    pub(crate) var: VarId,
    pub(crate) at: u32,
}

impl Arg {
    /// Its value in a complete assignment of the scope.
    #[inline]
    pub(crate) fn value(self, values: &[i32]) -> i32 {
        values[self.at as usize]
    }
}

/// A constant or variable argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Term {
    Const(i64),
    Var(Arg),
}

impl Term {
    /// Its smallest possible value.
    #[inline]
    pub(crate) fn min(self, ctx: &PropagationContext<'_>) -> Result<i64, Conflict> {
        match self {
            Term::Const(c) => Ok(c),
            Term::Var(a) => Ok(super::bounds(ctx, a.var)?.0),
        }
    }

    /// Its largest possible value.
    #[inline]
    pub(crate) fn max(self, ctx: &PropagationContext<'_>) -> Result<i64, Conflict> {
        match self {
            Term::Const(c) => Ok(c),
            Term::Var(a) => Ok(super::bounds(ctx, a.var)?.1),
        }
    }

    /// Its value in a complete assignment of the scope.
    #[inline]
    pub(crate) fn value(self, values: &[i32]) -> i64 {
        match self {
            Term::Const(c) => c,
            Term::Var(a) => i64::from(a.value(values)),
        }
    }

    /// Keeps only its values in `lo..=hi` (a constant outside fails).
    pub(crate) fn restrict(self, ctx: &mut PropagationContext<'_>, lo: i64, hi: i64) -> Result<(), Conflict> {
        match self {
            Term::Const(c) if c < lo || c > hi => Err(Conflict),
            Term::Const(_) => Ok(()),
            Term::Var(a) => super::retain_range(ctx, a.var, lo, hi),
        }
    }
}
