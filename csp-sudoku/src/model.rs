//! Sudoku as a CSP on csp-core: one variable per cell, domain 1..=N.

use std::fmt;
use std::str::FromStr;

use csp_core::{Inference, Model, Strength, VarId};
use serde::Serialize;

use crate::grid::{Grid, full_mask};
use crate::prepass::singles_candidates;
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
    /// Whether the all-different model links each box with the lines it crosses.
    locked: bool,
    rules: Model,
    cells: Vec<VarId>,
}

impl SudokuModel {
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
                        .flat_map(|b| crossing_lines(units, b).map(move |line| (b, line)))
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
            locked: locked && kind != ModelKind::Pairwise,
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

    /// [`SudokuModel::with_givens`], with the values that naked and hidden singles (and
    /// locked candidates, when the model has them) rule out before search excluded as
    /// well. For the all-different models at hidden or GAC strength under MAC this changes
    /// nothing but speed: those rules are part of the root fixpoint anyway, and are reached
    /// here without the propagation queue. The other models and inferences would prune
    /// less at the root, so they get the plain givens.
    pub fn with_givens_for(&self, puzzle: &Grid, inference: Inference) -> Model {
        let mut model = self.with_givens(puzzle);
        let implied = matches!(self.kind, ModelKind::AllDiff(Strength::Hidden | Strength::Gac));
        if !implied || inference != Inference::Mac {
            return model;
        }
        // A contradiction is left for the search to find (and report as such).
        let Some(candidates) = singles_candidates(self.order, puzzle, self.locked) else {
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
        // At hidden strength the propagators apply exactly the pre-pass's rules (singles,
        // and locked candidates when linked), so the root propagation would find nothing.
        // GAC may prune more.
        if self.kind == ModelKind::AllDiff(Strength::Hidden) {
            model.declare_at_fixpoint();
        }
        model
    }

    /// The grid a full assignment stands for.
    pub fn grid_of(&self, values: &[i32]) -> Grid {
        let cells = values.iter().map(|&v| v as u8).collect();
        Grid::from_cells(self.order, cells).expect("one value in 1..=N per cell")
    }
}

/// The rows and columns (as unit ids, rows first) that box `b` crosses.
fn crossing_lines(units: &Units, b: usize) -> impl Iterator<Item = usize> {
    let mut lines: Vec<usize> = units
        .unit(b)
        .iter()
        .flat_map(|&cell| {
            let [row, col, _] = units.units_of(cell);
            [row, col]
        })
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines.into_iter()
}
