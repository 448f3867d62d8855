//! The uniform layout: every domain is the one word at its variable's index, at one
//! shared base (every Sudoku up to 64x64, n-queens up to 64). Propagators and the
//! compiled forward-checking search read and narrow the words in place.

use super::{Mark, Store, TrailEntry};
use crate::var::VarId;

/// A store in the uniform layout (each domain the one word at its variable's index, one
/// shared base), opened as plain slices for the compiled forward-checking search, whose
/// inner loop then keeps them in registers.
pub(crate) struct UniformStore<'a> {
    pub(crate) words: &'a mut [u64],
    pub(crate) size: &'a mut [u32],
    pub(crate) base: i32,
    pub(super) trail: &'a mut Vec<TrailEntry>,
    /// [`Store`]'s count of entries dropped from the trail's front.
    pub(super) dropped: usize,
}

impl UniformStore<'_> {
    #[inline(always)]
    pub(crate) fn mark(&self) -> Mark {
        self.dropped + self.trail.len()
    }

    /// Removes `bits` (a non-empty subset of its word) from `var`; returns the new word.
    #[inline(always)]
    pub(crate) fn clear(&mut self, var: usize, bits: u64) -> u64 {
        let old = self.words[var];
        debug_assert!(bits != 0 && old & bits == bits);
        self.trail.push(TrailEntry {
            word: var as u32,
            old_size: self.size[var],
            old_bits: old,
        });
        self.size[var] -= bits.count_ones();
        self.words[var] = old ^ bits;
        old ^ bits
    }

    /// Removes `bits` (a subset of its word, possibly empty) from `var`, without a
    /// branch on whether there is anything to remove (an empty removal leaves no trail
    /// entry); returns the new word.
    #[inline(always)]
    pub(crate) fn clear_any(&mut self, var: usize, bits: u64) -> u64 {
        let old = self.words[var];
        debug_assert!(old & bits == bits);
        self.trail.push(TrailEntry {
            word: var as u32,
            old_size: self.size[var],
            old_bits: old,
        });
        let kept = self.trail.len() - usize::from(bits == 0);
        self.trail.truncate(kept);
        self.size[var] -= bits.count_ones();
        self.words[var] = old ^ bits;
        old ^ bits
    }

    /// [`Store::undo_to`].
    #[inline(always)]
    pub(crate) fn undo_to(&mut self, mark: Mark) {
        let keep = mark - self.dropped;
        for entry in self.trail[keep..].iter().rev() {
            self.words[entry.word as usize] = entry.old_bits;
            self.size[entry.word as usize] = entry.old_size;
        }
        self.trail.truncate(keep);
    }
}

impl Store {
    /// Every domain word with the shared base, when each variable's domain is the one word
    /// at its index.
    #[inline]
    pub(crate) fn uniform_words(&self) -> Option<(&[u64], i32)> {
        self.uniform.map(|base| (self.words.heap(), base))
    }

    /// The base shared by every domain in the uniform layout ([`Store::uniform_words`]).
    #[inline]
    pub(crate) fn uniform_base(&self) -> Option<i32> {
        self.uniform
    }

    /// The store as a [`UniformStore`], if it has the uniform layout.
    pub(crate) fn uniform_mut(&mut self) -> Option<UniformStore<'_>> {
        let base = self.uniform?;
        Some(UniformStore {
            words: self.words.heap_mut(),
            size: &mut self.size,
            base,
            trail: &mut self.trail,
            dropped: self.dropped,
        })
    }

    /// [`Store::retain_bits`] for the uniform layout ([`Store::uniform_words`]): the
    /// number of values removed and the domain left.
    #[inline]
    pub(crate) fn retain_word(&mut self, var: VarId, mask: u64) -> (u32, u64) {
        debug_assert!(self.uniform.is_some(), "one word per variable");
        let v = var.index();
        // Both places found once: the trail's growth cannot move them.
        let (word, size) = (&mut self.words.heap_mut()[v], &mut self.size[v]);
        let old = *word;
        let new = old & mask;
        if new == old {
            return (0, new);
        }
        // The word is the whole domain: its bits are the size.
        let old_size = *size;
        self.trail.push(TrailEntry {
            word: v as u32,
            old_size,
            old_bits: old,
        });
        *word = new;
        *size = new.count_ones();
        (old_size - *size, new)
    }

    /// [`Store::retain_word`] without a trail entry, for changes no search undoes (those
    /// made before its root mark): one masked write and a size.
    pub(crate) fn retain_word_for_good(&mut self, var: VarId, mask: u64) {
        debug_assert!(self.uniform.is_some(), "one word per variable");
        self.initial_at = None;
        let word = &mut self.words.heap_mut()[var.index()];
        *word &= mask;
        self.size[var.index()] = word.count_ones();
    }
}
