//! The compiled constraint network: directed arcs with their revision fast paths,
//! adjacency in compressed rows, and the watch lists of n-ary propagators.
//!
//! Built once per model (and shared by every solver of that model), so that
//! search touches only flat arrays.

use smallvec::SmallVec;

use crate::model::{Model, VarId};
use crate::propagator::{Priority, Wake};
use crate::relation::Oriented;
use crate::store::Store;

/// How one directed arc `x -> y` revises `x` against `y`.
#[derive(Clone)]
pub(crate) enum ArcKind {
    /// Value `b` of `y` excludes the values `b + o` of `x`, for every offset `o`.
    /// Covers `!=`, `x != y + c`, `|x - y| != c` and their conjunctions.
    Exclude(Exclusions),
    /// `x == y + c`.
    Equal(i64),
    /// `x <= y + c`.
    LessEq(i32),
    /// `x >= y + c`.
    GreaterEq(i32),
    /// Explicit supports: for each value `a` of `x` (from `x_base`), the bit words of
    /// the supporting values of `y` in `y`'s domain layout.
    Table {
        x_base: i32,
        x_span: usize,
        y_base: i32,
        y_words: usize,
        supports: Box<[u64]>,
    },
    /// Any other conjunction: tested pair by pair.
    General(Box<[Oriented]>),
}

/// The offsets of an exclusion arc, and the same offsets as a bit pattern so that
/// forward checking on a one-word domain clears them with one shift.
#[derive(Clone)]
pub(crate) struct Exclusions {
    offsets: SmallVec<[i64; 4]>,
    /// Bit `o + 64` for each offset `o`, when every offset lies in `-64..64`.
    pattern: Option<u128>,
}

impl Exclusions {
    fn new(mut offsets: SmallVec<[i64; 4]>) -> Self {
        offsets.sort_unstable();
        offsets.dedup();
        let pattern = offsets
            .iter()
            .try_fold(0u128, |p, &o| (-64..64).contains(&o).then(|| p | 1 << (o + 64)));
        Exclusions { offsets, pattern }
    }

    /// Removes the values `center + o` of `x`; returns how many were present.
    #[inline]
    fn remove_from(&self, x: VarId, center: i32, store: &mut Store) -> u32 {
        store.remove_around(x, center, &self.offsets, self.pattern)
    }
}

/// A directed arc: revise `x` against `y`. Arcs `2k` and `2k + 1` are each other's reverse.
pub(crate) struct Arc {
    pub(crate) x: VarId,
    pub(crate) y: VarId,
    pub(crate) kind: ArcKind,
}

/// One neighbour of a variable through binary constraints.
#[derive(Clone, Copy)]
pub(crate) struct Adjacent {
    pub(crate) other: VarId,
    /// The arc `var -> other` (revise `var` against `other`).
    pub(crate) out_arc: u32,
    /// The arc `other -> var` (revise `other` against `var`).
    pub(crate) in_arc: u32,
    /// Revising `in_arc` can remove values only while `var` has at most this many
    /// (an exclusion arc with `k` offsets needs `|D(var)| <= k`); so a change that
    /// leaves more need not schedule it.
    pub(crate) in_arc_prunes_at: u32,
}

/// Forward checking from a variable to one neighbour, with the common case compiled:
/// an exclusion arc into a one-word domain clears a shifted bit pattern from one word.
#[derive(Clone, Copy)]
pub(crate) struct FcStep {
    pub(crate) other: VarId,
    /// The arc `other -> var`, revised by the general path and blamed on a wipe-out.
    pub(crate) in_arc: u32,
    /// `other`'s only domain word, or [`FcStep::GENERAL`] for the general path.
    pub(crate) word: u32,
    /// The value that bit 0 of `other`'s word stands for.
    base: i32,
    /// The number of excluded offsets: the support checks a step stands for.
    pub(crate) checks: u32,
    /// Bit `o + 64` for each excluded offset `o`, as (low, high) words; u128 would
    /// double the step's size by its alignment.
    pattern: [u64; 2],
}

impl FcStep {
    pub(crate) const GENERAL: u32 = u32::MAX;

    /// The bits of `other`'s word that `var = value` excludes, if the compiled path
    /// applies to this value.
    #[inline]
    pub(crate) fn cleared_by(&self, value: i32) -> Option<u64> {
        let rel = i64::from(value) - i64::from(self.base);
        if self.word == Self::GENERAL || !(0..64).contains(&rel) {
            return None;
        }
        Some(self.cleared_at(rel))
    }

    /// The bits of `other`'s word that the value at bit `rel` (in `0..64`) of the same
    /// layout excludes, for a compiled step.
    #[inline(always)]
    pub(crate) fn cleared_at(&self, rel: i64) -> u64 {
        let pattern = u128::from(self.pattern[0]) | u128::from(self.pattern[1]) << 64;
        pattern_word(pattern, rel)
    }
}

/// The bits of one domain word that an exclusion pattern (bit `o + 64` for each offset
/// `o`) excludes around the value at bit `rel` of that word (`rel` in `0..64`).
#[inline]
pub(crate) fn pattern_word(pattern: u128, rel: i64) -> u64 {
    debug_assert!((0..64).contains(&rel));
    // Bit `o + 64 + rel` lands in the high half exactly when `rel + o` is in `0..64`.
    ((pattern << rel) >> 64) as u64
}

/// A propagator's scheduling rules, read once per model (not through virtual calls
/// per change or per search).
#[derive(Clone, Copy)]
pub(crate) struct PropFlags {
    pub(crate) wake: Wake,
    pub(crate) priority: Priority,
    pub(crate) idempotent: bool,
}

/// A variable's membership in an n-ary constraint.
#[derive(Clone, Copy)]
pub(crate) struct Watch {
    pub(crate) prop: u32,
    pub(crate) local: u32,
}

/// What a change of each variable's domain wakes, sorted out once per model so that an
/// announcement reads no rules: the propagators woken by any change, one row per
/// [`crate::Priority`] queue, and the watches told which variable became fixed.
pub(crate) struct Wakes {
    /// Two rows per variable, the fast queue's then the slow queue's (see
    /// [`Wakes::on_change`]).
    on_change: Rows<u32>,
    pub(crate) on_fixed: Rows<Watch>,
}

impl Wakes {
    /// The propagators any change of `var` wakes, one list per [`crate::Priority`] queue:
    /// both found with one look at the row starts.
    #[inline]
    pub(crate) fn on_change(&self, var: usize) -> [&[u32]; 2] {
        let start = &self.on_change.start[2 * var..2 * var + 3];
        let (fast, slow) = self.on_change.items[start[0] as usize..start[2] as usize]
            .split_at((start[1] - start[0]) as usize);
        [fast, slow]
    }
}

/// Compressed rows: `items[start[i]..start[i + 1]]` belong to row `i`.
pub(crate) struct Rows<T> {
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T> Rows<T> {
    fn from_lists(lists: Vec<Vec<T>>) -> Self {
        let mut start = Vec::with_capacity(lists.len() + 1);
        start.push(0);
        let mut items = Vec::with_capacity(lists.iter().map(Vec::len).sum());
        for list in lists {
            items.extend(list);
            start.push(items.len() as u32);
        }
        Rows { start, items }
    }

    #[inline]
    pub(crate) fn row(&self, i: usize) -> &[T] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

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
    fn build(adjacency: &[Vec<Adjacent>]) -> Option<NeighbourSets> {
        let n = adjacency.len();
        let sorted = adjacency
            .iter()
            .all(|row| row.windows(2).all(|w| w[0].other < w[1].other));
        if n > Self::MAX_VARS || !sorted {
            return None;
        }
        let words = n.div_ceil(64).max(1);
        let mut masks = vec![0u64; n * words];
        let mut ranks = vec![0u32; n * words];
        let rows = masks.chunks_exact_mut(words).zip(ranks.chunks_exact_mut(words));
        for (row, (set, rank)) in adjacency.iter().zip(rows) {
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

/// The compiled network of a [`Model`].
pub(crate) struct Network {
    pub(crate) arcs: Vec<Arc>,
    pub(crate) adjacency: Rows<Adjacent>,
    /// Per variable, its forward-checking steps, in the order of `adjacency`.
    pub(crate) fc: Rows<FcStep>,
    /// Per variable, in the order of `adjacency`: the step from each neighbour back to the
    /// variable (which of its values the neighbour's value rules out). Under inference
    /// `none` this counts legal values with a few word operations.
    pub(crate) fc_back: Rows<FcStep>,
    pub(crate) watches: Rows<Watch>,
    pub(crate) wakes: Wakes,
    /// The initial domains, ready to be cloned into each search.
    pub(crate) initial: Store,
    /// Each propagator's scheduling rules.
    pub(crate) prop_flags: Vec<PropFlags>,
    /// Each variable's number of constraints: its weighted degree before any failure.
    pub(crate) degrees: Vec<u64>,
    /// The most variables of one propagator.
    pub(crate) max_arity: usize,
    /// Whether some propagator's pruning may be incomplete (see `Propagator::prunes_exactly`).
    pub(crate) final_check: bool,
    /// When the model is binary constraints only, every domain the one word at its
    /// variable's index at one shared base, every forward-checking step compiled and
    /// there are at most [`NeighbourSets::MAX_VARS`] variables: the setting of the
    /// compiled forward-checking search, which visits neighbours through these sets.
    pub(crate) compiled_fc: Option<NeighbourSets>,
}

impl Network {
    pub(crate) fn build(model: &Model) -> Network {
        let n = model.num_vars();
        let mut arcs = Vec::new();
        let mut adjacency: Vec<Vec<Adjacent>> = vec![Vec::new(); n];
        for (&(x, y), relations) in model.pairs() {
            let forward: Vec<Oriented> = relations.iter().map(|(r, rev)| r.oriented(*rev)).collect();
            let backward: Vec<Oriented> = relations.iter().map(|(r, rev)| r.oriented(!rev)).collect();
            let out_arc = arcs.len() as u32;
            let forward = ArcKind::compile(&forward, model, x, y);
            let backward = ArcKind::compile(&backward, model, y, x);
            adjacency[x.index()].push(Adjacent {
                other: y,
                out_arc,
                in_arc: out_arc + 1,
                in_arc_prunes_at: backward.prunes_at(),
            });
            adjacency[y.index()].push(Adjacent {
                other: x,
                out_arc: out_arc + 1,
                in_arc: out_arc,
                in_arc_prunes_at: forward.prunes_at(),
            });
            arcs.push(Arc { x, y, kind: forward });
            arcs.push(Arc {
                x: y,
                y: x,
                kind: backward,
            });
        }
        let prop_flags: Vec<PropFlags> = model
            .propagators()
            .iter()
            .map(|p| PropFlags {
                wake: p.wake(),
                priority: p.priority(),
                idempotent: p.is_idempotent(),
            })
            .collect();
        let mut watches: Vec<Vec<Watch>> = vec![Vec::new(); n];
        for (p, prop) in model.propagators().iter().enumerate() {
            for (local, var) in prop.variables().iter().enumerate() {
                watches[var.index()].push(Watch {
                    prop: p as u32,
                    local: local as u32,
                });
            }
        }
        let wakes = Wakes {
            on_change: Rows::from_lists(
                watches
                    .iter()
                    .flat_map(|row| {
                        [Priority::Fast, Priority::Slow].map(|priority| {
                            row.iter()
                                .map(|w| w.prop)
                                .filter(|&p| {
                                    let flags = prop_flags[p as usize];
                                    flags.wake.on_change() && flags.priority == priority
                                })
                                .collect()
                        })
                    })
                    .collect(),
            ),
            on_fixed: Rows::from_lists(
                watches
                    .iter()
                    .map(|row| {
                        row.iter()
                            .copied()
                            .filter(|w| prop_flags[w.prop as usize].wake.on_fixed())
                            .collect()
                    })
                    .collect(),
            ),
        };
        let degrees = adjacency
            .iter()
            .zip(&watches)
            .map(|(adj, watch)| (adj.len() + watch.len()) as u64)
            .collect();
        let props = model.propagators();
        let words: Vec<(i32, Vec<u64>)> = model
            .vars()
            .map(|v| (model.domain(v).base(), model.domain(v).words()))
            .collect();
        let initial = Store::new(words.iter().map(|(b, w)| (*b, w.as_slice())));
        let fc: Vec<Vec<FcStep>> = adjacency
            .iter()
            .map(|row| {
                row.iter()
                    .map(|adj| FcStep::compile(adj.other, adj.in_arc, &arcs, &initial))
                    .collect()
            })
            .collect();
        let fc_back = adjacency
            .iter()
            .enumerate()
            .map(|(v, row)| {
                row.iter()
                    .map(|adj| FcStep::compile(VarId(v as u32), adj.out_arc, &arcs, &initial))
                    .collect()
            })
            .collect();
        let compiled_fc = (props.is_empty()
            && initial.uniform_words().is_some()
            && fc
                .iter()
                .flatten()
                .all(|step: &FcStep| step.word != FcStep::GENERAL))
        .then(|| NeighbourSets::build(&adjacency))
        .flatten();
        Network {
            compiled_fc,
            arcs,
            adjacency: Rows::from_lists(adjacency),
            fc: Rows::from_lists(fc),
            fc_back: Rows::from_lists(fc_back),
            watches: Rows::from_lists(watches),
            wakes,
            initial,
            prop_flags,
            degrees,
            max_arity: props.iter().map(|p| p.variables().len()).max().unwrap_or(0),
            final_check: props.iter().any(|p| !p.prunes_exactly()),
        }
    }
}

impl FcStep {
    /// The step that prunes `other` through `in_arc` (the arc `other -> assigned variable`).
    fn compile(other: VarId, in_arc: u32, arcs: &[Arc], store: &Store) -> FcStep {
        let general = FcStep {
            other,
            in_arc,
            word: Self::GENERAL,
            base: 0,
            checks: 0,
            pattern: [0; 2],
        };
        match (&arcs[in_arc as usize].kind, store.single_word(other)) {
            (
                ArcKind::Exclude(Exclusions {
                    offsets,
                    pattern: Some(pattern),
                }),
                Some(word),
            ) => FcStep {
                word: word as u32,
                base: store.base(other),
                checks: offsets.len() as u32,
                pattern: [*pattern as u64, (*pattern >> 64) as u64],
                ..general
            },
            _ => general,
        }
    }
}

impl ArcKind {
    fn compile(relations: &[Oriented], model: &Model, x: VarId, y: VarId) -> ArcKind {
        let mut offsets: SmallVec<[i64; 4]> = SmallVec::new();
        let all_exclusions = relations.iter().all(|r| match r {
            Oriented::Exclude(o) => {
                offsets.push(*o);
                true
            }
            Oriented::AbsExclude(c) => {
                // A negative distance never occurs: it excludes nothing.
                if *c >= 0 {
                    offsets.push(*c);
                    offsets.push(-*c);
                }
                true
            }
            _ => false,
        });
        if all_exclusions {
            return ArcKind::Exclude(Exclusions::new(offsets));
        }
        match relations {
            [Oriented::Equal(c)] => ArcKind::Equal(*c),
            [Oriented::LessEq(c)] => ArcKind::LessEq(*c),
            [Oriented::GreaterEq(c)] => ArcKind::GreaterEq(*c),
            [Oriented::Table(pairs)] => {
                let dx = model.domain(x);
                let dy = model.domain(y);
                let x_base = dx.base();
                let x_span = (dx.values().last().unwrap_or(x_base) - x_base + 1) as usize;
                let y_base = dy.base();
                let y_words = dy.words().len();
                let mut supports = vec![0u64; x_span * y_words].into_boxed_slice();
                for &(a, b) in pairs.iter() {
                    let (ia, ib) = (i64::from(a) - i64::from(x_base), i64::from(b) - i64::from(y_base));
                    if (0..x_span as i64).contains(&ia) && (0..(y_words * 64) as i64).contains(&ib) {
                        let (ia, ib) = (ia as usize, ib as usize);
                        supports[ia * y_words + ib / 64] |= 1 << (ib % 64);
                    }
                }
                ArcKind::Table {
                    x_base,
                    x_span,
                    y_base,
                    y_words,
                    supports,
                }
            }
            _ => ArcKind::General(relations.into()),
        }
    }

    /// The largest size of `y`'s domain at which revising `x` against it can remove a
    /// value (every value of `y` must exclude the same value of `x`).
    fn prunes_at(&self) -> u32 {
        match self {
            ArcKind::Exclude(exclusions) => exclusions.offsets.len() as u32,
            _ => u32::MAX,
        }
    }

    /// Whether `x = a` and `y = b` are compatible.
    #[inline]
    pub(crate) fn allows(&self, a: i32, b: i32) -> bool {
        match self {
            ArcKind::Exclude(exclusions) => {
                let d = i64::from(a) - i64::from(b);
                !exclusions.offsets.contains(&d)
            }
            ArcKind::Equal(c) => i64::from(a) == i64::from(b) + *c,
            ArcKind::LessEq(c) => i64::from(a) <= i64::from(b) + i64::from(*c),
            ArcKind::GreaterEq(c) => i64::from(a) >= i64::from(b) + i64::from(*c),
            ArcKind::Table {
                x_base,
                x_span,
                y_base,
                y_words,
                supports,
            } => {
                let ia = i64::from(a) - i64::from(*x_base);
                let ib = i64::from(b) - i64::from(*y_base);
                if !(0..*x_span as i64).contains(&ia) || !(0..(*y_words * 64) as i64).contains(&ib) {
                    return false;
                }
                let (ia, ib) = (ia as usize, ib as usize);
                supports[ia * y_words + ib / 64] >> (ib % 64) & 1 == 1
            }
            ArcKind::General(relations) => relations.iter().all(|r| r.holds(a, b)),
        }
    }

    /// Forward checking: removes from `x` every value incompatible with `y = b`.
    /// Returns the number of values removed.
    #[inline]
    pub(crate) fn prune_against(
        &self,
        x: VarId,
        y: VarId,
        b: i32,
        store: &mut Store,
        checks: &mut u64,
    ) -> u32 {
        match self {
            ArcKind::Exclude(exclusions) => {
                *checks += exclusions.offsets.len() as u64;
                exclusions.remove_from(x, b, store)
            }
            _ => self.revise(x, y, store, checks),
        }
    }

    /// Removes from `x` every value without a support in `y`.
    /// Returns the number of values removed; `checks` counts the support tests made.
    pub(crate) fn revise(&self, x: VarId, y: VarId, store: &mut Store, checks: &mut u64) -> u32 {
        match self {
            ArcKind::Exclude(exclusions) => revise_exclude(exclusions, x, y, store, checks),
            ArcKind::Equal(c) => {
                // a survives iff a - c is in y: keep x's bits where y's bits, shifted, are set.
                let shift = i64::from(store.base(x)) - *c - i64::from(store.base(y));
                let x_words = store.bits(x).len();
                *checks += u64::from(store.size(x));
                let mut mask: SmallVec<[u64; 4]> = SmallVec::with_capacity(x_words);
                let y_bits = store.bits(y);
                for w in 0..x_words {
                    mask.push(extract_word(y_bits, shift + (w as i64) * 64));
                }
                store.retain_bits(x, &mask)
            }
            ArcKind::LessEq(c) => match store.max(y) {
                Some(max) => {
                    *checks += 1;
                    store.retain_range(x, i64::MIN, i64::from(max) + i64::from(*c))
                }
                None => 0,
            },
            ArcKind::GreaterEq(c) => match store.min(y) {
                Some(min) => {
                    *checks += 1;
                    store.retain_range(x, i64::from(min) + i64::from(*c), i64::MAX)
                }
                None => 0,
            },
            ArcKind::Table {
                x_base,
                y_words,
                supports,
                ..
            } => {
                let mut removed = 0;
                let mut cursor = None;
                while let Some(a) = store.next_value(x, cursor) {
                    cursor = Some(a);
                    *checks += 1;
                    let row = (a - x_base) as usize * y_words;
                    let supported = supports[row..row + y_words]
                        .iter()
                        .zip(store.bits(y))
                        .any(|(s, d)| s & d != 0);
                    if !supported && store.remove(x, a) {
                        removed += 1;
                    }
                }
                removed
            }
            ArcKind::General(relations) => {
                let mut removed = 0;
                let mut cursor = None;
                while let Some(a) = store.next_value(x, cursor) {
                    cursor = Some(a);
                    let mut supported = false;
                    for b in store.values(y) {
                        *checks += 1;
                        if relations.iter().all(|r| r.holds(a, b)) {
                            supported = true;
                            break;
                        }
                    }
                    if !supported && store.remove(x, a) {
                        removed += 1;
                    }
                }
                removed
            }
        }
    }
}

/// Revision for exclusion arcs. A value `a` of `x` loses its support only if every
/// value `b` of `y` excludes it, that is `a - b` is one of the `k` offsets; that needs
/// `|D(y)| <= k`, so larger domains of `y` are skipped at once.
fn revise_exclude(exclusions: &Exclusions, x: VarId, y: VarId, store: &mut Store, checks: &mut u64) -> u32 {
    let offsets = &exclusions.offsets[..];
    let size_y = store.size(y) as usize;
    if size_y == 0 || size_y > offsets.len() {
        return 0;
    }
    let Some(first) = store.min(y) else {
        return 0;
    };
    if size_y == 1 {
        // The forward-checking case: exactly the values `b + o` lose their support.
        *checks += offsets.len() as u64;
        return exclusions.remove_from(x, first, store);
    }
    let mut doomed: SmallVec<[i32; 8]> = SmallVec::new();
    for &o in offsets {
        let Ok(a) = i32::try_from(i64::from(first) + o) else {
            continue;
        };
        if !store.contains(x, a) {
            continue;
        }
        *checks += 1;
        let unsupported = store
            .values(y)
            .all(|b| offsets.contains(&(i64::from(a) - i64::from(b))));
        if unsupported {
            doomed.push(a);
        }
    }
    doomed.into_iter().filter(|&a| store.remove(x, a)).count() as u32
}

/// The 64 bits of `bits` starting at bit position `start` (may lie partly or wholly
/// outside the slice: missing bits read as 0).
#[inline]
pub(crate) fn extract_word(bits: &[u64], start: i64) -> u64 {
    let word_at = |i: i64| -> u64 {
        if i < 0 || i >= bits.len() as i64 {
            0
        } else {
            bits[i as usize]
        }
    };
    let index = start.div_euclid(64);
    let shift = start.rem_euclid(64) as u32;
    if shift == 0 {
        word_at(index)
    } else {
        (word_at(index) >> shift) | (word_at(index + 1) << (64 - shift))
    }
}

#[cfg(test)]
mod tests {
    use super::extract_word;

    #[test]
    fn extract_word_handles_shifts_and_bounds() {
        let bits = [0b1011u64, 1];
        assert_eq!(extract_word(&bits, 0), 0b1011);
        assert_eq!(extract_word(&bits, 1), 0b101 | 1 << 63);
        assert_eq!(extract_word(&bits, -2), 0b101100);
        assert_eq!(extract_word(&bits, 64), 1);
        assert_eq!(extract_word(&bits, 200), 0);
        assert_eq!(extract_word(&bits, -64), 0);
    }
}
