//! Propagation-guided neighbourhoods (Perron, Shaw and Furnon, CP 2004): the first
//! variable fixed is random; each next one is the free variable the fixings so far reduced
//! most (the share of its domain they took, summed), or a random one when they reduced
//! none. Variables that propagation ties to the fixed ones end up fixed; those left free
//! are the loosely tied ones, a neighbourhood where the search has room. What each fixing
//! reduced also makes the graph's edges closer, for the reverse kind.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::lns::fixer::Fixer;
use crate::lns::graph::VarGraph;
use crate::var::VarId;

/// The most candidates kept (the most reduced ones stay).
const MAX_CANDIDATES: usize = 256;

pub(super) fn fix(fixer: &mut Fixer<'_, '_>, graph: &mut VarGraph, rng: &mut ChaCha8Rng) {
    let mut order = fixer.decision().to_vec();
    order.shuffle(rng);
    let mut random = order.into_iter();
    let mut candidates: Vec<(VarId, f32)> = Vec::new();
    while !fixer.done() {
        candidates.retain(|&(v, _)| fixer.is_free(v));
        let next = match best(&candidates) {
            Some(i) => candidates.swap_remove(i).0,
            None => match random.by_ref().find(|&v| fixer.is_free(v)) {
                Some(v) => v,
                None => break,
            },
        };
        if !fixer.fix(next) {
            continue;
        }
        for &(v, share) in fixer.touched() {
            graph.strengthen(next, v, share);
            graph.strengthen(v, next, share);
            match candidates.iter_mut().find(|(w, _)| *w == v) {
                Some((_, score)) => *score += share,
                None => candidates.push((v, share)),
            }
        }
        if candidates.len() > MAX_CANDIDATES {
            candidates.sort_unstable_by(|a, b| b.1.total_cmp(&a.1));
            candidates.truncate(MAX_CANDIDATES);
        }
    }
}

/// The most reduced candidate.
fn best(candidates: &[(VarId, f32)]) -> Option<usize> {
    (0..candidates.len()).max_by(|&a, &b| candidates[a].1.total_cmp(&candidates[b].1))
}
