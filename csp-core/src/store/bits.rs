//! One domain's bit words as the store lays them out: in a row, or one word in every
//! `stride` when the store interleaves its domains ([`super::Layout::ByWord`]).

use std::ops::Index;

/// A domain's bit words: bit `i` of word `k` stands for value `base + 64 k + i`.
///
/// Word `k` is at `start + k * stride` of the store's words. A store that keeps each
/// domain in a row has stride 1; one that interleaves them (every domain of equal width
/// and wider than one word) keeps word `k` of all variables side by side, so that
/// removing one value from many variables reads neighbouring words.
#[derive(Clone, Copy, Debug)]
pub struct DomainBits<'a> {
    words: &'a [u64],
    start: usize,
    len: usize,
    stride: usize,
}

impl<'a> DomainBits<'a> {
    #[inline]
    pub(crate) fn new(words: &'a [u64], start: usize, len: usize, stride: usize) -> Self {
        debug_assert!(len == 0 || start + (len - 1) * stride < words.len());
        DomainBits {
            words,
            start,
            len,
            stride,
        }
    }

    /// The number of words.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the domain has no words at all (never the case for a model's variable).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Word `k`, or `None` past the last.
    #[inline]
    pub fn get(&self, k: usize) -> Option<u64> {
        (k < self.len).then(|| self.words[self.start + k * self.stride])
    }

    /// The only word of a domain that fits in one.
    #[inline]
    pub fn single(&self) -> Option<u64> {
        (self.len == 1).then(|| self.words[self.start])
    }

    /// The words in order.
    #[inline]
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = u64> + ExactSizeIterator + 'a {
        let (words, start, stride) = (self.words, self.start, self.stride);
        (0..self.len).map(move |k| words[start + k * stride])
    }

    /// The words copied into a vector.
    pub fn to_vec(&self) -> Vec<u64> {
        self.iter().collect()
    }

    /// The 64 bits from bit `bit` on (which may be negative); bits outside the domain's
    /// words read as 0. It lines up domains with different bases: bit `i` of
    /// `a.window(base_b - base_a)` stands for value `base_b + i`, as bit `i` of `b`'s first
    /// word does.
    #[inline]
    pub fn window(&self, bit: i64) -> u64 {
        window(|k| self.get(k), bit)
    }
}

/// Transposes a 64 x 64 bit matrix in place: bit `k` of `rows[r]` becomes bit `r` of
/// `rows[k]`. Six rounds swap ever smaller blocks (32 x 32, then 16 x 16, ...) across the
/// diagonal, a word at a time: 192 word operations instead of 4,096 bit moves.
pub(crate) fn transpose64(rows: &mut [u64; 64]) {
    let (mut width, mut low) = (32usize, 0x0000_0000_ffff_ffff_u64);
    while width != 0 {
        let mut k = 0;
        while k < 64 {
            let swapped = ((rows[k] >> width) ^ rows[k + width]) & low;
            rows[k] ^= swapped << width;
            rows[k + width] ^= swapped;
            k = (k + width + 1) & !width;
        }
        width >>= 1;
        low ^= low << width;
    }
}

/// The 64 bits from bit `bit` on of the words that `word` gives (`None` past the last, and
/// bits before the first read as 0).
#[inline]
pub(crate) fn window(word: impl Fn(usize) -> Option<u64>, bit: i64) -> u64 {
    let at = |k: i64| usize::try_from(k).ok().and_then(&word).unwrap_or(0);
    let (k, r) = (bit.div_euclid(64), bit.rem_euclid(64) as u32);
    if r == 0 {
        at(k)
    } else {
        (at(k) >> r) | (at(k + 1) << (64 - r))
    }
}

impl Index<usize> for DomainBits<'_> {
    type Output = u64;

    #[inline]
    fn index(&self, k: usize) -> &u64 {
        assert!(k < self.len, "word {k} of a domain of {} words", self.len);
        &self.words[self.start + k * self.stride]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_words_read_every_stride_th_word() {
        let words = [10, 20, 11, 21, 12, 22];
        let second = DomainBits::new(&words, 1, 3, 2);
        assert_eq!(second.to_vec(), vec![20, 21, 22]);
        assert_eq!(second[2], 22);
        assert_eq!(second.get(3), None);
        assert_eq!(second.single(), None);
        assert_eq!(second.iter().next_back(), Some(22));
        assert_eq!(DomainBits::new(&words, 4, 1, 2).single(), Some(12));
    }

    #[test]
    fn transposes_match_bit_by_bit() {
        let mut state = 0x1234_5678_9abc_def1_u64;
        for _ in 0..50 {
            let mut rows = [0u64; 64];
            for row in &mut rows {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *row = state;
            }
            let mut transposed = rows;
            transpose64(&mut transposed);
            for (r, row) in rows.iter().enumerate() {
                for (k, column) in transposed.iter().enumerate() {
                    assert_eq!(row >> k & 1, column >> r & 1, "({r}, {k})");
                }
            }
        }
    }

    #[test]
    fn windows_read_any_64_bits_with_zeros_outside() {
        let words = [0x8000_0000_0000_0001, 0x3];
        let bits = DomainBits::new(&words, 0, 2, 1);
        assert_eq!(bits.window(0), words[0]);
        assert_eq!(bits.window(64), 0x3);
        assert_eq!(bits.window(63), 0x7);
        assert_eq!(bits.window(-1), 0x2);
        assert_eq!(bits.window(-64), 0);
        assert_eq!(bits.window(-63), 0x1 << 63);
        assert_eq!(bits.window(66), 0);
        assert_eq!(bits.window(1 << 40), 0);
    }
}
