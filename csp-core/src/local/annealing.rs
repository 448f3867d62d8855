//! Simulated annealing with a seed, a step limit and a self-adjusting temperature.
//!
//! The schedule is the one of the seed-001 document (`data/sudoku/README.md`) (simulated annealing for Sudoku): the temperature
//! drops a little after every accepted move ("while the score is improving we decrease the
//! heat") and rises a little after a streak of rejected moves ("whilst we're stuck, we will
//! increase the heat"). A worsening move by `d` is accepted with probability `exp(-d / T)`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::LocalOutcome;

/// A state that simulated annealing can improve: a cost to bring down to
/// [`Annealing::target_cost`] and a neighbourhood of random moves.
///
/// Four methods are required: [`cost`](AnnealingModel::cost),
/// [`random_move`](AnnealingModel::random_move), [`apply`](AnnealingModel::apply) and
/// [`undo`](AnnealingModel::undo). [`delta`](AnnealingModel::delta) has a correct default
/// (apply, measure, undo) that a model with an incremental cost replaces by an O(1)
/// computation; [`initialize`](AnnealingModel::initialize) builds the starting state.
///
/// ```
/// use csp_core::{Annealing, AnnealingModel, LocalOutcome, anneal};
/// use rand::{Rng, RngExt};
///
/// /// Sort a permutation by swapping neighbours; cost = number of inversions.
/// struct Sorting(Vec<u32>);
///
/// impl AnnealingModel for Sorting {
///     type Move = usize; // swap positions i and i + 1
///     fn cost(&self) -> u64 {
///         let v = &self.0;
///         (0..v.len()).map(|i| (i + 1..v.len()).filter(|&j| v[i] > v[j]).count() as u64).sum()
///     }
///     fn random_move(&mut self, rng: &mut dyn Rng) -> Option<usize> {
///         Some(rng.random_range(0..self.0.len() - 1))
///     }
///     fn apply(&mut self, &i: &usize) { self.0.swap(i, i + 1) }
///     fn undo(&mut self, &i: &usize) { self.0.swap(i, i + 1) }
/// }
///
/// let mut model = Sorting(vec![5, 3, 7, 1, 0, 6, 2, 4]);
/// let run = anneal(&mut model, &Annealing { seed: 1, ..Annealing::default() });
/// assert_eq!(run.outcome, LocalOutcome::Solved);
/// assert_eq!(model.0, [0, 1, 2, 3, 4, 5, 6, 7]);
/// assert_eq!((run.stats.cost, run.stats.best_cost, run.stats.initial_cost), (0, 0, 16));
/// assert!(run.stats.accepted <= run.stats.steps);
/// ```
pub trait AnnealingModel {
    /// A move of the neighbourhood (small and `Copy`, e.g. two cell indices).
    type Move: Copy;

    /// The cost of the current state; [`Annealing::target_cost`] (usually 0) is a solution.
    fn cost(&self) -> u64;

    /// A random move from the current state, or `None` if the state has no neighbour
    /// (the run then ends).
    fn random_move(&mut self, rng: &mut dyn Rng) -> Option<Self::Move>;

    /// Makes the move.
    fn apply(&mut self, mv: &Self::Move);

    /// Takes back a move just made with [`apply`](AnnealingModel::apply).
    fn undo(&mut self, mv: &Self::Move);

    /// How much the cost would change if the move were made (negative: better), leaving
    /// the state as it is. Default: apply, measure and undo.
    fn delta(&mut self, mv: &Self::Move) -> i64 {
        let before = self.cost() as i64;
        self.apply(mv);
        let after = self.cost() as i64;
        self.undo(mv);
        after - before
    }

    /// Builds the initial state, once at the start of a run. Default: keep the state the
    /// model was given.
    fn initialize(&mut self, rng: &mut dyn Rng) {
        let _ = rng;
    }
}

/// Settings of [`anneal`]. The defaults are the schedule of the seed-001 document.
#[derive(Clone, Debug)]
pub struct Annealing {
    /// Proposed moves (accepted or not) before giving up. Default: 1,000,000.
    pub max_steps: u64,
    /// Temperature at the start, in cost units. Default: 1.0. Range: > 0.
    pub initial_temperature: f64,
    /// Factor applied to the temperature after each accepted move. Default: 0.99.
    /// Range: (0, 1].
    pub cooling: f64,
    /// Factor applied to the temperature after [`reheat_after`](Annealing::reheat_after)
    /// rejections in a row. Default: 1.05. Range: >= 1.
    pub reheating: f64,
    /// Length of a streak of rejected moves that reheats (the streak then starts again).
    /// Default: 40. Range: >= 1.
    pub reheat_after: u32,
    /// The temperature never drops below this. Default: 1e-3 (with integer costs a
    /// worsening move is then accepted with probability below e^-1000, i.e. never).
    /// Range: > 0.
    pub min_temperature: f64,
    /// The run ends as [`LocalOutcome::Solved`] when the cost is at most this. Default: 0.
    pub target_cost: u64,
    /// Seed of the ChaCha8 generator behind every random choice. Default: 0. The same
    /// seed on the same model gives the same run.
    pub seed: u64,
    /// Stop after this much time. Default: none.
    pub time: Option<Duration>,
    /// Stop when another thread sets this flag. Default: none.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for Annealing {
    fn default() -> Self {
        Annealing {
            max_steps: 1_000_000,
            initial_temperature: 1.0,
            cooling: 0.99,
            reheating: 1.05,
            reheat_after: 40,
            min_temperature: 1e-3,
            target_cost: 0,
            seed: 0,
            time: None,
            cancel: None,
        }
    }
}

/// What an annealing run did. Identical on every run with the same seed, except `elapsed`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AnnealingStats {
    /// Moves proposed.
    pub steps: u64,
    /// Moves made (improving, equal, or worsening and accepted by chance).
    pub accepted: u64,
    /// Accepted moves that made the cost worse.
    pub uphill: u64,
    /// Times the temperature was raised after a streak of rejections.
    pub reheats: u64,
    /// Cost after initialisation.
    pub initial_cost: u64,
    /// Lowest cost seen.
    pub best_cost: u64,
    /// Cost when the run ended.
    pub cost: u64,
    /// Temperature when the run ended.
    pub temperature: f64,
    /// Wall-clock time, serialised as `elapsed_ms` (milliseconds, fractional).
    #[serde(rename = "elapsed_ms", serialize_with = "crate::stats::as_millis")]
    pub elapsed: Duration,
}

impl std::fmt::Display for AnnealingStats {
    /// `name=value` lines, one per figure.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::stats::write_name_values(
            f,
            &[
                ("steps", &self.steps),
                ("accepted", &self.accepted),
                ("uphill", &self.uphill),
                ("reheats", &self.reheats),
                ("initial_cost", &self.initial_cost),
                ("best_cost", &self.best_cost),
                ("cost", &self.cost),
                ("temperature", &self.temperature),
            ],
            self.elapsed,
        )
    }
}

/// The result of [`anneal`]; the state itself stays in the model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnnealingRun {
    /// How it ended: [`LocalOutcome::Solved`] when the target cost was reached; a model
    /// without any move ends as [`LocalOutcome::StepLimit`] early.
    pub outcome: LocalOutcome,
    /// What it did.
    pub stats: AnnealingStats,
}

/// Simulated annealing: from the model's initial state, repeatedly propose a random move;
/// make it if it does not raise the cost, or else with probability `exp(-delta / T)`.
/// Each accepted move multiplies the temperature `T` by [`Annealing::cooling`];
/// [`Annealing::reheat_after`] rejections in a row multiply it by
/// [`Annealing::reheating`]. Ends when the cost reaches [`Annealing::target_cost`] or a
/// limit is hit; the model keeps the final state (not necessarily the best one seen).
///
/// The loop itself allocates nothing; what a step costs is up to the model's methods.
///
/// # Panics
/// If a setting is outside its documented range.
pub fn anneal<M: AnnealingModel + ?Sized>(model: &mut M, config: &Annealing) -> AnnealingRun {
    assert!(
        config.initial_temperature > 0.0,
        "the initial temperature must be positive"
    );
    assert!(
        config.cooling > 0.0 && config.cooling <= 1.0,
        "cooling must be in (0, 1]"
    );
    assert!(config.reheating >= 1.0, "reheating must be at least 1");
    assert!(config.reheat_after >= 1, "reheat_after must be at least 1");
    assert!(
        config.min_temperature > 0.0,
        "the minimum temperature must be positive"
    );
    let started = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    model.initialize(&mut rng);
    let mut cost = model.cost();
    let mut stats = AnnealingStats {
        initial_cost: cost,
        best_cost: cost,
        ..AnnealingStats::default()
    };
    let mut temperature = config.initial_temperature.max(config.min_temperature);
    let mut streak = 0u32;
    let outcome = loop {
        if cost <= config.target_cost {
            break LocalOutcome::Solved;
        }
        if stats.steps >= config.max_steps {
            break LocalOutcome::StepLimit;
        }
        if stats.steps.is_multiple_of(1024) {
            if config.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                break LocalOutcome::Cancelled;
            }
            if config.time.is_some_and(|max| started.elapsed() >= max) {
                break LocalOutcome::TimeLimit;
            }
        }
        let Some(mv) = model.random_move(&mut rng) else {
            break LocalOutcome::StepLimit;
        };
        stats.steps += 1;
        let delta = model.delta(&mv);
        let accept = delta <= 0 || rng.random::<f64>() < (-(delta as f64) / temperature).exp();
        if accept {
            model.apply(&mv);
            cost = cost
                .checked_add_signed(delta)
                .expect("a cost never drops below zero");
            stats.accepted += 1;
            stats.uphill += u64::from(delta > 0);
            stats.best_cost = stats.best_cost.min(cost);
            temperature = (temperature * config.cooling).max(config.min_temperature);
            streak = 0;
        } else {
            streak += 1;
            if streak >= config.reheat_after {
                temperature *= config.reheating;
                stats.reheats += 1;
                streak = 0;
            }
        }
    };
    debug_assert_eq!(cost, model.cost(), "the deltas add up to the cost");
    stats.cost = cost;
    stats.temperature = temperature;
    stats.elapsed = started.elapsed();
    AnnealingRun { outcome, stats }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// n-queens, one queen per column, a move swaps the rows of two columns (rows stay a
    /// permutation); cost = pairs of queens on a shared diagonal. Uses the default delta.
    struct Queens(Vec<usize>);

    impl AnnealingModel for Queens {
        type Move = (usize, usize);
        fn cost(&self) -> u64 {
            let q = &self.0;
            let mut c = 0;
            for i in 0..q.len() {
                for j in i + 1..q.len() {
                    c += u64::from(q[i].abs_diff(q[j]) == j - i);
                }
            }
            c
        }
        fn random_move(&mut self, rng: &mut dyn Rng) -> Option<(usize, usize)> {
            let n = self.0.len();
            let a = rng.random_range(0..n);
            let b = (a + rng.random_range(1..n)) % n;
            Some((a, b))
        }
        fn apply(&mut self, &(a, b): &(usize, usize)) {
            self.0.swap(a, b);
        }
        fn undo(&mut self, mv: &(usize, usize)) {
            self.apply(mv);
        }
        fn initialize(&mut self, rng: &mut dyn Rng) {
            let n = self.0.len();
            self.0 = (0..n).collect();
            for i in (1..n).rev() {
                let j = rng.random_range(0..=i);
                self.0.swap(i, j);
            }
        }
    }

    #[test]
    fn solves_queens_for_several_seeds() {
        for seed in 0..10 {
            let mut q = Queens(vec![0; 12]);
            let run = anneal(
                &mut q,
                &Annealing {
                    seed,
                    ..Annealing::default()
                },
            );
            assert_eq!(run.outcome, LocalOutcome::Solved, "seed {seed}");
            assert_eq!(q.cost(), 0);
            assert_eq!(run.stats.best_cost, 0);
            assert!(run.stats.accepted <= run.stats.steps);
        }
    }

    #[test]
    fn same_seed_same_run() {
        let run = |seed| {
            let mut q = Queens(vec![0; 10]);
            let mut r = anneal(
                &mut q,
                &Annealing {
                    seed,
                    ..Annealing::default()
                },
            );
            r.stats.elapsed = Duration::ZERO;
            (r, q.0)
        };
        assert_eq!(run(5), run(5));
    }

    #[test]
    fn unsolvable_stops_at_the_step_limit_and_reheats() {
        // Three queens have no solution; the cost never reaches zero.
        let mut q = Queens(vec![0; 3]);
        let config = Annealing {
            max_steps: 2_000,
            ..Annealing::default()
        };
        let run = anneal(&mut q, &config);
        assert_eq!(run.outcome, LocalOutcome::StepLimit);
        assert_eq!(run.stats.steps, 2_000);
        assert!(run.stats.best_cost > 0);
        assert_eq!(run.stats.cost, q.cost());

        // Every move costs 10 more: almost all are rejected, so the temperature rises.
        struct Uphill;
        impl AnnealingModel for Uphill {
            type Move = ();
            fn cost(&self) -> u64 {
                1
            }
            fn random_move(&mut self, _: &mut dyn Rng) -> Option<()> {
                Some(())
            }
            fn apply(&mut self, _: &()) {}
            fn undo(&mut self, _: &()) {}
            fn delta(&mut self, _: &()) -> i64 {
                10
            }
        }
        let run = anneal(
            &mut Uphill,
            &Annealing {
                max_steps: 400,
                ..Annealing::default()
            },
        );
        assert_eq!(run.stats.accepted, 0);
        assert_eq!(run.stats.reheats, 10);
        assert!((run.stats.temperature - 1.05f64.powi(10)).abs() < 1e-9);
    }

    #[test]
    fn cancel_flag_and_no_moves_end_the_run() {
        let flag = Arc::new(AtomicBool::new(true));
        let mut q = Queens(vec![0; 3]);
        let run = anneal(
            &mut q,
            &Annealing {
                cancel: Some(flag),
                ..Annealing::default()
            },
        );
        assert_eq!(run.outcome, LocalOutcome::Cancelled);

        struct Stuck;
        impl AnnealingModel for Stuck {
            type Move = ();
            fn cost(&self) -> u64 {
                1
            }
            fn random_move(&mut self, _: &mut dyn Rng) -> Option<()> {
                None
            }
            fn apply(&mut self, _: &()) {}
            fn undo(&mut self, _: &()) {}
        }
        let run = anneal(&mut Stuck, &Annealing::default());
        assert_eq!(run.outcome, LocalOutcome::StepLimit);
        assert_eq!(run.stats.steps, 0);
    }
}
