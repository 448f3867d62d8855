//! What the learning variable orders, last-conflict reasoning and saved values keep as
//! search goes, and the hooks through which the search loop tells them what happened: an
//! assignment or its undoing, a node and its outcome, a conflict, a level exhausted, a
//! solution, a restart. Each part lives in its own order's file; this one holds them
//! and routes each event to the parts that are on. A part that is off costs one test per
//! event.

use super::Solver;
use super::frame::Choice;
use super::last_conflict::LastConflicts;
use super::scopes::Scopes;
use super::value_order::saved::SavedValues;
use super::var_order::activity::Activities;
use super::var_order::chs::ConflictHistory;
use super::var_order::frb_dom::FailureRates;
use super::var_order::impact::Impacts;
use super::var_order::pick_dom::PickCounts;
use super::var_order::wdeg_cacd::CacdWeights;
use super::weights::FailureWeights;
use crate::config::{ConfigError, Inference, SearchConfig, ValueOrder, VarOrder};
use crate::network::Network;
use crate::propagation::engine::{Failure, PickedVars, Propagation};
use crate::store::Store;
use crate::var::VarId;

/// The parts that are on for a search's configuration; see the module documentation.
#[derive(Default)]
pub(super) struct OrderState {
    /// Constraint scopes and their unassigned counts (dom-wdeg, wdeg-cacd, chs).
    pub(super) scopes: Option<Scopes>,
    pub(super) cacd: Option<CacdWeights>,
    pub(super) chs: Option<ConflictHistory>,
    pub(super) failures: Option<FailureRates>,
    pub(super) picks: Option<PickCounts>,
    pub(super) activity: Option<Activities>,
    pub(super) impact: Option<Impacts>,
    pub(super) last_conflict: Option<LastConflicts>,
    pub(super) saved: Option<SavedValues>,
}

impl OrderState {
    /// The parts `config` needs. Under MAC, pick/dom also has the engine record the
    /// picked variables.
    pub(super) fn new(
        network: &Network,
        props: &[std::sync::Arc<dyn crate::propagation::Propagator>],
        config: &SearchConfig,
        store: &Store,
        engine: &mut Propagation,
    ) -> Result<OrderState, ConfigError> {
        let n = store.sizes().len();
        let order = config.strategy.var_order;
        let robin = order == VarOrder::RunRobin;
        let mut state = OrderState::default();
        if matches!(order, VarOrder::DomWdeg | VarOrder::WdegCacd | VarOrder::Chs) || robin {
            state.scopes = Some(Scopes::new(network, props, n));
        }
        if let Some(scopes) = &state.scopes {
            if order == VarOrder::WdegCacd || robin {
                state.cacd = Some(CacdWeights::new(scopes));
            }
            if order == VarOrder::Chs {
                state.chs = Some(ConflictHistory::new(scopes));
            }
        }
        if matches!(order, VarOrder::FrbDom | VarOrder::FrbaDom) || robin {
            state.failures = Some(FailureRates::new(n));
        }
        if order == VarOrder::PickDom || robin {
            state.picks = Some(PickCounts::new(n));
            if config.strategy.inference == Inference::Mac {
                engine.picked = Some(PickedVars::new(n));
            }
        }
        if order == VarOrder::Activity {
            state.activity = Some(Activities::new(n));
        }
        if order == VarOrder::Impact {
            state.impact = Some(Impacts::new(store)?);
        }
        if config.last_conflict > 0 {
            state.last_conflict = Some(LastConflicts::new(config.last_conflict as usize));
        }
        if config.strategy.value_order == ValueOrder::Saved {
            state.saved = Some(SavedValues::new(n));
        }
        Ok(state)
    }
}

/// Search assigned `var` (already marked): the scopes and the weights that follow them.
/// A free function, so that the root can call it while it holds the store.
#[inline]
pub(super) fn track_assign(
    weights: &mut FailureWeights,
    scopes: &mut Option<Scopes>,
    var: VarId,
    assigned: &[bool],
) {
    if let Some(scopes) = scopes {
        if weights.follows_assignments() {
            weights.on_assign(var, scopes, assigned);
        } else {
            scopes.assign(var, assigned, |_, _| {});
        }
    }
}

impl Solver<'_> {
    /// Search unassigned `var` (already marked).
    #[inline]
    pub(super) fn track_unassign(&mut self, var: VarId) {
        if let Some(scopes) = &mut self.orders.scopes {
            let assigned = &self.state.assigned;
            if self.weights.follows_assignments() {
                self.weights.on_unassign(var, scopes, assigned);
            } else {
                scopes.unassign(var, assigned, |_, _| {}, |_| {});
            }
        }
    }

    /// A node `var = value` is about to be made (its inference to run).
    #[inline]
    pub(super) fn note_node_start(&mut self) {
        if let Some(activity) = &mut self.orders.activity {
            activity.before(&self.store);
        }
        if let Some(impact) = &mut self.orders.impact {
            impact.before(&self.store);
        }
    }

    /// The node `var = value` was made; `holds`: its inference did not fail.
    #[inline]
    pub(super) fn note_node_end(&mut self, var: VarId, value: i32, holds: bool) {
        let orders = &mut self.orders;
        if let Some(failures) = &mut orders.failures {
            failures.on_node(var, holds);
        }
        if let Some(activity) = &mut orders.activity {
            activity.after(var, &self.store, &self.state.assigned);
        }
        if let Some(impact) = &mut orders.impact {
            impact.after(var, value, holds, &self.store);
        }
        if let Some(saved) = &mut orders.saved {
            saved.on_assign(var, value);
        }
    }

    /// A conflict: the constraint that failed (`None`: a nogood), under the `decision`
    /// of the top frame (none at the root).
    pub(super) fn note_conflict(&mut self, failure: Option<Failure>, decision: Option<VarId>) {
        let orders = &mut self.orders;
        let constraint = failure
            .zip(orders.scopes.as_ref())
            .map(|(f, s)| s.constraint_of(f));
        if let (Some(cacd), Some(scopes), Some(c)) = (&mut orders.cacd, &orders.scopes, constraint) {
            cacd.on_conflict(c, scopes, &self.store, &self.state.assigned);
        }
        if let Some(chs) = &mut orders.chs {
            chs.on_conflict(constraint);
        }
        if let Some(picks) = &mut orders.picks {
            match &self.engine.picked {
                Some(picked) => picks.on_conflict(picked.members()),
                // Forward checking propagates the decision alone.
                None if failure.is_some() => picks.on_conflict(decision.as_slice()),
                None => {}
            }
        }
    }

    /// The top frame has no value left (it is about to be popped).
    #[inline]
    pub(super) fn note_exhausted(&mut self) {
        if let Some(lc) = &mut self.orders.last_conflict {
            let top = self.state.frames.last().expect("a frame");
            if let Choice::Values(_) = top.choice {
                lc.on_exhausted(self.state.frames.len() - 1, top.var);
            }
        }
    }

    /// A solution was found: the current assignment.
    #[inline]
    pub(super) fn note_solution(&mut self) {
        if let Some(lc) = &mut self.orders.last_conflict {
            lc.on_solution(self.state.frames.len());
        }
        if let Some(saved) = &mut self.orders.saved {
            saved.on_solution(&self.state.value);
        }
    }

    /// A restart: the search is back at the root.
    pub(super) fn note_restart(&mut self) {
        if let Some(lc) = &mut self.orders.last_conflict {
            lc.clear();
        }
        if let Some(chs) = &mut self.orders.chs {
            chs.on_restart();
        }
    }
}
