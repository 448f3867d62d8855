//! Posting the built-in constraints: the only part of the model that names the
//! propagators of [`crate::constraints`].

use std::sync::Arc;

use super::Model;
use crate::constraints::{AllDifferent, MAX_MATCHING_PAIRS, Strength, bounded_strength};
use crate::error::ModelError;
use crate::var::VarId;

impl Model {
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
    /// fast hidden singles, and the matching-based filter at low priority, so that the
    /// cheap pass does most of the pruning before the matching runs (the filter alone was
    /// slower on 9x9 Sudoku: see `docs/performance.md`).
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
        // A repeated variable would be its own neighbour: the propagators assume distinct ones.
        Model::check_distinct(vars, "an all-different constraint")?;
        let plain = offsets.iter().all(|&o| o == 0);
        let strength = bounded_strength(strength, self.pairs_up_to(vars, MAX_MATCHING_PAIRS));
        if strength == Strength::Gac {
            // The matching runs at low priority; hidden singles do the cheap part first.
            self.add_propagator(AllDifferent::gac_stage(vars.to_vec(), offsets.to_vec()))?;
            if plain {
                Arc::make_mut(&mut self.plain_all_different).push(vars.to_vec());
            }
        }
        self.add_propagator(AllDifferent::new(vars.to_vec(), offsets.to_vec(), strength))?;
        if plain {
            Arc::make_mut(&mut self.plain_all_different).push(vars.to_vec());
            let mut scope = vars.to_vec();
            scope.sort_unstable();
            Arc::make_mut(&mut self.all_different_scopes).insert(scope);
        }
        Ok(())
    }

    /// The (variable, value) pairs of the domains of `vars`, counted up to just past `cap`
    /// (the domains may hold billions).
    fn pairs_up_to(&self, vars: &[VarId], cap: u64) -> u64 {
        let mut pairs = 0u64;
        for &v in vars {
            pairs += self.domain(v).len() as u64;
            if pairs > cap {
                break;
            }
        }
        pairs
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
        Model::check_distinct(a, "a linked all-different constraint")?;
        Model::check_distinct(b, "a linked all-different constraint")?;
        match crate::constraints::PermutationOverlap::new(a, b) {
            Some(p) if self.posts_all_different(a) && self.posts_all_different(b) => {
                self.add_propagator(p.implied())?;
                Ok(true)
            }
            Some(p) => {
                self.add_propagator(p)?;
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
        for (a, b) in &pairs {
            Model::check_distinct(a, "a linked all-different constraint")?;
            Model::check_distinct(b, "a linked all-different constraint")?;
        }
        let implied = pairs
            .iter()
            .all(|(a, b)| self.posts_all_different(a) && self.posts_all_different(b));
        match crate::constraints::PermutationOverlaps::new(pairs) {
            Some(group) => {
                let linked = group.len();
                // Its check is the pairs' all-different constraints: already checked then.
                self.add_propagator(if implied { group.implied() } else { group })?;
                Ok(linked)
            }
            None => Ok(0),
        }
    }
}
