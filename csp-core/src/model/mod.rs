//! The modelling API: variables, domains, givens, binary relations, n-ary propagators
//! and an objective.

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write};
use std::sync::{Arc, OnceLock};

use smallvec::SmallVec;

use crate::domain::Domain;
use crate::error::ModelError;
use crate::memory::{
    BYTES_PER_CONSTRAINED_PAIR, MAX_MODEL_MEMORY, MAX_SUPPORT_WORDS, ModelSize, binary_table_bytes,
    propagator_bytes,
};
use crate::propagation::Propagator;
use crate::relation::Relation;
use crate::var::VarId;

mod objective;
mod post;
mod post_global;
mod post_nary;
mod var_table;

pub use objective::Objective;
pub use post_global::MAX_CARDINALITY_PAIRS;
use var_table::VarTable;

/// A binary constraint as posted: `relation(x, y)`.
#[derive(Clone, Debug)]
pub struct BinaryConstraint {
    /// First variable.
    pub x: VarId,
    /// Second variable.
    pub y: VarId,
    /// The relation that must hold between their values.
    pub relation: Relation,
}

/// Relations per unordered pair `(lo, hi)`; the flag is set when posted as `(hi, lo)`. Most
/// pairs have one relation, kept in place: a vector would put it in a block of four.
pub(crate) type PairRelations = BTreeMap<(VarId, VarId), SmallVec<[(Relation, bool); 1]>>;

/// A constraint satisfaction problem: variables with finite domains, some fixed to
/// a value (givens), binary constraints and n-ary propagators.
///
/// Everything but the givens is shared between clones (copied on write), so that a
/// model per puzzle costs one vector of givens.
///
/// ```
/// use csp_core::{Model, Relation};
/// let mut m = Model::new();
/// let x = m.int_var(1, 3).unwrap();
/// let y = m.int_var(1, 3).unwrap();
/// m.post(x, y, Relation::Less).unwrap();
/// m.fix(y, 2).unwrap();
/// assert_eq!(m.neighbours(x), vec![y]);
/// assert!(m.is_solution(&[1, 2]));
/// assert!(!m.is_solution(&[2, 2]));
/// ```
#[derive(Clone, Default)]
pub struct Model {
    vars: Arc<VarTable>,
    /// The givens, by variable: empty until the first one (a model of millions of
    /// variables and no givens pays nothing for them), then one entry per variable.
    fixed: Vec<Option<i32>>,
    /// Values ruled out before search (unary `x != v`), like givens specific to one use.
    excluded: Vec<(VarId, i32)>,
    /// Values ruled out in bulk: `(var, base, bits)` excludes `base + i` for each bit `i`.
    excluded_bits: Vec<(VarId, i32, u64)>,
    constraints: Arc<Vec<BinaryConstraint>>,
    pairs: Arc<PairRelations>,
    propagators: Arc<Vec<Arc<dyn Propagator>>>,
    /// The estimated bytes of the propagators' search, all together
    /// ([`crate::propagator_bytes`]).
    data_bytes: u64,
    /// The sorted scope of every all-different posted on plain variables (no offsets).
    all_different_scopes: Arc<BTreeSet<Vec<VarId>>>,
    /// The scope of each all-different propagator on plain variables, in posting order
    /// (a GAC constraint has two: its singles stage and its matching): the candidates
    /// for branching on places, met in this order when their weights tie.
    plain_all_different: Arc<Vec<Vec<VarId>>>,
    /// The model compiled for search (the network), built on first use and shared by
    /// clones. Typed `Any` so that the model need not know what search compiles it to.
    compiled: OnceLock<Arc<dyn Any + Send + Sync>>,
    /// See [`Model::declare_at_fixpoint`]; cleared by any change.
    at_fixpoint: bool,
    /// What [`crate::Solver::optimize`] optimises, if anything ([`Model::minimize`]).
    objective: Option<Objective>,
}

impl Model {
    /// An empty model.
    pub fn new() -> Model {
        Model::default()
    }

    /// Adds a variable with the given domain.
    pub fn add_var(&mut self, domain: Domain) -> VarId {
        let index = self.num_vars();
        self.push_var(
            |text| write!(text, "x{index}").expect("a String takes any text"),
            domain,
        )
    }

    /// Adds a variable with a name (used in printed solutions and errors).
    pub fn add_named_var(&mut self, name: impl Into<String>, domain: Domain) -> VarId {
        let name = name.into();
        self.push_var(|text| text.push_str(&name), domain)
    }

    /// Makes room for `count` more variables whose names take `name_bytes` in all, so that
    /// a model of millions of variables keeps no spare capacity (vectors grown by doubling
    /// would hold up to twice what they need).
    pub fn reserve_vars(&mut self, count: usize, name_bytes: usize) {
        Arc::make_mut(&mut self.vars).reserve(count, name_bytes);
        if !self.fixed.is_empty() {
            self.fixed.reserve_exact(count);
        }
    }

    fn push_var(&mut self, write_name: impl FnOnce(&mut String), domain: Domain) -> VarId {
        self.compiled = OnceLock::new();
        self.at_fixpoint = false;
        let id = VarId(self.num_vars() as u32);
        Arc::make_mut(&mut self.vars).push_with(write_name, domain);
        if !self.fixed.is_empty() {
            self.fixed.push(None);
        }
        id
    }

    /// Adds a variable with domain `lo..=hi`.
    pub fn int_var(&mut self, lo: i32, hi: i32) -> Result<VarId, ModelError> {
        Ok(self.add_var(Domain::range(lo, hi)?))
    }

    /// Adds `count` variables with domain `lo..=hi`.
    pub fn int_vars(&mut self, count: usize, lo: i32, hi: i32) -> Result<Vec<VarId>, ModelError> {
        let domain = Domain::range(lo, hi)?;
        Ok((0..count).map(|_| self.add_var(domain.clone())).collect())
    }

    /// Fixes `var` to `value` before search (a given). Givens are never search nodes.
    pub fn fix(&mut self, var: VarId, value: i32) -> Result<(), ModelError> {
        self.check_var(var)?;
        if !self.domain(var).contains(value) {
            return Err(ModelError::ValueOutsideDomain {
                index: var.index(),
                value,
            });
        }
        if self.fixed.is_empty() {
            self.fixed = vec![None; self.num_vars()];
        }
        self.fixed[var.index()] = Some(value);
        self.at_fixpoint = false;
        Ok(())
    }

    /// Rules out `value` for `var` before search (a unary `var != value`). Like givens,
    /// exclusions belong to this copy of the model only and leave the shared network alone,
    /// so they are cheap to add per use (for example "find a solution other than this one").
    ///
    /// ```
    /// use csp_core::{Model, SearchConfig, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var(1, 3).unwrap();
    /// m.exclude(x, 2).unwrap();
    /// let mut solver = Solver::new(&m, SearchConfig::default()).unwrap();
    /// assert_eq!(solver.solutions().collect::<Vec<_>>(), vec![vec![1], vec![3]]);
    /// assert!(!m.is_solution(&[2]));
    /// m.fix(x, 3).unwrap();
    /// m.exclude(x, 3).unwrap();
    /// assert_eq!(Solver::new(&m, SearchConfig::default()).unwrap().solve(), csp_core::Outcome::Unsatisfiable);
    /// ```
    pub fn exclude(&mut self, var: VarId, value: i32) -> Result<(), ModelError> {
        self.check_var(var)?;
        self.excluded.push((var, value));
        self.at_fixpoint = false;
        Ok(())
    }

    /// The values ruled out with [`Model::exclude`].
    pub fn excluded(&self) -> &[(VarId, i32)] {
        &self.excluded
    }

    /// Rules out the values `base + i` for every bit `i` set in `bits`: [`Model::exclude`]
    /// for up to 64 values at once (one entry instead of one per value).
    ///
    /// ```
    /// use csp_core::{Model, SearchConfig, Solver};
    /// let mut m = Model::new();
    /// let x = m.int_var(1, 5).unwrap();
    /// m.exclude_bits(x, 1, 0b1011).unwrap(); // 1, 2 and 4
    /// let mut solver = Solver::new(&m, SearchConfig::default()).unwrap();
    /// assert_eq!(solver.solutions().collect::<Vec<_>>(), vec![vec![3], vec![5]]);
    /// assert!(!m.is_solution(&[4]));
    /// ```
    pub fn exclude_bits(&mut self, var: VarId, base: i32, bits: u64) -> Result<(), ModelError> {
        self.check_var(var)?;
        if bits != 0 {
            // Exclusions in bulk usually come one per variable (a pre-pass's candidates).
            if self.excluded_bits.capacity() == 0 {
                self.excluded_bits.reserve(self.num_vars());
            }
            self.excluded_bits.push((var, base, bits));
            self.at_fixpoint = false;
        }
        Ok(())
    }

    /// Declares that the givens and exclusions as they stand leave every domain at a
    /// fixpoint of every constraint, as a pre-pass of the caller's own may establish (the
    /// Sudoku models' singles and locked candidates). Search under MAC then skips its root
    /// propagation. Any later change to the model clears the declaration.
    ///
    /// The declaration is trusted, not checked: the root propagation is also what removes
    /// the givens' values from their neighbours, so a wrong one can let search report an
    /// assignment that breaks a constraint. Declare only what a pre-pass has established.
    ///
    /// ```
    /// use csp_core::Model;
    /// let mut m = Model::new();
    /// let x = m.int_var(1, 3).unwrap();
    /// m.declare_at_fixpoint();
    /// assert!(m.is_at_fixpoint());
    /// m.exclude(x, 2).unwrap();
    /// assert!(!m.is_at_fixpoint(), "a change clears it");
    /// ```
    pub fn declare_at_fixpoint(&mut self) {
        self.at_fixpoint = true;
    }

    /// Whether [`Model::declare_at_fixpoint`] holds.
    pub fn is_at_fixpoint(&self) -> bool {
        self.at_fixpoint
    }

    /// The values ruled out with [`Model::exclude_bits`], as `(var, base, bits)`.
    pub fn excluded_bits(&self) -> &[(VarId, i32, u64)] {
        &self.excluded_bits
    }

    /// Removes a given.
    pub fn unfix(&mut self, var: VarId) -> Result<(), ModelError> {
        self.check_var(var)?;
        if let Some(given) = self.fixed.get_mut(var.index()) {
            *given = None;
        }
        self.at_fixpoint = false;
        Ok(())
    }

    /// Posts `relation(x, y)`. Several relations on one pair form a conjunction.
    pub fn post(&mut self, x: VarId, y: VarId, relation: Relation) -> Result<(), ModelError> {
        self.check_var(x)?;
        self.check_var(y)?;
        if x == y {
            return Err(ModelError::SameVariable { index: x.index() });
        }
        let (key, reversed) = if x < y { ((x, y), false) } else { ((y, x), true) };
        // Checked here, not only by the search: a reader posts millions of pairs from a file
        // a few times smaller than the model it builds.
        // A table's pairs are kept three times (here and sorted in each arc), beside its
        // support matrices: a binary expression over two domains of 1,024 values allows up to
        // a million pairs, from a line of thirty bytes.
        let table = match &relation {
            Relation::Table(pairs) => {
                let fits = |words: u64| if words <= MAX_SUPPORT_WORDS { words } else { 0 };
                let matrices = fits(self.support_words(x, y)) + fits(self.support_words(y, x));
                binary_table_bytes(pairs.len(), matrices / 2)
            }
            _ => 0,
        };
        let pair = if self.pairs.contains_key(&key) {
            0
        } else {
            BYTES_PER_CONSTRAINED_PAIR
        };
        self.check_constraint_bytes(pair + table)?;
        self.data_bytes = self.data_bytes.saturating_add(table);
        self.compiled = OnceLock::new();
        self.at_fixpoint = false;
        Arc::make_mut(&mut self.pairs)
            .entry(key)
            .or_default()
            .push((relation.clone(), reversed));
        Arc::make_mut(&mut self.constraints).push(BinaryConstraint { x, y, relation });
        Ok(())
    }

    /// Posts `x != y`.
    pub fn not_equal(&mut self, x: VarId, y: VarId) -> Result<(), ModelError> {
        self.post(x, y, Relation::NotEqual)
    }

    /// Adds a user-defined n-ary constraint. Every variable it names must belong to this
    /// model ([`ModelError::UnknownVariable`] otherwise: the search could not index it).
    pub fn add_propagator(&mut self, propagator: impl Propagator + 'static) -> Result<(), ModelError> {
        for &var in propagator.variables() {
            self.check_var(var)?;
        }
        // A table generated from a sum of three variables can take tens of kilobytes, from
        // a line of thirty bytes: the cap holds while the model is built, not only later.
        let bytes = propagator_bytes(propagator.variables().len(), propagator.heap_bytes());
        self.check_constraint_bytes(bytes)?;
        self.data_bytes = self.data_bytes.saturating_add(bytes);
        self.compiled = OnceLock::new();
        self.at_fixpoint = false;
        Arc::make_mut(&mut self.propagators).push(Arc::new(propagator));
        Ok(())
    }

    /// `Err` when `more` bytes of constraints would take the model's constraints past
    /// [`MAX_MODEL_MEMORY`] by the estimate ([`crate::ModelSize::constraint_bytes`]).
    fn check_constraint_bytes(&self, more: u64) -> Result<(), ModelError> {
        let constraints = ModelSize {
            constrained_pairs: self.pairs.len() as u64,
            data_bytes: self.data_bytes,
            ..ModelSize::default()
        };
        let bytes = constraints.constraint_bytes().saturating_add(more);
        if bytes > MAX_MODEL_MEMORY {
            return Err(ModelError::ConstraintsTooLarge {
                bytes,
                max: MAX_MODEL_MEMORY,
            });
        }
        Ok(())
    }

    /// The words of a support matrix of `x` against `y`: a row of `y`'s words per value in
    /// `x`'s span.
    pub(crate) fn support_words(&self, x: VarId, y: VarId) -> u64 {
        // `max` and `num_words`, not the values and words: neither walks nor copies the
        // domain, which this is asked for at each binary table posted.
        let dx = self.domain(x);
        let x_span = i64::from(dx.max()) - i64::from(dx.base()) + 1;
        (x_span as u64).saturating_mul(self.domain(y).num_words() as u64)
    }

    /// What the model holds, as far as the memory of its search goes (see
    /// [`crate::ModelSize`]: checked by [`crate::Solver::new`] before it allocates).
    pub fn size(&self) -> ModelSize {
        ModelSize {
            variables: self.num_vars() as u64,
            words: self.vars().map(|v| self.domain(v).num_words() as u64).sum(),
            constrained_pairs: self.pairs.len() as u64,
            data_bytes: self.data_bytes,
        }
    }

    /// The pairs of variables some binary constraint links (two constraints on one pair
    /// make one pair).
    pub fn num_pairs(&self) -> usize {
        self.pairs.len()
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.vars.len()
    }

    /// All variables, in index order.
    pub fn vars(&self) -> impl Iterator<Item = VarId> + '_ {
        (0..self.num_vars() as u32).map(VarId)
    }

    /// The variable with this index, if any.
    pub fn var(&self, index: usize) -> Option<VarId> {
        (index < self.num_vars()).then_some(VarId(index as u32))
    }

    /// A variable's initial domain.
    pub fn domain(&self, var: VarId) -> &Domain {
        self.vars.domain(var.index())
    }

    /// A variable's name.
    pub fn name(&self, var: VarId) -> &str {
        self.vars.name(var.index())
    }

    /// The given value of `var`, if it is fixed.
    pub fn fixed(&self, var: VarId) -> Option<i32> {
        self.fixed.get(var.index()).copied().flatten()
    }

    /// The binary constraints in posting order.
    pub fn constraints(&self) -> &[BinaryConstraint] {
        &self.constraints
    }

    /// The n-ary propagators in posting order.
    pub fn propagators(&self) -> &[Arc<dyn Propagator>] {
        &self.propagators
    }

    /// Whether `values` (one per variable, in index order) satisfies every domain,
    /// given and constraint.
    pub fn is_solution(&self, values: &[i32]) -> bool {
        self.violation(values).is_none()
    }

    /// The first thing `values` violates, described for a person; `None` for a solution.
    pub fn violation(&self, values: &[i32]) -> Option<String> {
        if values.len() != self.num_vars() {
            return Some(format!(
                "expected {} values, got {}",
                self.num_vars(),
                values.len()
            ));
        }
        for var in self.vars() {
            let value = values[var.index()];
            if !self.domain(var).contains(value) {
                return Some(format!("{} = {value} is outside its domain", self.name(var)));
            }
            if let Some(given) = self.fixed(var).filter(|&g| g != value) {
                return Some(format!("{} = {value} but it is fixed to {given}", self.name(var)));
            }
        }
        if let Some((var, value)) = self.excluded.iter().find(|(v, x)| values[v.index()] == *x) {
            return Some(format!(
                "{} = {value} but that value is excluded",
                self.name(*var)
            ));
        }
        for &(var, base, bits) in &self.excluded_bits {
            let value = values[var.index()];
            let offset = i64::from(value) - i64::from(base);
            if (0..64).contains(&offset) && bits >> offset & 1 == 1 {
                return Some(format!("{} = {value} but that value is excluded", self.name(var)));
            }
        }
        for c in self.constraints.iter() {
            let (a, b) = (values[c.x.index()], values[c.y.index()]);
            if !c.relation.holds(a, b) {
                return Some(format!(
                    "{} = {a}, {} = {b} violates {:?}",
                    self.name(c.x),
                    self.name(c.y),
                    c.relation
                ));
            }
        }
        let mut scratch = Vec::new();
        for p in self.propagators.iter() {
            scratch.clear();
            scratch.extend(p.variables().iter().map(|v| values[v.index()]));
            if !p.check(&scratch) {
                return Some(format!("the {} constraint is violated", p.name()));
            }
        }
        None
    }

    pub(crate) fn pairs(&self) -> &PairRelations {
        &self.pairs
    }

    /// The model compiled by `build`, built on first use and shared by clones. A model
    /// has one compiled form: every call must name the same type.
    pub(crate) fn compiled<T: Any + Send + Sync>(&self, build: fn(&Model) -> T) -> Arc<T> {
        let any = self.compiled.get_or_init(|| Arc::new(build(self))).clone();
        any.downcast::<T>()
            .unwrap_or_else(|_| unreachable!("a model is compiled to one type only"))
    }

    /// [`Model::compiled`] with a build that may give up (`None`): nothing is kept then,
    /// and the next call builds again.
    pub(crate) fn try_compiled<T: Any + Send + Sync>(
        &self,
        build: impl FnOnce(&Model) -> Option<T>,
    ) -> Option<Arc<T>> {
        if self.compiled.get().is_none() {
            let built: Arc<dyn Any + Send + Sync> = Arc::new(build(self)?);
            // Threads sharing this model may race to here: whichever sets it first wins,
            // and both read that one below (the builds are equal).
            let _ = self.compiled.set(built);
        }
        let any = self.compiled.get().expect("compiled just now").clone();
        Some(
            any.downcast::<T>()
                .unwrap_or_else(|_| unreachable!("a model is compiled to one type only")),
        )
    }

    /// The scope of each all-different propagator on plain variables, in posting order.
    pub(crate) fn plain_all_different(&self) -> &[Vec<VarId>] {
        &self.plain_all_different
    }

    /// [`ModelError::RepeatedVariable`] if `vars` lists a variable twice.
    fn check_distinct(vars: &[VarId], what: &'static str) -> Result<(), ModelError> {
        // Sorted on the stack for the usual scopes (a Sudoku unit, a row of queens).
        let mut sorted: SmallVec<[VarId; 64]> = SmallVec::from_slice(vars);
        sorted.sort_unstable();
        match sorted.windows(2).find(|w| w[0] == w[1]) {
            Some(w) => Err(ModelError::RepeatedVariable {
                what,
                index: w[0].index(),
            }),
            None => Ok(()),
        }
    }

    fn check_var(&self, var: VarId) -> Result<(), ModelError> {
        if var.index() < self.num_vars() {
            Ok(())
        } else {
            Err(ModelError::UnknownVariable {
                index: var.index(),
                count: self.num_vars(),
            })
        }
    }
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model")
            .field("vars", &self.num_vars())
            .field("binary_constraints", &self.constraints.len())
            .field("propagators", &self.propagators.len())
            .field("objective", &self.objective)
            .finish()
    }
}
