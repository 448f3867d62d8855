//! Directed arcs: how revising `x` against `y` works for each kind of binary relation,
//! with the fast paths (exclusions, offsets, bounds, tables) compiled once per model.

use smallvec::SmallVec;

use crate::memory::MAX_SUPPORT_WORDS;
use crate::model::Model;
use crate::relation::Oriented;
use crate::store::{DomainBits, Store};
use crate::var::VarId;

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
    pub(super) offsets: SmallVec<[i64; 4]>,
    /// Bit `o + 64` for each offset `o`, when every offset lies in `-64..64`, as (low,
    /// high) words: a `u128` would align the whole arc to 16 bytes and pad it by a third.
    pub(super) pattern: Option<[u64; 2]>,
}

impl Exclusions {
    fn new(mut offsets: SmallVec<[i64; 4]>) -> Self {
        offsets.sort_unstable();
        offsets.dedup();
        let pattern = offsets
            .iter()
            .try_fold(0u128, |p, &o| (-64..64).contains(&o).then(|| p | 1 << (o + 64)))
            .map(|p| [p as u64, (p >> 64) as u64]);
        Exclusions { offsets, pattern }
    }

    /// Removes the values `center + o` of `x`; returns how many were present.
    #[inline]
    fn remove_from(&self, x: VarId, center: i32, store: &mut Store) -> u32 {
        let pattern = self
            .pattern
            .map(|[low, high]| u128::from(low) | u128::from(high) << 64);
        store.remove_around(x, center, &self.offsets, pattern)
    }
}

/// A directed arc: revise `x` against `y`. Arcs `2k` and `2k + 1` are each other's reverse.
pub(crate) struct DirectedArc {
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

impl ArcKind {
    pub(super) fn compile(relations: &[Oriented], model: &Model, x: VarId, y: VarId) -> ArcKind {
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
            [Oriented::Table(pairs)] if model.support_words(x, y) <= MAX_SUPPORT_WORDS => {
                let dx = model.domain(x);
                let dy = model.domain(y);
                let x_base = dx.base();
                let x_span = (dx.max() - x_base + 1) as usize;
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
            // A table too wide for a support matrix (two values 2^20 apart on each side
            // would take 128 GiB) is searched instead: its pairs are sorted.
            _ => ArcKind::General(relations.into()),
        }
    }

    /// The largest size of `y`'s domain at which revising `x` against it can remove a
    /// value (every value of `y` must exclude the same value of `x`).
    pub(super) fn prunes_at(&self) -> u32 {
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
                if *y_words == 1 {
                    if let (Some(xs), Some(ys)) = (store.bits(x).single(), store.bits(y).single()) {
                        return revise_table_word(store, x, xs, ys, *x_base, supports, checks);
                    }
                }
                let mut removed = 0;
                let mut cursor = None;
                while let Some(a) = store.next_value(x, cursor) {
                    cursor = Some(a);
                    *checks += 1;
                    let row = (a - x_base) as usize * y_words;
                    let supported = supports[row..row + y_words]
                        .iter()
                        .zip(store.bits(y).iter())
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
pub(crate) fn extract_word(bits: DomainBits<'_>, start: i64) -> u64 {
    let word_at = |i: i64| -> u64 { usize::try_from(i).ok().and_then(|i| bits.get(i)).unwrap_or(0) };
    let index = start.div_euclid(64);
    let shift = start.rem_euclid(64) as u32;
    if shift == 0 {
        word_at(index)
    } else {
        (word_at(index) >> shift) | (word_at(index + 1) << (64 - shift))
    }
}

/// Revises `x` against `y` through a table when both domains are one word each (`xs`,
/// `ys`): the values of `x` without a support are found bit by bit and removed in one
/// write (one trail entry), with the checks of the value-by-value loop.
#[inline]
fn revise_table_word(
    store: &mut Store,
    x: VarId,
    xs: u64,
    ys: u64,
    x_base: i32,
    supports: &[u64],
    checks: &mut u64,
) -> u32 {
    let base = store.base(x);
    let mut keep = xs;
    let mut bits = xs;
    while bits != 0 {
        let bit = bits.trailing_zeros();
        bits &= bits - 1;
        let row = (base + bit as i32 - x_base) as usize;
        if supports[row] & ys == 0 {
            keep &= !(1 << bit);
        }
    }
    *checks += u64::from(xs.count_ones());
    if keep == xs {
        return 0;
    }
    store.retain_bits(x, &[keep])
}

#[cfg(test)]
mod tests {
    use super::extract_word;
    use crate::store::DomainBits;

    #[test]
    fn extract_word_handles_shifts_and_bounds() {
        let bits = DomainBits::new(&[0b1011u64, 1], 0, 2, 1);
        assert_eq!(extract_word(bits, 0), 0b1011);
        assert_eq!(extract_word(bits, 1), 0b101 | 1 << 63);
        assert_eq!(extract_word(bits, -2), 0b101100);
        assert_eq!(extract_word(bits, 64), 1);
        assert_eq!(extract_word(bits, 200), 0);
        assert_eq!(extract_word(bits, -64), 0);
    }
}
