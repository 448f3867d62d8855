//! The store's domain words: on the heap, or, for a large store on Linux, in memory of
//! its own that the kernel is asked to back with huge pages.
//!
//! Forward checking on a large board reads tens of thousands of domain words per node,
//! spread over the whole store: with 4 KB pages nearly every one of those reads needs
//! an address translation the TLB no longer holds. With 2 MB pages the translations of
//! the whole store fit in the TLB. Linux grants huge pages to ordinary allocations only
//! when the system is set to give them to every process (`always`); under the common
//! `madvise` setting a mapping must ask for them, which the heap does not. Elsewhere,
//! and when the kernel refuses, the words are ordinary memory with the same contents.

use std::ops::{Deref, DerefMut};

/// The fewest words worth a mapping of their own: one huge page (2 MB).
const MAPPED_WORDS: usize = 1 << 18;

/// Domain words, zeroed at creation.
pub(super) enum Words {
    Heap(Vec<u64>),
    #[cfg(target_os = "linux")]
    Mapped(memmap2::MmapMut),
}

impl Words {
    /// `len` zero words; a mapping with huge pages asked for if `len` is large.
    pub(super) fn zeroed(len: usize) -> Words {
        #[cfg(target_os = "linux")]
        if len >= MAPPED_WORDS
            && let Ok(map) = memmap2::MmapMut::map_anon(len * 8)
        {
            // Advice only: without huge pages the mapping works all the same.
            let _ = map.advise(memmap2::Advice::HugePage);
            return Words::Mapped(map);
        }
        Words::Heap(vec![0; len])
    }
}

impl Default for Words {
    fn default() -> Words {
        Words::Heap(Vec::new())
    }
}

impl Deref for Words {
    type Target = [u64];

    #[inline(always)]
    fn deref(&self) -> &[u64] {
        match self {
            Words::Heap(words) => words,
            // A mapping is page-aligned and its length a multiple of 8: the cast holds.
            #[cfg(target_os = "linux")]
            Words::Mapped(map) => bytemuck::cast_slice(map),
        }
    }
}

impl DerefMut for Words {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [u64] {
        match self {
            Words::Heap(words) => words,
            #[cfg(target_os = "linux")]
            Words::Mapped(map) => bytemuck::cast_slice_mut(map),
        }
    }
}

impl Clone for Words {
    fn clone(&self) -> Words {
        let mut copy = Words::zeroed(self.len());
        copy.copy_from_slice(self);
        copy
    }
}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} domain words", self.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_and_small_words_start_zeroed_and_clone_exactly() {
        for len in [0, 3, MAPPED_WORDS, MAPPED_WORDS + 5] {
            let mut words = Words::zeroed(len);
            assert_eq!(words.len(), len);
            assert!(words.iter().all(|&w| w == 0));
            if len > 0 {
                words[len - 1] = 7;
                words[0] = !0;
            }
            assert_eq!(&words.clone()[..], &words[..]);
        }
    }
}
