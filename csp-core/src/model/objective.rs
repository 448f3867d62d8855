//! The objective of an optimisation problem (a COP): the variable whose value a
//! solution should make as small or as large as possible. The model only records it;
//! branch and bound belongs to the search (`Solver::optimize`), which tightens a bound
//! on that variable after each solution: no constraint is posted for it.

use super::Model;
use crate::error::ModelError;
use crate::var::VarId;

/// What to optimise: one variable's value. An objective over an expression (a sum, a
/// maximum, ...) is a variable defined by constraints, made the objective.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Objective {
    /// The smallest value of the variable.
    Minimize(VarId),
    /// The largest value of the variable.
    Maximize(VarId),
}

impl Objective {
    /// The variable whose value is optimised.
    pub fn var(&self) -> VarId {
        match *self {
            Objective::Minimize(var) | Objective::Maximize(var) => var,
        }
    }
}

impl Model {
    /// Makes the model a minimisation problem over `var` (replacing any objective set
    /// before). [`crate::Solver::optimize`] then looks for a solution with the smallest
    /// value of `var`; `solve`, `count` and `solutions` ignore the objective.
    ///
    /// ```
    /// use csp_core::{Model, Objective};
    /// let mut m = Model::new();
    /// let x = m.int_var(1, 9).unwrap();
    /// m.minimize(x).unwrap();
    /// assert_eq!(m.objective(), Some(Objective::Minimize(x)));
    /// assert_eq!(m.clone().objective(), Some(Objective::Minimize(x)), "clones keep it");
    /// ```
    pub fn minimize(&mut self, var: VarId) -> Result<(), ModelError> {
        self.set_objective(Objective::Minimize(var))
    }

    /// Makes the model a maximisation problem over `var` (replacing any objective set
    /// before); see [`Model::minimize`].
    pub fn maximize(&mut self, var: VarId) -> Result<(), ModelError> {
        self.set_objective(Objective::Maximize(var))
    }

    /// The objective, if the model has one.
    pub fn objective(&self) -> Option<Objective> {
        self.objective.clone()
    }

    fn set_objective(&mut self, objective: Objective) -> Result<(), ModelError> {
        self.check_var(objective.var())?;
        // Not a constraint: the compiled network and a declared fixpoint stay valid.
        self.objective = Some(objective);
        Ok(())
    }
}
