//! Each variable's neighbours as a bitset, for the compiled forward-checking search.

use super::arcs::Adjacent;
use super::rows::Rows;

/// Each variable's neighbours as a bitset over the variables, with where each word's
/// neighbours start in the variable's rows (`adjacency`, `fc`): forward checking ANDs a
/// set with the unassigned variables and visits just those neighbours, in row order.
pub(crate) struct NeighbourSets {
    /// Words per set.
    words: usize,
    masks: Vec<u64>,
    /// Per variable and word: the variable's neighbours in the earlier words.
    ranks: Vec<u32>,
}

impl NeighbourSets {
    /// The most variables the sets are built for: 2 MiB of masks.
    const MAX_VARS: usize = 4096;

    /// The sets of the rows, if they are sorted by neighbour (as pairs are) and few
    /// enough.
    pub(super) fn build(adjacency: &Rows<Adjacent>) -> Option<NeighbourSets> {
        let n = adjacency.num_rows();
        let rows = || (0..n).map(|v| adjacency.row(v));
        let sorted = rows().all(|row| row.windows(2).all(|w| w[0].other < w[1].other));
        if n > Self::MAX_VARS || !sorted {
            return None;
        }
        let words = n.div_ceil(64).max(1);
        let mut masks = vec![0u64; n * words];
        let mut ranks = vec![0u32; n * words];
        let sets = masks.chunks_exact_mut(words).zip(ranks.chunks_exact_mut(words));
        for (row, (set, rank)) in rows().zip(sets) {
            for adj in row {
                let other = adj.other.index();
                set[other / 64] |= 1 << (other % 64);
            }
            let mut before = 0;
            for (word, rank) in set.iter().zip(rank) {
                *rank = before;
                before += word.count_ones();
            }
        }
        Some(NeighbourSets { words, masks, ranks })
    }

    /// Words per set: enough for one bit per variable.
    pub(crate) fn words(&self) -> usize {
        self.words
    }

    /// `var`'s neighbour set and the ranks of its words.
    #[inline(always)]
    pub(crate) fn of(&self, var: usize) -> (&[u64], &[u32]) {
        let at = var * self.words..(var + 1) * self.words;
        (&self.masks[at.clone()], &self.ranks[at])
    }
}
