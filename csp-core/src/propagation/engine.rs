//! The propagation engine: the queues of pending work (binary arcs, and n-ary
//! propagators at two priorities), the nogoods recorded at restarts, and the loop that
//! runs them to a fixpoint. Search drives it after each assignment under MAC (and runs
//! single propagators through it under forward checking); [`crate::ac3`] drives it
//! once, on its own.
//!
//! The engine owns no domains: each call borrows the store, the assigned flags and the
//! statistics from its caller, so search keeps them in its own parts.

use std::collections::VecDeque;
use std::sync::Arc;

use super::context::{Assignment, ChangeList, PropagationContext};
use super::nogoods::Nogoods;
pub(crate) use super::picked::PickedVars;
use super::propagator::{Event, Priority, Propagator};
use super::ring::Ring;
use crate::network::{Network, PropFlags};
use crate::stats::Stats;
use crate::store::Store;
use crate::var::VarId;

/// Marks a "changed" entry in the propagator queue (instead of a local index); the other
/// bits name the variable whose change queued it (for [`PickedVars`]), or are all ones
/// ([`NO_WAKER`]) when none did.
const CHANGED: u32 = 1 << 31;

/// The low bits of a "changed" entry queued by no variable's change (at the root).
const NO_WAKER: u32 = CHANGED - 1;

/// The constraint that wiped out a domain (dom/wdeg weighs it).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Failure {
    /// A directed binary arc, by index in the network.
    Arc(u32),
    /// An n-ary propagator, by index in the model.
    Propagator(usize),
}

/// Pending work and the nogood store; see the module documentation.
pub(crate) struct Propagation {
    arc_queue: VecDeque<u32>,
    arc_queued: Vec<bool>,
    /// Pending propagator runs by priority (fast, then slow): `(propagator, local)`, where
    /// `local` is a variable position for fixed events and `CHANGED` (with the waking
    /// variable) otherwise.
    queues: [Ring<(u32, u32)>; 2],
    /// Whether a propagator has a changed event queued.
    prop_change_queued: Vec<bool>,
    /// Variables a propagator changed, to announce once it returns.
    changes: ChangeList,
    /// Each propagator's wake-up rules, read once (not through a virtual call per change).
    prop_flags: Vec<PropFlags>,
    /// Whether propagators' changes are announced (MAC). Forward checking does not
    /// cascade: it runs each propagator once and drops what it changed.
    track: bool,
    /// The nogoods recorded at restarts.
    pub(crate) nogoods: Nogoods,
    /// Fixed variables whose nogoods have not been visited yet.
    nogood_queue: Vec<VarId>,
    /// Variables that lost a value to a nogood, to announce.
    nogood_pruned: Vec<VarId>,
    /// For pick/dom: the variables whose change pruned another domain in the fixpoint
    /// under way. `None` unless the variable order reads them.
    pub(crate) picked: Option<PickedVars>,
}

impl Propagation {
    /// An idle engine for `network`, with queues sized for it. `track`: see
    /// [`Propagation::track`].
    pub(crate) fn new(network: &Network, num_vars: usize, track: bool) -> Propagation {
        let num_props = network.prop_flags.len();
        Propagation {
            arc_queue: VecDeque::with_capacity(network.arcs.len().min(1 << 20)),
            arc_queued: vec![false; network.arcs.len()],
            queues: [Ring::with_capacity(num_props * 2), Ring::with_capacity(num_props)],
            prop_change_queued: vec![false; num_props],
            changes: ChangeList::new(num_vars),
            prop_flags: network.prop_flags.clone(),
            track,
            nogoods: Nogoods::default(),
            nogood_queue: Vec::new(),
            nogood_pruned: Vec::new(),
            picked: None,
        }
    }

    /// Propagator `p`'s wake-up rules.
    #[inline]
    pub(crate) fn flags(&self, p: usize) -> PropFlags {
        self.prop_flags[p]
    }

    /// Queues everything the root needs: every arc into an unassigned variable, the
    /// announcement of every variable with one value left, and a changed event for every
    /// propagator.
    pub(crate) fn queue_root(&mut self, network: &Network, store: &Store, assigned: &[bool]) {
        for (i, arc) in network.arcs.iter().enumerate() {
            if !assigned[arc.x.index()] {
                self.enqueue_arc(i as u32);
            }
        }
        // Without arcs or propagators woken by fixed variables, announcing would only
        // queue every propagator for a change, as the loop below does. (The order of the
        // queue does not matter here: the fixpoint is the same, and a failure at the root
        // ends the search.)
        let changes_only = network.arcs.is_empty() && self.prop_flags.iter().all(|f| !f.wake.on_fixed());
        if !changes_only {
            for v in 0..assigned.len() {
                let var = VarId(v as u32);
                if store.size(var) == 1 {
                    self.announce_change(network, store, assigned, var, None);
                }
            }
        }
        for p in 0..self.prop_flags.len() {
            self.enqueue_prop_change(p);
        }
    }

    /// Runs propagator `p` on `event`. Under MAC its changes wait in the change list
    /// for [`Propagation::fixpoint`] to announce.
    #[inline]
    pub(crate) fn run_propagator(
        &mut self,
        props: &[Arc<dyn Propagator>],
        p: usize,
        event: Event,
        store: &mut Store,
        assignment: Assignment<'_>,
        stats: &mut Stats,
    ) -> bool {
        stats.propagations += 1;
        let mut ctx = PropagationContext {
            store,
            changed: &mut self.changes,
            track: self.track,
            pruned: &mut stats.pruned,
            assignment,
        };
        props[p].propagate(&mut ctx, event).is_ok()
    }

    /// Forgets the changes the last propagator made (forward checking does not cascade).
    #[inline]
    pub(crate) fn drop_changes(&mut self) {
        self.changes.clear();
    }

    fn enqueue_arc(&mut self, arc: u32) {
        if !self.arc_queued[arc as usize] {
            self.arc_queued[arc as usize] = true;
            self.arc_queue.push_back(arc);
        }
    }

    fn enqueue_prop_change(&mut self, p: usize) {
        let priority = self.prop_flags[p].priority;
        if !self.prop_change_queued[p] {
            self.prop_change_queued[p] = true;
            self.queues[priority as usize].push_back((p as u32, CHANGED | NO_WAKER));
        }
    }

    /// Schedules what depends on `var`'s domain: arcs `(z -> var)` for unassigned
    /// neighbours `z` other than `except`, the propagators watching `var`, and its
    /// nogoods once it has one value.
    pub(crate) fn announce_change(
        &mut self,
        network: &Network,
        store: &Store,
        assigned: &[bool],
        var: VarId,
        except: Option<VarId>,
    ) {
        self.announce_change_from(network, store, assigned, var, except, u32::MAX);
    }

    /// As [`Propagation::announce_change`], for a change made by a propagator: `skip` is
    /// that propagator when it is idempotent (it is not woken by its own change), else
    /// `u32::MAX`, which no propagator has.
    #[inline(always)]
    fn announce_change_from(
        &mut self,
        network: &Network,
        store: &Store,
        assigned: &[bool],
        var: VarId,
        except: Option<VarId>,
        skip: u32,
    ) {
        let size = store.size(var);
        // Models of n-ary constraints only (every all-different Sudoku) skip the row lookup.
        if !network.arcs.is_empty() {
            for adj in network.adjacency.row(var.index()) {
                if size <= adj.in_arc_prunes_at && !assigned[adj.other.index()] && Some(adj.other) != except {
                    self.enqueue_arc(adj.in_arc);
                }
            }
        }
        if size == 1 {
            if self.nogoods.watching(var) {
                self.nogood_queue.push(var);
            }
            for watch in network.wakes.on_fixed.row(var.index()) {
                self.queues[Priority::Fast as usize].push_back((watch.prop, watch.local));
            }
        }
        let prop_change_queued = &mut self.prop_change_queued[..];
        for (queue, props) in self.queues.iter_mut().zip(network.wakes.on_change(var.index())) {
            // Whether the propagator is queued already follows no pattern: it is pushed
            // without a branch on that (see `Ring::push_if`).
            queue.extend_if(
                props.len(),
                props.iter().map(|&p| {
                    let wants = p != skip;
                    let queued = &mut prop_change_queued[p as usize];
                    let push = wants & !*queued;
                    *queued |= wants;
                    ((p, CHANGED | var.0), push)
                }),
            );
        }
    }

    /// AC-3 over the queued arcs, interleaved with the queued propagators and nogoods, to
    /// a fixpoint. On a failure the queues are emptied and the failing constraint named.
    pub(crate) fn fixpoint(
        &mut self,
        network: &Network,
        props: &[Arc<dyn Propagator>],
        store: &mut Store,
        assignment: Assignment<'_>,
        stats: &mut Stats,
    ) -> Result<(), Option<Failure>> {
        if let Some(picked) = &mut self.picked {
            picked.clear();
        }
        let outcome = self.fixpoint_inner(network, props, store, assignment, stats);
        if outcome.is_err() {
            for arc in self.arc_queue.drain(..) {
                self.arc_queued[arc as usize] = false;
            }
            for queue in &mut self.queues {
                while let Some((p, _)) = queue.pop_front() {
                    self.prop_change_queued[p as usize] = false;
                }
            }
            self.changes.clear();
            self.nogood_queue.clear();
        }
        outcome
    }

    /// The loop of [`Propagation::fixpoint`]. `Err(None)`: a nogood failed (no constraint
    /// to blame).
    fn fixpoint_inner(
        &mut self,
        network: &Network,
        props: &[Arc<dyn Propagator>],
        store: &mut Store,
        assignment: Assignment<'_>,
        stats: &mut Stats,
    ) -> Result<(), Option<Failure>> {
        let assigned = assignment.assigned;
        loop {
            if let Some(var) = self.nogood_queue.pop() {
                if !self.visit_nogoods(var, store, stats) {
                    return Err(None);
                }
                for i in 0..self.nogood_pruned.len() {
                    let other = self.nogood_pruned[i];
                    self.announce_change(network, store, assigned, other, None);
                }
            } else if let Some(a) = self.arc_queue.pop_front() {
                self.arc_queued[a as usize] = false;
                let arc = &network.arcs[a as usize];
                if assigned[arc.x.index()] {
                    continue;
                }
                stats.revisions += 1;
                let removed = arc.kind.revise(arc.x, arc.y, store, &mut stats.checks);
                if removed > 0 {
                    stats.pruned += u64::from(removed);
                    if store.size(arc.x) == 0 {
                        return Err(Some(Failure::Arc(a)));
                    }
                    self.announce_change(network, store, assigned, arc.x, Some(arc.y));
                    if let Some(picked) = &mut self.picked {
                        picked.add(arc.y);
                    }
                }
            } else if let Some((p, local)) = self.queues.iter_mut().find_map(Ring::pop_front) {
                let changed = local & CHANGED != 0;
                let event = if changed {
                    self.prop_change_queued[p as usize] = false;
                    Event::Changed
                } else {
                    Event::Fixed(local as usize)
                };
                let pruned_before = stats.pruned;
                if !self.run_propagator(props, p as usize, event, store, assignment, stats) {
                    return Err(Some(Failure::Propagator(p as usize)));
                }
                if let Some(picked) = self.picked.as_mut().filter(|_| stats.pruned > pruned_before) {
                    match event {
                        Event::Fixed(local) => picked.add(props[p as usize].variables()[local]),
                        _ if local & NO_WAKER != NO_WAKER => picked.add(VarId(local & NO_WAKER)),
                        _ => {}
                    }
                }
                let skip = if changed && self.prop_flags[p as usize].idempotent {
                    p
                } else {
                    u32::MAX
                };
                while let Some(var) = self.changes.pop() {
                    self.announce_change_from(network, store, assigned, var, None, skip);
                }
            } else {
                return Ok(());
            }
        }
    }

    /// Visits the nogoods watching the fixed `var`, pruning what they rule out (the
    /// variables are left for [`Propagation::nogood_pruned`]). Returns `false` if one is
    /// violated or empties a domain.
    pub(crate) fn visit_nogoods(&mut self, var: VarId, store: &mut Store, stats: &mut Stats) -> bool {
        self.nogood_pruned.clear();
        let holds = self.nogoods.on_fixed(var, store, &mut self.nogood_pruned).is_ok();
        stats.pruned += self.nogood_pruned.len() as u64;
        holds
    }

    /// Empties the nogood queue (a failure outside the fixpoint loop).
    pub(crate) fn clear_nogood_queue(&mut self) {
        self.nogood_queue.clear();
    }
}
