//! The min-conflicts algorithm with a seed, a step limit and restarts.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::ConflictModel;

/// Settings of [`min_conflicts`].
#[derive(Clone, Debug)]
pub struct MinConflicts {
    /// Steps (one variable re-valued per step) over all tries. Default: 1,000,000.
    pub max_steps: u64,
    /// Start again from a fresh initial assignment after this many steps without a
    /// solution. Default: `None` (never).
    pub restart_after: Option<u64>,
    /// Seed of the ChaCha8 generator behind every random choice. Default: 0. The same
    /// seed on the same model gives the same run.
    pub seed: u64,
    /// Stop after this much time. Default: none.
    pub time: Option<Duration>,
    /// Stop when another thread sets this flag. Default: none.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for MinConflicts {
    fn default() -> Self {
        MinConflicts {
            max_steps: 1_000_000,
            restart_after: None,
            seed: 0,
            time: None,
            cancel: None,
        }
    }
}

/// How a local search ended. It cannot prove that there is no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LocalOutcome {
    /// The model's assignment is a solution.
    Solved,
    /// The step limit was reached.
    StepLimit,
    /// The time limit was reached.
    TimeLimit,
    /// The cancel flag was set.
    Cancelled,
}

impl LocalOutcome {
    /// `solved` or `limit`.
    pub fn status(self) -> &'static str {
        match self {
            LocalOutcome::Solved => "solved",
            _ => "limit",
        }
    }
}

/// What a local search did. Identical on every run with the same seed, except `elapsed`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LocalStats {
    /// Steps: variables re-valued (AIMA's loop iterations that changed something).
    pub steps: u64,
    /// Fresh initial assignments after the first.
    pub restarts: u64,
    /// Variables in conflict when the search stopped (0 when solved).
    pub conflicts: u64,
    /// Variables in conflict after the first initial assignment.
    pub initial_conflicts: u64,
    /// Wall-clock time, serialised as `elapsed_ms` (milliseconds, fractional).
    #[serde(rename = "elapsed_ms", serialize_with = "crate::stats::as_millis")]
    pub elapsed: Duration,
}

impl std::fmt::Display for LocalStats {
    /// `name=value` lines, one per figure.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::stats::write_name_values(
            f,
            &[
                ("steps", &self.steps),
                ("restarts", &self.restarts),
                ("conflicts", &self.conflicts),
                ("initial_conflicts", &self.initial_conflicts),
            ],
            self.elapsed,
        )
    }
}

/// The result of [`min_conflicts`]; the assignment itself stays in the model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LocalRun {
    /// How it ended.
    pub outcome: LocalOutcome,
    /// What it did.
    pub stats: LocalStats,
}

/// Min-conflicts (AIMA, figure 6.8): from an initial complete assignment, repeatedly
/// pick a conflicted variable at random and give it a value with the fewest conflicts
/// (ties at random), until no variable is in conflict or a limit is reached. With
/// [`MinConflicts::restart_after`], a try that makes no solution in that many steps
/// starts again from a fresh initial assignment.
///
/// The loop itself allocates nothing; what a step costs is up to the model's methods.
pub fn min_conflicts<M: ConflictModel + ?Sized>(model: &mut M, config: &MinConflicts) -> LocalRun {
    let started = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut stats = LocalStats::default();
    // The limits hold during initial assignments too, which are long on large models.
    let stopped = || {
        if config.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            Some(LocalOutcome::Cancelled)
        } else if config.time.is_some_and(|max| started.elapsed() >= max) {
            Some(LocalOutcome::TimeLimit)
        } else {
            None
        }
    };
    if !model.initialize_within(&mut rng, &mut || stopped().is_some()) {
        stats.elapsed = started.elapsed();
        let outcome = stopped().unwrap_or(LocalOutcome::TimeLimit);
        return LocalRun { outcome, stats };
    }
    stats.initial_conflicts = model.num_conflicted() as u64;
    let mut try_steps = 0u64;
    let outcome = loop {
        let Some(var) = model.random_conflicted(&mut rng) else {
            break LocalOutcome::Solved;
        };
        if stats.steps >= config.max_steps {
            break LocalOutcome::StepLimit;
        }
        if stats.steps % 1024 == 0 {
            if let Some(outcome) = stopped() {
                break outcome;
            }
        }
        if config.restart_after.is_some_and(|after| try_steps >= after) {
            if !model.initialize_within(&mut rng, &mut || stopped().is_some()) {
                break stopped().unwrap_or(LocalOutcome::TimeLimit);
            }
            stats.restarts += 1;
            try_steps = 0;
            log::debug!(
                "min-conflicts restart {} after {} steps",
                stats.restarts,
                stats.steps
            );
            continue;
        }
        let value = model.min_conflicts_value(var, &mut rng);
        model.set_value(var, value);
        stats.steps += 1;
        try_steps += 1;
    };
    stats.conflicts = match outcome {
        LocalOutcome::Solved => 0,
        _ => model.num_conflicted() as u64,
    };
    stats.elapsed = started.elapsed();
    LocalRun { outcome, stats }
}
