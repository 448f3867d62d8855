//! What is decided once per search, in one place: which variable selection runs, and
//! which of the specialised paths apply (forced runs, the compiled forward-checking
//! loop, branching on places). Each rule is written here, next to its reason.
//!
//! Optimisation ([`super::branch_and_bound`]) turns no path off. Its bound prunes the
//! objective in `decide`, which the general loop calls at each node; the compiled loop
//! applies the same rules to its one-word domains; a forced run follows a node (or the
//! root) whose propagation already took the bound in force, and no solution, the only
//! thing that tightens the bound, falls inside a run.

use super::places::Permutations;
use super::var_order::VarSelection;
use crate::config::{Backjump, Branching, Inference, SearchConfig, TieBreak, ValueOrder, VarOrder};
use crate::model::Model;
use crate::network::Network;
use crate::store::Store;

/// The once-per-search decisions; see the module documentation.
pub(super) struct SearchPlan {
    pub(super) selection: VarSelection,
    /// The inference is MAC (read once, not per node).
    pub(super) mac: bool,
    /// Forced variables are assigned in runs ([`super::forced_runs`]): MAC, a selection
    /// that takes the first forced variable, a value order that costs nothing on one
    /// value, no restarts.
    pub(super) forced_runs: bool,
    /// The compiled forward-checking loop ([`super::compiled_fc`]) runs the search.
    pub(super) compiled_fc: bool,
    /// Under [`Branching::Places`]: the permutation constraints to branch on.
    pub(super) permutations: Option<Permutations>,
    /// Whether complete assignments must be re-checked by the propagators (some
    /// propagator's pruning may be incomplete).
    pub(super) final_check: bool,
    /// Backjumping or a trace follows the search ([`super::hooks`]): the loop calls their
    /// hooks, and the two fast paths step aside (they make the same nodes, without the
    /// hooks).
    pub(super) observed: bool,
    /// Every how many nodes (a power of two) the clock and the cancel flag are read: 256,
    /// or 1 on a store of 2^16 words or more, where a node visits thousands of words
    /// (30,000 for 10,000 queens) and 256 of them would overrun a time limit by a
    /// noticeable part of a second.
    pub(super) clock_every: u64,
}

impl SearchPlan {
    pub(super) fn new(model: &Model, network: &Network, config: &SearchConfig, store: &Store) -> SearchPlan {
        let strategy = config.strategy;
        let lowest = config.tie_break == TieBreak::Lowest;
        // Without inference, the number of legal values is not the domain size: only the
        // general scan counts them.
        let inferring = strategy.inference != Inference::None;
        let selection = match strategy.var_order {
            VarOrder::Static => VarSelection::Static,
            VarOrder::Mrv if lowest && inferring => VarSelection::Smallest,
            VarOrder::Mrv if inferring => VarSelection::SmallestRandomTie,
            VarOrder::DomWdeg | VarOrder::DomWdegFixed if lowest && inferring => {
                VarSelection::SmallestWeighted
            }
            _ => VarSelection::General,
        };
        let mac = strategy.inference == Inference::Mac;
        // Backjumping and traces follow each node through the general loop.
        let observed = config.backjump != Backjump::None || config.trace.is_some();
        let forced_runs = mac
            && !observed
            && matches!(selection, VarSelection::Smallest | VarSelection::SmallestWeighted)
            && matches!(strategy.value_order, ValueOrder::Asc | ValueOrder::Desc)
            && config.restarts.is_none();
        // The compiled loop knows static order and MRV with ties to the lowest index only.
        let compiled_order = match strategy.var_order {
            VarOrder::Static => true,
            VarOrder::Mrv => lowest,
            _ => false,
        };
        let compiled_fc = network.compiled_fc.is_some()
            && !observed
            && !network.final_check
            && compiled_order
            && strategy.inference == Inference::Fc
            && strategy.value_order == ValueOrder::Asc
            && config.restarts.is_none();
        // Places are read off one word per domain; without inference a domain does not
        // tell where a value can still go.
        let permutations = match (config.branching, store.uniform_words()) {
            (Branching::Places, Some((words, _))) if inferring => {
                Permutations::find(model.plain_all_different(), words)
            }
            _ => None,
        };
        SearchPlan {
            selection,
            mac,
            forced_runs,
            compiled_fc,
            permutations,
            final_check: network.final_check,
            observed,
            clock_every: if store.num_words() >= 1 << 16 { 1 } else { 256 },
        }
    }
}
