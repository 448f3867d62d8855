//! The compiled constraint network: directed arcs with their revision fast paths,
//! adjacency in compressed rows, and the watch lists of n-ary propagators.
//!
//! Built once per model (and shared by every solver of that model), so that
//! search touches only flat arrays.

use std::borrow::Cow;
use std::sync::Arc;

use crate::model::Model;
use crate::propagation::Priority;
use crate::relation::Oriented;
use crate::store::{Layout, Store};
use crate::var::VarId;

mod arcs;
mod fc_steps;
mod neighbour_sets;
mod rows;
mod wakes;

pub(crate) use arcs::{Adjacent, ArcKind, DirectedArc};
pub(crate) use fc_steps::FcStep;
pub(crate) use neighbour_sets::NeighbourSets;
pub(crate) use rows::Rows;
pub(crate) use wakes::{PropFlags, Wakes, Watch};

/// The compiled network of a [`Model`].
pub(crate) struct Network {
    pub(crate) arcs: Vec<DirectedArc>,
    pub(crate) adjacency: Rows<Adjacent>,
    /// Per variable, its forward-checking steps, in the order of `adjacency`.
    pub(crate) fc: Rows<FcStep>,
    /// Per variable, in the order of `adjacency`: the step from each neighbour back to the
    /// variable (which of its values the neighbour's value rules out). Under inference
    /// `none` this counts legal values with a few word operations.
    pub(crate) fc_back: Rows<FcStep>,
    pub(crate) watches: Rows<Watch>,
    pub(crate) wakes: Wakes,
    /// The initial domains, cloned into each search, when they are small
    /// ([`KEEP_INITIAL_WORDS`]); larger ones are built from the model by each search
    /// ([`initial_store`]), so that no second copy of them lives beside the search's.
    pub(crate) initial: Option<Store>,
    /// Each propagator's scheduling rules.
    pub(crate) prop_flags: Vec<PropFlags>,
    /// Each variable's number of constraints, or nothing when no variable has any (a
    /// graph of isolated vertices pays nothing for them).
    degrees: Vec<u32>,
    /// The most variables of one propagator.
    pub(crate) max_arity: usize,
    /// Whether some propagator's pruning may be incomplete (see `Propagator::prunes_exactly`).
    pub(crate) final_check: bool,
    /// When the model is binary constraints only, every domain the one word at its
    /// variable's index at one shared base, every forward-checking step compiled and
    /// there are at most [`NeighbourSets::MAX_VARS`] variables: the setting of the
    /// compiled forward-checking search, which visits neighbours through these sets.
    pub(crate) compiled_fc: Option<NeighbourSets>,
}

impl Network {
    pub(crate) fn build(model: &Model) -> Network {
        Network::build_until(model, &mut || false).expect("nothing stops the build")
    }

    /// [`Network::build`] that gives up (`None`) once `expired` says so: it is asked every
    /// few thousand pairs, since a model of millions of binary constraints takes seconds to
    /// compile, and a time limit covers the whole run.
    fn build_until(model: &Model, expired: &mut dyn FnMut() -> bool) -> Option<Network> {
        let n = model.num_vars();
        let mut arcs = Vec::with_capacity(2 * model.pairs().len());
        // Each arc's two ends tagged with their variable, sorted into rows at the end: a
        // list per variable would cost more than the variable itself on a large sparse
        // graph.
        let mut ends: Vec<(u32, Adjacent)> = Vec::with_capacity(2 * model.pairs().len());
        for (i, (&(x, y), relations)) in model.pairs().iter().enumerate() {
            if i % 4096 == 4095 && expired() {
                return None;
            }
            let forward: Vec<Oriented> = relations.iter().map(|(r, rev)| r.oriented(*rev)).collect();
            let backward: Vec<Oriented> = relations.iter().map(|(r, rev)| r.oriented(!rev)).collect();
            let out_arc = arcs.len() as u32;
            let forward = ArcKind::compile(&forward, model, x, y);
            let backward = ArcKind::compile(&backward, model, y, x);
            ends.push((
                x.0,
                Adjacent {
                    other: y,
                    out_arc,
                    in_arc: out_arc + 1,
                    in_arc_prunes_at: backward.prunes_at(),
                },
            ));
            ends.push((
                y.0,
                Adjacent {
                    other: x,
                    out_arc: out_arc + 1,
                    in_arc: out_arc,
                    in_arc_prunes_at: forward.prunes_at(),
                },
            ));
            arcs.push(DirectedArc { x, y, kind: forward });
            arcs.push(DirectedArc {
                x: y,
                y: x,
                kind: backward,
            });
        }
        let adjacency = Rows::from_tagged(n, &ends);
        drop(ends);
        let prop_flags: Vec<PropFlags> = model
            .propagators()
            .iter()
            .map(|p| PropFlags {
                wake: p.wake(),
                priority: p.priority(),
                idempotent: p.is_idempotent(),
            })
            .collect();
        let memberships: Vec<(u32, Watch)> = model
            .propagators()
            .iter()
            .enumerate()
            .flat_map(|(p, prop)| {
                prop.variables().iter().enumerate().map(move |(local, var)| {
                    (
                        var.0,
                        Watch {
                            prop: p as u32,
                            local: local as u32,
                        },
                    )
                })
            })
            .collect();
        let watches = Rows::from_tagged(n, &memberships);
        drop(memberships);
        let flags = &prop_flags;
        let wakes = Wakes {
            on_change: Rows::from_rows((0..2 * n).map(|row| {
                let priority = [Priority::Fast, Priority::Slow][row % 2];
                watches.row(row / 2).iter().map(|w| w.prop).filter(move |&p| {
                    let flags = flags[p as usize];
                    flags.wake.on_change() && flags.priority == priority
                })
            })),
            on_fixed: Rows::from_rows((0..n).map(|v| {
                watches
                    .row(v)
                    .iter()
                    .copied()
                    .filter(|w| flags[w.prop as usize].wake.on_fixed())
            })),
        };
        let degrees = if adjacency.total() + watches.total() == 0 {
            Vec::new()
        } else {
            (0..n)
                .map(|v| (adjacency.row(v).len() + watches.row(v).len()) as u32)
                .collect()
        };
        let props = model.propagators();
        // The initial domains serve the compiled steps of binary arcs, the compiled loop
        // (a model of binary arcs alone) and the copy kept for small models. A large model
        // of n-ary constraints alone (n-queens by all-different) needs none of them: its
        // store is built once, for the search.
        let words: usize = model.vars().map(|v| model.domain(v).num_words()).sum();
        let initial = (words < KEEP_INITIAL_WORDS || props.is_empty() || adjacency.total() > 0)
            .then(|| initial_store(model));
        if expired() {
            return None;
        }
        // The steps lie in the order of `adjacency`, so they share its row starts.
        let mut fc = Vec::new();
        let mut fc_back = Vec::new();
        if let Some(initial) = &initial {
            fc.reserve_exact(adjacency.total());
            fc_back.reserve_exact(adjacency.total());
            for v in 0..n {
                if v % 4096 == 4095 && expired() {
                    return None;
                }
                for adj in adjacency.row(v) {
                    fc.push(FcStep::compile(adj.other, adj.in_arc, &arcs, initial));
                    fc_back.push(FcStep::compile(VarId(v as u32), adj.out_arc, &arcs, initial));
                }
            }
        }
        let fc = Rows::with_layout_of(&adjacency, fc);
        let fc_back = Rows::with_layout_of(&adjacency, fc_back);
        let compiled_fc = (props.is_empty()
            && initial
                .as_ref()
                .is_some_and(|initial| initial.uniform_words().is_some())
            && fc.items().iter().all(|step| step.word != FcStep::GENERAL))
        .then(|| NeighbourSets::build(&adjacency))
        .flatten();
        Some(Network {
            compiled_fc,
            initial: initial.filter(|initial| initial.num_words() < KEEP_INITIAL_WORDS),
            arcs,
            adjacency,
            fc,
            fc_back,
            watches,
            wakes,
            prop_flags,
            degrees,
            max_arity: props.iter().map(|p| p.variables().len()).max().unwrap_or(0),
            final_check: props.iter().any(|p| !p.prunes_exactly()),
        })
    }
}

impl Network {
    /// The number of variables.
    pub(crate) fn num_vars(&self) -> usize {
        self.adjacency.num_rows()
    }

    /// Each variable's number of constraints: its weighted degree before any failure.
    pub(crate) fn degrees(&self) -> Vec<u64> {
        if self.degrees.is_empty() {
            return vec![0; self.num_vars()];
        }
        self.degrees.iter().map(|&d| u64::from(d)).collect()
    }

    /// The network of `model`, compiled on first use and shared by its clones.
    pub(crate) fn of(model: &Model) -> Arc<Network> {
        model.compiled(Network::build)
    }

    /// [`Network::of`], unless `expired` stops the compilation (nothing is kept then).
    pub(crate) fn of_until(model: &Model, expired: &mut dyn FnMut() -> bool) -> Option<Arc<Network>> {
        model.try_compiled(|model| Network::build_until(model, expired))
    }

    /// Whether `var = a` agrees with every assigned neighbour through binary constraints;
    /// `checks` counts the tests made (each neighbour in adjacency order until one fails).
    #[inline]
    pub(crate) fn agrees_with_assigned(
        &self,
        var: VarId,
        a: i32,
        assigned: &[bool],
        values: &[i32],
        checks: &mut u64,
    ) -> bool {
        for adj in self.adjacency.row(var.index()) {
            if assigned[adj.other.index()] {
                *checks += 1;
                if !self.arcs[adj.out_arc as usize]
                    .kind
                    .allows(a, values[adj.other.index()])
                {
                    return false;
                }
            }
        }
        true
    }
}

// Neighbours are read off the compiled network, so the query lives beside it: the model
// itself knows nothing of the network.
impl Model {
    /// The distinct variables that share a constraint (binary or n-ary) with `var`,
    /// in increasing order.
    pub fn neighbours(&self, var: VarId) -> Vec<VarId> {
        let network = Network::of(self);
        let mut out: Vec<VarId> = network
            .adjacency
            .row(var.index())
            .iter()
            .map(|a| a.other)
            .collect();
        for watch in network.watches.row(var.index()) {
            out.extend(
                self.propagators()[watch.prop as usize]
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
}

impl Network {
    /// The store every search of `model` (this network's model) starts from: a clone of
    /// the network's copy, or built from the model when the network keeps none.
    pub(crate) fn fresh_store(&self, model: &Model) -> Store {
        match &self.initial {
            Some(initial) => initial.clone(),
            None => initial_store(model),
        }
    }
}

/// The most domain words a network keeps a copy of: a clone is cheaper than building the
/// store again (each Sudoku search starts from one), but at 20,000 queens a copy is 75 MB.
const KEEP_INITIAL_WORDS: usize = 1 << 16;

/// A store with the model's domains, built from the model.
fn initial_store(model: &Model) -> Store {
    let widths = || model.vars().map(|v| model.domain(v).num_words());
    Store::new(initial_words(model), widths().sum(), Layout::for_widths(widths()))
}

/// Each variable's base and initial words, in order: what [`initial_store`] is built from.
pub(crate) fn initial_words(model: &Model) -> impl Iterator<Item = (i32, Cow<'_, [u64]>)> + '_ {
    model
        .vars()
        .map(|v| (model.domain(v).base(), model.domain(v).words()))
}
