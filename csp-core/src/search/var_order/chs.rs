//! Conflict-history search (Habet and Terrioux, "Conflict history based heuristic for
//! constraint satisfaction problem solving", Journal of Heuristics 2021; CHB of Liang et
//! al. for SAT before it). Each constraint `c` has a score `q(c)`, from 0. At the `t`-th
//! conflict (a wipe-out, or a violated nogood, which moves `t` only), the failing
//! constraint's score moves towards the reward `1 / (t - last(c) + 1)`:
//! `q(c) = (1 - a) q(c) + a r`, where the step `a` starts at 0.4 and falls by 1e-6 per
//! conflict down to 0.06; `last(c) = t`. At each restart every score decays by
//! `0.995^(t - last(c))` and `a` is 0.4 again. A variable's score sums `q(c) + 1e-4` over
//! its constraints that have another unassigned variable (the `1e-4` orders the first
//! choices by dom/ddeg); the order takes the largest score over `|dom|`. The constants are
//! the paper's, as Choco implements them (ACE starts the step at 0.1).

use crate::search::scopes::Scopes;
use crate::var::VarId;

/// The step's start (and value after each restart), floor and decrement.
const STEP_START: f64 = 0.4;
const STEP_FLOOR: f64 = 0.06;
const STEP_DECREMENT: f64 = 1e-6;
/// The decay per conflict since a constraint's last one, applied at restarts.
const DECAY: f64 = 0.995;
/// What each counting constraint adds to a variable's score besides its `q`.
const DELTA: f64 = 1e-4;

/// The constraints' scores and conflict times.
pub(in crate::search) struct ConflictHistory {
    score: Vec<f64>,
    last: Vec<u64>,
    conflicts: u64,
    step: f64,
}

impl ConflictHistory {
    /// Every score at 0, no conflict yet.
    pub(in crate::search) fn new(scopes: &Scopes) -> ConflictHistory {
        let m = scopes.unassigned.len();
        ConflictHistory {
            score: vec![0.0; m],
            last: vec![0; m],
            conflicts: 0,
            step: STEP_START,
        }
    }

    /// A conflict, on constraint `c` if one is to blame.
    pub(in crate::search) fn on_conflict(&mut self, c: Option<usize>) {
        self.conflicts += 1;
        let Some(c) = c else {
            return;
        };
        let reward = 1.0 / (self.conflicts - self.last[c] + 1) as f64;
        self.score[c] = (1.0 - self.step) * self.score[c] + self.step * reward;
        self.step = (self.step - STEP_DECREMENT).max(STEP_FLOOR);
        self.last[c] = self.conflicts;
    }

    /// A restart: the scores decay by the conflicts since each one's last, and the step
    /// starts again.
    pub(in crate::search) fn on_restart(&mut self) {
        for (score, &last) in self.score.iter_mut().zip(&self.last) {
            let since = (self.conflicts - last) as f64;
            *score *= DECAY.powf(since);
        }
        self.step = STEP_START;
    }

    /// `var`'s score: `q(c) + 1e-4` summed over the constraints that count for it.
    #[inline]
    pub(in crate::search) fn weight(&self, var: VarId, scopes: &Scopes) -> f64 {
        scopes.sum_counting(var, |c, _| self.score[c] + DELTA)
    }
}
