//! Which kind of neighbourhood next, and how many variables it frees.
//!
//! Kinds are drawn with a probability that follows how often each improved the incumbent
//! lately (an exponential average, with a floor so that none is starved: a kind that fails
//! on one stretch of the run may be the one that works later). The size adapts as in
//! CP-SAT's LNS: a neighbourhood searched to the end within its budget without a better
//! solution was too small (more variables are freed next time); one that ran out of budget
//! was too large (fewer).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::NeighbourhoodKind;

/// The weight of the latest outcome in a kind's average.
const RECENCY: f64 = 0.2;
/// The least weight a kind keeps.
const FLOOR: f64 = 0.05;

struct Arm {
    kind: NeighbourhoodKind,
    tries: u64,
    improvements: u64,
    average: f64,
}

pub(super) struct Portfolio {
    arms: Vec<Arm>,
    decision: usize,
    /// How many decision variables to free, fractional so that it moves smoothly.
    free: f64,
}

impl Portfolio {
    pub(super) fn new(kinds: &[NeighbourhoodKind], decision: usize) -> Portfolio {
        let mut kinds = kinds.to_vec();
        if kinds.is_empty() {
            kinds = NeighbourhoodKind::ALL.to_vec();
        }
        kinds.dedup();
        Portfolio {
            arms: kinds
                .into_iter()
                .map(|kind| Arm {
                    kind,
                    tries: 0,
                    improvements: 0,
                    average: 0.5,
                })
                .collect(),
            decision,
            free: (decision as f64 / 5.0).clamp(3.0_f64.min(decision as f64), decision as f64),
        }
    }

    /// The kind of the next neighbourhood.
    pub(super) fn pick(&self, rng: &mut ChaCha8Rng) -> NeighbourhoodKind {
        let total: f64 = self.arms.iter().map(|a| a.average + FLOOR).sum();
        let mut draw = rng.random::<f64>() * total;
        for arm in &self.arms {
            draw -= arm.average + FLOOR;
            if draw <= 0.0 {
                return arm.kind;
            }
        }
        self.arms.last().expect("at least one kind").kind
    }

    /// How many decision variables the next neighbourhood leaves free.
    pub(super) fn free_target(&self) -> usize {
        (self.free.round() as usize).clamp(1.min(self.decision), self.decision)
    }

    /// How a neighbourhood of kind `kind` went.
    pub(super) fn record(&mut self, kind: NeighbourhoodKind, improved: bool, exhausted: bool) {
        if let Some(arm) = self.arms.iter_mut().find(|a| a.kind == kind) {
            arm.tries += 1;
            arm.improvements += u64::from(improved);
            arm.average = (1.0 - RECENCY) * arm.average + RECENCY * f64::from(u8::from(improved));
        }
        let n = self.decision as f64;
        if exhausted && !improved {
            self.free = (self.free * 1.2 + 1.0).min(n);
        } else if !exhausted {
            self.free = (self.free * 0.85).max(1.0_f64.min(n));
        }
    }

    /// Each kind, with its neighbourhoods searched and those that improved.
    pub(super) fn report(&self) -> Vec<(NeighbourhoodKind, u64, u64)> {
        self.arms
            .iter()
            .map(|a| (a.kind, a.tries, a.improvements))
            .collect()
    }
}
