//! The modelling API: variables, domains, givens, binary relations and n-ary propagators.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use crate::alldiff::{AllDifferent, Strength};
use crate::domain::Domain;
use crate::error::ModelError;
use crate::network::Network;
use crate::propagator::Propagator;
use crate::relation::Relation;

mod post_nary;

/// A variable: a small copyable handle into its [`Model`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct VarId(pub(crate) u32);

impl VarId {
    /// The variable's position in the model (0-based, in creation order).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.0)
    }
}

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

/// Relations per unordered pair `(lo, hi)`; the flag is set when posted as `(hi, lo)`.
pub(crate) type PairRelations = BTreeMap<(VarId, VarId), Vec<(Relation, bool)>>;

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
    names: Arc<Vec<String>>,
    domains: Arc<Vec<Domain>>,
    fixed: Vec<Option<i32>>,
    /// Values ruled out before search (unary `x != v`), like givens specific to one use.
    excluded: Vec<(VarId, i32)>,
    /// Values ruled out in bulk: `(var, base, bits)` excludes `base + i` for each bit `i`.
    excluded_bits: Vec<(VarId, i32, u64)>,
    constraints: Arc<Vec<BinaryConstraint>>,
    pairs: Arc<PairRelations>,
    propagators: Arc<Vec<Arc<dyn Propagator>>>,
    /// The sorted scope of every all-different posted on plain variables (no offsets).
    all_different_scopes: Arc<BTreeSet<Vec<VarId>>>,
    network: OnceLock<Arc<Network>>,
    /// See [`Model::declare_at_fixpoint`]; cleared by any change.
    at_fixpoint: bool,
}

impl Model {
    /// An empty model.
    pub fn new() -> Model {
        Model::default()
    }

    /// Adds a variable with the given domain.
    pub fn add_var(&mut self, domain: Domain) -> VarId {
        let name = format!("x{}", self.domains.len());
        self.add_named_var(name, domain)
    }

    /// Adds a variable with a name (used in printed solutions and errors).
    pub fn add_named_var(&mut self, name: impl Into<String>, domain: Domain) -> VarId {
        self.network = OnceLock::new();
        self.at_fixpoint = false;
        let id = VarId(self.domains.len() as u32);
        Arc::make_mut(&mut self.names).push(name.into());
        Arc::make_mut(&mut self.domains).push(domain);
        self.fixed.push(None);
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
        if !self.domains[var.index()].contains(value) {
            return Err(ModelError::ValueOutsideDomain {
                index: var.index(),
                value,
            });
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
        self.fixed[var.index()] = None;
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
        self.network = OnceLock::new();
        self.at_fixpoint = false;
        let (key, reversed) = if x < y { ((x, y), false) } else { ((y, x), true) };
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

    /// Posts `x != y` for every pair of `vars` (the textbook binary encoding).
    pub fn all_different(&mut self, vars: &[VarId]) -> Result<(), ModelError> {
        for (i, &x) in vars.iter().enumerate() {
            for &y in &vars[i + 1..] {
                self.not_equal(x, y)?;
            }
        }
        Ok(())
    }

    /// Posts one n-ary all-different constraint over `vars` with its own propagator.
    pub fn all_different_nary(&mut self, vars: &[VarId], strength: Strength) -> Result<(), ModelError> {
        self.all_different_offsets(vars, &vec![0; vars.len()], strength)
    }

    /// Posts all-different over the views `vars[i] + offsets[i]` (as in the n-queens
    /// diagonals `x_i + i` and `x_i - i`). At [`Strength::Gac`] this adds two propagators:
    /// fast hidden singles, and the matching-based filter at low priority. (On 9x9 Sudoku
    /// the filter alone runs 9% fewer instructions but mispredicts 40% more branches, and
    /// takes 14 to 25% longer.)
    pub fn all_different_offsets(
        &mut self,
        vars: &[VarId],
        offsets: &[i32],
        strength: Strength,
    ) -> Result<(), ModelError> {
        if vars.len() != offsets.len() {
            return Err(ModelError::LengthMismatch {
                what: "all-different offsets",
                expected: vars.len(),
                found: offsets.len(),
            });
        }
        for &v in vars {
            self.check_var(v)?;
        }
        if strength == Strength::Gac {
            // The matching runs at low priority; hidden singles do the cheap part first.
            self.add_propagator(AllDifferent::gac_stage(vars.to_vec(), offsets.to_vec()));
        }
        self.add_propagator(AllDifferent::new(vars.to_vec(), offsets.to_vec(), strength));
        if offsets.iter().all(|&o| o == 0) {
            let mut scope = vars.to_vec();
            scope.sort_unstable();
            Arc::make_mut(&mut self.all_different_scopes).insert(scope);
        }
        Ok(())
    }

    /// Whether an all-different over exactly `vars` (no offsets) is posted.
    fn posts_all_different(&self, vars: &[VarId]) -> bool {
        let mut scope = vars.to_vec();
        scope.sort_unstable();
        self.all_different_scopes.contains(&scope)
    }

    /// Posts the implied reasoning between two all-different constraints over `a` and `b`
    /// that share variables (see [`crate::PermutationOverlap`]): when one of them must use
    /// every value of its variables, a value it can only place in the shared part leaves
    /// the rest of the other. Returns `false` when there is nothing to link.
    ///
    /// When both all-different constraints are posted already (on plain variables, as
    /// [`Model::all_different_nary`] does), the link is implied by them, and the search does
    /// not check it again on complete assignments ([`crate::PermutationOverlap::implied`]).
    pub fn link_all_different(&mut self, a: &[VarId], b: &[VarId]) -> Result<bool, ModelError> {
        for &v in a.iter().chain(b) {
            self.check_var(v)?;
        }
        match crate::overlap::PermutationOverlap::new(a, b) {
            Some(p) if self.posts_all_different(a) && self.posts_all_different(b) => {
                self.add_propagator(p.implied());
                Ok(true)
            }
            Some(p) => {
                self.add_propagator(p);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// [`Model::link_all_different`] for many pairs at once, as one propagator
    /// ([`crate::PermutationOverlaps`]): the same pruning, woken once per change instead of
    /// once per pair, and cheaper when pairs share parts (as a Sudoku box with the rows and
    /// columns it crosses). Returns how many pairs were linked. As for
    /// [`Model::link_all_different`], a group whose pairs' all-different constraints are all
    /// posted already is implied by them ([`crate::PermutationOverlaps::implied`]).
    pub fn link_all_different_pairs<'a>(
        &mut self,
        pairs: impl IntoIterator<Item = (&'a [VarId], &'a [VarId])>,
    ) -> Result<usize, ModelError> {
        let pairs: Vec<(&[VarId], &[VarId])> = pairs.into_iter().collect();
        for &v in pairs.iter().flat_map(|(a, b)| a.iter().chain(b.iter())) {
            self.check_var(v)?;
        }
        let implied = pairs
            .iter()
            .all(|(a, b)| self.posts_all_different(a) && self.posts_all_different(b));
        match crate::overlap::PermutationOverlaps::new(pairs) {
            Some(group) => {
                let linked = group.len();
                // Its check is the pairs' all-different constraints: already checked then.
                self.add_propagator(if implied { group.implied() } else { group });
                Ok(linked)
            }
            None => Ok(0),
        }
    }

    /// Adds a user-defined n-ary constraint.
    pub fn add_propagator(&mut self, propagator: impl Propagator + 'static) {
        self.network = OnceLock::new();
        self.at_fixpoint = false;
        Arc::make_mut(&mut self.propagators).push(Arc::new(propagator));
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.domains.len()
    }

    /// All variables, in index order.
    pub fn vars(&self) -> impl Iterator<Item = VarId> + '_ {
        (0..self.domains.len() as u32).map(VarId)
    }

    /// The variable with this index, if any.
    pub fn var(&self, index: usize) -> Option<VarId> {
        (index < self.num_vars()).then_some(VarId(index as u32))
    }

    /// A variable's initial domain.
    pub fn domain(&self, var: VarId) -> &Domain {
        &self.domains[var.index()]
    }

    /// A variable's name.
    pub fn name(&self, var: VarId) -> &str {
        &self.names[var.index()]
    }

    /// The given value of `var`, if it is fixed.
    pub fn fixed(&self, var: VarId) -> Option<i32> {
        self.fixed[var.index()]
    }

    /// The binary constraints in posting order.
    pub fn constraints(&self) -> &[BinaryConstraint] {
        &self.constraints
    }

    /// The n-ary propagators in posting order.
    pub fn propagators(&self) -> &[Arc<dyn Propagator>] {
        &self.propagators
    }

    /// The distinct variables that share a constraint (binary or n-ary) with `var`,
    /// in increasing order.
    pub fn neighbours(&self, var: VarId) -> Vec<VarId> {
        let network = self.network();
        let mut out: Vec<VarId> = network
            .adjacency
            .row(var.index())
            .iter()
            .map(|a| a.other)
            .collect();
        for watch in network.watches.row(var.index()) {
            out.extend(
                self.propagators[watch.prop as usize]
                    .variables()
                    .iter()
                    .copied()
                    .filter(|&v| v != var),
            );
        }
        out.sort_unstable();
        out.dedup();
        out
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

    /// The compiled network, built on first use and shared by clones.
    pub(crate) fn network(&self) -> Arc<Network> {
        self.network
            .get_or_init(|| Arc::new(Network::build(self)))
            .clone()
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
            .finish()
    }
}
