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
#[derive(Default)]
pub(super) struct Words {
    /// The words, unless they are mapped.
    heap: Vec<u64>,
    #[cfg(target_os = "linux")]
    mapped: Option<memmap2::MmapMut>,
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
            return Words {
                heap: Vec::new(),
                mapped: Some(map),
            };
        }
        Words::from(vec![0; len])
    }

    /// The words of a store that [`Words::zeroed`] did not map (every store laid out by
    /// variable), without the test of which memory holds them: the uniform layout's
    /// hot paths read words this way.
    #[inline(always)]
    pub(super) fn heap(&self) -> &[u64] {
        debug_assert!(!self.is_mapped());
        &self.heap
    }

    /// [`Words::heap`], to change.
    #[inline(always)]
    pub(super) fn heap_mut(&mut self) -> &mut [u64] {
        debug_assert!(!self.is_mapped());
        &mut self.heap
    }

    fn is_mapped(&self) -> bool {
        #[cfg(target_os = "linux")]
        return self.mapped.is_some();
        #[cfg(not(target_os = "linux"))]
        false
    }
}

impl From<Vec<u64>> for Words {
    fn from(heap: Vec<u64>) -> Words {
        Words {
            heap,
            #[cfg(target_os = "linux")]
            mapped: None,
        }
    }
}

impl Deref for Words {
    type Target = [u64];

    #[inline(always)]
    fn deref(&self) -> &[u64] {
        #[cfg(target_os = "linux")]
        if let Some(map) = &self.mapped {
            // A mapping is page-aligned and its length a multiple of 8: the cast holds.
            return bytemuck::cast_slice(map);
        }
        &self.heap
    }
}

impl DerefMut for Words {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [u64] {
        #[cfg(target_os = "linux")]
        if let Some(map) = &mut self.mapped {
            return bytemuck::cast_slice_mut(map);
        }
        &mut self.heap
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
