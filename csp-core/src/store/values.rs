//! Iterating over a domain's values.

use super::DomainBits;

/// Ascending iterator over one domain's values.
pub struct Values<'a> {
    pub(super) bits: DomainBits<'a>,
    pub(super) base: i32,
    pub(super) word_index: usize,
    pub(super) word: u64,
}

impl Iterator for Values<'_> {
    type Item = i32;

    #[inline]
    fn next(&mut self) -> Option<i32> {
        loop {
            if self.word != 0 {
                let bit = self.word.trailing_zeros();
                self.word &= self.word - 1;
                return Some(self.base + (self.word_index * 64) as i32 + bit as i32);
            }
            self.word_index += 1;
            self.word = self.bits.get(self.word_index)?;
        }
    }
}
