//! Backtracking search: an explicit stack of choice frames over the trailed domain
//! store, so that a search can stop at a solution and resume (lazy enumeration),
//! go ten thousand levels deep without recursion, and never allocate per node once
//! its buffers have grown.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smallvec::SmallVec;

use crate::config::{Branching, Inference, Limits, SearchConfig, TieBreak, ValueOrder, VarOrder};
use crate::error::ConfigError;
use crate::model::{Model, VarId};
use crate::network::{Network, PropFlags};
use crate::propagator::{ChangeList, Event, Priority, PropagationContext, Propagator};
use crate::ring::Ring;
use crate::stats::{Count, LimitKind, Outcome, Stats};
use crate::store::{FcCounts, FcStop, Mark, Store};

mod compiled_fc;
mod nogoods;
mod places;

use nogoods::{Added, Nogoods};
use places::{Permutations, TwoPlaces};

/// Marks a "changed" entry in the propagator queue (instead of a local index).
const CHANGED: u32 = u32::MAX;

/// One choice point: the variable, where to undo to, and which values are left.
#[derive(Clone, Copy, Debug)]
struct Frame {
    var: VarId,
    mark: Mark,
    /// A value of this frame is currently assigned (a node is open).
    open: bool,
    /// Ascending order: the last value tried. On places: the value placed.
    last: Option<i32>,
    /// Ascending order in the uniform layout: the values not tried yet, as bits of the
    /// variable's word (its domain at `mark`, which each backtrack to it restores).
    /// Every search loop keeps both this and `last`, so one can carry on the other's.
    untried: u64,
    /// Pre-ordered values: `value_stack[start..start + len]`, next at `pos`. For a
    /// frame on places, the indices of its variables there instead.
    start: u32,
    len: u32,
    pos: u32,
    /// Made by [`Solver::assign_forced_run`]: the variable's one value is assigned, no
    /// other is left, and undoing it restores nothing in the store.
    forced: bool,
    /// Branching on places: the value `last` goes to each of the frame's variables in
    /// turn (`var` is the one tried last).
    on_places: bool,
}

enum Phase {
    Fresh,
    Searching,
    Done,
}

/// How an unassigned neighbour is tied to a variable, for LCV: the binary arc
/// `other -> var` if any, and each shared n-ary constraint as
/// `(propagator, position of var, position of other)`.
struct Link {
    other: VarId,
    arc: Option<u32>,
    props: SmallVec<[(u32, u32, u32); 2]>,
}

/// For each variable, its distinct neighbours and how they are tied to it.
fn lcv_links(model: &Model, network: &Network) -> Vec<Vec<Link>> {
    model
        .vars()
        .map(|var| {
            let mut links: BTreeMap<VarId, Link> = BTreeMap::new();
            let link = |other| Link {
                other,
                arc: None,
                props: SmallVec::new(),
            };
            for adj in network.adjacency.row(var.index()) {
                links.entry(adj.other).or_insert_with(|| link(adj.other)).arc = Some(adj.in_arc);
            }
            for watch in network.watches.row(var.index()) {
                let vars = model.propagators()[watch.prop as usize].variables();
                for (j, &other) in vars.iter().enumerate() {
                    if other != var {
                        let entry = links.entry(other).or_insert_with(|| link(other));
                        entry.props.push((watch.prop, watch.local, j as u32));
                    }
                }
            }
            links.into_values().collect()
        })
        .collect()
}

/// The constraint that wiped out a domain (for dom/wdeg).
#[derive(Clone, Copy)]
enum Failed {
    Arc(u32),
    Propagator(usize),
}

/// How [`Solver::select_var`] chooses, decided once per search.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Selection {
    Static,
    /// MRV under inference, ties to the lowest index.
    Smallest,
    /// dom/wdeg under inference, ties to the lowest index.
    SmallestWeighted,
    /// Any other rule, through the general scan.
    General,
}

/// What one call of [`Solver::advance`] ended with.
enum Step {
    Solution,
    Exhausted,
    Limit(LimitKind),
}

/// A backtracking search over one [`Model`].
///
/// ```
/// use csp_core::{Model, Outcome, SearchConfig, Solver, Strategy};
/// let mut m = Model::new();
/// let v = m.int_vars(3, 1, 3).unwrap();
/// m.all_different(&v).unwrap();
/// let mut solver = Solver::new(&m, SearchConfig::with_strategy("mrv/asc/fc".parse().unwrap())).unwrap();
/// assert_eq!(solver.solve(), Outcome::Solved(vec![1, 2, 3]));
/// assert_eq!(solver.count().solutions, 5, "the five other permutations");
/// ```
pub struct Solver<'m> {
    model: &'m Model,
    network: Arc<Network>,
    props: &'m [Arc<dyn Propagator>],
    /// Each propagator's wake-up rules, read once (not through a virtual call per change).
    prop_flags: Vec<PropFlags>,
    config: SearchConfig,
    store: Store,
    assigned: Vec<bool>,
    value: Vec<i32>,
    num_unassigned: usize,
    frames: Vec<Frame>,
    value_stack: Vec<i32>,
    lcv_scores: Vec<(u64, i32)>,
    arc_queue: VecDeque<u32>,
    arc_queued: Vec<bool>,
    /// Pending propagator runs by priority (fast, then slow): `(propagator, local)`, where
    /// `local` is a variable position for fixed events and `CHANGED` otherwise.
    queues: [Ring<(u32, u32)>; 2],
    /// Whether a propagator has a changed event queued.
    prop_change_queued: Vec<bool>,
    changes: ChangeList,
    /// For mrv-degree: distinct neighbours and how many of them are unassigned.
    neighbours: Option<(Vec<Vec<VarId>>, Vec<u32>)>,
    /// For LCV: distinct neighbours and the constraints that tie them.
    links: Vec<Vec<Link>>,
    /// dom/wdeg: each variable's weighted degree, the summed weights of its constraints
    /// (kept up to date when a constraint fails, so selection reads one number).
    var_weight: Vec<u64>,
    check_values: Vec<i32>,
    stats: Stats,
    phase: Phase,
    descend: bool,
    root_mark: Mark,
    run: u32,
    run_start_nodes: u64,
    rng: ChaCha8Rng,
    started: Option<Instant>,
    /// Whether complete assignments must be re-checked by the propagators.
    final_check: bool,
    selection: Selection,
    /// The inference is MAC (read once, not per node).
    mac: bool,
    /// Every unassigned variable below this index has two or more values: set after a
    /// forced assignment that changed no domain (the next forced variable lies above it),
    /// 0 after anything else.
    settled: usize,
    /// Forced variables are assigned in runs ([`Solver::assign_forced_run`]): MAC, a
    /// selection that takes the first forced variable, a value order that costs nothing
    /// on one value, no restarts.
    forced_runs: bool,
    /// The unassigned variables as a bitset, kept with `assigned`: the fast selections
    /// and the compiled forward-checking search visit just these.
    open_vars: Vec<u64>,
    /// The nogoods recorded at restarts.
    nogoods: Nogoods,
    /// Fixed variables whose nogoods have not been visited yet (under MAC).
    nogood_queue: Vec<VarId>,
    /// Variables that lost a value to a nogood, to announce.
    nogood_pruned: Vec<VarId>,
    /// Under [`Branching::Places`]: the permutation constraints to branch on.
    permutations: Option<Permutations>,
}

impl<'m> Solver<'m> {
    /// Prepares a search. Allocates every buffer the search needs up front.
    pub fn new(model: &'m Model, config: SearchConfig) -> Result<Solver<'m>, ConfigError> {
        if config.probing && config.strategy.inference != Inference::Mac {
            return Err(ConfigError::ProbingWithoutMac(config.strategy.inference));
        }
        let network = model.network();
        let n = model.num_vars();
        let mut store = network.initial.clone();
        // A clone keeps no spare capacity: room for a search's usual changes at once.
        store.reserve_trail(1024);
        let props = model.propagators();
        let neighbours = (config.strategy.var_order == VarOrder::MrvDegree).then(|| {
            let lists: Vec<Vec<VarId>> = model.vars().map(|v| model.neighbours(v)).collect();
            let degrees = lists.iter().map(|l| l.len() as u32).collect();
            (lists, degrees)
        });
        let links = if config.strategy.value_order == ValueOrder::Lcv {
            lcv_links(model, &network)
        } else {
            Vec::new()
        };
        let max_arity = network.max_arity;
        let prop_flags = network.prop_flags.clone();
        let strategy = config.strategy;
        let lowest = config.tie_break == TieBreak::Lowest && strategy.inference != Inference::None;
        let selection = match strategy.var_order {
            VarOrder::Static => Selection::Static,
            VarOrder::Mrv if lowest => Selection::Smallest,
            VarOrder::DomWdeg | VarOrder::DomWdegFixed if lowest => Selection::SmallestWeighted,
            _ => Selection::General,
        };
        // Places are read off one word per domain; without inference a domain does not
        // tell where a value can still go.
        let permutations = match (config.branching, store.uniform_words()) {
            (Branching::Places, Some((words, _))) if strategy.inference != Inference::None => {
                Permutations::find(props, words)
            }
            _ => None,
        };
        let mut open_vars = vec![0; n.div_ceil(64).max(1)];
        for i in 0..n {
            open_vars[i / 64] |= 1 << (i % 64);
        }
        Ok(Solver {
            model,
            props,
            prop_flags,
            store,
            assigned: vec![false; n],
            value: vec![0; n],
            num_unassigned: n,
            open_vars,
            frames: Vec::with_capacity(n),
            value_stack: Vec::new(),
            lcv_scores: Vec::new(),
            arc_queue: VecDeque::with_capacity(network.arcs.len().min(1 << 20)),
            arc_queued: vec![false; network.arcs.len()],
            queues: [
                Ring::with_capacity(props.len() * 2),
                Ring::with_capacity(props.len()),
            ],
            prop_change_queued: vec![false; props.len()],
            changes: ChangeList::new(n),
            neighbours,
            links,
            var_weight: network.degrees.clone(),
            check_values: Vec::with_capacity(max_arity),
            stats: Stats::default(),
            phase: Phase::Fresh,
            descend: false,
            root_mark: 0,
            run: 0,
            run_start_nodes: 0,
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            started: None,
            final_check: network.final_check,
            selection,
            mac: strategy.inference == Inference::Mac,
            settled: 0,
            forced_runs: strategy.inference == Inference::Mac
                && matches!(selection, Selection::Smallest | Selection::SmallestWeighted)
                && matches!(strategy.value_order, ValueOrder::Asc | ValueOrder::Desc)
                && config.restarts.is_none(),
            nogoods: Nogoods::default(),
            nogood_queue: Vec::new(),
            nogood_pruned: Vec::new(),
            permutations,
            config,
            network,
        })
    }

    /// Finds the next solution (the first one on the first call).
    pub fn solve(&mut self) -> Outcome {
        match self.advance() {
            Step::Solution => Outcome::Solved(self.value.clone()),
            Step::Exhausted => Outcome::Unsatisfiable,
            Step::Limit(kind) => Outcome::Limit(kind),
        }
    }

    /// Counts the remaining solutions, up to `limits.solutions` if set. With restarts,
    /// the nogoods recorded at each restart keep every solution from being counted twice.
    pub fn count(&mut self) -> Count {
        let mut found = 0u64;
        loop {
            if let Some(cap) = self.config.limits.solutions {
                if found >= cap {
                    return Count {
                        solutions: found,
                        complete: false,
                        limit: Some(LimitKind::Solutions),
                    };
                }
            }
            match self.advance() {
                Step::Solution => found += 1,
                Step::Exhausted => {
                    return Count {
                        solutions: found,
                        complete: true,
                        limit: None,
                    };
                }
                Step::Limit(kind) => {
                    return Count {
                        solutions: found,
                        complete: false,
                        limit: Some(kind),
                    };
                }
            }
        }
    }

    /// Calls `on_solution` with each solution in turn until it returns `false`, the
    /// space is exhausted or a limit is reached. Returns why it stopped (`None`: exhausted
    /// or stopped by the callback).
    pub fn for_each_solution(&mut self, mut on_solution: impl FnMut(&[i32]) -> bool) -> Option<LimitKind> {
        loop {
            match self.advance() {
                Step::Solution => {
                    if !on_solution(&self.value) {
                        return None;
                    }
                }
                Step::Exhausted => return None,
                Step::Limit(kind) => return Some(kind),
            }
        }
    }

    /// Lazily enumerates the solutions (each once, with or without restarts). The
    /// iterator ends when the space is exhausted or a limit is reached;
    /// [`Solutions::limit`] tells which.
    pub fn solutions(&mut self) -> Solutions<'_, 'm> {
        Solutions {
            solver: self,
            stopped: None,
        }
    }

    /// The statistics so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The configuration in use.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// The current domain of `var` (after the last step), as a list of values.
    pub fn current_domain(&self, var: VarId) -> Vec<i32> {
        self.store.values(var).collect()
    }

    /// Assigns the givens and runs the configured inference once, without searching.
    /// Returns `false` if that already proves the model unsatisfiable.
    pub(crate) fn propagate_only(&mut self) -> bool {
        self.started = Some(Instant::now());
        self.phase = Phase::Searching;
        let ok = self.propagate_root();
        self.elapsed_update();
        ok
    }

    fn elapsed_update(&mut self) {
        if let Some(start) = self.started {
            self.stats.elapsed = start.elapsed();
        }
    }

    /// Runs the search to the next solution, exhaustion or limit.
    fn advance(&mut self) -> Step {
        let step = self.advance_inner();
        self.elapsed_update();
        step
    }

    fn advance_inner(&mut self) -> Step {
        match self.phase {
            Phase::Done => return Step::Exhausted,
            Phase::Fresh => {
                self.started = Some(Instant::now());
                self.phase = Phase::Searching;
                if !self.propagate_root() {
                    self.phase = Phase::Done;
                    return Step::Exhausted;
                }
                self.root_mark = self.store.mark();
                self.descend = true;
            }
            Phase::Searching => {}
        }
        if self.compiled_fc_applies() {
            return self.advance_compiled_fc();
        }
        // One handle for the whole call, not one per node (an atomic count each time).
        let network = Arc::clone(&self.network);
        loop {
            if self.descend {
                self.descend = false;
                if self.forced_runs {
                    self.assign_forced_run();
                }
                if self.num_unassigned == 0 {
                    if self.complete_assignment_holds() {
                        self.stats.solutions += 1;
                        return Step::Solution;
                    }
                } else {
                    let var = self.select_var();
                    match self.two_places_instead(var) {
                        Some(places) => self.push_places_frame(places),
                        None => self.push_frame(var),
                    }
                }
            }
            let Some(&top) = self.frames.last() else {
                self.phase = Phase::Done;
                return Step::Exhausted;
            };
            if top.open && top.forced {
                // What the general steps below would do, without their dispatch: the
                // store is at this frame's mark already, and no value is left to try.
                debug_assert_eq!(self.store.mark(), top.mark, "a forced frame changed no domain");
                self.settled = 0;
                self.mark_unassigned(top.var);
                self.stats.backtracks += 1;
                if let Some(kind) = self.limit_reached() {
                    self.frames.last_mut().expect("a frame").open = false;
                    return Step::Limit(kind);
                }
                self.frames.pop();
                self.value_stack.truncate(top.start as usize);
                continue;
            }
            if top.open {
                self.undo_node();
                self.stats.backtracks += 1;
            }
            if let Some(kind) = self.limit_reached() {
                return Step::Limit(kind);
            }
            if self.restart_due() {
                if !self.restart() {
                    self.phase = Phase::Done;
                    return Step::Exhausted;
                }
                continue;
            }
            match self.next_value() {
                None => {
                    let frame = self.frames.pop().expect("a frame");
                    self.value_stack.truncate(frame.start as usize);
                }
                Some(value) => {
                    // A frame on places has just moved on to its next variable.
                    let var = self.frames.last().expect("a frame").var;
                    if self.assign(&network, var, value) {
                        self.descend = true;
                    }
                }
            }
        }
    }

    fn limit_reached(&mut self) -> Option<LimitKind> {
        limit_hit(&self.config.limits, self.stats.nodes, self.started)
    }

    fn restart_due(&self) -> bool {
        match self.config.restarts {
            Some(policy) => {
                self.stats.nodes - self.run_start_nodes >= policy.cutoff(self.run) && self.nogoods.has_room()
            }
            None => false,
        }
    }

    /// Abandons the current run: back to the root state, with the next cutoff. Each
    /// subtree the run finished becomes a nogood (see [`nogoods`]), propagated at the
    /// root. Returns `false` if that leaves no solution.
    fn restart(&mut self) -> bool {
        // The decision of each frame, bottom up, and each branch a frame finished.
        let mut path = vec![(VarId(0), 0); self.frames.len()];
        let mut finished = Vec::new();
        while let Some(frame) = self.frames.last().copied() {
            let depth = self.frames.len() - 1;
            let decision = frame.open.then(|| self.value[frame.var.index()]);
            if frame.open {
                self.undo_node();
            }
            // The store is back at the frame's mark: the domain its values came from.
            path[depth] = (frame.var, decision.unwrap_or_default());
            for (var, value) in self.finished_branches(&frame, decision) {
                finished.push((depth, var, value));
            }
            self.frames.pop();
        }
        self.value_stack.clear();
        self.store.undo_to(self.root_mark);
        self.settled = 0;
        self.run += 1;
        self.run_start_nodes = self.stats.nodes;
        self.stats.restarts += 1;
        self.descend = true;
        log::debug!(
            "restart {} after {} nodes, {} new nogoods",
            self.run,
            self.stats.nodes,
            finished.len()
        );
        let holds = self.add_nogoods(&path, &finished);
        self.root_mark = self.store.mark();
        holds
    }

    /// The branches `frame` finished, as assignments: tried (or skipped as inconsistent)
    /// and not the `decision` still open. Reads the store at the frame's mark.
    fn finished_branches(&self, frame: &Frame, decision: Option<i32>) -> Vec<(VarId, i32)> {
        let start = frame.start as usize;
        if frame.on_places {
            let value = frame.last.expect("a frame on places holds its value");
            // The places tried; the last one is still open if the frame is.
            let done = frame.pos as usize - usize::from(frame.open);
            return self.value_stack[start..start + done]
                .iter()
                .map(|&var| (VarId(var as u32), value))
                .collect();
        }
        let mut values: Vec<i32> = if self.config.strategy.value_order != ValueOrder::Asc {
            self.value_stack[start..start + frame.pos as usize].to_vec()
        } else if let Some(base) = self.store.uniform_base() {
            let tried = self.store.bits(frame.var)[0] & !frame.untried;
            (0..64)
                .filter(|bit| tried >> bit & 1 == 1)
                .map(|bit| base + bit)
                .collect()
        } else {
            self.store
                .values(frame.var)
                .take_while(|&a| frame.last.is_some_and(|last| a <= last))
                .collect()
        };
        values.retain(|&a| Some(a) != decision);
        values.into_iter().map(|a| (frame.var, a)).collect()
    }

    /// Records the nogoods `path[..depth] + (var, value)` for each `(depth, var, value)`
    /// in `finished`, at the root, and propagates them there.
    fn add_nogoods(&mut self, path: &[(VarId, i32)], finished: &[(usize, VarId, i32)]) -> bool {
        let network = Arc::clone(&self.network);
        let mut lits = Vec::with_capacity(path.len());
        let mut holds = true;
        for &(depth, var, value) in finished {
            lits.clear();
            lits.extend_from_slice(&path[..depth]);
            lits.push((var, value));
            self.stats.nogoods += 1;
            match self.nogoods.add(&lits, &mut self.store, self.model.num_vars()) {
                Added::Kept => {}
                Added::Pruned(var) => {
                    self.stats.pruned += 1;
                    if self.mac {
                        self.announce_change(&network, var, None);
                    }
                }
                Added::Violated => {
                    holds = false;
                    break;
                }
            }
        }
        if !holds || (self.mac && !self.fixpoint(&network)) {
            self.nogood_queue.clear();
            return false;
        }
        true
    }

    // ----- the root -----

    /// Assigns the givens, checks them against each other and runs the initial inference.
    fn propagate_root(&mut self) -> bool {
        let model = self.model;
        for var in model.vars() {
            if let Some(v) = model.fixed(var) {
                self.store.fix(var, v);
                self.mark_assigned(var, v);
            }
        }
        for &(var, value) in model.excluded() {
            self.store.remove(var, value);
            if self.store.size(var) == 0 {
                return false;
            }
        }
        for &(var, base, bits) in model.excluded_bits() {
            self.exclude_bits(var, base, bits);
            if self.store.size(var) == 0 {
                return false;
            }
        }
        if !self.givens_consistent() {
            return false;
        }
        let network = Arc::clone(&self.network);
        match self.config.strategy.inference {
            Inference::None => true,
            Inference::Fc => {
                for var in model.vars().filter(|&v| model.fixed(v).is_some()) {
                    if !self.forward_check(&network, var) {
                        return false;
                    }
                }
                true
            }
            // The caller vouches that nothing would be pruned.
            Inference::Mac if model.is_at_fixpoint() => true,
            Inference::Mac => {
                for (i, arc) in network.arcs.iter().enumerate() {
                    if !self.assigned[arc.x.index()] {
                        self.enqueue_arc(i as u32);
                    }
                }
                // Without arcs or propagators woken by fixed variables, announcing would only
                // queue every propagator for a change, as the loop below does. (The order of
                // the queue does not matter here: the fixpoint is the same, and a failure at
                // the root ends the search.)
                let changes_only =
                    network.arcs.is_empty() && self.prop_flags.iter().all(|f| !f.wake.on_fixed());
                if !changes_only {
                    for var in model.vars() {
                        if self.store.size(var) == 1 {
                            self.announce_change(&network, var, None);
                        }
                    }
                }
                for p in 0..self.props.len() {
                    self.enqueue_prop_change(p);
                }
                self.fixpoint(&network) && (!self.config.probing || self.probe(&network))
            }
        }
    }

    /// Removes the values `base + i` for each bit `i` of `bits` from `var` at the root: one
    /// masked write when the domain is one word that the bits can be shifted onto.
    fn exclude_bits(&mut self, var: VarId, base: i32, bits: u64) {
        let offset = i64::from(base) - i64::from(self.store.base(var));
        if self.store.bits(var).len() == 1 && (-63..=63).contains(&offset) {
            let clear = if offset >= 0 {
                bits << offset
            } else {
                bits >> -offset
            };
            if self.store.uniform_base().is_some() {
                // At the root, before the root mark: never undone.
                self.store.retain_word_for_good(var, !clear);
            } else {
                self.store.retain_bits(var, &[!clear]);
            }
            return;
        }
        let mut rest = bits;
        while rest != 0 {
            let value = i64::from(base) + i64::from(rest.trailing_zeros());
            if let Ok(value) = i32::try_from(value) {
                self.store.remove(var, value);
            }
            rest &= rest - 1;
        }
    }

    fn givens_consistent(&mut self) -> bool {
        let network = Arc::clone(&self.network);
        for var in self.model.vars() {
            if !self.assigned[var.index()] {
                continue;
            }
            if self.store.size(var) != 1 {
                return false;
            }
            let a = self.value[var.index()];
            if !self.agrees_with_assigned_neighbours(var, a) {
                return false;
            }
            // Under fc and mac the propagators see the givens and detect clashes themselves.
            if self.config.strategy.inference != Inference::None {
                continue;
            }
            for watch in network.watches.row(var.index()) {
                if !self.prop_consistent(watch.prop as usize, watch.local as usize, a, None) {
                    return false;
                }
            }
        }
        true
    }

    // ----- variable and value order -----

    fn select_var(&mut self) -> VarId {
        let n = self.model.num_vars();
        match self.selection {
            Selection::Static => {
                let from = self.frames.last().map_or(0, |f| f.var.index() + 1);
                let index = (from..n)
                    .chain(0..from)
                    .find(|&i| !self.assigned[i])
                    .expect("an unassigned variable");
                return VarId(index as u32);
            }
            Selection::Smallest => return self.smallest_domain(),
            Selection::SmallestWeighted => return self.smallest_weighted_domain(),
            Selection::General => {}
        }
        let use_degree = self.config.strategy.var_order == VarOrder::MrvDegree;
        let use_weights = self.config.strategy.var_order.weighs_failures();
        let random_ties = self.config.tie_break == TieBreak::Random;
        let floor = u64::from(self.config.strategy.inference != Inference::None);
        // The key is the fraction `legal / weight` (weight 1 except under dom/wdeg), then
        // the degree; smaller fractions and larger degrees are better.
        let mut best: Option<(VarId, u64, u64, u32)> = None;
        let mut ties = 0u32;
        for i in 0..n {
            if self.assigned[i] {
                continue;
            }
            let var = VarId(i as u32);
            let legal = self.legal_count(var);
            let degree = match &self.neighbours {
                Some((_, degrees)) if use_degree => degrees[i],
                _ => 0,
            };
            // Forced variables (one legal value) go first whatever their weight.
            let weight = if use_weights && legal > 1 {
                self.var_weight[i]
            } else {
                1
            };
            let order = match best {
                None => std::cmp::Ordering::Less,
                Some((_, bl, bw, bd)) => {
                    let forced = (legal <= 1, bl <= 1);
                    match forced {
                        (true, false) => std::cmp::Ordering::Less,
                        (false, true) => std::cmp::Ordering::Greater,
                        _ => (u128::from(legal) * u128::from(bw))
                            .cmp(&(u128::from(bl) * u128::from(weight)))
                            .then(bd.cmp(&degree)),
                    }
                }
            };
            if order == std::cmp::Ordering::Less {
                best = Some((var, legal, weight, degree));
                ties = 1;
                // Nothing beats the lowest variable with the fewest possible values: none
                // without values, or one value where inference rules out empty domains.
                if !random_ties && !use_degree && legal <= floor {
                    break;
                }
            } else if order == std::cmp::Ordering::Equal && random_ties {
                ties += 1;
                if self.rng.gen_range(0..ties) == 0 {
                    best = Some((var, legal, weight, degree));
                }
            }
        }
        best.expect("an unassigned variable").0
    }

    /// Plain MRV under inference (legal values = domain size), ties to the lowest index:
    /// the general rule of [`Solver::select_var`] over the unassigned variables only.
    /// A forced variable (one value) has the fewest values, so the first one wins.
    fn smallest_domain(&self) -> VarId {
        let sizes = self.store.sizes();
        let index = self
            .first_forced(sizes)
            .unwrap_or_else(|| compiled_fc::first_smallest(&self.open_vars, sizes));
        VarId(index as u32)
    }

    /// dom/wdeg under inference, ties to the lowest index: the general rule of
    /// [`Solver::select_var`] over the unassigned variables only. A forced variable (one
    /// value) wins at once; otherwise the smallest `size / weighted degree`, compared by
    /// cross-multiplying.
    fn smallest_weighted_domain(&self) -> VarId {
        let sizes = self.store.sizes();
        // After a run of forced assignments a forced variable is rare here: the one pass
        // of `smallest_ratio` takes the first it meets.
        let forced = if self.forced_runs {
            None
        } else {
            self.first_forced(sizes)
        };
        let index = forced.unwrap_or_else(|| smallest_ratio(&self.open_vars, sizes, &self.var_weight));
        VarId(index as u32)
    }

    /// The first unassigned variable with at most one value, looking from
    /// [`Solver::settled`] (where one can first be) on, then below it.
    #[inline]
    fn first_forced(&self, sizes: &[u32]) -> Option<usize> {
        let from = self.settled;
        first_forced_from(&self.open_vars, sizes, from).or_else(|| {
            (from > 0)
                .then(|| first_forced_from(&self.open_vars, sizes, 0))
                .flatten()
        })
    }

    /// A constraint failed. dom/wdeg: its weight, and so the weighted degree of each of its
    /// variables, grows by one. `dom-wdeg-fixed`: only its variables in conflict and the
    /// variable of the last decision gain one (see [`VarOrder::DomWdegFixed`]).
    fn bump_weight(&mut self, constraint: Failed) {
        let arc_vars;
        let vars = match constraint {
            Failed::Arc(arc) => {
                let arc = &self.network.arcs[arc as usize];
                arc_vars = [arc.x, arc.y];
                &arc_vars[..]
            }
            Failed::Propagator(p) => self.props[p].variables(),
        };
        let fixed_only = self.config.strategy.var_order == VarOrder::DomWdegFixed;
        for v in vars {
            // Read before the failure is undone: the domains it left.
            if !fixed_only || (!self.assigned[v.index()] && self.store.size(*v) <= 1) {
                self.var_weight[v.index()] += 1;
            }
        }
        // The decision that led to the failure (none at the root).
        if let (true, Some(frame)) = (fixed_only, self.frames.last()) {
            self.var_weight[frame.var.index()] += 1;
        }
    }

    /// The number of legal values of an unassigned variable.
    fn legal_count(&mut self, var: VarId) -> u64 {
        if self.config.strategy.inference != Inference::None {
            return u64::from(self.store.size(var));
        }
        if let Some((legal, checks)) = self.legal_word(var) {
            self.stats.checks += checks;
            if self.network.watches.row(var.index()).is_empty() {
                return u64::from(legal.count_ones());
            }
            // The n-ary constraints test the values the binary ones left, as before.
            let base = self.store.base(var);
            let mut count = 0;
            let mut rest = legal;
            while rest != 0 {
                let a = base + rest.trailing_zeros() as i32;
                rest &= rest - 1;
                if self.agrees_with_watches(var, a) {
                    count += 1;
                }
            }
            return count;
        }
        let mut count = 0;
        let mut cursor = None;
        while let Some(a) = self.store.next_value(var, cursor) {
            cursor = Some(a);
            if self.consistent_with_assigned(var, a) {
                count += 1;
            }
        }
        count
    }

    /// The values of the one-word domain of `var` that agree with every assigned neighbour
    /// through binary constraints, and the checks the value-by-value test makes to find
    /// them: each value is tested against the assigned neighbours in adjacency order until
    /// one rules it out, so the `k`-th neighbour tests the values the earlier ones left.
    /// `None` when some constraint on `var` is not compiled to a bit pattern.
    fn legal_word(&self, var: VarId) -> Option<(u64, u64)> {
        let &[mut legal] = self.store.bits(var) else {
            return None;
        };
        let network = &*self.network;
        let mut checks = 0u64;
        for (adj, step) in network
            .adjacency
            .row(var.index())
            .iter()
            .zip(network.fc_back.row(var.index()))
        {
            if self.assigned[adj.other.index()] {
                checks += u64::from(legal.count_ones());
                legal &= !step.cleared_by(self.value[adj.other.index()])?;
            }
        }
        Some((legal, checks))
    }

    /// Under [`Branching::Places`], when `var` (the variable order's choice) has three
    /// values or more: a value with two places to branch on instead, if there is one.
    fn two_places_instead(&self, var: VarId) -> Option<TwoPlaces> {
        let permutations = self.permutations.as_ref()?;
        if self.store.size(var) <= 2 {
            return None;
        }
        let (words, base) = self.store.uniform_words()?;
        permutations.two_places(words, base, &self.var_weight)
    }

    /// A frame that puts `places.value` in `places.first`, then in `places.second`.
    fn push_places_frame(&mut self, places: TwoPlaces) {
        self.stats.place_decisions += 1;
        let start = self.value_stack.len() as u32;
        self.value_stack.push(places.first.index() as i32);
        self.value_stack.push(places.second.index() as i32);
        self.frames.push(Frame {
            var: places.first,
            mark: self.store.mark(),
            open: false,
            last: Some(places.value),
            untried: 0,
            start,
            len: 2,
            pos: 0,
            forced: false,
            on_places: true,
        });
    }

    fn push_frame(&mut self, var: VarId) {
        let start = self.value_stack.len() as u32;
        match self.config.strategy.value_order {
            ValueOrder::Asc => {}
            ValueOrder::Desc => {
                let from = self.value_stack.len();
                self.value_stack.extend(self.store.values(var));
                self.value_stack[from..].reverse();
            }
            ValueOrder::Random => {
                let from = self.value_stack.len();
                self.value_stack.extend(self.store.values(var));
                self.value_stack[from..].shuffle(&mut self.rng);
            }
            ValueOrder::Lcv => self.order_lcv(var),
        }
        let len = self.value_stack.len() as u32 - start;
        let untried = self
            .store
            .uniform_words()
            .map_or(0, |(words, _)| words[var.index()]);
        self.frames.push(Frame {
            var,
            mark: self.store.mark(),
            open: false,
            last: None,
            untried,
            start,
            len,
            pos: 0,
            forced: false,
            on_places: false,
        });
    }

    fn next_value(&mut self) -> Option<i32> {
        let frame = *self.frames.last().expect("a frame");
        if frame.on_places {
            if frame.pos == frame.len {
                return None;
            }
            let var = VarId(self.value_stack[(frame.start + frame.pos) as usize] as u32);
            let top = self.frames.last_mut().expect("a frame");
            top.pos += 1;
            top.var = var;
            return frame.last;
        }
        let check = self.config.strategy.inference == Inference::None;
        let ordered = self.config.strategy.value_order != ValueOrder::Asc;
        let uniform = self.store.uniform_base();
        let mut last = frame.last;
        let mut untried = frame.untried;
        let mut pos = frame.pos;
        let found = loop {
            let candidate = if ordered {
                if pos == frame.len {
                    break None;
                }
                pos += 1;
                self.value_stack[(frame.start + pos - 1) as usize]
            } else if let Some(base) = uniform {
                // The lowest untried value, without a look at the store. `last` is kept
                // too, as every loop keeps both.
                if untried == 0 {
                    break None;
                }
                let bit = untried.trailing_zeros();
                untried &= untried - 1;
                let a = base + bit as i32;
                last = Some(a);
                a
            } else {
                match self.store.next_value(frame.var, last) {
                    Some(a) => {
                        last = Some(a);
                        a
                    }
                    None => break None,
                }
            };
            if !check || self.consistent_with_assigned(frame.var, candidate) {
                break Some(candidate);
            }
        };
        let top = self.frames.last_mut().expect("a frame");
        top.last = last;
        top.untried = untried;
        top.pos = pos;
        found
    }

    /// Orders the values of `var` by how many legal values of unassigned neighbours they
    /// would remove (fewest first, ties to the lower value), onto the value stack. A
    /// neighbour's value excluded by several constraints counts once.
    fn order_lcv(&mut self, var: VarId) {
        let network = Arc::clone(&self.network);
        let links = std::mem::take(&mut self.links);
        let mut scores = std::mem::take(&mut self.lcv_scores);
        scores.clear();
        let mut cursor = None;
        while let Some(a) = self.store.next_value(var, cursor) {
            cursor = Some(a);
            let mut removed = 0u64;
            for link in &links[var.index()] {
                if self.assigned[link.other.index()] {
                    continue;
                }
                let mut c = None;
                while let Some(b) = self.store.next_value(link.other, c) {
                    c = Some(b);
                    let by_arc = link.arc.is_some_and(|arc| {
                        self.stats.checks += 1;
                        !network.arcs[arc as usize].kind.allows(b, a)
                    });
                    let excluded = by_arc
                        || link.props.iter().any(|&(p, local_var, local_other)| {
                            !self.prop_consistent(
                                p as usize,
                                local_other as usize,
                                b,
                                Some((local_var as usize, a)),
                            )
                        });
                    if excluded && self.is_legal(link.other, b) {
                        removed += 1;
                    }
                }
            }
            scores.push((removed, a));
        }
        scores.sort_unstable();
        self.value_stack.extend(scores.iter().map(|&(_, a)| a));
        self.lcv_scores = scores;
        self.links = links;
    }

    /// Whether `b` is a legal value of the unassigned `var`: in its domain, and under
    /// inference `none` also consistent with every assigned neighbour.
    fn is_legal(&mut self, var: VarId, b: i32) -> bool {
        self.config.strategy.inference != Inference::None || self.consistent_with_assigned(var, b)
    }

    /// Whether `var = a` agrees with every assigned neighbour through binary constraints.
    /// Borrows the network field by field, so the check clones nothing (it runs for every
    /// candidate value under inference `none`).
    fn agrees_with_assigned_neighbours(&mut self, var: VarId, a: i32) -> bool {
        let network = &*self.network;
        for adj in network.adjacency.row(var.index()) {
            if self.assigned[adj.other.index()] {
                self.stats.checks += 1;
                if !network.arcs[adj.out_arc as usize]
                    .kind
                    .allows(a, self.value[adj.other.index()])
                {
                    return false;
                }
            }
        }
        true
    }

    /// Whether `var = a` agrees with every assigned neighbour, in binary and n-ary constraints.
    fn consistent_with_assigned(&mut self, var: VarId, a: i32) -> bool {
        self.agrees_with_assigned_neighbours(var, a) && self.agrees_with_watches(var, a)
    }

    /// Whether `var = a` agrees with the assigned variables of every n-ary constraint on `var`.
    fn agrees_with_watches(&mut self, var: VarId, a: i32) -> bool {
        if self.network.watches.row(var.index()).is_empty() {
            return true;
        }
        let network = Arc::clone(&self.network);
        for watch in network.watches.row(var.index()) {
            if !self.prop_consistent(watch.prop as usize, watch.local as usize, a, None) {
                return false;
            }
        }
        true
    }

    /// `is_consistent` of propagator `p` for `local = value`, seeing the assigned
    /// variables plus an optional tentative `(local, value)`.
    fn prop_consistent(&mut self, p: usize, local: usize, value: i32, extra: Option<(usize, i32)>) -> bool {
        self.stats.checks += 1;
        let prop = &self.props[p];
        let vars = prop.variables();
        let (assigned, values) = (&self.assigned, &self.value);
        prop.is_consistent(local, value, &|j| match extra {
            Some((l, x)) if l == j => Some(x),
            _ if j != local && assigned[vars[j].index()] => Some(values[vars[j].index()]),
            _ => None,
        })
    }

    // ----- assignments and inference -----

    // Once per node: inlined into the search loop.
    #[inline(always)]
    fn mark_assigned(&mut self, var: VarId, value: i32) {
        self.assigned[var.index()] = true;
        self.open_vars[var.index() / 64] &= !(1 << (var.index() % 64));
        self.value[var.index()] = value;
        self.num_unassigned -= 1;
        if let Some((lists, degrees)) = &mut self.neighbours {
            for u in &lists[var.index()] {
                degrees[u.index()] -= 1;
            }
        }
    }

    #[inline]
    fn mark_unassigned(&mut self, var: VarId) {
        self.assigned[var.index()] = false;
        self.open_vars[var.index() / 64] |= 1 << (var.index() % 64);
        self.num_unassigned += 1;
        if let Some((lists, degrees)) = &mut self.neighbours {
            for u in &lists[var.index()] {
                degrees[u.index()] += 1;
            }
        }
    }

    /// Makes a node `var = value` and runs the inference. Returns `false` if it failed.
    fn assign(&mut self, network: &Network, var: VarId, value: i32) -> bool {
        self.stats.nodes += 1;
        self.stats.max_depth = self.stats.max_depth.max(self.frames.len() as u64);
        let top = self.frames.last_mut().expect("a frame");
        top.open = true;
        let removed = self.store.fix(var, value);
        self.mark_assigned(var, value);
        // Under MAC, a forced assignment that removed nothing changes no domain, and `var`
        // was the lowest forced variable (the fast selections take the first).
        let unchanged = removed == 0 && self.mac;
        self.settled = if unchanged { var.index() + 1 } else { 0 };
        // Under MAC the announcement of `var` visits its nogoods; forward checking and
        // plain backtracking visit them here, without a cascade.
        if !self.mac && self.nogoods.watching(var) && !self.visit_nogoods(var) {
            return false;
        }
        match self.config.strategy.inference {
            Inference::None => true,
            Inference::Fc => self.forward_check(network, var),
            // A variable that already had this single value was propagated when it got it.
            Inference::Mac if removed == 0 => true,
            Inference::Mac => {
                self.announce_change(network, var, None);
                self.fixpoint(network) && (!self.config.probing || self.probe(network))
            }
        }
    }

    /// Assigns forced variables (one value left) one node each, as the general loop
    /// would: the same variables (the first forced one, as the selection takes it), the
    /// same counts and the same limit checks, without its dispatch per node. Under MAC the
    /// store is at a fixpoint here, so such an assignment changes no domain and needs no
    /// propagation. Stops where the general loop would do anything else: no forced
    /// variable left, or a limit reached (the general loop then reports it).
    fn assign_forced_run(&mut self) {
        while self.num_unassigned > 0 {
            let Some(index) = self.first_forced(self.store.sizes()) else {
                return;
            };
            let var = VarId(index as u32);
            let Some(value) = self.store.min(var) else {
                return;
            };
            if self.limit_reached().is_some() {
                return;
            }
            self.frames.push(Frame {
                var,
                mark: self.store.mark(),
                open: true,
                last: Some(value),
                untried: 0,
                start: self.value_stack.len() as u32,
                len: 0,
                pos: 0,
                forced: true,
                on_places: false,
            });
            self.stats.nodes += 1;
            self.stats.max_depth = self.stats.max_depth.max(self.frames.len() as u64);
            self.mark_assigned(var, value);
            self.settled = index + 1;
        }
    }

    /// Failed-value probing: tries each value of every unassigned two-valued variable
    /// with full propagation, and removes the values that fail, until nothing changes.
    /// Returns `false` if that empties a domain.
    fn probe(&mut self, network: &Network) -> bool {
        loop {
            let mut changed = false;
            for i in 0..self.model.num_vars() {
                let var = VarId(i as u32);
                if self.assigned[i] || self.store.size(var) != 2 {
                    continue;
                }
                let (Some(low), Some(high)) = (self.store.min(var), self.store.max(var)) else {
                    continue;
                };
                for value in [low, high] {
                    self.stats.probes += 1;
                    let mark = self.store.mark();
                    self.store.fix(var, value);
                    self.announce_change(network, var, None);
                    let holds = self.fixpoint(network);
                    self.store.undo_to(mark);
                    if !holds {
                        self.store.remove(var, value);
                        self.stats.pruned += 1;
                        self.announce_change(network, var, None);
                        if !self.fixpoint(network) {
                            return false;
                        }
                        changed = true;
                        break;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    // Once per node: inlined into the search loop.
    #[inline(always)]
    fn undo_node(&mut self) {
        self.settled = 0;
        let top = self.frames.last_mut().expect("a frame");
        top.open = false;
        let (var, mark) = (top.var, top.mark);
        self.store.undo_to(mark);
        self.mark_unassigned(var);
    }

    /// Forward checking from the assigned `var`: revise each unassigned neighbour
    /// against it once, and wake each n-ary constraint on `var` once (no cascade).
    fn forward_check(&mut self, network: &Network, var: VarId) -> bool {
        let value = self.value[var.index()];
        let steps = network.fc.row(var.index());
        let mut counts = FcCounts::default();
        let mut from = 0;
        let wiped_out = loop {
            match self
                .store
                .forward_clear(&steps[from..], &self.assigned, value, &mut counts)
            {
                FcStop::Done => break None,
                FcStop::WipeOut(i) => break Some(steps[from + i].in_arc),
                FcStop::General(i) => {
                    let step = &steps[from + i];
                    counts.revisions += 1;
                    let removed =
                        prune_general(network, step.in_arc, value, &mut self.store, &mut counts.checks);
                    counts.pruned += u64::from(removed);
                    if self.store.size(step.other) == 0 {
                        break Some(step.in_arc);
                    }
                    from += i + 1;
                }
            }
        };
        self.stats.revisions += counts.revisions;
        self.stats.checks += counts.checks;
        self.stats.pruned += counts.pruned;
        if let Some(arc) = wiped_out {
            self.bump_weight(Failed::Arc(arc));
            return false;
        }
        for watch in network.watches.row(var.index()) {
            let p = watch.prop as usize;
            let wake = self.prop_flags[p].wake;
            let ok = (!wake.on_fixed() || self.run_propagator(p, Event::Fixed(watch.local as usize)))
                && (!wake.on_change() || self.run_propagator(p, Event::Changed));
            self.changes.clear();
            if !ok {
                self.bump_weight(Failed::Propagator(p));
                return false;
            }
        }
        true
    }

    fn run_propagator(&mut self, p: usize, event: Event) -> bool {
        self.stats.propagations += 1;
        let mut ctx = PropagationContext {
            store: &mut self.store,
            changed: &mut self.changes,
            track: self.config.strategy.inference == Inference::Mac,
            pruned: &mut self.stats.pruned,
            assigned: &self.assigned,
        };
        self.props[p].propagate(&mut ctx, event).is_ok()
    }

    fn enqueue_arc(&mut self, arc: u32) {
        if !self.arc_queued[arc as usize] {
            self.arc_queued[arc as usize] = true;
            self.arc_queue.push_back(arc);
        }
    }

    fn enqueue_prop_change(&mut self, p: usize) {
        let priority = self.prop_flags[p].priority;
        self.enqueue_prop_change_at(p, priority);
    }

    /// [`Solver::enqueue_prop_change`] with the priority at hand (a watch carries it).
    #[inline]
    fn enqueue_prop_change_at(&mut self, p: usize, priority: Priority) {
        if !self.prop_change_queued[p] {
            self.prop_change_queued[p] = true;
            self.queues[priority as usize].push_back((p as u32, CHANGED));
        }
    }

    /// Schedules what depends on `var`'s domain: arcs `(z -> var)` for unassigned
    /// neighbours `z` other than `except`, and the propagators watching `var`.
    fn announce_change(&mut self, network: &Network, var: VarId, except: Option<VarId>) {
        self.announce_change_from(network, var, except, u32::MAX);
    }

    /// As [`Solver::announce_change`], for a change made by a propagator: `skip` is that
    /// propagator when it is idempotent (it is not woken by its own change), else
    /// `u32::MAX`, which no propagator has.
    #[inline(always)]
    fn announce_change_from(&mut self, network: &Network, var: VarId, except: Option<VarId>, skip: u32) {
        let size = self.store.size(var);
        // Models of n-ary constraints only (every all-different Sudoku) skip the row lookup.
        if !network.arcs.is_empty() {
            for adj in network.adjacency.row(var.index()) {
                if size <= adj.in_arc_prunes_at
                    && !self.assigned[adj.other.index()]
                    && Some(adj.other) != except
                {
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
        // Borrowed apart: the flags as a plain slice beside each queue.
        let Solver {
            queues,
            prop_change_queued,
            ..
        } = self;
        let prop_change_queued = &mut prop_change_queued[..];
        for (queue, props) in queues.iter_mut().zip(network.wakes.on_change(var.index())) {
            // Whether the propagator is queued already follows no pattern: it is pushed
            // without a branch on that (see `Ring::push_if`).
            queue.extend_if(
                props.len(),
                props.iter().map(|&p| {
                    let wants = p != skip;
                    let queued = &mut prop_change_queued[p as usize];
                    let push = wants & !*queued;
                    *queued |= wants;
                    ((p, CHANGED), push)
                }),
            );
        }
    }

    /// AC-3 over the queued arcs, interleaved with the queued propagators, to a fixpoint.
    fn fixpoint(&mut self, network: &Network) -> bool {
        let ok = self.fixpoint_inner(network);
        if !ok {
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
        ok
    }

    fn fixpoint_inner(&mut self, network: &Network) -> bool {
        loop {
            if let Some(var) = self.nogood_queue.pop() {
                if !self.propagate_nogoods(network, var) {
                    return false;
                }
            } else if let Some(a) = self.arc_queue.pop_front() {
                self.arc_queued[a as usize] = false;
                let arc = &network.arcs[a as usize];
                if self.assigned[arc.x.index()] {
                    continue;
                }
                self.stats.revisions += 1;
                let removed = arc
                    .kind
                    .revise(arc.x, arc.y, &mut self.store, &mut self.stats.checks);
                if removed > 0 {
                    self.stats.pruned += u64::from(removed);
                    if self.store.size(arc.x) == 0 {
                        self.bump_weight(Failed::Arc(a));
                        return false;
                    }
                    self.announce_change(network, arc.x, Some(arc.y));
                }
            } else if let Some((p, local)) = self.queues.iter_mut().find_map(Ring::pop_front) {
                let event = if local == CHANGED {
                    self.prop_change_queued[p as usize] = false;
                    Event::Changed
                } else {
                    Event::Fixed(local as usize)
                };
                if !self.run_propagator(p as usize, event) {
                    self.bump_weight(Failed::Propagator(p as usize));
                    return false;
                }
                let skip = if local == CHANGED && self.prop_flags[p as usize].idempotent {
                    p
                } else {
                    u32::MAX
                };
                while let Some(var) = self.changes.pop() {
                    self.announce_change_from(network, var, None, skip);
                }
            } else {
                return true;
            }
        }
    }

    /// Visits the nogoods watching the fixed `var` and announces what they prune.
    fn propagate_nogoods(&mut self, network: &Network, var: VarId) -> bool {
        if !self.visit_nogoods(var) {
            return false;
        }
        for i in 0..self.nogood_pruned.len() {
            let other = self.nogood_pruned[i];
            self.announce_change(network, other, None);
        }
        true
    }

    /// Visits the nogoods watching the fixed `var`, leaving the variables they pruned in
    /// `nogood_pruned`. Returns `false` if one is violated or empties a domain.
    fn visit_nogoods(&mut self, var: VarId) -> bool {
        self.nogood_pruned.clear();
        let holds = self
            .nogoods
            .on_fixed(var, &mut self.store, &mut self.nogood_pruned)
            .is_ok();
        self.stats.pruned += self.nogood_pruned.len() as u64;
        holds
    }

    /// Propagators whose pruning may be incomplete get the last word on a full assignment.
    fn complete_assignment_holds(&mut self) -> bool {
        if !self.final_check {
            return true;
        }
        let mut values = std::mem::take(&mut self.check_values);
        let mut holds = true;
        for p in self.props.iter().filter(|p| !p.prunes_exactly()) {
            values.clear();
            values.extend(p.variables().iter().map(|v| self.value[v.index()]));
            if !p.check(&values) {
                holds = false;
                break;
            }
        }
        self.check_values = values;
        holds
    }
}

/// The limit that stops a search after `nodes` nodes, if any. The clock and the cancel
/// flag are read every 256 nodes.
#[inline]
fn limit_hit(limits: &Limits, nodes: u64, started: Option<Instant>) -> Option<LimitKind> {
    if limits.nodes.is_some_and(|max| nodes >= max) {
        return Some(LimitKind::Nodes);
    }
    if nodes % 256 == 0 {
        if limits.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(LimitKind::Cancelled);
        }
        if let (Some(max), Some(start)) = (limits.time, started) {
            if start.elapsed() >= max {
                return Some(LimitKind::Time);
            }
        }
    }
    None
}

/// The first unassigned variable (a bit of `open`) from `from` on with at most one value.
#[inline]
fn first_forced_from(open: &[u64], sizes: &[u32], from: usize) -> Option<usize> {
    let mut w = from / 64;
    let mut bits = open.get(w)? & (!0u64 << (from % 64));
    loop {
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            if sizes[i] <= 1 {
                return Some(i);
            }
            bits &= bits - 1;
        }
        w += 1;
        bits = *open.get(w)?;
    }
}

/// The first unassigned variable (a bit of `open`) with at most one value, else the
/// first with the smallest `size / weight`.
fn smallest_ratio(open: &[u64], sizes: &[u32], weights: &[u64]) -> usize {
    let mut best: Option<(usize, u64, u64)> = None;
    for (w, &word) in open.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if sizes[i] <= 1 {
                return i;
            }
            let candidate = (i, u64::from(sizes[i]), weights[i]);
            if best.is_none_or(|b| ratio_less(candidate, b)) {
                best = Some(candidate);
            }
        }
    }
    best.expect("an unassigned variable").0
}

/// Whether `a`'s `size / weight` is strictly below `b`'s.
fn ratio_less(a: (usize, u64, u64), b: (usize, u64, u64)) -> bool {
    u128::from(a.1) * u128::from(b.2) < u128::from(b.1) * u128::from(a.2)
}

/// Forward checking through an arc that has no compiled step: kept out of line so the
/// compiled loop keeps its registers.
#[cold]
#[inline(never)]
fn prune_general(network: &Network, arc: u32, value: i32, store: &mut Store, checks: &mut u64) -> u32 {
    let arc = &network.arcs[arc as usize];
    arc.kind.prune_against(arc.x, arc.y, value, store, checks)
}

/// Lazy enumeration of solutions; see [`Solver::solutions`].
pub struct Solutions<'s, 'm> {
    solver: &'s mut Solver<'m>,
    stopped: Option<LimitKind>,
}

impl Solutions<'_, '_> {
    /// The limit that ended the enumeration, if one did.
    pub fn limit(&self) -> Option<LimitKind> {
        self.stopped
    }
}

impl Iterator for Solutions<'_, '_> {
    type Item = Vec<i32>;

    fn next(&mut self) -> Option<Vec<i32>> {
        if self.stopped.is_some() {
            return None;
        }
        if let Some(cap) = self.solver.config.limits.solutions {
            if self.solver.stats.solutions >= cap {
                self.stopped = Some(LimitKind::Solutions);
                return None;
            }
        }
        match self.solver.advance() {
            Step::Solution => Some(self.solver.value.clone()),
            Step::Exhausted => None,
            Step::Limit(kind) => {
                self.stopped = Some(kind);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Domain, Strength};

    /// A small random model: all-different constraints at random strengths and `!=`
    /// pairs over few values, so that propagation leaves many variables forced.
    fn random_model(rng: &mut ChaCha8Rng) -> Model {
        let n = rng.gen_range(4..=8);
        let k = rng.gen_range(2..=4);
        let mut m = Model::new();
        let vars = m.int_vars(n, 1, k).expect("a non-empty range");
        for _ in 0..rng.gen_range(1..=3) {
            let mut scope = vars.clone();
            scope.shuffle(rng);
            scope.truncate(rng.gen_range(2..=n.min(k as usize)));
            let strength = Strength::ALL[rng.gen_range(0..3)];
            m.all_different_nary(&scope, strength)
                .expect("variables of this model");
        }
        for _ in 0..rng.gen_range(0..=n) {
            let (a, b) = (rng.gen_range(0..n), rng.gen_range(0..n));
            if a != b {
                m.not_equal(vars[a], vars[b]).expect("distinct variables");
            }
        }
        m
    }

    /// Every solution in order, then the statistics (without the time) and the limit.
    fn run(
        model: &Model,
        config: &SearchConfig,
        forced_runs: bool,
    ) -> (Vec<Vec<i32>>, Stats, Option<LimitKind>) {
        let mut solver = Solver::new(model, config.clone()).expect("a valid configuration");
        solver.forced_runs &= forced_runs;
        let mut solutions = solver.solutions();
        let found: Vec<Vec<i32>> = solutions.by_ref().collect();
        let limit = solutions.limit();
        let mut stats = solver.stats().clone();
        stats.elapsed = Default::default();
        (found, stats, limit)
    }

    #[test]
    fn dom_wdeg_fixed_weighs_the_variables_in_conflict_and_the_decision() {
        // x in 1..=2 is the first choice (the largest degree). Either value fixes p to the
        // other, which fixes q and r to the value x took, and they clash in the
        // all-different over p, q, r, s; s keeps a choice. t and u only add to x's degree.
        let mut model = Model::new();
        let x = model.add_var(Domain::range(1, 2).expect("a range"));
        let pqr = model.int_vars(3, 1, 2).expect("a non-empty range");
        let s = model.add_var(Domain::range(1, 4).expect("a range"));
        let tu = model.int_vars(2, 1, 5).expect("a non-empty range");
        for other in [pqr[0], tu[0], tu[1]] {
            model
                .all_different_nary(&[x, other], Strength::Value)
                .expect("variables of this model");
        }
        model
            .all_different_nary(&[pqr[0], pqr[1], pqr[2], s], Strength::Value)
            .expect("variables of this model");
        // Weights in the order x, p, q, r, s, t, u: the degree plus what the two failures
        // added.
        for (name, weights) in [
            // Each failure weighs every variable of the failing all-different.
            ("dom-wdeg/asc/mac", [3, 4, 3, 3, 3, 1, 1]),
            // Only its fixed or emptied p, q, r (not s), and the decision x.
            ("dom-wdeg-fixed/asc/mac", [5, 4, 3, 3, 1, 1, 1]),
        ] {
            let config = SearchConfig::with_strategy(name.parse().expect("a strategy"));
            let mut solver = Solver::new(&model, config).expect("a valid configuration");
            assert_eq!(solver.solve(), Outcome::Unsatisfiable, "{name}");
            assert_eq!(solver.stats().nodes, 2, "{name}");
            assert_eq!(solver.var_weight, weights, "{name}");
        }
    }

    #[test]
    fn forced_runs_change_no_solution_count_or_limit() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut runs = 0;
        for _ in 0..300 {
            let model = random_model(&mut rng);
            for name in [
                "mrv/asc/mac",
                "dom-wdeg/asc/mac",
                "dom-wdeg/desc/mac",
                "dom-wdeg-fixed/asc/mac",
            ] {
                let mut config = SearchConfig::with_strategy(name.parse().expect("a strategy"));
                let whole = run(&model, &config, false);
                assert_eq!(run(&model, &config, true), whole, "{name}");
                // Node limits stop both at the same node, with the same solutions: each of
                // the first 200 nodes as the limit.
                for cap in 1..whole.1.nodes.min(200) {
                    config.limits.nodes = Some(cap);
                    let stopped = run(&model, &config, true);
                    assert_eq!(stopped, run(&model, &config, false), "{name}, {cap} nodes");
                    assert_eq!(stopped.1.nodes, cap);
                    runs += 1;
                }
            }
        }
        assert!(runs > 1000, "the models make search trees: {runs} limited runs");
    }
}
