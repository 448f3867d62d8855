//! Sudoku as a CSP on csp-core: one variable per cell, domain 1..=N.

use std::fmt;
use std::str::FromStr;

use csp_core::{Inference, Model, Strength, VarId};
use serde::Serialize;

use crate::grid::Grid;
use crate::units::Units;

/// How the rules are posted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case", tag = "model", content = "strength")]
pub enum ModelKind {
    /// `!=` between every pair of peers: the textbook model for comparing heuristics.
    Pairwise,
    /// One all-different constraint per row, column and box, at the given strength.
    AllDiff(Strength),
}

impl ModelKind {
    /// `pairwise`, `alldiff-value`, `alldiff-hidden` or `alldiff-gac`.
    pub fn name(self) -> &'static str {
        match self {
            ModelKind::Pairwise => "pairwise",
            ModelKind::AllDiff(Strength::Value) => "alldiff-value",
            ModelKind::AllDiff(Strength::Hidden) => "alldiff-hidden",
            ModelKind::AllDiff(Strength::Gac) => "alldiff-gac",
        }
    }

    /// Every model: pairwise, then all-different at each strength.
    pub fn all() -> Vec<ModelKind> {
        std::iter::once(ModelKind::Pairwise)
            .chain(Strength::ALL.into_iter().map(ModelKind::AllDiff))
            .collect()
    }
}

impl fmt::Display for ModelKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ModelKind {
    type Err = csp_core::ParseNameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ModelKind::all()
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| csp_core::ParseNameError {
                kind: "sudoku model",
                found: s.to_string(),
                expected: "pairwise, alldiff-value, alldiff-hidden, alldiff-gac",
            })
    }
}

/// Whether [`SudokuModel::new`] adds locked candidates to a model kind chosen by hand:
/// from 16x16 up (so that the textbook strengths on 9x9 keep their textbook pruning).
/// The default model has them from 9x9 up ([`SudokuModel::default_for`]).
pub fn default_locked(order: usize) -> bool {
    order >= 4
}

/// The rules of Sudoku of one order as a csp-core [`Model`], built once and
/// specialised per puzzle by fixing the givens.
///
/// ```
/// use csp_sudoku::{ModelKind, SudokuModel};
/// use csp_core::Strength;
/// let rules = SudokuModel::new(2, ModelKind::AllDiff(Strength::Gac));
/// assert_eq!(rules.model().num_vars(), 16);
/// let pairwise = SudokuModel::new(3, ModelKind::Pairwise);
/// assert_eq!(pairwise.model().constraints().len(), 81 * 20 / 2);
/// ```
#[derive(Clone, Debug)]
pub struct SudokuModel {
    order: usize,
    kind: ModelKind,
    rules: Model,
    cells: Vec<VarId>,
}

impl SudokuModel {
    /// The rules for boards of box side `order` (side `order * order`), with locked
    /// candidates where they pay ([`default_locked`]).
    ///
    /// # Panics
    /// If `order` is outside [`crate::MIN_ORDER`]`..=`[`crate::MAX_ORDER`].
    pub fn new(order: usize, kind: ModelKind) -> SudokuModel {
        SudokuModel::build(order, kind, default_locked(order))
    }

    /// The default rules for `order`: [`crate::default_model`], with locked candidates
    /// from 9x9 up, where their pruning outweighs their cost.
    ///
    /// # Panics
    /// If `order` is outside [`crate::MIN_ORDER`]`..=`[`crate::MAX_ORDER`].
    pub fn default_for(order: usize) -> SudokuModel {
        SudokuModel::build(order, crate::default_model(order), order >= 3)
    }

    /// The rules, saying whether the all-different model also links each box with the
    /// rows and columns it crosses (locked candidates: pointing and box-line reduction,
    /// all as one csp-core [`csp_core::PermutationOverlaps`]). The pairwise model is never linked.
    ///
    /// # Panics
    /// If `order` is outside [`crate::MIN_ORDER`]`..=`[`crate::MAX_ORDER`].
    pub fn build(order: usize, kind: ModelKind, locked: bool) -> SudokuModel {
        let side = order * order;
        let mut rules = Model::new();
        let domain = csp_core::Domain::range(1, side as i32).expect("a non-empty range");
        let cells: Vec<VarId> = (0..side * side)
            .map(|i| rules.add_named_var(format!("r{}c{}", i / side + 1, i % side + 1), domain.clone()))
            .collect();
        let units = Units::of_order(order).expect("an order within MIN_ORDER..=MAX_ORDER");
        match kind {
            ModelKind::Pairwise => {
                for a in 0..side * side {
                    for &b in units.peers(a).iter().filter(|&&b| b > a) {
                        rules
                            .not_equal(cells[a], cells[b])
                            .expect("distinct cells of this model");
                    }
                }
            }
            ModelKind::AllDiff(strength) => {
                let unit_vars =
                    |u: usize| -> Vec<VarId> { units.unit(u).iter().map(|&c| cells[c]).collect() };
                for u in 0..units.unit_count() {
                    rules
                        .all_different_nary(&unit_vars(u), strength)
                        .expect("cells of this model");
                }
                if locked {
                    // Each box with each row and column it crosses, as one propagator.
                    let scopes: Vec<Vec<VarId>> = (0..units.unit_count()).map(unit_vars).collect();
                    let pairs = (2 * side..3 * side)
                        .flat_map(|b| (0..2 * side).map(move |line| (b, line)))
                        .map(|(b, line)| (&scopes[b][..], &scopes[line][..]));
                    rules
                        .link_all_different_pairs(pairs)
                        .expect("cells of this model");
                }
            }
        }
        // Build the compiled network now, so that clones per puzzle share it.
        let _ = rules.neighbours(cells[0]);
        SudokuModel {
            order,
            kind,
            rules,
            cells,
        }
    }

    /// Box side.
    pub fn order(&self) -> usize {
        self.order
    }

    /// The model kind.
    pub fn kind(&self) -> ModelKind {
        self.kind
    }

    /// The rules without givens.
    pub fn model(&self) -> &Model {
        &self.rules
    }

    /// The variable of each cell, row-major.
    pub fn cells(&self) -> &[VarId] {
        &self.cells
    }

    /// The rules with the puzzle's givens fixed.
    ///
    /// # Panics
    /// If the puzzle's order differs from the model's.
    pub fn with_givens(&self, puzzle: &Grid) -> Model {
        assert_eq!(puzzle.order(), self.order, "puzzle and model orders differ");
        let mut model = self.rules.clone();
        for (&var, &value) in self.cells.iter().zip(puzzle.cells()) {
            if value != 0 {
                model.fix(var, i32::from(value)).expect("a given within 1..=N");
            }
        }
        model
    }

    /// [`SudokuModel::with_givens`], with the values that naked and hidden singles rule
    /// out before search excluded as well. For the all-different models at hidden or GAC
    /// strength under MAC this changes nothing but speed: those singles are part of the
    /// root fixpoint anyway, and are reached here without the propagation queue. The other
    /// models and inferences would prune less at the root, so they get the plain givens.
    pub fn with_givens_for(&self, puzzle: &Grid, inference: Inference) -> Model {
        let mut model = self.with_givens(puzzle);
        let implied = matches!(self.kind, ModelKind::AllDiff(Strength::Hidden | Strength::Gac));
        if !implied || inference != Inference::Mac {
            return model;
        }
        // A contradiction is left for the search to find (and report as such).
        let Some(candidates) = singles_candidates(self.order, puzzle) else {
            return model;
        };
        let full = full_mask(self.order * self.order);
        for ((&var, &mask), &given) in self.cells.iter().zip(&candidates).zip(puzzle.cells()) {
            // A given is fixed already: excluding its other values changes nothing.
            if given == 0 {
                model
                    .exclude_bits(var, 1, full & !mask)
                    .expect("a cell of this model");
            }
        }
        model
    }

    /// The grid a full assignment stands for.
    pub fn grid_of(&self, values: &[i32]) -> Grid {
        let cells = values.iter().map(|&v| v as u8).collect();
        Grid::from_cells(self.order, cells).expect("one value in 1..=N per cell")
    }
}

/// Bits `0..side`: the values `1..=side`.
fn full_mask(side: usize) -> u64 {
    if side == 64 { !0 } else { (1u64 << side) - 1 }
}

/// The candidates of every cell (bit `v - 1` for value `v`) after naked and hidden singles
/// have run to a fixpoint from the givens, or `None` if they meet a contradiction.
///
/// Each unit keeps the values placed in it, so placing a value is three ORs and an open
/// cell's candidates are its old ones minus what its three units hold: sweeps over the open
/// cells place every naked single until none is left, then one pass over the units places
/// the hidden singles, and so on until neither finds anything.
fn singles_candidates(order: usize, puzzle: &Grid) -> Option<Vec<u64>> {
    let units = Units::of_order(order).expect("an order within MIN_ORDER..=MAX_ORDER");
    let full = full_mask(order * order);
    let mut cands: Vec<u64> = Vec::with_capacity(puzzle.cells().len());
    let mut placed = vec![0u64; units.unit_count()];
    let mut open: Vec<usize> = Vec::with_capacity(puzzle.cells().len());
    // Units whose cells lost candidates since their last hidden-singles pass: a pass over
    // an unchanged unit finds nothing new.
    let mut dirty = vec![true; units.unit_count()];
    for (cell, &v) in puzzle.cells().iter().enumerate() {
        if v == 0 {
            cands.push(full);
            open.push(cell);
        } else {
            let bit = 1 << (v - 1);
            cands.push(bit);
            place(&mut placed, units.units_of(cell), bit)?;
        }
    }
    loop {
        // Naked singles, sweep after sweep while some cell gets down to one value.
        loop {
            let before = open.len();
            let mut i = 0;
            while i < open.len() {
                let cell = open[i];
                let [a, b, c] = units.units_of(cell);
                let left = cands[cell] & !(placed[a] | placed[b] | placed[c]);
                if left == 0 {
                    return None;
                }
                if left != cands[cell] {
                    cands[cell] = left;
                    for u in [a, b, c] {
                        dirty[u] = true;
                    }
                }
                if left & (left - 1) == 0 {
                    place(&mut placed, [a, b, c], left)?;
                    open.swap_remove(i);
                } else {
                    i += 1;
                }
            }
            if open.is_empty() {
                return Some(cands);
            }
            if open.len() == before {
                break;
            }
        }
        // Hidden singles: candidates are settled against every placed value here.
        let mut found = false;
        for (u, cells) in units.all().enumerate() {
            if !std::mem::take(&mut dirty[u]) {
                continue;
            }
            let mut fresh = hidden_singles(cells, full, placed[u], &mut cands)?;
            while fresh != 0 {
                let bit = fresh & fresh.wrapping_neg();
                fresh &= fresh - 1;
                let cell = *cells
                    .iter()
                    .find(|&&c| cands[c] == bit)
                    .expect("the cell given the value");
                let own = units.units_of(cell);
                place(&mut placed, own, bit)?;
                for v in own {
                    dirty[v] = true;
                }
                found = true;
            }
        }
        if !found {
            return Some(cands);
        }
        open.retain(|&cell| cands[cell] & (cands[cell] - 1) != 0);
    }
}

/// Places `bit` in three units, or `None` if one of them holds it already.
fn place(placed: &mut [u64], units: [usize; 3], bit: u64) -> Option<()> {
    for u in units {
        if placed[u] & bit != 0 {
            return None;
        }
        placed[u] |= bit;
    }
    Some(())
}

/// Hidden singles in one unit whose cells holding one value hold `placed`: a value held by
/// one cell only goes there. Returns the values it placed, or `None` if the unit misses a
/// value or a cell would have to take two.
fn hidden_singles(cells: &[usize], full: u64, placed: u64, cands: &mut [u64]) -> Option<u64> {
    let (mut once, mut twice) = (0u64, 0u64);
    for &c in cells {
        let d = cands[c];
        twice |= once & d;
        once |= d;
    }
    if once != full {
        return None;
    }
    let unique = once & !twice & !placed;
    if unique == 0 {
        return Some(0);
    }
    for &c in cells {
        let mine = cands[c] & unique;
        if mine & mine.wrapping_sub(1) != 0 {
            return None; // the only place for two values
        }
        if mine != 0 {
            cands[c] = mine;
        }
    }
    Some(unique)
}

#[cfg(test)]
mod tests {
    use super::hidden_singles;

    #[test]
    fn hidden_singles_take_the_only_place_of_a_value() {
        let mut cands = [0b0011, 0b0110, 0b1110, 0b0110];
        // 1 and 4 have one place each.
        assert_eq!(hidden_singles(&[0, 1, 2, 3], 0b1111, 0, &mut cands), Some(0b1001));
        assert_eq!(cands, [0b0001, 0b0110, 0b1000, 0b0110]);
    }

    #[test]
    fn a_cell_that_alone_holds_two_values_is_a_contradiction() {
        // Only cell 0 can take 1 and 2, whether or not it holds anything else.
        for first in [0b0011, 0b0111] {
            let mut cands = [first, 0b1100, 0b1100, 0b1100];
            assert_eq!(hidden_singles(&[0, 1, 2, 3], 0b1111, 0, &mut cands), None);
        }
    }
}
