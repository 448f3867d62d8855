//! Forward-checking steps: an exclusion arc into a one-word domain compiled to a bit
//! pattern, so that pruning a neighbour is one shift and one masked write.

use super::arcs::{ArcKind, DirectedArc, Exclusions};
use crate::store::{Store, pattern_word};
use crate::var::VarId;

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

impl FcStep {
    /// The step that prunes `other` through `in_arc` (the arc `other -> assigned variable`).
    pub(super) fn compile(other: VarId, in_arc: u32, arcs: &[DirectedArc], store: &Store) -> FcStep {
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
                pattern: *pattern,
                ..general
            },
            _ => general,
        }
    }
}
