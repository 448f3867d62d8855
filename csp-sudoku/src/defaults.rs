//! The defaults of each order: model, locked candidates, strategy and branching, and
//! [`PerOrder`], which applies them (or the caller's choices) to every order met in a batch.
//!
//! Each default says why it was chosen; the measurements behind them, with dates and
//! commits, are in `docs/performance.md`.

use std::sync::OnceLock;

use csp_core::{Branching, Inference, SearchConfig, Strategy, Strength, ValueOrder, VarOrder};

use crate::model::{ModelKind, SudokuModel};
use crate::units::MAX_ORDER;

/// The fastest model for boards of box side `order`: one all-different constraint per
/// unit, with naked and hidden singles up to 9x9 and generalised arc consistency (singles
/// first) from 16x16 up. [`SudokuModel::default_for`] adds locked candidates from 9x9 up.
///
/// On 9x9, locked candidates prune about what GAC adds to singles at a fraction of its
/// cost, so singles with locked candidates are faster there. From 16x16 up GAC pays:
/// without it the search expands several times the nodes (`docs/performance.md` has the
/// figures).
pub fn default_model(order: usize) -> ModelKind {
    if order <= 3 {
        ModelKind::AllDiff(Strength::Hidden)
    } else {
        ModelKind::AllDiff(Strength::Gac)
    }
}

/// Whether [`SudokuModel::new`] adds locked candidates to a model kind chosen by hand:
/// from 16x16 up (so that the textbook strengths on 9x9 keep their textbook pruning).
/// The default model has them from 9x9 up ([`SudokuModel::default_for`]).
pub fn default_locked(order: usize) -> bool {
    order >= 4
}

/// The default strategy: `dom-wdeg-fixed` variable order (fewest values per unit of
/// conflict weight, the weight going to the cells in conflict and the decision behind it),
/// ascending values, propagation to a fixpoint (MAC). On hard puzzles it expands far fewer
/// nodes than MRV, and from 16x16 up fewer than plain dom/wdeg (`docs/performance.md`).
pub fn default_strategy() -> Strategy {
    Strategy::new(VarOrder::DomWdegFixed, ValueOrder::Asc, Inference::Mac)
}

/// The default branching of each order: on places (a value that only two cells of a
/// unit can still take) from 25x25 up, where it expands fewer nodes. On 16x16 it saves
/// nothing over sets of puzzles it was not tuned on, and on 9x9 it costs nodes, so up to
/// 16x16 decisions branch on cells (`docs/performance.md` has the figures).
pub fn default_branching(order: usize) -> Branching {
    if order >= 5 {
        Branching::Places
    } else {
        Branching::Variables
    }
}

/// The search configuration `csp sudoku solve|count` uses by default for puzzles of
/// `order`: [`default_strategy`] with [`default_branching`], no limits.
pub fn default_config(order: usize) -> SearchConfig {
    SearchConfig {
        branching: default_branching(order),
        ..SearchConfig::with_strategy(default_strategy())
    }
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

    /// The default rules for `order`: [`default_model`], with locked candidates from 9x9
    /// up, where their pruning outweighs their cost.
    ///
    /// # Panics
    /// If `order` is outside [`crate::MIN_ORDER`]`..=`[`crate::MAX_ORDER`].
    pub fn default_for(order: usize) -> SudokuModel {
        SudokuModel::build(order, default_model(order), order >= 3)
    }
}

/// The model and search configuration for each order met in a batch: the caller's
/// choices, with each order's defaults filling the rest. Models are built on first use
/// per order and shared by every thread.
///
/// ```
/// use csp_core::{Branching, SearchConfig};
/// use csp_sudoku::{PerOrder, default_strategy};
/// let per_order = PerOrder::new(SearchConfig::with_strategy(default_strategy()));
/// assert_eq!(per_order.config(3).branching, Branching::Variables);
/// assert_eq!(per_order.config(5).branching, Branching::Places);
/// assert_eq!(per_order.model(3).order(), 3);
/// ```
pub struct PerOrder {
    /// `None`: [`default_model`] of each order.
    kind: Option<ModelKind>,
    /// `None`: locked candidates as the model's default says.
    locked: Option<bool>,
    models: [OnceLock<SudokuModel>; MAX_ORDER + 1],
    /// `None`: [`default_branching`] of each order.
    branching: Option<Branching>,
    on_variables: SearchConfig,
    on_places: SearchConfig,
}

impl PerOrder {
    /// Each order's default model, and `config` with each order's default branching.
    pub fn new(config: SearchConfig) -> PerOrder {
        let with = |branching| SearchConfig {
            branching,
            ..config.clone()
        };
        PerOrder {
            kind: None,
            locked: None,
            models: std::array::from_fn(|_| OnceLock::new()),
            branching: None,
            on_variables: with(Branching::Variables),
            on_places: with(Branching::Places),
        }
    }

    /// The model `kind` for every order (`None`: each order's default), with locked
    /// candidates as [`default_locked`] says unless [`PerOrder::locked`] is given.
    pub fn kind(mut self, kind: Option<ModelKind>) -> PerOrder {
        self.kind = kind;
        self
    }

    /// Locked candidates on or off for every order (`None`: by default).
    pub fn locked(mut self, locked: Option<bool>) -> PerOrder {
        self.locked = locked;
        self
    }

    /// Branching on variables or places for every order (`None`: [`default_branching`]).
    pub fn branching(mut self, branching: Option<Branching>) -> PerOrder {
        self.branching = branching;
        self
    }

    /// The model for puzzles of `order`.
    ///
    /// # Panics
    /// If `order` is outside [`crate::MIN_ORDER`]`..=`[`crate::MAX_ORDER`].
    pub fn model(&self, order: usize) -> &SudokuModel {
        self.models[order].get_or_init(|| match (self.kind, self.locked) {
            (None, None) => SudokuModel::default_for(order),
            (None, Some(locked)) => SudokuModel::build(order, default_model(order), locked),
            (Some(kind), locked) => {
                SudokuModel::build(order, kind, locked.unwrap_or_else(|| default_locked(order)))
            }
        })
    }

    /// The search configuration for puzzles of `order`.
    pub fn config(&self, order: usize) -> &SearchConfig {
        match self.branching.unwrap_or_else(|| default_branching(order)) {
            Branching::Places => &self.on_places,
            _ => &self.on_variables,
        }
    }
}

impl Default for PerOrder {
    /// The defaults of every order: [`SudokuModel::default_for`] and [`default_config`].
    fn default() -> PerOrder {
        PerOrder::new(SearchConfig::with_strategy(default_strategy()))
    }
}
