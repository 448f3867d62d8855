//! Reasoning between two overlapping permutation constraints.
//!
//! Two all-different constraints `A` and `B` share the variables `S`. When `A` is a
//! permutation (its variables have exactly as many values between them as there are
//! variables, so every value must be used), a value that `A` can place only inside `S`
//! will be taken inside `S`, so no variable of `B` outside `S` can take it. The same
//! holds the other way round. In Sudoku this is "pointing" and "box-line reduction"
//! (locked candidates); the propagator itself knows nothing about Sudoku.

use std::cell::RefCell;
use std::collections::BTreeSet;

use smallvec::SmallVec;

use crate::propagation::{Conflict, Event, Priority, PropagationContext, Propagator};
use crate::var::VarId;

/// A set of variables as a sorted list: built and searched without the allocations of
/// a tree, for the scopes (a few dozen variables) the constructors compare.
struct SortedVars(Vec<VarId>);

impl SortedVars {
    fn of(vars: &[VarId]) -> SortedVars {
        let mut sorted = vars.to_vec();
        sorted.sort_unstable();
        SortedVars(sorted)
    }

    fn contains(&self, var: &VarId) -> bool {
        self.0.binary_search(var).is_ok()
    }
}

/// The implied constraint between two all-different constraints sharing variables.
///
/// Its [`Propagator::check`] is the conjunction of both all-different constraints, so it
/// is sound on its own; posted next to them it only adds pruning.
#[derive(Clone, Debug)]
pub struct PermutationOverlap {
    /// `A \ S`, then `S`, then `B \ S`.
    vars: Vec<VarId>,
    a_only: usize,
    shared: usize,
    /// Both all-different constraints are posted in the model too (see
    /// [`PermutationOverlap::implied`]).
    implied: bool,
}

impl PermutationOverlap {
    /// The overlap of all-different constraints over `a` and `b`; `None` if they share
    /// no variable or one contains the other (nothing to infer then).
    pub fn new(a: &[VarId], b: &[VarId]) -> Option<PermutationOverlap> {
        let in_b = SortedVars::of(b);
        let shared: Vec<VarId> = a.iter().copied().filter(|v| in_b.contains(v)).collect();
        if shared.is_empty() {
            return None;
        }
        let in_a = SortedVars::of(a);
        let a_only: Vec<VarId> = a.iter().copied().filter(|v| !in_b.contains(v)).collect();
        let b_only: Vec<VarId> = b.iter().copied().filter(|v| !in_a.contains(v)).collect();
        if a_only.is_empty() || b_only.is_empty() {
            return None;
        }
        let (na, ns) = (a_only.len(), shared.len());
        let vars = a_only.into_iter().chain(shared).chain(b_only).collect();
        Some(PermutationOverlap {
            vars,
            a_only: na,
            shared: ns,
            implied: false,
        })
    }

    /// Declares that the model posts both all-different constraints itself, so that a
    /// complete assignment the search reaches satisfies this one already: the engine then
    /// skips its check. ([`crate::Model::link_all_different`] declares it when it is so.)
    ///
    /// Trusted, not verified: declared on a model without both constraints, the search may
    /// report assignments that break them.
    pub fn implied(mut self) -> Self {
        self.implied = true;
        self
    }

    fn parts(
        &self,
    ) -> (
        std::ops::Range<usize>,
        std::ops::Range<usize>,
        std::ops::Range<usize>,
    ) {
        let (a, s) = (self.a_only, self.a_only + self.shared);
        (0..a, a..s, s..self.vars.len())
    }

    /// The unions of the domains of `A \ S`, `S` and `B \ S`, when every domain is one
    /// word at one base; `None` otherwise.
    fn word_unions(&self, ctx: &PropagationContext<'_>) -> Option<[u64; 3]> {
        let (a, s, b) = self.parts();
        let mut unions = [0u64; 3];
        if let Some((words, _)) = ctx.uniform_words() {
            // Every domain is the word at its variable's index, all at one base.
            for (union, range) in unions.iter_mut().zip([a, s, b]) {
                *union = self.vars[range].iter().fold(0, |acc, v| acc | words[v.index()]);
            }
            return Some(unions);
        }
        let base = ctx.base(self.vars[0]);
        for (union, range) in unions.iter_mut().zip([a, s, b]) {
            for &v in &self.vars[range] {
                match ctx.bits(v) {
                    [word] if ctx.base(v) == base => *union |= word,
                    _ => return None,
                }
            }
        }
        Some(unions)
    }

    /// The values to remove, from the unions of `A \ S`, `S` and `B \ S`: when a side is
    /// a permutation, the values only its shared part holds leave the other side's own
    /// part. Returns `[from B \ S, from A \ S]` (bits that may already be absent).
    fn locked(&self, [ua, us, ub]: [u64; 3]) -> [u64; 2] {
        let (size_a, size_b) = (
            (self.a_only + self.shared) as u32,
            (self.vars.len() - self.a_only) as u32,
        );
        let from_b = if (ua | us).count_ones() == size_a {
            us & !ua
        } else {
            0
        };
        let from_a = if (ub | us).count_ones() == size_b {
            us & !ub
        } else {
            0
        };
        [from_b, from_a]
    }

    /// The bit-parallel pass for plain one-word domains at one base; `None` if they are not.
    fn propagate_words(&self, ctx: &mut PropagationContext<'_>) -> Option<Result<(), Conflict>> {
        let [mut ua, us, mut ub] = self.word_unions(ctx)?;
        // Taking values from every view of a part takes them from its union, so the
        // fixpoint is found on the unions alone, and each view is written once after.
        let (mut gone_a, mut gone_b) = (0u64, 0u64);
        loop {
            let [from_b, from_a] = self.locked([ua, us, ub]);
            let (from_b, from_a) = (from_b & ub, from_a & ua);
            // Most calls find nothing locked.
            if from_b | from_a == 0 {
                break;
            }
            (ub, ua) = (ub & !from_b, ua & !from_a);
            (gone_b, gone_a) = (gone_b | from_b, gone_a | from_a);
        }
        let (a, _, b) = self.parts();
        let uniform = ctx.uniform_words().is_some();
        for (range, gone) in [(a, gone_a), (b, gone_b)] {
            for &v in self.vars[range].iter().filter(|_| gone != 0) {
                let word = ctx.bits(v)[0];
                let kept = if word & gone == 0 {
                    Ok(false)
                } else if uniform {
                    ctx.retain_word(v, !gone)
                } else {
                    ctx.retain_bits(v, &[word & !gone])
                };
                if let Err(conflict) = kept {
                    return Some(Err(conflict));
                }
            }
        }
        Some(Ok(()))
    }

    /// The same reasoning value by value, for any domains.
    fn propagate_values(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let (a, s, b) = self.parts();
        loop {
            let values = |ctx: &PropagationContext<'_>, r: std::ops::Range<usize>| -> BTreeSet<i32> {
                self.vars[r].iter().flat_map(|&v| ctx.values(v)).collect()
            };
            let (va, vs, vb) = (
                values(ctx, a.clone()),
                values(ctx, s.clone()),
                values(ctx, b.clone()),
            );
            let mut changed = false;
            for (own, other_part, size) in [
                (&va, b.clone(), a.len() + s.len()),
                (&vb, a.clone(), s.len() + b.len()),
            ] {
                if own.union(&vs).count() != size {
                    continue;
                }
                for &value in vs.difference(own) {
                    for &v in &self.vars[other_part.clone()] {
                        changed |= ctx.remove(v, value)?;
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

impl Propagator for PermutationOverlap {
    fn variables(&self) -> &[VarId] {
        &self.vars
    }

    fn check(&self, values: &[i32]) -> bool {
        let (a, s, b) = self.parts();
        all_distinct(values[a.start..s.end].iter().copied())
            && all_distinct(values[s].iter().chain(&values[b]).copied())
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>, _event: Event) -> Result<(), Conflict> {
        match self.propagate_words(ctx) {
            Some(result) => result,
            None => self.propagate_values(ctx),
        }
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
        "permutation-overlap"
    }
}

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

/// Whether the values are pairwise distinct: one bit mask when they lie within 64 of each
/// other (every Sudoku up to 64x64), a sort otherwise. Checked on every solution, so it
/// allocates nothing in the common case.
fn all_distinct(values: impl Iterator<Item = i32> + Clone) -> bool {
    let (low, high) = values
        .clone()
        .fold((i32::MAX, i32::MIN), |(low, high), v| (low.min(v), high.max(v)));
    if low > high {
        return true;
    }
    if i64::from(high) - i64::from(low) < 64 {
        let mut seen = 0u64;
        for v in values {
            let bit = 1u64 << (v - low);
            if seen & bit != 0 {
                return false;
            }
            seen |= bit;
        }
        return true;
    }
    let mut sorted: Vec<i32> = values.collect();
    sorted.sort_unstable();
    sorted.windows(2).all(|w| w[0] != w[1])
}

#[cfg(test)]
mod tests {
    use super::all_distinct;

    #[test]
    fn all_distinct_by_mask_and_by_sort() {
        let cases: [(&[i32], bool); 8] = [
            (&[], true),
            (&[7], true),
            (&[1, 2, 3, 9], true),
            (&[1, 2, 3, 2], false),
            (&[-5, 58, 0], true),          // a span of 63: the mask
            (&[-5, 59, 0, 59], false),     // a span of 64: the sort
            (&[i32::MIN, i32::MAX], true), // no overflow in the span
            (&[i32::MAX, 0, i32::MAX], false),
        ];
        for (values, expected) in cases {
            assert_eq!(all_distinct(values.iter().copied()), expected, "{values:?}");
        }
    }
}
