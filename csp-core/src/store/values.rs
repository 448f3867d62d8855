//! Iterating over a domain's values.

/// Ascending iterator over one domain's values.
pub struct Values<'a> {
    pub(super) bits: &'a [u64],
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
            if self.word_index >= self.bits.len() {
                return None;
            }
            self.word = self.bits[self.word_index];
        }
    }
}
