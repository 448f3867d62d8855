//! Reverse propagation-guided neighbourhoods (Perron, Shaw and Furnon, CP 2004): the free
//! set is grown first, from a random decision variable (or the given seeds), each next
//! variable the one closest to the set so far (the closeness of its edges to the set,
//! summed, as the propagation-guided kind learnt it; at least one per edge, so that the
//! constraint graph guides before anything is learnt), a little noise breaking ties.
//! Auxiliary variables join the set as bridges but do not count. Every decision variable
//! outside the set is then fixed, in a random order.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::lns::fixer::Fixer;
use crate::lns::graph::VarGraph;
use crate::var::VarId;

/// A frontier variable and its closeness to the set when it was pushed (with noise).
#[derive(PartialEq)]
struct Candidate(f32, VarId);

impl Eq for Candidate {}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0).then(other.1.0.cmp(&self.1.0))
    }
}

/// The set grown so far.
struct FreeSet {
    in_set: Vec<bool>,
    score: Vec<f32>,
    frontier: BinaryHeap<Candidate>,
    members: Vec<VarId>,
    counted: usize,
}

impl FreeSet {
    fn add(&mut self, v: VarId, fixer: &Fixer<'_, '_>, graph: &VarGraph, rng: &mut ChaCha8Rng) {
        if std::mem::replace(&mut self.in_set[v.index()], true) {
            return;
        }
        self.members.push(v);
        self.counted += usize::from(fixer.is_decision(v));
        for (w, closeness) in graph.neighbours(v) {
            if !self.in_set[w.index()] {
                let score = &mut self.score[w.index()];
                *score += 1.0 + closeness;
                let noisy = *score * (1.0 + 0.25 * rng.random::<f32>());
                self.frontier.push(Candidate(noisy, w));
            }
        }
    }
}

pub(super) fn fix(fixer: &mut Fixer<'_, '_>, graph: &VarGraph, seeds: &[VarId], rng: &mut ChaCha8Rng) {
    let decision = fixer.decision();
    if decision.is_empty() {
        return;
    }
    let n = fixer.num_vars();
    let mut set = FreeSet {
        in_set: vec![false; n],
        score: vec![0.0; n],
        frontier: BinaryHeap::new(),
        members: Vec::new(),
        counted: 0,
    };
    for &s in seeds {
        set.add(s, fixer, graph, rng);
    }
    let target = fixer.target().min(decision.len());
    let mut jumps = 0;
    while set.counted < target {
        let next = match set.frontier.pop() {
            Some(Candidate(_, v)) if set.in_set[v.index()] => continue,
            Some(Candidate(_, v)) => v,
            None => {
                // A component exhausted (or nothing yet): a random decision variable.
                jumps += 1;
                if jumps > 4 * decision.len() {
                    break;
                }
                decision[rng.random_range(0..decision.len())]
            }
        };
        set.add(next, fixer, graph, rng);
    }
    let mut rest: Vec<VarId> = decision
        .iter()
        .copied()
        .filter(|v| !set.in_set[v.index()])
        .collect();
    rest.shuffle(rng);
    for v in rest {
        fixer.fix(v);
    }
}
