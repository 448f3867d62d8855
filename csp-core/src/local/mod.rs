//! Local search over complete assignments: min-conflicts (AIMA, section 6.4) and
//! simulated annealing ([`anneal`] over an [`AnnealingModel`]).
//!
//! For min-conflicts, a model takes part by implementing [`ConflictModel`]: five required
//! methods that read and change a complete assignment and count conflicts, plus optional
//! fast paths (a greedy start, a list of conflicted variables, a faster best-value scan)
//! that a specialised model such as n-queens overrides. [`ModelConflicts`] adapts any
//! [`Model`] with binary (and n-ary) constraints, counting conflicts from its
//! constraints; [`min_conflicts`] runs the search.

mod annealing;
mod min_conflicts;

use std::cell::RefCell;

use rand::{Rng, RngExt};

use crate::model::Model;
use crate::var::VarId;

pub use annealing::{Annealing, AnnealingModel, AnnealingRun, AnnealingStats, anneal};
pub use min_conflicts::{LocalOutcome, LocalRun, LocalStats, MinConflicts, min_conflicts};

/// A complete assignment that min-conflicts can repair.
///
/// Variables are `0..num_vars()`; the values of a variable are indices
/// `0..domain_size(var)` (a model maps them to its own values). Only the first five
/// methods are required; the others have correct defaults that scan every variable or
/// value, which an implementation may replace by something faster.
///
/// ```
/// use csp_core::{ConflictModel, MinConflicts, LocalOutcome, min_conflicts};
///
/// /// Three variables with values 0..3 that must all differ.
/// struct Distinct([usize; 3]);
///
/// impl ConflictModel for Distinct {
///     fn num_vars(&self) -> usize { 3 }
///     fn domain_size(&self, _var: usize) -> usize { 3 }
///     fn value(&self, var: usize) -> usize { self.0[var] }
///     fn set_value(&mut self, var: usize, value: usize) { self.0[var] = value }
///     fn conflicts(&self, var: usize, value: usize) -> u32 {
///         (0..3).filter(|&o| o != var && self.0[o] == value).count() as u32
///     }
/// }
///
/// let mut model = Distinct([0, 0, 0]);
/// let run = min_conflicts(&mut model, &MinConflicts { seed: 7, ..MinConflicts::default() });
/// assert_eq!(run.outcome, LocalOutcome::Solved);
/// assert_eq!(run.stats.conflicts, 0);
/// let mut values = model.0;
/// values.sort();
/// assert_eq!(values, [0, 1, 2]);
/// ```
pub trait ConflictModel {
    /// Number of variables.
    fn num_vars(&self) -> usize;

    /// Number of values of `var` (at least 1); its values are `0..domain_size(var)`.
    fn domain_size(&self, var: usize) -> usize;

    /// The current value of `var`.
    fn value(&self, var: usize) -> usize;

    /// Gives `var` the value `value`, keeping the other variables as they are.
    fn set_value(&mut self, var: usize, value: usize);

    /// How many constraints on `var` would be violated if `var` took `value` and every
    /// other variable kept its current value (AIMA's CONFLICTS). Zero for every
    /// variable at its current value means the assignment is a solution.
    fn conflicts(&self, var: usize, value: usize) -> u32;

    /// Makes the initial complete assignment (also on each restart). Default: a value
    /// drawn uniformly for each variable.
    fn initialize(&mut self, rng: &mut dyn Rng) {
        for var in 0..self.num_vars() {
            let value = rng.random_range(0..self.domain_size(var));
            self.set_value(var, value);
        }
    }

    /// [`ConflictModel::initialize`] for starts that take long on large models: stops
    /// early, returning `false`, once `expired` (asked now and then) says so; the
    /// assignment is then incomplete and is not read. Default: `initialize`, whole.
    fn initialize_within(&mut self, rng: &mut dyn Rng, expired: &mut dyn FnMut() -> bool) -> bool {
        let _ = expired;
        self.initialize(rng);
        true
    }

    /// A variable in conflict at its current value, drawn uniformly; `None` when there
    /// is none (a solution). Default: one scan with reservoir sampling.
    fn random_conflicted(&mut self, rng: &mut dyn Rng) -> Option<usize> {
        let mut chosen = None;
        let mut seen = 0u32;
        for var in 0..self.num_vars() {
            if self.conflicts(var, self.value(var)) > 0 {
                seen += 1;
                if rng.random_range(0..seen) == 0 {
                    chosen = Some(var);
                }
            }
        }
        chosen
    }

    /// A value of `var` with the fewest conflicts, ties drawn uniformly. Default: two
    /// scans of the domain (minimum and number of ties, then the chosen tie).
    fn min_conflicts_value(&mut self, var: usize, rng: &mut dyn Rng) -> usize {
        let size = self.domain_size(var);
        let (mut best, mut ties) = (u32::MAX, 0usize);
        for value in 0..size {
            let c = self.conflicts(var, value);
            if c < best {
                (best, ties) = (c, 1);
            } else if c == best {
                ties += 1;
            }
        }
        let mut pick = rng.random_range(0..ties.max(1));
        (0..size)
            .find(|&value| {
                if self.conflicts(var, value) != best {
                    return false;
                }
                if pick == 0 {
                    return true;
                }
                pick -= 1;
                false
            })
            .unwrap_or(0)
    }

    /// How many variables are in conflict at their current values. Default: one scan.
    fn num_conflicted(&self) -> usize {
        (0..self.num_vars())
            .filter(|&var| self.conflicts(var, self.value(var)) > 0)
            .count()
    }
}

/// Min-conflicts on any [`Model`]: conflicts are counted from the model's binary
/// constraints (each violated constraint once) and n-ary constraints (each whose
/// check fails once). Givens have a single value. Correct for every model, but
/// each conflict count walks the variable's constraints: fine for small and sparse
/// models, not for a million queens.
///
/// ```
/// use csp_core::{LocalOutcome, MinConflicts, Model, ModelConflicts, min_conflicts};
/// // Colour the map of Australia with three colours.
/// let mut model = Model::new();
/// let v = model.int_vars(7, 0, 2).unwrap();
/// for (a, b) in [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (2, 4), (2, 5), (3, 4), (4, 5)] {
///     model.not_equal(v[a], v[b]).unwrap();
/// }
/// let mut local = ModelConflicts::new(&model);
/// let run = min_conflicts(&mut local, &MinConflicts::default());
/// assert_eq!(run.outcome, LocalOutcome::Solved);
/// assert!(model.is_solution(&local.solution()));
/// ```
pub struct ModelConflicts<'m> {
    model: &'m Model,
    /// The values of each variable's domain (a single one for a given).
    values: Vec<Vec<i32>>,
    /// The current value index of each variable.
    current: Vec<usize>,
    /// Per variable: the indices of the binary constraints on it.
    binary: Vec<Vec<u32>>,
    /// Per variable: `(propagator, local index)` of the n-ary constraints on it.
    nary: Vec<Vec<(u32, u32)>>,
    /// Scratch for n-ary checks.
    scratch: RefCell<Vec<i32>>,
}

impl<'m> ModelConflicts<'m> {
    /// Prepares `model` for local search; every variable starts at its first value.
    pub fn new(model: &'m Model) -> Self {
        let n = model.num_vars();
        let values: Vec<Vec<i32>> = model
            .vars()
            .map(|v| match model.fixed(v) {
                Some(given) => vec![given],
                None => model.domain(v).values().collect(),
            })
            .collect();
        let mut binary = vec![Vec::new(); n];
        for (i, c) in model.constraints().iter().enumerate() {
            binary[c.x.index()].push(i as u32);
            binary[c.y.index()].push(i as u32);
        }
        let mut nary = vec![Vec::new(); n];
        for (p, prop) in model.propagators().iter().enumerate() {
            for (local, v) in prop.variables().iter().enumerate() {
                nary[v.index()].push((p as u32, local as u32));
            }
        }
        ModelConflicts {
            model,
            values,
            current: vec![0; n],
            binary,
            nary,
            scratch: RefCell::new(Vec::new()),
        }
    }

    /// The current assignment as model values, in variable order.
    pub fn solution(&self) -> Vec<i32> {
        self.current
            .iter()
            .enumerate()
            .map(|(v, &i)| self.values[v][i])
            .collect()
    }

    fn value_of(&self, var: VarId) -> i32 {
        self.values[var.index()][self.current[var.index()]]
    }
}

impl ConflictModel for ModelConflicts<'_> {
    fn num_vars(&self) -> usize {
        self.values.len()
    }

    fn domain_size(&self, var: usize) -> usize {
        self.values[var].len()
    }

    fn value(&self, var: usize) -> usize {
        self.current[var]
    }

    fn set_value(&mut self, var: usize, value: usize) {
        self.current[var] = value;
    }

    fn conflicts(&self, var: usize, value: usize) -> u32 {
        let a = self.values[var][value];
        let constraints = self.model.constraints();
        let mut count = 0;
        for &i in &self.binary[var] {
            let c = &constraints[i as usize];
            let holds = if c.x.index() == var {
                c.relation.holds(a, self.value_of(c.y))
            } else {
                c.relation.holds(self.value_of(c.x), a)
            };
            count += u32::from(!holds);
        }
        let propagators = self.model.propagators();
        let mut scratch = self.scratch.borrow_mut();
        for &(p, local) in &self.nary[var] {
            let prop = &propagators[p as usize];
            scratch.clear();
            scratch.extend(prop.variables().iter().map(|&v| self.value_of(v)));
            scratch[local as usize] = a;
            count += u32::from(!prop.check(&scratch));
        }
        count
    }
}
