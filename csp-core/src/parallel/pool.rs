//! The workers of parallel search: each takes the next piece of the decomposition, searches
//! it with its own solver, and hands back what it found. What they share: the index of the
//! next piece, a stop flag (every worker's solver has it as its cancel flag), the node
//! budget, and the totals of the statistics.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::decompose::{Decomposition, Work};
use crate::config::SearchConfig;
use crate::model::Model;
use crate::search::{LearntWeights, Solver};
use crate::stats::{LimitKind, Stats};
use crate::var::VarId;

/// How many nodes a worker searches before it looks at what the others did (a better
/// bound, a solution earlier in the order) or takes more of a node budget.
pub(super) const TURN_NODES: u64 = 4096;

/// How often the coordinating thread reads the caller's cancel flag and the clock.
const WATCH_EVERY: Duration = Duration::from_millis(5);

/// What the workers share.
pub(super) struct Pool<'a> {
    model: &'a Model,
    /// The run's configuration (its limits are the whole run's).
    config: &'a SearchConfig,
    pub(super) pieces: &'a [Work],
    threads: usize,
    started: Instant,
    next: AtomicUsize,
    /// Set to stop every worker: each solver's cancel flag.
    stop: Arc<AtomicBool>,
    /// Why the run stopped early, if a limit stopped it.
    stopped_by: Mutex<Option<LimitKind>>,
    /// The nodes left of the run's node limit, if it has one.
    nodes_left: Option<AtomicU64>,
    totals: Mutex<Stats>,
    /// The constraint weights the threads learnt, pooled (see [`Pool::solver`]).
    learnt: Mutex<Option<LearntWeights>>,
}

/// Locks `mutex`, whatever a panicking thread left in it (the panic is passed on anyway).
pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<'a> Pool<'a> {
    /// A pool over the pieces of `decomposition`, stopped already if a limit stopped that.
    pub(super) fn new(
        model: &'a Model,
        config: &'a SearchConfig,
        decomposition: &'a Decomposition,
        threads: usize,
        started: Instant,
    ) -> Pool<'a> {
        let used = &decomposition.stats;
        let pool = Pool {
            model,
            config,
            pieces: &decomposition.pieces,
            threads,
            started,
            next: AtomicUsize::new(0),
            stop: Arc::new(AtomicBool::new(false)),
            stopped_by: Mutex::new(None),
            nodes_left: config
                .limits
                .nodes
                .map(|n| AtomicU64::new(n.saturating_sub(used.nodes))),
            totals: Mutex::new(used.clone()),
            learnt: Mutex::new(decomposition.learnt.clone()),
        };
        if let Some(kind) = decomposition.limit {
            pool.halt(Some(kind));
        }
        pool
    }

    /// Runs `threads` workers, each calling `work(index, piece, start)` on the next piece
    /// until none is left or the run stops, `start` a place for the weights its solver
    /// starts from (see [`Pool::solver`]); this thread watches the caller's cancel flag and
    /// the clock meanwhile.
    pub(super) fn run(&self, work: impl Fn(usize, &Work, &mut Option<LearntWeights>) + Sync) {
        let threads = self.threads;
        let (done, finished) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            for _ in 0..threads {
                let done = done.clone();
                let work = &work;
                scope.spawn(move || {
                    let mut start = None;
                    while let Some(index) = self.take() {
                        work(index, &self.pieces[index], &mut start);
                    }
                    let _ = done.send(());
                });
            }
            drop(done);
            let mut running = threads;
            while running > 0 {
                match finished.recv_timeout(WATCH_EVERY) {
                    Ok(()) => running -= 1,
                    Err(mpsc::RecvTimeoutError::Timeout) => self.watch(),
                    // A worker panicked: the scope passes the panic on.
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
        });
    }

    /// The index of the next piece to search, if the run goes on.
    fn take(&self) -> Option<usize> {
        if self.stopping() {
            return None;
        }
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        (index < self.pieces.len()).then_some(index)
    }

    /// The caller's cancel flag and the time limit, read by the coordinating thread; the
    /// statistics so far published where the caller reads them live.
    fn watch(&self) {
        let limits = &self.config.limits;
        if limits.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.halt(Some(LimitKind::Cancelled));
        } else if limits.time.is_some_and(|t| self.started.elapsed() >= t) {
            self.halt(Some(LimitKind::Time));
        }
        if let Some(live) = &self.config.live_stats {
            if let Ok(mut copy) = live.try_lock() {
                *copy = Stats {
                    elapsed: self.started.elapsed(),
                    ..lock(&self.totals).clone()
                };
            }
        }
    }

    /// Stops every worker; `reason` is the limit that stopped the run (`None`: the run has
    /// its answer). The first reason given is kept.
    pub(super) fn halt(&self, reason: Option<LimitKind>) {
        if let Some(kind) = reason {
            lock(&self.stopped_by).get_or_insert(kind);
        }
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a worker should stop.
    pub(super) fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The limit that stopped the run, if one did.
    pub(super) fn stopped_by(&self) -> Option<LimitKind> {
        *lock(&self.stopped_by)
    }

    /// Whether every piece was searched to its end: the run was never stopped (by a limit or
    /// an early answer), which also interrupts the pieces being searched.
    pub(super) fn finished(&self) -> bool {
        !self.stopping() && self.next.load(Ordering::Relaxed) >= self.pieces.len()
    }

    /// A solver confined to the piece `path`, under what is left of the run's time limit,
    /// stopped by the pool's flag; its node limit is set turn by turn ([`Pool::grant`]).
    ///
    /// With `pooled`, it starts from the constraint weights (dom/wdeg) that every thread has
    /// learnt so far, as a sequential search carries them from one subtree to the next (the
    /// dom/wdeg orders lose much without them); the price is that the nodes then depend on
    /// which thread drew which piece when. `start` keeps what it started from, so that
    /// [`Pool::settle`] adds only what it learnt.
    pub(super) fn solver(
        &self,
        path: &[(VarId, i32)],
        pooled: bool,
        start: &mut Option<LearntWeights>,
    ) -> Solver<'a> {
        let mut config = SearchConfig {
            trace: None,
            live_stats: None,
            ..self.config.clone()
        };
        config.limits.cancel = Some(Arc::clone(&self.stop));
        config.limits.nodes = None;
        config.limits.time = config
            .limits
            .time
            .map(|t| t.saturating_sub(self.started.elapsed()));
        let mut solver = Solver::new(self.model, config).expect("the configuration was checked");
        solver.confine(path);
        *start = None;
        if pooled {
            if let Some(learnt) = &*lock(&self.learnt) {
                solver.inherit_weights(learnt);
            }
            *start = Some(solver.learnt_weights());
        }
        solver
    }

    /// Sets `solver`'s node limit for its next turn: `turn` more nodes (`None`: no end),
    /// within what is left of the run's node limit. Returns `false`, and stops the run, when
    /// none is left.
    pub(super) fn grant(&self, solver: &mut Solver<'_>, turn: Option<u64>) -> bool {
        let nodes = solver.stats().nodes;
        let Some(left) = &self.nodes_left else {
            solver.set_node_limit(turn.map(|t| nodes + t));
            return true;
        };
        // A share of what is left, so that the threads spend the budget together rather
        // than one holding a turn the others wait for.
        let want = |l: u64| {
            turn.unwrap_or(TURN_NODES)
                .min((l / self.threads as u64).max(1))
                .min(l)
        };
        let taken = left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |l| Some(l - want(l)))
            .map_or(0, want);
        if taken == 0 {
            self.halt(Some(LimitKind::Nodes));
            return false;
        }
        solver.set_node_limit(Some(nodes + taken));
        true
    }

    /// Adds what `solver` did on the piece `path` to the totals, and gives back the nodes
    /// it was granted and did not use.
    pub(super) fn settle(&self, solver: &Solver<'_>, path: &[(VarId, i32)], start: &Option<LearntWeights>) {
        if let Some(start) = start {
            let now = solver.learnt_weights();
            let mut pooled = lock(&self.learnt);
            match &mut *pooled {
                Some(total) => total.add_progress(start, &now),
                None => *pooled = Some(now),
            }
        }
        let stats = solver.stats();
        if let (Some(left), Some(limit)) = (&self.nodes_left, solver.config().limits.nodes) {
            left.fetch_add(limit.saturating_sub(stats.nodes), Ordering::Relaxed);
        }
        let mut own = stats.clone();
        own.max_depth += path.len() as u64;
        own.elapsed = Duration::ZERO;
        lock(&self.totals).accumulate(&own);
    }

    /// The statistics of the whole run: the decomposition's and every piece's.
    pub(super) fn totals(&self) -> Stats {
        Stats {
            elapsed: self.started.elapsed(),
            ..lock(&self.totals).clone()
        }
    }
}
