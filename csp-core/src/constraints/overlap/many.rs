//! Many links between all-different constraints as one propagator.

use std::cell::RefCell;
use std::collections::BTreeSet;

use smallvec::SmallVec;

use crate::propagation::{Conflict, Event, Priority, PropagationContext, Propagator};
use crate::var::VarId;

use super::all_distinct;
use super::pair::PermutationOverlap;

/// Many [`PermutationOverlap`]s run as one propagator, for models that link many pairs
/// of all-different constraints (a Sudoku box with every row and column it crosses).
///
/// Woken once for any change instead of once per pair, it reads each variable of a shared
/// part once per run. Each side `A` of a pair (`A \ S` plus `S`) is split into disjoint
/// groups of variables: shared parts of pairs where possible (a box is its row segments,
/// or its column segments), single variables for the rest. Many pairs share a split, and
/// from the values held by at least two of its groups a pair's test needs no union of its
/// own: a value of `S` is in `A \ S` exactly when two groups of `A` hold it. The pruning is
/// exactly that of the pairs on their own.
#[derive(Clone, Debug)]
pub struct PermutationOverlaps {
    pairs: Vec<PermutationOverlap>,
    /// Every variable of every pair, once.
    vars: Vec<VarId>,
    /// The variables of every group, one group after another: the distinct shared parts of
    /// the pairs, then single variables no shared part of their split covers.
    group_vars: Vec<VarId>,
    /// Group `j` is `group_vars[group_start[j]..group_start[j + 1]]`.
    group_start: Vec<u32>,
    /// The groups of every distinct split, one split after another.
    split_groups: Vec<u32>,
    /// Split `k` is `split_groups[split_start[k]..split_start[k + 1]]`.
    split_start: Vec<u32>,
    /// Per split: its number of variables, the values a permutation over them uses.
    split_size: Vec<u32>,
    /// Per pair: its shared part (a group) and the splits of its sides `A` and `B`.
    sides: Vec<PairSides>,
    /// The distinct all-different scopes of the pairs, as positions in `vars`.
    scopes: Vec<Vec<u32>>,
    /// Every group has this many variables and every split this many groups (a Sudoku
    /// of order `n`: segments of `n` cells, boxes and lines in `n` segments), when so.
    shape: Option<(usize, usize)>,
    /// Every scope's all-different is posted in the model too (see
    /// [`PermutationOverlaps::implied`]).
    implied: bool,
}

#[derive(Clone, Copy, Debug)]
struct PairSides {
    shared: u32,
    a: u32,
    b: u32,
}

thread_local! {
    /// The scratch of [`PermutationOverlaps::pairs_to_prune`], grown once per thread: a
    /// buffer per call costs more than the scan on 9x9 (a large `SmallVec` is copied when
    /// built, a stack array is zeroed whole).
    static SCRATCH: RefCell<(Vec<u64>, Vec<SplitCounts>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// What one run needs of a split: the values at least two groups hold, and those values
/// again when the side is a permutation (it holds exactly as many values as variables),
/// else none.
#[derive(Clone, Copy, Debug, Default)]
struct SplitCounts {
    twice: u64,
    locking: u64,
}

impl SplitCounts {
    /// The counts of a split with groups `groups` (their unions in `unions`) covering
    /// `size` variables.
    #[inline(always)]
    fn of(groups: &[u32], unions: &[u64], size: u32) -> SplitCounts {
        let (mut once, mut twice) = (0u64, 0u64);
        for &j in groups {
            let part = unions[j as usize];
            twice |= once & part;
            once |= part;
        }
        let locking = if once.count_ones() == size { !twice } else { 0 };
        SplitCounts { twice, locking }
    }
}

impl PermutationOverlaps {
    /// The overlaps of the given pairs of all-different scopes; pairs with nothing to
    /// infer (see [`PermutationOverlap::new`]) are left out. `None` if none is left.
    pub fn new<'a>(
        pairs: impl IntoIterator<Item = (&'a [VarId], &'a [VarId])>,
    ) -> Option<PermutationOverlaps> {
        let pairs: Vec<PermutationOverlap> = pairs
            .into_iter()
            .filter_map(|(a, b)| PermutationOverlap::new(a, b))
            .collect();
        if pairs.is_empty() {
            return None;
        }
        let mut groups: Vec<Vec<VarId>> = Vec::new();
        let mut shared_of = Vec::with_capacity(pairs.len());
        for p in &pairs {
            let (_, s, _) = p.parts();
            let mut seg = p.vars[s].to_vec();
            seg.sort_unstable();
            let index = match groups.iter().position(|x| *x == seg) {
                Some(i) => i,
                None => {
                    groups.push(seg);
                    groups.len() - 1
                }
            };
            shared_of.push(index as u32);
        }
        let segments = groups.len();
        // Per variable: the last side that has it in its rest, and the last that covered
        // it with a shared part (sides are numbered from 1), and its single group if any.
        let slots = pairs
            .iter()
            .flat_map(|p| &p.vars)
            .map(|v| v.index() + 1)
            .max()
            .unwrap_or(0);
        let (mut member_of, mut covered_by) = (vec![0u32; slots], vec![0u32; slots]);
        let mut single_group = vec![u32::MAX; slots];
        let mut side = 0u32;
        // A side as its shared part, the shared parts inside the rest, and single
        // variables for what is left (their groups are added as they come).
        let mut split_side = |shared: u32, rest: &[VarId]| -> Vec<u32> {
            side += 1;
            for v in rest {
                member_of[v.index()] = side;
            }
            let mut split = vec![shared];
            for (j, seg) in groups[..segments].iter().enumerate() {
                if seg
                    .iter()
                    .all(|v| member_of[v.index()] == side && covered_by[v.index()] != side)
                {
                    for v in seg {
                        covered_by[v.index()] = side;
                    }
                    split.push(j as u32);
                }
            }
            for &v in rest.iter().filter(|v| covered_by[v.index()] != side) {
                if single_group[v.index()] == u32::MAX {
                    single_group[v.index()] = groups.len() as u32;
                    groups.push(vec![v]);
                }
                split.push(single_group[v.index()]);
            }
            split.sort_unstable();
            split
        };
        let mut splits: Vec<Vec<u32>> = Vec::new();
        let mut sides = Vec::with_capacity(pairs.len());
        for (p, &shared) in pairs.iter().zip(&shared_of) {
            let (a, _, b) = p.parts();
            let mut index = |split: Vec<u32>| -> u32 {
                let k = splits.iter().position(|x| *x == split).unwrap_or_else(|| {
                    splits.push(split);
                    splits.len() - 1
                });
                k as u32
            };
            let a = index(split_side(shared, &p.vars[a]));
            let b = index(split_side(shared, &p.vars[b]));
            sides.push(PairSides { shared, a, b });
        }
        let vars: Vec<VarId> = pairs
            .iter()
            .flat_map(|p| p.vars.iter().copied())
            .collect::<BTreeSet<VarId>>()
            .into_iter()
            .collect();
        let position = |v: &VarId| vars.binary_search(v).expect("a variable of some pair") as u32;
        let mut scopes: BTreeSet<Vec<u32>> = BTreeSet::new();
        for p in &pairs {
            let (a, s, b) = p.parts();
            for scope in [&p.vars[a.start..s.end], &p.vars[s.start..b.end]] {
                let mut local: Vec<u32> = scope.iter().map(position).collect();
                local.sort_unstable();
                scopes.insert(local);
            }
        }
        // Running totals: the start of each list, then the end of the last.
        let starts = |lens: &mut dyn Iterator<Item = usize>| -> Vec<u32> {
            let mut start = vec![0u32];
            for len in lens {
                start.push(start[start.len() - 1] + len as u32);
            }
            start
        };
        let shape = same_len(&groups).zip(same_len(&splits));
        let split_size = splits
            .iter()
            .map(|split| split.iter().map(|&j| groups[j as usize].len() as u32).sum())
            .collect();
        Some(PermutationOverlaps {
            pairs,
            vars,
            group_start: starts(&mut groups.iter().map(Vec::len)),
            group_vars: groups.concat(),
            split_start: starts(&mut splits.iter().map(Vec::len)),
            split_groups: splits.concat(),
            split_size,
            sides,
            scopes: scopes.into_iter().collect(),
            shape,
            implied: false,
        })
    }

    /// Declares that the model posts every pair's all-different constraints itself, so
    /// that a complete assignment the search reaches satisfies this one already: the
    /// engine then skips its check, a pass over every variable at every solution.
    /// ([`crate::Model::link_all_different_pairs`] declares it when it is so.)
    ///
    /// Trusted, not verified: declared on a model without those constraints, the search
    /// may report assignments that break them.
    pub fn implied(mut self) -> Self {
        self.implied = true;
        self
    }

    /// Number of linked pairs.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether no pair is linked (never, for a value from [`PermutationOverlaps::new`]).
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// On the uniform word layout: sets `found` to the pairs whose locked values are still
    /// present on the other side, in order. `false` (and `found` untouched) when the
    /// domains are not on that layout.
    ///
    /// For a pair with shared part `S`, this is the test of [`PermutationOverlap::locked`]
    /// on sides `A` and `B`: a value of `S` is outside `A \ S` when fewer than two groups
    /// of `A` hold it, and inside `B \ S` when two groups of `B` do.
    fn pairs_to_prune(&self, ctx: &PropagationContext<'_>, found: &mut SmallVec<[u32; 64]>) -> bool {
        let Some((words, _)) = ctx.uniform_words() else {
            return false;
        };
        SCRATCH.with_borrow_mut(|(unions, counts)| {
            unions.resize(self.group_start.len() - 1, 0);
            counts.resize(self.split_size.len(), SplitCounts::default());
            match self.shape {
                Some((2, 2)) => self.scan_shaped::<2, 2>(words, unions, counts),
                Some((3, 3)) => self.scan_shaped::<3, 3>(words, unions, counts),
                Some((4, 4)) => self.scan_shaped::<4, 4>(words, unions, counts),
                Some((5, 5)) => self.scan_shaped::<5, 5>(words, unions, counts),
                _ => self.scan_any(words, unions, counts),
            }
            self.pairs_locked(unions, counts, found);
        });
        true
    }

    /// The union of each group and the counts of each split (the scratch of
    /// [`PermutationOverlaps::pairs_to_prune`]), for groups and splits of any size.
    fn scan_any(&self, words: &[u64], unions: &mut [u64], counts: &mut [SplitCounts]) {
        // Filled through plain slices: pushing one by one costs more than the unions
        // themselves.
        for (union, w) in unions.iter_mut().zip(self.group_start.windows(2)) {
            *union = self.group_vars[w[0] as usize..w[1] as usize]
                .iter()
                .fold(0, |acc, v| acc | words[v.index()]);
        }
        for ((count, w), &size) in counts
            .iter_mut()
            .zip(self.split_start.windows(2))
            .zip(&self.split_size)
        {
            *count = SplitCounts::of(&self.split_groups[w[0] as usize..w[1] as usize], unions, size);
        }
    }

    /// [`PermutationOverlaps::scan_any`] when every group has `G` variables and every
    /// split `K` groups: fixed-size chunks, unrolled, instead of ranges read per group.
    fn scan_shaped<const G: usize, const K: usize>(
        &self,
        words: &[u64],
        unions: &mut [u64],
        counts: &mut [SplitCounts],
    ) {
        for (union, group) in unions.iter_mut().zip(self.group_vars.chunks_exact(G)) {
            *union = group.iter().fold(0, |acc, v| acc | words[v.index()]);
        }
        for ((count, split), &size) in counts
            .iter_mut()
            .zip(self.split_groups.chunks_exact(K))
            .zip(&self.split_size)
        {
            *count = SplitCounts::of(split, unions, size);
        }
    }

    /// Sets `found` to the pairs whose locked values are still on the other side, from
    /// the unions and counts of a scan.
    fn pairs_locked(&self, unions: &[u64], counts: &[SplitCounts], found: &mut SmallVec<[u32; 64]>) {
        found.clear();
        for (i, sides) in self.sides.iter().enumerate() {
            let (a, b) = (counts[sides.a as usize], counts[sides.b as usize]);
            let locked = a.locking & b.twice | b.locking & a.twice;
            if unions[sides.shared as usize] & locked != 0 {
                found.push(i as u32);
            }
        }
    }

    /// Every pair with its own code, until a round changes nothing.
    fn propagate_pairs(&self, ctx: &mut PropagationContext<'_>, event: Event) -> Result<(), Conflict> {
        let total =
            |ctx: &PropagationContext<'_>| self.vars.iter().map(|&v| u64::from(ctx.size(v))).sum::<u64>();
        loop {
            let before = total(ctx);
            for pair in &self.pairs {
                pair.propagate(ctx, event)?;
            }
            if total(ctx) == before {
                return Ok(());
            }
        }
    }
}

impl Propagator for PermutationOverlaps {
    fn variables(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[i32]) -> bool {
        // Both all-different constraints of every pair, each distinct one checked once.
        self.scopes
            .iter()
            .all(|scope| all_distinct(scope.iter().map(|&i| values[i as usize])))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, event: Event) -> Result<(), Conflict> {
        // Most runs find nothing locked. The pairs that prune do so with their own code
        // (each reads the domains the ones before it left), then the unions are read
        // again: their pruning may enable other pairs.
        let mut found = SmallVec::new();
        if !self.pairs_to_prune(ctx, &mut found) {
            return self.propagate_pairs(ctx, event);
        }
        while !found.is_empty() {
            for &i in &found {
                self.pairs[i as usize].propagate(ctx, event)?;
            }
            self.pairs_to_prune(ctx, &mut found);
        }
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn priority(&self) -> Priority {
        Priority::Slow
    }

    fn prunes_exactly(&self) -> bool {
        self.implied
    }

    fn name(&self) -> &str {
        "permutation-overlaps"
    }
}

/// The length of every list, when they all have the same one.
fn same_len<T>(lists: &[Vec<T>]) -> Option<usize> {
    let first = lists.first()?.len();
    lists.iter().all(|list| list.len() == first).then_some(first)
}
