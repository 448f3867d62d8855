//! Objective-guided neighbourhoods: the free set grows (as in the reverse
//! propagation-guided kind) from the decision variables that weigh most in the incumbent's
//! objective value: the largest `weight * value` (the weights come negated when
//! maximising). The seeds are drawn among the worst terms, a third of the free set at most,
//! so that neighbourhoods differ from one to the next. Without terms (no constraint
//! defines the objective as a sum or an extremum), a random neighbourhood.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::{random, reverse_propagation_guided};
use crate::lns::fixer::Fixer;
use crate::lns::graph::VarGraph;
use crate::var::VarId;

pub(super) fn fix(fixer: &mut Fixer<'_, '_>, graph: &VarGraph, terms: &[(i64, VarId)], rng: &mut ChaCha8Rng) {
    if terms.is_empty() {
        return random::fix(fixer, rng);
    }
    let mut worst: Vec<(i128, VarId)> = terms
        .iter()
        .map(|&(w, v)| (i128::from(w) * i128::from(fixer.incumbent(v)), v))
        .collect();
    worst.sort_unstable_by_key(|&(contribution, _)| std::cmp::Reverse(contribution));
    let wanted = (fixer.target() / 3).max(1);
    let pool = &worst[..(2 * wanted).min(worst.len())];
    let mut seeds: Vec<VarId> = Vec::with_capacity(wanted);
    for _ in 0..wanted {
        // Biased to the worst: the smaller of two draws.
        let i = rng
            .random_range(0..pool.len())
            .min(rng.random_range(0..pool.len()));
        if !seeds.contains(&pool[i].1) {
            seeds.push(pool[i].1);
        }
    }
    reverse_propagation_guided::fix(fixer, graph, &seeds, rng);
}
