//! The variables' neighbourhood graph for LNS: two variables are adjacent when a
//! constraint holds both, and each edge has a closeness that propagation-guided
//! neighbourhoods learn (how much fixing one variable reduced the other's domain, summed).
//! Reverse propagation-guided and objective-guided neighbourhoods grow their free set along
//! the closest edges.
//!
//! A constraint over many variables (a sum, an all-different) would make a clique of
//! quadratic size: past [`CLIQUE`] variables, each of them gets [`SAMPLED`] neighbours
//! drawn from the scope instead, and no variable keeps more than [`MAX_DEGREE`].

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::model::Model;
use crate::var::VarId;

/// The largest scope made a clique.
const CLIQUE: usize = 16;
/// The neighbours each variable of a larger scope gets.
const SAMPLED: usize = 6;
/// The most neighbours a variable keeps.
const MAX_DEGREE: usize = 128;

/// Adjacency in compressed rows, with a closeness per edge.
pub(super) struct VarGraph {
    start: Vec<u32>,
    other: Vec<u32>,
    closeness: Vec<f32>,
}

impl VarGraph {
    /// The graph of `model`'s constraints (`seed` draws the samples of large scopes).
    pub(super) fn of(model: &Model, seed: u64) -> VarGraph {
        let n = model.num_vars();
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
        let mut edges: Vec<(u32, u32)> = Vec::new();
        for (&(x, y), _) in model.pairs().iter() {
            edges.push((x.0, y.0));
            edges.push((y.0, x.0));
        }
        for p in model.propagators() {
            let scope = p.variables();
            if scope.len() <= CLIQUE {
                for &a in scope {
                    edges.extend(scope.iter().filter(|&&b| b != a).map(|&b| (a.0, b.0)));
                }
            } else {
                for &a in scope {
                    for _ in 0..SAMPLED {
                        let b = scope[rng.random_range(0..scope.len())];
                        if b != a {
                            edges.push((a.0, b.0));
                            edges.push((b.0, a.0));
                        }
                    }
                }
            }
        }
        edges.sort_unstable();
        edges.dedup();
        let mut start = Vec::with_capacity(n + 1);
        let mut other = Vec::with_capacity(edges.len().min(n * MAX_DEGREE));
        let mut row = Vec::new();
        let mut at = 0;
        for v in 0..n as u32 {
            start.push(other.len() as u32);
            row.clear();
            while at < edges.len() && edges[at].0 == v {
                row.push(edges[at].1);
                at += 1;
            }
            if row.len() > MAX_DEGREE {
                row.shuffle(&mut rng);
                row.truncate(MAX_DEGREE);
            }
            other.extend_from_slice(&row);
        }
        start.push(other.len() as u32);
        let closeness = vec![0.0; other.len()];
        VarGraph {
            start,
            other,
            closeness,
        }
    }

    fn row(&self, v: VarId) -> std::ops::Range<usize> {
        self.start[v.index()] as usize..self.start[v.index() + 1] as usize
    }

    /// `v`'s neighbours, each with the closeness of the edge to it.
    pub(super) fn neighbours(&self, v: VarId) -> impl Iterator<Item = (VarId, f32)> + '_ {
        let row = self.row(v);
        self.other[row.clone()]
            .iter()
            .zip(&self.closeness[row])
            .map(|(&w, &c)| (VarId(w), c))
    }

    /// Fixing `from` took this share of `to`'s values: the edge between them, if there is
    /// one, gets closer.
    pub(super) fn strengthen(&mut self, from: VarId, to: VarId, by: f32) {
        let row = self.row(from);
        if let Some(i) = self.other[row.clone()].iter().position(|&w| w == to.0) {
            self.closeness[row.start + i] += by;
        }
    }
}
