//! The general scan behind every variable order without a fast path: MRV+degree, random
//! tie-breaks, and MRV or dom/wdeg without inference (where legal values must be
//! counted). One pass over the unassigned variables compares the fraction
//! `legal / weight` (weight 1 except under dom/wdeg), then the degree.

use std::cmp::Ordering;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::mrv_degree::UnassignedDegrees;
use crate::search::state::SearchState;
use crate::var::VarId;

/// Which parts of the key count, read once per decision.
#[derive(Clone, Copy)]
pub(in crate::search) struct ScanRule {
    pub(in crate::search) use_degree: bool,
    pub(in crate::search) use_weights: bool,
    pub(in crate::search) random_ties: bool,
    /// The fewest legal values a variable can have: 1 under inference (an empty domain
    /// has failed already), else 0.
    pub(in crate::search) floor: u64,
}

/// The best unassigned variable under `rule`; `legal` counts a variable's legal values.
/// Smaller fractions and larger degrees are better; forced variables (one legal value)
/// go first whatever their weight.
pub(in crate::search) fn scan(
    state: &SearchState,
    rule: ScanRule,
    degrees: Option<&UnassignedDegrees>,
    weights: &[u64],
    rng: &mut ChaCha8Rng,
    mut legal: impl FnMut(VarId) -> u64,
) -> VarId {
    let mut best: Option<(VarId, u64, u64, u32)> = None;
    let mut ties = 0u32;
    for (i, &assigned) in state.assigned.iter().enumerate() {
        if assigned {
            continue;
        }
        let var = VarId(i as u32);
        let legal = legal(var);
        let degree = match degrees {
            Some(degrees) if rule.use_degree => degrees.degree(i),
            _ => 0,
        };
        let weight = if rule.use_weights && legal > 1 {
            weights[i]
        } else {
            1
        };
        let order = match best {
            None => Ordering::Less,
            Some((_, bl, bw, bd)) => match (legal <= 1, bl <= 1) {
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
                _ => (u128::from(legal) * u128::from(bw))
                    .cmp(&(u128::from(bl) * u128::from(weight)))
                    .then(bd.cmp(&degree)),
            },
        };
        if order == Ordering::Less {
            best = Some((var, legal, weight, degree));
            ties = 1;
            // Nothing beats the lowest variable with the fewest possible values: none
            // without values, or one value where inference rules out empty domains.
            if !rule.random_ties && !rule.use_degree && legal <= rule.floor {
                break;
            }
        } else if order == Ordering::Equal && rule.random_ties {
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                best = Some((var, legal, weight, degree));
            }
        }
    }
    best.expect("an unassigned variable").0
}
